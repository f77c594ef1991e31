"""What a ruleset's first native compile is spared: numba's settings while a module compiles
(native.engine.compiler_settings), and the functions of numba's own that a module does not call.

A game's loops are short and stop early; LLVM's loop vectorizer made every module's first compile
longer and its games slower (README, "Speed"). These tests hold that the setting takes effect in
numba, that the user's own setting comes back, and that an engine compiles under it; and that a
module's code leaves out the functions numba compiles afresh in every process (runtime.new_ints);
and that the runtime's machine code kept from before its layout changed is not used.
"""
from __future__ import annotations

import pytest

numba = pytest.importorskip("numba")

import ast  # noqa: E402

from numba.core import config  # noqa: E402

from unodsl import load  # noqa: E402
from unodsl.native import native_engine  # noqa: E402
from unodsl.native.engine import NativeEngine, compiler_settings  # noqa: E402
from unodsl.native.writer import NativeWriter  # noqa: E402

# numba's own functions, compiled again in every process whose code calls them
AFRESH = {"np.empty", "np.zeros", "np.ones", "np.arange", "int", "max", "min", "abs", "sorted", "sum"}


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


@pytest.mark.parametrize("name, mods", [("classic", ()), ("classic", ("jump-in",)), ("killer", ()), ("speed", ()),
                                        ("flip", ())])
def test_a_module_calls_none_of_numbas_own_functions_compiled_in_every_process(name, mods):
    tree = ast.parse(NativeWriter(load(name, mods), 4, bot="basic").module_source())
    compiled = [f for f in tree.body if isinstance(f, ast.FunctionDef) and f.decorator_list]
    called = {ast.unparse(n.func) for f in compiled for n in ast.walk(f) if isinstance(n, ast.Call)}
    assert called & AFRESH == set()
    assert [c for c in called if c.endswith((".max", ".min", ".sum"))] == []
    assert "R.new_ints" in called           # what the module calls instead


def test_runtime_code_kept_for_another_layout_is_forgotten(tmp_path):
    """The runtime's machine code is keyed by numba on runtime.py alone: code kept from before a
    change of the layout it reads would read the game's memory at the old places."""
    from unodsl.native.engine import forget_stale_runtime
    kept = [tmp_path / "runtime.next64-134.py311.nbi", tmp_path / "runtime.next64-134.py311.1.nbc"]
    module = tmp_path / "ruleset_abc.run_games-9.py311.nbi"
    for path in (*kept, module):
        path.write_bytes(b"code")
    (tmp_path / "runtime-old.mark").touch()
    assert forget_stale_runtime(tmp_path, "new")
    assert not any(path.exists() for path in kept) and not (tmp_path / "runtime-old.mark").exists()
    assert module.exists() and (tmp_path / "runtime-new.mark").exists()
    kept[0].write_bytes(b"code")              # compiled again, for this runtime: kept
    assert not forget_stale_runtime(tmp_path, "new")
    assert kept[0].exists()
