"""The scenarios a rule sheet shows as examples of play: those marked `sheet:` in the scenario
files that sit beside the rules file (`NAME.scenarios.yaml` next to `NAME.uno`, the bundled
rulesets' included), that play the very rules the sheet prints (same ruleset, modules and option
values), and that pass when run now. A marked scenario that fails is left out and named on
standard error: a sheet shows only what the tests prove.
"""
from __future__ import annotations

import sys
from pathlib import Path

from ..compile.loader import is_path
from ..lang.resources import rulesets_dir
from .scenarios import ScenarioFileError, load_file, run, scenario_rules


def scenario_files(ref: str, with_=()) -> list[Path]:
    """The scenario files of a sheet: beside each rules file it names, and beside the bundled
    rulesets and modules it is made of."""
    found = []
    for name in [ref, *with_]:
        path = Path(name)
        if is_path(name):
            candidate = path.with_name(path.stem + ".scenarios.yaml")
        else:
            candidate = rulesets_dir() / f"{name}.scenarios.yaml"
        if candidate.is_file() and candidate not in found:
            found.append(candidate)
    return found


def _same_rules(a, b) -> bool:
    return a.units == b.units and all(a.options[n].value == b.options[n].value for n in a.options)


def sheet_examples(ref: str, rules, with_=(), stream=None) -> list[dict]:
    """The marked scenarios that play `rules` and pass, as data for `unodsl.sheets`."""
    stream = stream or sys.stderr
    out = []
    names = [ref, *with_] + [u for u in rules.units if u != rules.name]
    for path in scenario_files(ref, names[1:]):
        try:
            scenarios = load_file(path)
        except ScenarioFileError as err:
            print(f"unodsl sheet: examples left out: {err}", file=stream)
            continue
        for sc in scenarios:
            if not sc.get("sheet"):
                continue
            declared = sc.get("ruleset")
            if isinstance(declared, str) and not is_path(declared) and declared != rules.name:
                continue                  # another bundled ruleset's example: not loaded at all
            try:
                if not _same_rules(scenario_rules(sc), rules):
                    continue
                failures = run(sc)
            except ScenarioFileError as err:
                print(f"unodsl sheet: example left out: {err}", file=stream)
                continue
            if failures:
                print(f"unodsl sheet: example left out, it fails: {sc.path}:{sc.line}: {sc.name}", file=stream)
                continue
            out.append({"name": sc.name, "sheet": sc.get("sheet"), "players": sc.get("players"),
                        "setup": sc.get("setup") or {}, "steps": list(sc.get("steps") or []),
                        "expect": sc.get("expect") or {}})
    return out
