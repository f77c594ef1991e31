"""`unodsl fmt`: one canonical layout that never changes what a rules file means.

For every rules file of the project that parses (bundled rulesets and modules, examples, test
fixtures), formatting keeps the syntax tree (spans aside) and formats to itself; a file that does
not parse is left alone with its diagnostics.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from unodsl.lang import format as F
from unodsl.lang.diagnostics import Diagnostics
from unodsl.lang.parser import parse
from unodsl.lang.source import Source

ROOT = Path(__file__).resolve().parent.parent
RULES_FILES = sorted(p for folder in ("rulesets", "examples", "tests") for p in (ROOT / folder).rglob("*.uno"))


def _parses(text: str) -> bool:
    diags = Diagnostics()
    try:
        parse(Source("x", text), diags)
    except RecursionError:
        return False
    return not diags.errors


def fmt(*args, stdin=None, cwd=None):
    return subprocess.run([sys.executable, "-m", "unodsl", "fmt", *args], capture_output=True, text=True,
                          input=stdin, cwd=cwd)


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_formatting_keeps_the_meaning_and_is_idempotent(path):
    text = path.read_text(encoding="utf-8")
    result = F.format_text(text, str(path))
    if not _parses(text):
        assert not result.ok and result.text == text and result.diagnostics
        return
    assert result.ok
    diags = Diagnostics()
    assert F.meaning(parse(Source("after", result.text), diags)) == F.meaning(parse(Source("before", text), Diagnostics()))
    assert not diags.errors
    assert F.format_text(result.text).text == result.text
    comments = [line.split("#", 1)[1] for line in text.splitlines() if "#" in line and '"' not in line]
    kept = [line.split("#", 1)[1] for line in result.text.splitlines() if "#" in line and '"' not in line]
    assert kept == comments


def test_the_project_holds_files_that_do_not_parse():
    """The round trip above sees both kinds of file, so its two branches are exercised."""
    kinds = {_parses(p.read_text(encoding="utf-8")) for p in RULES_FILES}
    assert kinds == {True, False}


MESSY = '''

# header comment
ruleset   messy "Messy"   extends classic{
      option  x=-5 one of -5,3 "doc"   # trailing
  option y = 3
        "long"
  deal ( 7 )  ;  players 2 to 4


  # about cards
  card  foo 1 .. 3 "Foo" {colored;code "{color}F{rank}" ; points rank*2}
  deck { each color { 1 number 0 , 2 foo 1..3 } , 4 wild }
  on play foo "x"
  {
    next draws card . rank - 1 ;skip next
    if x > -2 {
       reverse
    }
    else {
      player draws - x
    }

  }
  match card.kind == top.kind and card.rank == top.rank and card.color == top.color and card.points == top.points "doc"
  starter foo "A text long enough to pass the width of a line once the card is named." { return it and turn another }
  window w "W" { opens after play when player.cards==1
  closes when a turn begins
      # before the action
  player may uno { }
  }
}
module m { set x = 3 }
# closing comment
'''

TIDY = '''# header comment
ruleset messy "Messy" extends classic {
  option x = -5 one of -5, 3 "doc"     # trailing
  option y = 3
    "long"
  deal (7); players 2 to 4

  # about cards
  card foo 1..3 "Foo" { colored; code "{color}F{rank}"; points rank * 2 }
  deck { each color { 1 number 0, 2 foo 1..3 }, 4 wild }
  on play foo "x" {
    next draws card.rank - 1; skip next
    if x > -2 {
      reverse
    } else {
      player draws -x
    }
  }
  match card.kind == top.kind and card.rank == top.rank and card.color == top.color
      and card.points == top.points
    "doc"
  starter foo "A text long enough to pass the width of a line once the card is named." { return it and turn another }
  window w "W" { opens after play when player.cards == 1
    closes when a turn begins
    # before the action
    player may uno { }
  }
}

module m { set x = 3 }
# closing comment
'''


def test_the_canonical_layout():
    """Spacing, indentation, joined braces and `else`, blank lines, long conditions and texts;
    the `and` of `return it and turn another` is a word of a statement, not a place to break."""
    result = F.format_text(MESSY)
    assert result.text == TIDY
    assert F.format_text(TIDY).text == TIDY


def test_a_comment_after_code_keeps_its_column_when_the_code_fits():
    text = 'ruleset a {\n  deal   7          # seven\n  players 2 to 4 # few\n}\n'
    assert F.format_text(text).text == 'ruleset a {\n  deal 7            # seven\n  players 2 to 4 # few\n}\n'
    crowded = 'ruleset a {\nplayers 2 to 4 # few\n}\n'
    assert F.format_text(crowded).text == 'ruleset a {\n  players 2 to 4  # few\n}\n'


def test_a_minus_sign_never_joins_two_names():
    """`a - b` printed as `a-b` would be one name: binary minus keeps its spaces."""
    text = 'ruleset a { counter c = 0\n on draw { set c to c -   c; player draws c - -1 } }\n'
    out = F.format_text(text).text
    assert "c - c" in out and "c - -1" in out


def test_a_file_with_syntax_errors_is_left_alone():
    text = "ruleset a {\n  deal 7 7\n}\n"
    result = F.format_text(text, "broken.uno")
    assert not result.ok and not result.changed and result.text == text
    assert [d.code for d in result.diagnostics] == ["E101"]


def test_the_formatter_refuses_to_change_meaning(monkeypatch):
    monkeypatch.setattr(F._Layout, "render", lambda self: "ruleset other { deal 8 }\n")
    with pytest.raises(F.FormatError):
        F.format_text("ruleset a { deal 7 }\n")


def test_fmt_rewrites_checks_and_diffs(tmp_path):
    messy = tmp_path / "messy.uno"
    messy.write_text("ruleset a {   deal   7 }\n", encoding="utf-8")
    tidy = tmp_path / "tidy.uno"
    tidy.write_text("ruleset a { deal 7 }\n", encoding="utf-8")

    run = fmt("--check", str(tmp_path))
    assert run.returncode == 1 and f"{messy}: would be reformatted" in run.stdout
    assert "1 file would be reformatted, 1 file already formatted" in run.stdout
    assert messy.read_text(encoding="utf-8") == "ruleset a {   deal   7 }\n"

    run = fmt("--diff", str(messy))
    assert run.returncode == 0
    assert "-ruleset a {   deal   7 }\n+ruleset a { deal 7 }\n" in run.stdout
    assert messy.read_text(encoding="utf-8") == "ruleset a {   deal   7 }\n"

    run = fmt(str(messy), str(tidy))
    assert run.returncode == 0 and f"{messy}: reformatted" in run.stdout
    assert messy.read_text(encoding="utf-8") == "ruleset a { deal 7 }\n"
    assert fmt("--check", str(tmp_path)).returncode == 0


def test_fmt_leaves_a_broken_file_alone_and_exits_1(tmp_path):
    broken = tmp_path / "broken.uno"
    broken.write_text("ruleset a {\n  deal 7 7\n}\n", encoding="utf-8")
    run = fmt(str(broken))
    assert run.returncode == 1
    assert "error[E101]" in run.stderr and "not formatted, 1 error" in run.stderr
    assert broken.read_text(encoding="utf-8") == "ruleset a {\n  deal 7 7\n}\n"


def test_fmt_standard_input_and_usage_errors(tmp_path):
    run = fmt("-", stdin="ruleset a {deal 7}")
    assert run.returncode == 0 and run.stdout == "ruleset a { deal 7 }\n"
    assert fmt("--check", "-", stdin="ruleset a {deal 7}").returncode == 1
    run = fmt(str(tmp_path / "missing.uno"))
    assert run.returncode == 2 and "no such file or folder" in run.stderr
    binary = tmp_path / "binary.uno"
    binary.write_bytes(b"\xff\xfe\x00")
    run = fmt(str(binary))
    assert run.returncode == 2 and "not UTF-8" in run.stderr


def test_the_bundled_rulesets_and_examples_are_formatted():
    run = fmt("--check", "rulesets", "examples", cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 files would be reformatted" in run.stdout
