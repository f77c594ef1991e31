"""Event logs: a game written as JSON lines, and replayed to prove it reproduces.

The first line says how to rebuild the game (ruleset, modules, options, players, seed); then one
line per event, the actions among them; the last line holds a digest of the final state, the
number of lines before it and a hash of their text. Because a game owns its seeded generator,
applying the same actions to the same start gives the same game, and `replay` checks exactly
that, and more: the log must be whole (its final line is there, and no line was cut, added or
changed, the header included), and the replayed game must log the same events, line for line.
A log that passes could only have been written by that game.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable

from .. import __version__
from ..compile.decisions import Refused
from ..compile.loader import load
from ..lang.files import InputError, strict_json
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


MAX_LOG_BYTES = 50_000_000


def text(ref: str, with_, options: dict, game: Game) -> str:
    """The whole log of a game, as the text of its file."""
    lines = [json.dumps(header(ref, with_, options, game))] + [json.dumps(ev) for ev in event_lines(game)]
    final = {"final": digest(game), "lines": len(lines), "sha256": _hash(lines)}
    return "\n".join(lines + [json.dumps(final)]) + "\n"


def write(stream, ref: str, with_, options: dict, game: Game) -> None:
    stream.write(text(ref, with_, options, game))


def _hash(lines: Iterable[str]) -> str:
    h = hashlib.sha256()
    for line in lines:
        h.update(line.encode("utf-8") + b"\n")
    return h.hexdigest()


class ReplayError(Exception):
    """The log cannot be replayed: malformed, from another ruleset, or it diverges."""


def replay(lines) -> Game:
    """Rebuild a game from a log's lines; raise ReplayError if anything does not match."""
    lines = [line for line in lines]
    numbered = [(n, line) for n, line in enumerate(lines, start=1) if line.strip()]
    records = []
    for n, line in numbered:
        try:
            records.append((n, strict_json(line, f"line {n}")))
        except InputError as err:
            raise ReplayError(str(err)) from None
    if not records or not isinstance(records[0][1], dict) or "ruleset" not in records[0][1]:
        raise ReplayError("line 1: not an unodsl event log (no header with `ruleset`)")
    last_n, last = records[-1]
    if not isinstance(last, dict) or "final" not in last:
        raise ReplayError(f"the log has no final line (line {last_n} is an event): it was cut short, "
                          "or the game was stopped before its log was written")
    body = [line for n, line in numbered[:-1]]
    if last.get("lines") != len(body) or last.get("sha256") != _hash(body):
        raise ReplayError(f"line {last_n}: the log was changed after it was written: its lines do not match "
                          "its final line (a line cut, added or edited, the header included)")
    head = records[0][1]
    try:
        players = head["players"]
        if not isinstance(players, int) or isinstance(players, bool):
            raise TypeError("`players` is not a whole number")
        with_ = head.get("with") or []
        options = head.get("options") or {}
        if not isinstance(with_, list) or not all(isinstance(m, str) for m in with_):
            raise TypeError("`with` is not a list of names")
        if not isinstance(options, dict):
            raise TypeError("`options` is not a mapping")
        rules = load(str(head["ruleset"]), tuple(with_), dict(options))
        game = Game(rules, players, seed=head.get("seed"))
    except Exception as err:          # a log names what to load: any failure is the log's fault
        raise ReplayError(f"line 1: cannot rebuild the game: {err}") from None
    answers = answer_words(rules)
    for n, rec in records[1:-1]:
        if not isinstance(rec, dict):
            raise ReplayError(f"line {n}: expected an object")
        if rec.get("e") == "action":
            seat_word, action_text = rec.get("seat"), rec.get("action")
            if not (seat_word is None or isinstance(seat_word, str)) or not isinstance(action_text, str):
                raise ReplayError(f"line {n}: an action has a seat (p1, p2 ...) and a move in words")
            try:
                seat = parse_seat(seat_word, game.n) if seat_word is not None else None
                action = parse_action(rules, seat, action_text, game.n, answers)
                game.apply(action)
            except (ActionSyntaxError, Refused) as err:
                raise ReplayError(f"line {n}: {action_text!r} by {seat_word}: {err}") from None
    replayed = [json.loads(json.dumps(ev)) for ev in event_lines(game)]
    logged = [rec for _, rec in records[1:-1]]
    for (n, _), want, got in zip(records[1:-1], logged, replayed):
        if want != got:
            raise ReplayError(f"line {n}: the log says {json.dumps(want)}, the replayed game {json.dumps(got)}")
    if len(logged) != len(replayed):
        raise ReplayError(f"the log holds {len(logged)} events, the replayed game {len(replayed)}")
    if last["final"] != digest(game):
        raise ReplayError(f"the replayed game ends in state {digest(game)}, the log says {last['final']}")
    return game
