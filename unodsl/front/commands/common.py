"""What every command shares: exit codes, usage errors, the rules arguments and loading."""
from __future__ import annotations

import argparse

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


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
        out[name.strip()] = value.strip()
    return out


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`{text}` is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`{text}` is not a whole number") from None


def add_rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--with", dest="with_", metavar="MODULES", help="house-rule modules to add, comma-separated")
    p.add_argument("--set", dest="set", action="append", metavar="NAME=VALUE", help="set a ruleset option (repeatable)")


def load_rules(args):
    from ...compile.loader import load
    return load(args.rules, tuple(split_list(args.with_)), options_from(args.set))
