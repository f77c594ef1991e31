"""One voice: for each rule, the one text a sheet prints, and its exact reading for the appendix.

A rule is said in the author's words when the rules file gives them and they still describe the
rule: authors write for the default options and any number of players, so the words stand while
the rule reads the same with the options given (and a table of a fixed size) as with the
defaults. Otherwise the sheet says the generated sentence (`describe`), which always matches the
game. A rule that does nothing with the options given (a house rule switched off) is not said at
all. `unodsl check` warns where an author's words and the rule disagree (`wording`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .describe import Describer, sentence_case


@dataclass
class Said:
    """One rule as the sheet says it."""
    title: str
    text: str                    # what the rule book prints: the author's words or the generated sentence
    exact: str                   # the generated reading, for the appendix
    author: bool                 # whether `text` is the author's words
    parts: list = field(default_factory=list)     # the describe Rules it was made of

    def as_dict(self, **more) -> dict:
        return {"title": self.title, "text": self.text, "exact": self.exact, "author": self.author, **more}


class Voice:
    """Chooses, declaration by declaration, what a sheet prints."""

    def __init__(self, rules, describer: Describer | None = None):
        self.rules = rules
        self.d = describer or Describer(rules)
        self._d0 = None

    @property
    def at_defaults(self) -> Describer:
        """A describer that reads the rules with every option at its default."""
        if self._d0 is None:
            self._d0 = Describer(self.rules, options={n: i.default for n, i in self.rules.options.items()},
                                 fixed_players=False)
            self._d0.unit_titles = self.d.unit_titles
        return self._d0

    def say(self, decl, keys=(), unit: str = "", doc: str | None = None, sentence=None) -> Said | None:
        """The declaration as the sheet says it, or None when it is not in force."""
        rs = self.d.declaration(decl, keys, unit)
        live = [r for r in rs if not r.empty]
        if not live:
            return None
        exact = " ".join(sentence(r) if sentence else r.sentence for r in live)
        doc = getattr(decl, "doc", "") if doc is None else doc
        if doc and self.doc_holds(rs, lambda: self.at_defaults.declaration(decl, keys, unit)):
            return Said(live[0].title, sentence_case(doc) if sentence is None else doc, exact, True, live)
        return Said(live[0].title, exact, exact, False, live)

    def doc_holds(self, rs, at_defaults) -> bool:
        """Whether words written for the default options still describe rules read now."""
        return self.holds([r.sentence for r in rs], lambda: [r.sentence for r in at_defaults()])

    def holds(self, now: list, then) -> bool:
        """Whether a reading is the same as at the defaults (`then()`), with any number of players."""
        return now == then()
