"""A real `unodsl serve` in a thread of the test process (uvicorn on a free loopback port) and
websocket players that read what the server sends and answer with one of the moves it offers."""
from __future__ import annotations

import json
import random
import threading
import time
from contextlib import contextmanager

import httpx
import uvicorn
from websockets.sync.client import connect

from unodsl.web.app import create_app


@contextmanager
def running(data_dir, bot_delay: float = 0.0, bots=()):
    """The web table served on 127.0.0.1 at a free port; yields (base URL, app)."""
    app = create_app(data_dir, bot_delay=bot_delay, bots=bots)
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", ws_per_message_deflate=False,
                            lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the web table did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        thread.join(20)


def open_table(base: str, seats, ruleset="classic", **extra) -> dict:
    body = {"ruleset": ruleset, "seats": seats, "host_seat": 0, **extra}
    res = httpx.post(base + "/api/tables", json=body, timeout=30)
    assert res.status_code == 200, res.text
    return res.json()


def take_seat(base: str, table: dict, seat: int, name: str) -> str:
    code = table["join"].split("code=")[1]
    res = httpx.post(f"{base}/api/tables/{table['id']}/seats", json={"code": code, "seat": seat, "name": name},
                     timeout=30)
    assert res.status_code == 200, res.text
    return res.json()["url"]


def socket_url(base: str, seat_url: str) -> str:
    path, query = seat_url.split("?")
    _, _, table, seat = path.split("/")
    return f"{base.replace('http', 'ws')}/ws/{table}/{seat}?{query}"


class Player:
    """One person's page: keeps the latest state it was sent and every message it got."""

    def __init__(self, base: str, seat_url: str, seed: int):
        self.ws = connect(socket_url(base, seat_url), open_timeout=20).__enter__()
        self.state = None
        self.received: list = []
        self.errors: list = []
        self.answered = None
        self.last_sent = 0.0
        self.rng = random.Random(seed)

    def drain(self, wait: float = 0.0) -> None:
        """Read every message waiting (for up to `wait` seconds for the first)."""
        timeout = wait
        while True:
            try:
                text = self.ws.recv(timeout=timeout)
            except TimeoutError:
                return
            msg = json.loads(text)
            self.received.append(msg)
            if msg["type"] == "state":
                self.state = msg
            else:
                self.errors.append(msg["message"])
                self.answered = None                 # refused: the person looks again and taps
            timeout = 0.0

    def choose(self):
        """A move among those offered (once per state, as a person taps once): out of turn now
        and then, else the seat's own."""
        moves = self.state["moves"] if self.state else []
        if not moves or self.answered is self.state:
            return None
        self.answered = self.state
        window = [m for m in moves if m["kind"] == "window"]
        own = [m for m in moves if m["kind"] != "window"]
        if window and (not own or self.rng.random() < 0.5):
            return self.rng.choice(window)
        return self.rng.choice(own) if own else None

    def send(self, move: str, version) -> None:
        wait = self.last_sent + 0.05 - time.monotonic()     # a person taps at most 20 times a second
        if wait > 0:
            time.sleep(wait)
        self.last_sent = time.monotonic()
        self.ws.send(json.dumps({"move": move, "v": version}))

    def close(self) -> None:
        self.ws.close()


def play_out(players, stop, seconds: float = 120.0) -> None:
    """Let the people move until `stop()` holds (bots move by themselves on the server)."""
    deadline = time.monotonic() + seconds
    while not stop():
        assert time.monotonic() < deadline, "the game did not get there in time"
        moved = False
        for p in players:
            p.drain(0.01)
            move = p.choose()
            if move is not None:
                p.send(move["move"], p.state["v"])
                moved = True
                p.drain(0.05)
        if not moved:
            time.sleep(0.02)
