"""`simulate --jobs N`: games spread over N worker processes that stop when told to.

A pool of our own rather than concurrent.futures or multiprocessing.Pool, for three things
neither gives: Ctrl-C stops every worker at once (workers ignore the interrupt and the parent
ends them, instead of each finishing its queue); a worker that dies (killed, out of memory) is
named with the games it was playing; and work is handed out lazily, a few chunks ahead, so
asking for a billion games builds no list of a billion jobs.
"""
from __future__ import annotations

import multiprocessing as mp
import signal
import sys
from multiprocessing.connection import wait


class WorkerDied(Exception):
    """A worker process ended without its result; the message names it and its games."""


def _serve(conn, work) -> None:
    """A worker: run each job it is sent with `work`, send back ("ok", result) or ("error", text)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)          # the parent answers Ctrl-C for all
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job is None:
            return
        try:
            conn.send(("ok", work(job)))
        except Exception as err:                # the parent re-raises it as its own failure
            conn.send(("error", f"{type(err).__name__}: {err}"))


class WorkerFailed(Exception):
    """A job raised in a worker; the message is the worker's error."""


def run_jobs(work, jobs, processes: int, on_result, label=str) -> None:
    """Run `work(job)` for every job of the iterable `jobs` over `processes` processes, calling
    `on_result(job, result)` in this process as each finishes. At most two jobs per worker are
    taken from `jobs` ahead of time. Raises WorkerDied, WorkerFailed or KeyboardInterrupt after
    ending every worker; `label(job)` names a job in messages."""
    ctx = mp.get_context("spawn" if sys.platform == "darwin" else "fork")
    workers = []
    try:
        for n in range(processes):
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_serve, args=(child, work), name=f"unodsl worker {n + 1}", daemon=True)
            proc.start()
            child.close()
            workers.append({"n": n + 1, "proc": proc, "conn": parent, "job": None})
        source = iter(jobs)
        idle = list(workers)
        busy = {}
        exhausted = False
        while True:
            while idle and not exhausted:
                job = next(source, None)
                if job is None:
                    exhausted = True
                    break
                w = idle.pop()
                w["job"] = job
                w["conn"].send(job)
                busy[w["conn"]] = w
            if not busy:
                return
            ready = wait(list(busy) + [w["proc"].sentinel for w in busy.values()])
            for w in list(busy.values()):
                if w["conn"] in ready:
                    try:
                        status, value = w["conn"].recv()
                    except EOFError:
                        status, value = "died", None
                elif w["proc"].sentinel in ready:
                    status, value = "died", None
                else:
                    continue
                del busy[w["conn"]]
                if status == "died":
                    w["proc"].join(1)
                    code = w["proc"].exitcode
                    how = (f"was killed by signal {-code}" if code is not None and code < 0 else
                           f"exited with code {code}")
                    raise WorkerDied(f"worker {w['n']} (process {w['proc'].pid}) {how} while playing "
                                     f"{label(w['job'])}; nothing it played counts")
                if status == "error":
                    raise WorkerFailed(f"worker {w['n']} failed while playing {label(w['job'])}: {value}")
                on_result(w["job"], value)
                w["job"] = None
                idle.append(w)
    finally:
        for w in workers:
            if w["proc"].is_alive():
                w["proc"].terminate()
        for w in workers:
            w["proc"].join(2)
            if w["proc"].is_alive():
                w["proc"].kill()
                w["proc"].join()
            w["conn"].close()
