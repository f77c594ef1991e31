"""Event logs and saves that lie or break: every cut, edit and hand-made damage is refused with a
message; an interrupted session leaves whole moves, a log that replays and no temporary file."""
from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys

import pytest

from unodsl.compile.loader import load
from unodsl.engine import eventlog, savegame
from unodsl.engine.eventlog import ReplayError, replay
from unodsl.engine.game import Game
from unodsl.engine.savegame import SaveError
from unodsl.front.play import play_session
from unodsl.sim.simulate import play_game


@pytest.fixture(scope="module")
def log_lines():
    game = play_game(load("classic"), 3, 5, "basic", rounds=1)
    return eventlog.text("classic", [], {}, game).splitlines()


def rehash(lines):
    """The lines with their final line made to match them again, as a forger would."""
    body = lines[:-1]
    final = json.loads(lines[-1])
    return body + [json.dumps({**final, "lines": len(body), "sha256": eventlog._hash(body)})]


def test_a_whole_log_replays(log_lines):
    assert replay(log_lines).turns > 0


def test_a_log_cut_at_any_line_boundary_does_not_replay(log_lines):
    for cut in range(1, len(log_lines)):
        with pytest.raises(ReplayError):
            replay(log_lines[:cut])


def test_a_log_missing_a_line_in_the_middle_does_not_replay(log_lines):
    for gone in (1, len(log_lines) // 2, len(log_lines) - 2):
        with pytest.raises(ReplayError, match="changed after it was written"):
            replay(log_lines[:gone] + log_lines[gone + 1:])


def test_a_header_with_a_module_added_does_not_replay(log_lines):
    head = json.loads(log_lines[0])
    forged = [json.dumps({**head, "with": ["progressive"]})] + log_lines[1:]
    with pytest.raises(ReplayError, match="changed after it was written"):
        replay(forged)
    with pytest.raises(ReplayError):                # even with the hash made to match again
        replay(rehash(forged))


def test_an_edited_event_with_a_matching_hash_still_does_not_replay(log_lines):
    n = next(i for i, line in enumerate(log_lines) if json.loads(line).get("e") == "draw")
    ev = json.loads(log_lines[n])
    lines = list(log_lines)
    lines[n] = json.dumps({**ev, "count": ev["count"] + 1})
    with pytest.raises(ReplayError, match=f"line {n + 1}: the log says"):
        replay(rehash(lines))


@pytest.mark.parametrize("seat", [3, ["p1"], {"p": 1}, True])
def test_a_seat_that_is_not_a_word_is_refused(log_lines, seat):
    n = next(i for i, line in enumerate(log_lines) if json.loads(line).get("e") == "action")
    lines = list(log_lines)
    lines[n] = json.dumps({**json.loads(lines[n]), "seat": seat})
    with pytest.raises(ReplayError, match="a seat"):
        replay(rehash(lines))


@pytest.mark.parametrize("line, words", [
    ('{"e": "draw", "count": Infinity}', "Infinity"),
    ("[" * 100_000 + "]" * 100_000, "nested"),
    ('{"e": "draw", "count": ' + "9" * 5000 + "}", "digits"),
])
def test_hand_made_damage_is_refused_with_a_message(log_lines, line, words):
    with pytest.raises(ReplayError, match=words):
        replay(log_lines[:2] + [line] + log_lines[2:])


def cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "unodsl", *args], capture_output=True, text=True, input=stdin,
                          timeout=60)


def test_replay_refuses_what_is_not_a_log_file(tmp_path):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    for path, words in ((fifo, "a pipe"), ("/dev/zero", "a device"), (tmp_path, "a directory")):
        res = cli("replay", str(path))
        assert res.returncode == 2 and words in res.stderr, res.stderr
    binary = tmp_path / "bin.jsonl"
    binary.write_bytes(b"\x00\xff\xfe binary")
    replayed, checked = cli("replay", str(binary)), cli("check", str(binary))
    assert replayed.returncode == checked.returncode == 2
    assert replayed.stderr.removeprefix("unodsl replay: ") == checked.stderr.removeprefix("unodsl check: ")
    assert "not UTF-8 text" in replayed.stderr


