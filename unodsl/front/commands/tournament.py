"""`unodsl tournament`: bots against each other, seats rotated, win rates and ratings."""
from __future__ import annotations

import json
import time

from .common import EXIT_OK, MAX_GAMES, UsageError, add_rules_args, games, jobs, options_from, players, positive, split_list, whole

NAME = "tournament"
HELP = "play bots against each other and rate them"
DESCRIPTION = ("Play games between bots, moving every bot one seat on each game, and report each bot's win rate "
               "and Bradley-Terry rating (Elo scale) with 95% confidence intervals. --bots names the bot of each "
               "seat (repeated to fill the table): a bundled bot (random, basic, search), search:iterations=N, "
               "or a plug-in as package.module:Class.")


def arguments(p) -> None:
    p.add_argument("rules", metavar="FILE|NAME")
    p.add_argument("--bots", required=True, metavar="A,B,...", help="the bots, comma-separated, one per seat")
    p.add_argument("-n", "--games", type=games, default=200, help=f"games to play, at most {MAX_GAMES:,} (default: 200)")
    p.add_argument("--players", type=players, default=None, help="table size (default: one seat per bot, at least 2)")
    p.add_argument("--rounds", type=positive, default=None, help="play only this many rounds of each game")
    p.add_argument("--seed", type=whole, default=0)
    p.add_argument("--jobs", type=jobs, default=1, help="processes to spread the games over")
    p.add_argument("--format", choices=("table", "json"), default="table")
    add_rules_args(p)


def run(args) -> int:
    from ...compile.loader import load
    from ...engine.bots import BotError, check_bot
    from ...sim.simulate import Progress
    from ...sim.tournament import format_table, play_tournament, run_tournament_parallel
    bots = split_list(args.bots)
    if not bots:
        raise UsageError("name the bots: --bots basic,random")
    for spec in bots:
        try:
            check_bot(spec)
        except BotError as err:
            raise UsageError(str(err)) from None
    players = args.players or max(2, len(bots))
    with_, options = split_list(args.with_), options_from(args.set)
    rules = load(args.rules, tuple(with_), options)
    low, high = rules.players
    if not low <= players <= high:
        raise UsageError(f"{rules.title} is for {low} to {high} players, not {players}")
    start = time.perf_counter()
    progress = Progress(args.games)
    try:
        if args.jobs > 1:
            results = run_tournament_parallel(args.rules, with_, options, players, bots, args.games, args.seed,
                                              args.rounds, args.jobs, progress)
        else:
            results = play_tournament(rules, players, bots, args.games, args.seed, args.rounds, progress=progress)
    finally:
        progress.close()
    seconds = time.perf_counter() - start
    summary = results.summary(args.seed)
    if args.format == "json":
        print(json.dumps({"ruleset": args.rules, "with": with_, "options": options, "players": players,
                          "rounds": args.rounds, "seed": args.seed, "lineup": bots, **summary,
                          "seconds": round(seconds, 3)}, indent=2))
        return EXIT_OK
    mods = f" + {', '.join(with_)}" if with_ else ""
    rounds = f", {args.rounds} round{'s' if args.rounds != 1 else ''} per game" if args.rounds else ""
    print(format_table(f"{rules.title}{mods}: {players} players, seats rotated{rounds}, seed {args.seed}",
                       summary, seconds))
    return EXIT_OK
