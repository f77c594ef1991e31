"""`unodsl lsp` over the real protocol: a pygls client starts the server as an editor would
(`unodsl lsp`, LSP on standard input and output) and asks it for each feature."""
from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

T = pytest.importorskip("lsprotocol.types")
from pygls.lsp.client import LanguageClient  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = ROOT / "rulesets" / "classic.uno"

MISTAKES = '''ruleset house "House" extends classic {
  counter streak = 0 "Plays in a row."
  on play skip { skip nxt; add 1 to straek }
  match card.colour == color
  on play zap { skip next }
  set uno_penalty = "four"
}
'''


class Editor:
    """A language client on its own event loop thread, remembering what the server publishes."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.published: dict[str, list] = {}
        self.changed = threading.Condition()
        self.client = LanguageClient("test-editor", "1")

        @self.client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _published(params):
            with self.changed:
                self.published.setdefault(params.uri, []).append(params)
                self.changed.notify_all()

        self.run(self.client.start_io(sys.executable, "-m", "unodsl", "lsp"))
        self.run(self.client.initialize_async(T.InitializeParams(capabilities=T.ClientCapabilities(),
                                                                 root_uri=ROOT.as_uri())))
        self.client.initialized(T.InitializedParams())
        self.versions: dict[str, int] = {}

    def run(self, coro, timeout: float = 60):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def call(self, fn):
        """Run a client method that must be called on the loop's thread."""
        async def wrapper():
            return fn()
        return self.run(wrapper())

    # -- documents
    def open(self, path: Path, text: str) -> str:
        uri = path.resolve().as_uri()
        count = len(self.published.get(uri, []))
        self.versions[uri] = 1
        self.call(lambda: self.client.text_document_did_open(
            T.DidOpenTextDocumentParams(T.TextDocumentItem(uri=uri, language_id="uno", version=1, text=text))))
        self.wait(uri, count)
        return uri

    def change(self, uri: str, text: str) -> None:
        count = len(self.published.get(uri, []))
        self.versions[uri] += 1
        self.call(lambda: self.client.text_document_did_change(T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            content_changes=[T.TextDocumentContentChangeWholeDocument(text=text)])))
        self.wait(uri, count)

    def close(self, uri: str) -> None:
        self.call(lambda: self.client.text_document_did_close(
            T.DidCloseTextDocumentParams(T.TextDocumentIdentifier(uri))))

    def wait(self, uri: str, count: int, timeout: float = 60) -> list:
        """The diagnostics published for a document after the `count` publications seen so far."""
        with self.changed:
            assert self.changed.wait_for(lambda: len(self.published.get(uri, [])) > count, timeout), uri
            return list(self.published[uri][-1].diagnostics)

    def diagnostics(self, uri: str) -> list:
        return list(self.published[uri][-1].diagnostics)

    # -- requests
    def at(self, uri: str, line: int, col: int):
        return T.TextDocumentIdentifier(uri), T.Position(line - 1, col - 1)

    def hover(self, uri, line, col):
        doc, pos = self.at(uri, line, col)
        return self.run(self.client.text_document_hover_async(T.HoverParams(text_document=doc, position=pos)))

    def complete(self, uri, line, col) -> list:
        doc, pos = self.at(uri, line, col)
        result = self.run(self.client.text_document_completion_async(T.CompletionParams(text_document=doc, position=pos)))
        return list(result.items)

    def definition(self, uri, line, col):
        doc, pos = self.at(uri, line, col)
        return list(self.run(self.client.text_document_definition_async(T.DefinitionParams(text_document=doc, position=pos))) or [])

    def references(self, uri, line, col):
        doc, pos = self.at(uri, line, col)
        return list(self.run(self.client.text_document_references_async(
            T.ReferenceParams(text_document=doc, position=pos,
                              context=T.ReferenceContext(include_declaration=True)))) or [])

    def symbols(self, uri):
        return list(self.run(self.client.text_document_document_symbol_async(
            T.DocumentSymbolParams(T.TextDocumentIdentifier(uri)))) or [])

    def format(self, uri):
        return list(self.run(self.client.text_document_formatting_async(
            T.DocumentFormattingParams(T.TextDocumentIdentifier(uri), T.FormattingOptions(2, True)))) or [])

    def fixes(self, uri, line):
        rng = T.Range(T.Position(line - 1, 0), T.Position(line, 0))
        return list(self.run(self.client.text_document_code_action_async(
            T.CodeActionParams(T.TextDocumentIdentifier(uri), rng, T.CodeActionContext(diagnostics=[])))) or [])

    def stop(self):
        self.run(self.client.shutdown_async(None))
        self.call(lambda: self.client.exit(None))
        self.run(self.client.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture(scope="module")
def editor():
    ed = Editor()
    yield ed
    ed.stop()


def _col(text: str, line: int, word: str, nth: int = 1) -> int:
    row = text.split("\n")[line - 1]
    col = -1
    for _ in range(nth):
        col = row.index(word, col + 1)
    return col + 1


def test_diagnostics_as_you_type_are_those_of_unodsl_check(editor, tmp_path):
    path = tmp_path / "house.uno"
    path.write_text(MISTAKES, encoding="utf-8")
    uri = editor.open(path, MISTAKES)
    got = [(d.code, d.range.start.line + 1, d.range.start.character + 1, d.range.end.character + 1, d.message)
           for d in editor.diagnostics(uri)]
    run = subprocess.run([sys.executable, "-m", "unodsl", "check", "--format", "json", str(path)],
                         capture_output=True, text=True)
    want = [(d["code"], d["line"], d["col"], d["end_col"], d["message"] + (f"\nhint: {d['hint']}" if d["hint"] else ""))
            for d in json.loads(run.stdout)[0]["diagnostics"]]
    assert got == want
    assert sorted(c for c, *_ in got) == ["E201", "E202", "E204", "E205", "E312"]
    assert all(d.source == "unodsl" for d in editor.diagnostics(uri))

    fixed = MISTAKES.replace("nxt", "next").replace("straek", "streak")
    editor.change(uri, fixed)
    assert sorted(d.code for d in editor.diagnostics(uri)) == ["E202", "E204", "E312"]
    editor.change(uri, "ruleset house extends classic { }\n")
    assert editor.diagnostics(uri) == []


def test_a_change_in_an_open_parent_rechecks_its_open_children(editor, tmp_path):
    child = editor.open(tmp_path / "child.uno", "ruleset child extends classic {\n  deal 8\n}\n")
    assert editor.diagnostics(child) == []
    seen = len(editor.published[child])
    original = CLASSIC.read_text(encoding="utf-8")
    parent_text = re.sub(r"option uno_penalty = [^\"]*", "option uno_penalty = no ", original)
    parent = editor.open(CLASSIC, parent_text)          # the editor's text only: the file is untouched
    try:
        assert [d.code for d in editor.diagnostics(parent)] == ["E210"]
        (diag,) = editor.wait(child, seen)
        assert diag.code == "E210" and diag.message.startswith("in <bundled>/classic.uno:")
        assert diag.related_information[0].location.uri == CLASSIC.resolve().as_uri()
        assert diag.range.start.line == 0
        assert diag.range.start.character == _col("ruleset child extends classic", 1, "classic") - 1
        seen = len(editor.published[child])
    finally:
        editor.close(parent)
    assert editor.wait(child, seen) == []
    assert CLASSIC.read_text(encoding="utf-8") == original


HOUSE = '''ruleset house "House" extends classic {
  option bonus = 3 one of 1, 3, 5 "Extra cards for a zap."
  set uno_penalty = 4
  counter streak = 0 "Zaps in a row."
  card zap "Zap" { colored; code "{color}Z"; points 20; tags action; let draw = 1 }
  deck { each color { 1 number 0, 2 number 1..9, 2 skip, 2 reverse, 2 draw_two, 2 zap }, 4 wild, 4 wild_draw_four }
  on play zap "The next player draws." {
    next draws card.draw + bonus
    add 1 to streak
  }
}
'''


@pytest.fixture(scope="module")
def house(editor, tmp_path_factory):
    uri = editor.open(tmp_path_factory.mktemp("house") / "house.uno", HOUSE)
    assert editor.diagnostics(uri) == []
    return uri


def test_hover_on_a_card_kind_tells_its_picture_count_points_and_effect(editor, house):
    text = editor.hover(house, 7, _col(HOUSE, 7, "zap")).contents.value
    assert text.startswith("**Zap** — card kind `zap`")
    assert "A red, yellow, green or blue card showing “Z”" in text
    assert "The deck holds 8 (2 per color)." in text and "Worth 20 points; tagged action." in text
    assert "**When played:** The next player draws" in text
    skip = editor.hover(house, 6, _col(HOUSE, 6, "skip")).contents.value
    assert "**When played:** The next player loses their turn." in skip


def test_hover_on_an_option_tells_its_description_default_and_value(editor, house):
    text = editor.hover(house, 8, _col(HOUSE, 8, "bonus")).contents.value
    assert "Extra cards for a zap." in text and "Default: `3`" in text and "Choices: `1`, `3`, `5`" in text
    inherited = editor.hover(house, 3, _col(HOUSE, 3, "uno_penalty")).contents.value
    assert "Default: `2`" in inherited and "In this ruleset: `4`" in inherited
    assert "Cards drawn by a player caught not saying UNO" in inherited


def test_hover_on_a_rule_or_a_keyword_gives_the_sheet_english_and_the_reference(editor, house):
    stmt = editor.hover(house, 8, _col(HOUSE, 8, "+"))
    assert stmt.contents.value.startswith("The next player draws ")
    assert stmt.range.start.line == 7
    keyword = editor.hover(house, 8, _col(HOUSE, 8, "draws")).contents.value
    assert keyword.startswith("**In this ruleset:** The next player draws")
    assert "**`WHO draws EXPR`**" in keyword
    counter = editor.hover(house, 9, _col(HOUSE, 9, "streak")).contents.value
    assert "counter `streak`" in counter and "Zaps in a row." in counter and "Starts each round at 0." in counter
    assert "the next player" in editor.hover(house, 8, _col(HOUSE, 8, "next")).contents.value
    assert editor.hover(house, 1, 200) is None


def test_completion_offers_what_the_grammar_and_the_rules_allow(editor, tmp_path):
    text = "ruleset c extends classic {\n  \n}\n"
    uri = editor.open(tmp_path / "complete.uno", text)

    def labels(new_line, col=None):
        editor.change(uri, text.replace("  \n", new_line + "\n", 1))
        return {i.label: i for i in editor.complete(uri, 2, col or len(new_line) + 1)}

    at_start = labels("  ")
    assert {"card", "deck", "match", "on", "option", "window", "uses"} <= set(at_start)
    assert at_start["match"].kind == T.CompletionItemKind.Keyword and "skip" not in at_start
    assert set(labels("  on ")) == {"play", "draw", "round"}
    kinds = labels("  on play ")
    assert {"skip", "reverse", "wild_draw_four"} <= set(kinds) and "player" not in kinds
    assert kinds["skip"].kind == T.CompletionItemKind.Class
    expression = labels("  on play skip { next draws ")
    assert {"player", "next", "others", "uno_penalty", "target", "red", "skip"} <= set(expression)
    assert expression["uno_penalty"].detail.startswith("Cards drawn by a player")
    assert set(labels("  on play skip { next draws uno_p")) == {"uno_penalty"}
    card = labels("  match card.")
    assert {"color", "kind", "rank", "draw"} <= set(card) and "hand" not in card
    assert {"cards", "hand", "score"} <= set(labels("  on play skip { if next.")) 
    assert {"progressive", "jump-in"} <= set(labels("  uses ")) and "classic" not in labels("  uses ")
    assert {"wild", "action", "playable"} <= set(labels("  match top is "))
    assert "s" in labels("  on play skip { for each s in others { s draws ")
    assert labels('  about "in a text ') == {}


def test_go_to_definition_and_references(editor, house):
    (zap,) = editor.definition(house, 7, _col(HOUSE, 7, "zap"))
    assert zap.uri == house and (zap.range.start.line, zap.range.start.character) == (4, 7)
    (classic,) = editor.definition(house, 1, _col(HOUSE, 1, "classic"))
    assert classic.uri == CLASSIC.resolve().as_uri() and classic.range.start.line == _line_of(CLASSIC, "ruleset classic") - 1
    (penalty,) = editor.definition(house, 3, _col(HOUSE, 3, "uno_penalty"))
    assert penalty.uri == CLASSIC.resolve().as_uri()
    assert penalty.range.start.line == _line_of(CLASSIC, "option uno_penalty") - 1
    refs = editor.references(house, 4, _col(HOUSE, 4, "streak"))
    assert [(r.uri, r.range.start.line) for r in refs] == [(house, 3), (house, 8)]
    elsewhere = {r.uri for r in editor.references(house, 3, _col(HOUSE, 3, "uno_penalty"))}
    assert elsewhere == {house, CLASSIC.resolve().as_uri()}


def _line_of(path: Path, text: str) -> int:
    return next(n for n, row in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in row)


def test_outline_lists_the_units_and_their_declarations(editor, house):
    (unit,) = editor.symbols(house)
    assert unit.name == "ruleset house" and unit.kind == T.SymbolKind.Namespace
    names = [c.name for c in unit.children]
    assert names == ["option bonus = 3 one of 1, 3, 5", "set uno_penalty = 4", "counter streak = 0", "card zap",
                     "deck", "on play zap"]
    assert unit.children[3].kind == T.SymbolKind.Class and unit.children[3].range.start.line == 4


def test_formatting_goes_through_fmt(editor, tmp_path):
    uri = editor.open(tmp_path / "messy.uno", "ruleset m extends classic {\n      deal   8\n}\n")
    (edit,) = editor.format(uri)
    assert edit.new_text == "ruleset m extends classic {\n  deal 8\n}\n"
    broken = editor.open(tmp_path / "broken.uno", "ruleset m {\n  deal 8 8\n}\n")
    assert editor.format(broken) == []


def test_each_did_you_mean_hint_has_a_quick_fix(editor, tmp_path):
    uri = editor.open(tmp_path / "fix.uno", MISTAKES)
    actions = editor.fixes(uri, 3) + editor.fixes(uri, 4)
    titles = [a.title for a in actions]
    assert titles == ["Change `nxt` to `next`", "Change `straek` to `streak`",
                      "Change `colour` to `color`", "Change `colour` to `colored`"]
    edit = actions[0].edit.changes[uri][0]
    assert (edit.range.start.line, edit.range.start.character, edit.range.end.character, edit.new_text) == \
        (2, _col(MISTAKES, 3, "nxt") - 1, _col(MISTAKES, 3, "nxt") + 2, "next")
    assert actions[0].is_preferred and actions[0].kind == T.CodeActionKind.QuickFix
    keyword = editor.open(tmp_path / "keyword.uno", "ruleset k extends classic {\n  on play skip { next draw 2 }\n}\n")
    # a keyword out of place is not suggested to itself
    assert [a.title for a in editor.fixes(keyword, 2)] == ["Change `draw` to `draws`"]


def test_bad_input_gets_answers_not_a_crash(editor, tmp_path):
    uri = editor.open(tmp_path / "junk.uno", "\x00\x01 ruleset { { { ((( \"unclosed\n" * 50)
    assert editor.diagnostics(uri) and all(d.code.startswith("E10") for d in editor.diagnostics(uri))
    assert editor.hover(uri, 1, 3) is None or editor.hover(uri, 1, 3).contents.value
    assert isinstance(editor.complete(uri, 3, 5), list)
    assert editor.definition(uri, 500, 500) == [] and editor.symbols(uri) == []
    deep = editor.open(tmp_path / "deep.uno", "ruleset d { deal " + "(" * 5000 + "7" + ")" * 5000 + " }\n")
    assert [d.code for d in editor.diagnostics(deep)] == ["E104"]
    huge = editor.open(tmp_path / "huge.uno", "# " + "x" * 1_100_000 + "\n")
    (too_big,) = editor.diagnostics(huge)
    assert "rules files are limited to" in too_big.message
    assert editor.hover(huge, 1, 3) is None


def test_named_statements_hover_and_go_to_their_definition(editor, tmp_path):
    text = ('ruleset named extends classic {\n'
            '  define punish(who) "Two cards and a lost turn." { who draws 2; skip who }\n'
            '  on play skip { punish(next) }\n}\n')
    uri = editor.open(tmp_path / "named.uno", text)
    col = text.splitlines()[2].index("punish") + 2
    hover = editor.hover(uri, 3, col).contents.value
    assert "named statement `punish(who)`" in hover and "Two cards and a lost turn." in hover
    (where,) = editor.definition(uri, 3, col)
    assert (where.range.start.line, where.range.start.character) == (1, text.splitlines()[1].index("punish"))
