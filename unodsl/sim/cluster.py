"""`simulate --cluster ADDRESS`: the same simulation on a Dask cluster.

Dask (an optional extra, `pip install unodsl[cluster]`) was chosen over Ray because it is pure
Python, light to install, and runs a throw-away local cluster as easily as a real one, which is
what the tests use. Each task plays a range of game indices with seeds derived from the run's
seed, exactly as `--jobs` does, so the statistics are the same however the work is spread.
"""
from __future__ import annotations

from .simulate import Job, Stats, chunks, run_job


def run_on_cluster(address: str, ref: str, with_, options: dict, players: int, games: int, seed: int,
                   bot: str, progress=None, workers: int = 2) -> Stats:
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise ValueError("--cluster needs Dask: pip install 'unodsl[cluster]'") from None
    cluster = None
    if address == "local":
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        try:
            client = Client(address, timeout=10)
        except OSError as err:
            raise ValueError(f"cannot reach the Dask scheduler at {address}: {err}") from None
    try:
        parts = max(1, len(client.scheduler_info().get("workers", {})))
        jobs = [Job(ref, tuple(with_), tuple(sorted(options.items())), players, seed, bot, first, count)
                for first, count in chunks(games, parts)]
        futures = client.map(run_job, jobs, pure=False)
        counts = {f.key: job.count for f, job in zip(futures, jobs)}
        total = Stats(players)
        for fut in as_completed(futures):
            total.merge(fut.result())
            if progress is not None:
                progress(counts[fut.key])
        return total
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
