"""`unodsl replay`: re-run an event log and confirm it ends in the state it recorded."""
from __future__ import annotations

import sys

from .common import EXIT_FAIL, EXIT_OK

NAME = "replay"
HELP = "re-run an event log and confirm its final state"


def arguments(p) -> None:
    p.add_argument("log", metavar="LOG")


def run(args) -> int:
    from ...engine.eventlog import ReplayError, digest, replay
    with open(args.log, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    try:
        game = replay(lines)
    except ReplayError as err:
        print(f"{args.log}: {err}", file=sys.stderr)
        return EXIT_FAIL
    print(f"{args.log}: replayed {len(game.log)} actions; final state {digest(game)} matches")
    return EXIT_OK
