#!/usr/bin/env python3
"""Per turn against classic, in machine instructions rather than seconds: the Python engine's
whole games with the default basic bots, counted by valgrind's callgrind.

A shared machine's speed can change by a third from one minute to the next, and the rulesets'
ratios to classic moved by as much between runs of `bench_native.py --basic`. The instructions
a run executes hardly change: each unit plays the same games (the same seeds) under callgrind,
once with one game and once with G + 1, and the difference over G is its instructions per game;
divided by its turns per game (counted in this process, same seeds), per turn. Python's hash
seed is fixed so that every run lays out its sets and dicts alike. Needs `valgrind`; the units
run side by side, one per core.

usage: python bench/bench_instructions.py [--games G] [--units classic,killer,...]
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from unodsl import load  # noqa: E402
from unodsl.sim.simulate import simulate  # noqa: E402

UNITS = ("classic", "classic+jump-in", "killer", "speed", "classic+seven-o+jump-in")
PLAYERS, SEED = 4, 7
PLAY = ("import sys; sys.path.insert(0, {root!r}); from unodsl import load; "
        "from unodsl.sim.simulate import simulate; name, *mods = {unit!r}.split('+'); "
        "simulate(load(name, tuple(mods)), {players}, {games}, {seed}, 'basic')")


def _rules(unit: str):
    name, *mods = unit.split("+")
    return load(name, tuple(mods))


def _instructions(unit: str, games: int) -> int:
    """What callgrind counts for a process that plays `games` games of the unit."""
    code = PLAY.format(root=str(HERE.parent), unit=unit, players=PLAYERS, games=games, seed=SEED)
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                           sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"valgrind failed on {unit}: {done.stderr.strip()[-400:]}")
    return int(found.group(1))


def _turns(unit: str, games: int) -> int:
    stats = simulate(_rules(unit), PLAYERS, games, SEED, "basic")
    return sum(t * c for t, c in stats.turns.items())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games counted per unit (default: 20)")
    ap.add_argument("--units", default=",".join(UNITS),
                    help="comma-separated units, the first the one the others are compared with")
    args = ap.parse_args()
    if args.games < 1:
        ap.error("--games must be at least 1")
    if shutil.which("valgrind") is None:
        print("bench_instructions needs valgrind (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    units = [u for u in args.units.split(",") if u]
    for unit in units:      # a mistyped unit is said before any counting
        _rules(unit)
    jobs = [(u, g) for u in units for g in (1, args.games + 1)]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        counted = dict(zip(jobs, pool.map(lambda job: _instructions(*job), jobs)))
    per_turn = {}
    for unit in units:
        turns = _turns(unit, args.games + 1) - _turns(unit, 1)
        per_turn[unit] = (counted[(unit, args.games + 1)] - counted[(unit, 1)]) / turns
    base = units[0]
    print(f"basic bots, Python engine, {PLAYERS} players, {args.games} games a unit (seed {SEED}), "
          f"instructions per turn (callgrind):")
    for unit, value in per_turn.items():
        print(f"  {unit:<28} {value:10,.0f}  {value / per_turn[base]:5.2f}x {base}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
