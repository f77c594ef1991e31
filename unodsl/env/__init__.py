"""Learning environments for any ruleset (the optional `rl` extra: pettingzoo, gymnasium).

`spaces` derives a ruleset's observation and action spaces from its rules; `match` steps a game
for learning agents (out-of-turn windows included); `pettingzoo_env` is the PettingZoo AEC
environment (`env`, `raw_env`); `gym_env` a Gymnasium single-agent wrapper (one learning seat
against unodsl bots); `openspiel_game` registers the OpenSpiel game `python_unodsl`
(pip install open-spiel). Observations hold only what their seat may see.

May import: unodsl.engine, unodsl.compile, unodsl.lang.
"""
from .pettingzoo_env import env, raw_env

__all__ = ["env", "raw_env"]
