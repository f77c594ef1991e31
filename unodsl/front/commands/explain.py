"""`unodsl explain CODE`: the catalogue entry of a diagnostic code (meaning, example, fix)."""
from __future__ import annotations

from .common import EXIT_OK, UsageError

NAME = "explain"
HELP = "explain a diagnostic code (E201, W302 ...): what it means, an example, the fix"
DESCRIPTION = "Prints the catalogue entry of a diagnostic code; without a code, lists every code."


def arguments(p) -> None:
    p.add_argument("code", nargs="?", metavar="CODE", help="a code such as E201 (without it: every code)")


def run(args) -> int:
    from ...lang.catalogue import did_you_mean, entries, lookup
    if args.code is None:
        for entry in entries().values():
            print(f"{entry.code}  {entry.title}")
        return EXIT_OK
    entry = lookup(args.code)
    if entry is None:
        raise UsageError(f"no diagnostic has the code `{args.code}`; {did_you_mean(args.code)}")
    print(entry.as_text(), end="")
    return EXIT_OK
