"""Where each name of a ruleset is defined and where it is used, as the compiler resolved it.

Editors ask "what is this word?", "where is it defined?" and "where else is it used?". The
compiler already answers those questions while it resolves names, so it records the answers
here instead of a second resolver guessing them: the checker and the language server cannot
disagree about what a name means.

A symbol is a kind of thing and a name: ("card kind", "skip"), ("option", "uno_penalty").
Definitions keep the declaration that made them (for hover), references only their place. The
syntax tree keeps the span of a whole declaration, not of its name, so a place recorded as
"the name inside this span" is narrowed to the name itself once the source texts are known
(`locate`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..lang.source import Source, Span, code_only

CARD_KIND, OPTION, COUNTER, COLOR, TAG, PROPERTY, WINDOW, BUILTIN, ATTRIBUTE, RULESET, MODULE, NAMED = (
    "card kind", "option", "counter", "color", "tag", "property", "window", "builtin", "attribute",
    "ruleset", "module", "named statement")


@dataclass(frozen=True)
class Symbol:
    kind: str
    name: str


@dataclass(frozen=True)
class Definition:
    symbol: Symbol
    span: Span              # the name itself once located
    node: object            # the declaration (or card attribute) that defines it


@dataclass
class NameIndex:
    """Definitions and references of the names of one checked file and the units it builds on."""

    definitions: dict = field(default_factory=dict)     # Symbol -> [Definition]
    references: dict = field(default_factory=dict)      # Symbol -> {Span}
    _pending: list = field(default_factory=list)        # (symbol, span, node or None, how)

    # -- recording (the compiler and the loader call these) -------------------------------
    def define(self, kind: str, name: str, node, where: Span | None = None) -> None:
        """`name` is defined by `node`; `where` is the name's exact place when known, else the
        name is looked for after the first word of the node's span."""
        self._pending.append((Symbol(kind, name), where or node.span, node, "exact" if where else "after"))

    def use(self, kind: str, name: str, span: Span, how: str = "exact") -> None:
        """A reference; `how` says where the name sits in `span`: "exact", "start" (it begins the
        span), "end" (it ends the span) or "after" (after the span's first word)."""
        self._pending.append((Symbol(kind, name), span, None, how))

    # -- after checking ----------------------------------------------------------------------
    def locate(self, sources: dict[str, Source]) -> "NameIndex":
        """Narrow every recorded place to the name itself, using the texts of the sources."""
        lines: dict[str, list[str]] = {}
        for symbol, span, node, how in self._pending:
            src = sources.get(span.file)
            if src is not None and src.name not in lines:
                lines[src.name] = src.text.split("\n")
            exact = _narrow(lines.get(span.file), span, symbol.name, how)
            if exact is None:
                continue
            if node is not None:
                found = self.definitions.setdefault(symbol, [])
                if all(d.span != exact for d in found):
                    found.append(Definition(symbol, exact, node))
            else:
                self.references.setdefault(symbol, set()).add(exact)
        self._pending = []
        return self

    # -- questions -----------------------------------------------------------------------------
    def at(self, file: str, line: int, col: int):
        """(symbol, span) of the name under a 1-based position, a definition or a reference."""
        for symbol, defs in self.definitions.items():
            for d in defs:
                if _inside(d.span, file, line, col):
                    return symbol, d.span
        for symbol, spans in self.references.items():
            for span in spans:
                if _inside(span, file, line, col):
                    return symbol, span
        return None

    def definitions_of(self, symbol: Symbol) -> list[Definition]:
        return list(self.definitions.get(symbol, ()))

    def references_to(self, symbol: Symbol, include_definitions: bool = True) -> list[Span]:
        spans = set(self.references.get(symbol, ()))
        if include_definitions:
            spans |= {d.span for d in self.definitions.get(symbol, ())}
        return sorted(spans, key=lambda s: (s.file, s.line, s.col))

    def names(self, kind: str) -> list[str]:
        """Every defined name of a kind, in the order first defined."""
        return [s.name for s in self.definitions if s.kind == kind]


def _inside(span: Span, file: str, line: int, col: int) -> bool:
    return span.file == file and span.line == line == span.end_line and span.col <= col < span.end_col


_WORD = r"(?<![A-Za-z0-9_-]){}(?![A-Za-z0-9_-])"


def _narrow(lines, span: Span, name: str, how: str) -> Span | None:
    """The span of `name` itself inside `span`, or None when the text cannot show it."""
    if how == "exact":
        return span
    if how == "start":
        return Span(span.file, span.line, span.col, span.line, span.col + len(name))
    if how == "end":
        if span.end_col - len(name) < 1:
            return None
        return Span(span.file, span.end_line, span.end_col - len(name), span.end_line, span.end_col)
    if not lines or not 1 <= span.line <= len(lines):
        return None
    pattern = re.compile(_WORD.format(re.escape(name)))
    for n in range(span.line, min(span.end_line, len(lines)) + 1):
        text = lines[n - 1]
        start = span.col - 1 if n == span.line else 0
        if n == span.line:                       # skip the declaration's keyword
            first = re.match(r"\s*[A-Za-z_][A-Za-z0-9_-]*", text[start:])
            start += first.end() if first else 0
        end = span.end_col - 1 if n == span.end_line else len(text)
        found = pattern.search(code_only(text), start, max(start, end))
        if found:
            return Span(span.file, n, found.start() + 1, n, found.end() + 1)
    return None
