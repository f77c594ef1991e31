"""`unodsl simulate`: many games with bots, their statistics, and comparisons of two rulesets."""
from __future__ import annotations

import json
import time
from pathlib import Path

from .common import (
    EXIT_OK,
    UsageError,
    add_rules_args,
    options_from,
    positive,
    split_list,
    whole,
)

NAME = "simulate"
HELP = "play many games with bots and report statistics"
DESCRIPTION = ("Play whole games with bots. With --compare A B, both are played with the same seeds and their "
               "differences shown with 95%% confidence intervals; --with and --set then apply to B only "
               "(A+m1+m2 adds modules to A).")


def arguments(p) -> None:
    p.add_argument("rules", metavar="FILE|NAME", nargs="?")
    p.add_argument("-n", "--games", type=positive, default=1000)
    p.add_argument("--players", type=positive, default=4)
    p.add_argument("--bots", choices=("random", "basic"), default="basic")
    p.add_argument("--seed", type=whole, default=0)
    p.add_argument("--jobs", type=positive, default=1, help="processes to spread the games over")
    p.add_argument("--cluster", metavar="ADDRESS", help="run on a Dask cluster (`local` starts one here)")
    p.add_argument("--format", choices=("table", "json", "csv"), default="table")
    p.add_argument("--plot", metavar="FILE.svg", help="draw game length and wins by seat as an SVG picture")
    p.add_argument("--compare", nargs=2, metavar=("A", "B"), help="simulate two rulesets with the same seeds")
    add_rules_args(p)


def run(args) -> int:

    from ...sim.simulate import format_csv, format_table
    options = options_from(args.set)
    with_ = split_list(args.with_)
    if args.compare:
        return compare_rulesets(args, with_, options)
    if not args.rules:
        raise UsageError("name a ruleset (or use --compare A B)")
    start = time.perf_counter()
    rules, stats = run_stats(args, args.rules, with_, options)
    seconds = time.perf_counter() - start
    summary = stats.summary()
    mods = f" + {', '.join(with_)}" if with_ else ""
    title = f"{rules.title}{mods}: {args.players} players, {args.bots} bots, seed {args.seed}"
    if args.plot:
        from ...sim.plot import render
        Path(args.plot).write_text(render(stats, f"{rules.title}{mods}",
                                          f"{args.players} players, {args.games} games, {args.bots} bots, seed {args.seed}"),
                                   encoding="utf-8")
    if args.format == "json":
        out = {"ruleset": args.rules, "with": with_, "players": args.players, "bots": args.bots,
               "seed": args.seed, **summary, "seconds": round(seconds, 3)}
        print(json.dumps(out, indent=2))
    elif args.format == "csv":
        print(format_csv(summary), end="")
    else:
        print(format_table(title, summary, seconds))
    return EXIT_OK


def spec(text: str) -> tuple[str, list[str]]:
    """`classic+progressive+seven-o` -> ("classic", ["progressive", "seven-o"])."""
    parts = [p for p in text.split("+") if p]
    if not parts:
        raise UsageError(f"`{text}` names no ruleset")
    return parts[0], parts[1:]


def run_stats(args, ref: str, with_: list, options: dict):
    from ...compile.loader import load
    from ...sim.simulate import Progress, run_parallel, simulate
    rules = load(ref, tuple(with_), options)
    low, high = rules.players
    if not low <= args.players <= high:
        raise UsageError(f"{rules.title} is for {low} to {high} players, not {args.players}")
    progress = Progress(args.games)
    try:
        if args.cluster:
            from ...sim.cluster import run_on_cluster
            stats = run_on_cluster(args.cluster, ref, with_, options, args.players, args.games, args.seed,
                                   args.bots, progress)
        elif args.jobs > 1:
            stats = run_parallel(ref, with_, options, args.players, args.games, args.seed, args.bots,
                                 args.jobs, progress)
        else:
            stats = simulate(rules, args.players, args.games, args.seed, args.bots, progress=progress)
    finally:
        progress.close()
    return rules, stats


def compare_rulesets(args, with_, options) -> int:
    from ...sim.simulate import compare
    ref_a, mods_a = spec(args.compare[0])
    ref_b, mods_b = spec(args.compare[1])
    _, stats_a = run_stats(args, ref_a, mods_a, {})
    _, stats_b = run_stats(args, ref_b, mods_b + with_, options)
    result = compare(stats_a, stats_b)
    name_a = "+".join([ref_a] + mods_a)
    name_b = "+".join([ref_b] + mods_b + with_) + (" " + " ".join(f"{k}={v}" for k, v in options.items()) if options else "")
    if args.format == "json":
        print(json.dumps({"a": name_a, "b": name_b, "games": args.games, "players": args.players,
                          "seed": args.seed, **result}, indent=2))
        return EXIT_OK
    t = result["turns_per_game"]
    print(f"A = {name_a}\nB = {name_b}\n{args.games} games each, {args.players} players, {args.bots} bots, "
          f"the same seeds (from {args.seed})")
    print(f"  turns per game   A {t['a']:.1f}   B {t['b']:.1f}   B-A {t['difference']:+.1f} "
          f"(95% CI {t['ci95'][0]:+.1f} .. {t['ci95'][1]:+.1f}), {100 * t['relative']:+.1f}%")
    for key, label in (("rounds_per_game", "rounds per game"), ("drawn_per_game", "cards drawn/game"),
                       ("reshuffles_per_game", "reshuffles/game")):
        v = result[key]
        print(f"  {label:<16} A {v['a']:.2f}   B {v['b']:.2f}   B-A {v['difference']:+.2f}")
    return EXIT_OK
