"""Cards in words: kind and selector titles, the values a card attribute takes for the cards a
rule is about, and a condition on a card as a noun phrase ("a Draw Two of the current color").
"""
from __future__ import annotations

from typing import Optional

from ...lang import ast as A
from .scope import _Bind, _Const, _Env
from .words import _CARD_FIELDS, _CMP, and_list, fmt_value, humanize, number_words, with_article


class Cards:
    """Mixed into Describer."""

    def card_phrase(self, test, var: str = "card", article: str = "a", env: "_Env | None" = None) -> str:
        """A condition on a card as a noun phrase: `card.color == color` -> "a card of the current color"."""
        return self._card_np(test, var, env or _Env(), article)

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
        if lo == hi and self.rules.rank_words and self._only_kind_of_rank(sel.kind, lo):
            return self.rank_title(lo)        # a deck with named ranks: "Eight", "Queen", not "Card 8"
        return f"{title} {lo}" if lo == hi else f"{title} {lo}–{hi}"

    def rank_title(self, rank) -> str:
        """A rank as a card is called: its declared name ("Queen"), else the number in words ("Eight")."""
        named = self.rules.rank_words.get(rank)
        if named is not None:
            return named[2]
        word = number_words(rank)
        return word[:1].upper() + word[1:]

    def _only_kind_of_rank(self, kind: str, rank) -> bool:
        """Whether no other kind of card in the deck has this rank (so the rank alone names the card)."""
        c = self.rules.cards
        return all(c.kind[i] == kind for i in set(self.rules.deck) if c.rank[i] == rank)

    def sel_cards(self, sel) -> tuple:
        c = self.rules.cards
        if isinstance(sel, A.CodeSel):
            card = self.rules.codes.get(sel.code.upper())
            return () if card is None else (card,)
        return tuple(i for i in range(len(c.kind)) if c.kind[i] == sel.kind and (
            sel.ranks is None or (c.rank[i] is not None and sel.ranks[0] <= c.rank[i] <= sel.ranks[1])))

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
        if isinstance(e, A.Attr) and e.name == "colored" and self._is_var(e.obj, var):
            return [("adj", "colored")]
        if isinstance(e, A.Unary) and e.op == "not" and isinstance(e.operand, A.Attr) and \
                e.operand.name == "colored" and self._is_var(e.operand.obj, var):
            return [("post", "without a color")]
        if isinstance(e, A.Is) and self._is_var(e.obj, var):
            if e.tag == "playable":
                return [("post", "that cannot be played" if e.negate else "that can be played")]
            if e.tag in self._tags():
                return [("post", f"that is not {humanize(e.tag)}")] if e.negate else [("adj", humanize(e.tag))]
            title = self.kind_title(e.tag)
            return [("post", f"that is not {with_article(title)}")] if e.negate else [("noun", title)]
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
                    return [("post", f"of the current {self.rules.color_word}")]
                if isinstance(r, A.Attr) and r.name == f:
                    if f == "code":
                        return [("post", f"identical to {self.np(r.obj, env)}")]
                    return [("same", label, self.np(r.obj, env))]
                if f == "rank" and isinstance(r, (A.Literal, _Const)):
                    return [("rank", fmt_value(r.value))]
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
        ranks = [p[1] for p in parts if p[0] == "rank"]
        if len(nouns) == 1 and len(ranks) == 1:
            nouns = [f"{nouns[0]} {ranks[0]}"]          # "a Number 2"
        else:
            posts = [f"with the number {r}" for r in ranks] + posts
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
            return with_article(text)
        return f"{article} {text}".strip()

