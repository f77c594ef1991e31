"""Decisions and actions: the only way anyone (a person, a bot, a scenario) moves a game on.

The engine stops at a `Decision` (who must act, what kind of answer, which answers exist) and
resumes when it is given an `Action`. Out-of-turn actions (saying UNO, catching) are actions too;
they are legal whenever a window the rules opened lets that seat take them.
"""
from __future__ import annotations

from typing import NamedTuple, Optional

# Both are named tuples rather than dataclasses: a simulated game creates millions of them, and a
# tuple is several times cheaper to build while being just as immutable.


class Decision(NamedTuple):
    seat: Optional[int]        # None: the table (a race, a chance, the next deal), not one seat
    kind: str                  # turn, drawn, more, color, seat, card, answer, race, number, deal
    options: tuple = ()        # colors, seats, cards, answer names or numbers, by kind
    prompt: str = ""
    card: Optional[int] = None  # the drawn card, for kind "drawn"
    must: bool = False         # a drawn card that must be played
    optional: bool = False     # a choice the seat may decline (`pass`): `WHO may choose`, `may pick`


class Action(NamedTuple):
    seat: Optional[int]
    verb: str                  # play, draw, keep, pass, choose, deal, or an answer / window verb
    card: Optional[int] = None
    color: Optional[str] = None
    target: Optional[int] = None
    answer: Optional[str] = None  # for choose: a color name, seat, card code or answer as typed
    call: Optional[str] = None  # `play X VERB`: the player's own call (a window verb) said with the play
    more: tuple = ()           # a run (`play runs where`): the cards played after `card`, in order


class Refused(Exception):
    """The rules do not allow this action now. The game state is unchanged."""
