"""The `unodsl` command: parses the command line and runs one of the commands in `commands/`.

Exit codes everywhere: 0 ok; 1 diagnostics or failed checks; 2 usage errors or unreadable input.
User mistakes are answered with a message, never a traceback.
"""
from __future__ import annotations

import argparse
import os
import sys

from .. import __version__
from ..lang.diagnostics import RulesError
from .commands import COMMANDS
from .commands.common import EXIT_FAIL, EXIT_USAGE, UsageError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="unodsl", description="Write, check, play, test and simulate UNO-family card games.")
    parser.add_argument("--version", action="version", version=f"unodsl {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        p = sub.add_parser(command.NAME, help=command.HELP, description=getattr(command, "DESCRIPTION", None))
        command.arguments(p)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    handler = {c.NAME: c.run for c in COMMANDS}[args.command]
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


def run() -> None:
    sys.exit(main())
