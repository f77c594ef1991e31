"""Where the grammar and the bundled rulesets live, installed or in a source checkout.

The wheel ships `grammar/` and `rulesets/` as the data packages `unodsl.grammar` and
`unodsl.rulesets`; in a checkout they sit beside the package. Both layouts are found.
"""
from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent


def _data_dir(package: str, folder: str) -> Path:
    try:
        found = resources.files(package)
        path = Path(str(found))
        if path.is_dir():
            return path
    except (ModuleNotFoundError, TypeError):
        pass
    return _CHECKOUT / folder


@lru_cache(maxsize=None)
def grammar_text() -> str:
    return (_data_dir("unodsl.grammar", "grammar") / "unodsl.lark").read_text(encoding="utf-8")


def rulesets_dir() -> Path:
    return _data_dir("unodsl.rulesets", "rulesets")


def bundled_files() -> list[Path]:
    return sorted(rulesets_dir().glob("*.uno"))
