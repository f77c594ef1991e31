"""Rules in plain English: every statement and expression of the language renders itself.

`Describer(rules)` turns the syntax tree of a compiled ruleset's declarations into sentences for
rule sheets. It is a dispatch on node type and knows no card, color or variant by name: the nouns
come from the rules (card kind titles, color titles, option values, counter names).

Three ideas make the output read like a rule book rather than a listing:

- Options are known when a sheet is made, so conditions that read only options are decided
  (`if force_play_drawn { ... } else { ... }` becomes the branch that applies), and a number an
  option gives is written as the number. The options a rule was decided by are recorded on the
  Rule (never written in it), so a sheet can tell whether the author's words still hold.
- No name of the rules file reaches the English unless it reads as a word (`wordish`): a
  variable `target` is "the target", a variable `k` is "the number drawn"; option names never.
- Consecutive statements about the same player share the subject: "the next player draws 2 cards
  and loses their turn".
- Conditions about a card become noun phrases: `some c in player.hand where c.color == color`
  is "the player holds a card of the current color".
"""
from __future__ import annotations

from typing import Optional

from ...lang import ast as A
from .cards import Cards
from .conditions import Conditions
from .declarations import Declarations
from .expressions import Expressions
from .scope import Rule, _Const, _Env
from .statements import Statements
from .words import (
    NOTHING,
    and_list,
    capital,
    fmt_value,
    humanize,
    plural,
    same_words,
    sentence_case,
    number_words,
    with_article,
    wordish,
    words,
)

__all__ = ["Describer", "Rule", "and_list", "capital", "fmt_value", "humanize", "number_words", "plural",
           "same_words", "sentence_case", "with_article", "wordish", "words"]


class Describer(Expressions, Conditions, Cards, Statements, Declarations):
    """Renders declarations, statements and expressions of one compiled ruleset in English."""

    def __init__(self, rules, options: dict | None = None, fixed_players: bool = True):
        """`options` overrides the option values the rules were compiled with (a sheet compares
        a rule's reading with its reading at the defaults, which the author's words describe);
        fixed_players=False reads `players` as unknown even in a game for exactly N players."""
        self.rules = rules
        self.fixed_players = fixed_players
        self.options = {n: info.value for n, info in rules.options.items()}
        self.options.update(options or {})
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
        self.asked: dict = {}                   # id of an `ask` -> the names bound where it was described
        self.unit_titles: dict = {}             # unit name -> title, for `uses`
        self.cards: Optional[tuple] = None      # card ids the current rule is about
        self.subject: Optional[str] = None

    def rule(self, title: str, doc: str, body=None, *, sentence: str | None = None, kind: str = "",
             cards=(), roles=None, unit: str = "", card_ids=None) -> Rule:
        """A Rule for a block of statements (or a ready sentence), with the options it read."""
        self.used = set()
        self.cards = card_ids
        if sentence is None:
            env = _Env(roles=dict(roles or {}))
            sentence = self.block(body or (), env)
            empty = not sentence
            sentence = sentence_case(sentence or NOTHING)
        else:
            empty = False
        rule = Rule(title, doc or "", sentence, tuple(sorted(self.used)), kind, tuple(cards), unit, empty)
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
