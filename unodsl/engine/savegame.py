"""Saved games: `unodsl play --save FILE` and `--resume FILE`.

A save holds how to rebuild the game (ruleset, modules, options, players, seed), every action so
far, the random states of the bots, and a digest of the state. Resuming replays the actions on a
new game from the same seed, checks the digest, and hands the bots their saved random states, so
the resumed game goes on exactly as the interrupted one would have. A save is written to a
temporary file and renamed over the old one, so a kill at any moment leaves the last whole save.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from ..compile.decisions import Refused
from ..compile.loader import load
from ..lang.files import InputError
from .actions import ActionSyntaxError, answer_words, parse_action, parse_seat
from .eventlog import digest
from .game import Game

FORMAT = "unodsl-save"
VERSION = 1
MAX_SAVE_BYTES = 20_000_000


class SaveError(InputError):
    """The file is not a save this version can resume; the message says why."""


@dataclass
class Saved:
    ref: str
    with_: list
    options: dict
    players: int
    seed: object
    humans: list
    bot: str
    actions: list            # [seat or None, action text]
    rng_states: dict         # name -> random state, as saved
    digest: str


def _state_to_json(state):
    version, internal, gauss = state
    return [version, list(internal), gauss]


def _state_from_json(data):
    try:
        version, internal, gauss = data
        return (int(version), tuple(int(x) for x in internal), gauss)
    except (TypeError, ValueError):
        raise SaveError("a random state in the save is damaged") from None


def write(path, saved: Saved) -> None:
    """Write atomically: a temporary file in the same folder, flushed, then renamed."""
    path = Path(path)
    doc = {"format": FORMAT, "version": VERSION, "ruleset": saved.ref, "with": saved.with_,
           "options": saved.options, "players": saved.players, "seed": saved.seed,
           "humans": saved.humans, "bot": saved.bot, "actions": saved.actions,
           "rng": {k: _state_to_json(v) for k, v in saved.rng_states.items()}, "digest": saved.digest}
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(doc, fh)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def read(path) -> Saved:
    path = Path(path)
    try:
        if path.stat().st_size > MAX_SAVE_BYTES:
            raise SaveError(f"{path} is larger than a save can be ({MAX_SAVE_BYTES} bytes)")
        doc = json.loads(path.read_bytes().decode("utf-8"))
    except OSError as err:
        raise SaveError(f"cannot read {path}: {err.strerror}") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise SaveError(f"{path} is not a saved game (not JSON text)") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SaveError(f"{path} is not an unodsl saved game")
    if doc.get("version") != VERSION:
        raise SaveError(f"{path} was saved by another version of unodsl (save format {doc.get('version')})")
    try:
        return Saved(str(doc["ruleset"]), list(doc["with"]), dict(doc["options"]), int(doc["players"]),
                     doc["seed"], [int(s) for s in doc["humans"]], str(doc["bot"]),
                     [list(a) for a in doc["actions"]],
                     {k: _state_from_json(v) for k, v in dict(doc["rng"]).items()}, str(doc["digest"]))
    except (KeyError, TypeError, ValueError):
        raise SaveError(f"{path} is damaged: a field is missing or has the wrong type") from None


def rebuild(saved: Saved) -> Game:
    """The game as it was when saved, or SaveError if the save does not replay."""
    try:
        rules = load(saved.ref, tuple(saved.with_), saved.options)
        game = Game(rules, saved.players, seed=saved.seed)
    except Exception as err:       # whatever the save names must load; if not, the save is at fault
        raise SaveError(f"the saved game cannot be rebuilt: {err}") from None
    answers = answer_words(rules)
    for n, item in enumerate(saved.actions, start=1):
        try:
            seat_word, text = item
            seat = parse_seat(seat_word, game.n) if seat_word is not None else None
            game.apply(parse_action(rules, seat, str(text), game.n, answers))
        except (ActionSyntaxError, Refused, ValueError, TypeError) as err:
            raise SaveError(f"the saved game does not replay at move {n} ({item!r}): {err}") from None
    if digest(game) != saved.digest:
        raise SaveError("the saved game replays to a different state than the one saved")
    return game


def actions_of(game: Game) -> list:
    return [[None if seat is None else f"p{seat + 1}", text] for seat, text in game.log]
