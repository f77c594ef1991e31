"""Scenario keys that state a position the language's primitives need: counters, eliminated
seats, and the exact order of the piles; their mistakes are reported with file and line."""
from __future__ import annotations

import pytest

from unodsl.front.scenarios import ScenarioFileError, load_file, run

BASE = """ruleset: classic
with: [progressive]
players: 3
scenarios:
  - name: keys
    setup:
      hands: {p1: [R+2, G5], p2: [B1], p3: [Y2]}
      discard: [G+2]
      stock: [G1, G2, G3, G4]
%s
    steps:
      - p1: play R+2
    expect:
%s
"""


def _run(tmp_path, setup: str, expect: str):
    path = tmp_path / "s.yaml"
    path.write_text(BASE % (setup, expect), encoding="utf-8")
    return [f for sc in load_file(path) for f in run(sc)]


def test_counters_given_in_the_setup_are_the_counters_the_rules_start_from(tmp_path):
    assert _run(tmp_path, "      counters: {pending: 4}", "      counters: {pending: 6}") == []
    failures = _run(tmp_path, "      counters: {pending: 4}", "      counters: {pending: 2}")
    assert len(failures) == 1 and "counters.pending: expected 2, got 6" in failures[0].message


def test_piles_are_checked_in_order(tmp_path):
    assert _run(tmp_path, "", "      stock: [G1, G2, G3, G4]\n      discard: [G+2, R+2]") == []
    failures = _run(tmp_path, "", "      stock: [G2, G1, G3, G4]")
    assert len(failures) == 1 and "stock: expected" in failures[0].message


def test_an_eliminated_seat_is_passed_over(tmp_path):
    path = tmp_path / "out.yaml"
    path.write_text("""ruleset: classic
options: {scoring: elimination}
players: 3
setup:
  hands: {p1: [R5, G5], p2: [B1], p3: [Y2]}
  discard: [R4]
  eliminated: [p2]
steps:
  - p1: play R5
expect: {turn: p3, eliminated: [p2]}
""", encoding="utf-8")
    assert [f for sc in load_file(path) for f in run(sc)] == []


def test_eliminated_seats_need_rules_that_put_players_out(tmp_path):
    with pytest.raises(ScenarioFileError, match="never puts a player out"):
        _run(tmp_path, "      eliminated: [p2]", "      turn: p3")


@pytest.mark.parametrize("setup, expect, words", [
    ("      counters: {pendng: 4}", "      turn: p2", "no counter `pendng`"),
    ("", "      counters: {pendng: 0}", "no counter `pendng`"),
    ("      counters: {pending: four}", "      turn: p2", "must be a whole number"),
    ("      eliminated: p2", "      turn: p3", "list of seats"),
])
def test_mistakes_in_the_new_keys_name_their_line(tmp_path, setup, expect, words):
    with pytest.raises(ScenarioFileError) as err:
        _run(tmp_path, setup, expect)
    assert words in str(err.value) and ":" in str(err.value).split(" ")[0]
