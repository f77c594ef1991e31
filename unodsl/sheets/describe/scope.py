"""What a describer works with while it writes: the Rule it makes, the names bound in the
statements around, and values that the options decide."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from .words import same_words


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
    empty: bool = False          # with these options the rule does nothing (it is not in force)

    @property
    def same(self) -> bool:
        """Whether the doc already says what the sentence says (then a sheet shows the doc only)."""
        return bool(self.doc) and same_words(self.doc, self.sentence)

    def as_dict(self) -> dict:
        return {"title": self.title, "doc": self.doc, "sentence": self.sentence, "same": self.same,
                "kind": self.kind, "cards": list(self.cards), "unit": self.unit, "empty": self.empty}


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
