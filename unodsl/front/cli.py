"""The `unodsl` command: check, list, play, simulate, test, replay, sheet.

Exit codes everywhere: 0 ok; 1 diagnostics or failed checks; 2 usage errors or unreadable input.
User mistakes are answered with a message, never a traceback.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path

from .. import __version__
from ..lang.diagnostics import RulesError

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """A command-line mistake; the message says what to type instead."""


def _split_list(text: str | None) -> list[str]:
    return [p.strip() for p in (text or "").split(",") if p.strip()]


def _options(pairs: list[str] | None) -> dict:
    out = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise UsageError(f"--set takes name=value, not `{pair}`")
        name, value = pair.split("=", 1)
        out[name.strip()] = value.strip()
    return out


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`{text}` is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`{text}` is not a whole number") from None


def _add_rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--with", dest="with_", metavar="MODULES", help="house-rule modules to add, comma-separated")
    p.add_argument("--set", dest="set", action="append", metavar="NAME=VALUE", help="set a ruleset option (repeatable)")


def _load(args):
    from ..compile.loader import load
    return load(args.rules, tuple(_split_list(args.with_)), _options(args.set))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="unodsl", description="Write, check, play, test and simulate UNO-family card games.")
    parser.add_argument("--version", action="version", version=f"unodsl {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("check", help="report every mistake in rules files")
    p.add_argument("rules", nargs="+", metavar="FILE|NAME")
    p.add_argument("--format", choices=("text", "json"), default="text")
    _add_rules_args(p)

    sub.add_parser("list", help="list the bundled rulesets and house-rule modules")

    p = sub.add_parser("play", help="play at the terminal against bots")
    p.add_argument("rules", metavar="FILE|NAME", nargs="?")
    p.add_argument("--players", type=_positive, default=4)
    p.add_argument("--seat", type=_positive, default=1, help="your seat, 1..players (default 1)")
    p.add_argument("--bots", choices=("random", "basic"), default="basic")
    p.add_argument("--seed", type=_int, default=None)
    p.add_argument("--log", metavar="FILE", help="write the game's event log (JSON lines) here at the end")
    p.add_argument("--save", metavar="FILE", help="save the game after every move (resume it with --resume)")
    p.add_argument("--resume", metavar="FILE", help="continue a saved game (and keep saving to it)")
    _add_rules_args(p)

    p = sub.add_parser("simulate", help="play many games with bots and report statistics",
                       description="Play whole games with bots. With --compare A B, both are played with the "
                                   "same seeds and their differences shown with 95%% confidence intervals; "
                                   "--with and --set then apply to B only (A+m1+m2 adds modules to A).")
    p.add_argument("rules", metavar="FILE|NAME", nargs="?")
    p.add_argument("-n", "--games", type=_positive, default=1000)
    p.add_argument("--players", type=_positive, default=4)
    p.add_argument("--bots", choices=("random", "basic"), default="basic")
    p.add_argument("--seed", type=_int, default=0)
    p.add_argument("--jobs", type=_positive, default=1, help="processes to spread the games over")
    p.add_argument("--cluster", metavar="ADDRESS", help="run on a Dask cluster (`local` starts one here)")
    p.add_argument("--format", choices=("table", "json", "csv"), default="table")
    p.add_argument("--plot", metavar="FILE.svg", help="draw game length and wins by seat as an SVG picture")
    p.add_argument("--compare", nargs=2, metavar=("A", "B"), help="simulate two rulesets with the same seeds")
    _add_rules_args(p)

    p = sub.add_parser("test", help="run scenario files")
    p.add_argument("paths", nargs="+", metavar="PATH")

    p = sub.add_parser("replay", help="re-run an event log and confirm its final state")
    p.add_argument("log", metavar="LOG")

    p = sub.add_parser("sheet", help="print the rules as a rule sheet (HTML, Markdown or PDF)")
    p.add_argument("rules", metavar="FILE|NAME")
    p.add_argument("--format", choices=("html", "md", "pdf"), default=None,
                   help="default: html, or what the -o file name ends with")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4", help="page size when printed (default a4)")
    p.add_argument("--stats", type=_positive, metavar="N", help='add a "How it plays" box from N simulated games')
    p.add_argument("--template", metavar="FILE", help="render your own Jinja template (in Jinja's sandbox)")
    p.add_argument("-o", "--output", metavar="FILE", help="write here (PDF needs it); default: standard output")
    _add_rules_args(p)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    handler = {"check": cmd_check, "list": cmd_list, "play": cmd_play, "simulate": cmd_simulate,
               "test": cmd_test, "replay": cmd_replay, "sheet": cmd_sheet}[args.command]
    try:
        return handler(args)
    except UsageError as err:
        print(f"unodsl {args.command}: {err}", file=sys.stderr)
        return EXIT_USAGE
    except RulesError as err:
        print(err.render(), file=sys.stderr)
        return EXIT_FAIL
    except (LookupError, OSError, ValueError) as err:
        msg = err.args[0] if isinstance(err, LookupError) and err.args else (
            f"{err.filename}: {err.strerror}" if isinstance(err, OSError) and err.filename else str(err))
        print(f"unodsl {args.command}: {msg}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except Exception as err:          # a bug in unodsl, not a user mistake: say so briefly
        if os.environ.get("UNODSL_DEBUG"):
            raise
        print(f"unodsl {args.command}: internal error: {type(err).__name__}: {err}\n"
              "  please report it; run again with UNODSL_DEBUG=1 to see the traceback", file=sys.stderr)
        return 70


def cmd_check(args) -> int:
    from ..compile.loader import check
    results = []
    worst = EXIT_OK
    for ref in args.rules:
        diags, sources = check(ref, tuple(_split_list(args.with_)), _options(args.set))
        results.append((ref, diags, sources))
        if any(d.severity == "error" for d in diags):
            worst = EXIT_FAIL
    if args.format == "json":
        print(json.dumps([{"rules": ref, "ok": not any(d.severity == "error" for d in diags),
                           "diagnostics": [d.as_json() for d in diags]} for ref, diags, _ in results], indent=2))
        return worst
    for ref, diags, sources in results:
        for d in diags:
            print(d.render(sources))
        errors = sum(d.severity == "error" for d in diags)
        warnings = len(diags) - errors
        status = "ok" if not errors else f"{errors} error{'s' * (errors != 1)}"
        extra = f", {warnings} warning{'s' * (warnings != 1)}" if warnings else ""
        print(f"{ref}: {status}{extra}")
    return worst


def cmd_list(args) -> int:
    from ..compile.loader import bundled_names
    rows = bundled_names()
    for kind, heading in (("ruleset", "Rulesets"), ("module", "House-rule modules (--with)")):
        print(heading + ":")
        for name, k, title in rows:
            if k == kind:
                print(f"  {name:<16} {title}")
    return EXIT_OK


def cmd_play(args) -> int:
    from .play import play_session
    if args.resume:
        from ..engine.savegame import SaveError, read
        try:
            saved = read(args.resume)
            return play_session(None, saved.players, saved.humans, saved.bot, saved.seed, sys.stdin, sys.stdout,
                                log_path=args.log, save_path=args.save or args.resume, resume=saved)
        except SaveError as err:
            print(f"unodsl play: {err}", file=sys.stderr)
            return EXIT_USAGE
    if not args.rules:
        raise UsageError("name a ruleset to play, or --resume FILE")
    rules = _load(args)
    low, high = rules.players
    if not low <= args.players <= high:
        raise UsageError(f"{rules.title} is for {low} to {high} players, not {args.players}")
    if args.seat > args.players:
        raise UsageError(f"--seat must be between 1 and {args.players}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    return play_session(rules, args.players, [args.seat - 1], args.bots, seed, sys.stdin, sys.stdout,
                        log_path=args.log, ref=(args.rules, _split_list(args.with_), _options(args.set)),
                        save_path=args.save)


def _spec(text: str) -> tuple[str, list[str]]:
    """`classic+progressive+seven-o` -> ("classic", ["progressive", "seven-o"])."""
    parts = [p for p in text.split("+") if p]
    if not parts:
        raise UsageError(f"`{text}` names no ruleset")
    return parts[0], parts[1:]


def _run_stats(args, ref: str, with_: list, options: dict):
    from ..compile.loader import load
    from ..sim.simulate import Progress, run_parallel, simulate
    rules = load(ref, tuple(with_), options)
    low, high = rules.players
    if not low <= args.players <= high:
        raise UsageError(f"{rules.title} is for {low} to {high} players, not {args.players}")
    progress = Progress(args.games)
    try:
        if args.cluster:
            from ..sim.cluster import run_on_cluster
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


def cmd_simulate(args) -> int:
    import time

    from ..sim.simulate import format_csv, format_table
    options = _options(args.set)
    with_ = _split_list(args.with_)
    if args.compare:
        return _cmd_compare(args, with_, options)
    if not args.rules:
        raise UsageError("name a ruleset (or use --compare A B)")
    start = time.perf_counter()
    rules, stats = _run_stats(args, args.rules, with_, options)
    seconds = time.perf_counter() - start
    summary = stats.summary()
    mods = f" + {', '.join(with_)}" if with_ else ""
    title = f"{rules.title}{mods}: {args.players} players, {args.bots} bots, seed {args.seed}"
    if args.plot:
        from ..sim.plot import render
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


def _cmd_compare(args, with_, options) -> int:
    from ..sim.simulate import compare
    ref_a, mods_a = _spec(args.compare[0])
    ref_b, mods_b = _spec(args.compare[1])
    _, stats_a = _run_stats(args, ref_a, mods_a, {})
    _, stats_b = _run_stats(args, ref_b, mods_b + with_, options)
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


def cmd_test(args) -> int:
    from .scenarios import ScenarioFileError, collect, load_file, run
    files = collect(args.paths)
    missing = [str(p) for p in map(Path, args.paths) if not p.exists()]
    if missing:
        raise UsageError("no such file or folder: " + ", ".join(missing))
    passed = failed = 0
    broken = False
    for path in files:
        try:
            scenarios = load_file(path)
        except ScenarioFileError as err:
            print(f"ERROR {err}")
            broken = True
            continue
        for sc in scenarios:
            try:
                failures = run(sc)
            except ScenarioFileError as err:
                print(f"ERROR {err}")
                broken = True
                failed += 1
                continue
            if failures:
                failed += 1
                for f in failures:
                    print(f.render())
            else:
                passed += 1
    print(f"{passed} passed, {failed} failed")
    return EXIT_USAGE if broken else EXIT_FAIL if failed else EXIT_OK


def cmd_replay(args) -> int:
    from ..engine.eventlog import ReplayError, digest, replay
    with open(args.log, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    try:
        game = replay(lines)
    except ReplayError as err:
        print(f"{args.log}: {err}", file=sys.stderr)
        return EXIT_FAIL
    print(f"{args.log}: replayed {len(game.log)} actions; final state {digest(game)} matches")
    return EXIT_OK


def cmd_sheet(args) -> int:
    from ..sheets.sheet import make_sheet
    fmt = args.format
    if fmt is None:
        suffix = Path(args.output).suffix.lower() if args.output else ""
        fmt = {".pdf": "pdf", ".md": "md", ".markdown": "md"}.get(suffix, "html")
    if fmt == "pdf" and not args.output:
        raise UsageError("PDF output needs a file: add -o FILE.pdf")
    result = make_sheet(args.rules, tuple(_split_list(args.with_)), _options(args.set), fmt=fmt,
                        paper=args.paper, stats=args.stats or 0, template=args.template)
    if args.output:
        if isinstance(result, bytes):
            Path(args.output).write_bytes(result)
        else:
            Path(args.output).write_text(result, encoding="utf-8")
    else:
        sys.stdout.write(result)
    return EXIT_OK


def run() -> None:
    sys.exit(main())
