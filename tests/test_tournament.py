"""Tournaments and the balance report: seats rotated, intervals that mean something, the same
results whatever --jobs, and the commands' table, JSON, picture and exit codes. Short games only."""
from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from unodsl.compile.loader import load
from unodsl.sim.balance import figures, render_svg, sheet_lines, wilson
from unodsl.sim.tournament import Results, _bradley_terry, lineup, play_tournament, run_tournament_parallel


def cli(*args):
    return subprocess.run([sys.executable, "-m", "unodsl", *args], capture_output=True, text=True)


def test_every_bot_sits_in_every_seat_equally_often():
    seats = [lineup(["a", "b", "c"], 3, i) for i in range(6)]
    for s in range(3):
        column = [row[s] for row in seats]
        assert sorted(column) == ["a", "a", "b", "b", "c", "c"]
    assert lineup(["a", "b"], 4, 1) == ["b", "a", "b", "a"]


def test_wilson_interval_stays_inside_and_never_collapses():
    lo, hi = wilson(1.0, 40)
    assert 0.9 < lo < 1.0 and hi == 1.0
    lo, hi = wilson(0.5, 100)
    assert lo < 0.5 < hi and abs((0.5 - lo) - (hi - 0.5)) < 1e-9 and 0.09 < hi - lo < 0.2


def test_bradley_terry_ratings_follow_the_odds():
    """A bot that beats the other three times in four is rated about 400*log10(3) above it."""
    games = [{("a", "b"): 1}] * 300 + [{("b", "a"): 1}] * 100
    r = _bradley_terry(["a", "b"], games)
    assert abs((r["a"] - r["b"]) - 400 * 0.4771) < 5
    assert abs((r["a"] + r["b"]) / 2 - 1500) < 1e-6


def test_a_stronger_bot_wins_more_and_jobs_change_nothing():
    rules = load("classic")
    one = play_tournament(rules, 2, ["basic", "random"], 24, seed=3, rounds=1).summary(3)
    two = run_tournament_parallel("classic", [], {}, 2, ["basic", "random"], 24, 3, 1, jobs=2).summary(3)
    assert one == two
    basic, rand = one["bots"]
    assert basic["bot"] == "basic" and basic["win_rate"] > rand["win_rate"] and basic["rating"] > rand["rating"]
    assert basic["ci95"][0] < basic["win_rate"] <= basic["ci95"][1] <= 1.0
    assert abs(basic["win_rate"] + rand["win_rate"] - 1.0) < 1e-9


def test_a_bot_holding_several_seats_scores_its_share():
    results = Results(["x", "y"])

    class Over:
        game_winners, turns, stalemate = [2], 10, False
    results.add(["x", "y", "x", "y"], Over())
    assert results.scores == [{"x": 0.5, "y": 0.0}]
    assert results.beats == [{("x", "y"): 2}]


def test_simulate_takes_any_bot():
    res = cli("simulate", "classic", "-n", "2", "--players", "2", "--bots", "search:iterations=2", "--format", "json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["bots"] == "search:iterations=2"
    bad = cli("simulate", "classic", "-n", "2", "--bots", "clever")
    assert bad.returncode == 2 and "no bot called `clever`" in bad.stderr


def test_tournament_command_table_and_json():
    table = cli("tournament", "classic", "--bots", "basic,random", "-n", "6", "--rounds", "1")
    assert table.returncode == 0, table.stderr
    assert "seats rotated" in table.stdout and "basic" in table.stdout and "95% CI" in table.stdout
    res = cli("tournament", "classic", "--bots", "basic,random", "-n", "6", "--rounds", "1", "--format", "json")
    out = json.loads(res.stdout)
    assert out["games"] == 6 and [b["bot"] for b in out["bots"]] == ["basic", "random"]
    assert all(len(b["ci95"]) == 2 and len(b["rating_ci95"]) == 2 for b in out["bots"])


@pytest.mark.parametrize("bad", [["--bots", "basic,clever"], ["--bots", ","], ["--bots", "basic", "--players", "11"],
                                 ["--bots", "search:depth=2"], ["--bots", "basic", "-n", "0"]])
def test_tournament_command_refuses_bad_arguments(bad):
    res = cli("tournament", "classic", *bad)
    assert res.returncode == 2 and res.stdout == ""
    assert "Traceback" not in res.stderr and res.stderr.strip()


def test_balance_figures_ablation_sheet_and_picture(tmp_path):
    report = figures("classic", ["seven-o"], {"uno_penalty": 4}, players=2, games=6, seed=1)
    assert report["games"] == 6 and len(report["seats"]) == 2
    assert report["first_player"]["fair"] == 0.5
    lo, hi = report["first_player"]["ci95"]
    assert 0.0 <= lo <= report["first_player"]["value"] <= hi <= 1.0
    assert report["length"]["p5"] <= report["length"]["median"] <= report["length"]["p95"]
    assert [(a["kind"], a["without"]) for a in report["ablations"]] == [("module", "seven-o"), ("option", "uno_penalty")]
    lines = sheet_lines(report)
    assert any("Without seven-o" in line for line in lines) and all("{" not in line for line in lines)
    svg = ET.fromstring(render_svg(report))
    assert svg.tag.endswith("svg") and "without seven-o" in ET.tostring(svg, encoding="unicode")


def test_balance_command(tmp_path):
    picture = tmp_path / "balance.svg"
    res = cli("balance", "classic", "-n", "4", "--players", "2", "--format", "json", "--plot", str(picture))
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["games"] == 4 and out["ablations"] == [] and "skill" in out
    ET.parse(picture)
    assert cli("balance", "classic", "--bots", "nobody").returncode == 2
    assert cli("balance", "classic", "--players", "1", "-n", "2").returncode == 2
    too_many = cli("balance", "classic", "--players", "11", "-n", "2")
    assert too_many.returncode == 2 and "2 to 10 players" in too_many.stderr
    assert cli("balance", "nosuchrules", "-n", "2").returncode == 2
    assert cli("tournament", "classic", "--bots", "basic", "-n", "10000000000").returncode == 2


def test_balance_figures_do_not_depend_on_jobs():
    one = figures("classic", (), {}, players=2, games=8, seed=2, ablate=False)
    two = figures("classic", (), {}, players=2, games=8, seed=2, ablate=False, jobs=2)
    assert one == two
