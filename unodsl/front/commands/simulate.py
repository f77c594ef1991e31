"""`unodsl simulate`: many games with bots, their statistics, and comparisons of two rulesets."""
from __future__ import annotations

import json
import time

from .common import (
    EXIT_FAIL,
    EXIT_OK,
    MAX_GAMES,
    UsageError,
    bot,
    add_rules_args,
    games,
    jobs,
    options_from,
    players,
    split_list,
    whole,
    writable,
)

NAME = "simulate"
HELP = "play many games with bots and report statistics"
DESCRIPTION = ("Play whole games with bots and report their statistics, with 95% intervals. With --compare A B "
               "(instead of a ruleset), both are played with the same seeds and every difference is given with "
               "the 95% interval of the paired, game-by-game differences; --with and --set then apply to B only "
               "(A+m1+m2 adds modules to A). Game i always gets the same seed, so the statistics do not depend "
               "on --jobs or --cluster.")


def arguments(p) -> None:
    p.add_argument("rules", metavar="FILE|NAME", nargs="?", help="a rules file or bundled ruleset (not with --compare)")
    p.add_argument("-n", "--games", type=games, default=1000, help=f"games to play, at most {MAX_GAMES:,} (default: 1000)")
    p.add_argument("--players", type=players, default=4, help="players at the table (default: 4)")
    p.add_argument("--bots", type=bot, default="basic",
                   help="random: any legal move; basic: a sensible player; search: looks ahead; or a plug-in "
                        "as package.module:Class, with options as name:key=value (default: basic)")
    p.add_argument("--seed", type=whole, default=0, help="seed of the first game; the same seed gives the same "
                                                         "statistics (default: 0)")
    p.add_argument("--jobs", type=jobs, default=1, help="processes to spread the games over (default: 1)")
    p.add_argument("--engine", choices=("auto", "native", "python"), default="auto",
                   help="native: the rules compiled to machine code (the `native` extra; random and basic bots); "
                        "python: the reference engine; auto: native when installed and the run is long "
                        "enough to pay for compiling it. The engine used is said on stderr (default: auto)")
    p.add_argument("--cluster", metavar="ADDRESS", help="run on a Dask cluster: `local` starts one here, or a "
                                                        "scheduler's address tcp://HOST:PORT (default: none)")
    p.add_argument("--format", choices=("table", "json", "csv"), default="table", help="output format (default: table)")
    p.add_argument("--plot", metavar="FILE.svg", help="also draw game length and wins by seat as an SVG picture")
    p.add_argument("--compare", nargs=2, metavar=("A", "B"), help="simulate two rulesets with the same seeds")
    add_rules_args(p)


def run(args) -> int:
    import sys

    from ...lang.files import printable
    from ...sim.workers import WorkerDied
    try:
        return _run(args)
    except WorkerDied as err:               # killed from outside: not a bug, not a usage mistake
        print(printable(f"unodsl simulate: stopped: {err}"), file=sys.stderr)
        return EXIT_FAIL


def _run(args) -> int:
    from ...sim.simulate import format_csv, format_table
    if args.cluster is not None:
        from ...sim.cluster import check_address
        check_address(args.cluster)
        if args.jobs > 1:
            raise UsageError("--jobs does not go with --cluster: the cluster's workers share the games")
    if args.plot is not None:
        if not args.plot.lower().endswith(".svg"):
            raise UsageError(f"--plot draws an SVG picture: name the file .svg, not `{args.plot}`")
        writable(args.plot, "plot")
    options = options_from(args.set)
    with_ = split_list(args.with_)
    if args.compare:
        if args.rules:
            raise UsageError(f"give a ruleset or --compare A B, not both (`{args.rules}` would be ignored)")
        if args.plot:
            raise UsageError("--plot draws one ruleset's games; with --compare, plot each ruleset on its own")
        return compare_rulesets(args, with_, options)
    if not args.rules:
        raise UsageError("name a ruleset (or use --compare A B)")
    start = time.perf_counter()
    rules, stats, setup = run_stats(args, args.rules, with_, options)
    seconds = time.perf_counter() - start
    summary = stats.summary()
    mods = f" + {', '.join(with_)}" if with_ else ""
    title = f"{rules.title}{mods}: {args.players} players, {args.bots} bots, seed {args.seed}"
    if args.plot:
        from ...lang.files import atomic_write
        from ...sim.plot import render
        atomic_write(args.plot, render(stats, f"{rules.title}{mods}",
                                       f"{args.players} players, {args.games} games, {args.bots} bots, seed {args.seed}"))
    about = {"ruleset": args.rules, "with": ",".join(with_), "options": " ".join(f"{k}={v}" for k, v in options.items()),
             "players": args.players, "bots": args.bots, "seed": args.seed}
    if args.format == "json":
        out = {**about, "with": with_, "options": options, **summary, "seconds": round(seconds, 3)}
        print(json.dumps(out, indent=2))
    elif args.format == "csv":
        print(format_csv(summary, about), end="")
    else:
        print(format_table(title, summary, seconds, setup))
    return EXIT_OK


