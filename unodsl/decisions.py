"""Decisions and actions: the only way anyone (a person, a bot, a scenario) moves a game on.

The engine stops at a `Decision` (who must act, what kind of answer, which answers exist) and
resumes when it is given an `Action`. Out-of-turn actions (saying UNO, catching) are actions too;
they are legal whenever a window the rules opened lets that seat take them.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Decision:
    seat: int | None           # None: nobody in particular (the next round waits to be dealt)
    kind: str                  # turn, drawn, color, seat, answer, deal
    options: tuple = ()        # colors, seats or answer names, by kind
    prompt: str = ""
    card: int | None = None    # the drawn card, for kind "drawn"
    must: bool = False         # a drawn card that must be played


@dataclass(frozen=True)
class Action:
    seat: int
    verb: str                  # play, draw, keep, choose, deal, or an answer / window verb
    card: int | None = None
    color: str | None = None
    target: int | None = None
    answer: str | None = None  # for choose: a color name, seat, or answer name as typed
    uno: bool = False          # `play X uno`: say UNO with the play


class Refused(Exception):
    """The rules do not allow this action now. The game state is unchanged."""
