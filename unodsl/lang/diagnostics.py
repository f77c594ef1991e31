"""Diagnostics: every mistake the user can make, reported the way a good compiler does.

A diagnostic has a stable code (documented in docs/diagnostics.md), a severity, a span, a message
and an optional hint. `render` shows file:line:col, the source line and a caret under the
mistake; `as_json` gives the same for editors and CI.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from .source import Source, Span


@dataclass(frozen=True)
class Diagnostic:
    code: str
    message: str
    span: Span
    hint: str = ""
    severity: str = "error"
    related: tuple[tuple[Span, str], ...] = ()

    def render(self, sources: dict[str, Source] | None = None) -> str:
        head = f"{self.span}: {self.severity}[{self.code}]: {self.message}"
        lines = [head]
        src = (sources or {}).get(self.span.file)
        if src is not None and self.span.line > 0:
            text = src.line(self.span.line)
            width = max(1, (self.span.end_col - self.span.col) if self.span.end_line == self.span.line else len(text) - self.span.col + 1)
            shown, col, width = _excerpt(text, self.span.col, width)
            gutter = f"{self.span.line:>4} | "
            lines.append(gutter + shown)
            lines.append(" " * (len(gutter) + col - 1) + "^" * max(1, width))
        for span, note in self.related:
            lines.append(f"  note: {span}: {note}")
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        return "\n".join(lines)

    def as_json(self) -> dict:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "file": self.span.file,
            "line": self.span.line,
            "col": self.span.col,
            "end_line": self.span.end_line,
            "end_col": self.span.end_col,
            "hint": self.hint,
            "related": [{"file": s.file, "line": s.line, "col": s.col, "note": n} for s, n in self.related],
        }


SHOWN_WIDTH = 100      # the most of a source line a diagnostic shows


def _excerpt(text: str, col: int, width: int) -> tuple[str, int, int]:
    """The part of a long line around the mistake, marked with … where it is cut, and where
    the caret goes in it (column, width)."""
    if len(text) <= SHOWN_WIDTH:
        return text, col, width
    start = max(0, min(col - 1 - SHOWN_WIDTH // 4, len(text) - SHOWN_WIDTH))
    shown = text[start:start + SHOWN_WIDTH]
    lead = "…" if start > 0 else ""
    tail = "…" if start + SHOWN_WIDTH < len(text) else ""
    col = col - start + len(lead)
    width = max(1, min(width, SHOWN_WIDTH - (col - 1 - len(lead))))
    return lead + shown + tail, col, width


@dataclass
class Diagnostics:
    """An accumulating list: stages report everything they find instead of stopping at the first."""

    items: list[Diagnostic] = field(default_factory=list)

    def error(self, code: str, message: str, span: Span, hint: str = "", related=()) -> None:
        self._add(Diagnostic(code, message, span, hint, "error", tuple(related)))

    def warning(self, code: str, message: str, span: Span, hint: str = "", related=()) -> None:
        self._add(Diagnostic(code, message, span, hint, "warning", tuple(related)))

    def _add(self, diagnostic: Diagnostic) -> None:
        """Each mistake once: statements written once but checked in several places (a named
        statement used by several rules) would otherwise report the same mistake again."""
        if diagnostic not in self.items:
            self.items.append(diagnostic)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "error"]

    def __bool__(self) -> bool:
        return bool(self.items)

    def sorted(self) -> list[Diagnostic]:
        return sorted(self.items, key=lambda d: (d.span.file, d.span.line, d.span.col, d.code))


class RulesError(Exception):
    """Raised when a rules file cannot be turned into a ruleset; carries every diagnostic found."""

    def __init__(self, diagnostics: list[Diagnostic], sources: dict[str, Source] | None = None):
        self.diagnostics = diagnostics
        self.sources = sources or {}
        super().__init__(self.render())

    def render(self) -> str:
        return "\n".join(d.render(self.sources) for d in self.diagnostics)


def too_deep(source: Source) -> Diagnostic:
    """E105: rules nested so deeply that reading them would exhaust Python's recursion limit."""
    return Diagnostic("E105", "the rules are nested too deeply to read", source.span(1, 1, 1, 2),
                      "split deeply nested rules into simpler parts")


def suggest(word: str, candidates, prefix: str = "did you mean", limit: int = 3) -> str:
    """A 'did you mean `x`?' hint, or '' when nothing is close enough."""
    pool = sorted({str(c) for c in candidates})
    close = difflib.get_close_matches(word, pool, n=limit, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in pool}
        if word.lower() in lowered:
            close = [lowered[word.lower()]]
    if not close:
        return ""
    return f"{prefix} " + " or ".join(f"`{c}`" for c in close) + "?"