def spec(text: str) -> tuple[str, list[str]]:
    """`classic+progressive+seven-o` -> ("classic", ["progressive", "seven-o"])."""
    parts = [p for p in text.split("+") if p]
    if not parts:
        raise UsageError(f"`{text}` names no ruleset")
    return parts[0], parts[1:]


def _check_players(rules, n: int) -> None:
    low, high = rules.players
    if not low <= n <= high:
        raise UsageError(f"{rules.title} is for {low} to {high} players, not {n}")


def _spread(args, ref, with_, options, rules, progress, against=None, rules_b=None):
    """Play the games in this process, over --jobs processes, or on a cluster; `against` (B's
    ref, modules and options, with its compiled `rules_b`) makes it a paired comparison."""
    from ...sim.simulate import run_parallel, simulate
    from ...sim.statistics import simulate_paired
    engine = _engine(args, rules, against, progress)
    if args.cluster is not None:
        from ...sim.cluster import run_on_cluster
        return run_on_cluster(args.cluster, ref, with_, options, args.players, args.games, args.seed,
                              args.bots, progress, against=against, engine=engine)
    if args.jobs > 1:
        return run_parallel(ref, with_, options, args.players, args.games, args.seed, args.bots,
                            args.jobs, progress, against=against, engine=engine)
    if against is not None:
        return simulate_paired(rules, rules_b, args.players, args.games, args.seed, args.bots, progress=progress)
    return simulate(rules, args.players, args.games, args.seed, args.bots, progress=progress, engine=engine)


def _engine(args, rules, against, progress) -> str:
    """The engine for this run (sim.engines.choose), said in one line on stderr; compiled before
    any worker starts, saying so meanwhile on a terminal (a first compile takes seconds)."""
    import sys

    from ...sim.engines import choose, prepare
    if against is not None:              # said only when native was asked for
        if args.engine == "native":
            print("engine: Python (comparisons are played by the Python engine)", file=sys.stderr)
        return "python"
    choice = choose(rules, args.players, args.bots, args.games, args.engine)
    compiles = choice.compiles
    if choice.engine == "native":
        if compiles:
            progress.status(f"Compiling the rules to machine code for {args.players} players "
                            "(once: later runs load it)...")
        choice = prepare(rules, args.players, args.bots)
        progress.close()
    print(choice.note, file=sys.stderr)
    progress.begin("compiling" if compiles and choice.engine == "native" else "")
    return choice.engine


def run_stats(args, ref: str, with_: list, options: dict):
    """The rules, the run's statistics, and what was done before its games (Progress.setup)."""
    from ...compile.loader import load
    from ...sim.simulate import Progress
    rules = load(ref, tuple(with_), options)
    _check_players(rules, args.players)
    progress = Progress(args.games)
    try:
        stats = _spread(args, ref, with_, options, rules, progress)
        return rules, stats, progress.setup
    finally:
        progress.close()


def compare_rulesets(args, with_, options) -> int:
    from ...compile.loader import load
    from ...sim.simulate import Progress, csv_text
    from ...sim.statistics import compare_csv_rows, format_compare
    ref_a, mods_a = spec(args.compare[0])
    ref_b, mods_b = spec(args.compare[1])
    mods_b = mods_b + with_
    rules_a, rules_b = load(ref_a, tuple(mods_a), {}), load(ref_b, tuple(mods_b), options)
    _check_players(rules_a, args.players)
    _check_players(rules_b, args.players)
    progress = Progress(args.games)
    try:
        against = (ref_b, tuple(mods_b), tuple(sorted(options.items())))
        paired = _spread(args, ref_a, mods_a, {}, rules_a, progress, against=against, rules_b=rules_b)
    finally:
        progress.close()
    summary = paired.summary()
    name_a = "+".join([ref_a] + mods_a)
    name_b = "+".join([ref_b] + mods_b) + (" " + " ".join(f"{k}={v}" for k, v in options.items()) if options else "")
    if args.format == "json":
        print(json.dumps({"a": name_a, "b": name_b, "games": args.games, "players": args.players,
                          "bots": args.bots, "seed": args.seed, **summary}, indent=2))
    elif args.format == "csv":
        lead = [name_a, name_b, args.players, args.bots, args.seed, args.games]
        print(csv_text(["a", "b", "players", "bots", "seed", "games"],
                       ["statistic", "a_value", "b_value", "difference", "ci95_low", "ci95_high"],
                       [lead + list(row) for row in compare_csv_rows(summary)]), end="")
    else:
        print(format_compare(name_a, name_b, args.games, args.players, args.bots, args.seed, summary))
    return EXIT_OK
