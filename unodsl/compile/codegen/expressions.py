"""Expressions of the rules language written as Python source: the first layer of codegen.

Each expression becomes inline Python with the generic closures' exact value (`None` where they
give None, `bool` where they give a bool), and options become constants. What has no template
raises Unsupported, and the program around it runs through its closures instead.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from ...lang import ast as A
from ..decisions import Action, Decision
from ..expressions import ANY, CARD, INT, MEMBER, PILE, PILE_ATTRS, SEAT, SEATS, Ctx
from . import runtime


class Unsupported(Exception):
    """No template for this construct: the program containing it runs generically."""


def py_name(prefix: str, name: str) -> str:
    """The Python name for a rule's variable: one-to-one, so `a_b` and `a-b` stay two names
    (`_` is written `__` and `-` is written `_H`)."""
    return prefix + name.replace("_", "__").replace("-", "_H")


@dataclass(frozen=True)
class Env:
    """What the rules' names are in the Python being written."""
    player: str                      # Python expression for `player`
    actor: str
    card: str | None                 # None: no card in this context
    drawn: str = "drawn"             # the local holding `it`
    honest: str = "True"
    jumped: str = "False"
    color_arg: str = "None"          # the color named with the play
    target_arg: str = "None"
    played: str = "False"            # the local holding `played`, where the program reads it
    top: str = "g.discard[-1]"       # `top`: the pile's top card (in a run's condition, the card before)
    vars: dict = field(default_factory=dict)      # rule variable -> (Python name, type)

    @property
    def scope(self) -> dict:
        return {k: t for k, (_, t) in self.vars.items()}


_CARD_TABLES = ("kind", "rank", "color", "points", "code", "name", "colored")
_NONNULL_SEATS = {"s", "t"}
_SEAT_ORDERS = {"others", "everyone", "opponents"}     # Seats' orders: tuples of distinct seats
# a seat found from a seat that is never None (`next`, `previous`, `left`, `right` of the player)
_SEAT_OF_SEAT = re.compile(r"^g\.(next_unskipped|next_seat|clockwise)\((s|t|_t\d+)[,)]")
_NUMBERS = ("len(", "g.counters[", "g._n_active", "g.round", "g.scores[", "g.hand_points(", "sum(",
            "g.idle_turns", "g.turns_without_play")
_BOOLS = ("True", "False", "honest", "jumped")


