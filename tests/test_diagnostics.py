"""Broken rules files in tests/diagnostics/ state, in comments, the diagnostics they must get.

A comment `# error E204` (or `# warning W302`, several per line allowed) on a line means exactly
one diagnostic with that code reported on that line; every diagnostic reported must be expected.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from unodsl.compile.loader import check, load
from unodsl.lang.diagnostics import RulesError

HERE = Path(__file__).parent
ROOT = HERE.parent
FILES = sorted(p for p in (HERE / "diagnostics").glob("*.uno") if not p.name.startswith("_"))


def modules_of(path: Path) -> list[str]:
    """A fixture's `# with: a.uno, b.uno` line: files checked with it as house-rule modules."""
    m = re.search(r"^# with: (.+)$", path.read_text(encoding="utf-8", errors="replace"), re.M)
    return [str(path.parent / p.strip()) for p in m.group(1).split(",")] if m else []


def expected(path: Path) -> Counter:
    want = Counter()
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        comment = line.split("#", 1)[-1] if "#" in line else ""
        for severity, code in re.findall(r"\b(error|warning) ([EW]\d{3})\b", comment):
            want[(str(path), n, severity, code)] += 1
    return want


def all_expected(path: Path) -> Counter:
    want = expected(path)
    for module in modules_of(path):
        want += expected(Path(module))
    return want


def diagnose(path: Path):
    """What `unodsl check` reports: the checker's diagnostics, then (rules without errors) the
    author's words against the rules (W5xx, from the sheets package)."""
    from unodsl.front.commands.check import rule_text_warnings
    diags, sources = check(str(path), tuple(modules_of(path)))
    if not any(d.severity == "error" for d in diags):
        diags = diags + rule_text_warnings(str(path), tuple(modules_of(path)), {}, sources)
    return diags, sources


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_each_mistake_gets_its_diagnostic(path):
    diags, _ = diagnose(path)
    got = Counter((d.span.file, d.span.line, d.severity, d.code) for d in diags)
    assert got == all_expected(path)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_diagnostics_render_with_line_and_caret(path):
    diags, sources = diagnose(path)
    for d in diags:
        text = d.render(sources)
        assert text.startswith(f"{d.span.file}:{d.span.line}:{d.span.col}: {d.severity}[{d.code}]")
        assert "^" in text, text


def emitted_codes() -> set:
    """Every diagnostic code the package's source can emit."""
    codes = set()
    for source in (ROOT / "unodsl").rglob("*.py"):
        codes |= set(re.findall(r'"([EW]\d{3})"', source.read_text(encoding="utf-8")))
    return codes


def test_fixtures_cover_every_code_the_checker_can_emit():
    covered = {code for path in FILES for (_, _, _, code) in all_expected(path)}
    assert emitted_codes() - covered == set()


def test_catalogue_documents_every_code():
    catalogue = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^#+ .*?\b([EW]\d{3})\b", catalogue, re.M))
    assert emitted_codes() - documented == set()


def test_loading_a_broken_file_raises_with_every_diagnostic():
    with pytest.raises(RulesError) as err:
        load(str(HERE / "diagnostics" / "names.uno"))
    assert len(err.value.diagnostics) == sum(expected(HERE / "diagnostics" / "names.uno").values())


def _cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "unodsl", *args], capture_output=True, text=True, cwd=cwd)


def test_check_cli_exit_codes_and_json():
    ok = _cli("check", "classic")
    assert ok.returncode == 0 and "classic: ok" in ok.stdout
    bad = _cli("check", str(HERE / "diagnostics" / "syntax.uno"))
    assert bad.returncode == 1
    assert "Traceback" not in bad.stdout + bad.stderr
    assert "did you mean `colors`?" in bad.stdout
    js = _cli("check", "--format", "json", str(HERE / "diagnostics" / "deck.uno"))
    assert js.returncode == 1
    report = json.loads(js.stdout)
    assert {d["code"] for d in report[0]["diagnostics"]} == {"E305", "E306", "E307", "E309", "E320"}
    missing = _cli("check", "no-such-file.uno")
    assert missing.returncode == 2 and "no-such-file.uno" in missing.stderr
    unknown = _cli("check", "clasic")
    assert unknown.returncode == 2 and "named `clasic`. Did you mean `classic`?" in unknown.stderr


