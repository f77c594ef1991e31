"""The commands of `unodsl`, one module each.

Each module names its command (NAME, HELP, an optional DESCRIPTION), declares its arguments
(`arguments(parser)`) and runs it (`run(args) -> exit code`). A new command is a new module
and a line in COMMANDS, in the order `unodsl --help` lists them.
"""
from __future__ import annotations

from . import check, explain, fmt, listing, lsp, play, replay, serve, sheet, simulate, test

COMMANDS = (check, explain, fmt, listing, play, serve, simulate, test, replay, sheet, lsp)
