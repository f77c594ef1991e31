"""A module's first compile shared with a helper process (native.build): the order the far
functions are compiled in, how the two processes share them, and the helper itself."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from unodsl.native import build

MODULE = textwrap.dedent('''
    @njit(cache=True)
    def leaf(g, a):
        return a

    @njit(cache=True)
    def small(g):
        return R.far(leaf, g[O_FAR + 1], g, (1,))

    @njit(cache=True)
    def middle(g, a):
        return small(g) + R.far(R.take, g[O_FAR + 0], g, (a,))

    @njit(cache=True)
    def top(g):
        return R.far(middle, g[O_FAR + 2], g, (2,)) + R.far(leaf, g[O_FAR + 1], g, (3,))
''')
FAR = (("R.take", 2), ("leaf", 2), ("middle", 2), ("top", 1))


def test_a_far_function_comes_after_those_its_compile_needs():
    order = build.plan(MODULE, FAR)
    names = [f.name for f in order]
    assert sorted(names) == sorted(name for name, _ in FAR)
    needs = {f.name: f.needs for f in order}
    assert needs["middle"] == {"leaf", "R.take"}        # its own far call and that of `small`, linked in
    assert needs["top"] == {"middle", "leaf"} and needs["leaf"] == frozenset()
    for f in order:
        assert all(names.index(n) < names.index(f.name) for n in f.needs)


def test_a_function_ranks_above_every_function_that_needs_it():
    ranks = {f.name: f.rank for f in build.plan(MODULE, FAR)}
    assert ranks["leaf"] > ranks["middle"] > ranks["top"] > 0 and ranks["R.take"] > ranks["middle"]


def test_of_the_functions_ready_the_one_of_highest_rank_is_compiled_first(tmp_path):
    ready = [build.Far("short", 1, frozenset(), 5), build.Far("long", 1, frozenset(), 9),
             build.Far("last", 1, frozenset({"short"}), 1)]
    compiled = []
    build.share(ready, tmp_path, lambda name, count: compiled.append(name), lambda: True)
    assert compiled == ["long", "short", "last"]


def test_each_function_is_compiled_once_by_whichever_process_claims_it(tmp_path):
    order = build.plan(MODULE, FAR)
    (tmp_path / "leaf.claim").touch()                   # the other process took `leaf` and compiled it
    (tmp_path / "leaf.done").touch()
    compiled = []
    build.share(order, tmp_path, lambda name, count: compiled.append((name, count)), lambda: True)
    assert compiled == [("R.take", 2), ("middle", 2), ("top", 1)]
    assert all((tmp_path / f"{build._file(n)}.done").exists() for n, _ in FAR)


def test_what_a_helper_that_died_claimed_is_compiled_here(tmp_path):
    order = build.plan(MODULE, FAR)
    (tmp_path / "leaf.claim").touch()                   # claimed, never done: the helper is gone
    compiled = []
    build.share(order, tmp_path, lambda name, count: compiled.append(name), lambda: False)
    # `middle` needs `leaf`, which no process will mark done: compiled anyway (numba compiles
    # `leaf` with it), once the other is known to be gone
    assert compiled == ["R.take", "middle", "top"]


@pytest.mark.parametrize("setting, cores, helpers", [("", 2, 1), ("", 1, 0), ("1", 8, 0), ("2", 8, 1),
                                                      ("many", 8, 1), ("0", 8, 1)])
def test_one_helper_on_a_machine_of_two_cores_unless_told_one_job(monkeypatch, setting, cores, helpers):
    monkeypatch.setenv("UNODSL_COMPILE_JOBS", setting)
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    assert build.helpers() == helpers


def test_the_helper_compiles_a_module_s_far_functions_into_numba_s_cache(tmp_path):
    pytest.importorskip("numba")
    from unodsl import load
    from unodsl.native.engine import _written
    _, source, digest = _written(load("crazy-eights"), 2, "random")
    module = tmp_path / f"ruleset_{digest}.py"
    module.write_text(source, encoding="utf-8")
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "UNODSL_CACHE": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "unodsl.native.build", str(module), f"unodsl_native_{digest}",
                           str(work)], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    far = [f.name for f in build.plan(source, _far(source))]
    assert far and all((work / f"{build._file(n)}.done").exists() for n in far)
    kept = {p.name.split(".")[1].split("-")[0] for p in Path(tmp_path / "numba").rglob(f"ruleset_{digest}.*.nbi")}
    assert {n for n in far if not n.startswith("R.")} <= kept


def _far(source: str) -> tuple:
    import ast
    return ast.literal_eval(source.rsplit("FAR = ", 1)[1].strip())


def test_a_helper_is_waited_for_only_while_it_runs_and_not_past_patience(monkeypatch):
    class Running:
        def poll(self):
            return None

    class Gone:
        def poll(self):
            return 1
    assert build.patient(Running())() and not build.patient(Gone())() and not build.patient(None)()
    monkeypatch.setattr(build, "PATIENCE", 0.0)
    assert not build.patient(Running())()        # hung: this process goes on without it


def test_a_first_compile_starts_a_helper_and_a_compile_kept_on_disk_none(tmp_path, monkeypatch):
    pytest.importorskip("numba")
    from unodsl import load
    from unodsl.native import native_engine
    monkeypatch.setenv("UNODSL_CACHE", str(tmp_path))
    monkeypatch.setenv("UNODSL_COMPILE_JOBS", "2")
    started = []
    monkeypatch.setattr(build, "start_helper", lambda *args: started.append(args) or None)   # none starts:
    first = native_engine(load("crazy-eights"), 3)        # this process compiles every far function itself
    assert len(started) == 1 and first.run(5, 1).hist.sum() == 5
    again = native_engine(load("crazy-eights"), 3)        # other rules, the same module: loaded from disk
    assert again is not first and len(started) == 1
    assert not list(tmp_path.rglob(".build-*"))           # the claims' folder is gone
