"""How long `unodsl sheet NAME` takes for every bundled ruleset, as a person runs it: the whole
command, start-up included, beside `unodsl check NAME` (the same rules read, no sheet made).

Each command runs --runs times in turn (sheet, check, sheet, check ...), and the medians are
printed: the process's CPU time (user + system, the operating system's own accounting, which a
busy machine does not inflate) and its wall time. The goal is a sheet in under one second.

    python bench/bench_sheet.py --runs 5
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from unodsl.compile.loader import bundled_names


def timed(cmd: list) -> tuple[float, float]:
    """(cpu seconds, wall seconds) of one run of a command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=5)
    args = p.parse_args(argv)
    exe = [sys.executable, "-m", "unodsl"]
    names = [n for n, kind, _ in bundled_names() if kind == "ruleset"]
    out = os.path.join(tempfile.mkdtemp(), "sheet.html")
    for name in names:                      # warm the on-disk caches (parser tables, templates)
        subprocess.run(exe + ["sheet", name, "-o", out], check=True)
    print(f"{'ruleset':<16} {'sheet cpu':>10} {'sheet wall':>11} {'check cpu':>10} {'check wall':>11}   (medians of {args.runs})")
    worst = 0.0
    for name in names:
        sheet, check = [], []
        for _ in range(args.runs):
            sheet.append(timed(exe + ["sheet", name, "-o", out]))
            check.append(timed(exe + ["check", name]))
        s_cpu, s_wall = (statistics.median(x[i] for x in sheet) for i in (0, 1))
        c_cpu, c_wall = (statistics.median(x[i] for x in check) for i in (0, 1))
        worst = max(worst, s_cpu)
        print(f"{name:<16} {s_cpu:>9.2f}s {s_wall:>10.2f}s {c_cpu:>9.2f}s {c_wall:>10.2f}s")
    print(f"slowest sheet: {worst:.2f} s of CPU (goal: under 1 s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
