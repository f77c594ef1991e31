"""A ruleset's turn loop written out as Python source, once per ruleset and table size.

The generic loop (`Game._play_round`) interprets the compiled rules: each play builds a context
and calls a closure for every expression and statement, and each window, honesty rule and
effect is looked up and tried in general. For one ruleset at one table size most of that is
fixed. This module writes the turn loop and the play of a card as Python source instead: options
are folded into constants, expressions become inline Python (`len(g.hands[s]) == 1`), each
card's effect becomes a branch of the play function, and the next seat is `(s + direction) % n`
whenever no seat is out or moved. The source is compiled with `compile()` and run by the same
`Game`, so decisions, actions, windows and the event log are unchanged.

It knows no card or variant: it translates the language's statements and expressions. Where it
has no template for something (a rare statement, say), the whole program that contains it runs
through its generic closures instead, sharing the same state. tests/test_codegen.py checks that
the generated loop plays exactly the same games as the generic one, event for event.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Callable, NamedTuple

from . import ast as A
from .decisions import Decision
from .expressions import ANY, BOOL, CARD, CARDS, INT, SEAT, SEATS, Ctx


class Unsupported(Exception):
    """No template for this construct: the program containing it runs generically."""


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
    vars: dict = field(default_factory=dict)      # rule variable -> (Python name, type)

    @property
    def scope(self) -> dict:
        return {k: t for k, (_, t) in self.vars.items()}


def _seats(value) -> tuple:
    if value is None:
        return ()
    if isinstance(value, tuple):
        return value
    return (value,)


def _floordiv(a, b):
    return a // b if b else 0


def _mod(a, b):
    return a % b if b else 0


def _card_attr(table, card):
    return None if card is None else table[card]


def _seat_attr(getter, g, seat):
    return None if seat is None else getter(g, seat)


_CARD_TABLES = ("kind", "rank", "color", "points", "code", "name", "colored")
_NONNULL_SEATS = {"s", "t"}
# a seat found from a seat that is never None (`next`, `previous`, `left`, `right` of the player)
_SEAT_OF_SEAT = re.compile(r"^g\.(next_unskipped|next_seat|clockwise)\((s|t|_t\d+)[,)]")
_NUMBERS = ("len(", "g.counters[", "g._n_active", "g.round", "g.scores[", "g.hand_points(", "sum(")
_BOOLS = ("True", "False", "honest", "jumped")


class Writer:
    """Writes the Python source of one ruleset's turn loop for a table of `n` players."""

    def __init__(self, rules, n: int, interrupt_type, max_turns: int, sim: bool = False, record: bool = False):
        self.r = rules
        self.res = rules.resolver
        self.n = n
        self.sim = sim       # seats played inline by the random policy: no decision leaves the loop
        self.record = record and not sim   # the game keeps an event log
        self.fixed_table = not self.uses((A.Eliminate, A.SwapSeats))    # every seat plays, in its place
        self.ns = {"Decision": Decision, "Ctx": Ctx, "Interrupt": interrupt_type, "_seats": _seats,
                   "_floordiv": _floordiv, "_mod": _mod, "_card_attr": _card_attr,
                   "_seat_attr": _seat_attr, "MAX_TURNS": max_turns, "drive": drive,
                   "COLORS": rules.colors, "NCOLORS": len(rules.colors), "rules": rules, "MEMO": rules._memo, "DRAWN": {},
                   "ASKS": tuple(0 if p is None or not (p.asks_color or p.asks_target) else
                                 1 if not p.asks_target else 2 for p in rules.on_play)}
        for name in _CARD_TABLES:
            self.ns["T_" + name] = getattr(rules.cards, name)
        self.ns["T_tags"] = rules.cards.tags
        self._consts: dict = {}
        self._temp = 0
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
            "top": "g.discard[-1]", "left": f"g.clockwise({p}, 1)", "right": f"g.clockwise({p}, -1)",
            "run": "g.run_length()",
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
        if n in r.colors or n in r.kinds:
            return repr(n)
        raise Unsupported(f"name {n}")

    def _eBuiltin(self, node, env):
        return {"color": "g.color", "players": "g._n_active", "it": env.drawn, "round": "g.round"}[node.id]

    def _eAttr(self, node, env):
        obj = self.expr(node.obj, env)
        typ = self.typ(node.obj, env)
        name = node.name
        if typ == CARD:
            if name in _CARD_TABLES:
                table = "T_" + name
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
        var = "v_" + re.sub(r"\W", "_", node.var)
        vtype = CARD if ctype == CARDS else SEAT if ctype == SEATS else ANY
        inner = replace(env, vars={**env.vars, node.var: (var, vtype)})
        where = f" if {self._boolean(node.where, inner)}" if node.where is not None else ""
        source = coll if coll.startswith("g.hands[") else f"tuple({coll} or ())"
        if node.kind == "some":
            return f"any(True for {var} in {source}{where})"
        if node.kind == "count":
            return f"sum(1 for {var} in {source}{where})"
        return f"sum({self._number(node.value, inner)} for {var} in {source}{where})"

    # ---- statements ---------------------------------------------------------------------------
    def block(self, body, env: Env, ind: int) -> list:
        lines = []
        for stmt in body:
            method = getattr(self, "_s" + type(stmt).__name__, None)
            if method is None:
                raise Unsupported(type(stmt).__name__)
            lines += method(stmt, env, ind)
        return lines or [(ind, "pass")]

    def each_seat(self, who, env: Env, ind: int):
        """Lines that bind a temporary to each seat `who` names; returns (lines, name, indent)."""
        typ = self.typ(who, env)
        src = self.expr(who, env)
        t = self.temp()
        if isinstance(who, A.Name) and who.id == "next" and who.id not in env.vars and env.player in _NONNULL_SEATS:
            # Game.next_unskipped, when every seat is in its place and the next one is not skipped
            moved = "" if self.fixed_table else "not g._plain or "
            following = f"1 - {env.player}" if self.n == 2 else f"({env.player} + g.direction) % {self.n}"
            return [(ind, f"{t} = {following}"),
                    (ind, f"if {moved}g.skips[{t}]:"), (ind + 1, f"{t} = {src}")], t, ind
        if typ == SEAT:
            if self.nonnull(src):
                return [(ind, f"{t} = {src}")], t, ind
            return [(ind, f"{t} = {src}"), (ind, f"if {t} is not None:")], t, ind + 1
        if typ == SEATS:
            return [(ind, f"for {t} in ({src} or ()):")], t, ind + 1
        return [(ind, f"for {t} in _seats({src}):")], t, ind + 1

    def _sDraws(self, node, env, ind):
        n = self.temp("n")
        count = self._number(node.count, env)
        lines = [] if count == "1" else [(ind, f"{n} = {count}")]
        head, t, inner = self.each_seat(node.who, env, ind)
        x = self.temp("x")
        generic = [(inner, f"{x} = g.draw_cards({t}, {n if count != '1' else 1})"),
                   (inner, f"if {x} is not None:"), (inner + 1, f"{env.drawn} = {x}")]
        if count != "1":
            return lines + head + generic
        # one card, the most common draw: the stock's random pick inline (Game._take's fast case)
        h, i = self.temp("h"), self.temp("i")
        one = [(inner, "stock = g.stock"),
               (inner, "if stock and g._lazy:"),
               (inner + 1, f"{i} = int(g._rand() * len(stock))"),
               (inner + 1, f"{x} = stock[{i}]"), (inner + 1, f"stock[{i}] = stock[-1]"), (inner + 1, "stock.pop()"),
               (inner + 1, f"{h} = g.hands[{t}]"), (inner + 1, f"{h}.append({x})"),
               (inner + 1, f"{env.drawn} = {x}"),
               (inner + 1, "g.stats['drawn'] += 1"), (inner + 1, "g._drew_this_turn += 1")]
        if self.r.undoable:
            one += [(inner + 1, "if g._journal is not None:"), (inner + 2, f"g._journal.append(('draw', {t}, [{x}]))")]
        one += self.event(inner + 1, f"g.event('draw', seat={t}, count=1)")
        return head + one + [(inner, "else:")] + [(i_ + 1, text) for i_, text in generic]

    def playable_test(self, seat: str, card: str) -> str:
        """Whether the seat may play the card now (Game.is_playable), from the ruleset's memo of
        which cards may follow which when its match and `play only if` rules allow one."""
        r = self.r
        if r.match_static and not r.restrictions:
            return f"{card} in (MEMO.get((g.discard[-1], g.color)) or rules.playable_set(g.discard[-1], g.color))"
        if r.match_static and r.restrict_static:
            return f"{card} in rules.allowed_set(g.discard[-1], g.color, g.counters)"
        return f"g.is_playable({seat}, {card})"

    def _sDrawsUntil(self, node, env, ind):
        head, t, inner = self.each_seat(node.who, env, ind)
        h, got, x = self.temp("h"), self.temp("got"), self.temp("x")
        test = self._boolean(node.test, replace(env, player=t))
        return head + [
            (inner, f"{h} = g.hands[{t}]"), (inner, f"{got} = 0"),
            (inner, "while True:"),
            (inner + 1, f"{x} = g._take()"),
            (inner + 1, f"if {x} is None:"), (inner + 2, "break"),
            (inner + 1, f"{h}.append({x})"), (inner + 1, f"{env.drawn} = {x}"), (inner + 1, f"{got} += 1"),
            (inner + 1, f"if {test}:"), (inner + 2, "break"),
            (inner, f"g.drew({t}, {h}, {got})")]

    def _sSkip(self, node, env, ind):
        head, t, inner = self.each_seat(node.who, env, ind)
        return head + [(inner, f"g.skips[{t}] = 1")]

    def _sReverse(self, node, env, ind):
        return [(ind, "g.reverse()")]

    def _sPassHands(self, node, env, ind):
        return [(ind, "g.pass_hands()")]

    def _sSwapHands(self, node, env, ind):
        a, b = self.temp(), self.temp()
        return [(ind, f"{a} = {self.expr(node.who, env)}"), (ind, f"{b} = {self.expr(node.other, env)}"),
                (ind, f"if isinstance({a}, int) and isinstance({b}, int) and {a} != {b}:"),
                (ind + 1, f"g.swap_hands({a}, {b})")]

    def _sReveal(self, node, env, ind):
        head, t, inner = self.each_seat(node.who, env, ind)
        return head + [(inner, f"g.reveal({t}, _seats({self.expr(node.to, env)}))")]

    def _sIf(self, node, env, ind):
        fixed, value = self.res.constant(node.test, env.scope)
        test = None if fixed else self._boolean(node.test, env)
        if fixed or test in ("True", "False"):
            taken = node.then if (value if fixed else test == "True") else node.other
            return self.block(taken, env, ind) if taken else []
        lines = [(ind, f"if {test}:")] + self.block(node.then, env, ind + 1)
        if node.other:
            lines += [(ind, "else:")] + self.block(node.other, env, ind + 1)
        return lines

    def _sSetCounter(self, node, env, ind):
        return [(ind, f"g.set_counter({node.name!r}, {self._number(node.value, env)})")]

    def _sAddCounter(self, node, env, ind):
        return [(ind, f"g.set_counter({node.name!r}, g.counters.get({node.name!r}, 0) + {self._number(node.value, env)})")]

    def _sScores(self, node, env, ind):
        head, t, inner = self.each_seat(node.who, env, ind)
        return head + [(inner, f"g.add_score({t}, {self._number(node.amount, env)})")]

    def _sLet(self, node, env, ind):
        name = "v_" + re.sub(r"\W", "_", node.name)
        src = self.expr(node.value, env)
        env.vars[node.name] = (name, self.typ(node.value, env))
        return [(ind, f"{name} = {src}")]

    def _sEliminate(self, node, env, ind):
        head, t, inner = self.each_seat(node.who, env, ind)
        return head + [(inner, f"g.eliminate({t}, {node.round_only!r})")]

    def _sEndGame(self, node, env, ind):
        return [(ind, f"g.end_game({node.best!r})")]

    def _sEndRound(self, node, env, ind):
        return [(ind, "g.end_round_now()")]

    def _sChooseColor(self, node, env, ind):
        t = self.temp()
        answer = self.temp("a")
        named = ([] if env.color_arg == "None" else       # the color named with the play
                 [(ind + 1, f"if {t} == {env.actor} and {env.color_arg} is not None:"),
                  (ind + 2, f"g.set_color({env.color_arg}, {t})")])
        return [
            (ind, f"{t} = {self.expr(node.who, env)}"),
            (ind, f"if isinstance({t}, int):"),
            *named,
            (ind + 1, f"{'elif' if named else 'if'} g.hands[{t}]:"),
            (ind + 2, f"{answer} = COLORS[int(rand() * NCOLORS)]" if self.sim else
                      f"{answer} = yield Decision({t}, 'color', COLORS, 'Choose a color')"),
            (ind + 2, f"g.set_color({answer}, {t})")]

    def _sAsk(self, node, env, ind):
        t = self.temp()
        answer = self.temp("a")
        names = tuple(a.name for a in node.answers)
        lines = [(ind, f"{t} = {self.expr(node.who, env)}"),
                 (ind, f"if isinstance({t}, int):"),
                 (ind + 1, f"{answer} = {names!r}[int(rand() * {len(names)})]" if self.sim else
                           f"{answer} = yield Decision({t}, 'answer', {names!r}, {node.question!r})")]
        for i, a in enumerate(node.answers):
            lines.append((ind + 1, f"{'if' if i == 0 else 'elif'} {answer} == {a.name!r}:"))
            lines += self.block(a.body, env, ind + 2)
        return lines

    def _sPlayDrawn(self, node, env, ind):
        t, x, act = self.temp(), self.temp("x"), self.temp("act")
        who = self.expr(node.who, env)
        if who in _NONNULL_SEATS:
            t = who
            head = [(ind, f"{x} = {env.drawn}"),
                    (ind, f"if {x} is not None and {self.playable_test(t, x)} and {x} in g.hands[{t}]:")]
        else:
            head = [(ind, f"{t} = {who}"),
                    (ind, f"{x} = {env.drawn}"),
                    (ind, f"if isinstance({t}, int) and {x} is not None and {self.playable_test(t, x)} and {x} in g.hands[{t}]:")]
        # the turn's player plays the drawn card: its play written out here, once (not inside
        # another play's effect, where it stays a call)
        inline = who == "s" and getattr(self, "_play_depth", 0) == 0
        if self.sim:      # the random policy always plays a card it may play: one draw for the card
            return head + [(ind + 1, "rand()")] + self.random_play(t, x, ind + 1, inline)
        d = self.temp("d")
        # the decision and its legal actions, as Game._list_actions lists them
        listed = ([(ind + 1, f"g._legal = list(PLAYS[{t}][{x}])")] if node.must else
                  [(ind + 1, f"g._legal = [*PLAYS[{t}][{x}], FIXED[{t}].keep]")])
        L = head + [
            (ind + 1, f"{d} = DRAWN.get(({t}, {x}, {node.must!r}))"),
            (ind + 1, f"if {d} is None:"),
            (ind + 2, f"{d} = DRAWN[({t}, {x}, {node.must!r})] = Decision({t}, 'drawn', (), 'Play the card you drew?', card={x}, must={node.must!r})"),
            *(listed if not any(p is not None and p.asks_target for p in self.r.on_play) else []),
            (ind + 1, f"{act} = yield {d}"),
            (ind + 1, f"if {act}.verb == 'play':")]
        if not inline:
            return L + [(ind + 2, f"yield from play(g, {t}, {act}, False)")]
        return L + [(ind + 2, f"_, _, card, color_arg, target_arg, _, uno = {act}"),
                    *self.play_body(ind + 2, drawn=self.temp("drawn"))]

    def random_play(self, seat: str, card: str, ind: int, inline: bool) -> list:
        """The random policy plays `card`: a color and a player for it drawn uniformly, as
        `RandomBot` picks among the play's variants (one draw even when there is only one)."""
        v = self.temp("v")
        L = [(ind, f"if ASKS[{card}] == 0:"),
             (ind + 1, "rand()"),
             (ind + 1, "color_arg = target_arg = None"),
             (ind, f"elif ASKS[{card}] == 1:"),
             (ind + 1, "color_arg, target_arg = COLORS[int(rand() * NCOLORS)], None"),
             (ind, "else:"),
             (ind + 1, f"{v} = g._plays({seat}, {card})"),
             (ind + 1, f"{v} = {v}[int(rand() * len({v}))]"),
             (ind + 1, f"color_arg, target_arg = {v}.color, {v}.target")]
        if not inline:
            return L + [(ind, f"play(g, {seat}, {card}, color_arg, target_arg, False)")]
        return L + [(ind, f"card = {card}"),
                    *self.play_body(ind, drawn=self.temp("drawn"))]

    def _sForEach(self, node, env, ind):
        ctype = self.typ(node.collection, env)
        var = "v_" + re.sub(r"\W", "_", node.var)
        vtype = SEAT if ctype == SEATS else CARD if ctype == CARDS else ANY
        inner = replace(env, vars={**env.vars, node.var: (var, vtype)})
        return [(ind, f"for {var} in tuple({self.expr(node.collection, env)} or ()):")] + self.block(node.body, inner, ind + 1)

    # ---- whole programs -----------------------------------------------------------------------
    def program(self, program, env: Env, ind: int) -> list:
        """The program's statements inline, or, without a template for one of them, a call to its
        generic closures with a context carrying the same state."""
        try:
            return self.block(program.body, replace(env, vars=dict(env.vars)), ind) if program.body else []
        except Unsupported as missing:
            self.delegated.append((program, str(missing)))
        p = self.const(program, "PROG")
        c = self.temp("ctx")
        card = env.card or "None"
        call = (f"{p}.plain({c})" if program.plain is not None else
                f"drive(g, {p}.run({c}))" if self.sim else f"yield from {p}.run({c})")
        return [(ind, f"{c} = Ctx(g, {env.player}, {card}, {env.honest}, {env.actor}, {env.color_arg}, {env.target_arg})"),
                (ind, f"{c}.jumped = {env.jumped}"), (ind, f"{c}.drawn = {env.drawn}"),
                (ind, call), (ind, f"{env.drawn} = {c}.drawn")]

    def condition(self, node, fn, env: Env, ind: int, target: str) -> list:
        """`target = <condition>`, inline or through its closure."""
        try:
            return [(ind, f"{target} = {self._boolean(node, env)}")]
        except Unsupported:
            f = self.const(fn, "COND")
            c = self.temp("ctx")
            return [(ind, f"{c} = Ctx(g, {env.player}, {env.card or 'None'}, {env.honest}, {env.actor}, {env.color_arg}, {env.target_arg})"),
                    (ind, f"{c}.jumped = {env.jumped}"),
                    (ind, f"{target} = bool({f}({c}))")]

    def dispatch(self, per_card: tuple, ind: int, emit) -> list:
        """Branches on the card's entry in a per-card table (programs, conditions), one branch
        per distinct entry; cards with no entry fall through first, being the most common."""
        distinct = []
        for item in per_card:
            if item is not None and all(item is not d for d in distinct):
                distinct.append(item)
        if not distinct:
            return []
        index = tuple(0 if item is None else 1 + next(i for i, d in enumerate(distinct) if d is item)
                      for item in per_card)
        table = self.const(index, "IDX")
        if len(distinct) == 1:
            return [(ind, f"if {table}[card]:")] + (emit(distinct[0], ind + 1) or [(ind + 1, "pass")])
        k = self.temp("k")
        lines = [(ind, f"{k} = {table}[card]"), (ind, f"if {k} == 0:"), (ind + 1, "pass")]
        for i, item in enumerate(distinct, 1):
            lines.append((ind, f"elif {k} == {i}:"))
            lines += emit(item, ind + 1) or [(ind + 1, "pass")]
        return lines

    def play_function(self) -> list:
        """`play(...)`: Game.play_gen for this ruleset, for plays inside effects (a drawn card).
        Driven by a Game it is a generator of decisions taking the action; in the simulator it is
        a plain function taking the card, color and player chosen."""
        if self.sim:
            head = [(0, "def play(g, s, card, color_arg, target_arg, jumped):"), (1, "rand = g._seat_rand")]
        else:
            head = [(0, "def play(g, s, action, jumped):"),
                    (1, "_, _, card, color_arg, target_arg, _, uno = action")]
        return head + self.play_body(1, in_function=True) + ([] if self.sim else [(1, "return"), (1, "yield")])

    def play_body(self, ind: int, drawn: str = "drawn", turn: bool = False, in_function: bool = False) -> list:
        """A card lands and acts: with `s`, `card`, `color_arg`, `target_arg`, `jumped` (and,
        driven by a Game, `uno`) bound; `drawn` names the local holding `it` for this play. The
        simulator skips windows, which random seats never use; a ruleset that never cancels a play
        keeps no journal of it. A turn's own play need not note that someone played (only a
        draw turn asks)."""
        r = self.r
        env = Env(player="s", actor="s", card="card", honest="honest", jumped="jumped",
                  color_arg="color_arg", target_arg="target_arg", drawn=drawn)
        self._play_depth = getattr(self, "_play_depth", 0) + 1
        L = []
        if r.undoable:
            L += [(ind, "outer = g._journal"), (ind, "journal = g._journal = []")]
        honest = tuple(None if e is None else (e, f) for e, f in zip(r.honest_exprs, r.honest))
        L += self.dispatch(honest, ind, lambda item, i: self.condition(item[0], item[1], env, i, "honest"))
        L += [(ind, "g.hands[s].remove(card)"), (ind, "g.discard.append(card)"),
              *([] if turn else [(ind, "g._played_this_turn = True")]),
              (ind, "c = T_color[card]"), (ind, "if c is not None:"), (ind + 1, "g.color = c"),
              *self.event(ind, "g.event('play', seat=s, card=card)")]
        if not self.sim:
            for w in r.windows:
                rule = self.const(w, "WIN")
                if w.opens_expr is None:
                    opened = []
                else:
                    opened = self.condition(w.opens_expr, w.opens, env, ind, "opened")
                    if len(opened) == 1:           # inline: `if <condition>:`
                        opened = [(ind, "if " + opened[0][1].split(" = ", 1)[1] + ":")]
                    else:
                        opened += [(ind, "if opened:")]
                inner = ind + bool(opened)
                L += opened + [(inner, f"g.windows.pop(({w.name!r}, s), None)"),
                               (inner, f"g.windows[({w.name!r}, s)] = ({rule}, card)")]
            L += [(ind, "if uno:"), (ind + 1, "g.say_uno(s)")]
        L += self.dispatch(r.on_play, ind, lambda p, i: self.program(p, env, i))
        if r.undoable:
            L += [(ind, "g.last_journal = journal or []"), (ind, "g._journal = outer")]
        for after in r.after_play:
            L += self.program(after, env, ind)
        self._play_depth -= 1
        text = "\n".join(t for _, t in L)
        locals_ = ((drawn, "None"), ("honest", "True")) + (() if in_function else (("jumped", "False"),))
        start = [(ind, f"{name} = {value}") for name, value in locals_ if re.search(rf"\b{name}\b", text)]
        return start + L

    def allowed(self, ind: int) -> list:
        """`ok = ` the cards that may be played now, from the ruleset's memo when its match and
        `play only if` rules read only the card, the top card, the color and counters; None when
        they read more (then each card is tried with Game.is_playable)."""
        r = self.r
        if r.match_static and not r.restrictions:
            return [(ind, "top = g.discard[-1]"), (ind, "ok = MEMO.get((top, g.color))"),
                    (ind, "if ok is None:"), (ind + 1, "ok = rules.playable_set(top, g.color)")]
        if r.match_static and r.restrict_static:
            values = "".join(f"g.counters[{name!r}], " for name in r.counters)
            return [(ind, "top = g.discard[-1]"), (ind, f"ok = MEMO.get((top, g.color, ({values})))"),
                    (ind, "if ok is None:"), (ind + 1, "ok = rules.allowed_set(top, g.color, g.counters)")]
        return None

    def playable_function(self) -> list:
        """`playable_cards(g, s)`: Game.playable for a turn, the distinct cards in hand that may
        be played, in the order they are held."""
        ok = self.allowed(1)
        if ok is None:
            return [(0, "def playable_cards(g, s):"),
                    (1, "return [c for c in dict.fromkeys(g.hands[s]) if g.is_playable(s, c)]")]
        return [(0, "def playable_cards(g, s):")] + ok + [(1, "return [*dict.fromkeys(filter(ok.__contains__, g.hands[s]))]")]

    def turn_actions_function(self) -> list:
        """`turn_actions(g, s)`: Game.legal_actions for a turn."""
        return [(0, "def turn_actions(g, s):"), *self.list_turn_actions(1), (1, "return acts")]

    def list_turn_actions(self, ind: int) -> list:
        """`acts = ` the legal actions of seat `s`'s turn, from the actions built once per seat."""
        r = self.r
        targets = any(p is not None and p.asks_target for p in r.on_play)
        ok = self.allowed(ind)
        cards = ("dict.fromkeys(filter(ok.__contains__, g.hands[s]))" if ok is not None else "playable_cards(g, s)")
        L = [(ind, "plays = PLAYS[s]"), *(ok or [])]
        if targets:
            L += [(ind, "acts = []"),
                  (ind, f"for c in {cards}:"),
                  (ind + 1, "v = plays[c]"),
                  (ind + 1, "acts += v if v is not None else g._plays(s, c)")]
        else:
            L += [(ind, f"acts = [a for c in {cards} for a in plays[c]]")]
        # every playable card gives at least one action, so no action means no playable card
        if r.renege_const is True:
            L += [(ind, "acts.append(DRAW[s])")]
        elif r.renege_const is False:
            L += [(ind, "if not acts:"), (ind + 1, "acts.append(DRAW[s])")]
        else:
            L += [(ind, "if not acts or rules.renege(Ctx(g, s, None, True, s)):"), (ind + 1, "acts.append(DRAW[s])")]
        return L

    def choose_turn(self, ind: int) -> list:
        """The random policy's turn, drawing from the generator exactly as the step API's random
        bot would: `RandomBot.choose_turn` when the turn offers only the playable cards and
        `draw` (the renege rule fixed to yes, or nothing playable), `RandomBot.choose` over the
        listed actions otherwise. Both pick a card uniformly among the distinct playable cards;
        `choose` also draws once for the play's variant, and once to pick `draw` when it is the
        only action."""
        r = self.r
        ok = self.allowed(ind)
        if ok is None:
            L = [(ind, "cards = playable_cards(g, s)")]
        else:
            L = ok + [(ind, "cards = [*dict.fromkeys(filter(ok.__contains__, g.hands[s]))]")]
        listed = r.renege_const is not True     # some turns go through RandomBot.choose
        L += [(ind, "if not cards:"),
              *([(ind + 1, "rand()")] if r.renege_const is None else []),
              (ind + 1, "playing = False"),
              (ind, "else:"),
              (ind + 1, "playing = True"),
              (ind + 1, "card = cards[int(rand() * len(cards))]"),
              (ind + 1, "k = ASKS[card]"),
              (ind + 1, "if k == 0:"),
              *([(ind + 2, "rand()")] if listed else []),
              (ind + 2, "color_arg = target_arg = None"),
              (ind + 1, "elif k == 1:"), (ind + 2, "color_arg, target_arg = COLORS[int(rand() * NCOLORS)], None"),
              (ind + 1, "else:"),
              (ind + 2, "g.decision = TURN[s]"),
              (ind + 2, "a = g._plays(s, card)"), (ind + 2, "a = a[int(rand() * len(a))]"),
              (ind + 2, "color_arg, target_arg = a.color, a.target")]
        return L

    def starter_function(self) -> list:
        """`turn_starter(g, card)`: Game._turn_starter, the card turned to start the pile and its
        starter rule (a generator in both modes; the simulator's never yields)."""
        r = self.r
        starter_env = Env(player="s", actor="None", card="card")
        # `as if <seat> played it`: the card's own effect, with that seat as the player
        as_if = Env(player="s", actor="None", card="card")
        self._as_if = lambda who_src, ind: [(ind, f"s = {who_src}")] + self.dispatch(
            r.on_play, ind, lambda p, i: self.program(p, as_if, i))
        L = [(0, "def turn_starter(g, card):"),
             *([(1, "rand = g._seat_rand")] if self.sim else []),
             (1, "while True:"),
             (2, "if card is None:"), (3, "card = g._take()"),
             (2, "if card is None:"), (3, "break"),
             (2, "g.discard.append(card)"), (2, "g.color = T_color[card]"),
             *self.event(2, "g.event('starter', card=card)"),
             (2, "s = g.dealer"), (2, "redo = False"), (2, "drawn = None"),
             *self.dispatch(r.starter, 2, lambda p, i: self.program(p, starter_env, i)),
             (2, "if not redo:"), (3, "break"),
             (2, "card = None"),
             (1, "s = g.turn = g.dealer"),
             (1, "if g.next_override is None:"),      # (a starter rule may say who starts)
             *self.advance(2, generic="g._advance()"),
             (1, "else:"), (2, "g._advance()"),
             (1, "return"), (1, "yield")]
        self._as_if = None
        return L

    def _sReturnStarter(self, node, env, ind):
        return [(ind, "g.put_back_starter()"), (ind, "redo = True")]

    def _sStarts(self, node, env, ind):
        return [(ind, f"g.starts({self.expr(node.who, env)})")]

    def _sPlaysAgain(self, node, env, ind):
        return [(ind, f"g.plays_again({self.expr(node.who, env)})")]

    def _sAsIfPlayed(self, node, env, ind):
        if getattr(self, "_as_if", None) is None or env.card != "card":
            raise Unsupported("AsIfPlayed outside a starter")
        who = self.temp()
        return [(ind, f"{who} = {self.expr(node.who, env)}")] + self._as_if(who, ind)

    def end_round_function(self) -> list:
        """`end_round(g, winner)`: Game._end_round, with the ruleset's scoring inline."""
        r = self.r
        env = Env(player="winner", actor="None", card=None)
        L = [(0, "def end_round(g, winner):"), (1, "g._finish_round(winner)"),
             *([(1, "rand = g._seat_rand")] if self.sim else [])]
        if r.on_round_end is not None:
            L += [(1, "drawn = None")] + self.program(r.on_round_end, env, 1)
        L += self.event(1, "g.event('round_end', winner=winner, points=list(g.round_points), scores=list(g.scores))")
        if not self.sim:
            L += [(1, "return"), (1, "yield")]
        return L

    def advance(self, ind: int, generic: str) -> list:
        """Game._advance from seat `s` when no rule gives the next turn to anyone: the next seat
        that is not to lose its turn; simply (s + direction) mod n when every seat plays in its
        own place, else the generic call."""
        n = self.n
        step = ("1 - {}" if n == 2 else f"({{}} + d) % {n}")     # two players: the other one, either way
        fast = [*([] if n == 2 else [(ind, "d = g.direction")]), (ind, "skips = g.skips"),
                (ind, "t = " + step.format("s")),
                (ind, "while skips[t]:"),
                (ind + 1, "skips[t] = 0"),
                *self.event(ind + 1, "g.event('skipped', seat=t)"),
                (ind + 1, "t = " + step.format("t")),
                (ind, "g.turn = t")]
        if self.fixed_table:
            return fast
        return [(ind, "if g._plain:"), *[(i + 1, t) for i, t in fast], (ind, "else:"), (ind + 1, generic)]

    def uses(self, types: tuple, whole_round: bool = True) -> bool:
        """Whether a rule can run a statement of these types (branches the options rule out
        excepted): what the rules never do, the loop need not check for (a seat out of the game,
        a turn given away). With whole_round=False, only the rules that run during turns."""
        r = self.r
        programs = [*r.on_play, r.on_draw, *r.after_play, *(a.program for w in r.windows for a in w.actions)]
        if whole_round:
            programs += [*r.starter, r.on_round_end, r.on_round_start]
        return any(self._runs(p.body, types) for p in programs if p is not None)

    def _runs(self, body, types) -> bool:
        for stmt in body:
            if isinstance(stmt, types):
                return True
            if isinstance(stmt, A.If):
                fixed, value = self.res.constant(stmt.test)
                branches = ((stmt.then if value else stmt.other),) if fixed else (stmt.then, stmt.other)
            else:
                branches = tuple(v for v in (getattr(stmt, f) for f in stmt.__dataclass_fields__)
                                 if isinstance(v, tuple) and v and isinstance(v[0], A.Node))
                branches += tuple(a.body for a in stmt.answers) if isinstance(stmt, A.Ask) else ()
            if any(self._runs(b, types) for b in branches):
                return True
        return False

    def round_function(self) -> list:
        """`play_round(g)`: Game._play_round for this ruleset and table size. What the rules can
        never do is left out: with no `eliminate` and no `swaps seats` every seat stays in play in
        its own place; with no `starts` or `plays again` in the turn, play passes in order; with
        no `end round` only an empty hand ends the round."""
        n = self.n
        fixed_table = self.fixed_table
        in_order = not self.uses((A.Starts, A.PlaysAgain), whole_round=False)
        # only a window action that may ask questions runs inside the turn loop (Game._window_action)
        interrupts = any(a.program.plain is None for w in self.r.windows for a in w.actions)
        env = Env(player="s", actor="s", card=None)
        draw = self.program(self.r.on_draw, env, 3)
        end = "end_round(g, {})" if self.sim else "yield from end_round(g, {})"
        L = [(0, "def play_round(g):")]
        if self.sim:
            L += [(1, "rand = g._seat_rand"),
                  (1, "while True:"),
                  (2, "s = g.turn")]
            L += self.choose_turn(2)
        else:
            # the turn's legal actions are listed as it begins, for Game.legal_actions and apply
            L += [(1, "while True:"),
                  (2, "s = g.turn"),
                  *self.list_turn_actions(2),
                  (2, "g._legal = acts"),
                  (2, "action = yield TURN[s]"),
                  *([(2, "if action.__class__ is Interrupt:"),
                     (3, "if (yield from g._interrupted(action)):"), (4, "break"),
                     (3, "continue")] if interrupts else []),
                  (2, "_, verb, card, color_arg, target_arg, _, uno = action"),
                  (2, "playing = verb == 'play'")]
        # A play always moves the game on; a draw turn may not (an empty stock, nothing to play):
        # a lap of turns in which nobody moved is a stalemate.
        stalemate = [(3, "g.declare_stalemate()"), (3, end.format("None")), (3, "break")]
        L += [(2, "turns = g.round_turns = g.round_turns + 1"),
              *([] if fixed_table else [(2, "active_before = g._n_active")]),
              *([] if self.sim or not self.r.windows else [(2, "if g.windows:"), (3, "g._close_turn_windows()")]),
              (2, "if playing:"),
              *self.play_body(3, turn=True),
              (3, "g._idle = 0"),
              (2, "else:"),
              (3, "g._drew_this_turn = 0"), (3, "g._played_this_turn = False"),
              (3, "drawn = None"),
              *self.event(3, "g.event('draw_turn', seat=s)"),
              *(draw or [(3, "pass")]),
              (3, "moved = g._played_this_turn or g._drew_this_turn" +
                  ("" if fixed_table else " or g._n_active != active_before")),
              *([(2, "if g._end_now:"), (3, "g._finish_round(None)"), (3, "break")] if self.uses((A.EndRound,), whole_round=False) else []),
              (2, "hands = g.hands"),
              (2, "if not hands[s] or not all(hands)" + ("" if fixed_table else " or g._n_active == 1") + ":"),
              (3, "out = g._gone_out(s)"),
              (3, "if out is not None:"), (4, end.format("out")), (4, "break"),
              (2, "if not playing:"),
              (3, "if moved:"), (4, "g._idle = 0"),
              (3, "else:"),
              (4, "g._idle += 1"),
              (4, "if g._idle >= 2 and g._idle >= g._n_active:"), *[(i + 2, t) for i, t in stalemate],
              (2, "if turns >= MAX_TURNS:"), *stalemate]
        if in_order:
            L += self.advance(2, generic="g._advance()")
        else:
            L += [(2, "if g.next_override is None:"), *self.advance(3, "g._advance()"), (2, "else:"), (3, "g._advance()")]
        if self.sim:
            L += [(1, "return"), (1, "yield")]
        return L

    def source(self) -> str:
        parts = (self.playable_function(), self.turn_actions_function(), self.play_function(),
                 self.starter_function(), self.end_round_function(), self.round_function())
        lines = [line for part in parts for line in self.bind_stable(part) + [(0, "")]]
        return "\n".join("    " * ind + text for ind, text in lines)

    def bind_stable(self, function: list) -> list:
        """Read the game's lists the rules never replace through locals bound once per call:
        `hands` unless a rule passes hands or cancels a play, `skips` unless a rule plays a card
        out of turn (each round starts with new lists, and a new call)."""
        stable = {"g.stats": "stats", "g.counters": "counters"}
        if not self.uses((A.PassHands, A.Cancel)):
            stable["g.hands"] = "hands"
        if not self.uses((A.PlaysCard,)):
            stable["g.skips"] = "skips"
        (ind, head), body = function[0], function[1:]
        text = "\n".join(t for _, t in body)
        used = [(attr, name) for attr, name in stable.items() if re.search(re.escape(attr) + r"\b", text)]
        out = []
        for i, t in body:
            for attr, name in used:
                t = re.sub(re.escape(attr) + r"\b", name, t)
            if t not in (f"{name} = {name}" for _, name in used):
                out.append((i, t))
        return [(ind, head)] + [(ind + 1, f"{name} = {attr}") for attr, name in used] + out


