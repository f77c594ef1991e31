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


def rule_text_warnings(ref, with_, options, sources) -> list:
    """W501/W502: the author's words against the rules (`unodsl.sheets.check_rule_texts`), for the
    files the user named (bundled parents are checked when a bundled name is given)."""
    from ...compile.loader import is_path
    from ...sheets import check_rule_texts
    from ...sheets.rules import load_rules
    try:
        rules = load_rules(ref, with_, options).rules
    except Exception:           # the checker above has already said what is wrong
        return []
    files = {name for name in sources if not name.startswith("<bundled>")} if is_path(ref) else None
    found = check_rule_texts(rules, sources, files)
    return sorted(found, key=lambda d: (d.span.file, d.span.line, d.span.col, d.code))


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
        with_, options = tuple(split_list(args.with_)), options_from(args.set)
        diags, sources = check(ref, with_, options, files)
        if not any(d.severity == "error" for d in diags) and ref != STDIN:
            diags = diags + rule_text_warnings(ref, with_, options, sources)
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
