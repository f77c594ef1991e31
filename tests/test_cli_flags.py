"""Flags and commands that must do what they say or refuse clearly, at once, changing nothing:
bounds on every number, cluster addresses, paths checked before a game, help that describes
every argument, Ctrl-C and killed workers, pipes that close, standard input."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from unodsl.engine.actions import ActionSyntaxError, parse_seat
from unodsl.sim.statistics import Sums, wilson


def cli(*args, stdin="", cwd=None, timeout=60):
    return subprocess.run([sys.executable, "-m", "unodsl", *args], capture_output=True, text=True, input=stdin,
                          cwd=cwd, timeout=timeout)


@pytest.mark.parametrize("args, words", [
    (("simulate", "classic", "--jobs", "99999999999999999999"), "must be at most"),
    (("simulate", "classic", "--jobs", "1000"), "must be at most"),
    (("simulate", "classic", "--jobs", "0"), "must be at least 1"),
    (("simulate", "classic", "-n", "0"), "must be at least 1 game\n"),
    (("simulate", "classic", "-n", "1e12"), "write it out in digits"),
    (("simulate", "classic", "-n", "1000000000000"), "at most 1,000,000,000 games"),
    (("simulate", "classic", "--seed", "9" * 5000), "5,000 digits is too long"),
    (("simulate", "classic", "--set", "target=" + "9" * 5000), "5,000 digits is too long"),
    (("sheet", "classic", "--stats", "100000000000"), "at most 10,000 games"),
    (("simulate", "classic", "--players", "0"), "at least 2 players"),
    (("play", "classic", "--players", "0"), "at least 2 players"),
    (("simulate", "classic", "--cluster", "ucx://host:1234"), "needs UCX"),
    (("simulate", "classic", "--cluster", "tls://host:1234"), "needs certificates"),
    (("simulate", "classic", "--cluster", "tcp://127.0.0.1:notaport"), "not a scheduler address"),
    (("simulate", "classic", "--cluster", "tcp://127.0.0.1:99999"), "not a port"),
    (("simulate", "classic", "--cluster", "inproc://x"), "inside this very process"),
    (("simulate", "classic", "--cluster", ""), "give `local` or a Dask scheduler's address"),
    (("simulate", "classic", "--cluster", "local", "--jobs", "2"), "--jobs does not go with --cluster"),
    (("simulate", "killer", "--compare", "classic", "speed"), "not both (`killer` would be ignored)"),
    (("simulate", "--compare", "classic", "speed", "--plot", "c.svg"), "plot each ruleset on its own"),
    (("simulate", "classic", "--plot", "x.png"), "name the file .svg"),
    (("simulate", "classic", "--with", "classic"), "`classic` is a ruleset, not a module"),
    (("simulate", "progressive"), "`progressive` is a module, not a ruleset"),
    (("play", "killer", "--resume", "game.json"), "leave out `killer`"),
    (("play", "--resume", "game.json", "--players", "3", "--seed", "4"), "leave out --players, --seed"),
    (("play", "classic", "--log", "/nonexistent/x.jsonl"), "there is no folder /nonexistent"),
    (("play", "classic", "--save", "/nonexistent/x.json"), "there is no folder /nonexistent"),
    (("play", "classic", "--save", "."), "a directory"),
    (("play", "classic", "--bots", "clever"), "no bot called `clever`"),
    (("play", "classic", "--bots", "nosuchmodule:Bot"), "no bot at `nosuchmodule:Bot`"),
    (("play", "classic", "--bots", "search:depth=3"), "does not take these options"),
    (("sheet", "classic", "-o", "/nonexistent/s.html"), "there is no folder /nonexistent"),
    (("check", "tests"), "a directory, not a rules file"),
])
def test_each_mistake_gets_a_clear_message_and_exit_2_at_once(tmp_path, args, words):
    res = cli(*args, cwd=Path(__file__).parent.parent)   # (cli's timeout catches a hang)
    assert res.returncode == 2, res.stderr
    assert words in res.stderr, res.stderr
    assert "Traceback" not in res.stderr and "internal error" not in res.stderr
    assert res.stdout == ""                          # no game was played, nothing half done


def test_unodsl_alone_prints_usage_to_standard_error():
    res = cli()
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.startswith("usage: unodsl") and "--help" in res.stderr
    assert cli("-V").stdout.startswith("unodsl ")


@pytest.mark.parametrize("command", ["check", "list", "play", "simulate", "test", "replay", "sheet"])
def test_help_describes_every_argument(command):
    from unodsl.front.cli import build_parser
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices[command]
    for action in sub._actions:
        assert action.help, f"{command} {action.option_strings or action.dest} has no help"
        if action.default not in (None, False) and action.option_strings and action.dest != "help":
            assert "default" in action.help, f"{command} {action.option_strings} does not say its default"
    text = cli(command, "--help").stdout
    assert "%%" not in text and "Traceback" not in text


def test_with_given_twice_adds_both_modules():
    """`--with a --with b` is `--with a,b`: the second module is not silently dropped."""
    twice = cli("simulate", "classic", "--with", "seven-o", "--with", "jump-in", "-n", "1", "--bots", "random",
                "--engine", "python")
    once = cli("simulate", "classic", "--with", "seven-o,jump-in", "-n", "1", "--bots", "random",
               "--engine", "python")
    assert twice.returncode == once.returncode == 0, twice.stderr
    assert "Classic UNO + seven-o, jump-in:" in twice.stdout
    assert twice.stdout.splitlines()[:-2] == once.stdout.splitlines()[:-2]      # (all but the times)


def test_sheet_to_standard_output_with_a_dash(tmp_path):
    res = cli("sheet", "classic", "--format", "md", "-o", "-", cwd=tmp_path)
    assert res.returncode == 0 and res.stdout.startswith("# Classic UNO")
    assert not (tmp_path / "-").exists()


def test_check_reads_standard_input_and_never_echoes_control_bytes():
    rules = 'ruleset mine "Mine \x1b[2J" extends classic {\n  colurs { red R }  # \x1b]0;pwned\x07\n}\n'
    res = cli("check", "-", stdin=rules)
    assert res.returncode == 1
    assert "<stdin>:2:3: error[E101]" in res.stdout
    assert "\x1b" not in res.stdout and "\x07" not in res.stdout and "\\x1b" in res.stdout
    assert cli("check", "-", stdin='ruleset mine "Mine" extends classic { }\n').stdout == "<stdin>: ok\n"


def test_output_piped_into_head_ends_quietly():
    res = subprocess.run(f"{sys.executable} -m unodsl sheet classic --format md | head -1", shell=True,
                         capture_output=True, text=True, timeout=60)
    assert res.stdout == "# Classic UNO\n" and res.stderr == ""


def test_compare_as_csv_and_json_with_integer_counts():
    res = cli("simulate", "--compare", "classic", "classic+progressive", "-n", "6", "--players", "3", "--format", "csv")
    lines = res.stdout.splitlines()
    assert res.returncode == 0 and lines[0].startswith("a,b,players,bots,seed,games,statistic")
    assert any(",win_share_p3," in line for line in lines)
    single = json.loads(cli("simulate", "classic", "-n", "4", "--players", "3", "--format", "json").stdout)
    assert single["games"] == 4 and single["stalemates"] == 0
    assert all(isinstance(w["wins"], int) for w in single["wins_by_seat"])


def test_identical_games_compare_with_a_zero_width_interval():
    res = cli("simulate", "--compare", "classic", "classic", "-n", "8", "--players", "3", "--format", "json")
    out = json.loads(res.stdout)
    rows = [out[k] for k in ("turns", "rounds", "points", "drawn", "reshuffles")] + out["wins"]
    assert all(r["difference"] == 0 and r["ci95"] == [0, 0] for r in rows)
    assert [w["seats"] for w in out["wins"]] == ["p1", "p2", "p3"]


def test_wilson_intervals_do_not_collapse_at_small_counts():
    lo, hi = wilson(1.0, 3)
    assert 0.4 < lo < 0.5 and hi == 1.0
    lo, hi = wilson(0.0, 3)
    assert lo == 0.0 and 0.5 < hi < 0.6
    lo, hi = wilson(0.25, 1000)
    assert lo < 0.25 < hi and hi - lo < 0.06


def test_a_paired_interval_sees_a_constant_difference_exactly():
    a, b, d = Sums(), Sums(), Sums()
    for value in (500, 700, 300, 900, 450):          # games of very different lengths, B always 3 longer
        a.add(value)
        b.add(value + 3)
        d.add(3)
    assert d.interval(5) == (3.0, 3.0)
    a_lo, a_hi = a.interval(5)
    assert a_hi - a_lo > 300                          # unpaired, the same games look like noise


def test_a_seat_past_pythons_digit_limit_is_not_a_player():
    with pytest.raises(ActionSyntaxError, match="not a player"):
        parse_seat("p" + "9" * 5000, 4)


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry.name))
    return out


def _default_ctrl_c():
    """In the child before it starts: Ctrl-C as a terminal delivers it (a test runner's worker
    may ignore SIGINT, and a program started with it ignored keeps ignoring it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start_long_simulation():
    proc = subprocess.Popen([sys.executable, "-m", "unodsl", "simulate", "classic", "-n", "1000000", "--jobs", "2",
                             "--bots", "random"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=_default_ctrl_c)
    deadline = time.monotonic() + 30
    while len(_children(proc.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1.0)                          # the workers are playing
    return proc


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the workers through /proc")
def test_ctrl_c_with_jobs_stops_every_worker_at_once():
    proc = _start_long_simulation()
    workers = _children(proc.pid)
    assert len(workers) >= 2
    start = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)        # as a terminal does: the whole process group
    try:
        _, err = proc.communicate(timeout=20)
    finally:                                  # a failed test leaves nothing running
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err
    assert time.monotonic() - start < 5
    assert not [w for w in workers if Path(f"/proc/{w}").exists()]


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the workers through /proc")
def test_a_killed_worker_is_named():
    proc = _start_long_simulation()
    victim = sorted(_children(proc.pid))[0]
    os.kill(victim, signal.SIGKILL)
    try:
        _, err = proc.communicate(timeout=20)
    finally:                                  # a failed test leaves nothing running
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 1
    assert f"(process {victim}) was killed by signal 9 while playing games" in err
    assert "internal error" not in err and "Traceback" not in err


ESCAPES = 'ruleset esc "Evil \x1b[2J\x1b]0;x\x07 Title" extends classic {\n  about "About \x1b[31mred\x1b[0m."\n}\n'


@pytest.mark.parametrize("command", [("sheet", "--format", "md"), ("play", "--players", "2", "--seed", "1")])
def test_titles_and_texts_never_reach_the_terminal_raw(tmp_path, command):
    rules = tmp_path / "esc.uno"
    rules.write_text(ESCAPES, encoding="utf-8")
    res = cli(command[0], str(rules), *command[1:])
    assert res.returncode == 0, res.stderr
    assert "Title" in res.stdout
    assert not any(c in res.stdout + res.stderr for c in "\x1b\x07")
