"""`unodsl sheet`: the rules as a rule sheet (HTML, Markdown or PDF)."""
from __future__ import annotations

import sys
from pathlib import Path

from .common import (
    EXIT_OK,
    UsageError,
    add_rules_args,
    bounded,
    options_from,
    split_list,
    writable,
)

NAME = "sheet"
HELP = "print the rules as a rule sheet (HTML, Markdown or PDF)"
MAX_STATS = 10_000           # games for "How long it takes": enough for its figures, in minutes at most


def arguments(p) -> None:
    p.add_argument("rules", metavar="FILE|NAME", help="a rules file or a bundled ruleset or module")
    p.add_argument("--format", choices=("html", "md", "pdf"), default=None,
                   help="default: html, or what the -o file name ends with")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4", help="page size when printed (default: a4)")
    p.add_argument("--stats", type=bounded(1, MAX_STATS, "games"), metavar="N",
                   help=f'add "How long it takes" from N games played by bots (how long a game lasts, '
                        f'whether playing first helps), at most {MAX_STATS:,} (default: none)')
    p.add_argument("--aid", action="store_true", help="print the one-page player aid instead of the whole sheet")
    p.add_argument("--template", metavar="FILE", help="render your own Jinja template (in Jinja's sandbox)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write here (- for standard output; PDF needs a file or -); default: standard output")
    add_rules_args(p)


def run(args) -> int:
    from ...lang.files import atomic_write
    from ...sheets.sheet import make_sheet
    from ..sheet_examples import sheet_examples
    fmt = args.format
    to_stdout = args.output in (None, "-")
    if fmt is None:
        suffix = Path(args.output).suffix.lower() if not to_stdout else ""
        fmt = {".pdf": "pdf", ".md": "md", ".markdown": "md"}.get(suffix, "html")
    if fmt == "pdf" and args.output is None:
        raise UsageError("PDF output needs a file: add -o FILE.pdf (or -o - for standard output)")
    writable(args.output, "sheet")
    with_ = tuple(split_list(args.with_))
    result = make_sheet(args.rules, with_, options_from(args.set), fmt=fmt,
                        paper=args.paper, stats=args.stats or 0, template=args.template, aid=args.aid,
                        examples=lambda rules: sheet_examples(args.rules, rules, with_))
    if not to_stdout:
        atomic_write(args.output, result)
    elif isinstance(result, bytes):
        sys.stdout.flush()
        sys.stdout.buffer.write(result)
    else:
        sys.stdout.write(result)
    return EXIT_OK
