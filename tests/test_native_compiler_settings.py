"""native.engine.compiler_settings: numba's settings while a ruleset's module compiles.

A game's loops are short and stop early; LLVM's loop vectorizer made every module's first compile
longer and its games slower (README, "Starting a run"). These tests hold that the setting takes
effect in numba, that the user's own setting comes back, and that an engine compiles under it.
"""
from __future__ import annotations

import pytest

numba = pytest.importorskip("numba")

from numba.core import config  # noqa: E402

from unodsl import load  # noqa: E402
from unodsl.native import native_engine  # noqa: E402
from unodsl.native.engine import NativeEngine, compiler_settings  # noqa: E402


def _summing_loop_ir() -> str:
    """The optimised LLVM text of a fresh function summing an array in a loop."""
    @numba.njit
    def total(xs):
        t = 0
        for x in xs:
            t += x
        return t
    signature = (numba.types.Array(numba.types.int64, 1, "C"),)
    total.compile(signature)
    return total.overloads[signature].library.get_llvm_str()


def test_loops_compile_unvectorized_under_the_settings_and_numbas_own_come_back(monkeypatch):
    monkeypatch.setattr(config, "LOOP_VECTORIZE", 1)
    assert "vector.body" in _summing_loop_ir()          # numba's default vectorizes this loop
    with compiler_settings():
        assert "vector.body" not in _summing_loop_ir()
    assert config.LOOP_VECTORIZE == 1
    with pytest.raises(RuntimeError), compiler_settings():
        raise RuntimeError("a compile that failed")
    assert config.LOOP_VECTORIZE == 1


def test_an_engine_compiles_and_loads_its_code_under_the_settings(monkeypatch):
    engine = native_engine(load("classic"), 2)
    monkeypatch.setattr(config, "LOOP_VECTORIZE", 1)
    seen = []
    monkeypatch.setattr(NativeEngine, "run", lambda self, *args, **kwargs: seen.append(config.LOOP_VECTORIZE))
    engine.warm()
    assert seen == [0]
    assert config.LOOP_VECTORIZE == 1
