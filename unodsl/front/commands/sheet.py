"""`unodsl sheet`: the rules as a rule sheet (HTML, Markdown or PDF)."""
from __future__ import annotations

import sys
from pathlib import Path

from .common import (
    EXIT_OK,
    UsageError,
    add_rules_args,
    options_from,
    positive,
    split_list,
)

NAME = "sheet"
HELP = "print the rules as a rule sheet (HTML, Markdown or PDF)"


def arguments(p) -> None:
    p.add_argument("rules", metavar="FILE|NAME")
    p.add_argument("--format", choices=("html", "md", "pdf"), default=None,
                   help="default: html, or what the -o file name ends with")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4", help="page size when printed (default a4)")
    p.add_argument("--stats", type=positive, metavar="N",
                   help='add "How long it takes" from N games played by bots (how long a game lasts, '
                        'whether playing first helps)')
    p.add_argument("--aid", action="store_true", help="print the one-page player aid instead of the whole sheet")
    p.add_argument("--template", metavar="FILE", help="render your own Jinja template (in Jinja's sandbox)")
    p.add_argument("-o", "--output", metavar="FILE", help="write here (PDF needs it); default: standard output")
    add_rules_args(p)


def run(args) -> int:
    from ...sheets.sheet import make_sheet
    from ..sheet_examples import sheet_examples
    fmt = args.format
    if fmt is None:
        suffix = Path(args.output).suffix.lower() if args.output else ""
        fmt = {".pdf": "pdf", ".md": "md", ".markdown": "md"}.get(suffix, "html")
    if fmt == "pdf" and not args.output:
        raise UsageError("PDF output needs a file: add -o FILE.pdf")
    with_ = tuple(split_list(args.with_))
    result = make_sheet(args.rules, with_, options_from(args.set), fmt=fmt,
                        paper=args.paper, stats=args.stats or 0, template=args.template, aid=args.aid,
                        examples=lambda rules: sheet_examples(args.rules, rules, with_))
    if args.output:
        if isinstance(result, bytes):
            Path(args.output).write_bytes(result)
        else:
            Path(args.output).write_text(result, encoding="utf-8")
    else:
        sys.stdout.write(result)
    return EXIT_OK
