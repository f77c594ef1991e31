#!/usr/bin/env python3
"""Speed of unodsl's learning environment against RLCard's UNO, side by side in one process.

Both play classic with two random players, one round per episode (RLCard's episode is one
round), and both encode an observation at every step, as a learning loop needs:

  rlcard env.run     rlcard 1.2.0: rlcard.make("uno"), two RandomAgents, env.run(is_training=False)
                     (its state dict, its 4x4x15 observation and its legal actions, every step)
  unodsl raw_env     unodsl.env.raw_env(rules="classic", players=2, episode="round"): at every
                     step env.last() (the observation vector and the action mask), a uniformly
                     random legal action from the mask, env.step(action)
  unodsl env         the same through PettingZoo's standard wrappers (unodsl.env.env)

A turn is one agent step. unodsl's steps include the seats' out-of-turn moments (saying UNO,
catching a player who did not), which RLCard's rules leave out, so a unodsl round has more
steps than an RLCard round; the figures are per step. The loops take turns, repeat after
repeat, and each figure is the median over repeats, so drift on a shared machine hits them all
alike: compare the ratios. The goal is unodsl at most 0.5x RLCard's µs per turn.

usage: python bench/bench_env.py [--turns N] [--repeats R] [--seed S] [--profile]
(needs the `rl` and `bench` extras: pip install '.[rl,bench]')
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import numpy as np  # noqa: E402

from unodsl.env import env as wrapped_env  # noqa: E402
from unodsl.env import raw_env  # noqa: E402


def rlcard_run(turns: int, seed: int) -> tuple[float, int]:
    """RLCard's own loop with its random agents, episodes until `turns` steps are played."""
    import rlcard
    from rlcard.agents import RandomAgent
    env = rlcard.make("uno", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    np.random.seed(seed)                  # RandomAgent draws from numpy's global generator
    done = episodes = 0
    start = time.perf_counter()
    while done < turns:
        env.run(is_training=False)
        done += len(env.action_recorder)      # its steps this episode
        episodes += 1
    return time.perf_counter() - start, done, episodes


def unodsl_loop(make, turns: int, seed: int, options=None) -> tuple[float, int]:
    """A PettingZoo AEC loop: observe the acting agent, pick a legal action from its mask;
    episodes until `turns` steps are played."""
    e = make(rules="classic", players=2, episode="round", options=options)
    rng = random.Random(seed)
    done = i = 0
    start = time.perf_counter()
    while done < turns:
        i += 1
        e.reset(seed=seed + i)
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[int(rng.random() * len(legal))])
                done += 1
            e.step(action)
    return time.perf_counter() - start, done, i


# The reference engines' rules where they are classic options (as bench/bench_engine.py): no
# drawing while holding a playable card, a playable drawn card is played. RLCard plays so.
LIKE_RLCARD = {"reneging": "no", "force_play_drawn": "yes"}
REFERENCE = "rlcard 1.2.0 env.run (random agents)"
MAIN = "unodsl raw_env, classic"
LOOPS = {
    REFERENCE: rlcard_run,
    MAIN: lambda n, s: unodsl_loop(raw_env, n, s),
    "unodsl raw_env, classic with rlcard's drawing rules": lambda n, s: unodsl_loop(raw_env, n, s, LIKE_RLCARD),
    "unodsl env (PettingZoo's wrappers), classic": lambda n, s: unodsl_loop(wrapped_env, n, s),
}


def measure(turns: int, repeats: int, seed: int) -> dict:
    per_turn = {name: [] for name in LOOPS}
    lengths = {name: [] for name in LOOPS}
    for r in range(repeats):
        for name, loop in LOOPS.items():       # taken in turn, repeat after repeat
            seconds, done, episodes = loop(turns, seed + r * 100_000)
            per_turn[name].append(seconds / done * 1e6)
            lengths[name].append(done / episodes)
    return {name: (statistics.median(per_turn[name]), statistics.mean(lengths[name])) for name in LOOPS}


def table(results: dict) -> str:
    ref = results[REFERENCE][0]
    lines = ["| environment loop | µs per turn | turns per episode | ratio to rlcard |", "|---|---:|---:|---:|"]
    for name, (us, length) in results.items():
        lines.append(f"| {name} | {us:.1f} | {length:.1f} | {us / ref:.2f}x |")
    return "\n".join(lines)


def profile(turns: int, seed: int) -> None:
    import cProfile
    import pstats
    prof = cProfile.Profile()
    prof.enable()
    unodsl_loop(raw_env, turns, seed)
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(25)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--turns", type=int, default=30_000, help="turns per loop and repeat, in whole episodes "
                                                             "(default 30000)")
    p.add_argument("--repeats", type=int, default=5, help="repeats, the loops taken in turn (default 5)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--profile", action="store_true", help="profile unodsl's raw_env loop (cProfile) instead")
    args = p.parse_args(argv)
    if args.profile:
        profile(args.turns, args.seed)
        return 0
    try:
        import rlcard  # noqa: F401
    except ImportError:
        print("rlcard is not installed: pip install '.[bench]'", file=sys.stderr)
        return 2
    results = measure(args.turns, args.repeats, args.seed)
    print(f"classic, 2 random players, one round per episode; medians of {args.repeats} repeats "
          f"of {args.turns} turns")
    print(table(results))
    ratio = results[MAIN][0] / results[REFERENCE][0]
    print(f"unodsl raw_env / rlcard: {ratio:.2f}x (goal: at most 0.50x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
