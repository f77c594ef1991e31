"""`--cluster` on workers that cannot see the user's files: the rules travel with the work.

A scheduler and a worker are started as their own processes, the worker in another folder; the
user's rules file exists only beside the client, given by a relative path. The cluster's figures
must equal those of one local process, and differ from classic's (so the file's rules were used).
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("dask.distributed")

from unodsl import __version__  # noqa: E402
from unodsl.sim.cluster import WorkerMismatch, run_checked  # noqa: E402
from unodsl.sim.simulate import Job  # noqa: E402

RULES = 'ruleset short "Short" extends classic {\n  option target = 60 "Points that win the game."\n}\n'


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def scheduler(tmp_path):
    port = _free_port()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    dask = Path(sys.executable).with_name("dask")
    procs = [subprocess.Popen([str(dask), "scheduler", "--host", "127.0.0.1", "--port", str(port),
                               "--no-dashboard"], cwd=elsewhere, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    procs.append(subprocess.Popen([str(dask), "worker", f"tcp://127.0.0.1:{port}", "--nworkers", "1",
                                   "--nthreads", "1", "--no-dashboard"], cwd=elsewhere,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    try:
        from dask.distributed import Client
        deadline = time.monotonic() + 60
        while True:
            try:
                with Client(f"tcp://127.0.0.1:{port}", timeout=5) as c:
                    if c.scheduler_info()["workers"]:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("the test cluster did not start")
            time.sleep(0.5)
        yield f"tcp://127.0.0.1:{port}"
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()


def cli(*args, cwd):
    res = subprocess.run([sys.executable, "-m", "unodsl", *args], capture_output=True, text=True, cwd=cwd, timeout=300)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


@pytest.mark.slow
def test_workers_that_cannot_see_the_file_play_its_rules(tmp_path, scheduler):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "short.uno").write_text(RULES, encoding="utf-8")
    args = ("simulate", "short.uno", "-n", "12", "--players", "3", "--seed", "4", "--format", "json")
    on_cluster = cli(*args, "--cluster", scheduler, cwd=mine)
    here = cli(*args, cwd=mine)
    classic = cli("simulate", "classic", *args[2:], cwd=mine)
    for out in (on_cluster, here, classic):
        out.pop("seconds")
        out.pop("ruleset")
    assert on_cluster == here
    assert on_cluster["rounds_per_game"] < classic["rounds_per_game"]


def test_a_worker_with_another_unodsl_refuses_the_work():
    job = Job("classic", (), (), 2, 1, "random", 0, 1, version="0.0.0-other", fingerprint="x")
    with pytest.raises(WorkerMismatch, match="install the same unodsl on both"):
        run_checked(job)
    from unodsl.sim.cluster import bundled_fingerprint
    ok = Job("classic", (), (), 2, 1, "random", 0, 2, version=__version__, fingerprint=bundled_fingerprint())
    assert run_checked(ok).games == 2


def test_the_rules_travel_as_text(tmp_path, monkeypatch):
    from unodsl.sim.cluster import own_files
    (tmp_path / "short.uno").write_text(RULES, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    files = own_files("short.uno", ["progressive"])
    assert files == {"short.uno": RULES}
    os.remove("short.uno")                   # the worker's view: the file is not there
    job = Job("short.uno", (), (), 3, 1, "random", 0, 2, files=tuple(files.items()))
    from unodsl.sim.simulate import run_job
    assert run_job(job).games == 2
