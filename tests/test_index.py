"""The compiler's index of names: where each card kind, option, counter, color, tag, property,
window, ruleset and module is defined and used, as the checker resolved it (`loader.analyze`)."""
from __future__ import annotations

import re

from unodsl.compile.index import Symbol
from unodsl.compile.loader import analyze
from unodsl.lang.source import Source

TEXT = '''ruleset house "House" extends classic {
  uses progressive
  option bonus = 3 "Extra cards."
  set uno_penalty = 4
  counter streak = 0
  card zap "Zap" { colored; code "{color}Z"; points 20; tags action, zappy; let draw = 1 }
  deck { each color { 1 number 0, 2 number 1..9, 2 skip, 2 reverse, 2 draw_two, bonus zap }, 4 wild, 4 wild_draw_four }
  on play zap { next draws card.draw + bonus; add 1 to streak; if card is zappy and player.cards > streak { skip next } }
}
'''


def _at(a, line, word, nth=1):
    """The symbol under the nth occurrence of `word` on a line of TEXT."""
    text = TEXT.splitlines()[line - 1]
    col = -1
    for _ in range(nth):
        col = text.index(word, col + 1)
    return a.index.at("house.uno", line, col + 1)


def test_names_resolve_to_what_the_checker_made_of_them():
    a = analyze(Source("house.uno", TEXT))
    assert a.diagnostics == [] and set(a.rulesets) == {"house"}
    assert _at(a, 8, "zap")[0] == Symbol("card kind", "zap")
    assert _at(a, 8, "bonus")[0] == Symbol("option", "bonus")
    assert _at(a, 8, "streak")[0] == Symbol("counter", "streak")
    assert _at(a, 8, "streak", 2)[0] == Symbol("counter", "streak")
    assert _at(a, 8, "zappy")[0] == Symbol("tag", "zappy")
    assert _at(a, 8, "draw", 2)[0] == Symbol("property", "draw")
    assert _at(a, 8, "next")[0] == Symbol("builtin", "next")
    assert _at(a, 7, "bonus")[0] == Symbol("option", "bonus")
    assert _at(a, 7, "skip")[0] == Symbol("card kind", "skip")
    assert _at(a, 4, "uno_penalty")[0] == Symbol("option", "uno_penalty")
    assert _at(a, 2, "progressive")[0] == Symbol("module", "progressive")
    assert _at(a, 1, "classic")[0] == Symbol("ruleset", "classic")
    assert _at(a, 8, "{") is None


def test_definitions_point_at_the_name_in_its_file():
    a = analyze(Source("house.uno", TEXT))
    (zap,) = a.index.definitions_of(Symbol("card kind", "zap"))
    assert (zap.span.file, zap.span.line, zap.span.col, zap.span.end_col) == ("house.uno", 6, 8, 11)
    (penalty,) = a.index.definitions_of(Symbol("option", "uno_penalty"))
    assert penalty.span.file == "<bundled>/classic.uno"
    line = a.sources["<bundled>/classic.uno"].line(penalty.span.line)
    assert line[penalty.span.col - 1:penalty.span.end_col - 1] == "uno_penalty"
    assert a.bundled_paths["<bundled>/classic.uno"].name == "classic.uno"
    (progressive,) = a.index.definitions_of(Symbol("module", "progressive"))
    assert progressive.span.file == "<bundled>/progressive.uno"


def test_references_include_uses_in_the_parent_rulesets():
    a = analyze(Source("house.uno", TEXT))
    refs = a.index.references_to(Symbol("option", "uno_penalty"))
    assert {s.file for s in refs} == {"house.uno", "<bundled>/classic.uno"}
    streak = [(s.line, s.col) for s in a.index.references_to(Symbol("counter", "streak"))]
    line8 = TEXT.splitlines()[7]
    assert streak == [(5, 11), (8, line8.index("streak") + 1), (8, line8.rindex("streak") + 1)]
    assert "<bundled>/classic.uno" in a.built_from and "<bundled>/killer.uno" not in a.built_from


def test_a_file_with_mistakes_still_gets_an_index_and_every_diagnostic():
    broken = TEXT.replace("card.draw + bonus", "card.draw + bonsu").replace("add 1 to streak", "add 1 to straek")
    a = analyze(Source("house.uno", broken))
    assert sorted(d.code for d in a.diagnostics) == ["E201", "E205"]
    assert a.rulesets == {}
    assert _at(a, 8, "zap")[0] == Symbol("card kind", "zap")


def test_an_edited_parent_is_checked_from_the_editor_text():
    a = analyze(Source("house.uno", TEXT))
    classic = a.bundled_paths["<bundled>/classic.uno"]
    edited = re.sub(r"option uno_penalty = [^\"]*", "option uno_penalty = no ", classic.read_text(encoding="utf-8"))
    b = analyze(Source("house.uno", TEXT), {str(classic): edited})
    # the child's `set uno_penalty = 4` no longer fits, and classic's own use of it neither
    assert [(d.code, d.span.file) for d in b.diagnostics] == [("E210", "<bundled>/classic.uno"), ("E312", "house.uno")]


def test_with_only_syntax_errors_the_declarations_that_parse_still_make_rules():
    broken = TEXT.replace("add 1 to streak;", "add 1 to streak streak;")
    a = analyze(Source("house.uno", broken))
    assert [d.code for d in a.diagnostics] == ["E101"] and a.rulesets == {}
    assert "zap" in a.readable["house"].kinds
    worse = broken.replace("bonus zap", "bonsu zap")
    assert analyze(Source("house.uno", worse)).readable == {}


NAMED = '''ruleset named extends classic {
  define punish(who) "Two cards and a lost turn." { who draws 2; skip who }
  on play skip { punish(next) }
  on play reverse { reverse; punish(previous) }
}
'''


def test_named_statements_are_defined_and_used_by_name():
    a = analyze(Source("named.uno", NAMED))
    assert a.diagnostics == []
    (punish,) = a.index.definitions_of(Symbol("named statement", "punish"))
    assert (punish.span.line, punish.span.col, punish.span.end_col) == (2, 10, 16)
    uses = sorted((s.line, s.col) for s in a.index.references_to(Symbol("named statement", "punish"), False))
    lines = NAMED.splitlines()
    assert uses == [(3, lines[2].index("punish") + 1), (4, lines[3].index("punish") + 1)]
