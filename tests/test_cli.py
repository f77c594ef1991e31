"""The command line: every subcommand, its exit codes, and the same output for the same seed."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent


def cli(*args, cwd=None, stdin=""):
    return subprocess.run([sys.executable, "-m", "unodsl", *args], capture_output=True, text=True,
                          cwd=cwd, input=stdin)


def test_version_and_help_list_every_command():
    assert cli("--version").stdout.startswith("unodsl ")
    out = cli("--help").stdout
    for command in ("check", "list", "play", "simulate", "test", "replay"):
        assert command in out


def test_list_shows_classic_with_its_title():
    out = cli("list").stdout
    assert "classic" in out and "Classic UNO" in out


def test_simulate_same_seed_same_statistics():
    args = ("simulate", "classic", "-n", "30", "--players", "4", "--seed", "1", "--format", "json")
    first, second = json.loads(cli(*args).stdout), json.loads(cli(*args).stdout)
    first.pop("seconds")
    second.pop("seconds")
    assert first == second
    assert first["games"] == 30
    assert abs(sum(w["share"] for w in first["wins_by_seat"]) - 1) < 1e-3
    assert all(isinstance(w["wins"], int) for w in first["wins_by_seat"])
    assert first["turns_per_game"]["median"] <= first["turns_per_game"]["p95"]
    other = json.loads(cli("simulate", "classic", "-n", "30", "--players", "4", "--seed", "2", "--format", "json").stdout)
    assert other["turns_per_game"] != first["turns_per_game"]


def test_simulate_table_and_bad_arguments():
    table = cli("simulate", "classic", "-n", "5", "--players", "3", "--bots", "random")
    assert table.returncode == 0 and "wins by seat" in table.stdout and "p3" in table.stdout
    for bad in (("-n", "0"), ("--players", "11"), ("--players", "x"), ("--bots", "clever"), ("--set", "nonsense")):
        res = cli("simulate", "classic", *bad)
        assert res.returncode == 2, bad
        assert "Traceback" not in res.stderr
    res = cli("simulate", "classic", "-n", "3", "--set", "uno_penalty=four")
    assert res.returncode == 1 and "takes a whole number" in res.stderr
    res = cli("simulate", "classic", "-n", "3", "--set", "targte=100")
    assert res.returncode == 1 and "did you mean `target`?" in res.stderr


def test_options_from_the_command_line_change_the_game():
    short = json.loads(cli("simulate", "classic", "-n", "20", "--set", "target=50", "--format", "json").stdout)
    long = json.loads(cli("simulate", "classic", "-n", "20", "--set", "target=500", "--format", "json").stdout)
    assert short["rounds_per_game"] < long["rounds_per_game"]


def test_test_command_reports_failures_with_file_and_line(tmp_path):
    passing = tmp_path / "ok.yaml"
    passing.write_text(
        "ruleset: classic\n"
        "players: 2\n"
        "setup: {hands: {p1: [R5, G2], p2: [B3]}, discard: [R1]}\n"
        "steps:\n  - p1: play R5\n"
        "expect: {top: R5, turn: p2}\n")
    failing = tmp_path / "bad.yaml"
    failing.write_text(
        "ruleset: classic\n"
        "scenarios:\n"
        "  - name: a wrong expectation\n"
        "    players: 2\n"
        "    setup: {hands: {p1: [R5, G2], p2: [B3]}, discard: [R1]}\n"
        "    steps:\n      - p1: play R5\n"
        "    expect: {turn: p1}\n")
    ok = cli("test", str(passing))
    assert ok.returncode == 0 and ok.stdout.strip().endswith("1 passed, 0 failed")
    both = cli("test", str(tmp_path))
    assert both.returncode == 1
    assert "a wrong expectation" in both.stdout and f"{failing}:3" in both.stdout
    assert "turn: expected p1, got p2" in both.stdout
    assert both.stdout.strip().endswith("1 passed, 1 failed")


def test_test_command_file_errors_exit_2(tmp_path):
    typo = tmp_path / "typo.yaml"
    typo.write_text("ruleset: classic\nplayers: 2\nsetup: {hands: {p1: [R55]}, discard: [R1]}\n")
    res = cli("test", str(typo))
    assert res.returncode == 2 and f"{typo}:3:" in res.stdout and "R55" in res.stdout
    yaml_err = tmp_path / "broken.yaml"
    yaml_err.write_text("ruleset: classic\nsetup: [unclosed\n")
    res = cli("test", str(yaml_err))
    assert res.returncode == 2 and "not valid YAML" in res.stdout
    key = tmp_path / "key.yaml"
    key.write_text("ruleset: classic\nplayers: 2\nsetup: {hands: {p1: [R5]}, discard: [R1]}\nexpcet: {turn: p1}\n")
    res = cli("test", str(key))
    assert res.returncode == 2 and "did you mean `expect`?" in res.stdout
    assert cli("test", str(tmp_path / "nothing-here")).returncode == 2


def test_installed_layout_runs_from_another_directory(tmp_path):
    res = cli("check", "classic", cwd=tmp_path)
    assert res.returncode == 0
    res = cli("test", str(HERE / "scenarios" / "classic" / "actions.yaml"), cwd=tmp_path)
    assert res.returncode == 0 and "0 failed" in res.stdout


def test_replay_confirms_a_log_and_rejects_a_tampered_one(tmp_path):
    import io

    from unodsl.compile.loader import load
    from unodsl.engine import eventlog
    from unodsl.sim.simulate import play_game
    game = play_game(load("classic"), 3, 11, "basic")
    buf = io.StringIO()
    eventlog.write(buf, "classic", [], {}, game)
    log = tmp_path / "game.jsonl"
    log.write_text(buf.getvalue())
    ok = cli("replay", str(log))
    assert ok.returncode == 0 and "matches" in ok.stdout
    lines = buf.getvalue().splitlines()
    final = json.loads(lines[-1])
    lines[-1] = json.dumps({**final, "final": "0000000000000000"})
    log.write_text("\n".join(lines))
    bad = cli("replay", str(log))
    assert bad.returncode == 1 and "the log says 0000000000000000" in bad.stderr
    log.write_text("not json at all\n")
    assert cli("replay", str(log)).returncode == 1
