"""The `unodsl` command: parses the command line and runs one of the commands in `commands/`.

Exit codes everywhere: 0 ok; 1 diagnostics or failed checks; 2 a usage mistake or input that
cannot be used (an unknown name, a missing, unreadable or malformed file); 70 a bug in unodsl
(said in one line, with how to see the traceback); 130 interrupted with Ctrl-C. Output piped
into a program that stops reading (`| head`) ends quietly, as any Unix tool does (141).
User mistakes are answered with a message, never a traceback. A mistake in the user's input is
an InputError (or UsageError, or RulesError with its diagnostics); anything else that reaches
here is unodsl's fault, whatever its type.
"""
from __future__ import annotations

import argparse
import os
import sys

from .. import __version__
from ..lang.diagnostics import RulesError
from ..lang.files import InputError, printable
from .commands import COMMANDS
from .commands.common import EXIT_FAIL, EXIT_USAGE, UsageError

EXIT_BUG, EXIT_INTERRUPTED, EXIT_PIPE = 70, 130, 141


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="unodsl", description="Write, check, play, test and simulate UNO-family card games.",
                                     epilog="Run `unodsl COMMAND --help` for the arguments of each command.")
    parser.add_argument("-V", "--version", action="version", version=f"unodsl {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        p = sub.add_parser(command.NAME, help=command.HELP, description=getattr(command, "DESCRIPTION", command.HELP))
        command.arguments(p)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv:
        parser.print_usage(sys.stderr)
        print("unodsl: name a command; `unodsl --help` lists them", file=sys.stderr)
        return EXIT_USAGE
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_usage(sys.stderr)
        return EXIT_USAGE
    handler = {c.NAME: c.run for c in COMMANDS}[args.command]
    try:
        return handler(args)
    except UsageError as err:
        _error(args.command, err)
        return EXIT_USAGE
    except RulesError as err:
        print(printable(err.render()), file=sys.stderr)
        return EXIT_FAIL
    except InputError as err:
        _error(args.command, err)
        return EXIT_USAGE
    except OSError as err:
        if isinstance(err, BrokenPipeError):
            raise
        if err.filename is None:
            raise                          # not about a file the user named: a bug, below
        _error(args.command, f"{err.filename}: {err.strerror}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_PIPE
    except Exception as err:               # a bug in unodsl, not a user mistake: say so briefly
        if os.environ.get("UNODSL_DEBUG"):
            raise
        print(printable(f"unodsl {args.command}: internal error: {type(err).__name__}: {err}\n"
                        "  this is a bug in unodsl: please report it; run the same command again with "
                        "UNODSL_DEBUG=1 to see the traceback"), file=sys.stderr)
        return EXIT_BUG


def _error(command: str, message) -> None:
    print(printable(f"unodsl {command}: {message}"), file=sys.stderr)


def run() -> None:
    """The console script: `main`, with a Ctrl-C or a closed pipe outside any command too."""
    try:
        code = main()
        sys.stdout.flush()
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        code = EXIT_INTERRUPTED
    except BrokenPipeError:
        code = EXIT_PIPE
    if code == EXIT_PIPE:                  # standard output is gone: nothing more may go to it
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
    sys.exit(code)
