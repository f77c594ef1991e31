"""Any ruleset as an OpenSpiel game: `pyspiel.load_game("python_unodsl", {"rules": "killer", "players": 4})`.

Importing this module registers the game (it needs the `open-spiel` wheel). Parameters: `rules`
(a bundled name or a `.uno` path), `players`, `with` (modules, comma-separated), `options`
(`name=value` pairs, comma-separated), `episode` (`round`, the default, or `game`) and
`max_steps` (an episode cut short after this many actions, paying nothing: the game's length
bound, which OpenSpiel asks for).

The deal is the game's chance: the game starts with SEED_BYTES chance nodes of 256 equally
likely outcomes each, which together make the seed of the engine's own generator; from there the
game is the engine's, and every further random event (a draw from the stock, a race) follows from
that seed and the actions. Players act as in the PettingZoo environment (unodsl.env.match): the
seat the game waits for, or a seat acting out of turn while a window is open. Observations are
the seat's view (unodsl.env.spaces); payoffs sum to zero.
"""
from __future__ import annotations

import numpy as np
import pyspiel

from .match import MAX_STEPS, Match
from .pettingzoo_env import load_rules
from .spaces import Layout

SEED_BYTES = 4
_DEFAULTS = {"rules": "classic", "players": 2, "with": "", "options": "", "episode": "round",
             "max_steps": MAX_STEPS}

_GAME_TYPE = pyspiel.GameType(
    short_name="python_unodsl",
    long_name="unodsl: an UNO-family card game written as a rules file",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=10,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def _pairs(text: str) -> dict:
    out = {}
    for item in (p.strip() for p in text.split(",")):
        if item:
            name, eq, value = item.partition("=")
            if not eq:
                raise ValueError(f"options are name=value pairs, not `{item}`")
            out[name.strip()] = value.strip()
    return out


class UnodslGame(pyspiel.Game):
    """A ruleset at a table size, as an OpenSpiel game."""

    def __init__(self, params=None):
        p = {**_DEFAULTS, **(params or {})}
        with_ = tuple(m.strip() for m in str(p["with"]).split(",") if m.strip())
        self.rules = load_rules(str(p["rules"]), with_, _pairs(str(p["options"])))
        self.n = int(p["players"])
        low, high = self.rules.players
        if not low <= self.n <= high:
            raise ValueError(f"{self.rules.title} is for {low} to {high} players, not {self.n}")
        self.episode = str(p["episode"])
        self.max_steps = int(p["max_steps"])
        if self.max_steps < 1:
            raise ValueError(f"max_steps is a positive number of actions, not {self.max_steps}")
        self.layout = Layout(self.rules, self.n)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.layout.size,
            max_chance_outcomes=256,
            num_players=self.n,
            min_utility=-(self.n - 1.0),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_steps + SEED_BYTES,
        )
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self):
        return UnodslState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            raise ValueError("python_unodsl gives observations, not perfect-recall information states")
        return UnodslObserver(self.layout)


class _Running:
    """Holds the state's running engine game. OpenSpiel copies and pickles a state's attributes;
    the engine's game is a running program that cannot be pickled, and copied only at a turn
    (Match.copy). Otherwise a copy holds nothing and the state rebuilds its game by replaying
    the seed and every action, which replays exactly."""
    __slots__ = ("match",)

    def __init__(self, match=None):
        self.match = match

    def __deepcopy__(self, memo):
        return _Running(self.match.copy() if self.match is not None else None)

    def __reduce__(self):
        return (_Running, ())


class UnodslState(pyspiel.State):
    """A game in progress: the seed's chance nodes, then the engine's game."""

    def __init__(self, game: UnodslGame):
        super().__init__(game)
        self.seed_bytes: list = []
        self.moves: list = []        # every action after the seed
        self._running = _Running()

    @property
    def match(self) -> Match | None:
        running = self._running
        if running.match is None and len(self.seed_bytes) == SEED_BYTES:
            g = self.get_game()
            seed = int.from_bytes(bytes(self.seed_bytes), "big")
            running.match = m = Match(g.rules, g.n, seed, g.episode, g.layout, g.max_steps)
            for a in self.moves:
                m.step(a)
        return running.match

    def current_player(self):
        m = self.match
        if m is None:
            return pyspiel.PlayerId.CHANCE
        if m.done:
            return pyspiel.PlayerId.TERMINAL
        return m.agent

    def _legal_actions(self, player):
        return self.match.legal()

    def chance_outcomes(self):
        return [(i, 1.0 / 256) for i in range(256)]

    def _apply_action(self, action):
        if len(self.seed_bytes) < SEED_BYTES:
            self.seed_bytes.append(int(action))
            return
        self.match.step(int(action))
        self.moves.append(int(action))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        return self.get_game().layout.describe(action)

    def is_terminal(self):
        m = self.match
        return m is not None and m.done

    def returns(self):
        m = self.match
        return [0.0] * self.get_game().n if m is None else m.payoffs()

    def __str__(self):
        m = self.match
        if m is None:
            return f"dealing ({len(self.seed_bytes)} of {SEED_BYTES} seed bytes)"
        g = m.game
        top = g.rules.code(g.discard[-1]) if g.discard else "-"
        sizes = " ".join(str(len(h)) for h in g.hands)
        return f"top {top} color {g.color or '-'} hands {sizes} round {g.round}"


class UnodslObserver:
    """The observation of a seat: unodsl.env.spaces's vector, and a line of text."""

    def __init__(self, layout: Layout):
        self.layout = layout
        self.tensor = np.zeros(layout.length, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: UnodslState, player: int):
        m = state.match
        if m is None:
            self.tensor.fill(0)
            return
        self.tensor[:] = m.observe(player)

    def string_from(self, state: UnodslState, player: int):
        m = state.match
        if m is None:
            return "dealing"
        g = m.game
        r = self.layout.rules
        hand = " ".join(sorted(r.code(c) for c in g.hands[player]))
        top = r.code(g.discard[-1]) if g.discard else "-"
        sizes = " ".join(str(len(h)) for h in g.hands)
        return f"p{player + 1} holds {hand}; top {top}, color {g.color or '-'}; hands {sizes}"


pyspiel.register_game(_GAME_TYPE, UnodslGame)
