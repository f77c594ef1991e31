"""Saving and resuming: a game killed at any move and resumed is the game that was not killed."""
from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from unodsl.compile.loader import load
from unodsl.engine import savegame
from unodsl.engine.eventlog import digest
from unodsl.front.play import Session


class Killed(Exception):
    """Stands for the process being killed right after a save."""


def _session(rules, save_path, seed, kill_after=None, ref=("classic", [], {})):
    session = Session(rules, 3, [], "basic", seed, io.StringIO(), io.StringIO(), str(save_path), ref)
    if kill_after is not None:
        saves = {"n": 0}
        original = session.save

        def save_then_maybe_die():
            original()
            saves["n"] += 1
            if saves["n"] == kill_after:
                raise Killed()
        session.save = save_then_maybe_die
    return session


@pytest.mark.parametrize("ruleset", ["classic", "killer"])
def test_killed_at_any_move_and_resumed_is_the_same_game(tmp_path, ruleset):
    short = {"target": 100}                    # short games: every save rewrites the whole game
    rules = load(ruleset, options=short)
    whole = _session(rules, tmp_path / "whole.json", seed=21, ref=(ruleset, [], short))
    saves = {"n": 0}
    counted = whole.save

    def count():
        counted()
        saves["n"] += 1
    whole.save = count
    whole.run()
    expected = digest(whole.game)
    moves = saves["n"]
    for kill_after in sorted({1, 2, 3, moves // 4, moves // 2, moves - 5}):
        path = tmp_path / f"cut{kill_after}.json"
        cut = _session(rules, path, seed=21, kill_after=kill_after, ref=(ruleset, [], short))
        with pytest.raises(Killed):
            cut.run()
        saved = savegame.read(path)
        resumed = Session.resumed(saved, io.StringIO(), io.StringIO(), str(path))
        resumed.run()
        assert digest(resumed.game) == expected, f"differs after a kill at save {kill_after}"
        assert resumed.game.log == whole.game.log


def test_save_is_replaced_atomically(tmp_path):
    rules = load("classic")
    path = tmp_path / "g.json"
    session = _session(rules, path, seed=3, kill_after=4)
    with pytest.raises(Killed):
        session.run()
    assert json.loads(path.read_text())["format"] == "unodsl-save"
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]     # no temporary file left behind


def test_corrupt_and_foreign_saves_are_refused(tmp_path):
    rules = load("classic")
    good = tmp_path / "good.json"
    session = _session(rules, good, seed=5, kill_after=6)
    with pytest.raises(Killed):
        session.run()
    text = good.read_text()
    cases = {
        "truncated.json": text[: len(text) // 2],
        "foreign.json": json.dumps({"hello": "world"}),
        "binary.json": "\x00\xff garbage",
        "future.json": text.replace('"version": 1', '"version": 99'),
        "tampered.json": text.replace('"digest": "', '"digest": "00'),
        "unknown-ruleset.json": text.replace('"ruleset": "classic"', '"ruleset": "no-such-rules"'),
    }
    for name, content in cases.items():
        path = tmp_path / name
        path.write_text(content, encoding="utf-8", errors="surrogateescape")
        with pytest.raises(savegame.SaveError):
            saved = savegame.read(path)
            savegame.rebuild(saved)
    res = subprocess.run([sys.executable, "-m", "unodsl", "play", "--resume", str(tmp_path / "foreign.json")],
                         capture_output=True, text=True, input="")
    assert res.returncode == 2 and "not an unodsl saved game" in res.stderr and "Traceback" not in res.stderr


def test_resume_from_the_command_line_continues_the_game(tmp_path):
    path = tmp_path / "cli.json"
    first = subprocess.run([sys.executable, "-m", "unodsl", "play", "classic", "--players", "3", "--seed", "8",
                            "--save", str(path)], capture_output=True, text=True, input="draw\n")
    assert first.returncode == 0
    moves_before = len(json.loads(path.read_text())["actions"])
    assert moves_before >= 1
    second = subprocess.run([sys.executable, "-m", "unodsl", "play", "--resume", str(path)],
                            capture_output=True, text=True, input="hand\nquit\n")
    assert second.returncode == 0 and "Resumed the saved game" in second.stdout
    assert len(json.loads(path.read_text())["actions"]) >= moves_before
