"""`unodsl test`: run scenario files."""
from __future__ import annotations

from pathlib import Path

from .common import EXIT_FAIL, EXIT_OK, EXIT_USAGE, UsageError

NAME = "test"
HELP = "run scenario files"


def arguments(p) -> None:
    p.add_argument("paths", nargs="+", metavar="PATH")


def run(args) -> int:
    from ..scenarios import ScenarioFileError, collect, load_file, run
    files = collect(args.paths)
    missing = [str(p) for p in map(Path, args.paths) if not p.exists()]
    if missing:
        raise UsageError("no such file or folder: " + ", ".join(missing))
    passed = failed = 0
    broken = False
    for path in files:
        try:
            scenarios = load_file(path)
        except ScenarioFileError as err:
            print(f"ERROR {err}")
            broken = True
            continue
        for sc in scenarios:
            try:
                failures = run(sc)
            except ScenarioFileError as err:
                print(f"ERROR {err}")
                broken = True
                failed += 1
                continue
            if failures:
                failed += 1
                for f in failures:
                    print(f.render())
            else:
                passed += 1
    print(f"{passed} passed, {failed} failed")
    return EXIT_USAGE if broken else EXIT_FAIL if failed else EXIT_OK
