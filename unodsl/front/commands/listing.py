"""`unodsl list`: the bundled rulesets and house-rule modules."""
from __future__ import annotations

from .common import EXIT_OK

NAME = "list"
HELP = "list the bundled rulesets and house-rule modules"


def arguments(p) -> None:
    pass


def run(args) -> int:
    from ...compile.loader import bundled_names
    rows = bundled_names()
    for kind, heading in (("ruleset", "Rulesets"), ("module", "House-rule modules (--with)")):
        print(heading + ":")
        for name, k, title in rows:
            if k == kind:
                print(f"  {name:<16} {title}")
    return EXIT_OK
