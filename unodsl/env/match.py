"""A game as a sequence of steps for learning agents: who acts, what it may do, and the payoff.

One seat acts at a time. Usually that is the seat the game waits for (a turn, a color, an
answer). Whenever out-of-turn windows are open (saying UNO, catching a player, jumping in, a
race: whatever the rules' windows allow), every seat that may act in one becomes the acting
seat in turn, in the order of play starting with the seat that just acted (so a player may say
UNO as its card lands, before anyone can catch it); it takes one of its out-of-turn actions or
`wait`s. After an out-of-turn action everyone who may still act is asked again, so the order of
a race follows the table. Every out-of-turn action closes a window, so this always ends.

Decisions of the table itself (dealing the next round) are made at once. An episode is a whole
game (`episode="game"`) or its first round (`episode="round"`); at its end the winners share the
win: each winner gets +1 and each other seat -w/(n-w) for w winners, so payoffs sum to zero; a
game nobody wins pays nothing.
"""
from __future__ import annotations

import random

import numpy as np

from ..compile.ruleset import Ruleset
from ..engine.game import Game
from ..engine.sample import can_fork, fork
from .spaces import Layout

MAX_STEPS = 200_000        # an episode longer than this is cut short (truncated)
MAX_REMEMBERED = 20_000    # action indices remembered per episode


class Match:
    """One episode of a ruleset for learning agents, stepped by action index."""

    def __init__(self, rules: Ruleset, players: int, seed: int, episode: str = "game",
                 layout: Layout | None = None, max_steps: int = MAX_STEPS):
        if episode not in ("game", "round"):
            raise ValueError(f"an episode is a `game` or a `round`, not `{episode}`")
        self.layout = layout if layout is not None else Layout(rules, players)
        self.n = players
        self.episode = episode
        self.max_steps = max_steps
        self.game = Game(rules, players, seed=seed, record=False)
        self.rng = random.Random(seed)       # for the table's own choices, were there several
        self.offers: list = []     # seats still to be asked about the open windows
        self.agent = None          # the seat that acts now
        self.window = False        # whether it acts out of turn
        self.actions: dict = {}    # index -> Action, what the acting seat may do
        self._indices = ({}, {})   # Action -> its index, on a turn and out of turn
        self.steps = 0
        self.done = False
        self.truncated = False
        self._next()

    # -- what the acting seat may do ------------------------------------------------------------
    def legal(self) -> list:
        """The acting seat's legal action indices, ascending."""
        return sorted(self.actions)

    def kind(self) -> str | None:
        if self.done:
            return None
        return "window" if self.window else self.game.decision.kind

    def step(self, index: int) -> None:
        """Carry out the acting seat's action `index` (one of `legal()`), or raise ValueError."""
        if self.done:
            raise ValueError("the episode is over")
        action = self.actions.get(index)
        if action is None:
            raise ValueError(f"action {index} ({self.layout.describe(index) if 0 <= index < self.layout.size else 'unknown'}) "
                             f"is not legal now")
        self.steps += 1
        seat = self.agent
        if self.window:
            if action == "wait":
                self.offers.pop(0)
            else:
                self.game.apply(action)
                self._after(seat)
                return
        else:
            self.game.apply_trusted(action)
            self._after(seat)
            return
        self._next()

    def _after(self, actor: int) -> None:
        """After an action: everyone who may now act out of turn is asked, the actor first."""
        game = self.game
        self.offers = [s for s in game._order_from(actor) if game.window_actions(s)] if game.windows else []
        self._next()

    def _next(self) -> None:
        game, layout = self.game, self.layout
        if self.steps >= self.max_steps:
            self._finish(truncated=True)
            return
        while self.offers:
            s = self.offers[0]
            acts = game.window_actions(s)
            if acts:
                self.agent, self.window = s, True
                self.actions = {self._index(s, a, True): a for a in acts}
                self.actions[layout.wait] = "wait"
                return
            self.offers.pop(0)
        while True:
            d = game.decision
            if game.game_over or d is None or (self.episode == "round" and (game.round_over or d.kind == "deal")):
                self._finish(truncated=False)
                return
            if d.seat is None:          # the table's own decision: deal the next round
                options = game.legal_actions()
                game.apply(options[self.rng.randrange(len(options))])
                continue
            break
        self.agent, self.window = d.seat, False
        seat = d.seat
        known, index = self._indices[False], self._index
        actions = {}
        for a in game.legal_actions():
            i = known.get(a)
            actions[index(seat, a, False) if i is None else i] = a
        self.actions = actions

    def _index(self, seat: int, action, window: bool) -> int:
        """The action's index (Layout.index_of), remembered: a table has few distinct actions."""
        known = self._indices[window]
        found = known.get(action)
        if found is None:
            if len(known) > MAX_REMEMBERED:             # runs of cards can make many: stay bounded
                known.clear()
            found = known[action] = self.layout.index_of(seat, action, window)
        return found

    def _finish(self, truncated: bool) -> None:
        self.done, self.truncated = True, truncated
        self.actions, self.offers = {}, []

    def copy(self) -> "Match | None":
        """An exact copy that plays on as this one would, when the game stands at a turn or
        between rounds (engine.sample.fork); None elsewhere."""
        if not can_fork(self.game):
            return None
        clone = Match.__new__(Match)
        clone.__dict__.update(self.__dict__)
        clone.game = fork(self.game, _same(self.game.rng))
        clone.rng = _same(self.rng)
        clone.offers, clone.actions = list(self.offers), dict(self.actions)
        return clone

    # -- the payoff -----------------------------------------------------------------------------
    def winners(self) -> list:
        game = self.game
        if self.truncated:
            return []
        if self.episode == "round":
            w = game.winner
            return [] if w is None else [s for s in range(self.n) if game.teams[s] == game.teams[w]]
        return list(game.game_winners)

    def payoffs(self) -> list:
        """Per seat: +1 for a winner, -w/(n-w) for the others; all 0 when nobody won."""
        if not self.done:
            return [0.0] * self.n
        won = set(self.winners())
        if not won or len(won) == self.n:
            return [0.0] * self.n
        loss = -len(won) / (self.n - len(won))
        return [1.0 if s in won else loss for s in range(self.n)]

    def observe(self, seat: int):
        """The seat's observation vector (engine.spaces.Layout.encode)."""
        return self.layout.encode(self.game, seat, self.kind() if seat == self.agent else None)

    def mask(self, seat: int):
        m = np.zeros(self.layout.size, np.int8)
        if seat == self.agent and not self.done:
            for i in self.actions:
                m[i] = 1
        return m



def _same(rng: random.Random) -> random.Random:
    """A generator in the same state, drawing the same numbers from here on."""
    copy = random.Random()
    copy.setstate(rng.getstate())
    return copy
