"""Saved games: `unodsl play --save FILE` and `--resume FILE`.

A save holds how to rebuild the game (ruleset, modules, options, players, seed), every action so
far, the random states of the bots, and a digest of the state. Resuming replays the actions on a
new game from the same seed, checks the digest, and hands the bots their saved random states, so
the resumed game goes on exactly as the interrupted one would have. A save is written to a
temporary file and renamed over the old one, so a kill at any moment leaves the last whole save.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..compile.decisions import Refused
from ..compile.loader import load
from ..lang.files import InputError, atomic_write, read_text, strict_json
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


_MT_WORDS = 624         # the size of the Mersenne Twister's state, plus its position


def _state_from_json(data, name: str):
    """A random generator's state as `random.getstate()` gives it, checked word by word."""
    damaged = SaveError(f"the random state `{name}` in the save is damaged")
    if not isinstance(data, list) or len(data) != 3:
        raise damaged
    version, internal, gauss = data
    if version != 3 or not isinstance(internal, list) or len(internal) != _MT_WORDS + 1:
        raise damaged
    if not all(isinstance(w, int) and not isinstance(w, bool) and 0 <= w < 2 ** 32 for w in internal):
        raise damaged
    if not 1 <= internal[-1] <= _MT_WORDS or (gauss is not None and not isinstance(gauss, float)):
        raise damaged
    return (3, tuple(internal), gauss)


def write(path, saved: Saved) -> None:
    """Write atomically: a temporary file in the same folder, flushed, then renamed; Ctrl-C or
    an error at any moment leaves the previous save and no temporary file."""
    doc = {"format": FORMAT, "version": VERSION, "ruleset": saved.ref, "with": saved.with_,
           "options": saved.options, "players": saved.players, "seed": saved.seed,
           "humans": saved.humans, "bot": saved.bot, "actions": saved.actions,
           "rng": {k: _state_to_json(v) for k, v in saved.rng_states.items()}, "digest": saved.digest}
    atomic_write(path, json.dumps(doc))


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read(path) -> Saved:
    """A save as written by `write`, or SaveError saying what in it is wrong."""
    path = Path(path)
    try:
        text = read_text(path, MAX_SAVE_BYTES, "saved game")
    except InputError as err:
        raise SaveError(str(err)) from None
    try:
        doc = strict_json(text, str(path))
    except InputError as err:
        raise SaveError(f"{path} is not a saved game: {err.reason}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SaveError(f"{path} is not an unodsl saved game")
    if doc.get("version") != VERSION:
        raise SaveError(f"{path} was saved by another version of unodsl (save format {doc.get('version')})")
    missing = [k for k in ("ruleset", "with", "options", "players", "seed", "humans", "bot", "actions", "rng",
                           "digest") if k not in doc]
    if missing:
        raise SaveError(f"{path} is damaged: it has no `{missing[0]}`")

    def wrong(field: str, should: str):
        return SaveError(f"{path} is damaged: `{field}` should be {should}")
    if not isinstance(doc["ruleset"], str):
        raise wrong("ruleset", "a ruleset name or path")
    if not isinstance(doc["with"], list) or not all(isinstance(m, str) for m in doc["with"]):
        raise wrong("with", "a list of module names")
    if not isinstance(doc["options"], dict) or not all(
            isinstance(v, (str, int, bool)) and not isinstance(v, float) for v in doc["options"].values()):
        raise wrong("options", "a mapping of option names to values")
    players = doc["players"]
    if not _is_int(players) or not 1 <= players <= 100:
        raise wrong("players", "a number of players")
    if not (_is_int(doc["seed"]) or isinstance(doc["seed"], str)):
        raise wrong("seed", "a whole number")
    humans = doc["humans"]
    if not isinstance(humans, list) or not all(_is_int(s) and 0 <= s < players for s in humans):
        raise wrong("humans", f"a list of seats, numbered 0 to {players - 1}")
    if not isinstance(doc["bot"], str):
        raise wrong("bot", "the name of a bot")
    actions = doc["actions"]
    if not isinstance(actions, list) or not all(
            isinstance(a, list) and len(a) == 2 and (a[0] is None or isinstance(a[0], str)) and isinstance(a[1], str)
            for a in actions):
        raise wrong("actions", 'a list of moves, each [seat, move] like ["p1", "play R5"]')
    if not isinstance(doc["rng"], dict):
        raise wrong("rng", "the random states of the bots")
    if not isinstance(doc["digest"], str):
        raise wrong("digest", "the digest of the saved state")
    return Saved(doc["ruleset"], list(doc["with"]), dict(doc["options"]), players, doc["seed"], list(humans),
                 doc["bot"], [list(a) for a in actions],
                 {str(k): _state_from_json(v, str(k)) for k, v in doc["rng"].items()}, doc["digest"])


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
