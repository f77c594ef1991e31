"""`simulate --cluster ADDRESS`: the same simulation on a Dask cluster.

Dask (an optional extra, `pip install unodsl[cluster]`) was chosen over Ray because it is pure
Python, light to install, and runs a throw-away local cluster as easily as a real one, which is
what the tests use. Each task plays a range of game indices with seeds derived from the run's
seed, exactly as `--jobs` does, so the statistics are the same however the work is spread.

A worker may run on another machine, in another folder: it is sent the rules themselves (the
text of every rules file the user named, with the names and options), never a path to read, and
each task first checks that the worker runs the same unodsl with the same bundled rules. Tasks
are large (TASKS_PER_WORKER per worker, each compiling its rules once per worker process), so
that Dask's own cost per task stays small against the games.
"""
from __future__ import annotations

import hashlib
import math
import re

from .. import __version__
from ..lang.files import InputError
from .simulate import Job, run_job

ADDRESS = re.compile(r"^tcp://(?P<host>\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.\-]+):(?P<port>\d{1,5})$")
TASKS_PER_WORKER = 4


def check_address(address: str) -> None:
    """`local`, or a scheduler's address tcp://HOST:PORT; anything else is refused by name."""
    if address == "local":
        return
    if not address.strip():
        raise InputError("--cluster", "give `local` or a Dask scheduler's address, like tcp://10.0.0.5:8786")
    scheme = address.split("://", 1)[0] if "://" in address else ""
    if scheme and scheme != "tcp":
        why = {"tls": "needs certificates, which unodsl does not take",
               "ucx": "needs UCX, which unodsl does not install",
               "inproc": "reaches only a scheduler inside this very process"}.get(scheme, "is not supported")
        raise InputError("--cluster", f"`{scheme}://` {why}: give a tcp://HOST:PORT address, or `local`")
    m = ADDRESS.match(address if scheme else f"tcp://{address}")
    if not m:
        raise InputError("--cluster", f"`{address}` is not a scheduler address: write tcp://HOST:PORT, "
                                      "like tcp://10.0.0.5:8786")
    if not 1 <= int(m.group("port")) <= 65535:
        raise InputError("--cluster", f"port {m.group('port')} is not a port (1 to 65535)")


def bundled_fingerprint() -> str:
    """A digest of the grammar and the bundled rulesets, the rules a worker reads on its own."""
    from ..lang.resources import bundled_files, grammar_text
    h = hashlib.sha256(grammar_text().encode("utf-8"))
    for path in bundled_files():
        h.update(path.name.encode("utf-8") + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


class WorkerMismatch(Exception):
    """A worker runs another unodsl than the client (or other bundled rules)."""


def run_checked(job: Job):
    """A task on a worker: refuse to play with another unodsl, then play the job's games."""
    mine = bundled_fingerprint()
    if job.version != __version__ or job.fingerprint != mine:
        raise WorkerMismatch(f"this worker runs unodsl {__version__} (bundled rules {mine}), the client "
                           f"unodsl {job.version} (bundled rules {job.fingerprint}): install the same "
                           "unodsl on both")
    return run_job(job)


def own_files(ref: str, with_) -> dict:
    """The text of every rules file the run names (the ruleset and modules given as paths)."""
    from ..compile.loader import is_path, read_source
    return {r: read_source(r).text for r in [ref, *with_] if is_path(r)}


def run_on_cluster(address: str, ref: str, with_, options: dict, players: int, games: int, seed: int,
                   bot: str, progress=None, workers: int = 2, against=None, engine: str = "python"):
    check_address(address)
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise InputError("--cluster", "needs Dask: pip install 'unodsl[cluster]'") from None
    files = own_files(ref, with_)
    if against is not None:
        files.update(own_files(against[0], against[1]))
    cluster = None
    if address == "local":
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        try:
            client = Client(address, timeout=10)
        except (OSError, TimeoutError) as err:
            raise InputError("--cluster", f"cannot reach the Dask scheduler at {address}: {err}") from None
    try:
        parts = max(1, len(client.scheduler_info().get("workers", {})))
        size = max(1, math.ceil(games / (parts * TASKS_PER_WORKER)))
        common = dict(files=tuple(sorted(files.items())), version=__version__,
                      fingerprint=bundled_fingerprint(), against=against, engine=engine)
        jobs = [Job(ref, tuple(with_), tuple(sorted(options.items())), players, seed, bot, first,
                    min(size, games - first), **common) for first in range(0, games, size)]
        futures = client.map(run_checked, jobs, pure=False)
        counts = {f.key: job.count for f, job in zip(futures, jobs)}
        total = None
        for fut in as_completed(futures):
            try:
                result = fut.result()
            except WorkerMismatch as err:
                raise InputError("--cluster", str(err)) from None
            if total is None:
                total = result
            else:
                total.merge(result)
            if progress is not None:
                progress(counts[fut.key])
        return total
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