def drive(g, program):
    """Run a generic generator (a program without a template, the end of a round) to its end
    inside the simulator's loop, answering each decision as the seat's random bot would."""
    value = None
    while True:
        try:
            d = program.send(value)
        except StopIteration as stop:
            return stop.value
        g.decision, g._legal = d, None
        action = g._seat_bot.choose(g, g.legal_actions())
        value = action if d.kind in ("turn", "drawn", "more") else g._validate(d, action)


class Generated(NamedTuple):
    """A ruleset's generated code for one table size."""
    play_round: Callable        # play_round(g): Game._play_round
    turn_starter: Callable      # turn_starter(g, card): Game._turn_starter
    playable: Callable          # playable_cards(g, seat): Game.playable on a turn
    turn_actions: Callable      # turn_actions(g, seat): Game.legal_actions on a turn
    source: str
    delegated: tuple            # (program, what had no template) run by the generic closures


def generate(rules, n: int, interrupt_type, max_turns: int, sim: bool = False, record: bool = False) -> Generated:
    """The generated code for this ruleset and table size, cached on the ruleset. With sim,
    every seat is played inline by the random policy (the Game's `seat_bot`), and the round
    loop returns at the end of the round without yielding; with record, it keeps the event log."""
    key = (n, sim, record and not sim)
    found = rules.generated.get(key)
    if found is None:
        writer = Writer(rules, n, interrupt_type, max_turns, sim, record)
        writer.ns["FIXED"] = fixed = rules.fixed_actions(n)
        writer.ns["PLAYS"] = tuple(seat.plays for seat in fixed)
        writer.ns["DRAW"] = tuple(seat.draw for seat in fixed)
        writer.ns["TURN"] = tuple(Decision(s, "turn") for s in range(n))
        text = writer.source()
        code = compile(text, f"<unodsl generated: {rules.name}, {n} players>", "exec")
        exec(code, writer.ns)
        found = rules.generated[key] = Generated(writer.ns["play_round"], writer.ns["turn_starter"],
                                                 writer.ns["playable_cards"],
                                                 writer.ns["turn_actions"], text, tuple(writer.delegated))
    return found
