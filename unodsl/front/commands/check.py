"""`unodsl check`: every mistake in rules files, as text or JSON."""
from __future__ import annotations

import json

from ...lang.files import printable
from .common import EXIT_FAIL, EXIT_OK, add_rules_args, options_from, split_list

NAME = "check"
HELP = "report every mistake in rules files"


STDIN = "<stdin>"


def arguments(p) -> None:
    p.add_argument("rules", nargs="+", metavar="FILE|NAME",
                   help="rules files (.uno), bundled names (`unodsl list`), or - for standard input")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text for people, json for editors and CI (default: text)")
    add_rules_args(p)


def run(args) -> int:
    import sys

    from ...compile.loader import MAX_FILE_BYTES, check
    from ...lang.files import read_stream
    results = []
    worst = EXIT_OK
    files = None
    if "-" in args.rules:
        files = {STDIN: read_stream(sys.stdin.buffer, MAX_FILE_BYTES, "standard input", "rules file")}
    for ref in args.rules:
        ref = STDIN if ref == "-" else ref
        diags, sources = check(ref, tuple(split_list(args.with_)), options_from(args.set), files)
        results.append((ref, diags, sources))
        if any(d.severity == "error" for d in diags):
            worst = EXIT_FAIL
    if args.format == "json":
        print(json.dumps([{"rules": ref, "ok": not any(d.severity == "error" for d in diags),
                           "diagnostics": [d.as_json() for d in diags]} for ref, diags, _ in results], indent=2))
        return worst
    for ref, diags, sources in results:
        for d in diags:
            print(printable(d.render(sources)))
        errors = sum(d.severity == "error" for d in diags)
        warnings = len(diags) - errors
        status = "ok" if not errors else f"{errors} error{'s' * (errors != 1)}"
        extra = f", {warnings} warning{'s' * (warnings != 1)}" if warnings else ""
        print(printable(f"{ref}: {status}{extra}"))
    return worst
