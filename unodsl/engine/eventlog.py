"""Event logs: a game written as JSON lines, and replayed to prove it reproduces.

The first line says how to rebuild the game (ruleset, modules, options, players, seed); then one
line per event, the actions among them; the last line holds a digest of the final state. Because
a game owns its seeded generator, applying the same actions to the same start gives the same
game, and `replay` checks exactly that.
"""
from __future__ import annotations

import hashlib
import json

from .. import __version__
from ..compile.decisions import Refused
from ..compile.loader import load
from .actions import ActionSyntaxError, answer_words, parse_action, parse_seat
from .game import Game


def digest(game: Game) -> str:
    code = game.rules.code
    state = {
        "hands": [[code(c) for c in h] for h in game.hands],
        "stock": [code(c) for c in game.stock],
        "discard": [code(c) for c in game.discard],
        "color": game.color, "direction": game.direction, "turn": game.turn,
        "scores": game.scores, "round": game.round, "game_over": game.game_over,
        "winners": game.game_winners,
    }
    return hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()[:16]


def header(ref: str, with_, options: dict, game: Game) -> dict:
    return {"unodsl": __version__, "ruleset": ref, "with": list(with_), "options": dict(options),
            "players": game.n, "seed": game.seed}


def _readable(game: Game, fields: dict) -> dict:
    code = game.rules.code
    out = {}
    for k, v in fields.items():
        if k == "card" and v is not None:
            v = code(v)
        elif k == "cards" and isinstance(v, list):
            v = [code(c) for c in v]
        elif k in ("seat", "subject", "dealer", "winner") and isinstance(v, int):
            v = f"p{v + 1}"
        elif k == "private":
            v = {f"p{s + 1}": _readable(game, part) for s, part in v.items()}
        out[k] = v
    return out


def event_lines(game: Game):
    """The log's events with cards as codes and seats as p1..pN; a log holds everything,
    the private parts of events included (a game's log is for its players to check afterwards)."""
    for ev in game.events:
        yield _readable(game, ev)


def write(stream, ref: str, with_, options: dict, game: Game) -> None:
    stream.write(json.dumps(header(ref, with_, options, game)) + "\n")
    for ev in event_lines(game):
        stream.write(json.dumps(ev) + "\n")
    stream.write(json.dumps({"final": digest(game)}) + "\n")


class ReplayError(Exception):
    """The log cannot be replayed: malformed, from another ruleset, or it diverges."""


def replay(lines) -> Game:
    """Rebuild a game from a log's lines; raise ReplayError if anything does not match."""
    records = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.append((n, json.loads(line)))
        except json.JSONDecodeError as err:
            raise ReplayError(f"line {n}: not JSON ({err.msg})") from None
    if not records or not isinstance(records[0][1], dict) or "ruleset" not in records[0][1]:
        raise ReplayError("line 1: not an unodsl event log (no header with `ruleset`)")
    head = records[0][1]
    try:
        rules = load(str(head["ruleset"]), tuple(head.get("with") or ()), dict(head.get("options") or {}))
        game = Game(rules, int(head["players"]), seed=head.get("seed"))
    except Exception as err:          # a log names what to load: any failure is the log's fault
        raise ReplayError(f"line 1: cannot rebuild the game: {err}") from None
    answers = answer_words(rules)
    final = None
    for n, rec in records[1:]:
        if not isinstance(rec, dict):
            raise ReplayError(f"line {n}: expected an object")
        if "final" in rec:
            final = rec["final"]
        elif rec.get("e") == "action":
            seat_word = rec.get("seat")
            try:
                seat = parse_seat(seat_word, game.n) if seat_word is not None else None
                action = parse_action(rules, seat, str(rec.get("action", "")), game.n, answers)
                game.apply(action)
            except (ActionSyntaxError, Refused) as err:
                raise ReplayError(f"line {n}: {rec.get('action')!r} by {seat_word}: {err}") from None
    if final is not None and final != digest(game):
        raise ReplayError(f"the replayed game ends in state {digest(game)}, the log says {final}")
    return game
