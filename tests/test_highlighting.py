"""The TextMate grammar of editors/vscode highlights what the Lark grammar says.

Every keyword of the Lark grammar (read from it here, so a keyword added to the language fails
this test until the TextMate grammar has it) is highlighted as a keyword, and over every bundled
ruleset each token the parser reads as a keyword, text, number or comment gets that scope. The
TextMate grammar is applied by a small interpreter of the parts it uses (match, begin/end,
captures, include), with Python's `re`: its regular expressions keep to what Oniguruma and
Python read alike.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from unodsl.lang.parser import keywords, lark_parser
from unodsl.lang.resources import bundled_files

VSCODE = Path(__file__).resolve().parent.parent / "editors" / "vscode"
GRAMMAR = json.loads((VSCODE / "syntaxes" / "uno.tmLanguage.json").read_text(encoding="utf-8"))


def _resolve(patterns):
    for p in patterns:
        if "include" in p:
            yield from _resolve([GRAMMAR["repository"][p["include"].lstrip("#")]])
        else:
            yield p


def scopes(line: str) -> list[str]:
    """The innermost scope of each character of one line ("" where none)."""
    out = [""] * len(line)
    _scan(line, 0, len(line), list(_resolve(GRAMMAR["patterns"])), out, None)
    return out


def _scan(line, pos, stop, patterns, out, end) -> int:
    while pos < stop:
        best = None
        for p in patterns:
            m = re.compile(p.get("match") or p["begin"]).search(line, pos)
            if m and m.end() > m.start() and (best is None or m.start() < best[1].start()):
                best = (p, m)
        closing = re.compile(end).search(line, pos) if end else None
        if closing and (best is None or closing.start() <= best[1].start()):
            return closing.end()
        if best is None:
            return stop
        p, m = best
        if "match" in p:
            if p.get("name"):
                out[m.start():m.end()] = [p["name"]] * (m.end() - m.start())
            for group, cap in p.get("captures", {}).items():
                if m.group(int(group)) is not None:
                    a, b = m.span(int(group))
                    out[a:b] = [cap["name"]] * (b - a)
            pos = m.end()
        else:
            inner = list(_resolve(p.get("patterns", [])))
            sub = [""] * len(line)
            after = _scan(line, m.end(), stop, inner, sub, p["end"])
            for k in range(m.start(), after):
                out[k] = sub[k] or p["name"]
            pos = after
    return pos


def test_every_keyword_of_the_lark_grammar_is_highlighted_as_a_keyword():
    missing = [w for w in sorted(keywords()) if not all(s.startswith("keyword.") for s in scopes(w))]
    assert missing == [], "add these to editors/vscode/syntaxes/uno.tmLanguage.json: " + ", ".join(missing)


def test_names_with_a_keyword_inside_are_names():
    assert set(scopes("jump-in")) == {"variable.other.uno"}
    assert set(scopes("player_count")) == {"variable.other.uno"}


@pytest.mark.parametrize("path", bundled_files(), ids=lambda p: p.name)
def test_the_bundled_rulesets_are_highlighted_as_the_parser_reads_them(path):
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    per_line = [scopes(row) for row in lines]
    tokens = list(lark_parser().lex(text, dont_ignore=True))
    words = keywords()
    parser = lark_parser().parse_interactive(text)
    as_parsed = {t.start_pos: t.type for t in parser.iter_parse()}      # names, as the parser types them
    checked = 0
    for tok in tokens:
        if tok.type == "WS":
            continue
        got = set(per_line[tok.line - 1][tok.column - 1:tok.end_column - 1])
        parsed_as = as_parsed.get(tok.start_pos, tok.type)
        if tok.type == "COMMENT":
            want = "comment."
        elif tok.type == "STRING":
            want = "string."
            got = {per_line[tok.line - 1][tok.column - 1]}
        elif tok.type == "INT":
            want = "constant.numeric."
        elif tok.value in words and parsed_as != "NAME":
            want = "keyword."
        else:
            continue
        checked += 1
        assert all(g.startswith(want) for g in got), (path.name, tok.line, tok.value, got)
    assert checked > 5


def test_declared_names_and_placeholders_have_their_own_scopes():
    line = '  card wild_draw_four "Wild {Color} Four" { code "{color}+4" } # a comment'
    s = scopes(line)
    assert s[line.index("wild_draw_four")] == "entity.name.type.uno"
    assert s[line.index("{Color}")] == "constant.other.placeholder.uno"
    assert s[line.index("Wild")] == "string.quoted.double.uno"
    assert s[line.index("# a")] == "comment.line.number-sign.uno"
    assert s[line.index("code")] == "keyword.control.uno"
    assert scopes("  match card is wild")[len("  match card ")] == "keyword.operator.word.uno"


def test_the_vscode_extension_starts_unodsl_lsp_for_uno_files():
    package = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    (language,) = package["contributes"]["languages"]
    (grammar,) = package["contributes"]["grammars"]
    assert language["extensions"] == [".uno"] and grammar["language"] == language["id"]
    assert grammar["scopeName"] == GRAMMAR["scopeName"] and (VSCODE / grammar["path"]).is_file()
    assert (VSCODE / language["configuration"]).is_file()
    json.loads((VSCODE / language["configuration"]).read_text(encoding="utf-8"))
    assert package["contributes"]["configuration"]["properties"]["unodsl.server.command"]["default"] == ["unodsl", "lsp"]
    assert f"onLanguage:{language['id']}" in package["activationEvents"]
    source = (VSCODE / package["main"]).read_text(encoding="utf-8")
    assert "vscode-languageclient/node" in source and "server.command" in source
    if shutil.which("node"):
        subprocess.run(["node", "--check", str(VSCODE / package["main"])], check=True)
