"""The engine: a `Game` of any compiled ruleset, from the first deal to its end.

`game` drives a game (decisions in, actions out) and checks every action; the Game's other jobs
live in their own modules and are mixed into it: `table` (hands, the stock and the discard
pile, seats and the order of play), `flow` (rounds and turns), `windows` (out-of-turn actions)
and `scoring`. Beside it: `actions` (moves as people type them), `bots`, `eventlog` (logs that
replay) and `savegame`.

May import: unodsl.compile, unodsl.lang.
"""
from .game import Game, Position, seat_name

__all__ = ["Game", "Position", "seat_name"]
