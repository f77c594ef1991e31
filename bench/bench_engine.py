#!/usr/bin/env python3
"""Speed of unodsl against hand-written UNO engines, measured side by side in one process.

Engines take turns, round after round, and each figure is the median over rounds, so drift on a
shared machine hits them all alike; compare the ratios, not the absolute numbers. A turn is one
play, or one draw with its possible play. Two players, random play, one round per game; classic
with the reference engines' rules (no drawing while holding a playable card, a playable drawn
card is played), both of them classic options.

  unodsl step API    Game.legal_actions() + Game.apply(), the API people, bots and scenarios use,
                     with a uniformly random choice among the legal actions (rlcard's loop)
  unodsl simulator   the simulator's own loop (unodsl.sim.simulate.play_round_fast: the random
                     bots' choices written into the generated turn loop)
  killer, 4 players  the same simulator loop on a variant with more machinery
  minimal_uno.py     ../shared/bench/minimal_uno.py, a lean hand-written loop (when present)
  rlcard UnoGame     rlcard 1.2.0 init_game / get_legal_actions / step (when installed:
                     pip install unodsl[bench])

usage: python bench/bench_engine.py [--games N] [--rounds R] [--seed S]
"""
from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from unodsl import load  # noqa: E402
from unodsl.engine import Game  # noqa: E402
from unodsl.sim.simulate import play_round_fast  # noqa: E402


def unodsl_step_api(rules, games: int, seed: int, players: int = 2) -> tuple[float, int]:
    """One round per game through the public step API: each decision, a random player picks
    uniformly among Game.legal_actions() and the game applies it, as the rlcard loop below picks
    among get_legal_actions() and steps. Like the rlcard loop, all games draw from one seeded
    generator, and no event log is kept (record=False), as rlcard keeps none."""
    rng = random.Random(seed)
    rand = rng.random
    turns = 0
    start = time.perf_counter()
    for _ in range(games):
        game = Game(rules, players, record=False, rng=rng)
        while not game.round_over:
            actions = game.legal_actions()
            game.apply(actions[int(rand() * len(actions))])
        turns += game.turns
    return time.perf_counter() - start, turns


def unodsl_simulator(rules, games: int, seed: int, players: int = 2) -> tuple[float, int]:
    turns = 0
    start = time.perf_counter()
    for i in range(games):
        turns += play_round_fast(rules, players, seed + i).turns
    return time.perf_counter() - start, turns


def _minimal_uno():
    path = HERE.parent.parent / "shared" / "bench" / "minimal_uno.py"
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location("minimal_uno", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    def run(games: int, seed: int):
        rand = random.Random(seed).random
        turns = 0
        start = time.perf_counter()
        for _ in range(games):
            turns += module.play_game(rand)[0]
        return time.perf_counter() - start, turns
    return run


def _rlcard():
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None

    def run(games: int, seed: int):
        game = UnoGame(num_players=2)
        game.np_random = np.random.RandomState(seed)
        rng = random.Random(seed)
        turns = 0
        start = time.perf_counter()
        for _ in range(games):
            game.init_game()
            while not game.is_over():
                game.step(rng.choice(game.get_legal_actions()))
                turns += 1
        return time.perf_counter() - start, turns
    return run


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    # The reference engines' rules: no drawing while holding a playable card, and a playable
    # drawn card is played at once. Both are classic options, so all engines play the same game.
    classic = load("classic", options={"reneging": False, "force_play_drawn": True})
    killer = load("killer")
    engines = {
        "unodsl step API (classic, 2p)": lambda n, s: unodsl_step_api(classic, n, s),
        "unodsl simulator (classic, 2p)": lambda n, s: unodsl_simulator(classic, n, s),
        "unodsl simulator (killer, 4p)": lambda n, s: unodsl_simulator(killer, n // 2, s, players=4),
    }
    minimal = _minimal_uno()
    if minimal:
        engines["minimal_uno.py (hand-written)"] = minimal
    rl = _rlcard()
    if rl:
        engines["rlcard 1.2.0 UnoGame"] = rl
    samples = {name: [] for name in engines}
    turns_per_game = {}
    for r in range(args.rounds):
        for name, run in engines.items():
            seconds, turns = run(args.games, args.seed + r * args.games)
            samples[name].append(seconds / turns * 1e6)
            games = args.games // 2 if "killer" in name else args.games
            turns_per_game[name] = turns / games
    med = {name: statistics.median(v) for name, v in samples.items()}
    print(f"python {sys.version.split()[0]}, {args.games} games x {args.rounds} rounds, medians")
    print(f"{'engine':<34} {'us/turn':>8} {'turns/game':>11} {'games/s':>9}")
    for name in engines:
        games_per_s = 1e6 / (med[name] * turns_per_game[name])
        print(f"{name:<34} {med[name]:8.2f} {turns_per_game[name]:11.1f} {games_per_s:9.0f}")
    print("ratios:")
    if minimal:
        ref = med["minimal_uno.py (hand-written)"]
        print(f"  simulator / minimal_uno          {med['unodsl simulator (classic, 2p)'] / ref:5.2f}x   (target <= 3x)")
    if rl:
        ref = med["rlcard 1.2.0 UnoGame"]
        print(f"  step API / rlcard                {med['unodsl step API (classic, 2p)'] / ref:5.2f}x   (target <= 0.5x)")
    print(f"  killer 4p / classic 2p simulator {med['unodsl simulator (killer, 4p)'] / med['unodsl simulator (classic, 2p)']:5.2f}x   (target <= 2x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
