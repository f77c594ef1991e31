"""`unodsl check`: every mistake in rules files, as text or JSON."""
from __future__ import annotations

import json

from .common import EXIT_FAIL, EXIT_OK, add_rules_args, options_from, split_list

NAME = "check"
HELP = "report every mistake in rules files"


def arguments(p) -> None:
    p.add_argument("rules", nargs="+", metavar="FILE|NAME")
    p.add_argument("--format", choices=("text", "json"), default="text")
    add_rules_args(p)


def run(args) -> int:
    from ...compile.loader import check
    results = []
    worst = EXIT_OK
    for ref in args.rules:
        diags, sources = check(ref, tuple(split_list(args.with_)), options_from(args.set))
        results.append((ref, diags, sources))
        if any(d.severity == "error" for d in diags):
            worst = EXIT_FAIL
    if args.format == "json":
        print(json.dumps([{"rules": ref, "ok": not any(d.severity == "error" for d in diags),
                           "diagnostics": [d.as_json() for d in diags]} for ref, diags, _ in results], indent=2))
        return worst
    for ref, diags, sources in results:
        for d in diags:
            print(d.render(sources))
        errors = sum(d.severity == "error" for d in diags)
        warnings = len(diags) - errors
        status = "ok" if not errors else f"{errors} error{'s' * (errors != 1)}"
        extra = f", {warnings} warning{'s' * (warnings != 1)}" if warnings else ""
        print(f"{ref}: {status}{extra}")
    return worst
