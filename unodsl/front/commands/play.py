"""`unodsl play`: a game at the terminal against bots, saved and resumed."""
from __future__ import annotations

import random
import sys

from .common import (
    EXIT_USAGE,
    UsageError,
    add_rules_args,
    load_rules,
    options_from,
    positive,
    split_list,
    whole,
)

NAME = "play"
HELP = "play at the terminal against bots"


def arguments(p) -> None:
    p.add_argument("rules", metavar="FILE|NAME", nargs="?")
    p.add_argument("--players", type=positive, default=4)
    p.add_argument("--seat", type=positive, default=1, help="your seat, 1..players (default 1)")
    p.add_argument("--bots", choices=("random", "basic"), default="basic")
    p.add_argument("--seed", type=whole, default=None)
    p.add_argument("--log", metavar="FILE", help="write the game's event log (JSON lines) here at the end")
    p.add_argument("--save", metavar="FILE", help="save the game after every move (resume it with --resume)")
    p.add_argument("--resume", metavar="FILE", help="continue a saved game (and keep saving to it)")
    add_rules_args(p)


def run(args) -> int:
    from ..play import play_session
    if args.resume:
        from ...engine.savegame import SaveError, read
        try:
            saved = read(args.resume)
            return play_session(None, saved.players, saved.humans, saved.bot, saved.seed, sys.stdin, sys.stdout,
                                log_path=args.log, save_path=args.save or args.resume, resume=saved)
        except SaveError as err:
            print(f"unodsl play: {err}", file=sys.stderr)
            return EXIT_USAGE
    if not args.rules:
        raise UsageError("name a ruleset to play, or --resume FILE")
    rules = load_rules(args)
    low, high = rules.players
    if not low <= args.players <= high:
        raise UsageError(f"{rules.title} is for {low} to {high} players, not {args.players}")
    if args.seat > args.players:
        raise UsageError(f"--seat must be between 1 and {args.players}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    return play_session(rules, args.players, [args.seat - 1], args.bots, seed, sys.stdin, sys.stdout,
                        log_path=args.log, ref=(args.rules, split_list(args.with_), options_from(args.set)),
                        save_path=args.save)
