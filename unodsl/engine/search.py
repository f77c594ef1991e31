"""A bot that searches: determinized Monte Carlo search through the engine.

At a turn with more than one thing to do, the bot runs iterations until its budget (a number of
iterations, or seconds) is spent. Each iteration deals the cards its seat cannot see anew at
random (engine.sample.sample_for: a world consistent with what the seat may see), picks one of
its actions by UCB1 (the action whose results so far, plus a bonus for being tried less, are
best), plays it in that world and then plays the round out as the random bot would (any card
that may be played, else anything); the iteration scores 1
when the seat's side goes out first. The action tried most often is played. Because every world
is played by the engine itself, the bot plays any ruleset, and it never sees a hidden card.

Decisions inside a turn (a color asked for later, an answer, a drawn card) and actions out of
turn are left to the basic bot, which weighs them by what the rules measurably do.
"""
from __future__ import annotations

import random
import time

from ..compile.decisions import Action
from .bots import BasicBot, closing_own_windows
from .game import Game
from .sample import can_fork, fork, sample_for

ROLLOUT_STEPS = 3000      # a played-out round longer than this counts as a loss


class SearchBot:
    """Determinized UCB1 search over the seat's turn actions, with random play-outs.

    iterations: worlds played per decision; seconds: a time budget instead (or as well: the
    first spent ends the search); explore: UCB1's exploration constant."""

    name = "search"

    def __init__(self, rng: random.Random, iterations: int = 12, seconds: float | None = None,
                 horizon: int = 8):
        if iterations < 1 and seconds is None:
            raise TypeError("give the search at least one iteration or a time budget")
        self.rng = rng
        self.iterations = int(iterations) if iterations >= 1 else 10 ** 9
        self.seconds = None if seconds is None else float(seconds)
        self.horizon = int(horizon)
        self.player = BasicBot(random.Random(0))      # plays every seat of the worlds
        self.helper = BasicBot(rng)

    def choose(self, game: Game, actions: list) -> Action:
        d = game.decision
        if len(actions) == 1:
            return actions[0]
        if d.kind != "turn" or not can_fork(game):
            return self.helper.choose(game, actions)
        return self.search(game, d.seat, actions)

    def out_of_turn(self, game: Game, seat: int) -> Action | None:
        return self.helper.out_of_turn(game, seat)

    def search(self, game: Game, seat: int, actions: list) -> Action:
        rng = self.rng
        k = len(actions)
        wins = [0.0] * k
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        worlds = 0
        for _ in range(self.iterations):
            if deadline is not None and worlds and time.perf_counter() > deadline:
                break
            world = sample_for(game, seat, rng)
            seed = rng.getrandbits(32)
            for i, action in enumerate(actions):      # every action in the same world, with the
                branch = fork(world, random.Random(seed))   # same random numbers after it
                branch.apply_trusted(action)
                wins[i] += self.play_out(branch, seat, random.Random(seed + 1))
            worlds += 1
        return closing_own_windows(game, actions[max(range(k), key=lambda j: wins[j])])

    def play_out(self, world: Game, seat: int, rng: random.Random) -> float:
        """Play on with basic players for `horizon` turns (or to the round's end) and score the
        position for the seat's side: 1 or 0 when the round is over, else its share of
        nearness to going out (each hand weighed 1/(1+cards)^2)."""
        player = self.player
        player.rng = rng
        stop = world.round_turns + self.horizon
        for _ in range(ROLLOUT_STEPS):
            d = world.decision
            if d is None or d.kind == "deal" or world.round_over or world.round_turns >= stop:
                break
            actions = world.legal_actions()
            world.apply_trusted(actions[0] if len(actions) == 1 else player.choose(world, actions))
        teams = world.teams
        if world.round_over:
            winner = world.winner
            return 0.0 if winner is None else float(teams[winner] == teams[seat])
        near = [1.0 / (1 + len(h)) ** 2 if not world.inactive[s] else 0.0 for s, h in enumerate(world.hands)]
        ours = max(v for s, v in enumerate(near) if teams[s] == teams[seat])
        theirs = sum(v for s, v in enumerate(near) if teams[s] != teams[seat])
        return ours / (ours + theirs) if ours + theirs else 0.0
