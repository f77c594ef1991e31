"""The author's words against the rule they describe, for `unodsl check` and the language server.

A sheet prints the author's sentence for a rule (see `voice`), so the sentence must say what the
rule does. `check_rule_texts(rules, sources)` compares each text of a rules file with the
statements it stands for, read with the default options (the ones authors write for):

- W501: the text and the rule disagree on a number (the text says "draws two", the rule draws 4;
  "500 points" where no 500 is in the rule), a card (the text names a card kind the rule never
  mentions) or a player (the text speaks of the next player, the rule never names `next`).
- W502: the text names something by its name in the rules file (`skip_bounce`,
  `jump_in_effect = first-stands`), which a sheet never shows a reader.

Only what the text says precisely is compared: a number is read where it counts cards drawn, or
stands before "cards", "points", "players" or "turns"; a card where its title is written as the
card's title is (capitalised), except after "like" or "as"; a player in the phrases "the next
player", "the previous player", "the dealer" and "every other player". Sentences that say less
than the rule are not warned about: a summary is not a disagreement.
"""
from __future__ import annotations

import re

from ..lang import ast as A
from ..lang.diagnostics import Diagnostic
from ..lang.source import Span
from .describe import Describer, wordish
from .describe.scope import _Const, _Env

_NUMBERS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
            "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20}
_NUM = r"(\d+|" + "|".join(_NUMBERS) + r")"
_DRAW = re.compile(r"\bdraw(?:s|ing)?\s+(?:up to\s+)?" + _NUM + r"\b", re.I)
_NOUN = re.compile(r"(?<![\w-])" + _NUM + r"\s+(?:more\s+)?(cards?|points?|players?|turns?)\b(?!\s+at a time)", re.I)
_SEATS = [(re.compile(r"\bnext player\b", re.I), ("next",), "the next player"),
          (re.compile(r"\bprevious player\b", re.I), ("previous",), "the previous player"),
          (re.compile(r"\bdealer\b", re.I), ("dealer",), "the dealer"),
          (re.compile(r"\b(?:every|each|all) other players?\b|\bthe others\b|\beveryone else\b", re.I),
           ("others", "opponents", "everyone"), "every other player")]
_STARTER_SEATS = {"player", "next", "previous", "dealer"}      # in a starter rule, all are about the dealer


