"""The native simulator: a ruleset's games compiled to machine code (the optional `native` extra).

codegen writes each ruleset's simulator loop as Python; `lower` rewrites that Python into Python
over typed arrays, which numba compiles once per ruleset and table size and caches on disk. The
rules' meaning is therefore written once, in codegen's templates: what is here is the table's
primitives over arrays (`runtime`, twins of the Game's methods), how a game lies in those arrays
(`layout`), the parts of a game around the turn loop (`writer`), the basic bot's choices over
arrays (`basic`), the out-of-turn windows it acts in and its actions there (`windows`), the
calls of the module's big functions made through their addresses so that numba compiles each
once (`far`), and building, caching and running (`engine`). `portable` is the generator both
engines can share, for the tests that hold them to the same games.

Only `simulate` uses it; play, scenarios, the step API and every other front end run the Python
engine, which stays the reference. A ruleset the native engine cannot run raises `Unsupported`
with what it met (`basic.BotUnsupported`, in plain words, for a choice of the basic bot's it does
not compile), and the simulator falls back to Python.

May import: unodsl.compile, unodsl.engine, unodsl.lang.
"""
from __future__ import annotations

import importlib.util

from ..compile.codegen.expressions import Unsupported

__all__ = ["available", "Unsupported", "native_engine"]


def available() -> bool:
    """Whether the native extra is installed (numba and NumPy import), without importing them."""
    return importlib.util.find_spec("numba") is not None and importlib.util.find_spec("numpy") is not None


def native_engine(rules, players: int, trace: int = 0, bot: str = "random"):
    """The ruleset's `engine.NativeEngine` for this table size and bot (see there)."""
    from .engine import native_engine as build
    return build(rules, players, trace, bot)
