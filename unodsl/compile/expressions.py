"""Expressions of the rules language, resolved and typed once and compiled into closures.

Each expression becomes a function of one argument, the evaluation context (`Ctx`), so the
engine never walks the syntax tree while playing. Types are checked here, statically: a seat
and a card are both small integers at run time, and only the type says which one a name holds.
"""
from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Callable

from ..lang import ast as A
from ..lang.diagnostics import Diagnostics, suggest
from .index import ATTRIBUTE, BUILTIN, CARD_KIND, COLOR, COUNTER, OPTION, PROPERTY, TAG

# Types: the small set of values a rule can talk about.
INT, BOOL, STR, COLOR, KIND, CARD, CARDS, SEAT, SEATS, NONE, ANY, COLORS, PILE = (
    "number", "yes/no", "text", "color", "card kind", "card", "cards", "player", "players", "none", "any",
    "colors", "pile")
FACE = "face"             # a face of two-faced cards
# A collection's type -> the type of one of its members.
MEMBER = {CARDS: CARD, SEATS: SEAT, COLORS: COLOR}


class Ctx:
    """Everything an expression or effect may read while it runs."""

    __slots__ = ("g", "player", "card", "honest", "drawn", "actor", "vars", "color_arg",
                 "target_arg", "top", "redo", "jumped", "played")

    def __init__(self, g, player=None, card=None, honest=True, actor=None, color_arg=None, target_arg=None):
        self.g = g
        self.player = player
        self.card = card
        self.honest = honest
        self.drawn = None
        self.actor = actor
        self.vars = {}
        self.color_arg = color_arg
        self.target_arg = target_arg
        self.top = None
        self.redo = False
        self.jumped = False
        self.played = False     # whether this rule's last `may play` played a card


Fn = Callable[[Ctx], object]


@dataclass
class CardTable:
    """Per-card-id attribute tuples; what `card.color` and friends read."""
    kind: tuple = ()
    rank: tuple = ()
    color: tuple = ()
    points: tuple = ()
    code: tuple = ()
    name: tuple = ()
    colored: tuple = ()
    tags: tuple = ()
    props: dict = field(default_factory=dict)      # prop name -> tuple per card id
    computed: dict = field(default_factory=dict)   # prop name -> per card id, the expression worked
                                                   # out when read (None: the value in props)
    other: tuple = ()       # two-faced cards: the id of the same card turned over (else empty)
    face: tuple = ()        # two-faced cards: the name of the face each id shows (else empty)


# Builtin names: (type, getter). Getters read the context and the game's public primitives.
def _others(c: Ctx):
    return c.g.others(c.player)


BUILTINS: dict[str, tuple[str, Fn, str]] = {
    "player": (SEAT, lambda c: c.player, "the player the rule is about"),
    "next": (SEAT, lambda c: c.g.next_unskipped(c.player),
             "the next player in the direction of play (passing over any already losing their turn)"),
    "previous": (SEAT, lambda c: c.g.next_seat(c.player, -1), "the previous player"),
    "dealer": (SEAT, lambda c: c.g.dealer, "the dealer"),
    "winner": (SEAT, lambda c: c.g.winner, "the player who went out"),
    "actor": (SEAT, lambda c: c.actor, "the player who answers out of turn"),
    "others": (SEATS, _others, "every other player, in the order of play"),
    "everyone": (SEATS, lambda c: c.g.everyone(c.player), "every player still in the game"),
    "opponents": (SEATS, lambda c: c.g.opponents(c.player), "every player not on the player's team"),
    "card": (CARD, lambda c: c.card, "the card being played"),
    "top": (CARD, lambda c: c.top if c.top is not None else c.g.discard[-1], "the top card of the discard pile"),
    "honest": (BOOL, lambda c: c.honest, "whether the play met its honesty condition"),
    "jumped": (BOOL, lambda c: c.jumped, "whether the card was played out of turn"),
    "left": (SEAT, lambda c: c.g.clockwise(c.player, 1), "the player to the left (clockwise)"),
    "right": (SEAT, lambda c: c.g.clockwise(c.player, -1), "the player to the right (counterclockwise)"),
    "run": (INT, lambda c: c.g.run_length(), "how many identical cards lie in a row on top of the pile"),
    "stock": (PILE, lambda c: "stock", "the stock, the pile players draw from"),
    "idle_turns": (INT, lambda c: c.g.idle_turns, "the number of turns in a row in which nobody played or drew a card"),
    "turns_without_play": (INT, lambda c: c.g.turns_without_play, "the number of turns in a row in which nobody played a card"),
    "discard": (PILE, lambda c: "discard", "the discard pile"),
}


