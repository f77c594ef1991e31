#!/usr/bin/env python3
"""Issue 3's measurement: every bundled ruleset plays N whole games at 2, 4 and 7 players (4 for a
ruleset that seats exactly four), with card conservation checked at the end of every game.

usage: python bench/check_variants.py [-n GAMES] [--players 2,4,7] [--rulesets NAME,NAME]
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from unodsl.compile.loader import bundled_names, load  # noqa: E402
from unodsl.sim.simulate import game_seed, play_game  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=1000)
    ap.add_argument("--players", default="2,4,7", help="table sizes, comma-separated (default 2,4,7)")
    ap.add_argument("--rulesets", default="", help="only these bundled rulesets, comma-separated")
    args = ap.parse_args()
    sizes = [int(p) for p in args.players.split(",") if p.strip()]
    only = {n.strip() for n in args.rulesets.split(",") if n.strip()}
    failures = 0
    for name, kind, _ in bundled_names():
        if kind != "ruleset" or (only and name not in only):
            continue
        rules = load(name)
        low, high = rules.players
        counts = sorted({max(low, min(p, high)) for p in sizes})
        for players in counts:
            start = time.perf_counter()
            bad = stalemates = blocked = 0
            for i in range(args.n):
                game = play_game(rules, players, game_seed(1, i), "basic", record=False)
                held = Counter(map(rules.physical, [c for h in game.hands for c in h] + game.stock + game.discard))
                bad += held != Counter(map(rules.physical, rules.deck)) or not game.game_over
                by_rules = game.stats.get("blocked", 0)      # rounds the rules' own `blocked when` ended
                blocked += by_rules
                stalemates += bool(game.stalemate) and not by_rules
            failures += bad
            print(f"{name:<14} {players:>2} players  {args.n} games  {time.perf_counter() - start:6.1f} s  "
                  f"not conserved or unfinished: {bad}  stalemates: {stalemates}"
                  + (f"  rounds blocked by the rules: {blocked}" if rules.blocked is not None else ""), flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
