"""`unodsl play`: a game at the terminal against bots, saved and resumed."""
from __future__ import annotations

import random
import sys

from .common import (
    EXIT_USAGE,
    UsageError,
    add_rules_args,
    bot,
    load_rules,
    options_from,
    players,
    positive,
    split_list,
    whole,
    writable,
)

NAME = "play"
HELP = "play at the terminal against bots"
DESCRIPTION = ("Play a game at the terminal against bots. Type moves as scenario steps write them "
               "(`play R5`, `draw`, `challenge`); `help` lists them. Ctrl-C stops the game (exit code 130) "
               "after the move in progress; with --save it can be resumed.")
SETUP_FLAGS = (("players", "--players"), ("seat", "--seat"), ("bots", "--bots"), ("seed", "--seed"),
               ("with_", "--with"), ("set", "--set"))


def arguments(p) -> None:
    p.add_argument("rules", metavar="FILE|NAME", nargs="?", help="a rules file or bundled ruleset (not with --resume)")
    p.add_argument("--players", type=players, default=None, help="players at the table (default: 4)")
    p.add_argument("--seat", type=positive, default=None, help="your seat, 1 to the number of players (default: 1)")
    p.add_argument("--bots", type=bot, default=None, metavar="BOT",
                   help="how the other seats play: random, basic, search, a plug-in's name or an import "
                        "path like package.module:Class, with options as in search:iterations=50 (default: basic)")
    p.add_argument("--seed", type=whole, default=None, help="the game's seed, to play the same game again "
                                                           "(default: a new one each time)")
    p.add_argument("--log", metavar="FILE", help="write the game's event log (JSON lines) here at the end")
    p.add_argument("--save", metavar="FILE", help="save the game after every move (resume it with --resume)")
    p.add_argument("--resume", metavar="FILE", help="continue a saved game (and keep saving to it)")
    add_rules_args(p)


def run(args) -> int:
    from ..play import play_session
    writable(args.log, "event log")
    writable(args.save, "save")
    if args.resume:
        from ...engine.savegame import SaveError, read
        if args.rules:
            raise UsageError(f"--resume continues the saved game with its own rules: leave out `{args.rules}`")
        given = [flag for attr, flag in SETUP_FLAGS if getattr(args, attr) is not None]
        if given:
            raise UsageError(f"--resume continues the saved game as it was set up: leave out {', '.join(given)}")
        try:
            saved = read(args.resume)
            writable(args.save or args.resume, "save")
            return play_session(None, saved.players, saved.humans, saved.bot, saved.seed, sys.stdin, sys.stdout,
                                log_path=args.log, save_path=args.save or args.resume, resume=saved)
        except SaveError as err:
            print(f"unodsl play: {err}", file=sys.stderr)
            return EXIT_USAGE
    if not args.rules:
        raise UsageError("name a ruleset to play, or --resume FILE")
    n = args.players if args.players is not None else 4
    seat = args.seat if args.seat is not None else 1
    rules = load_rules(args)
    low, high = rules.players
    if not low <= n <= high:
        raise UsageError(f"{rules.title} is for {low} to {high} players, not {n}")
    if seat > n:
        raise UsageError(f"--seat must be between 1 and {n}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    return play_session(rules, n, [seat - 1], args.bots or "basic", seed, sys.stdin, sys.stdout,
                        log_path=args.log, ref=(args.rules, split_list(args.with_), options_from(args.set)),
                        save_path=args.save)
