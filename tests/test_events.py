"""Every event the engine can log is listed in unodsl.engine.events, so front ends can say each."""
from __future__ import annotations

import re
from pathlib import Path

from unodsl.engine.events import EVENTS

PACKAGE = Path(__file__).resolve().parent.parent / "unodsl"
# g.event('kind', ...) / self.event("kind", ...) in the engine, generated code and compiled effects;
# chance_gen(..., "kind") logs its kind too
_LOGGED = re.compile(r"""\.event\(\s*['"](\w+)['"]|chance_gen\([^)]*['"](\w+)['"]\s*\)""")


def logged_kinds() -> set:
    found = set()
    for path in PACKAGE.rglob("*.py"):
        for m in _LOGGED.finditer(path.read_text(encoding="utf-8")):
            found.add(m.group(1) or m.group(2))
    return found


def test_every_logged_event_is_listed():
    missing = logged_kinds() - set(EVENTS)
    assert not missing, f"add these event kinds to unodsl/engine/events.py: {sorted(missing)}"


def test_every_listed_event_is_logged_somewhere():
    assert set(EVENTS) - logged_kinds() == set()
