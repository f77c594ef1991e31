"""Source text and positions.

Every AST node keeps the span of the text it came from, so that a diagnostic found anywhere in
the pipeline (parser, checker, composition, scenario loader) can show the user the exact line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_TEXT = re.compile(r'"([^"\\\n]|\\.)*"')


@dataclass(frozen=True)
class Span:
    """A region of one source file: 1-based line and column, end exclusive."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


NO_SPAN = Span("<builtin>", 0, 0, 0, 0)


@dataclass(frozen=True)
class Source:
    """The text of one rules or scenario file, with its name as the user should see it."""

    name: str
    text: str

    def line(self, number: int) -> str:
        lines = self.text.splitlines()
        if 1 <= number <= len(lines):
            return lines[number - 1]
        return ""

    def span(self, line: int, col: int, end_line: int | None = None, end_col: int | None = None) -> Span:
        return Span(self.name, line, col, end_line or line, end_col or col + 1)


def code_only(line: str) -> str:
    """One line with its texts and its comment blanked out, the same length, so that a search
    for a word finds only code."""
    out = _TEXT.sub(lambda m: " " * len(m.group(0)), line)
    cut = out.find("#")
    return out if cut < 0 else out[:cut] + " " * (len(out) - cut)
