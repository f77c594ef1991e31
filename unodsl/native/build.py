"""A module's first compile shared with a second process.

numba compiles under one lock per process, so a first compile (a module's far functions, then
its `run_games`) used one core of the machine. A far function is compiled for itself, and its
callers are compiled without its code, only its type (native.far): once its machine code is on
disk, a process that needs it loads it. So a helper process, started as the compile begins,
compiles some of the module's far functions into numba's cache while this process compiles the
others: each takes in turn, of the functions not yet taken whose far callees are on disk, the one
with the longest chain of functions waiting on it (`plan`), claiming it with a file only one
process can create, and marks it done once numba has kept it. The engine then compiles `run_games`, which finds them all on disk.

The helper is a help and nothing more: if it cannot start, fails or is slow, this process
compiles what is left itself (numba compiles any function it needs that is not on disk), and
nothing it does changes what is compiled, only where.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, NamedTuple

from .far import call_graph, far_targets

WAIT = 0.005            # seconds between two looks at the other process's work
PATIENCE = 300.0        # seconds after which a process no longer waits for the other's work


class Far(NamedTuple):
    """A far function to compile: its name (the runtime's as "R.name"), its parameters, the far
    functions numba compiles first when it compiles this one (those it calls far, itself or
    through the functions it calls), and its rank: the lines compiled with it and, after it, along
    the longest chain of far functions that need it (the compile of a module ends when its longest
    chain does, so the ready function of highest rank goes first)."""
    name: str
    parameters: int
    needs: frozenset
    rank: int


def helpers() -> int:
    """How many helper processes a first compile starts: one on a machine of two cores or more,
    unless UNODSL_COMPILE_JOBS says 1 (the compile then stays in this process)."""
    wanted = os.environ.get("UNODSL_COMPILE_JOBS", "").strip()
    if wanted.isdigit() and int(wanted) >= 1:
        return min(int(wanted), 2) - 1
    return 1 if (os.cpu_count() or 1) >= 2 else 0


def plan(source: str, far: tuple) -> list[Far]:
    """The module's far functions (`far`: its FAR, name and parameters) in an order that puts
    every function after those it needs, read from the module's text (the runtime's, from its:
    native.far's call graph)."""
    graph = call_graph(source)
    listed_far = {name for name, _ in far}

    def closure(name: str) -> tuple[frozenset, int]:
        """The far functions compiled first when `name` compiles, and the lines compiled with it."""
        seen, todo, found, lines = set(), [name], set(), 0
        while todo:
            f = todo.pop()
            if f in seen or f not in graph:
                continue
            seen.add(f)
            found |= far_targets(graph[f].node)
            lines += graph[f].lines
            todo.extend(graph[f].calls - listed_far)
        return frozenset(found - {name}), lines

    known = {name: closure(name) for name, _ in far}
    ranks: dict = {}

    def rank(name: str, path: tuple = ()) -> int:
        if name not in ranks:
            above = [rank(other, path + (name,)) for other in known if name in known[other][0] and other not in path]
            ranks[name] = known[name][1] + max(above, default=0)
        return ranks[name]

    listed = {name: Far(name, count, known[name][0], rank(name)) for name, count in far}
    ordered, placed = [], set()

    def place(name: str, path: tuple = ()) -> None:
        if name in placed or name in path or name not in listed:
            return
        for other in sorted(listed[name].needs):
            place(other, path + (name,))
        placed.add(name)
        ordered.append(listed[name])

    for name, _ in far:
        place(name)
    return ordered


def share(functions: list[Far], folder: Path, compile_far: Callable, other_alive: Callable) -> None:
    """Compile, in this process, the functions of `functions` the other process has not taken:
    each time the one of highest rank among those not yet taken whose needs are done (or, once the
    other is gone, the first not yet taken), claimed by a file in `folder`, marked done there once
    compiled."""
    left = list(functions)
    while left:
        ready = max((f for f in left if all(_done(folder, n) for n in f.needs)), key=lambda f: f.rank, default=None)
        if ready is None:
            if other_alive():
                time.sleep(WAIT)
                continue
            ready = left[0]
        left.remove(ready)
        if _claim(folder, ready.name):
            compile_far(ready.name, ready.parameters)
            (folder / f"{_file(ready.name)}.done").touch()


def wait_for(functions: list[Far], folder: Path, other_alive: Callable) -> None:
    """Wait until the other process has compiled what it claimed, as long as it lives."""
    while other_alive() and not all(_done(folder, f.name) for f in functions):
        time.sleep(WAIT)


def patient(helper) -> Callable:
    """Whether the helper is still worth waiting for: running, and not for longer than PATIENCE
    since it started (a compile that hangs must not hold this process up for ever)."""
    deadline = time.monotonic() + PATIENCE
    return lambda: helper is not None and helper.poll() is None and time.monotonic() < deadline


def start_helper(module_path: Path, module_name: str, folder: Path):
    """The helper process (`python -m unodsl.native.build`), or None when it cannot start."""
    try:
        return subprocess.Popen([sys.executable, "-m", __name__, str(module_path), module_name, str(folder)],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        return None


def finish(helper, folder: Path) -> None:
    """The helper stops (what it compiles now, this process has compiled too) and its folder goes."""
    if helper is not None and helper.poll() is None:
        helper.kill()
        helper.wait()
    shutil.rmtree(folder, ignore_errors=True)


def _file(name: str) -> str:
    return name.replace(".", "_")


def _done(folder: Path, name: str) -> bool:
    return (folder / f"{_file(name)}.done").exists()


def _claim(folder: Path, name: str) -> bool:
    try:
        os.close(os.open(folder / f"{_file(name)}.claim", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        return True
    except FileExistsError:
        return False


def _helper_main(module_path: str, module_name: str, folder: str) -> int:
    """The helper: import the module as the engine does and take its share of the far functions."""
    from .engine import compiler_settings, far_address, import_module, module_function
    module = import_module(Path(module_path), module_name)
    parent = os.getppid()
    work = Path(folder)
    with compiler_settings():
        share(plan(Path(module_path).read_text(encoding="utf-8"), module.FAR), work,
              lambda name, count: far_address(module_function(module, name), count),
              lambda: os.getppid() == parent and work.is_dir())
    return 0


if __name__ == "__main__":
    sys.exit(_helper_main(*sys.argv[1:4]))