def test_not_utf8_and_binary_input_are_refused_cleanly(tmp_path):
    bad = tmp_path / "latin1.uno"
    bad.write_bytes(b"ruleset x \xe9 {}")
    res = _cli("check", str(bad))
    assert res.returncode == 2 and "not UTF-8" in res.stderr and "Traceback" not in res.stderr


@pytest.mark.parametrize("line, message, hint", [
    ("opens after draw", "unexpected `draw`", "expected `play`"),
    ("opens aftr play", "unknown word `aftr` here", "did you mean `after`?"),
    ("closes wen a turn begins", "unknown word `wen` here", "did you mean `when`?"),
])
def test_a_hint_names_only_words_that_may_stand_there(tmp_path, line, message, hint):
    """Where the language takes only certain words, a wrong one is told of those: `opens after
    draw` was told of `draws`, which is as wrong there, and `draws` of `draw`."""
    module = tmp_path / "late.uno"
    module.write_text(f'module late "Late" {{\n  window late "Late" {{\n    opens after play\n    {line}\n'
                      '    closes when a turn begins\n  }\n}\n', encoding="utf-8")
    diags, _ = check("classic", (str(module),))
    assert [(d.code, d.span.line, d.message, d.hint) for d in diags] == [("E101", 4, message, hint)]


@pytest.mark.parametrize("effect, message, hint", [
    ("next draw 2", "unknown word `draw` here", "did you mean `draws`?"),
    ("next drws 2", "unknown word `drws` here", "did you mean `draws`?"),
])
def test_a_misspelt_word_is_offered_the_word_that_may_stand_there(tmp_path, effect, message, hint):
    module = tmp_path / "skip.uno"
    module.write_text(f'module skip "Skip" {{\n  on play skip "Draw." {{ {effect} }}\n}}\n', encoding="utf-8")
    diags, _ = check("classic", (str(module),))
    assert [(d.code, d.message, d.hint) for d in diags] == [("E101", message, hint)]


def test_a_keyword_out_of_place_is_offered_no_word_spelt_like_it(tmp_path):
    """`next draws 2 draws 3` was told `did you mean draw or ranks or deals?`, none of which may
    stand there either; it is told what may."""
    module = tmp_path / "twice.uno"
    module.write_text('module twice "Twice" {\n  on play skip "Draw." { next draws 2 draws 3 }\n}\n', encoding="utf-8")
    diags, _ = check("classic", (str(module),))
    assert [(d.code, d.message) for d in diags] == [("E101", "unexpected `draws`")]
    assert diags[0].hint.startswith("expected ") and "`;`" in diags[0].hint and "did you mean" not in diags[0].hint


def test_a_number_written_in_words_is_told_to_be_written_in_digits(tmp_path):
    module = tmp_path / "two.uno"
    module.write_text('module two "Two" {\n  on play skip "Skipped players draw two." { next draws two }\n}\n',
                      encoding="utf-8")
    diags, _ = check("classic", (str(module),))
    assert [(d.code, d.message, d.hint) for d in diags] == [("E201", "unknown name `two`", "write the number in digits: `2`")]


def test_an_unclosed_block_is_named_where_the_braces_line_up_with_an_outer_one(tmp_path):
    """The `}` on the last line lines up with the module's `{`: the block left open is the rule's
    on line 2, not the module's on line 1."""
    module = tmp_path / "open.uno"
    module.write_text('module open "Open" {\n  on play skip "Skip." { skip next\n}\n', encoding="utf-8")
    diags, _ = check("classic", (str(module),))
    assert [(d.code, d.hint) for d in diags] == [("E102", "the `{` on line 2 has no matching `}`")]
