"""A bot written outside unodsl, as a plug-in: it plays its lowest-scoring card first.

A bot is a class built as `Bot(rng, **options)` with two methods (see unodsl.engine.bots):
`choose(game, actions)` returns one of `actions`, the legal actions of `game.decision`;
`out_of_turn(game, seat)` returns one of `game.window_actions(seat)` or None. It reads only what
its seat may see: its own hand (`game.hands[seat]`), `game.view(seat)`, the ruleset's facts.

Use it by import path wherever a bot is named (the folder on PYTHONPATH, or the module in an
installed package):

    PYTHONPATH=examples/bots unodsl tournament classic --bots lowest:LowestFirst,basic -n 200
    PYTHONPATH=examples/bots unodsl simulate classic --bots lowest:LowestFirst:greedy=no -n 100
    PYTHONPATH=examples/bots unodsl play classic --bots lowest:LowestFirst
    PYTHONPATH=examples/bots unodsl serve --bots lowest:LowestFirst     # offered in the lobby

Keep the generator as `self.rng` and draw every random choice from it: a saved terminal game and
a web table restore it, so a resumed game goes on as it would have.

or give it a short name from a package's entry points (pyproject.toml):

    [project.entry-points."unodsl.bots"]
    lowest = "lowest:LowestFirst"
"""
from __future__ import annotations


class LowestFirst:
    name = "lowest"

    def __init__(self, rng, greedy: str = "yes"):
        self.rng = rng
        self.greedy = greedy != "no"       # say its own window actions (UNO) and catch others

    def choose(self, game, actions):
        points = game.rules.cards.points
        plays = [a for a in actions if a.verb == "play"]
        if plays:
            return min(plays, key=lambda a: (points[a.card] or 0, plays.index(a)))
        return actions[int(self.rng.random() * len(actions))]

    def out_of_turn(self, game, seat):
        if not self.greedy:
            return None
        options = game.window_actions(seat)
        return options[0] if options else None
