#!/usr/bin/env python3
"""Speed of unodsl against hand-written UNO engines, measured side by side in one process.

Engines take turns, round after round, and each figure is the median over rounds, so drift on a
shared machine hits them all alike; compare the ratios, not the absolute numbers. A turn is one
play, or one draw with its possible play. Two players, random play, one round per game; classic
with the reference engines' rules where they are classic options (no drawing while holding a
playable card, a playable drawn card is played).

The engines do not play quite the same game, and the speed figures do not need them to (they are
per turn): unodsl's random bot may bluff a Wild Draw Four, challenges half of those it faces and
picks among kinds of card rather than cards in hand, which the reference loop never does, so its
games last about 2.6 turns longer. `bench/reference_policy.py` is a bot that plays exactly as
the reference loop; `--agreement N` plays N games each way and shows that unodsl's classic with
that bot lasts as long as the reference loop's games, within a standard error.

  unodsl step API    Game.legal_actions() + Game.apply(), the API people, bots and scenarios use,
                     with a uniformly random choice among the legal actions (rlcard's loop)
  unodsl simulator   the simulator's own loop (unodsl.sim.simulate.play_round_fast: the random
                     bots' choices written into the generated turn loop)
  killer, 4 players  the same simulator loop on a variant with more machinery
  minimal_uno.py     ../shared/bench/minimal_uno.py, a lean hand-written loop (when present)
  rlcard UnoGame     rlcard 1.2.0 init_game / get_legal_actions / step (when installed:
                     pip install unodsl[bench])

usage: python bench/bench_engine.py [--games N] [--rounds R] [--seed S] [--agreement N]
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
sys.path.insert(0, str(HERE))

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


REFERENCE = HERE.parent.parent / "shared" / "bench" / "minimal_uno.py"


def _minimal_uno_module():
    path = REFERENCE
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location("minimal_uno", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _minimal_uno():
    module = _minimal_uno_module()
    if module is None:
        return None

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


def _mean_se(values: list) -> tuple[float, float]:
    return statistics.fmean(values), statistics.stdev(values) / len(values) ** 0.5


def agreement(classic, games: int, seed: int) -> int:
    """Turns per game of unodsl's classic with its random bot and with the reference policy,
    against the reference loop's, each over `games` one-round games: means, standard errors and
    the differences in standard errors."""
    from reference_policy import play_round
    runs = {"unodsl classic, random bot": [play_round_fast(classic, 2, seed + i).turns for i in range(games)],
            "unodsl classic, reference policy": [play_round(classic, 2, seed + i).turns for i in range(games)]}
    minimal = _minimal_uno_module()
    if minimal is not None:
        rand = random.Random(seed).random
        runs["minimal_uno.py"] = [minimal.play_game(rand)[0] for _ in range(games)]
    print(f"turns per game over {games:,} two-player rounds (mean, standard error)")
    for name, values in runs.items():
        mean, se = _mean_se(values)
        print(f"  {name:<34} {mean:8.3f}  +- {se:.3f}")
    if minimal is not None:
        ref_mean, ref_se = _mean_se(runs["minimal_uno.py"])
        for name in list(runs)[:2]:
            mean, se = _mean_se(runs[name])
            diff, se_diff = mean - ref_mean, (se * se + ref_se * ref_se) ** 0.5
            print(f"  {name} - minimal_uno.py: {diff:+.3f} turns = {diff / se_diff:+.2f} standard errors")
    return 0


def main() -> int:
    global REFERENCE
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--agreement", type=int, metavar="N", default=0,
                    help="instead of timing, compare game lengths over N games with each bot policy")
    ap.add_argument("--reference", metavar="FILE", default=str(REFERENCE),
                    help="the hand-written reference loop (default: ../shared/bench/minimal_uno.py)")
    args = ap.parse_args()
    REFERENCE = Path(args.reference)
    # The reference engines' rules where they are classic options: no drawing while holding a
    # playable card, and a playable drawn card is played at once.
    classic = load("classic", options={"reneging": False, "force_play_drawn": True})
    if args.agreement:
        return agreement(classic, args.agreement, args.seed)
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
