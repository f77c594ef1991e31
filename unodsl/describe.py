"""Rules in plain English: every statement and expression of the language renders itself.

`Describer(rules)` turns the syntax tree of a compiled ruleset's declarations into sentences for
rule sheets. It is a dispatch on node type and knows no card, color or variant by name: the nouns
come from the rules (card kind titles, color titles, option values, counter names).

Three ideas make the output read like a rule book rather than a listing:

- Options are known when a sheet is made, so conditions that read only options are decided
  (`if force_play_drawn { ... } else { ... }` becomes the branch that applies). The options a rule
  was decided by are recorded on the Rule, so a sheet can name them.
- Consecutive statements about the same player share the subject: "the next player draws 2 cards
  and loses their turn".
- Conditions about a card become noun phrases: `some c in player.hand where c.color == color`
  is "the player holds a card of the current color".
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Optional

from . import ast as A
from .expressions import BUILTINS

# ---- the nouns of the built-in names ----------------------------------------------------------

_SEATS = {"player": "the player", "next": "the next player", "previous": "the previous player",
          "dealer": "the dealer", "winner": "the winner", "actor": "the caller",
          "left": "the player to the left", "right": "the player to the right"}
# collection name -> (every, any, each, plural, one of them, no one)
_GROUPS = {
    "others": ("every other player", "any other player", "each other player", "the other players",
               "another player", "no other player"),
    "everyone": ("every player", "any player", "each player", "all players", "a player", "no player"),
    "opponents": ("every opponent", "any opponent", "each opponent", "the opponents", "an opponent",
                  "no opponent"),
}
_CARDS = {"card": "the card", "top": "the top card"}
_CARD_FIELDS = {"kind": "kind", "rank": "number", "color": "color", "points": "points", "code": "code",
                "name": "name"}
_SEAT_FIELDS = {"cards", "hand", "points", "score", "team"}
_CMP = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
        ">=": "is at least"}
_NEG_CMP = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
_ARITH = {"+": "plus", "-": "minus", "*": "times", "/": "divided by", "%": "modulo"}
_WHO = {"player": "the player", "others": "any other player", "anyone": "anyone"}

NOTHING = "nothing happens"


@dataclass
class Rule:
    """One rule as a sheet shows it: the author's words (doc) and the precise generated sentence."""
    title: str
    doc: str
    sentence: str
    options: tuple = ()          # options whose values decided parts of the sentence
    kind: str = ""               # the declaration type, e.g. "OnPlay"
    cards: tuple = ()            # card kinds the rule is about (for pictures)
    unit: str = ""               # the ruleset or module it comes from

    @property
    def same(self) -> bool:
        """Whether the doc already says what the sentence says (then a sheet shows the doc only)."""
        return bool(self.doc) and same_words(self.doc, self.sentence)

    @property
    def notes(self) -> list:
        """The options to name after the sentence (those it does not already name)."""
        return [o for o in self.options if f"(option {o})" not in self.sentence]

    def as_dict(self) -> dict:
        return {"title": self.title, "doc": self.doc, "sentence": self.sentence, "same": self.same,
                "options": self.notes, "kind": self.kind, "cards": list(self.cards),
                "unit": self.unit}


def words(text: str) -> list:
    return re.findall(r"[a-z0-9+]+", text.lower())


def same_words(a: str, b: str) -> bool:
    return words(a) == words(b)


