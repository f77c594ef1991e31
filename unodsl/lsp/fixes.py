"""Quick fixes: every "did you mean `x`?" hint of a diagnostic becomes an edit that makes it so.

The misspelt word is the one the message quotes that is written inside the diagnostic's place
(`unknown name `nxt``, `a card has no attribute `colour`` over `card.colour`), so a hint of any
diagnostic gets its fix without a case per code.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..lang.source import Span, code_only

_SUGGESTION = re.compile(r"did you mean (.+)\?")


@dataclass(frozen=True)
class Fix:
    title: str
    span: Span             # the word to replace
    new_text: str


def fixes(diagnostic, text: str) -> list[Fix]:
    m = _SUGGESTION.search(diagnostic.hint or "")
    if m is None:
        return []
    suggestions = re.findall(r"`([^`]+)`", m.group(1))
    span = diagnostic.span
    lines = text.split("\n")
    if not suggestions or not 1 <= span.line <= len(lines):
        return []
    row = code_only(lines[span.line - 1])
    end = span.end_col - 1 if span.end_line == span.line else len(row)
    quoted = [w for w in re.findall(r"`([^`]+)`", diagnostic.message) if w not in suggestions]
    target = None
    for word in quoted:
        for found in re.finditer(r"(?<![A-Za-z0-9_-])" + re.escape(word) + r"(?![A-Za-z0-9_-])", row):
            if span.col - 1 <= found.start() and found.end() <= max(end, span.col):
                target = found           # the last quoted word inside the place
    if target is None:
        return []
    where = Span(span.file, span.line, target.start() + 1, span.line, target.end() + 1)
    return [Fix(f"Change `{target.group(0)}` to `{s}`", where, s) for s in suggestions]
