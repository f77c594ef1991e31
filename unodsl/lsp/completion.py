"""Completion: the words that may come next at the cursor.

Keywords are not kept in a list here: the grammar's own LALR parser is fed the text up to the
cursor and asked which terminals it accepts there, so a keyword added to the language is offered
where the grammar allows it. Where it accepts a name, the kind of name follows from what the
parser accepts beside it and the word before: after `.` an attribute, after `uses` a module,
after `extends` a ruleset, after `is` a tag or card kind, where a card selector goes (a name or
a quoted code) a card kind, and in an expression every name the rules know: the seat words and
other built-in names, options, counters, colors, card kinds and the variables of the rule.
The names come from the compiler's index of the file and its parents.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from lark.exceptions import LarkError

from ..compile import index as I
from ..compile.expressions import BUILTINS, BUILTIN_KEYWORDS
from ..lang.parser import DECL_WORDS, keywords, lark_parser

_PARTIAL = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*$")
_BINDERS = {"each", "some", "count", "picks", "let", "as", "for", "chance"}


@dataclass(frozen=True)
class Item:
    label: str
    kind: str             # "keyword", or a kind of name (compile.index), or "variable"
    detail: str = ""


@lru_cache(maxsize=1)
def _keyword_terminals() -> dict[str, str]:
    """Terminal name -> keyword, for the grammar's word terminals."""
    return {t.name: t.pattern.value for t in lark_parser().terminals
            if t.pattern.type == "str" and t.pattern.value.isalpha()}


def complete(analysis, rules, text: str, line: int, col: int) -> list[Item]:
    """What may be typed at a 1-based position of `text` (the word begun there excluded)."""
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return []
    before = "\n".join(lines[: line - 1] + [lines[line - 1][: col - 1]])
    partial = _PARTIAL.search(before)
    context = before[: partial.start()] if partial else before
    if _in_text_or_comment(lines[line - 1][: col - 1]):
        return []
    accepts, tokens = _accepted(context)
    items = [Item(_keyword_terminals()[t], "keyword") for t in sorted(accepts) if t in _keyword_terminals()]
    if "NAME" in accepts:
        items = _names(accepts, tokens, context, analysis, rules) + items
    prefix = partial.group(0) if partial else ""
    seen, out = set(), []
    for item in items:
        if item.label.startswith(prefix) and item.label not in seen:
            seen.add(item.label)
            out.append(item)
    return out


def _in_text_or_comment(line_prefix: str) -> bool:
    rest = re.sub(r'"([^"\\\n]|\\.)*"', "", line_prefix)      # the texts closed before the cursor
    return "#" in rest or '"' in rest


def _accepted(context: str) -> tuple[set, list]:
    """The terminals the parser accepts after `context`, and the tokens it read; when the text
    before has a mistake, the same for the declaration the cursor is in, read on its own."""
    for attempt in _attempts(context):
        parser = lark_parser().parse_interactive(attempt)
        tokens = []
        try:
            for tok in parser.iter_parse():
                tokens.append(tok)
            return parser.accepts(), tokens
        except LarkError:
            continue
    return set(), []


def _attempts(context: str):
    yield context
    lines = context.split("\n")
    for k in range(len(lines) - 1, -1, -1):            # the declaration the cursor is in
        m = re.match(r"\s*([A-Za-z_][A-Za-z0-9_-]*)", lines[k])
        if m and m.group(1) in DECL_WORDS:
            yield "ruleset _ {\n" + "\n".join(lines[k:])
            break
    yield "ruleset _ { on draw {\n" + lines[-1]         # a statement on the cursor's line
    yield "ruleset _ {\n" + lines[-1]


