"""What a hover says, in Markdown: about a name, a keyword, or the rule under the cursor.

- A name is what the compiler's index says it is: a card kind (its picture in words, how many
  the deck holds, its points and what it does), an option (its description, default and value
  here), a counter, a color, a tag, a property, a built-in name, a ruleset or module.
- A keyword shows what its rule does in English (the rule sheet's sentence) and its entry in
  docs/language.md.
- Anywhere else in a rule (a number, a text, an operator), the rule in English.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..compile import index as I
from ..compile.expressions import BUILTINS
from ..lang import ast as A
from ..lang.compose import decl_keys
from ..lang.parser import keywords
from ..lang.source import Span
from . import language_docs
from .locate import declaration_at, statement_at, word_at, words_of


@dataclass(frozen=True)
class Hover:
    markdown: str
    span: Span              # the word (or the rule) the hover is about


def hover(analysis, rules_of, line: int, col: int) -> Hover | None:
    """The hover at a position of the analysed document; `rules_of(unit name)` gives the unit's
    compiled ruleset (the last one that compiled), or None."""
    name = analysis.source.name
    found = analysis.index.at(name, line, col)
    unit, decl = declaration_at(analysis.units, line, col)
    if found is not None:
        symbol, span = found
        rules = rules_of(unit.name) if unit is not None else None
        text = describe_symbol(symbol, analysis, rules)
        if text:
            return Hover(text, span)
    word = word_at(analysis.source.text, line, col)
    if decl is None:
        if word is not None and word[0] in keywords():
            entry = language_docs.for_keyword(word[0], [word[0]])
            if entry is not None:
                return Hover(entry.markdown, Span(name, line, word[1], line, word[2]))
        return None
    stmt = statement_at(decl, line, col)
    node = stmt or decl
    rules = rules_of(unit.name)
    english = _english(rules, decl, stmt) if rules is not None else ""
    if word is not None and word[0] in keywords():
        text = analysis.source.text
        entry = language_docs.for_keyword(word[0], words_of(text, node.span) + _line_words(text, line),
                                          words_of(text, decl.span))
        parts = [p for p in (english and f"**In this ruleset:** {english}", entry and entry.markdown) if p]
        if parts:
            return Hover("\n\n---\n\n".join(parts), Span(name, line, word[1], line, word[2]))
    if english:
        return Hover(english, node.span)
    return None


def _line_words(text: str, line: int) -> list[str]:
    from ..lang.source import code_only
    from .locate import WORD
    return WORD.findall(code_only(text.split("\n")[line - 1]))


def _english(rules, decl, stmt) -> str:
    """The rule sheet's sentence for a statement, or for each rule a declaration states."""
    from ..sheets.describe import Describer, sentence_case
    try:
        d = Describer(rules)
        if stmt is not None:
            return sentence_case(d.block((stmt,)))
        sentences = [r.sentence for r in d.declaration(decl, decl_keys(decl)) if r.sentence]
        return " ".join(sentence_case(s) for s in sentences)
    except Exception:          # a construct the English does not cover yet: no hover, no crash
        return ""


# ---- names ------------------------------------------------------------------------------------

def describe_symbol(symbol: I.Symbol, analysis, rules) -> str:
    method = _SYMBOLS.get(symbol.kind)
    if method is None:
        return ""
    try:
        return method(symbol.name, analysis, rules)
    except Exception:          # a half-written ruleset: say what can be said
        return f"`{symbol.name}`: {symbol.kind}"


def _definition(analysis, kind: str, name: str):
    defs = analysis.index.definitions_of(I.Symbol(kind, name))
    return defs[-1].node if defs else None


def _card_kind(name, analysis, rules) -> str:
    decl = _definition(analysis, I.CARD_KIND, name)
    title = decl.title if isinstance(decl, A.CardDecl) else name
    head = f"**{title}** — card kind `{name}`"
    if rules is None or name not in rules.kinds:
        return head
    from ..sheets.describe import Describer
    from ..sheets.sheet import contents
    d = Describer(rules)
    row = next((r for r in contents(rules, d)["rows"] if r["kind"] == name), None)
    lines = [head, ""]
    if row is None:
        lines.append("The deck holds none.")
    else:
        colors = [rules.color_titles.get(c, c) for c in rules.colors]
        where = (f"a {_or_list(colors)} card" if row["colored"] else "a card with no color of its own")
        codes = "codes" if len(row["codes"]) > 1 else "code"
        picture = f"{where.capitalize()} showing “{row['symbol']}” ({codes} {row['codes_text']})."
        count = f"The deck holds {row['count']}" + (f" ({row['detail']})." if row["detail"] else ".")
        pts = str(row["points"])
        points = (f"Worth {pts} points" if pts[:1].isdigit() or pts[:1] == "-" else f"Worth: {pts}") + \
            (f"; tagged {', '.join(row['tags'])}." if row["tags"] else ".")
        lines += [picture, count, points]
    rules_for_kind: dict = {}
    for key, on_play in rules.composed.keyed(A.OnPlay):
        if _about(key, name):
            rules_for_kind.setdefault(id(on_play), (on_play, []))[1].append(key)
    does = [r.sentence for on_play, keys in rules_for_kind.values() for r in d.declaration(on_play, keys)]
    if does:
        lines += ["", "**When played:** " + " ".join(does)]
    return "\n".join(lines)