def test_replay_reads_standard_input(log_lines):
    res = cli("replay", "-", stdin="\n".join(log_lines) + "\n")
    assert res.returncode == 0 and "matches" in res.stdout


# ---- saves edited by hand --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def save_doc(tmp_path_factory):
    path = tmp_path_factory.mktemp("save") / "game.json"
    session_input = io.StringIO("draw\n" * 3)
    play_session(load("classic"), 3, [0], "basic", 4, session_input, io.StringIO(), save_path=str(path))
    return json.loads(path.read_text())


@pytest.mark.parametrize("edit, words", [
    (lambda d: d["actions"].__setitem__(0, [3, "draw"]), "actions"),
    (lambda d: d["actions"].__setitem__(0, [["p1"], "draw"]), "actions"),
    (lambda d: d.__setitem__("humans", ["p1"]), "humans"),
    (lambda d: d.__setitem__("players", "3"), "players"),
    (lambda d: d["rng"]["p2"][1].__setitem__(0, -1), "random state `p2`"),
    (lambda d: d["rng"]["p2"][1].__setitem__(0, 2 ** 40), "random state `p2`"),
    (lambda d: d["rng"]["p2"][1].__setitem__(-1, 10 ** 6), "random state `p2`"),
    (lambda d: d["rng"].__setitem__("p2", [3, [1, 2], None]), "random state `p2`"),
    (lambda d: d.pop("digest"), "digest"),
])
def test_a_hand_edited_save_is_refused_saying_what_is_wrong(tmp_path, save_doc, edit, words):
    doc = json.loads(json.dumps(save_doc))
    edit(doc)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(SaveError, match=words):
        savegame.rebuild(savegame.read(path))
    res = cli("play", "--resume", str(path))
    assert res.returncode == 2 and "Traceback" not in res.stderr + res.stdout


@pytest.mark.parametrize("text, words", [
    ('{"format": "unodsl-save", "version": Infinity}', "Infinity"),
    ("[" * 50_000 + "]" * 50_000, "nested"),
])
def test_a_save_that_is_not_json_as_written_is_refused(tmp_path, text, words):
    path = tmp_path / "game.json"
    path.write_text(text)
    with pytest.raises(SaveError, match=words):
        savegame.read(path)


# ---- interrupted sessions --------------------------------------------------------------------------

def test_ctrl_c_in_the_middle_of_a_bots_move_leaves_whole_moves(tmp_path, monkeypatch):
    """The interrupt arrives while the engine is inside a move (as an event is logged): the move
    is finished, saved and logged whole, and the session then stops with exit code 130."""
    plays = []
    real_event = Game.event

    def interrupted_event(self, kind, **data):
        real_event(self, kind, **data)
        if kind == "play":
            plays.append(1)
            if len(plays) == 6:
                os.kill(os.getpid(), signal.SIGINT)
    monkeypatch.setattr(Game, "event", interrupted_event)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)   # a test runner may ignore it
    save, log = tmp_path / "game.json", tmp_path / "game.jsonl"
    try:
        rc = play_session(load("classic"), 4, [], "basic", 3, io.StringIO(), io.StringIO(),
                          log_path=str(log), save_path=str(save), ref=("classic", [], {}))
    finally:
        signal.signal(signal.SIGINT, previous)
    monkeypatch.setattr(Game, "event", real_event)
    assert rc == 130
    game = replay(log.read_text().splitlines())
    resumed = savegame.rebuild(savegame.read(save))
    assert resumed.log == game.log and len(game.log) >= 6
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "game.jsonl"]


def test_an_interrupted_save_leaves_the_old_save_and_no_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    path.write_text("the old save")

    def interrupted_fsync(fd):
        raise KeyboardInterrupt
    monkeypatch.setattr(os, "fsync", interrupted_fsync)
    with pytest.raises(KeyboardInterrupt):
        savegame.write(path, savegame.Saved("classic", [], {}, 2, 1, [0], "basic", [], {}, "x"))
    assert path.read_text() == "the old save"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
