"""Where the grammar and the bundled rulesets live, installed or in a source checkout.

The wheel ships `grammar/` and `rulesets/` inside the package (as unodsl/grammar and
unodsl/rulesets); in a checkout they sit beside the package. Both layouts are found.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent


def _data_dir(folder: str) -> Path:
    installed = _PACKAGE / folder
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / folder


@lru_cache(maxsize=None)
def grammar_text() -> str:
    return (_data_dir("grammar") / "unodsl.lark").read_text(encoding="utf-8")


def rulesets_dir() -> Path:
    return _data_dir("rulesets")


def bundled_files() -> list[Path]:
    return sorted(rulesets_dir().glob("*.uno"))
