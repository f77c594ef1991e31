#!/usr/bin/env python3
"""The web table under load: many tables of bots and simulated people on one server at once.

A real `unodsl serve` runs in a process of its own; this process opens TABLES tables over its
HTTP API (each with PEOPLE seats for simulated people and the rest bots, playing classic at 4
players) and connects every person's page over a websocket, as a phone would. Each simulated
person waits a moment when it is their move (a person's think time), then sends one of the moves
the server offered. For every move a person sends, the time until every seat of that table has
received the state that follows it is measured: that is what a player feels (tap, and everyone's
screen shows it). Bots move on the server with its usual pace between bot moves.

Reported: moves measured, the median and 95th percentile of the time from a move to the last
seat's update, and the server's memory per table (its resident size at the end of the run, less
its size with one table open, divided by the number of tables).

  usage: python bench/bench_web.py [--tables 50] [--people 2] [--seconds 60] [--think 0.5]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def start_server(data: str, port: int) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "unodsl", "serve", "--port", str(port), "--data", data],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("unodsl serve did not start")


async def post(port: int, path: str, body: dict) -> dict:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    data = json.dumps(body).encode()
    writer.write(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode() + data)
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head, _, payload = raw.partition(b"\r\n\r\n")
    if b" 200 " not in head.split(b"\r\n")[0]:
        raise SystemExit(f"{path}: {head.splitlines()[0].decode()} {payload[:200]!r}")
    if b"chunked" in head.lower():
        size, _, rest = payload.partition(b"\r\n")
        payload = rest[:int(size, 16)]
    return json.loads(payload)


class TableRun:
    """One table's people: their sockets, and the moves whose updates are still awaited."""

    def __init__(self, seats: int):
        self.pending: list = []          # [sent time, version before, seats still to update, sender]
        self.latencies: list = []
        self.refused = 0
        self.seats = seats


async def person(port: int, url: str, run: TableRun, seat: int, think: float, stop: float, rng: random.Random):
    import websockets
    path, query = url.split("?")
    _, _, table, _ = path.split("/")
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{table}/{seat}?{query}", max_size=2**22) as ws:
        answered = None
        while time.monotonic() < stop:
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.monotonic()))
            except asyncio.TimeoutError:
                break
            now = time.monotonic()
            msg = json.loads(text)
            if msg["type"] != "state":            # refused (the table moved on first): not measured
                run.pending = [p for p in run.pending if p[3] != seat]
                run.refused += 1
                answered = None
                continue
            for item in list(run.pending):
                sent, version, waiting, _ = item
                if msg["v"] > version and seat in waiting:
                    waiting.discard(seat)
                    if not waiting:
                        run.latencies.append(now - sent)
                        run.pending.remove(item)
            own = [m for m in msg["moves"] if m["kind"] != "window"]
            if msg["game_over"] or not own or answered == msg["v"]:
                continue
            answered = msg["v"]
            # the person thinks while this page goes on reading what the server sends
            asyncio.create_task(act(ws, run, seat, msg["v"], rng.choice(own), think * rng.uniform(0.5, 1.5)))


async def act(ws, run: TableRun, seat: int, version: int, move: dict, delay: float) -> None:
    await asyncio.sleep(delay)
    run.pending.append([time.monotonic(), version, set(run.people), seat])
    try:
        await ws.send(json.dumps({"move": move["move"], "v": version}))
    except Exception:                     # the page closed at the end of the run
        pass


async def main(args) -> None:
    data = tempfile.mkdtemp(prefix="unodsl-bench-web-")
    port = free_port()
    proc = start_server(data, port)
    try:
        await asyncio.sleep(1.0)
        runs, tasks = [], []
        stop = time.monotonic() + 3600
        rng = random.Random(args.seed)
        idle = None
        for t in range(args.tables + 1):          # the first table warms the server up (rules compiled)
            if t == 1:
                await asyncio.sleep(2)
                idle = rss_kb(proc.pid)
            seats = [{"kind": "human", "name": f"P{i + 1}"} if i < args.people else {"kind": "basic"}
                     for i in range(4)]
            table = await post(port, "/api/tables", {"ruleset": "classic", "seats": seats, "host_seat": 0,
                                                     "seed": args.seed + t})
            code = table["join"].split("code=")[1]
            urls = [table["seat"]]
            for s in range(1, args.people):
                urls.append((await post(port, f"/api/tables/{table['id']}/seats",
                                        {"code": code, "seat": s, "name": f"P{s + 1}"}))["url"])
            run = TableRun(4)
            run.people = list(range(args.people))
            runs.append(run)
            for s, url in enumerate(urls):
                tasks.append(asyncio.create_task(person(port, url, run, s, args.think, stop,
                                                        random.Random(rng.random()))))
        start = time.monotonic()
        await asyncio.sleep(args.seconds)
        loaded = rss_kb(proc.pid)              # after the whole run: every table's game so far kept
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        seconds = time.monotonic() - start
        latencies = sorted(x for r in runs for x in r.latencies)
        if not latencies:
            raise SystemExit("no move was measured")
        p95 = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
        print(f"unodsl serve: {args.tables} tables of classic, {args.people} simulated people and "
              f"{4 - args.people} bots each, {seconds:.0f} s")
        print(f"  moves by people measured   {len(latencies)} ({sum(r.refused for r in runs)} more refused: "
              "a bot had moved first)")
        print(f"  move to every seat's update  median {1000 * statistics.median(latencies):.1f} ms   "
              f"p95 {1000 * p95:.1f} ms   max {1000 * latencies[-1]:.1f} ms")
        print(f"  server memory              {loaded / 1024:.1f} MB at the end: "
              f"{(loaded - idle) / args.tables:.0f} kB per table")
        print(f"  (after one table: {idle / 1024:.1f} MB; the rules are compiled once and shared)")
    finally:
        proc.terminate()
        proc.wait(20)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--people", type=int, default=2, help="seats for simulated people per table (1 to 4)")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=0.5, help="a person's mean think time, in seconds")
    parser.add_argument("--seed", type=int, default=1)
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    asyncio.run(main(parser.parse_args()))
