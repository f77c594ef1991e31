"""The simulator: the same statistics however the games are spread, and its reports."""
from __future__ import annotations

import csv
import io
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from unodsl.compile.loader import load
from unodsl.sim.simulate import Progress, Stats, format_table, run_parallel, simulate
from unodsl.sim.statistics import simulate_paired


def cli(*args):
    return subprocess.run([sys.executable, "-m", "unodsl", *args], capture_output=True, text=True)


def test_jobs_do_not_change_the_statistics():
    one = simulate(load("classic"), 3, 40, seed=9, bot="basic")
    two = run_parallel("classic", (), {}, 3, 40, 9, "basic", jobs=2)
    assert one.summary() == two.summary()
    assert one.games == 40 and sum(one.turns.values()) == 40


def test_options_reach_the_workers():
    plain = run_parallel("classic", (), {}, 3, 20, 4, "basic", jobs=2).summary()
    short = run_parallel("classic", (), {"target": "50"}, 3, 20, 4, "basic", jobs=2).summary()
    assert short["rounds_per_game"] < plain["rounds_per_game"]


def test_dask_local_cluster_gives_the_same_statistics():
    pytest.importorskip("dask.distributed")
    from unodsl.sim.cluster import run_on_cluster
    jobs = run_parallel("classic", (), {}, 3, 24, 5, "basic", jobs=2).summary()
    cluster = run_on_cluster("local", "classic", (), {}, 3, 24, 5, "basic").summary()
    assert cluster == jobs


def test_statistics_track_counters_eliminations_and_ties():
    killer = simulate(load("killer"), 4, 10, seed=3).summary()
    assert killer["largest_counter"]["pending"] >= 2       # cumulative draws stacked at least once
    deadly = simulate(load("classic", ["deadly"]), 4, 10, seed=3).summary()
    assert deadly["eliminations_per_game"] > 0
    teams = simulate(load("teams"), 4, 10, seed=3).summary()
    shares = [w["share"] for w in teams["wins_by_seat"]]
    assert shares[0] == shares[2] and shares[1] == shares[3]   # partners share every win
    assert abs(sum(shares) - 1) < 1e-9                          # one win a game, split between partners
    wins = [w["wins"] for w in teams["wins_by_seat"]]
    assert all(isinstance(w, int) for w in wins) and wins[0] + wins[1] == 10
    assert [t["seat"] for t in teams["wins_by_team"]] == ["team p1+p3", "team p2+p4"]
    assert sum(t["wins"] for t in teams["wins_by_team"]) == 10


def test_compare_reports_a_difference_with_an_interval():
    a = simulate(load("classic"), 4, 30, seed=2)
    b = simulate(load("classic", ["infinite-draw"]), 4, 30, seed=2)
    result = simulate_paired(load("classic"), load("classic", ["infinite-draw"]), 4, 30, 2, "basic").summary()["turns"]
    lo, hi = result["ci95"]
    assert lo <= result["difference"] <= hi
    assert result["difference"] == pytest.approx(b.mean_turns() - a.mean_turns(), abs=1e-2)
    out = cli("simulate", "--compare", "classic", "classic", "--with", "progressive", "-n", "20", "--players", "3")
    assert out.returncode == 0
    assert "B = classic+progressive" in out.stdout and "95% CI" in out.stdout


def test_csv_and_plot(tmp_path):
    out = cli("simulate", "classic", "-n", "15", "--players", "3", "--format", "csv", "--plot", str(tmp_path / "p.svg"))
    assert out.returncode == 0
    table = list(csv.DictReader(io.StringIO(out.stdout)))
    rows = {r["statistic"]: r["value"] for r in table}
    assert rows["games"] == "15" and "win_share_p3" in rows
    assert {(r["ruleset"], r["players"], r["seed"]) for r in table} == {("classic", "3", "0")}
    svg = ET.parse(tmp_path / "p.svg").getroot()
    rects = [e for e in svg.iter() if e.tag.endswith("rect")]
    assert len(rects) > 3 + 3                     # the background, the histogram, three seats' bars


def test_progress_is_silent_off_a_terminal():
    stream = io.StringIO()
    bar = Progress(10, stream)
    bar(5)
    bar(5)
    bar.close()
    assert stream.getvalue() == ""