def capital(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def sentence_case(text: str) -> str:
    """Capital first letter and a full stop."""
    text = text.strip()
    if not text:
        return text
    text = capital(text)
    return text if text[-1] in ".!?" else text + "."


def and_list(items, word: str = "and") -> str:
    items = [i for i in items if i]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def humanize(name: str) -> str:
    return name.replace("_", " ").replace("-", " ")


def fmt_value(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, str):
        return f"“{value}”"
    return str(value)


def plural(n, one: str, many: str | None = None) -> str:
    return one if n == 1 else (many or one + "s")


class _Const:
    """An expression whose value the options decide."""
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


@dataclass
class _Bind:
    phrase: str
    type: str           # seat, seats, card, cards, int, bool, other
    every: Optional[tuple] = None   # for seat groups: the _GROUPS row


@dataclass
class _Env:
    vars: dict = field(default_factory=dict)       # name -> _Bind
    roles: dict = field(default_factory=dict)      # builtin name -> phrase, per context

    def child(self) -> "_Env":
        return _Env(dict(self.vars), self.roles)


class Describer:
    """Renders declarations, statements and expressions of one compiled ruleset in English."""

    def __init__(self, rules):
        self.rules = rules
        self.options = {n: info.value for n, info in rules.options.items()}
        self.counters = dict(getattr(rules, "counters", {}) or {})
        self.kind_titles = {}
        composed = getattr(rules, "composed", None)
        if composed is not None:
            for decl in composed.decls(A.CardDecl):
                self.kind_titles[decl.name] = decl.title
        for k in rules.kinds:
            self.kind_titles.setdefault(k, humanize(k).title())
        self.colors = set(rules.colors)
        self.used: set = set()
        self.unit_titles: dict = {}             # unit name -> title, for `uses`
        self.cards: Optional[tuple] = None      # card ids the current rule is about
        self.subject: Optional[str] = None

    # ---- public entry points -------------------------------------------------------------
    def rule(self, title: str, doc: str, body=None, *, sentence: str | None = None, kind: str = "",
             cards=(), roles=None, unit: str = "", card_ids=None) -> Rule:
        """A Rule for a block of statements (or a ready sentence), with the options it read."""
        self.used = set()
        self.cards = card_ids
        if sentence is None:
            env = _Env(roles=dict(roles or {}))
            sentence = self.block(body or (), env)
            if not sentence:
                sentence = NOTHING + (" with these options" if self.used else "")
            sentence = sentence_case(sentence)
        rule = Rule(title, doc or "", sentence, tuple(sorted(self.used)), kind, tuple(cards), unit)
        self.cards = None
        return rule

    def block(self, body, env: "_Env | None" = None, depth: int = 0) -> str:
        """A block of statements as one sentence (no capital, no full stop)."""
        env = env or _Env()
        return self._join(self._clauses(body, env.child(), depth), depth)

    def expr(self, node, env: "_Env | None" = None) -> str:
        """A value as a noun phrase."""
        return self.np(node, env or _Env())

    def condition(self, node, env: "_Env | None" = None) -> str:
        """A yes/no expression as a clause."""
        return self.cond(node, env or _Env())

    def card_phrase(self, test, var: str = "card", article: str = "a", env: "_Env | None" = None) -> str:
        """A condition on a card as a noun phrase: `card.color == color` -> "a card of the current color"."""
        return self._card_np(test, var, env or _Env(), article)

    def flatten(self, body, env: "_Env | None" = None) -> list:
        """The statements that apply with the current options: decided `if`s replaced by their branch."""
        env = env or _Env()
        out = []
        for s in body:
            if isinstance(s, A.If):
                t = self.simplify(s.test, env)
                if isinstance(t, _Const):
                    out.extend(self.flatten(s.then if t.value else s.other, env))
                    continue
            out.append(s)
        return out

    # ---- titles of card selectors ------------------------------------------------------------
    def kind_title(self, kind: str) -> str:
        return self.kind_titles.get(kind, humanize(kind))

    def sel_title(self, sel) -> str:
        if isinstance(sel, A.CodeSel):
            card = self.rules.codes.get(sel.code.upper())
            return self.rules.cards.name[card] if card is not None else sel.code
        title = self.kind_title(sel.kind)
        if sel.ranks is None:
            return title
        lo, hi = sel.ranks
        return f"{title} {lo}" if lo == hi else f"{title} {lo}–{hi}"

    def sel_cards(self, sel) -> tuple:
        c = self.rules.cards
        if isinstance(sel, A.CodeSel):
            card = self.rules.codes.get(sel.code.upper())
            return () if card is None else (card,)
        return tuple(i for i in range(len(c.kind)) if c.kind[i] == sel.kind and (
            sel.ranks is None or (c.rank[i] is not None and sel.ranks[0] <= c.rank[i] <= sel.ranks[1])))

    # ---- deciding what the options decide ----------------------------------------------------
    def _is_option(self, name: str, env: _Env) -> bool:
        return (name in self.options and name not in env.vars and name not in BUILTINS
                and name not in self.counters)

    def _static(self, e, env: _Env, seen: set):
        """(True, value) when e reads only literals and options."""
        if isinstance(e, _Const):
            return True, e.value
        if isinstance(e, A.Literal):
            return True, e.value
        if isinstance(e, A.Name):
            if self._is_option(e.id, env):
                seen.add(e.id)
                return True, self.options[e.id]
            return False, None
        if isinstance(e, A.Unary):
            ok, v = self._static(e.operand, env, seen)
            if not ok:
                return False, None
            return True, (not v) if e.op == "not" else -(v or 0)
        if isinstance(e, A.Binary):
            if e.op in ("and", "or"):
                return False, None      # simplify() decides these side by side
            ok1, a = self._static(e.left, env, seen)
            ok2, b = self._static(e.right, env, seen)
            if not (ok1 and ok2):
                return False, None
            try:
                return True, _apply(e.op, a, b)
            except Exception:
                return False, None
        if isinstance(e, A.Cond):
            ok, t = self._static(e.test, env, seen)
            if not ok:
                return False, None
            return self._static(e.then if t else e.other, env, seen)
        return False, None

    def simplify(self, e, env: _Env):
        """The expression with every part the options decide replaced by its value."""
        if isinstance(e, _Const):
            return e
        seen: set = set()
        ok, v = self._static(e, env, seen)
        if ok:
            self.used |= seen
            return _Const(v)
        if isinstance(e, A.Binary) and e.op in ("and", "or"):
            left, right = self.simplify(e.left, env), self.simplify(e.right, env)
            for known, other in ((left, right), (right, left)):
                if isinstance(known, _Const):
                    if e.op == "and":
                        return other if known.value else _Const(False)
                    return _Const(True) if known.value else other
            return replace(e, left=left, right=right)
        if isinstance(e, A.Unary) and e.op == "not":
            inner = self.simplify(e.operand, env)
            if isinstance(inner, _Const):
                return _Const(not inner.value)
            return replace(e, operand=inner)
        if isinstance(e, A.Cond):
            t = self.simplify(e.test, env)
            if isinstance(t, _Const):
                return self.simplify(e.then if t.value else e.other, env)
        return e

    # ---- types of expressions ----------------------------------------------------------------
    def _type(self, e, env: _Env) -> str:
        if isinstance(e, A.Name):
            if e.id in env.vars:
                return env.vars[e.id].type
            if e.id in _SEATS:
                return "seat"
            if e.id in _GROUPS:
                return "seats"
            if e.id in _CARDS:
                return "card"
            if e.id in ("honest", "jumped"):
                return "bool"
            if e.id in self.counters:
                return "int"
            if e.id in self.options:
                v = self.options[e.id]
                return "bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "str"
            if e.id in self.colors:
                return "color"
            if e.id in self.kind_titles:
                return "kind"
            return "other"
        if isinstance(e, A.Builtin):
            return {"color": "color", "players": "int", "it": "card", "round": "int"}.get(e.id, "other")
        if isinstance(e, A.Attr):
            t = self._type(e.obj, env)
            if t == "seat" or (t == "other" and e.name in ("cards", "hand", "score", "team")):
                return "cards" if e.name == "hand" else "int"
            if e.name == "kind":
                return "kind"
            if e.name == "color":
                return "color"
            if e.name == "colored":
                return "bool"
            return "int" if e.name in ("rank", "points") else "other"
        if isinstance(e, (A.Literal, _Const)):
            v = e.value
            return "bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "str"
        if isinstance(e, A.Quantifier):
            return "bool" if e.kind == "some" else "int"
        if isinstance(e, (A.Is, A.Unary)) and getattr(e, "op", "not") == "not":
            return "bool"
        if isinstance(e, A.Binary):
            return "bool" if e.op in _CMP or e.op in ("and", "or", "in") else "int"
        return "other"

    # ---- noun phrases ------------------------------------------------------------------------
    def np(self, e, env: _Env) -> str:
        e = self.simplify(e, env) if not isinstance(e, (A.Name, A.Literal)) else e
        method = getattr(self, "_np_" + type(e).__name__, None)
        if method is None:
            return humanize(type(e).__name__).lower()
        return method(e, env)

    def _np__Const(self, e, env):
        return fmt_value(e.value)

    def _np_Literal(self, e, env):
        return fmt_value(e.value)

    def _np_Name(self, e, env):
        n = e.id
        if n in env.vars:
            return env.vars[n].phrase
        if n in env.roles:
            return env.roles[n]
        if n in _SEATS:
            return _SEATS[n]
        if n in _GROUPS:
            return _GROUPS[n][0]
        if n in _CARDS:
            return _CARDS[n]
        if n == "run":
            return "the number of identical cards in a row on top of the pile"
        if n in ("honest", "jumped"):
            return self.cond(e, env)
        if n in self.counters:
            return f"the {humanize(n)} count"
        if n in self.options:
            self.used.add(n)
            v = self.options[n]
            if isinstance(v, bool):
                return f"{n} ({'on' if v else 'off'})"
            return f"{fmt_value(v)} (option {n})"
        if n in self.colors:
            return self.rules.color_titles.get(n, n)
        if n in self.kind_titles:
            return self.kind_title(n)
        if n in BUILTINS:
            return BUILTINS[n][2]
        return humanize(n)

    def _np_Builtin(self, e, env):
        if e.id in env.roles:
            return env.roles[e.id]
        return {"color": "the current color", "players": "the number of players",
                "it": "the drawn card", "round": "the round number"}.get(e.id, humanize(e.id))

    def poss(self, e, env: _Env) -> str:
        """Possessive: "the player's", or "their" for the subject of the clause being written."""
        phrase = self.np(e, env)
        if self.subject is not None and phrase == self.subject:
            return "their"
        return phrase + "’s" if not phrase.endswith("s") else phrase + "’"

    def _card_values(self, e, env):
        """For `card.X` in a rule about known cards: the values X takes, with the cards' names."""
        if not (isinstance(e.obj, A.Name) and e.obj.id == "card" and "card" not in env.vars
                and "card" not in env.roles and self.cards):
            return None
        table = self.rules.cards
        column = None
        if e.name in table.props:
            column = table.props[e.name]
        elif e.name in ("rank", "points"):
            column = getattr(table, e.name)
        if column is None:
            return None
        values = {}
        for i in self.cards:
            values.setdefault(column[i], []).append(i)
        if None in values:
            return None
        return values

    def _np_Attr(self, e, env):
        t = self._type(e.obj, env)
        if t in ("seat", "seats") or (t == "other" and e.name in _SEAT_FIELDS - {"points"}):
            owner = self.poss(e.obj, env)
            return {"cards": f"the number of cards in {owner} hand", "hand": f"{owner} hand",
                    "points": f"the points in {owner} hand", "score": f"{owner} score",
                    "team": f"{owner} team"}.get(e.name, f"{owner} {humanize(e.name)}")
        values = self._card_values(e, env)
        if values is not None:
            if len(values) == 1:
                return fmt_value(next(iter(values)))
            kinds = []
            for v, ids in values.items():
                names = sorted({self.kind_title(self.rules.cards.kind[i]) for i in ids})
                kinds.append(f"{fmt_value(v)} for {and_list(names)}")
            label = _CARD_FIELDS.get(e.name, humanize(e.name) + " value")
            return f"{self.poss(e.obj, env)} {label} ({'; '.join(kinds)})"
        label = _CARD_FIELDS.get(e.name)
        if label is None:
            label = humanize(e.name) + (" value" if e.name != "colored" else "")
        return f"{self.poss(e.obj, env)} {label}"

    def _np_Unary(self, e, env):
        if e.op == "-":
            return f"minus {self.np(e.operand, env)}"
        return self.cond(e, env)

    def _np_Binary(self, e, env):
        if e.op in _ARITH:
            text = f"{self.np(e.left, env)} {_ARITH[e.op]} {self.np(e.right, env)}"
            return text + (" (rounded down)" if e.op == "/" else "")
        return self.cond(e, env)

    def _np_Is(self, e, env):
        return self.cond(e, env)

    def _np_Cond(self, e, env):
        return f"{self.np(e.then, env)} if {self.cond(e.test, env)}, otherwise {self.np(e.other, env)}"

    def _np_Quantifier(self, e, env):
        if e.kind == "some":
            return self.cond(e, env)
        group = self._group(e.collection, env)
        inner = env.child()
        if group is not None:
            inner.vars[e.var] = _Bind(group[2], "seat")
            what = group[3][4:] if group[3].startswith("the ") else group[3]
        else:
            inner.vars[e.var] = _Bind("each card", "card")
            what = f"cards in {self.np(e.collection, env)}"
        if e.kind == "count":
            if e.where is None:
                return f"the number of {what}"
            if group is not None:
                return f"the number of {what} for whom {self.cond(e.where, inner)}"
            return f"the number of {self._card_np(e.where, e.var, env, '', plural_noun=True)} in {self.np(e.collection, env)}"
        value = self.np(e.value, inner)
        where = f", counting only where {self.cond(e.where, inner)}" if e.where is not None else ""
        if group is None:
            return f"the total of {value} for the cards in {self.np(e.collection, env)}{where}"
        return f"the total of {value}{where}"

    def _group(self, e, env):
        """The _GROUPS row when e names a group of players."""
        if isinstance(e, A.Name) and e.id in _GROUPS and e.id not in env.vars:
            return _GROUPS[e.id]
        if isinstance(e, A.Name) and e.id in env.vars and env.vars[e.id].every is not None:
            return env.vars[e.id].every
        return None

    # ---- conditions --------------------------------------------------------------------------
    def cond(self, e, env: _Env) -> str:
        e = self.simplify(e, env)
        method = getattr(self, "_c_" + type(e).__name__, None)
        if method is None:
            return self.np(e, env)
        return method(e, env)

    def _c__Const(self, e, env):
        return "always" if e.value else "never"

    def _c_Literal(self, e, env):
        return "always" if e.value else "never"

    def _c_Name(self, e, env):
        if e.id == "honest" and "honest" not in env.vars:
            return "the play was honest"
        if e.id == "jumped" and "jumped" not in env.vars:
            return "the card was played out of turn"
        if e.id in self.options and self._is_option(e.id, env):
            return f"{e.id} is on"
        if e.id in env.vars:
            return f"{env.vars[e.id].phrase} is true"
        if e.id in BUILTINS:
            return BUILTINS[e.id][2]
        return humanize(e.id)

    def _c_Unary(self, e, env):
        if e.op == "not":
            return self.neg(e.operand, env)
        return self.np(e, env)

    def _c_Binary(self, e, env):
        if e.op in ("and", "or"):
            parts = []
            for side in (e.left, e.right):
                text = self.cond(side, env)
                s = self.simplify(side, env)
                if e.op == "and" and isinstance(s, A.Binary) and s.op == "or":
                    text = "either " + text
                parts.append(text)
            if e.op == "or":
                left = self.simplify(e.left, env)
                sep = ", or " if isinstance(left, A.Binary) and left.op == "and" else " or "
                return parts[0] + sep + parts[1]
            return f"{parts[0]} and {parts[1]}"
        if e.op == "in":
            return f"{self.np(e.left, env)} is one of {self.np(e.right, env)}"
        if e.op in _CMP:
            return self._compare(e.op, e.left, e.right, env)
        return self.np(e, env)

    def _compare(self, op, left, right, env) -> str:
        keep = lambda x: x if isinstance(x, A.Name) and self._is_option(x.id, env) else self.simplify(x, env)
        left, right = keep(left), keep(right)
        if isinstance(left, (_Const, A.Literal)) and not isinstance(right, (_Const, A.Literal)):
            left, right = right, left
            op = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(op, op)
        lit = right.value if isinstance(right, (_Const, A.Literal)) else None
        is_num = isinstance(lit, int) and not isinstance(lit, bool)
        # a player's number of cards
        if isinstance(left, A.Attr) and left.name == "cards" and self._type(left.obj, env) in ("seat", "other") and is_num:
            who = self.np(left.obj, env)
            if op == "==":
                return f"{who} has no cards left" if lit == 0 else f"{who} has {lit} {plural(lit, 'card')} left"
            if op == "!=" and lit == 0 or op == ">" and lit == 0 or op == ">=" and lit == 1:
                return f"{who} still has cards"
            if op == "!=":
                return f"{who} does not have {lit} {plural(lit, 'card')} left"
            words_ = {"<": "fewer than", "<=": "at most", ">": "more than", ">=": "at least"}[op]
            return f"{who} has {words_} {lit} {plural(lit, 'card')}"
        # the number of players
        if isinstance(left, A.Builtin) and left.id == "players" and "players" not in env.roles and is_num:
            if op == "==":
                return "only 1 player is left" if lit == 1 else f"there are {lit} players"
            if op == "!=":
                return f"there are not {lit} players"
        # kind tests: X.kind == K
        if isinstance(left, A.Attr) and left.name == "kind" and op in ("==", "!=") and isinstance(right, A.Name) \
                and self._type(right, env) == "kind":
            return f"{self.np(left.obj, env)} {'is' if op == '==' else 'is not'} {_a(self.kind_title(right.id))}"
        # the same attribute of two things: X.f == Y.f
        if isinstance(left, A.Attr) and isinstance(right, A.Attr) and left.name == right.name and op in ("==", "!="):
            label = _CARD_FIELDS.get(left.name, humanize(left.name))
            neg = "" if op == "==" else "not "
            return f"{self.np(left.obj, env)} has {neg}the same {label} as {self.np(right.obj, env)}"
        if isinstance(right, (_Const, A.Literal)) and right.value is None and op in ("==", "!="):
            return f"there is {'no' if op == '==' else 'a'} {self.np(left, env).removeprefix('the ')}"
        return f"{self.np(left, env)} {_CMP[op]} {self.np(right, env)}"

    def _c_Is(self, e, env):
        who = self.np(e.obj, env)
        if e.tag == "playable":
            return f"{who} {'cannot' if e.negate else 'can'} be played"
        verb = "is not" if e.negate else "is"
        if e.tag in self.kind_titles and e.tag not in self._tags():
            return f"{who} {verb} {_a(self.kind_title(e.tag))}"
        return f"{who} {verb} {_a(humanize(e.tag))} card" if e.tag in self._tags() else f"{who} {verb} {humanize(e.tag)}"

    def _tags(self) -> set:
        out = set()
        for t in self.rules.cards.tags:
            out |= set(t)
        return out

    def _c_Quantifier(self, e, env):
        if e.kind != "some":
            return self.np(e, env)
        return self._some(e, env, negate=False)

    def _some(self, e, env, negate: bool) -> str:
        group = self._group(e.collection, env)
        if group is not None:
            if e.where is None:
                return f"there is {group[5] if negate else group[4]}"
            inner = env.child()
            inner.vars[e.var] = _Bind(group[5] if negate else group[1], "seat")
            return self.cond(e.where, inner)
        coll = e.collection
        if isinstance(coll, A.Attr) and coll.name == "hand":
            who = self.np(coll.obj, env)
            article = "no" if negate else "a"
            what = self._card_np(e.where, e.var, env, article) if e.where is not None else f"{article} card"
            return f"{who} holds {what}"
        article = "no" if negate else "a"
        what = self._card_np(e.where, e.var, env, article) if e.where is not None else f"{article} card"
        return f"there is {what} in {self.np(coll, env)}"

    def _c_Cond(self, e, env):
        return f"{self.cond(e.then, env)} if {self.cond(e.test, env)}, otherwise {self.cond(e.other, env)}"

    def neg(self, e, env: _Env) -> str:
        """The negation of a condition, said positively where the language allows."""
        e = self.simplify(e, env)
        if isinstance(e, _Const):
            return "never" if e.value else "always"
        if isinstance(e, A.Unary) and e.op == "not":
            return self.cond(e.operand, env)
        if isinstance(e, A.Is):
            return self.cond(replace(e, negate=not e.negate), env)
        if isinstance(e, A.Binary) and e.op in _NEG_CMP:
            return self.cond(replace(e, op=_NEG_CMP[e.op]), env)
        if isinstance(e, A.Binary) and e.op in ("and", "or"):
            other = "or" if e.op == "and" else "and"
            return self.cond(A.Binary(e.span, other, A.Unary(e.span, "not", e.left), A.Unary(e.span, "not", e.right)), env)
        if isinstance(e, A.Quantifier) and e.kind == "some":
            return self._some(e, env, negate=True)
        if isinstance(e, A.Name):
            if e.id == "honest" and "honest" not in env.vars:
                return "the play was not honest"
            if e.id == "jumped" and "jumped" not in env.vars:
                return "the card was not played out of turn"
            if self._is_option(e.id, env):
                return f"{e.id} is off"
        return f"it is not so that {self.cond(e, env)}"

    # ---- cards described by a condition ------------------------------------------------------
    def _is_var(self, e, var: str) -> bool:
        if var == "it":
            return isinstance(e, A.Builtin) and e.id == "it"
        return isinstance(e, A.Name) and e.id == var

    def _mentions(self, e, var: str) -> bool:
        if self._is_var(e, var):
            return True
        if isinstance(e, A.Quantifier) and e.var == var:
            return self._mentions(e.collection, var)
        if isinstance(e, A.Node):
            for f in e.__dataclass_fields__:
                v = getattr(e, f)
                if isinstance(v, A.Node) and self._mentions(v, var):
                    return True
        return False

    def _qual(self, e, var: str, env: _Env) -> Optional[list]:
        """Parts of a noun phrase for a card meeting e: ('adj'|'noun'|'post'|'same', ...)."""
        e = self.simplify(e, env)
        if isinstance(e, _Const):
            return [] if e.value else None
        if isinstance(e, A.Binary) and e.op == "and":
            a, b = self._qual(e.left, var, env), self._qual(e.right, var, env)
            return None if a is None or b is None else a + b
        if isinstance(e, A.Is) and self._is_var(e.obj, var):
            if e.tag == "playable":
                return [("post", "that cannot be played" if e.negate else "that can be played")]
            if e.tag in self._tags():
                return [("post", f"that is not {humanize(e.tag)}")] if e.negate else [("adj", humanize(e.tag))]
            title = self.kind_title(e.tag)
            return [("post", f"that is not {_a(title)}")] if e.negate else [("noun", title)]
        if isinstance(e, A.Binary) and e.op in _CMP:
            left, right = e.left, e.right
            if not (isinstance(left, A.Attr) and self._is_var(left.obj, var)):
                left, right = right, left
            if not (isinstance(left, A.Attr) and self._is_var(left.obj, var)) or self._mentions(right, var):
                return None
            f = left.name
            label = _CARD_FIELDS.get(f, humanize(f) + " value")
            r = self.simplify(right, env)
            if e.op == "==":
                if f == "kind" and isinstance(r, A.Name) and self._type(r, env) == "kind":
                    return [("noun", self.kind_title(r.id))]
                if f == "color" and isinstance(r, A.Name) and r.id in self.colors and r.id not in env.vars:
                    return [("adj", self.rules.color_titles.get(r.id, r.id))]
                if f == "color" and isinstance(r, A.Builtin) and r.id == "color":
                    return [("post", "of the current color")]
                if isinstance(r, A.Attr) and r.name == f:
                    if f == "code":
                        return [("post", f"identical to {self.np(r.obj, env)}")]
                    return [("same", label, self.np(r.obj, env))]
                if f == "rank" and isinstance(r, (A.Literal, _Const)):
                    return [("post", f"with the number {fmt_value(r.value)}")]
                return [("post", f"whose {label} is {self.np(r, env)}")]
            if isinstance(r, A.Attr) and r.name == f and e.op == "!=":
                return [("post", f"of a different {label} from {self.np(r.obj, env)}")]
            return [("post", f"whose {label} {_CMP[e.op]} {self.np(r, env)}")]
        return None

    def _card_np(self, test, var: str, env: _Env, article: str = "a", plural_noun: bool = False) -> str:
        noun = "cards" if plural_noun else "card"
        parts = self._qual(test, var, env) if test is not None else []
        if parts is None:
            inner = env.child()
            inner.vars[var] = _Bind("the card", "card")
            if var == "it":
                inner.roles["it"] = "the card"
            return f"{article} {noun} such that {self.cond(test, inner)}".strip()
        adjs = [p[1] for p in parts if p[0] == "adj"]
        nouns = [p[1] for p in parts if p[0] == "noun"]
        posts = [p[1] for p in parts if p[0] == "post"]
        same: dict = {}
        for p in parts:
            if p[0] == "same":
                same.setdefault(p[2], []).append(p[1])
        for other, labels in same.items():
            posts.append(f"of the same {and_list(labels)} as {other}")
        head = " ".join(adjs + ([and_list(nouns)] if nouns else [noun]))
        if nouns and plural_noun:
            head += " cards"
        text = f"{head} {and_list(posts)}".strip()
        if article == "a":
            return _a(text)
        return f"{article} {text}".strip()

    # ---- statements --------------------------------------------------------------------------
    def _join(self, clauses: list, depth: int) -> str:
        groups: list = []
        for subj, pred in clauses:
            if groups and subj is not None and groups[-1][0] == subj:
                groups[-1][1].append(pred)
            else:
                groups.append((subj, [pred]))
        parts = [(f"{s} " if s else "") + and_list(preds) for s, preds in groups]
        if depth == 0:
            return "; ".join(parts)
        return and_list(parts)

    def _clauses(self, body, env: _Env, depth: int) -> list:
        out = []
        for s in body:
            method = getattr(self, "_s_" + type(s).__name__, None)
            if method is None:
                out.append((None, self._s_unknown(s, env)))
                continue
            got = method(s, env, depth)
            out.extend(got)
        return out

    def _subject(self, who, env) -> str:
        return self.np(who, env)

    def _with_subject(self, subject: str, fn):
        saved = self.subject
        self.subject = subject
        try:
            return fn()
        finally:
            self.subject = saved

    def _s_unknown(self, s, env) -> str:
        args = []
        for f in s.__dataclass_fields__:
            if f == "span":
                continue
            v = getattr(s, f)
            if isinstance(v, A.Node):
                args.append(self.np(v, env))
            elif isinstance(v, (str, int)) and not isinstance(v, bool):
                args.append(str(v))
        name = re.sub(r"(?<!^)([A-Z])", r" \1", type(s).__name__).lower()
        return f"{name} {' '.join(args)}".strip()

    def _count(self, e, env, one: str, many: str) -> str:
        """A number of things: "2 cards", "2 cards (option uno_penalty)", "the pending cards"."""
        e2 = self.simplify(e, env) if not isinstance(e, A.Name) else e
        if isinstance(e2, (A.Literal, _Const)) and isinstance(e2.value, int):
            return f"{e2.value} {plural(e2.value, one, many)}"
        if isinstance(e2, A.Name) and self._is_option(e2.id, env) and isinstance(self.options[e2.id], int):
            self.used.add(e2.id)
            v = self.options[e2.id]
            return f"{v} {plural(v, one, many)} (option {e2.id})"
        if isinstance(e2, A.Name) and e2.id in self.counters and e2.id not in env.vars:
            return f"the {humanize(e2.id)} {many}"
        if isinstance(e2, A.Attr):
            values = self._card_values(e2, env)
            if values is not None and len(values) == 1:
                v = next(iter(values))
                return f"{v} {plural(v, one, many)}"
        return f"as many {many} as {self.np(e2, env)}"

    def _s_Draws(self, s, env, depth):
        who = self._subject(s.who, env)
        return [(who, self._with_subject(who, lambda: "draws " + self._count(s.count, env, "card", "cards")))]

    def _s_DrawsUntil(self, s, env, depth):
        who = self._subject(s.who, env)
        what = self._with_subject(who, lambda: self._card_np(s.test, "it", env))
        return [(who, f"draws cards one at a time until they draw {what}")]

    def _s_Skip(self, s, env, depth):
        return [(self._subject(s.who, env), "loses their turn")]

    def _s_Reverse(self, s, env, depth):
        return [(None, "play changes direction")]

    def _s_ChooseColor(self, s, env, depth):
        return [(self._subject(s.who, env), "chooses a color")]

    def _s_Picks(self, s, env, depth):
        who = self._subject(s.who, env)
        name = "the " + humanize(s.var)
        group = self._group(s.among, env)
        if group is not None:
            one = group[4]
            bind = _Bind(name, "seat")
        elif self._type(s.among, env) == "cards":
            one = f"a card from {self.np(s.among, env)}"
            bind = _Bind(name, "card")
        else:
            one = f"one of {self.np(s.among, env)}"
            bind = _Bind(name, "seat")
        where = ""
        if s.where is not None:
            w = s.where
            if isinstance(w, A.Binary) and w.op == "!=" and self._is_var(w.left, s.var) and not self._mentions(w.right, s.var):
                where = f" other than {self.np(w.right, env)}"
            else:
                inner = env.child()
                inner.vars[s.var] = bind
                where = f" such that {self.cond(w, inner)}"
        env.vars[s.var] = bind
        return [(who, f"picks {one}{where} ({name})")]

    def _s_SwapHands(self, s, env, depth):
        return [(self._subject(s.who, env), f"swaps hands with {self.np(s.other, env)}")]

    def _s_PassHands(self, s, env, depth):
        return [(_GROUPS["everyone"][0], "passes their hand to the next player in the direction of play")]

    def _s_If(self, s, env, depth):
        test = self.simplify(s.test, env)
        if isinstance(test, _Const):
            return self._clauses(s.then if test.value else s.other, env.child(), depth)
        then = self._join(self._clauses(s.then, env.child(), depth + 1), depth + 1)
        other = self._join(self._clauses(s.other, env.child(), depth + 1), depth + 1)
        if not then and not other:
            return []
        if not then:
            return [(None, f"if {self.neg(test, env)}, {other}")]
        text = f"if {self.cond(test, env)}, {then}"
        if other:
            text += ("; otherwise " if depth == 0 else ", otherwise ") + other
        return [(None, text)]

    def _s_Ask(self, s, env, depth):
        who = self._subject(s.who, env)
        answers = []
        for a in s.answers:
            body = self._join(self._clauses(a.body, env.child(), depth + 1), depth + 1)
            answers.append(f"{humanize(a.name)} — {body or 'no further effect'}")
        question = f" “{s.question}”" if s.question else ""
        if depth == 0:
            return [(who, f"is asked{question}: " + "; ".join(answers))]
        return [(who, f"is asked{question} (" + "; ".join(answers) + ")")]

    def _s_Reveal(self, s, env, depth):
        return [(self._subject(s.who, env), f"shows their hand to {self.np(s.to, env)}")]

    def _s_Scores(self, s, env, depth):
        who = self._subject(s.who, env)

        def amount():
            e = s.amount
            simple = self.simplify(e, env) if not isinstance(e, A.Name) else e
            if isinstance(simple, (A.Literal, _Const)) or (isinstance(simple, A.Name) and self._is_option(simple.id, env)):
                return self._count(e, env, "point", "points")
            text = self.np(e, env)
            return text if "point" in text else text + " points"
        return [(who, "scores " + self._with_subject(who, amount))]

    def _s_Eliminate(self, s, env, depth):
        return [(self._subject(s.who, env), "is out of the round" if s.round_only else "is out of the game")]

    def _s_SetCounter(self, s, env, depth):
        return [(None, f"the {humanize(s.name)} count is set to {self.np(s.value, env)}")]

    def _s_AddCounter(self, s, env, depth):
        return [(None, f"the {humanize(s.name)} count goes up by {self.np(s.value, env)}")]

    def _s_MayPlayCard(self, s, env, depth):
        who = self._subject(s.who, env)
        what = self._with_subject(who, lambda: self._card_np(s.test, "card", env, "another"))
        return [(who, f"may play {what}, or pass")]

    def _s_PlaysCard(self, s, env, depth):
        return [(self._subject(s.who, env), f"plays {self.np(s.card, env)}")]

    def _s_Race(self, s, env, depth):
        group = self._group(s.among, env)
        among = group[3] if group is not None else self.np(s.among, env)
        inner = env.child()
        inner.vars[s.var] = _Bind("the " + humanize(s.var), "seat")
        body = self._join(self._clauses(s.body, inner, depth + 1), depth + 1) or NOTHING
        prompt = f" (“{s.prompt}”)" if s.prompt else ""
        return [(None, f"{among} race{prompt}, and {body}")]

    def _s_Chance(self, s, env, depth):
        name = "the " + humanize(s.var)
        lo, hi = self.np(s.low, env), self.np(s.high, env)
        env.vars[s.var] = _Bind(name, "int")
        prompt = f" (“{s.prompt}”)" if s.prompt else ""
        return [(None, f"{name} is decided by chance{prompt}: a number from {lo} to {hi}")]

    def _s_While(self, s, env, depth):
        body = self._join(self._clauses(s.body, env.child(), depth + 1), depth + 1) or NOTHING
        return [(None, f"as long as {self.cond(s.test, env)}, again and again: {body}")]

    def _s_DiscardsCard(self, s, env, depth):
        return [(self._subject(s.who, env), f"discards {self.np(s.card, env)}")]

    def _s_Redeal(self, s, env, depth):
        return [(None, "every hand is gathered, shuffled and dealt out again one card at a time, "
                       f"starting with {self.np(s.start, env)}")]

    def _s_Cancel(self, s, env, depth):
        return [(None, "the top card’s effect is undone")]

    def _s_SwapSeats(self, s, env, depth):
        return [(self._subject(s.who, env), f"swaps seats with {self.np(s.other, env)}")]

    def _s_Starts(self, s, env, depth):
        return [(self._subject(s.who, env), "plays first")]

    def _s_PlaysAgain(self, s, env, depth):
        return [(self._subject(s.who, env), "plays again")]

    def _s_ReturnStarter(self, s, env, depth):
        return [(None, "the card goes back into the deck, the deck is shuffled and another card is turned up")]

    def _s_AsIfPlayed(self, s, env, depth):
        return [(None, f"it takes effect as if {self.np(s.who, env)} had played it")]

    def _s_PlayDrawn(self, s, env, depth):
        verb = "must" if s.must else "may"
        return [(self._subject(s.who, env), f"{verb} play the drawn card if it can be played")]

    def _s_ForEach(self, s, env, depth):
        group = self._group(s.collection, env)
        if group is not None:
            each, that, noun = group[2], "that " + group[4].split(" ", 1)[1], group[4].split(" ", 1)[1]
            kind = "seat"
        else:
            each, that, noun = "each card", "that card", f"card in {self.np(s.collection, env)}"
            kind = "card"
        inner = env.child()
        inner.vars[s.var] = _Bind(each, kind)
        saved = self.used.copy()
        clauses = self._clauses(s.body, inner, depth + 1)
        if clauses and all(subj == each for subj, _ in clauses):
            return clauses
        self.used = saved
        inner = env.child()
        inner.vars[s.var] = _Bind(that, kind)
        body = self._join(self._clauses(s.body, inner, depth + 1), depth + 1) or NOTHING
        return [(None, f"for each {noun}: {body}")]

    def _s_Let(self, s, env, depth):
        env.vars[s.name] = _Bind(self.np(s.value, env), self._type(s.value, env))
        return []

    def _s_EndGame(self, s, env, depth):
        return [(None, f"the game ends and the {s.best} score wins")]

    def _s_EndRound(self, s, env, depth):
        return [(None, "the round ends at once")]

    def _s_DiscardMatching(self, s, env, depth):
        who = self._subject(s.who, env)
        what = self._with_subject(who, lambda: self._card_np(s.test, s.var, env, "every"))
        return [(who, f"discards {what} from {self._with_subject(who, lambda: self.np(s.collection, env))}")]


    # ---- declarations ------------------------------------------------------------------------
    STARTER_ROLES = {"player": "the dealer", "next": "the player after the dealer",
                     "previous": "the player before the dealer", "card": "the starter card"}
    WINDOW_ROLES = {"actor": "the caller", "card": "the card they call with"}

    def declaration(self, decl, keys=(), unit: str = "", meta: bool = False) -> list:
        """The rules a declaration states, as Rules; `keys` are the composition keys it still holds.

        Declarations that are about the rules file rather than the game (`about`, `requires`,
        `remove card`, `uses`) give Rules only with meta=True (for "What's different")."""
        method = getattr(self, "_d_" + type(decl).__name__, None)
        if method is None:
            return [self.rule(humanize(type(decl).__name__), getattr(decl, "doc", ""), getattr(decl, "body", ()),
                              kind=type(decl).__name__, unit=unit)] if hasattr(decl, "body") else []
        rules = method(decl, tuple(keys), unit, meta)
        for r in rules:
            r.kind = r.kind or type(decl).__name__
            r.unit = r.unit or unit
        return rules

    def _sels(self, decl, keys):
        """The selectors of a per-card declaration that are still in force (by their keys)."""
        from .compose import sel_key
        sels = decl.cards or ()
        if keys:
            live = {k[1] for k in keys if len(k) > 1}
            sels = tuple(s for s in sels if sel_key(s) in live) or sels
        return sels

    def _per_card(self, decl, keys, unit, roles=None):
        sels = self._sels(decl, keys)
        ids = tuple(i for s in sels for i in self.sel_cards(s))
        title = and_list([self.sel_title(s) for s in sels])
        kinds = tuple(dict.fromkeys(s.kind if isinstance(s, A.KindSel) else self.rules.cards.kind[ids[0]]
                                    for s in sels if isinstance(s, A.KindSel) or ids))
        return self.rule(title, decl.doc, decl.body, cards=kinds, roles=roles, unit=unit, card_ids=ids or None)

    def _d_OnPlay(self, d, keys, unit, meta):
        return [self._per_card(d, keys, unit)]

    def _d_Starter(self, d, keys, unit, meta):
        if d.cards is None:
            return [self.rule("Any other card", d.doc, d.body, roles=self.STARTER_ROLES, unit=unit)]
        return [self._per_card(d, keys, unit, roles=self.STARTER_ROLES)]

    def _d_OnDraw(self, d, keys, unit, meta):
        return [self.rule("Drawing", d.doc, d.body, unit=unit)]

    def _d_AfterPlay(self, d, keys, unit, meta):
        return [self.rule("After every play", d.doc, d.body, unit=unit)]

    def _d_OnRoundStart(self, d, keys, unit, meta):
        return [self.rule("At the start of each round", d.doc, d.body, roles={"player": "the dealer"}, unit=unit)]

    def _d_OnRoundEnd(self, d, keys, unit, meta):
        """Two rules: the scoring (with the author's words) and the winning (statements that end the game)."""
        roles = {"player": "the winner"}
        self.used = set()
        body = self.flatten(d.body, _Env(roles=dict(roles)))
        used = set(self.used)
        ending = [s for s in body if _contains(s, A.EndGame)]
        scoring = [s for s in body if not _contains(s, A.EndGame)]
        out = [self.rule("Scoring", d.doc, tuple(scoring), roles=roles, unit=unit)]
        out[0].options = tuple(sorted(set(out[0].options) | used))
        if ending:
            out.append(self.rule("Winning", "", tuple(ending), roles=roles, unit=unit, kind="Winning"))
        return out

    def _d_Match(self, d, keys, unit, meta):
        self.used = set()
        text = self._card_np(d.test, "card", _Env())
        return [Rule("Match", d.doc, text, tuple(sorted(self.used)))]

    def _d_PlayOnly(self, d, keys, unit, meta):
        self.used = set()
        text = sentence_case(f"a card may be played only if {self.cond(d.test, _Env())}")
        return [Rule("Every play", d.doc, text, tuple(sorted(self.used)))]

    def _d_Honest(self, d, keys, unit, meta):
        self.used = set()
        title = self.sel_title(d.card)
        text = sentence_case(f"playing {_a(title)} is honest only if {self.cond(d.test, _Env())}")
        return [Rule(title, d.doc, text, tuple(sorted(self.used)),
                     cards=(d.card.kind,) if isinstance(d.card, A.KindSel) else ())]

    def _d_Renege(self, d, keys, unit, meta):
        self.used = set()
        test = self.simplify(d.test, _Env())
        if isinstance(test, _Const) and test.value:
            text = "A player may always draw instead of playing, even when they hold a card they could play."
        elif isinstance(test, _Const):
            text = "A player who holds a card they can play must play; only a player who cannot play draws."
        else:
            text = sentence_case("a player may draw instead of playing a card they could play when "
                                 + self.cond(test, _Env()))
        return [Rule("Drawing instead of playing", d.doc, text, tuple(sorted(self.used)))]

    def _d_DealsFirst(self, d, keys, unit, meta):
        self.used = set()
        env = _Env(roles={"card": "the turned card"})
        value = self.np(d.value, env)
        text = sentence_case("each player turns over a card; whoever turns the highest value deals, "
                             f"the value being {value}")
        return [Rule("The dealer", d.doc, text, tuple(sorted(self.used)))]

    def _d_Teams(self, d, keys, unit, meta):
        self.used = set()
        test = self.simplify(d.test, _Env())
        if isinstance(test, _Const):
            text = ("Players sitting across from each other are partners." if test.value
                    else "There are no teams.")
        else:
            text = sentence_case("players sitting across from each other are partners when "
                                 + self.cond(test, _Env()))
        return [Rule("Teams", d.doc, text, tuple(sorted(self.used)))]

    def _d_Players(self, d, keys, unit, meta):
        text = f"For exactly {d.low} players." if d.low == d.high else f"For {d.low} to {d.high} players."
        return [Rule("Players", "", text)]

    def _d_Deal(self, d, keys, unit, meta):
        self.used = set()
        count = self._count(d.count, _Env(), "card", "cards")
        return [Rule("The deal", "", sentence_case(f"each player is dealt {count}"), tuple(sorted(self.used)))]

    def _d_Colors(self, d, keys, unit, meta):
        names = [f"{c.title} ({c.code})" for c in d.colors]
        return [Rule("Colors", "", sentence_case(f"the colors are {and_list(names)}"))]

    def _d_CardDecl(self, d, keys, unit, meta):
        c = self.rules.cards
        ids = [i for i in range(len(c.kind)) if c.kind[i] == d.name]
        codes = list(dict.fromkeys(c.code[i] for i in ids))
        shown = ", ".join(codes[:4]) + (" …" if len(codes) > 4 else "")
        points = sorted({c.points[i] for i in ids})
        pts = (f"{points[0]} points" if len(points) == 1 else f"{points[0]} to {points[-1]} points") if points else ""
        tags = sorted(set().union(*(c.tags[i] for i in ids))) if ids else []
        colored = any(c.colored[i] for i in ids)
        bits = ["in every color" if colored else "without a color"] + [humanize(t) for t in tags] + ([pts] if pts else [])
        text = f"{d.title} ({shown}): {', '.join(bits)}." if ids else f"{d.title}."
        return [Rule(d.title, "", text, cards=(d.name,))]

    def _d_Deck(self, d, keys, unit, meta):
        c = self.rules.cards
        counts: dict = {}
        for i in self.rules.deck:
            counts[c.kind[i]] = counts.get(c.kind[i], 0) + 1
        parts = [f"{n} {self.kind_title(k)}" for k, n in counts.items()]
        total = len(self.rules.deck)
        return [Rule("The deck", "", f"The deck holds {total} {plural(total, 'card')}: {and_list(parts)}.")]

    def _d_OptionDecl(self, d, keys, unit, meta):
        info = self.rules.options.get(d.name)
        value = info.value if info is not None else d.default.value
        return [Rule(d.name, d.doc, f"{d.name} {fmt_value(value)}")]

    def _d_SetOption(self, d, keys, unit, meta):
        info = self.rules.options.get(d.name)
        value = info.value if info is not None else d.value.value
        return [Rule(d.name, "", f"{d.name} {fmt_value(value)}")]

    def _d_CounterDecl(self, d, keys, unit, meta):
        text = f"The game keeps a count, {humanize(d.name)}, that starts at {fmt_value(d.start.value)} every round."
        return [Rule(humanize(d.name), d.doc, text)]

    def _d_Window(self, d, keys, unit, meta):
        self.used = set()
        opens = next((i for i in d.items if isinstance(i, A.Opens)), None)
        closes = any(isinstance(i, A.Closes) for i in d.items)
        when = "after every play"
        if opens is not None and opens.test is not None:
            test = self.simplify(opens.test, _Env())
            if isinstance(test, _Const):
                when = "after every play" if test.value else "never"
            else:
                when = f"after a play when {self.cond(test, _Env())}"
        text = f"Open {when}" + (", until the next turn begins" if closes else "") + "; the first answer closes it."
        out = [Rule(d.title, "", text, tuple(sorted(self.used)), kind="Window")]
        for item in d.items:
            if not isinstance(item, A.WindowAction):
                continue
            out.append(self._window_action(item, unit))
        return out

    def _window_action(self, item, unit) -> Rule:
        self.used = set()
        env = _Env(roles=dict(self.WINDOW_ROLES))
        who = _WHO.get(item.who, humanize(item.who))
        with_card = ""
        if item.card_test is not None:
            with_card = " with " + self._card_np(item.card_test, "card", _Env())
        body = self._join(self._clauses(item.body, env.child(), 0), 0)
        text = f"{who} may call “{item.verb}”{with_card}" + (f": {body}" if body else "")
        return Rule(f"{capital(who)} may {humanize(item.verb)}", item.doc, sentence_case(text),
                    tuple(sorted(self.used)), kind="WindowAction", unit=unit)

    def _d_Uses(self, d, keys, unit, meta):
        if not meta:
            return []
        names = [self.unit_titles.get(m, m) for m in d.modules]
        return [Rule("House rules", "", sentence_case(f"uses the house rules {and_list(names)}"))]

    def _d_Requires(self, d, keys, unit, meta):
        if not meta:
            return []
        return [Rule("Cards needed", "", sentence_case("needs " + and_list([self.sel_title(s) for s in d.cards]) + " cards"))]

    def _d_RemoveCard(self, d, keys, unit, meta):
        if not meta:
            return []
        return [Rule(humanize(d.name), "", sentence_case(f"{humanize(d.name)} cards are taken out"))]

    def _d_About(self, d, keys, unit, meta):
        return [Rule("About", d.text, d.text)] if meta else []

    # ---- asks inside effects -----------------------------------------------------------------
    def asks(self, body) -> list:
        """The questions a block asks (after the options decide its branches), with their answers."""
        found = []

        def walk(stmts):
            for s in self.flatten(stmts):
                if isinstance(s, A.Ask):
                    found.append(s)
                    for a in s.answers:
                        walk(a.body)
                elif isinstance(s, A.If):
                    walk(s.then)
                    walk(s.other)
                elif isinstance(s, (A.ForEach, A.While, A.Race)):
                    walk(s.body)
        walk(body)
        return found


def _contains(node, kind) -> bool:
    return any(isinstance(n, kind) for n in A.walk(node))


def _a(text: str) -> str:
    """Indefinite article."""
    if not text:
        return text
    first = text.split(" ", 1)[0].lower()
    vowel = first[:1] in "aeiou" and not first.startswith(("uno", "one", "use", "eu"))
    return ("an " if vowel or first[:1] in "8" else "a ") + text


def _apply(op, a, b):
    import operator
    table = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
             ">=": operator.ge, "+": operator.add, "-": operator.sub, "*": operator.mul,
             "/": lambda x, y: x // y if y else 0, "%": lambda x, y: x % y if y else 0,
             "in": lambda x, y: x in y}
    return table[op](a, b)
