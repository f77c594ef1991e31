"""Where the grammar, the bundled rulesets and the reference docs live, installed or in a checkout.

The wheel ships `grammar/`, `rulesets/` and the Markdown of `docs/` inside the package (as
unodsl/grammar, unodsl/rulesets and unodsl/docs); in a checkout they sit beside the package. Both
layouts are found. The docs are data too: `unodsl explain` prints entries of docs/diagnostics.md,
and the language server shows entries of docs/language.md on hover.
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


@lru_cache(maxsize=None)
def doc_text(name: str) -> str:
    """The text of one of the reference docs (`language.md`, `diagnostics.md` ...)."""
    return (_data_dir("docs") / name).read_text(encoding="utf-8")