class ExpressionWriter:
    """Names, constants and expressions of one ruleset's generated module, for `n` players."""

    def __init__(self, rules, n: int, interrupt_type, max_turns: int, sim: bool = False, record: bool = False):
        self.r = rules
        self.res = rules.resolver
        self.n = n
        self.sim = sim       # seats played inline by the random policy: no decision leaves the loop
        self.bot = False     # with sim: every choice the seat bot's own (runtime.ask), windows kept
        self.tables = None   # with bot: the bot's PlayTables, its turn then written out (codegen.bots)
        self.record = record and not sim   # the game keeps an event log
        self.ns = {"Decision": Decision, "Action": Action, "Ctx": Ctx, "Interrupt": interrupt_type, "_seats": runtime.seats,
                   "_floordiv": runtime.floordiv, "_mod": runtime.mod, "_card_attr": runtime.card_attr,
                   "_seat_attr": runtime.seat_attr, "_run_search": runtime.RunSearch, "_run_options": runtime.run_options, "_run_take": runtime.run_take,
                   "_run_back": runtime.run_back, "_run_found": runtime.run_found,
                   "_read_generic": runtime.read_generic, "drive": runtime.drive, "MAX_TURNS": max_turns,
                   "COLORS": rules.colors, "NCOLORS": len(rules.colors), "rules": rules, "MEMO": rules._memo,
                   "DRAWN": {},
                   "ASKS": tuple(0 if p is None or not (p.asks_color or p.asks_target) else
                                 1 if not p.asks_target else 2 for p in rules.on_play)}
        fixed = rules.fixed_actions(n)             # the actions that never change, per seat
        self.ns.update(FIXED=fixed, PLAYS=tuple(seat.plays for seat in fixed),
                       DRAW=tuple(seat.draw for seat in fixed), TURN=tuple(Decision(s, "turn") for s in range(n)))
        for name in _CARD_TABLES:
            self.ns["T_" + name] = getattr(rules.cards, name)
        self.ns["T_tags"] = rules.cards.tags
        self._consts: dict = {}
        self._temp = 0
        self._suffix = ""              # the variables' suffix inside a named statement written in place
        self.delegated: list = []      # programs left to the generic closures, for the record

    def event(self, ind: int, call: str) -> list:
        """An event for the game's log: written only into the code for games that keep one."""
        return [(ind, call)] if self.record else []

    # ---- names in the generated module --------------------------------------------------------
    def const(self, value, hint: str = "K") -> str:
        key = id(value)
        if key not in self._consts:
            name = f"{hint}{len(self._consts)}"
            self.ns[name] = value
            self._consts[key] = (name, value)      # keeps value alive, so its id stays unique
        return self._consts[key][0]

    def temp(self, stem: str = "t") -> str:
        self._temp += 1
        return f"_{stem}{self._temp}"

    def local(self, prefix: str, name: str) -> str:
        """The Python name of a rule's variable; inside a named statement written out in place,
        its own (so that its variables never meet the caller's)."""
        return py_name(prefix, name) + self._suffix

    def property_functions(self) -> list:
        """`prop_NAME(g, card)` for each card property worked out in play: the expression of the
        card's kind, with `card` the card read and `rank` its rank, or the fixed value of the
        kinds that have one."""
        lines = []
        for name, column in self.r.cards.computed.items():
            nodes = list({id(n): n for n in column if n is not None}.values())
            which = self.const(tuple(0 if n is None else 1 + next(k for k, m in enumerate(nodes) if m is n)
                                     for n in column), "PW_")
            fixed = self.const(self.r.cards.props[name], "P_")
            env = Env(player="None", actor="None", card="card", vars={"rank": ("T_rank[card]", INT)})
            body = []
            for k, node in enumerate(nodes, start=1):
                try:
                    src = self.expr(node, env)
                except Unsupported as missing:
                    generic = self.const(self.res.computed[name], "PF_")
                    src = f"_read_generic({generic}[card], Ctx(g, card=card), T_rank[card])"
                    self.delegated.append((name, str(missing)))
                body += [(1, f"if {which}[card] == {k}:"), (2, f"return {src}")]
            lines += [(0, f"def prop_{py_name('', name)}(g, card):"), *body, (1, f"return {fixed}[card]"), (0, "")]
        return lines

    # ---- expressions --------------------------------------------------------------------------
    def typ(self, node, env: Env) -> str:
        return self.res.compile(node, env.scope)[1]

    def expr(self, node, env: Env) -> str:
        """Python source computing `node`, with the generic closures' exact values."""
        fixed, value = self.res.constant(node, env.scope)
        if fixed and isinstance(value, (bool, int, str, type(None))):
            return repr(value)
        method = getattr(self, "_e" + type(node).__name__, None)
        if method is None:
            raise Unsupported(type(node).__name__)
        return method(node, env)

    def nonnull(self, src: str) -> bool:
        """Whether an emitted expression can never be None (so attribute reads need no guard)."""
        return (src == "card" or src in _NONNULL_SEATS or src.startswith("v_") or src.startswith("_t")
                or src == "g.discard[-1]" or _SEAT_OF_SEAT.match(src) is not None)

    def _eLiteral(self, node, env):
        return repr(node.value)

    def seat_order(self, node, env) -> bool:
        """Whether `node` is one of the game's orders of play (others, everyone, opponents),
        which are tuples of distinct seats already: nothing to make distinct or a tuple."""
        return isinstance(node, A.Name) and node.id in _SEAT_ORDERS and node.id not in env.vars

    def _eName(self, node, env):
        n = node.id
        if n in env.vars:
            return env.vars[n][0]
        r = self.r
        p = env.player
        simple = {
            "player": p, "actor": env.actor, "honest": env.honest, "jumped": env.jumped,
            "next": f"g.next_unskipped({p})", "previous": f"g.next_seat({p}, -1)",
            "dealer": "g.dealer", "winner": "g.winner",
            "others": f"g.others({p})", "everyone": f"g.everyone({p})", "opponents": f"g.opponents({p})",
            "top": env.top, "left": f"g.clockwise({p}, 1)", "right": f"g.clockwise({p}, -1)",
            "run": "g.run_length()", "stock": "'stock'", "discard": "'discard'",
            "idle_turns": "g.idle_turns", "turns_without_play": "g.turns_without_play",
        }
        if n == "card":
            if env.card is None:
                return "None"
            return env.card
        if n in simple:
            return simple[n]
        if n in r.counters:
            return f"g.counters[{n!r}]"
        if n in self.res.params:
            return repr(self.res.params[n])
        if n in r.colors or n in r.kinds or n in r.faces:
            return repr(n)
        if n in r.groups:
            return repr(r.groups[n])
        if n in self.res.rank_names:
            return repr(self.res.rank_names[n])
        raise Unsupported(f"name {n}")

    def _eBuiltin(self, node, env):
        if node.id == "colors":
            return "COLORS"
        return {"color": "g.color", "players": "g._n_active", "it": env.drawn, "round": "g.round",
                "played": env.played, "face": "g.face_name()"}[node.id]

    def _eAttr(self, node, env):
        obj = self.expr(node.obj, env)
        typ = self.typ(node.obj, env)
        name = node.name
        if typ == CARD:
            if name == "face":
                if not self.r.cards.face:
                    return "None"
                table = self.const(self.r.cards.face, "FACE_")
            elif name in _CARD_TABLES:
                table = "T_" + name
            elif name in self.r.cards.computed:
                fn = "prop_" + py_name("", name)
                return f"{fn}(g, {obj})" if self.nonnull(obj) else f"(None if {obj} is None else {fn}(g, {obj}))"
            elif name in self.r.cards.props:
                table = self.const(self.r.cards.props[name], "P_")
            else:
                raise Unsupported(f"card attribute {name}")
            return f"{table}[{obj}]" if self.nonnull(obj) else f"_card_attr({table}, {obj})"
        if typ == SEAT:
            inline = {"cards": "len(g.hands[{}])", "hand": "g.hands[{}]", "score": "g.scores[{}]",
                      "team": "g.teams[{}]", "points": "g.hand_points({})"}
            if name not in inline:
                raise Unsupported(f"player attribute {name}")
            if self.nonnull(obj):
                return inline[name].format(obj)
            getter = self.const(self.res.seat_attrs[name][1], "SA_")
            return f"_seat_attr({getter}, g, {obj})"
        if typ == PILE:
            if name not in PILE_ATTRS:
                raise Unsupported(f"pile attribute {name}")
            pile = {"'stock'": "g.stock", "'discard'": "g.discard"}.get(obj, f"g.pile({obj})")
            return {"size": f"len({pile})", "top": f"({pile}[-1] if {pile} else None)",
                    "bottom": f"({pile}[0] if {pile} else None)",
                    "cards": f"tuple(reversed({pile}))"}[name]
        raise Unsupported(f"attribute of a {typ}")

    def _eUnary(self, node, env):
        inner = self.expr(node.operand, env)
        if node.op == "not":
            return f"(not {inner})"
        return f"(-({inner} or 0))"

    def _boolean(self, node, env) -> str:
        src = self.expr(node, env)
        if src in _BOOLS:
            return src
        if isinstance(node, (A.Binary, A.Unary, A.Is)) and (
                not isinstance(node, A.Binary) or node.op not in "+-*/%") and not (
                isinstance(node, A.Unary) and node.op == "-"):
            return src
        if isinstance(node, A.Quantifier) and node.kind == "some":
            return src
        return f"bool({src})"

    def _number(self, node, env) -> str:
        src = self.expr(node, env)
        if src.lstrip("-").isdigit() or src.startswith(_NUMBERS):
            return src
        return f"({src} or 0)"

    def _eBinary(self, node, env):
        op = node.op
        if op in ("and", "or"):
            left, right = self._boolean(node.left, env), self._boolean(node.right, env)
            absorbing, neutral = ("False", "True") if op == "and" else ("True", "False")
            if absorbing in (left, right):   # rule expressions only read, so skipping one is safe
                return absorbing             # decided by an option alone (`... and two_player_rules`)
            if left == neutral:
                return right
            if right == neutral:
                return left
            return f"({left} {op} {right})"
        if op in ("==", "!="):
            return f"({self.expr(node.left, env)} {op} {self.expr(node.right, env)})"
        if op in ("<", "<=", ">", ">="):
            return f"({self._number(node.left, env)} {op} {self._number(node.right, env)})"
        if op == "in":
            return f"({self.expr(node.left, env)} in ({self.expr(node.right, env)} or ()))"
        left, right = self._number(node.left, env), self._number(node.right, env)
        if op in "+-*":
            return f"({left} {op} {right})"
        return f"{'_floordiv' if op == '/' else '_mod'}({left}, {right})"

    def _eIs(self, node, env):
        obj = self.expr(node.obj, env)
        tag = node.tag
        guard = "" if self.nonnull(obj) else f"{obj} is not None and "
        if tag == "playable":
            test = f"({guard}g.is_playable({env.player}, {obj}))"
        elif tag in self.res.tags:
            test = f"({guard}{tag!r} in T_tags[{obj}])"
        elif tag in self.r.kinds:
            test = f"({guard}T_kind[{obj}] == {tag!r})"
        else:
            raise Unsupported(f"tag {tag}")
        return f"(not {test})" if node.negate else test

    def _eCond(self, node, env):
        return f"({self.expr(node.then, env)} if {self.expr(node.test, env)} else {self.expr(node.other, env)})"

    def _eQuantifier(self, node, env):
        ctype = self.typ(node.collection, env)
        coll = self.expr(node.collection, env)
        var = self.local("v_", node.var)
        vtype = MEMBER.get(ctype, ANY)
        inner = replace(env, vars={**env.vars, node.var: (var, vtype)})
        where = f" if {self._boolean(node.where, inner)}" if node.where is not None else ""
        source = coll if coll.startswith("g.hands[") else f"tuple({coll} or ())"
        if node.kind == "some":
            return f"any(True for {var} in {source}{where})"
        if node.kind == "count":
            return f"sum(1 for {var} in {source}{where})"
        return f"sum({self._number(node.value, inner)} for {var} in {source}{where})"
