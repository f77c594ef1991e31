"""Two-faced cards: the faces a ruleset declares, the deck of each face, and how they pair.

A two-faced ruleset lists the cards of its first face in `deck { }` and those of its second face
in `deck FACE { }`; `pair faces` says which card is printed on the back of which: card by card
`at random` (a pairing fixed once for the ruleset, so two copies of a card may have different
backs, as in a printed deck), card by card `in order`, or by a table of codes, where every copy of
a card gets the same back. Both decks need as many cards (the checker says when they cannot pair).

The engine sees each distinct pair as two card ids, one per face in play (`2k` with the first
face up, `2k + 1` with the second), each with the attributes of the face it shows: rules,
matching, scoring and the ruleset's memos read the face in play without knowing that faces
exist, and turning a card over is `id ^ 1`. Two ids may show the same face (the same code) with
different backs: a player tells their cards apart by the face they see, so the engine lists one
action per code and plays the first such card in the hand (`Ruleset.distinct`, `Game.held`).
"""
from __future__ import annotations

import random
from collections import Counter

from ..lang import ast as A
from ..lang.diagnostics import suggest
from .expressions import CardTable

# The seed of `pair faces at random`: one pairing for the ruleset, the same in every game.
PAIRING_SEED = "unodsl: faces paired at random"


class FacePairing:
    """Builds the two-faced card table from the base table (one row per kind of face)."""

    def __init__(self, diags, faces: A.Faces, pair: A.PairFaces | None, second: A.Deck | None, unit_span):
        self.diags = diags
        self.faces = faces
        self.pair = pair
        self.second = second
        self.unit_span = unit_span

    def check_declarations(self) -> bool:
        """Whether the faces, the second deck and the pairing fit together (else diagnostics)."""
        names = tuple(f.name for f in self.faces.faces)
        ok = True
        if len(set(names)) != len(names):
            self.diags.error("E353", "the two faces need different names", self.faces.span)
            ok = False
        if self.second is None:
            self.diags.error("E353", f"the cards have two faces, but no deck gives the `{names[-1]}` faces",
                             self.faces.span, f"add for example: deck {names[-1]} {{ ... }}")
            ok = False
        elif self.second.face != names[-1]:
            self.diags.error("E353", f"`deck {self.second.face}`: the second face is `{names[-1]}`", self.second.span,
                             suggest(self.second.face, names[-1:]) or f"write: deck {names[-1]} {{ ... }}")
            ok = False
        if self.pair is None:
            self.diags.error("E354", "the ruleset does not say which face is printed on the back of which",
                             self.faces.span, "add for example: pair faces at random")
            ok = False
        return ok

    def build(self, base: CardTable, first: tuple, second: tuple):
        """(table, by_code, deck) of the paired cards, or None after reporting why they do not pair.
        `first` and `second` are the two decks as base card ids, with repeats, in deck order."""
        pairs = self._pairs(base, first, second)
        if pairs is None:
            return None
        rows = []          # base card id shown by each new id
        counts = []
        for light, dark, n in pairs:
            rows += [light, dark]
            counts.append(n)
        names = tuple(f.name for f in self.faces.faces)

        def column(values):
            return tuple(values[b] for b in rows)
        table = CardTable(kind=column(base.kind), rank=column(base.rank), color=column(base.color),
                          points=column(base.points), code=column(base.code), name=column(base.name),
                          colored=column(base.colored), tags=column(base.tags),
                          props={k: column(v) for k, v in base.props.items()},
                          computed={k: column(v) for k, v in base.computed.items()},
                          other=tuple(i ^ 1 for i in range(len(rows))),
                          face=tuple(names[i & 1] for i in range(len(rows))))
        by_code: dict = {}
        for i in range(len(rows)):
            by_code.setdefault(table.code[i].upper(), i)
        deck = tuple(2 * k for k, n in enumerate(counts) for _ in range(n))
        return table, by_code, deck

    def _pairs(self, base: CardTable, first: tuple, second: tuple):
        """[(first-face card, second-face card, copies)]: the kinds of face printed back to back."""
        a, b = Counter(first), Counter(second)
        if sum(a.values()) != sum(b.values()):
            self.diags.error("E354", f"the two faces have different numbers of cards ({sum(a.values())} and "
                             f"{sum(b.values())}), so they cannot be printed back to back",
                             self.second.span if self.second is not None else self.faces.span)
            return None
        shared = set(a) & set(b)
        if shared:
            code = base.code[min(shared)]
            self.diags.error("E354", f"`{code}` is in both decks: a face belongs to one side of the cards",
                             self.second.span)
            return None
        how = self.pair.how
        if how == "table":
            return self._table(base, a, b)
        backs = list(second)
        if how == "random":
            random.Random(PAIRING_SEED).shuffle(backs)
        pairs = Counter(zip(first, backs))          # card by card; identical pairs counted together
        return [(x, y, n) for (x, y), n in pairs.items()]

    def _table(self, base: CardTable, a: Counter, b: Counter):
        codes = {base.code[i].upper(): i for i in set(a) | set(b)}
        out, used = [], set()
        for x_code, y_code, span in self.pair.pairs:
            x, y = codes.get(x_code.upper()), codes.get(y_code.upper())
            for code, card in ((x_code, x), (y_code, y)):
                if card is None:
                    self.diags.error("E354", f"no card of either deck has the code `{code}`", span,
                                     suggest(code.upper(), codes))
                    return None
                if card in used:
                    self.diags.error("E354", f"`{code}` is paired twice", span)
                    return None
            if x in b:
                x, y = y, x
            if x not in a or y not in b:
                self.diags.error("E354", f"`{x_code}` and `{y_code}` are faces of the same side", span)
                return None
            if a[x] != b[y]:
                self.diags.error("E354", f"`{base.code[x]}` has {a[x]} copies but `{base.code[y]}` has {b[y]}", span)
                return None
            used |= {x, y}
            out.append((x, y, a[x]))
        missing = [base.code[c] for c in a if c not in used] + [base.code[c] for c in b if c not in used]
        if missing:
            self.diags.error("E354", "the table does not say what is on the back of " + ", ".join(missing[:6]) +
                             (" ..." if len(missing) > 6 else ""), self.pair.span)
            return None
        return out
