"""`unodsl replay`: re-run an event log and confirm it ends in the state it recorded."""
from __future__ import annotations

import sys

from .common import EXIT_FAIL, EXIT_OK

NAME = "replay"
HELP = "re-run an event log and confirm its final state"
DESCRIPTION = ("Re-run an event log written by `unodsl play --log` and confirm that it is whole, unchanged, "
               "and that the game it names logs the same events and ends in the same state. "
               "Exit code 1 if it does not.")


def arguments(p) -> None:
    p.add_argument("log", metavar="LOG", help="the event log (JSON lines), or - for standard input")


def run(args) -> int:
    from ...engine.eventlog import MAX_LOG_BYTES, ReplayError, digest, replay
    from ...lang.files import printable, read_stream, read_text
    if args.log == "-":
        text = read_stream(sys.stdin.buffer, MAX_LOG_BYTES, "standard input", "log")
    else:
        text = read_text(args.log, MAX_LOG_BYTES, "log")
    try:
        game = replay(text.splitlines())
    except ReplayError as err:
        print(printable(f"{args.log}: {err}"), file=sys.stderr)
        return EXIT_FAIL
    print(f"{args.log}: replayed {len(game.log)} actions; final state {digest(game)} matches")
    return EXIT_OK
