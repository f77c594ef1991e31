#!/usr/bin/env python3
"""How much stronger the search bot is than basic: seat-rotated games on classic and killer.

Each ruleset is played as a tournament (unodsl.sim.tournament): game i seats the bots in the
order given, moved i seats on, so every bot sits in every seat equally often, and game i's seed
depends only on --seed and i (the figures do not change with --jobs). A game is one round
(`--rounds 1`, the default; `--rounds 0` plays whole games to the rules' end). The figure is
each bot's win rate with its 95% Wilson interval; the search bot beats basic significantly when
the interval of its win rate lies wholly above the fair share (1/2 at two players).

usage: python bench/bench_bots.py [--games N] [--players P] [--rounds R] [--jobs J]
                                  [--search SPEC] [--rules NAME ...] [--seed S]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from unodsl.compile.loader import load  # noqa: E402
from unodsl.sim.tournament import play_tournament, run_tournament_parallel  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--rounds", type=int, default=1, help="rounds per game; 0 for whole games")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--search", default="search", help="the search bot and its options, e.g. search:iterations=24")
    p.add_argument("--rules", nargs="+", default=["classic", "killer"])
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    rounds = args.rounds or None
    bots = [args.search, "basic"]
    print(f"{args.search} against basic, {args.players} players, {args.games} games per ruleset, seats rotated, "
          f"{'whole games' if rounds is None else f'{rounds} round(s) per game'}, seed {args.seed}")
    print(f"{'ruleset':<10} {'bot':<28} {'win rate':>9}   95% CI            fair   seconds")
    for name in args.rules:
        start = time.perf_counter()
        if args.jobs > 1:
            results = run_tournament_parallel(name, [], {}, args.players, bots, args.games, args.seed, rounds, args.jobs)
        else:
            results = play_tournament(load(name), args.players, bots, args.games, args.seed, rounds)
        summary = results.summary(args.seed)
        seconds = time.perf_counter() - start
        for row in summary["bots"]:
            lo, hi = row["ci95"]
            print(f"{name:<10} {row['bot']:<28} {100 * row['win_rate']:8.1f}%   {100 * lo:5.1f}% .. {100 * hi:5.1f}%   "
                  f"{100 / args.players:4.1f}%  {seconds:6.1f}")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
