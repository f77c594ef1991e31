"""Any ruleset as a PettingZoo AEC environment, made as PettingZoo's classic environments are.

`env(...)` wraps `raw_env(...)` in PettingZoo's usual wrappers (an illegal action ends the game
with -1 for the seat that took it, actions out of bounds are refused, the call order is checked).
Agents are named as in PettingZoo's classic games: `player_0` (seat p1) to `player_{N-1}`. The
observation is a dict: `observation`, the seat's view as a vector (unodsl.env.spaces), and
`action_mask`, 1 for each legal action of the acting seat.
Seats that may act out of turn (say UNO, catch, jump in) become the selected agent while their
window is open (unodsl.env.match).
"""
from __future__ import annotations

import random

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..compile.loader import load
from ..compile.ruleset import Ruleset
from .match import Match
from .spaces import Layout


def load_rules(rules, with_=(), options=None) -> Ruleset:
    """A ruleset given as one, or by bundled name or file path with modules and options."""
    if isinstance(rules, Ruleset):
        if with_ or options:
            raise ValueError("modules and options apply to a ruleset named by name or file, not to a loaded one")
        return rules
    return load(str(rules), tuple(with_ or ()), dict(options or {}))


def env(**kwargs):
    """The environment with PettingZoo's standard wrappers (see raw_env for the arguments)."""
    e = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv, EzPickle):
    """rules: a bundled name, a `.uno` path or a Ruleset; players: the table size; with_:
    modules to add; options: the ruleset's options; episode: `game` (to the rules' end) or
    `round` (one hand)."""

    metadata = {"render_modes": ["ansi"], "name": "unodsl_v0", "is_parallelizable": False}

    def __init__(self, rules="classic", players: int = 2, with_=(), options=None, episode: str = "game",
                 render_mode: str | None = None):
        EzPickle.__init__(self, rules, players, with_, options, episode, render_mode)
        super().__init__()
        self.rules = load_rules(rules, with_, options)
        low, high = self.rules.players
        if not low <= players <= high:
            raise ValueError(f"{self.rules.title} is for {low} to {high} players, not {players}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']} or None")
        self.render_mode = render_mode
        self.n = players
        self.episode = episode
        self.layout = Layout(self.rules, players)
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agents = self.possible_agents[:]
        self._seats = {a: s for s, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(self.layout.low, self.layout.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.layout.size,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.layout.size) for a in self.possible_agents}
        self._seeds = random.Random()
        self.match: Match | None = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self._seats[agent]

    def observe(self, agent):
        seat = self._seat(agent)
        return {"observation": self.match.observe(seat), "action_mask": self.match.mask(seat)}

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seeds = random.Random(seed)
        self.match = Match(self.rules, self.n, self._seeds.getrandbits(63), self.episode, self.layout)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.match.agent] if not self.match.done else self.agents[0]
        if self.match.done:
            self._end()

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self.match.step(int(action))
        if self.match.done:
            self._end()
        else:
            self.agent_selection = self.possible_agents[self.match.agent]
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def _end(self) -> None:
        pay = self.match.payoffs()
        truncated = self.match.truncated
        for s, a in enumerate(self.possible_agents):
            self.rewards[a] = pay[s]
            self.terminations[a] = not truncated
            self.truncations[a] = truncated

    def render(self):
        if self.render_mode is None:
            return None
        m = self.match
        g = m.game
        r = self.rules
        top = r.code(g.discard[-1]) if g.discard else "-"
        who = "nobody" if m.agent is None else self.possible_agents[m.agent]
        sizes = ", ".join(f"{a} {len(h)}" for a, h in zip(self.possible_agents, g.hands))
        return f"top {top}, color {g.color or '-'}; cards: {sizes}; {who} to act"

    def close(self):
        pass
