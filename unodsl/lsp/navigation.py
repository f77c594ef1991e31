"""Go to definition, find references and the document outline, from the compiler's name index.

Places are spans; a span in a bundled file (`<bundled>/classic.uno`) is mapped to that file by the
server. `extends classic` and `uses progressive` lead to the unit in its file, bundled or not.
"""
from __future__ import annotations

import re
from dataclasses import dataclass


def definition(analysis, line: int, col: int) -> list:
    found = analysis.index.at(analysis.source.name, line, col)
    if found is None:
        return []
    return [d.span for d in analysis.index.definitions_of(found[0])]


def references(analysis, line: int, col: int, include_declaration: bool = True) -> list:
    found = analysis.index.at(analysis.source.name, line, col)
    if found is None:
        return []
    return analysis.index.references_to(found[0], include_declaration)


@dataclass(frozen=True)
class OutlineEntry:
    label: str
    kind: str                  # the syntax node's type: "Unit", "CardDecl", "OnPlay" ...
    span: object               # the whole declaration
    name_span: object          # the part to select (its first line)
    children: tuple = ()


def outline(analysis) -> list[OutlineEntry]:
    """Each ruleset and module of the file, with its declarations, named as they are written."""
    lines = analysis.source.text.split("\n")
    out = []
    for unit in analysis.units:
        children = tuple(_entry(d, lines) for d in unit.decls)
        head = _entry(unit, lines)
        out.append(OutlineEntry(head.label, "Unit", unit.span, head.name_span, children))
    return out


def _entry(node, lines) -> OutlineEntry:
    span = node.span
    text = lines[span.line - 1][span.col - 1:] if 0 < span.line <= len(lines) else ""
    head = re.split(r'\s*[{"#]', text, maxsplit=1)[0].strip() or type(node).__name__
    if len(head) > 60:
        head = head[:59].rstrip() + "…"
    name_span = type(span)(span.file, span.line, span.col, span.line, span.col + max(1, len(head)))
    return OutlineEntry(head, type(node).__name__, span, name_span)

