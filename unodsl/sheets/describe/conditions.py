"""Yes/no expressions as clauses ("the next player holds a card of the current color"),
and their negations said positively.
"""
from __future__ import annotations

from dataclasses import replace

from ...compile.expressions import BUILTINS
from ...lang import ast as A
from .scope import _Bind, _Const, _Env
from .words import _CARD_FIELDS, _CMP, _NEG_CMP, and_list, humanize, plural, with_article


class Conditions:
    """Mixed into Describer."""

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
            return self._junction(e, env)
        if e.op == "in":
            return f"{self.np(e.left, env)} is one of {self.np(e.right, env)}"
        if e.op in _CMP:
            return self._compare(e.op, e.left, e.right, env)
        return self.np(e, env)

    def _parts(self, e, op: str, env) -> list:
        """The operands of a chain of one operator (`a or b or c`), options decided."""
        e = self.simplify(e, env)
        if isinstance(e, A.Binary) and e.op == op:
            return self._parts(e.left, op, env) + self._parts(e.right, op, env)
        return [e]

    def _junction(self, e, env) -> str:
        """`and`/`or` chains said so that their grouping survives: "A, and either B or C"."""
        parts = self._parts(e, e.op, env)
        other = "or" if e.op == "and" else "and"
        lead = "either " if other == "or" else "both "
        texts, nested = [], False
        for p in self._card_runs(parts, env) if e.op == "and" else parts:
            if isinstance(p, str):
                texts.append(p)
                continue
            text = self.cond(p, env)
            if isinstance(p, A.Binary) and p.op == other:
                nested = True
                if len(self._parts(p, other, env)) == 2:
                    text = lead + text
            texts.append(text)
        if len(texts) == 1:
            return texts[0]
        if nested:
            return ", ".join(texts[:-1]) + f", {e.op} " + texts[-1]
        return and_list(texts, e.op)

    def _card_runs(self, parts: list, env) -> list:
        """Tests of one card joined by `and` said as one noun phrase ("the card is a Number 2")."""
        out, used = [], set()
        for i, p in enumerate(parts):
            if i in used:
                continue
            var = _card_var(p)
            if var is not None and var != "it" and self._type(A.Name(p.span, var), env) != "card":
                var = None
            group = [j for j in range(i, len(parts)) if j not in used and _card_var(parts[j]) == var] if var else [i]
            if var and len(group) > 1:
                test = parts[group[0]]
                for j in group[1:]:
                    test = A.Binary(test.span, "and", test, parts[j])
                qual = self._qual(test, var, env)
                if qual is not None:
                    used.update(group)
                    who = self.np(A.Name(test.span, var), env) if var != "it" else self.np(A.Builtin(test.span, "it"), env)
                    out.append(f"{who} is {self._card_np(test, var, env)}")
                    continue
            used.add(i)
            out.append(p)
        return out

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
            return f"{self.np(left.obj, env)} {'is' if op == '==' else 'is not'} {with_article(self.kind_title(right.id))}"
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
            return f"{who} {verb} {with_article(self.kind_title(e.tag))}"
        return f"{who} {verb} {with_article(humanize(e.tag))} card" if e.tag in self._tags() else f"{who} {verb} {humanize(e.tag)}"

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



def _card_var(e):
    """The card a simple test is about (`card.rank == 2`, `card is wild`): its name, or None."""
    obj = None
    if isinstance(e, A.Is):
        obj = e.obj
    elif isinstance(e, A.Binary) and e.op in ("==", "!=", "<", "<=", ">", ">="):
        obj = e.left.obj if isinstance(e.left, A.Attr) else None
    if isinstance(obj, A.Name):
        return obj.id
    if isinstance(obj, A.Builtin) and obj.id == "it":
        return "it"
    return None
