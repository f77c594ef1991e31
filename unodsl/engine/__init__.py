"""The engine: a `Game` of any compiled ruleset, from the first deal to its end.

`game` drives a game (decisions in, actions out); the Game's other jobs live in their own modules
and are mixed into it: `table` (hands, the stock and the discard pile), `seats` (the order of
play), `flow` (rounds and turns), `windows` (out-of-turn actions), `scoring`, `legal` (what may be
done) and `views` (what a seat may see: `view`, `events_for`, `determinize`). Beside it: `events` (every kind of event a game logs),
`actions` (moves as people type them), `bots`, `eventlog` (logs that replay) and `savegame`.

May import: unodsl.compile, unodsl.lang.
"""
from .game import Game, Position, seat_name

__all__ = ["Game", "Position", "seat_name"]
