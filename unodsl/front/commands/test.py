"""`unodsl test`: run scenario files, every one of them, and sum up.

One broken file or scenario never stops the run: it is reported (a mistake in the file as
ERROR with its place, a failure of unodsl itself as an internal error) and the others still run,
so the summary line always comes. Exit code: 0 all passed; 1 a scenario failed or no scenario
was found; 2 a file could not be run; 70 unodsl itself failed on a scenario.
"""
from __future__ import annotations

import os
from pathlib import Path

from .common import EXIT_FAIL, EXIT_OK, EXIT_USAGE, UsageError

NAME = "test"
HELP = "run scenario files"
DESCRIPTION = "Run scenario files (YAML): every file given, and every .yaml or .yml file in the folders given."
EXIT_BUG = 70


def arguments(p) -> None:
    p.add_argument("paths", nargs="+", metavar="PATH", help="scenario files, or folders to search for them")


def run(args) -> int:
    from ...lang.files import printable
    from ..scenarios import ScenarioFileError, collect, load_file, run
    missing = [str(p) for p in map(Path, args.paths) if not p.exists()]
    if missing:
        raise UsageError("no such file or folder: " + ", ".join(missing))
    files = collect(args.paths)
    if not files:
        print(f"no scenario files (.yaml or .yml) in {', '.join(args.paths)}")
        return EXIT_FAIL
    passed = failed = 0
    broken = bug = False
    for path in files:
        try:
            scenarios = load_file(path)
        except ScenarioFileError as err:
            print(printable(f"ERROR {err}"))
            broken = True
            continue
        for sc in scenarios:
            try:
                failures = run(sc)
            except ScenarioFileError as err:
                print(printable(f"ERROR {err}"))
                broken = True
                failed += 1
                continue
            except Exception as err:        # unodsl failed, not the scenario: say so, go on
                if os.environ.get("UNODSL_DEBUG"):
                    raise
                print(printable(f"ERROR {sc.path}:{sc.line}: {sc.name}\n  internal error: {type(err).__name__}: "
                                f"{err}\n  this is a bug in unodsl: please report it; run again with "
                                "UNODSL_DEBUG=1 to see the traceback"))
                bug = True
                failed += 1
                continue
            if failures:
                failed += 1
                for f in failures:
                    print(printable(f.render()))
            else:
                passed += 1
    print(f"{passed} passed, {failed} failed")
    return EXIT_BUG if bug else EXIT_USAGE if broken else EXIT_FAIL if failed else EXIT_OK