def test_the_spread_of_cards_drawn_and_reshuffles_is_that_of_the_games():
    import statistics
    from unodsl.sim.simulate import play_game
    rules = load("classic")
    stats = Stats(3)
    games = [play_game(rules, 3, seed, "random", record=False) for seed in range(8)]
    for game in games:
        stats.add(game)
    for name in ("drawn", "reshuffles"):
        values = [game.stats[name] for game in games]
        mean, variance = stats.spread(name)
        assert mean == pytest.approx(statistics.mean(values))
        assert variance == pytest.approx(statistics.variance(values))
    assert stats.spread("drawn")[1] > 0


def test_merged_stats_equal_one_run():
    rules = load("classic")
    whole = simulate(rules, 2, 12, seed=1)
    part = simulate(rules, 2, 5, seed=1)
    part.merge(simulate(rules, 2, 7, seed=1, first=5))
    assert part.summary() == whole.summary()
    assert (part.drawn_sq, part.reshuffles_sq) == (whole.drawn_sq, whole.reshuffles_sq)
    empty = Stats(2)
    empty.merge(whole)
    assert empty.summary() == whole.summary()


def test_the_time_line_gives_a_slow_run_s_rate_to_two_figures_and_a_fast_one_s_in_whole_games():
    summary = simulate(load("classic"), 2, 1, seed=0).summary()
    assert format_table("t", summary, 2.61).splitlines()[-2].endswith("2.61 s (0.38 games/s)")
    fast = dict(summary, games=1_000_000)
    assert format_table("t", fast, 63.0).splitlines()[-2].endswith("63.00 s (15,873 games/s)")


def test_a_compile_before_the_games_is_said_apart_and_the_rate_is_the_games_own():
    summary = dict(simulate(load("classic"), 2, 1, seed=0).summary(), games=20_000)
    line = format_table("t", summary, 18.42, ("compiling", 12.10)).splitlines()[-2]
    assert line.endswith("18.42 s (12.10 s compiling, then 3,165 games/s)")
    bar = Progress(10, io.StringIO())
    bar.begin()
    assert bar.setup is None
    bar.begin("compiling")
    assert bar.setup[0] == "compiling" and bar.setup[1] >= 0


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_status_line_shows_on_a_terminal_and_what_follows_starts_on_a_clean_line(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    stream = _Terminal()
    bar = Progress(10, stream)
    bar.status("Compiling the rules to machine code for 4 players (once: later runs load it)...")
    assert stream.getvalue() == "\rCompiling the rules to machine code for 4 players (once: later runs load it)..."
    bar.close()
    assert stream.getvalue().endswith("\r" + " " * 79 + "\r")
    silent = io.StringIO()
    Progress(10, silent).status("Compiling")
    assert silent.getvalue() == ""


def test_simulate_says_it_compiles_before_it_does_and_clears_it(monkeypatch, capsys):
    """The compile's status goes up before the engine is prepared and is cleared before the
    line naming the engine (the wiring; tests/test_native.py holds when a run compiles)."""
    from argparse import Namespace

    from unodsl.front.commands import simulate as command
    from unodsl.sim import engines
    said = []

    class Recorder:
        def status(self, text):
            said.append(("status", text))

        def close(self):
            said.append(("close",))

        def begin(self, after=""):
            said.append(("begin", after))
    native = engines.Choice("native", "engine: native (the rules compiled to machine code)")
    monkeypatch.setattr(engines, "choose", lambda *a: native._replace(compiles=True))
    monkeypatch.setattr(engines, "prepare", lambda *a: said.append(("prepare",)) or native)
    args = Namespace(players=3, bots="random", games=10 ** 6, engine="auto")
    assert command._engine(args, load("classic"), None, Recorder()) == "native"
    assert said == [("status", "Compiling the rules to machine code for 3 players (once: later runs load it)..."),
                    ("prepare",), ("close",), ("begin", "compiling")]
    assert capsys.readouterr().err == "engine: native (the rules compiled to machine code)\n"


def test_after_begin_the_bar_s_rate_and_time_left_count_the_games_only(monkeypatch):
    """A 10 s compile before the games is not game time: 5 of 10 games in the games' first
    second is 5 games a second and 1 s left (counted from the bar's creation: 0 and 11 s)."""
    from unodsl.sim import simulate as module
    monkeypatch.delenv("CI", raising=False)
    clock = iter([0.0, 10.0, 11.0])
    monkeypatch.setattr(module.time, "perf_counter", lambda: next(clock))
    stream = _Terminal()
    bar = Progress(10, stream)
    bar.begin("compiling")
    bar(5)
    assert stream.getvalue().endswith("5/10 games  5 games/s  1 s left ")
    assert bar.setup == ("compiling", 10.0)
