"""`unodsl balance`: first-player advantage, seat gaps, length, drama, skill, and ablations."""
from __future__ import annotations

import json
import time
from pathlib import Path

from .common import EXIT_OK, MAX_GAMES, UsageError, add_rules_args, bot, games, jobs, options_from, players, split_list, whole

NAME = "balance"
HELP = "measure how fair, long, close and skill-driven a game is"
DESCRIPTION = ("Play games with bots and report the balance figures designers read: how often the first player "
               "wins, the gap between seats, game length and its spread, lead changes, how close the finishes "
               "are, how much skill decides (a skilled bot against random players), and for each house rule added "
               "with --with or --set, what removing it changes. Every figure has a 95% confidence interval.")


def arguments(p) -> None:
    p.add_argument("rules", metavar="FILE|NAME")
    p.add_argument("-n", "--games", type=games, default=300, help=f"games to play for each measure, at most {MAX_GAMES:,} (default: 300)")
    p.add_argument("--players", type=players, default=4)
    p.add_argument("--bots", type=bot, default="basic", help="the bot every seat plays (default basic)")
    p.add_argument("--strong", type=bot, default="basic", help="the skilled bot set against random players (default basic)")
    p.add_argument("--seed", type=whole, default=0)
    p.add_argument("--jobs", type=jobs, default=1, help="processes to spread the games over")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.add_argument("--plot", metavar="FILE.svg", help="draw the figures as an SVG picture")
    add_rules_args(p)


def run(args) -> int:
    from ...sim.balance import figures, format_table, render_svg
    from ...sim.simulate import Progress
    from ...compile.loader import load
    with_, options = split_list(args.with_), options_from(args.set)
    rules = load(args.rules, tuple(with_), options)
    low, high = rules.players
    if not low <= args.players <= high:
        raise UsageError(f"{rules.title} is for {low} to {high} players, not {args.players}")
    start = time.perf_counter()
    runs = 2 + len(with_) + len(options)
    progress = Progress(args.games * runs)
    try:
        report = figures(args.rules, with_, options, args.players, args.games, args.seed, args.bots, args.strong,
                         args.jobs, progress=progress)
    finally:
        progress.close()
    seconds = time.perf_counter() - start
    if args.plot:
        Path(args.plot).write_text(render_svg(report), encoding="utf-8")
    if args.format == "json":
        print(json.dumps({**report, "seconds": round(seconds, 3)}, indent=2))
    else:
        print(format_table(report, seconds))
    return EXIT_OK
