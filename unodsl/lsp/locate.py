"""What is at a place in a rules file: the unit, the declaration, the statement, the word.

Positions are 1-based lines and columns counted in characters, as spans are. A statement is a
node in one of a declaration's blocks (the fields `body`, `then` and `other` of the syntax tree,
at any depth: the branches of `if`, the answers of `ask`, the actions of a window), so a
statement added to the language is found without a change here.
"""
from __future__ import annotations

import re
from dataclasses import fields

from ..lang import ast as A
from ..lang.source import code_only

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z][A-Za-z0-9_]*)*")
_EXPRESSIONS = tuple(t for t in A.Expr.__args__) + (A.KindSel, A.CodeSel)


def contains(span, line: int, col: int) -> bool:
    if span.line <= 0 or not span.line <= line <= span.end_line:
        return False
    if line == span.line and col < span.col:
        return False
    return not (line == span.end_line and col >= span.end_col)


def unit_at(units, line: int, col: int):
    return next((u for u in units if contains(u.span, line, col)), None)


def declaration_at(units, line: int, col: int):
    unit = unit_at(units, line, col)
    if unit is None:
        return None, None
    return unit, next((d for d in unit.decls if contains(d.span, line, col)), None)


def statement_at(decl, line: int, col: int):
    """The innermost statement of a declaration's blocks that holds the position, or None."""
    found = None
    for stmt in _statements(decl):
        if contains(stmt.span, line, col):
            found = stmt              # the walk goes outside in: the last one is the innermost
    return found


_BLOCKS = {"body", "then", "other"}       # the fields of the syntax tree that hold statements


def _statements(node):
    for f in fields(node):
        value = getattr(node, f.name)
        items = value if isinstance(value, tuple) else (value,)
        for item in items:
            if isinstance(item, A.Node) and not isinstance(item, _EXPRESSIONS):
                if isinstance(value, tuple) and f.name in _BLOCKS:
                    yield item
                yield from _statements(item)


def word_at(text: str, line: int, col: int):
    """(word, start column, end column) under the position, outside texts and comments."""
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return None
    code = code_only(lines[line - 1])
    for m in WORD.finditer(code):
        if m.start() < col <= m.end():
            return m.group(0), m.start() + 1, m.end() + 1
    return None


def words_of(text: str, span) -> list[str]:
    """The words a node is written with, up to its first `{` (its head, not its block)."""
    lines = text.split("\n")
    out = []
    for n in range(span.line, min(span.end_line, len(lines)) + 1):
        row = code_only(lines[n - 1])
        start = span.col - 1 if n == span.line else 0
        end = span.end_col - 1 if n == span.end_line else len(row)
        piece = row[start:end]
        head, brace, _ = piece.partition("{")
        out.extend(WORD.findall(head))
        if brace:
            break
    return out
