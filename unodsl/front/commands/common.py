"""What every command shares: exit codes, usage errors, argument types, the rules arguments and
loading. Every number a flag takes is checked here, with its bounds, before any work starts."""
from __future__ import annotations

import argparse
import os

from ...lang.files import MAX_NUMBER_DIGITS, check_writable

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
MAX_GAMES = 1_000_000_000          # games one run may ask for: hours already, not a lifetime
MAX_JOBS_PER_CORE = 4


class UsageError(Exception):
    """A command-line mistake; the message says what to type instead."""


def split_list(text: str | None) -> list[str]:
    return [p.strip() for p in (text or "").split(",") if p.strip()]


def options_from(pairs: list[str] | None) -> dict:
    out = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise UsageError(f"--set takes name=value, not `{pair}`")
        name, value = pair.split("=", 1)
        digits = value.strip().lstrip("+-")
        if digits.isdigit() and len(digits) > MAX_NUMBER_DIGITS:
            raise UsageError(f"--set {name.strip()}=...: a number of {len(digits):,} digits is too long "
                             f"(at most {MAX_NUMBER_DIGITS})")
        out[name.strip()] = value.strip()
    return out


def _number(text: str) -> int:
    digits = text.strip().lstrip("+-")
    if digits.isdigit() and len(digits) > MAX_NUMBER_DIGITS:
        raise argparse.ArgumentTypeError(f"a number of {len(digits):,} digits is too long")
    try:
        return int(text)
    except ValueError:
        hint = " (write it out in digits, like 1000000)" if any(c in text.lower() for c in ".e_") else ""
        raise argparse.ArgumentTypeError(f"`{text}` is not a whole number{hint}") from None


def whole(text: str) -> int:
    return _number(text)


def bounded(low: int, high: int | None = None, what: str = ""):
    """An argument type: a whole number from `low` to `high`, the message naming the bound."""
    def said(bound: int) -> str:
        noun = what[:-1] if bound == 1 and what.endswith("s") else what     # 1 game, 2 games
        return f"{bound:,}{noun and ' ' + noun}"

    def parse(text: str) -> int:
        value = _number(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {said(low)}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"must be at most {said(high)}")
        return value
    parse.__name__ = "number"           # what argparse names in its own messages
    return parse


positive = bounded(1)
players = bounded(2, None, "players")
games = bounded(1, MAX_GAMES, "games")


def max_jobs() -> int:
    return MAX_JOBS_PER_CORE * (os.cpu_count() or 1)


def jobs(text: str) -> int:
    value = bounded(1)(text)
    if value > max_jobs():
        raise argparse.ArgumentTypeError(f"must be at most {max_jobs()} here ({MAX_JOBS_PER_CORE} per core on "
                                         f"this {os.cpu_count() or 1}-core machine; more only wait their turn)")
    return value


def bot(text: str) -> str:
    """An argument type: a bot's name with its options (engine.bots.make_bot), checked now."""
    from ...engine.bots import BotError, check_bot
    try:
        return check_bot(text)
    except BotError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


class _JoinModules(argparse.Action):
    """`--with a --with b` adds both, as `--with a,b` does (the value stays one comma-separated text)."""

    def __call__(self, parser, namespace, values, option_string=None):
        before = getattr(namespace, self.dest, None)
        setattr(namespace, self.dest, f"{before},{values}" if before else values)


def add_rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--with", dest="with_", metavar="MODULES", action=_JoinModules,
                   help="house-rule modules to add, comma-separated (`unodsl list` shows them; repeatable)")
    p.add_argument("--set", dest="set", action="append", metavar="NAME=VALUE",
                   help="set an option of the ruleset, e.g. --set uno_penalty=4 (repeatable)")


def writable(path: str | None, what: str) -> None:
    """A path given for output, checked before any work is done; none given is fine."""
    if path is not None and path != "-":
        check_writable(path, what)


def load_rules(args):
    from ...compile.loader import load
    return load(args.rules, tuple(split_list(args.with_)), options_from(args.set))