def _top(pile):
    return pile[-1] if pile else None


def _bottom(pile):
    return pile[0] if pile else None


# The attributes of a pile: (type, fn(list of the pile, top card last)).
PILE_ATTRS = {
    "size": (INT, len),
    "top": (CARD, _top),
    "bottom": (CARD, _bottom),
    "cards": (CARDS, lambda pile: tuple(reversed(pile))),
}
BUILTIN_KEYWORDS = {
    "color": (COLOR, lambda c: c.g.color),
    "players": (INT, lambda c: c.g.active_count()),
    "it": (CARD, lambda c: c.drawn),
    "round": (INT, lambda c: c.g.round),
    "played": (BOOL, lambda c: c.played),
    "face": (FACE, lambda c: c.g.face_name()),
}

# English numbers an author may write for a number, which the language writes in digits
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve")

_CMP = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
        ">": operator.gt, ">=": operator.ge}


def _floordiv(a, b):
    return a // b if b else 0


_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": _floordiv, "%": lambda a, b: a % b if b else 0}


class Resolver:
    """Compiles expressions against the names a ruleset defines, reporting what does not resolve."""

    def __init__(self, diags: Diagnostics, cards: CardTable, params: dict, colors: tuple,
                 kinds: tuple, tags: set, seat_attrs: dict, counters: dict | None = None, index=None):
        self.diags = diags
        self.cards = cards
        self.params = params          # name -> value
        self.colors = colors          # color names
        self.kinds = kinds
        self.tags = tags
        self.seat_attrs = seat_attrs  # name -> (type, fn(g, seat))
        self.counters = counters or {}  # name -> start value
        self.computed: dict = {}      # property name -> per card id, its compiled expression or None
        self.used_names: set[str] = set()
        self.groups: dict = {}        # group name -> its colors
        self.rank_names: dict = {}    # rank name -> the rank
        self.faces: tuple = ()        # the names of the two faces of two-faced cards
        self.color_word = "color"     # what the rules call their colors: "color" or "suit"
        self.loops: dict[int, str] = {}   # id of a node that repeats its body -> what it goes over (a type, or "while")
        self.index = index            # a NameIndex recording what each name resolved to, or None

    def note(self, kind: str, name: str, span, how: str = "exact") -> None:
        """Tell the name index (when there is one) what a name in the rules turned out to be."""
        if self.index is not None:
            self.index.use(kind, name, span, how)

    # -- names visible in a scope -------------------------------------------------------------
    def known_names(self, scope: dict) -> set[str]:
        return (set(scope) | set(BUILTINS) | set(self.params) | set(self.colors) | set(self.kinds)
                | set(self.counters) | set(self.groups) | set(self.rank_names) | set(self.faces))

    def compile(self, node, scope: dict | None = None) -> tuple[Fn, str]:
        scope = scope or {}
        method = getattr(self, "_" + type(node).__name__)
        return method(node, scope)

    def constant(self, node, scope: dict | None = None):
        """(True, value) when an expression reads only options and literals: fixed for a compiled
        ruleset, so a branch on it can be decided once; else (False, None)."""
        names = names_in(node)
        if names - set(self.params) or set(scope or {}) & names or isinstance(node, A.Builtin):
            return False, None
        fn, _ = self.compile(node, scope)
        try:
            return True, fn(Ctx(None))
        except Exception:
            return False, None

    def expect(self, node, want: str, scope: dict | None = None, what: str = "this") -> Fn:
        fn, got = self.compile(node, scope)
        if not _fits(got, want):
            self.diags.error("E210", f"{what} should be a {want}, but it is a {got}", node.span)
        return fn

    def _Literal(self, node, scope):
        v = node.value
        typ = BOOL if isinstance(v, bool) else INT if isinstance(v, int) else STR if isinstance(v, str) else NONE
        return (lambda c: v), typ

    def _Name(self, node, scope):
        n = node.id
        self.used_names.add(n)
        if n in scope:
            typ = scope[n]
            return (lambda c: c.vars.get(n)), typ
        if n in BUILTINS:
            self.note(BUILTIN, n, node.span)
            typ, fn, _ = BUILTINS[n]
            return fn, typ
        if n in self.counters:
            self.note(COUNTER, n, node.span)
            return (lambda c: c.g.counters[n]), INT
        if n in self.params:
            self.note(OPTION, n, node.span)
            v = self.params[n]
            typ = BOOL if isinstance(v, bool) else INT if isinstance(v, int) else STR
            return (lambda c: v), typ
        if n in self.colors:
            self.note(COLOR, n, node.span)
            return (lambda c: n), COLOR
        if n in self.kinds:
            self.note(CARD_KIND, n, node.span)
            return (lambda c: n), KIND
        if n in self.groups:
            members = self.groups[n]
            return (lambda c: members), COLORS
        if n in self.rank_names:
            rank = self.rank_names[n]
            return (lambda c: rank), INT
        if n in self.faces:
            return (lambda c: n), FACE
        self.diags.error("E201", f"unknown name `{n}`", node.span,
                         (f"write the number in digits: `{NUMBER_WORDS.index(n)}`" if n in NUMBER_WORDS else "")
                         or suggest(n, self.known_names(scope)) or "names are options, colors, card kinds, or "
                         "player, next, previous, dealer, winner, others, everyone, opponents, card, top")
        return (lambda c: None), ANY

    def _Builtin(self, node, scope):
        if node.id == "colors":
            colors = tuple(self.colors)
            return (lambda c: colors), COLORS
        typ, fn = BUILTIN_KEYWORDS[node.id]
        return fn, typ

    def _Attr(self, node, scope):
        obj, typ = self.compile(node.obj, scope)
        name = node.name
        t = self.cards
        if typ == CARD:
            simple = {"kind": (t.kind, KIND), "rank": (t.rank, INT), "color": (t.color, COLOR),
                      "points": (t.points, INT), "code": (t.code, STR), "name": (t.name, STR),
                      "colored": (t.colored, BOOL)}
            if name == "face":
                faces = self.cards
                return (lambda c: None if (i := obj(c)) is None or not faces.face else faces.face[i]), FACE
            if name in simple:
                self.note(ATTRIBUTE, "card." + name, node.span, "end")
                table, rtype = simple[name]
                return (lambda c: None if (i := obj(c)) is None else table[i]), rtype
            if name in t.props:
                self.note(PROPERTY, name, node.span, "end")
                table = t.props[name]
                if name in self.computed:
                    return _computed_property(obj, table, self.computed[name], t.rank), ANY
                return (lambda c: None if (i := obj(c)) is None else table[i]), ANY
            self.diags.error("E202", f"a card has no attribute `{name}`", node.span,
                             suggest(name, list(simple) + list(t.props)) or
                             "cards have kind, rank, color, points, code, name, colored and the `let` properties of their kind")
            return (lambda c: None), ANY
        if typ == SEAT:
            if name in self.seat_attrs:
                self.note(ATTRIBUTE, "player." + name, node.span, "end")
                rtype, getter = self.seat_attrs[name]
                return (lambda c: None if (s := obj(c)) is None else getter(c.g, s)), rtype
            self.diags.error("E202", f"a player has no attribute `{name}`", node.span,
                             suggest(name, self.seat_attrs) or "players have " + ", ".join(sorted(self.seat_attrs)))
            return (lambda c: None), ANY
        if typ == PILE:
            if name in PILE_ATTRS:
                rtype, getter = PILE_ATTRS[name]
                return (lambda c: None if (p := obj(c)) is None else getter(c.g.pile(p))), rtype
            self.diags.error("E202", f"a pile has no attribute `{name}`", node.span,
                             suggest(name, PILE_ATTRS) or "piles have " + ", ".join(PILE_ATTRS))
            return (lambda c: None), ANY
        if typ != ANY:
            self.diags.error("E202", f"a {typ} has no attribute `{name}`", node.span)
        return (lambda c: None), ANY

    def _Unary(self, node, scope):
        if node.op == "not":
            f = self.expect(node.operand, BOOL, scope, "the operand of `not`")
            return (lambda c: not f(c)), BOOL
        f = self.expect(node.operand, INT, scope, "the operand of `-`")
        return (lambda c: -(f(c) or 0)), INT

    def _Binary(self, node, scope):
        op = node.op
        if op in ("and", "or"):
            lf = self.expect(node.left, BOOL, scope, f"the left side of `{op}`")
            rf = self.expect(node.right, BOOL, scope, f"the right side of `{op}`")
            if op == "and":
                return (lambda c: bool(lf(c)) and bool(rf(c))), BOOL
            return (lambda c: bool(lf(c)) or bool(rf(c))), BOOL
        lf, lt = self.compile(node.left, scope)
        rf, rt = self.compile(node.right, scope)
        if op in ("==", "!="):
            if lt != rt and ANY not in (lt, rt) and NONE not in (lt, rt):
                self.diags.error("E211", f"comparing a {lt} with a {rt} is never true", node.span)
            fn = _CMP[op]
            return (lambda c: fn(lf(c), rf(c))), BOOL
        if op in _CMP:
            for side, t in ((node.left, lt), (node.right, rt)):
                if not _fits(t, INT):
                    self.diags.error("E210", f"`{op}` compares numbers, not a {t}", side.span)
            fn = _CMP[op]
            return (lambda c: fn(lf(c) or 0, rf(c) or 0)), BOOL
        if op == "in":
            if rt not in (SEATS, CARDS, COLORS, ANY):
                self.diags.error("E210", f"`in` needs players, cards or colors on its right, not a {rt}", node.right.span)
            return (lambda c: lf(c) in (rf(c) or ())), BOOL
        for side, t in ((node.left, lt), (node.right, rt)):
            if not _fits(t, INT):
                self.diags.error("E210", f"`{op}` works on numbers, not a {t}", side.span)
        fn = _ARITH[op]
        return (lambda c: fn(lf(c) or 0, rf(c) or 0)), INT

    def _Is(self, node, scope):
        f, typ = self.compile(node.obj, scope)
        tag, neg = node.tag, node.negate
        if typ not in (CARD, ANY):
            self.diags.error("E210", f"`is {tag}` tests a card, not a {typ}", node.span)
        if tag == "playable":
            test = lambda c: (i := f(c)) is not None and c.g.is_playable(c.player, i)
        elif tag in self.tags:
            self.note(TAG, tag, node.span, "end")
            tags = self.cards.tags
            test = lambda c: (i := f(c)) is not None and tag in tags[i]
        elif tag in self.kinds:
            self.note(CARD_KIND, tag, node.span, "end")
            kinds = self.cards.kind
            test = lambda c: (i := f(c)) is not None and kinds[i] == tag
        else:
            self.diags.error("E203", f"unknown tag or card kind `{tag}`", node.span,
                             suggest(tag, set(self.tags) | set(self.kinds) | {"playable"}))
            test = lambda c: False
        if neg:
            return (lambda c: not test(c)), BOOL
        return test, BOOL

    def _Cond(self, node, scope):
        t = self.expect(node.test, BOOL, scope, "the condition")
        a, at = self.compile(node.then, scope)
        b, bt = self.compile(node.other, scope)
        return (lambda c: a(c) if t(c) else b(c)), (at if at == bt else ANY)

    def _Quantifier(self, node, scope):
        coll, ctype = self.compile(node.collection, scope)
        self.loops[id(node)] = ctype
        if ctype not in (CARDS, SEATS, COLORS, ANY):
            self.diags.error("E210", f"`{node.kind}` goes over cards, players or colors, not a {ctype}",
                             node.collection.span, "for a player's cards write `p.hand`")
        inner = dict(scope)
        inner[node.var] = MEMBER.get(ctype, ANY)
        var = node.var
        where = self.expect(node.where, BOOL, inner, "the `where` condition") if node.where is not None else None

        def items(c):
            for x in tuple(coll(c) or ()):
                c.vars[var] = x
                if where is None or where(c):
                    yield x

        if node.kind == "some":
            def some(c):
                saved = c.vars.get(var)
                found = any(True for _ in items(c))
                c.vars[var] = saved
                return found
            return some, BOOL
        if node.kind == "count":
            def count(c):
                saved = c.vars.get(var)
                n = sum(1 for _ in items(c))
                c.vars[var] = saved
                return n
            return count, INT
        value = self.expect(node.value, INT, inner, "the value of `total`")

        def total(c):
            saved = c.vars.get(var)
            s = 0
            for _ in items(c):
                s += value(c) or 0
            c.vars[var] = saved
            return s
        return total, INT


def _computed_property(obj, table, fns, ranks):
    """`X.NAME` for a property some cards work out when it is read: the expression of the card's
    kind, with `card` the card read and `rank` its rank."""
    def read(c: Ctx):
        i = obj(c)
        if i is None:
            return None
        fn = fns[i]
        if fn is None:
            return table[i]
        saved_card, saved_rank = c.card, c.vars.get("rank", _UNSET)
        c.card = i
        c.vars["rank"] = ranks[i]
        try:
            return fn(c)
        finally:
            c.card = saved_card
            if saved_rank is _UNSET:
                c.vars.pop("rank", None)
            else:
                c.vars["rank"] = saved_rank
    return read


_UNSET = object()


def names_in(node) -> set:
    """Every name an expression reads; builtins other than `color` count as `<name>`."""
    out = set()
    for n in A.walk(node):
        if isinstance(n, A.Name):
            out.add(n.id)
        elif isinstance(n, A.Quantifier):
            out.add("<quantifier>")
        elif isinstance(n, A.Builtin) and n.id not in ("color", "colors"):
            out.add("<" + n.id + ">")
    return out


def _fits(got: str, want: str) -> bool:
    return got == want or ANY in (got, want) or got == NONE