def _number(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBERS[word.lower()]


class _Facts:
    """What the statements of a declaration say: numbers, draw counts, card kinds and seats."""

    def __init__(self, d: Describer, node, cards: tuple):
        self.numbers: set = set()
        self.draws: dict = {}            # count -> the Draws statement
        self.draws_known = True
        self.kinds: set = set()
        self.seats: set = set()
        self.first_draw = None
        self._d, self._cards = d, cards
        for x in A.walk(node, getattr(d.rules, "definitions", None) or None):   # calls followed into
            self._see(x)                                                        # their statements

    def _values(self, e) -> set | None:
        """The whole numbers an expression can be with the default options, or None if unknown."""
        d = self._d
        v = d.simplify(e, _Env())
        if isinstance(v, (_Const, A.Literal)) and isinstance(v.value, int) and not isinstance(v.value, bool):
            return {v.value}
        if isinstance(e, A.Attr) and isinstance(e.obj, A.Name) and e.obj.id == "card" and self._cards:
            table = d.rules.cards
            column = table.props.get(e.name) if e.name in table.props else getattr(table, e.name, None)
            if isinstance(column, (list, tuple)):
                vals = {column[i] for i in self._cards}
                if all(isinstance(x, int) and not isinstance(x, bool) for x in vals):
                    return vals
        return None

    def _see(self, x):
        d = self._d
        if isinstance(x, A.Literal) and isinstance(x.value, int) and not isinstance(x.value, bool):
            self.numbers.add(x.value)
        elif isinstance(x, A.Name):
            if x.id in d.options and isinstance(d.options[x.id], int) and not isinstance(d.options[x.id], bool):
                self.numbers.add(d.options[x.id])
            if x.id in d.kind_titles:
                self.kinds.add(x.id)
            self.seats.add(x.id)
        elif isinstance(x, A.Is):
            self.kinds.add(x.tag)
        elif isinstance(x, A.KindSel):
            self.kinds.add(x.kind)
            if x.ranks:
                self.numbers.update(range(x.ranks[0], x.ranks[1] + 1))
        elif isinstance(x, A.CodeSel):
            card = d.rules.codes.get(x.code.upper())
            if card is not None:
                self.kinds.add(d.rules.cards.kind[card])
                if d.rules.cards.rank[card] is not None:
                    self.numbers.add(d.rules.cards.rank[card])
        elif isinstance(x, A.Attr):
            vals = self._values(x)
            if vals:
                self.numbers |= vals
        elif isinstance(x, A.Builtin) and x.id == "players":
            pass
        if isinstance(x, (A.PassHands, A.Redeal)):
            self.seats.add("next")                # hands go round to the next player
        if isinstance(x, A.Draws):
            vals = self._values(x.count)
            if vals is None:
                self.draws_known = False
            else:
                for v in vals:
                    self.draws.setdefault(v, x)
            self.first_draw = self.first_draw or x
        elif isinstance(x, A.DrawsUntil):
            self.draws_known = False


def _texts(decl):
    """(text, the node it describes) for every author's text in a declaration (an option's or a
    count's text says what it is for, not what a rule does: those are not compared)."""
    if isinstance(decl, (A.OptionDecl, A.CounterDecl, A.About)):
        return
    doc = getattr(decl, "doc", "")
    if doc:
        yield doc, decl
    for x in A.walk(decl):
        if x is decl:
            continue
        if isinstance(x, (A.WindowAction, A.Answer)) and x.doc:
            yield x.doc, x


def _doc_span(decl_span: Span, doc: str, sources) -> Span:
    """Where the quoted text stands in the file (else the declaration)."""
    src = (sources or {}).get(decl_span.file)
    if src is None:
        return decl_span
    lines = src.text.splitlines(keepends=True)
    start = sum(len(line) for line in lines[:max(0, decl_span.line - 1)]) + max(0, decl_span.col - 1)
    quoted = '"' + doc.replace("\\", "\\\\").replace('"', '\\"') + '"'
    at = src.text.find(quoted, start)
    if at < 0:
        return decl_span
    line = src.text.count("\n", 0, at) + 1
    col = at - (src.text.rfind("\n", 0, at) + 1) + 1
    end_line = src.text.count("\n", 0, at + len(quoted)) + 1
    end_col = (at + len(quoted)) - (src.text.rfind("\n", 0, at + len(quoted)) + 1) + 1
    return Span(decl_span.file, line, col, end_line, end_col)


def _titles(d: Describer) -> list:
    """(title, kind), longest first, so "Wild Draw Four" is found before "Wild"."""
    return sorted(((t, k) for k, t in d.kind_titles.items() if t), key=lambda tk: -len(tk[0]))


def check_rule_texts(rules, sources: dict | None = None, files: set | None = None) -> list[Diagnostic]:
    """W501 and W502 for the author's texts of a compiled ruleset (see the module's docstring).

    `sources` (file name -> Source, as `compile.loader.check` returns them) lets a diagnostic
    point at the text itself; `files` limits the check to declarations of those files."""
    d = Describer(rules, options={n: i.default for n, i in rules.options.items()})
    names = _internal_names(rules)
    titles = _titles(d)
    out: list[Diagnostic] = []
    seen: set = set()
    for _, decl, _ in rules.composed.items:
        if id(decl) in seen or getattr(decl, "span", None) is None:
            continue
        seen.add(id(decl))
        if files is not None and decl.span.file not in files:
            continue
        cards = ()
        if isinstance(decl, (A.OnPlay, A.Starter)) and decl.cards:
            cards = tuple(i for s in decl.cards for i in d.sel_cards(s))
        whole = _Facts(d, decl, cards)
        for text, node in _texts(decl):
            span = _doc_span(decl.span, text, sources)
            out.extend(_names(text, span, names))
            own = _Facts(d, node, cards) if node is not decl else whole
            out.extend(_numbers(d, text, span, own, whole))
            out.extend(_cards(text, span, whole, titles, decl))
            out.extend(_players(text, span, whole, decl))
    return out


def _internal_names(rules) -> set:
    found = set(rules.options) | set(rules.counters)
    for _, decl, _ in rules.composed.items:
        for x in A.walk(decl):
            for attr in ("var", "name"):
                v = getattr(x, attr, None)
                if isinstance(v, str) and not isinstance(x, (A.CardDecl, A.Unit)):
                    found.add(v)
    for info in rules.options.values():
        found |= {c for c in info.choices if isinstance(c, str) and not wordish(c)}
    return {n for n in found if n and ("_" in n or not wordish(n)) and len(n) > 1}


def _names(text, span, names) -> list:
    out = []
    for token in sorted(set(re.findall(r"[A-Za-z][\w-]*", text)) & names):
        out.append(Diagnostic("W502", f"the text names `{token}`, a name of the rules file that a sheet never shows",
                              span, "say what it does instead (a sheet prints this text for the rule)", "warning"))
    return out


def _numbers(d, text, span, own: _Facts, whole: _Facts) -> list:
    out, drawn_at = [], set()
    for m in _DRAW.finditer(text):
        drawn_at.add(m.start(1))
        n = _number(m.group(1))
        if own.draws and own.draws_known and n not in own.draws:
            stmt = own.first_draw
            rule = sorted(own.draws)
            out.append(Diagnostic(
                "W501", f"the text says “{m.group(0)}” but the rule draws {' or '.join(map(str, rule))}",
                span, "make the text and the rule say the same number", "warning",
                ((stmt.span, "the rule: " + d.block((stmt,), _Env())),) if stmt is not None else ()))
    for m in _NOUN.finditer(text):
        if m.start(1) in drawn_at:
            continue
        n = _number(m.group(1))
        if n not in whole.numbers and n not in whole.draws and whole.draws_known:
            out.append(Diagnostic(
                "W501", f"the text says “{m.group(0)}” but no {n} is in the rule it describes",
                span, "make the text and the rule say the same number", "warning"))
    return out


def _cards(text, span, facts: _Facts, titles, decl) -> list:
    """A rule about cards whose text opens on another card ("The Draw Two ..." for a Skip)."""
    if not isinstance(decl, (A.OnPlay, A.Starter, A.Honest)):
        return []
    lead = " ".join(text.split()[:4])
    for title, kind in titles:
        m = re.match(r"(?:(?:a|an|the|every|each|this)\s+)?" + re.escape(title) + r"(?![\w-])", lead, re.I)
        if m and lead[m.end() - len(title):m.end()] == title:
            if kind in facts.kinds:
                return []
            return [Diagnostic(
                "W501", f"the text is about the {title}, but the rule it describes is not", span,
                "name the card the rule is about, or change the rule", "warning",
                ((decl.span, "the rule it describes"),))]
    return []


def _players(text, span, facts: _Facts, decl) -> list:
    out = []
    seats = set(facts.seats)
    if isinstance(decl, (A.Starter, A.OnRoundStart, A.DealsFirst)) and seats & _STARTER_SEATS:
        seats |= {"dealer"}
    for pattern, words, phrase in _SEATS:
        if pattern.search(text) and not seats & set(words):
            out.append(Diagnostic(
                "W501", f"the text speaks of {phrase}, whom the rule it describes never names", span,
                "make the text and the rule speak of the same player", "warning",
                ((decl.span, "the rule it describes"),)))
    return out
