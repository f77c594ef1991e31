"""A Gymnasium single-agent environment: one learning seat against unodsl bots.

The other seats are played by bots (any bot name `engine.bots.make_bot` knows, a plug-in
included), which act in turn and out of turn as in `unodsl simulate`. Each step is one action
of the learning seat, out of turn ones included (`wait` lets a window pass); the observation is
the same dict as the PettingZoo environment's, and the reward is the seat's payoff at the end.
An action the mask forbids ends the episode at once with a reward of -1 (as PettingZoo's
`TerminateIllegalWrapper` does for `env()`), and `info["illegal"]` says so.
"""
from __future__ import annotations

import random

import gymnasium
import numpy as np
from gymnasium import spaces

from ..engine.bots import make_bot
from .match import Match
from .pettingzoo_env import load_rules
from .spaces import Layout


ILLEGAL_REWARD = -1.0


class SingleSeatEnv(gymnasium.Env):
    """rules, players, with_, options, episode: as for the PettingZoo environment; seat: the
    learning seat (0 is p1); opponents: one bot name for every other seat, or a list of them."""

    metadata = {"render_modes": []}

    def __init__(self, rules="classic", players: int = 2, seat: int = 0, opponents="basic", with_=(),
                 options=None, episode: str = "game"):
        self.rules = load_rules(rules, with_, options)
        low, high = self.rules.players
        if not low <= players <= high:
            raise ValueError(f"{self.rules.title} is for {low} to {high} players, not {players}")
        if not 0 <= seat < players:
            raise ValueError(f"seat is 0 to {players - 1}, not {seat}")
        self.n, self.seat, self.episode = players, seat, episode
        others = [s for s in range(players) if s != seat]
        specs = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(specs) != len(others):
            raise ValueError(f"name {len(others)} opponents, not {len(specs)}")
        self.specs = dict(zip(others, specs))
        self.layout = Layout(self.rules, players)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(self.layout.low, self.layout.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.layout.size,), dtype=np.int8),
        })
        self.action_space = spaces.Discrete(self.layout.size)
        self.match: Match | None = None
        self.bots: dict = {}
        self.ended_illegally = False

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2 ** 62))
        self.match = Match(self.rules, self.n, game_seed, self.episode, self.layout)
        self.ended_illegally = False
        bot_rng = random.Random(game_seed ^ 0xB07)
        self.bots = {s: make_bot(spec, bot_rng) for s, spec in self.specs.items()}
        self._play_others()
        return self._observation(), {}

    def step(self, action):
        m = self.match
        if m.done or self.ended_illegally:
            raise RuntimeError("the episode is over: call reset()")
        if int(action) not in m.actions:
            self.ended_illegally = True
            return self._observation(), ILLEGAL_REWARD, True, False, {"illegal": True}
        m.step(int(action))
        self._play_others()
        reward = m.payoffs()[self.seat] if m.done else 0.0
        return self._observation(), reward, m.done and not m.truncated, m.truncated, {}

    def _observation(self) -> dict:
        return {"observation": self.match.observe(self.seat), "action_mask": self.match.mask(self.seat)}

    def _play_others(self) -> None:
        m = self.match
        while not m.done and m.agent != self.seat:
            bot, s = self.bots[m.agent], m.agent
            if m.window:
                chosen = bot.out_of_turn(m.game, s)
                index = self.layout.wait
                if chosen is not None:
                    wanted = self.layout.key_of(s, chosen, window=True)
                    index = self.layout.index.get(wanted, index)
                    if index not in m.actions:
                        index = self.layout.wait
            else:
                chosen = bot.choose(m.game, m.game.legal_actions())
                index = self.layout.index_of(s, chosen)
            m.step(index)
