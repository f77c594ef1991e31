"""Values as noun phrases ("the number of cards in the player's hand"), and what the options
decide of them before anything is written.
"""
from __future__ import annotations

from dataclasses import replace

from ...compile.expressions import BUILTINS
from ...lang import ast as A
from .scope import _Bind, _Const, _Env
from .words import (
    _ARITH,
    _CARD_FIELDS,
    _CARDS,
    _CMP,
    _GROUPS,
    _SEAT_FIELDS,
    _SEATS,
    and_list,
    fmt_value,
    humanize,
    wordish,
)


class Expressions:
    """Mixed into Describer."""

    def _is_option(self, name: str, env: _Env) -> bool:
        return (name in self.options and name not in env.vars and name not in BUILTINS
                and name not in self.counters)

    def _static(self, e, env: _Env, seen: set):
        """(True, value) when e reads only literals and options."""
        if isinstance(e, _Const):
            return True, e.value
        if isinstance(e, A.Literal):
            return True, e.value
        if isinstance(e, A.Builtin) and e.id == "players" and "players" not in env.roles:
            low, high = getattr(self.rules, "players", (0, -1))
            if low == high and self.fixed_players:      # a game for exactly N players
                return True, low
            return False, None
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
            return {"color": "color", "players": "int", "it": "card", "round": "int", "played": "bool",
                    "colors": "colors"}.get(e.id, "other")
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
            return self.counter_phrase(n)
        if n in self.options:
            self.used.add(n)
            v = self.options[n]
            if isinstance(v, bool):
                return "yes" if v else "no"
            return fmt_value(v)
        if n in self.colors:
            return self.rules.color_titles.get(n, n)
        if n in self.kind_titles:
            return self.kind_title(n)
        if n in self.rules.groups:
            return f"the {humanize(n)} {self.rules.color_word}s (" + and_list(
                [self.rules.color_titles.get(c, c) for c in self.rules.groups[n]]) + ")"
        if n in self.rules.faces:
            return "the " + self.rules.face_titles[self.rules.faces.index(n)].lower() + " side"
        rank = next((r for r, (name, _, _) in self.rules.rank_words.items() if name == n), None)
        if rank is not None:
            return self.rules.rank_words[rank][2]
        if n in BUILTINS:
            return BUILTINS[n][2]
        return humanize(n)

    def _np_Builtin(self, e, env):
        if e.id in env.roles:
            return env.roles[e.id]
        word = self.rules.color_word
        return {"color": f"the current {word}", "players": "the number of players",
                "it": "the drawn card", "round": "the round number", "played": "whether the card was played",
                "face": "the side of the cards in play", "colors": f"the {word}s"}.get(e.id, humanize(e.id))

    def poss(self, e, env: _Env) -> str:
        """Possessive: "the player's", or "their" for the subject of the clause being written."""
        phrase = self.np(e, env)
        if self.subject is not None and phrase == self.subject:
            return "their"
        return phrase + "’s" if not phrase.endswith("s") else phrase + "’"

    def _np_Attr(self, e, env):
        if isinstance(e.obj, A.Name) and e.obj.id in ("stock", "discard") and e.obj.id not in env.vars:
            return self._pile_attr(e, env)
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

    def _pile_attr(self, e, env):
        """`stock.size`, `discard.top` ...: the piles' attributes in words."""
        pile = "the stock" if e.obj.id == "stock" else "the discard pile"
        return {"size": f"the number of cards in {pile}", "top": f"the top card of {pile}",
                "bottom": f"the bottom card of {pile}", "cards": f"the cards of {pile}"}.get(
                    e.name, f"{pile}’s {humanize(e.name)}")

    def _np_Unary(self, e, env):
        if e.op == "-":
            return f"minus {self.np(e.operand, env)}"
        return self.cond(e, env)

    def _np_Binary(self, e, env):
        if e.op in _ARITH:
            left, right = e.left, e.right
            if e.op == "*" and isinstance(self.simplify(right, env), (A.Literal, _Const)) \
                    and not isinstance(self.simplify(left, env), (A.Literal, _Const)):
                left, right = right, left          # "7 times the number of players"
            text = f"{self.np(left, env)} {_ARITH[e.op]} {self.np(right, env)}"
            return text + (" (rounded down)" if e.op == "/" else "")
        return self.cond(e, env)

    def var_phrase(self, var: str, env: _Env, derived: str) -> str:
        """The words for a name a statement binds: the name when it reads as a word ("the target"),
        else `derived` ("the chosen player"), told apart from the names already bound."""
        if wordish(var):
            return "the " + humanize(var)
        taken = {b.phrase for b in env.vars.values()}
        if derived not in taken:
            return derived
        for ordinal in ("second", "third", "fourth", "fifth", "sixth"):
            phrase = derived.replace("the ", f"the {ordinal} ", 1)
            if phrase not in taken:
                return phrase
        return derived

    def counter_phrase(self, name: str) -> str:
        """A counter of the rules as a noun phrase: its name when it reads as a word ("the pending
        count"), else words derived from its place among the counters ("the first count")."""
        if wordish(name):
            return f"the {humanize(name)} count"
        plain = [n for n in self.counters if not wordish(n)]
        if len(plain) == 1:
            return "the count"
        ordinals = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
        i = plain.index(name)
        return f"the {ordinals[i]} count" if i < len(ordinals) else f"count number {i + 1}"

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


def _apply(op, a, b):
    import operator
    table = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
             ">=": operator.ge, "+": operator.add, "-": operator.sub, "*": operator.mul,
             "/": lambda x, y: x // y if y else 0, "%": lambda x, y: x % y if y else 0,
             "in": lambda x, y: x in y}
    return table[op](a, b)
