"""The benchmark's bot: random play exactly as the reference loop plays it.

unodsl's own random bot (`unodsl.engine.bots.RandomBot`) plays a different game from the
hand-written reference loop (`../shared/bench/minimal_uno.py`, described in `bench_engine.py`),
in three ways:

- it may bluff: classic lets a Wild Draw Four be played while holding the current color (it can
  then be challenged), and the random bot plays it as readily as any card; the reference loop
  plays it only when it is honest;
- it answers a question at random, so it challenges half of the Wild Draw Fours it faces; the
  reference loop has no challenge;
- it picks uniformly among the *kinds* of card it may play, where the reference picks uniformly
  among the *cards in hand* (two Red 5s are twice as likely as one Green 2).

Over 100,000 games that makes unodsl's classic about 2.6 turns longer than the reference's.
`ReferencePolicy` plays as the reference does: uniformly among the playable cards in hand,
counted with repeats, leaving out every play the rules' `honest` condition calls a bluff; a
color uniformly; a question always answered with its last answer (classic asks "challenge or
accept", the challenge first); never out of turn. With it, the two agree within a standard error
(`python bench/bench_engine.py --agreement 100000`).
"""
from __future__ import annotations

import random


class ReferencePolicy:
    """A bot for `Game`: random play with no bluff and no challenge, weighted by the hand."""

    name = "reference"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, game, actions: list):
        rand = self.rng.random
        d = game.decision
        plays = [a for a in actions if a.verb == "play" and game.would_be_honest(a.seat, a.card) is not False]
        if plays:
            playable = {a.card for a in plays}
            hand = [c for c in game.hands[d.seat] if c in playable] or sorted(playable)
            card = hand[int(rand() * len(hand))]
            variants = [a for a in plays if a.card == card]
            return variants[int(rand() * len(variants))]
        if d.kind == "answer":
            return actions[-1]
        others = [a for a in actions if a.verb != "play"] or actions
        return others[int(rand() * len(others))]

    def out_of_turn(self, game, seat: int):
        return None


def play_round(rules, players: int, seed: int):
    """One round between reference-policy bots, with no event log; the finished game."""
    from unodsl.engine import Game
    rng = random.Random(seed)
    bots = [ReferencePolicy(rng) for _ in range(players)]
    game = Game(rules, players, seed=seed, record=False, rng=rng)
    while not game.round_over and game.decision is not None:
        d = game.decision
        if d.kind == "deal":
            break
        if d.seat is None:
            options = game.legal_actions()
            game.apply_trusted(options[int(rng.random() * len(options))])
            continue
        game.apply_trusted(bots[d.seat].choose(game, game.legal_actions()))
    return game