def _names(accepts: set, tokens: list, context: str, analysis, rules) -> list[Item]:
    values = [t.value for t in tokens]
    prev = values[-1] if values else ""
    expression = "INT" in accepts or "LPAR" in accepts
    if prev == ".":
        return _attributes(values[-2] if len(values) > 1 else "", analysis)
    head = _list_head(values)
    if head == "uses":
        return _units(analysis, I.MODULE)
    if prev == "extends":
        return _units(analysis, I.RULESET)
    if prev == "is" or values[-2:] == ["is", "not"]:
        return (_defined(analysis, rules, I.TAG) + _defined(analysis, rules, I.CARD_KIND)
                + [Item("playable", I.BUILTIN, "the card can be played now")])
    if not expression and "STRING" in accepts:          # a card selector: a kind or a "CODE"
        return _defined(analysis, rules, I.CARD_KIND)
    if not expression and prev in ("set", "to", "add"):
        return _defined(analysis, rules, I.OPTION if prev == "set" and _depth(values) <= 1 else I.COUNTER)
    if not expression:
        return []                                        # a new name is being made
    return (_variables(context) + _builtins() + _defined(analysis, rules, I.OPTION)
            + _defined(analysis, rules, I.COUNTER) + _defined(analysis, rules, I.COLOR)
            + _defined(analysis, rules, I.CARD_KIND))


def _list_head(values: list) -> str:
    """The word that starts a comma list ending at the cursor (`uses a, b,` -> `uses`)."""
    k = len(values) - 1
    while k >= 1 and values[k] == ",":
        k -= 2
    return values[k] if k >= 0 else ""


def _depth(values: list) -> int:
    return values.count("{") - values.count("}")


def _variables(context: str) -> list[Item]:
    """Names the declaration being written binds before the cursor (`for each s`, `some c`, `let x`)."""
    from ..lang.source import code_only
    lines = [code_only(row) for row in context.split("\n")]
    depth, start = 0, 0
    for k, row in enumerate(lines):
        first = re.match(r"\s*([A-Za-z_][A-Za-z0-9_-]*)", row)
        if depth <= 1 and first and first.group(1) in DECL_WORDS + ("ruleset", "module"):
            start = k
        depth += row.count("{") - row.count("}")
    text = "\n".join(lines[start:])
    words = set(keywords())
    binder = r"(?=\b(?:" + "|".join(sorted(_BINDERS)) + r")\s+([A-Za-z_][A-Za-z0-9_-]*))"     # overlapping
    names = [m.group(1) for m in re.finditer(binder, text)]
    return [Item(n, "variable", "a name this rule gives") for n in dict.fromkeys(names) if n not in words]


def _builtins() -> list[Item]:
    return [Item(name, I.BUILTIN, doc) for name, (_, _, doc) in BUILTINS.items()]


def _defined(analysis, rules, kind: str) -> list[Item]:
    names = list(analysis.index.names(kind)) if analysis is not None else []
    if rules is not None:
        known = {I.CARD_KIND: rules.kinds, I.OPTION: list(rules.options), I.COLOR: rules.colors,
                 I.COUNTER: list(getattr(rules, "counters", {}) or {})}.get(kind, ())
        names += [n for n in known if n not in names]
    out = []
    for n in names:
        detail = kind
        if kind == I.OPTION and rules is not None and n in rules.options:
            detail = rules.options[n].doc or kind
        elif kind == I.CARD_KIND and analysis is not None:
            defs = analysis.index.definitions_of(I.Symbol(kind, n))
            detail = f"card kind: {defs[-1].node.title}" if defs and hasattr(defs[-1].node, "title") else kind
        out.append(Item(n, kind, detail))
    return out


def _attributes(owner: str, analysis) -> list[Item]:
    from .language_docs import attribute_rows
    rows = attribute_rows()
    typ = BUILTINS[owner][0] if owner in BUILTINS else BUILTIN_KEYWORDS.get(owner, ("",))[0]
    wanted = {"card": ("card.",), "player": ("player.",)}.get(typ, ("card.", "player."))
    out = [Item(key.split(".", 1)[1], I.ATTRIBUTE, rows[key]) for key in rows if key.startswith(wanted)]
    if "card." in wanted and analysis is not None:
        out += [Item(n, I.PROPERTY, "a property of some card kinds") for n in analysis.index.names(I.PROPERTY)]
    return out


def _units(analysis, kind: str) -> list[Item]:
    from ..compile.loader import bundled_names
    own = [(u.name, u.kind, u.title) for u in (analysis.units if analysis is not None else ())]
    return [Item(name, kind, title or kind) for name, k, title in own + bundled_names() if k == kind]
