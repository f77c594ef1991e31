"""Rules that people paste or upload are checked, compiled and tried in a worker process.

A rules file from a stranger may be huge, may take long to compile, or may describe a game whose
rules loop. The server never finds that out in its own process: a worker (one, kept warm, started
with `spawn` so it shares nothing with the server's threads) reads the text with a size limit,
checks and compiles it, renders its rule sheet, and plays short test games with bots, each job
under a time limit and the whole worker under a memory limit. A job that overruns gets its worker
killed and a plain answer ("the rules took longer than 5 seconds to check"); the next job starts
a fresh worker. Only rules that passed are ever compiled by the server itself.
"""
from __future__ import annotations

import multiprocessing
import os
import tempfile
import threading
from pathlib import Path

from ..lang.diagnostics import RulesError

MAX_SOURCE_BYTES = 200_000          # a rules file pasted or uploaded (the bundled ones are < 10 kB)
CHECK_SECONDS = 5.0
VET_SECONDS = 10.0
WORKER_MEMORY = 2 << 30             # bytes of address space a worker may use
TEST_GAMES = 2                      # bot games a new table's rules must get through
TEST_ACTIONS = 4000                 # actions per test game (a long game is fine; a hang is not)
FILE_NAME = "rules.uno"             # the name diagnostics give a pasted file
STARTUP_SECONDS = 10.0              # allowance for a fresh worker to start (a loaded machine is slow)


class SandboxError(Exception):
    """The job could not be done: too big, too slow, or the worker died. The message says which."""


# ---- the worker's side ------------------------------------------------------------------------

def _limit_memory() -> None:
    try:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (WORKER_MEMORY, WORKER_MEMORY))
    except (ImportError, ValueError, OSError):      # not on every platform
        pass


def _worker(conn) -> None:
    _limit_memory()
    folder = tempfile.mkdtemp(prefix="unodsl-sandbox-")
    os.chdir(folder)
    while True:
        try:
            job, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            result = {"ok": True, "value": JOBS[job](*args)}
        except MemoryError:
            result = {"ok": False, "error": "the rules need more memory than a table may use"}
        except RulesError as err:                   # the rules' own mistakes, as `unodsl check` says them
            result = {"ok": False, "error": err.render()}
        except Exception as err:                    # reported to the server as a plain message
            result = {"ok": False, "error": str(err) or type(err).__name__}
        conn.send(result)


def _write(source: str) -> str:
    Path(FILE_NAME).write_text(source, encoding="utf-8")
    return FILE_NAME


def option_list(rules) -> list:
    """The options a ruleset declares, as a host chooses them: name, default, value, choices, doc."""
    out = []
    for name, info in rules.options.items():
        out.append({"name": name, "default": _plain(info.default), "value": _plain(info.value),
                    "choices": [_plain(c) for c in info.choices], "doc": info.doc})
    return out


def _plain(value):
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value if isinstance(value, (int, str)) or value is None else str(value)


def job_check(source: str, modules, options) -> dict:
    """Diagnostics as `unodsl check` gives them, and, when the rules compile, what a host needs
    to open a table with them (title, players, options)."""
    from ..compile.loader import check, load
    ref = _write(source)
    diags, sources = check(ref, tuple(modules), dict(options))
    diags = sorted(diags, key=lambda d: (d.span.file != FILE_NAME, d.span.line, d.span.col))   # the author's file first
    out = {"diagnostics": [dict(d.as_json(), rendered=d.render(sources)) for d in diags],
           "errors": sum(d.severity == "error" for d in diags)}
    if not out["errors"]:
        try:
            rules = load(ref, tuple(modules), dict(options))
        except Exception as err:                     # a ruleset file of modules only, say
            out["errors"] = 1
            out["diagnostics"].append({"code": "", "severity": "error", "message": str(err), "line": 0,
                                       "col": 0, "end_line": 0, "end_col": 0, "hint": "", "related": [],
                                       "rendered": str(err)})
            return out
        out.update(title=rules.title, about=rules.about, players=list(rules.players), options=option_list(rules))
    return out


def job_sheet(source: str, modules, options) -> str:
    from ..sheets.sheet import make_sheet
    return make_sheet(_write(source), tuple(modules), dict(options), fmt="html")


def job_vet(source: str, modules, options, players: int) -> str:
    """Play short games with bots: rules whose play loops or crashes never reach a table."""
    import random

    from ..compile.decisions import Action
    from ..compile.loader import load
    from ..engine.bots import BOTS
    from ..engine.game import Game
    rules = load(_write(source), tuple(modules), dict(options))
    low, high = rules.players
    if not low <= players <= high:
        raise ValueError(f"{rules.title} is for {low} to {high} players, not {players}")
    for seed in range(TEST_GAMES):
        game = Game(rules, players, seed=seed)
        bots = [BOTS["basic"](random.Random(seed * 100 + s)) for s in range(players)]
        table_rng = random.Random(seed)
        for _ in range(TEST_ACTIONS):
            d = game.decision
            if game.game_over or d is None:
                break
            game.apply(Action(None, "deal") if d.kind == "deal" else
                       bots[d.seat if d.seat is not None else 0].choose(game, game.legal_actions()))
            if game.windows:
                game.offer_out_of_turn(bots, table_rng)
    return rules.title


JOBS = {"check": job_check, "sheet": job_sheet, "vet": job_vet}


# ---- the server's side ------------------------------------------------------------------------

class Sandbox:
    """One warm worker process, used by one job at a time (callers queue on a lock)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._proc = None
        self._conn = None
        self._ctx = multiprocessing.get_context("spawn")

    def _start(self) -> None:
        parent, child = self._ctx.Pipe()
        proc = self._ctx.Process(target=_worker, args=(child,), daemon=True, name="unodsl-sandbox")
        proc.start()
        child.close()
        self._proc, self._conn = proc, parent

    def _kill(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.join(5)
        if self._conn is not None:
            self._conn.close()
        self._proc = self._conn = None

    def close(self) -> None:
        with self._lock:
            self._kill()

    def run(self, job: str, *args, timeout: float = CHECK_SECONDS):
        """Run a job in the worker and return its value, or raise SandboxError (or ValueError with
        the job's own message when the rules themselves were refused)."""
        source = args[0] if args else ""
        if len(source.encode("utf-8")) > MAX_SOURCE_BYTES:
            raise SandboxError(f"the rules file is larger than {MAX_SOURCE_BYTES // 1000} kB")
        with self._lock:
            startup = 0.0
            if self._proc is None or not self._proc.is_alive():
                self._kill()
                self._start()
                startup = STARTUP_SECONDS         # a new worker first imports unodsl
            try:
                self._conn.send((job, args))
                if not self._conn.poll(timeout + startup):
                    self._kill()
                    raise SandboxError(f"the rules took longer than {timeout:g} seconds to {_VERBS[job]}")
                result = self._conn.recv()
            except (EOFError, OSError, BrokenPipeError):
                self._kill()
                raise SandboxError(f"the rules could not be {_DONE[job]}: the worker stopped "
                                   "(too much memory?)") from None
        if not result["ok"]:
            raise ValueError(result["error"])
        return result["value"]


_VERBS = {"check": "check", "sheet": "print as a sheet", "vet": "play in a test game"}
_DONE = {"check": "checked", "sheet": "printed", "vet": "tried"}
