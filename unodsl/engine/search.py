"""A bot that searches: determinized Monte Carlo search through the engine.

Where a round is decided, towards its end, the bot looks before it plays. Once some hand at the
table is down to a few cards (`endgame`), each of its turn actions is tried in many worlds: in
each, every card its seat cannot see is dealt anew at random (engine.sample.sample_for, a world
consistent with what the seat may see, in which a seat that drew rather than played holds nothing
it could have played then), the action is played and the round is played out to its end inside
the generated turn loop (Game.play_round_out), by basic players choosing their plays there
(BasicBot.pick, as its basic opponents would, without their look on samples) or by random ones
(faster, further from how people play). This is a rollout search: it improves on the policy
that plays the worlds out, the basic bot's. Every action meets the same worlds and the same
random numbers after it, so the comparison is between actions, not between lucky and unlucky
deals; every few worlds the actions that can no longer beat basic's choice are dropped. The bot
keeps the basic bot's choice unless the action that won most often won significantly more often
than it, world by world; so it plays as basic does wherever the search sees no clear difference.
The search stops at its budget of worlds (`iterations`) or of time (`seconds`). Earlier in the
round, and for every other decision (a color asked for later, an answer, a drawn card, an action
out of turn), it plays as the basic bot does.

Because every world is played by the engine itself, the bot plays any ruleset, and because the
worlds are dealt only from what its seat may see, it never uses a hidden card.
"""
from __future__ import annotations

import random
import time

from ..compile.decisions import Action
from .bots import BasicBot, RandomBot, closing_own_windows
from .game import Game
from .sample import can_fork, fork, sample_for

ROLLOUT_STEPS = 3000      # a played-out round longer than this counts as lost
# Who plays the sampled worlds out: basic players (as the bot's opponents play) or random ones
# (any card they may play: faster).
ROLLOUT_PLAYERS = {"random": RandomBot, "basic": BasicBot}
SIGNIFICANCE = 1.64       # z of the one-sided test another action must pass to replace basic's (5%)
PRUNE_EVERY = 8           # worlds between two looks at which actions are still in question


class SearchBot:
    """Determinized search over the seat's turn actions near the end of a round.

    iterations: worlds played per decision; seconds: a time budget instead (or as well: the
    first spent ends the search); endgame: search once some hand at the table holds at most this
    many cards (0: never search, which is the basic bot; a large number: search every turn)."""

    name = "search"

    def __init__(self, rng: random.Random, iterations: int = 48, seconds: float | None = None,
                 endgame: int = 5, rollout: str = "basic"):
        if iterations < 1 and seconds is None:
            raise TypeError("give the search at least one iteration or a time budget")
        if endgame < 0:
            raise TypeError("endgame is a number of cards, 0 or more")
        self.rng = rng
        self.iterations = int(iterations) if iterations >= 1 else 10 ** 9
        self.seconds = None if seconds is None else float(seconds)
        self.endgame = int(endgame)
        if rollout not in ROLLOUT_PLAYERS:
            raise TypeError(f"rollout is one of {', '.join(ROLLOUT_PLAYERS)}, not {rollout}")
        self.player = ROLLOUT_PLAYERS[rollout](random.Random(0))      # plays every seat of the worlds
        self.helper = BasicBot(rng)

    def choose(self, game: Game, actions: list) -> Action:
        d = game.decision
        if len(actions) == 1:
            return actions[0]
        if d.kind != "turn" or not can_fork(game) or not self._near_the_end(game):
            return self.helper.choose(game, actions)
        return self.search(game, d.seat, actions)

    def out_of_turn(self, game: Game, seat: int) -> Action | None:
        return self.helper.out_of_turn(game, seat)

    def _near_the_end(self, game: Game) -> bool:
        inactive = game.inactive
        return any(len(h) <= self.endgame for s, h in enumerate(game.hands) if not inactive[s])

    def search(self, game: Game, seat: int, actions: list) -> Action:
        """The basic bot's action, unless the action that won most often over the same sampled
        worlds won significantly more often than it (a one-sided sign test over the worlds where
        the two differed). Every few worlds, an action that can no longer pass that test in the
        worlds left, or is already significantly worse, is dropped, so the budget goes to the
        actions still in question."""
        rng = self.rng
        candidates = [closing_own_windows(game, a) for a in actions]
        basic = self.helper.choose(game, actions)
        base = next((i for i, a in enumerate(candidates) if a == basic or actions[i] == basic), 0)
        results = [[] for _ in candidates]
        alive = list(range(len(candidates)))
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        for world_index in range(self.iterations):
            if deadline is not None and world_index and time.perf_counter() > deadline:
                break
            world = sample_for(game, seat, rng, infer=True)
            seed = rng.getrandbits(32)
            for i in alive:                        # every action in the same world, with the
                branch = fork(world, random.Random(seed))   # same random numbers after it
                branch.apply_trusted(candidates[i])
                results[i].append(self.play_out(branch, seat, random.Random(seed + 1)))
            if (world_index + 1) % PRUNE_EVERY == 0:
                left = self.iterations - world_index - 1
                alive = [i for i in alive if i == base or _may_pass(results[i], results[base], left)]
                if len(alive) == 1:
                    break
        best = max(alive, key=lambda j: (sum(results[j]), j == base))
        if best != base and _may_pass(results[best], results[base], 0):
            return candidates[best]
        return candidates[base]

    def play_out(self, world: Game, seat: int, rng: random.Random) -> int:
        """Play the round out: 1 when the seat's side goes out first. Once the world waits for a
        turn its players play inside the generated turn loop (Game.play_round_out); before
        that, and with runs of cards, through the engine's legal actions."""
        player = self.player
        player.rng = rng
        fast = world.rules.runs is None       # (runs of cards are listed through the engine)
        for _ in range(ROLLOUT_STEPS):
            d = world.decision
            if d is None or d.kind == "deal" or world.round_over:
                break
            if fast and d.kind == "turn":
                world.play_round_out(player)
                break
            actions = world.legal_actions()
            world.apply_trusted(actions[0] if len(actions) == 1 else player.choose(world, actions))
        if not world.round_over:
            return 0
        winner = world.winner
        return int(winner is not None and world.teams[winner] == world.teams[seat])


def _may_pass(results: list, base: list, left: int) -> bool:
    """Whether an action's wins, world by world against basic's action's, pass the sign test
    (left = 0); with `left` more worlds to come, whether it is still in question: not
    significantly worse so far, and able to pass were it to win every world left."""
    better = sum(a > b for a, b in zip(results, base))
    worse = sum(a < b for a, b in zip(results, base))
    if left and worse - better > SIGNIFICANCE * (better + worse) ** 0.5:
        return False
    return better - worse + left > SIGNIFICANCE * (better + worse + left) ** 0.5