def _about(key, kind: str) -> bool:
    return len(key) > 1 and isinstance(key[1], str) and (key[1] == kind or key[1].startswith(kind + " "))


def _or_list(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _option(name, analysis, rules) -> str:
    decl = _definition(analysis, I.OPTION, name)
    lines = [f"**option `{name}`**"]
    if isinstance(decl, A.OptionDecl):
        if decl.doc:
            lines += ["", decl.doc]
        lines += ["", f"Default: `{_value(decl.default.value)}`"]
        if decl.choices:
            lines.append("Choices: " + ", ".join(f"`{_value(c.value)}`" for c in decl.choices))
    if rules is not None and name in rules.options:
        lines.append(f"In this ruleset: `{_value(rules.options[name].value)}`")
    return "\n".join(lines)


def _value(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, str):
        return f'"{v}"'
    return str(v)


def _counter(name, analysis, rules) -> str:
    decl = _definition(analysis, I.COUNTER, name)
    lines = [f"**counter `{name}`**"]
    if isinstance(decl, A.CounterDecl):
        if decl.doc:
            lines += ["", decl.doc]
        lines += ["", f"Starts each round at {_value(decl.start.value)}."]
    return "\n".join(lines)


def _color(name, analysis, rules) -> str:
    decl = _definition(analysis, I.COLOR, name)
    if isinstance(decl, A.ColorDef):
        return f"**{decl.title}** — color `{name}`, written `{decl.code}` in card codes"
    return f"color `{name}`"


def _named(name, analysis, rules) -> str:
    decl = _definition(analysis, I.NAMED, name)
    if not isinstance(decl, A.Define):
        return f"named statement `{name}`"
    lines = [f"**named statement `{name}({', '.join(decl.params)})`**"]
    if decl.doc:
        lines += ["", decl.doc]
    return "\n".join(lines)


def _card_decls(analysis) -> list:
    return [d.node for k, defs in analysis.index.definitions.items() if k.kind == I.CARD_KIND
            for d in defs if isinstance(d.node, A.CardDecl)]


def _tag(name, analysis, rules) -> str:
    titles = [c.title for c in _card_decls(analysis) if any(a.key == "tags" and name in a.value for a in c.attrs)]
    return f"tag `{name}`: `card is {name}` holds for " + (_and_list(titles) if titles else "no card")


def _property(name, analysis, rules) -> str:
    values = []
    for card in _card_decls(analysis):
        for a in card.attrs:
            if a.key == "let" and a.value[0] == name:
                shown = _value(a.value[1].value) if isinstance(a.value[1], A.Literal) else "(computed)"
                values.append(f"{card.title} {shown}")
    return f"property `card.{name}` of " + (_and_list(values) if values else "no card kind") + \
        "; `none` for the other cards"


def _titles(kinds, analysis) -> list[str]:
    out = []
    for k in kinds:
        decl = _definition(analysis, I.CARD_KIND, k)
        out.append(decl.title if isinstance(decl, A.CardDecl) else k)
    return out


def _and_list(items) -> str:
    items = list(dict.fromkeys(items))
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _builtin(name, analysis, rules) -> str:
    entry = BUILTINS.get(name)
    return f"`{name}`: {entry[2]}" if entry else ""


def _attribute(name, analysis, rules) -> str:
    return language_docs.attribute_rows().get(name, f"`{name}`")


def _unit(kind):
    def describe(name, analysis, rules) -> str:
        unit = _definition(analysis, kind, name)
        if not isinstance(unit, A.Unit):
            return f"{kind} `{name}`"
        about = next((d.text for d in unit.decls if isinstance(d, A.About)), "")
        head = f"**{unit.title or name}** — {kind} `{name}`"
        where = unit.span.file
        return "\n".join([head] + (["", about] if about else []) + ["", f"Defined in `{where}`"])
    return describe


def _window(name, analysis, rules) -> str:
    decl = _definition(analysis, I.WINDOW, name)
    title = decl.title if isinstance(decl, A.Window) else name
    head = f"**{title}** — window `{name}`: moves made out of turn"
    if rules is None or not isinstance(decl, A.Window):
        return head
    from ..sheets.describe import Describer, sentence_case
    said = [sentence_case(r.sentence) for r in Describer(rules).declaration(decl, decl_keys(decl)) if r.sentence]
    return "\n\n".join([head] + said)


_SYMBOLS = {I.CARD_KIND: _card_kind, I.OPTION: _option, I.COUNTER: _counter, I.COLOR: _color, I.TAG: _tag,
            I.PROPERTY: _property, I.BUILTIN: _builtin, I.ATTRIBUTE: _attribute, I.RULESET: _unit(I.RULESET),
            I.MODULE: _unit(I.MODULE), I.WINDOW: _window, I.NAMED: _named}
