"""The web table (`unodsl serve`): tables, seats and tokens; every message each seat is sent
holds only what that seat may see; tables survive a restart; bad requests of every kind get a
clear answer and change nothing."""
from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import httpx
import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from unodsl.compile.loader import load  # noqa: E402
from unodsl.web import app as web_app  # noqa: E402
from unodsl.web.app import Server  # noqa: E402
from unodsl.web.sandbox import MAX_SOURCE_BYTES, Sandbox, SandboxError  # noqa: E402
from web_helpers import Player, open_table, play_out, running, socket_url, take_seat  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LOOPING_RULES = """
ruleset loopy "Loopy" extends classic {
  counter n = 0
  on draw "Draw." {
    while n >= 0 { while n >= 0 { add 1 to n } }
    player draws 1
  }
}
"""


# ---- what each seat is sent ---------------------------------------------------------------------

class Audit:
    """Wraps the one place state messages are made: checks each against what its seat may see,
    then checks that hiding the rest of the game (the other hands and the stock dealt anew)
    gives the seat exactly the same message."""

    def __init__(self):
        self.checked = Counter()
        self.failures: list = []
        self.seen_texts: set = set()        # the sentences of what each seat was shown of others' cards

    def __call__(self, table, seat, online):
        with table.lock:                    # as Server._state does, and the check in the same hold
            text = json.dumps(table.state(seat, online))
            try:
                self.check(table, seat, online, text)
            except AssertionError as err:          # reported by the test, not lost in a thread
                self.failures.append(str(err))
        self.checked[seat] += 1
        return text

    def check(self, table, seat, online, text):
        g = table.game
        rules = table.rules
        msg = json.loads(text)
        view = g.view(seat)
        assert msg["seat"] == seat
        assert sorted(c["code"] for c in msg["hand"]) == sorted(view["hand"])
        known = Counter(view["hand"]) + Counter(c for codes in view["revealed"].values() for c in codes)
        known += Counter(c for codes in view.get("other_faces", {}).values() for c in codes)
        if view.get("stock_top_other_face"):
            known[view["stock_top_other_face"]] += 1
        if view["top"]:
            known[view["top"]] += 1
        seen = set(known)
        for ev in g.events_for(seat):
            cards = ev.get("cards") if isinstance(ev.get("cards"), list) else []
            if isinstance(ev.get("card"), int):
                cards = cards + [ev["card"]]
            seen.update(rules.code(card) for card in cards)
        codes = {c["code"] for c in msg["hand"]} | {m["card"] for m in msg["moves"] if "card" in m}
        codes |= {c["code"] for r in msg["revealed"] for c in r["cards"]}
        self.seen_texts |= {r["text"].split(" ")[0] + " " + r["text"].split(" ")[1] for r in msg["revealed"]}
        assert codes <= seen, f"seat {seat} was sent cards it may not see: {codes - seen}"
        for p in msg["players"]:
            assert set(p) == {"seat", "name", "bot", "you", "cards", "score", "turn", "online"}
        others = [s for s in range(g.n) if s != seat]
        hidden = [c for s in others for c in g.hands[s]] + list(g.stock)
        if not hidden:
            return
        saved = ([list(g.hands[s]) for s in others], list(g.stock), g._legal)
        rng = random.Random(len(g.events))
        # cards are swapped only with cards whose other side is the same (a seat that sees the other
        # sides of two-sided cards cannot tell those apart); one-sided cards may all be swapped
        back = (lambda c: rules.cards.other[c]) if rules.faces else (lambda c: None)
        groups: dict = {}
        for i, c in enumerate(hidden):
            groups.setdefault(back(c), []).append(i)
        for places in groups.values():
            cards = [hidden[i] for i in places]
            rng.shuffle(cards)
            for i, c in zip(places, cards):
                hidden[i] = c
        at = 0
        for s in others:
            size = len(g.hands[s])
            g.hands[s][:] = hidden[at:at + size]
            at += size
        g.stock[:] = hidden[at:]
        try:
            again = json.dumps(table.state(seat, online))
        finally:
            for s, hand in zip(others, saved[0]):
                g.hands[s][:] = hand
            g.stock[:] = saved[1]
            g._legal = saved[2]
        assert again == text, f"what seat {seat} was sent depends on cards it may not see"


@pytest.mark.parametrize("ruleset,seats", [
    ("classic", ["human", "human", "basic"]),
    ("speed", ["human", "basic", "human", "random"]),
    ("flip", ["human", "human", "basic"]),
])
def test_every_message_holds_only_what_its_seat_may_see(tmp_path, monkeypatch, ruleset, seats):
    audit = Audit()
    monkeypatch.setattr(Server, "_state", staticmethod(audit))
    with running(tmp_path) as (base, app):
        table = open_table(base, [{"kind": k, "name": f"P{i + 1}"} for i, k in enumerate(seats)], ruleset,
                           options={"target": 60}, seed=4)
        urls = [table["seat"]] + [take_seat(base, table, s, f"Person {s + 1}")
                                  for s, k in enumerate(seats) if k == "human" and s > 0]
        people = [Player(base, url, seed=i) for i, url in enumerate(urls)]
        try:
            play_out(people, lambda: all(p.state and p.state["game_over"] for p in people))
        finally:
            for p in people:
                p.close()
    assert not audit.failures, audit.failures[:3]
    assert all(audit.checked[s] > 20 for s, k in enumerate(seats) if k == "human")
    final = people[0].state
    assert final["game_over"] and final["result"]["game_winners"]
    assert any("plays" in line for line in final["log"])
    if load(ruleset).faces:                 # the declared visibility reaches the page: the other sides
        assert "The other" in audit.seen_texts, audit.seen_texts


def test_a_table_is_opened_joined_and_shown(tmp_path):
    with running(tmp_path) as (base, app):
        table = open_table(base, [{"kind": "human", "name": "Ann"}, {"kind": "human"}, {"kind": "basic"}])
        assert httpx.get(base + table["join"]).status_code == 200
        bob = take_seat(base, table, 1, "Bob")
        for url in (table["seat"], bob, "/", "/editor", f"/t/{table['id']}/sheet"):
            res = httpx.get(base + url, timeout=30)
            assert res.status_code == 200, url
        assert "Classic UNO" in httpx.get(base + f"/t/{table['id']}/sheet", timeout=30).text
        ann = Player(base, table["seat"], 1)
        ann.drain(5)
        names = [p["name"] for p in ann.state["players"]]
        assert names == ["Ann", "Bob", "Bot 3"]
        assert ann.state["log"] and all(isinstance(line, str) for line in ann.state["log"])
        ann.close()
        again = httpx.post(f"{base}/api/tables/{table['id']}/seats",
                           json={"code": table["join"].split("code=")[1], "seat": 1, "name": "Eve"})
        assert again.status_code == 409 and "already" in again.json()["error"]


def test_a_restart_resumes_every_table_exactly(tmp_path):
    with running(tmp_path) as (base, app):
        table = open_table(base, [{"kind": "human", "name": "Ann"}, {"kind": "basic"}, {"kind": "basic"}], seed=9)
        ann = Player(base, table["seat"], 3)
        play_out([ann], lambda: ann.state is not None and ann.state["v"] >= 30)
        time.sleep(0.3)
        ann.drain(0.3)
        while ann.state["moves"] == [] and not ann.state["game_over"]:
            ann.drain(1)
        before = ann.state
        ann.close()
    with running(tmp_path) as (base, app):
        ann = Player(base, table["seat"], 3)
        ann.drain(5)
        after = ann.state
        ann.close()
    for key in ("v", "hand", "top", "color", "players", "moves", "prompt", "log", "round", "stock"):
        assert after[key] == before[key], key


def test_the_lobby_offers_the_operators_plug_in_bots_and_tables_keep_them(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "examples" / "bots"))
    data = tmp_path / "data"
    with running(data, bots=["lowest:LowestFirst:greedy=no"]) as (base, app):
        offered = httpx.get(base + "/api/rulesets", timeout=30).json()["bots"]
        assert {"spec": "lowest:LowestFirst:greedy=no", "title": "lowest, greedy no"} in offered
        assert {"spec": "basic", "title": "basic"} in offered
        table = open_table(base, [{"kind": "human", "name": "Ann"}, {"kind": "lowest:LowestFirst:greedy=no"}])
        live = app.state.server._load(table["id"])
        assert type(live.bots[1]).__name__ == "LowestFirst" and live.bots[1].greedy is False
    with running(data, bots=["lowest:LowestFirst:greedy=no"]) as (base, app):      # a restart rebuilds it
        ann = Player(base, table["seat"], 2)
        ann.drain(2)
        assert ann.state is not None
        ann.close()
        assert type(app.state.server.live[table["id"]].bots[1]).__name__ == "LowestFirst"
    with running(data) as (base, app):          # a server that no longer offers it leaves the table closed
        assert httpx.get(base + table["join"].split(base)[-1], timeout=30).status_code == 404
        assert table["id"] not in app.state.server.live


def test_a_request_never_makes_the_server_load_code_it_names(tmp_path, monkeypatch):
    (tmp_path / "planted_bot.py").write_text("import sys\nsys.modules['planted_ran'] = True\n"
                                             "class Bot:\n    def __init__(self, rng): pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with running(tmp_path / "data") as (base, app):
        res = httpx.post(base + "/api/tables", timeout=30,
                         json={"ruleset": "classic", "seats": [{}, {"kind": "planted_bot:Bot"}]})
        assert res.status_code == 400 and "people or bots" in res.json()["error"]
        assert "planted_bot" not in sys.modules and "planted_ran" not in sys.modules
        assert app.state.server.store.count() == 0
        assert not any(b["spec"] == "planted_bot:Bot" for b in httpx.get(base + "/api/rulesets", timeout=30).json()["bots"])


def test_the_operator_s_bots_are_checked_at_start(tmp_path):
    from unodsl.engine.bots import BotError
    with pytest.raises(BotError):
        web_app.create_app(tmp_path / "data", bots=["nosuchmodule:Bot"])
    assert not (tmp_path / "data").exists()                # nothing was made
    res = subprocess.run([sys.executable, "-m", "unodsl", "serve", "--data", str(tmp_path / "d"),
                          "--bots", "basic,clever"], capture_output=True, text=True, timeout=60)
    assert res.returncode == 2 and "--bots: no bot called `clever`" in res.stderr, res.stderr
    assert not (tmp_path / "d").exists()


# ---- bad requests -------------------------------------------------------------------------------

def test_links_that_do_not_hold_the_seat_are_refused(tmp_path):
    with running(tmp_path) as (base, app):
        table = open_table(base, [{"kind": "human", "name": "Ann"}, {"kind": "human"}])
        good = table["seat"]
        token = good.split("token=")[1]
        forged = [good.replace(token, token[:-2] + "xx"), good.replace("/0?", "/1?"), good.split("?")[0] + "?token=",
                  good.replace(table["id"], "nosuchtable")]
        for url in forged:
            assert httpx.get(base + url).status_code in (403, 404), url
            from websockets.sync.client import connect
            with connect(socket_url(base, url)) as ws:
                msg = json.loads(ws.recv(timeout=10))
                assert msg == {"type": "error", "fatal": True, "message": "This link does not hold a seat at this table."}
        bad_join = httpx.get(base + table["join"].replace("code=", "code=x"))
        assert bad_join.status_code == 403
        res = httpx.post(f"{base}/api/tables/{table['id']}/seats", json={"code": "guess", "seat": 1, "name": "Eve"})
        assert res.status_code == 403 and "not valid" in res.json()["error"]


def test_forged_replayed_and_broken_moves_change_nothing(tmp_path):
    with running(tmp_path) as (base, app):
        table = open_table(base, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}], seed=2)
        ann = Player(base, table["seat"], 1)
        ann.drain(5)
        server = app.state.server
        live = server.live[table["id"]]
        before = (list(live.game.log), len(live.game.events))
        mine = ann.state["moves"]
        bad = [("{", "not a move"), (json.dumps({"move": 5}), "not a move"), (json.dumps([1, 2]), "not a move"),
               (json.dumps({"move": "x" * 5000}), "too long"), (json.dumps({"move": "frobnicate"}), "not a move"),
               (json.dumps({"move": "play Q9"}), "not a move"),
               (json.dumps({"move": "catch p2"}), "cannot be caught"),
               (json.dumps({"move": "play R5\x00"}), "not a move"),
               (json.dumps({"move": "draw", "v": "0"}), "not a move")]
        if not any(m["move"] == "draw" for m in mine):          # Bob's turn first: Ann may not draw
            bad.append((json.dumps({"move": "draw", "v": ann.state["v"]}), "turn"))
        for text, words in bad:
            ann.ws.send(text)
            ann.drain(5)
            assert words in ann.errors[-1].lower(), (text[:40], ann.errors[-1])
        assert (list(live.game.log), len(live.game.events)) == before
        # a move made for a state the table has left (a replayed message) is refused
        turn = ann.state if ann.state["moves"] else None
        if turn is not None:
            stale = turn["v"]
            first = next(m for m in turn["moves"] if m["kind"] != "window")
            ann.send(first["move"], stale)
            ann.drain(5)
            ann.send(first["move"], stale)
            ann.drain(5)
            assert "moved on" in ann.errors[-1]
        ann.close()


def test_requests_are_checked_before_anything_is_done(tmp_path):
    with running(tmp_path) as (base, app):
        post = lambda body, **kw: httpx.post(base + "/api/tables", timeout=30, **kw, **({"json": body} if body is not None else {}))
        cases = [
            ({"ruleset": "nosuch", "seats": [{}, {}]}, "no bundled ruleset"),
            ({"ruleset": "classic", "seats": [{"kind": "genius"}, {}]}, "people or bots"),
            ({"ruleset": "classic", "seats": [{}]}, "2 to 10 seats"),
            ({"ruleset": "classic", "seats": [{"kind": "basic"}, {"kind": "basic"}]}, "at least one seat"),
            ({"ruleset": "classic", "source": "x", "seats": [{}, {}]}, "bundled ruleset or"),
            ({"ruleset": "classic", "modules": ["nosuch"], "seats": [{}, {}]}, "house rules"),
            ({"ruleset": "classic", "options": {"uno_penalty": [1]}, "seats": [{}, {}]}, "not allowed"),
            ({"ruleset": "classic", "options": {"no_such_option": "3"}, "seats": [{}, {}]}, "option"),
            ({"ruleset": "teams", "seats": [{}, {}]}, "for 4 to 4 players"),
            ({"source": "ruleset x \"X\" extends classic { colurs { red R } }", "seats": [{}, {}]}, "cannot open"),
        ]
        for body, words in cases:
            res = post(body)
            assert res.status_code == 400, (body, res.text)
            assert words in res.text.lower() or words in res.text, (body, res.text)
        res = post(None, content=b"not json", headers={"content-type": "application/json"})
        assert res.status_code == 400 and "not JSON" in res.json()["error"]
        huge = "#" * (MAX_SOURCE_BYTES + 50_000)
        res = post({"source": huge, "seats": [{}, {}]})
        assert res.status_code == 413
        res = httpx.post(base + "/api/check", json={"source": "#" * (MAX_SOURCE_BYTES + 10)}, timeout=30)
        assert "larger than" in res.json()["error"]
        assert app.state.server.store.count() == 0
        res = httpx.post(base + "/api/check", json={"source": "ruleset x \"X\" extends classic {\n  colurs { red R }\n}\n"},
                         timeout=30)
        first = res.json()["diagnostics"][0]
        assert (first["file"], first["line"], first["col"], first["code"]) == ("rules.uno", 2, 3, "E101")
        assert "did you mean `colors`?" in first["rendered"]


def test_rules_that_loop_harm_neither_the_server_nor_another_table(tmp_path, monkeypatch):
    monkeypatch.setattr(web_app, "VET_SECONDS", 3.0)
    with running(tmp_path) as (base, app):
        table = open_table(base, [{"kind": "human", "name": "Ann"}, {"kind": "basic"}])
        ann = Player(base, table["seat"], 1)
        ann.drain(5)
        result = {}

        def create_loopy():
            start = time.monotonic()
            result["res"] = httpx.post(base + "/api/tables", json={"source": LOOPING_RULES, "seats": [{}, {"kind": "basic"}]},
                                       timeout=60)
            result["seconds"] = time.monotonic() - start
        thread = threading.Thread(target=create_loopy)
        thread.start()
        time.sleep(0.5)
        start = time.monotonic()
        assert httpx.get(base + "/api/rulesets", timeout=10).status_code == 200
        play_out([ann], lambda: ann.state["v"] >= 6)
        assert time.monotonic() - start < 5, "another table waited for the looping rules"
        thread.join(60)
        res = result["res"]
        assert res.status_code == 400
        assert "took longer than 3 seconds to play in a test game" in res.json()["error"]
        assert result["seconds"] < 30
        ann.close()


def test_the_sandbox_refuses_what_is_too_big_and_recovers_from_what_is_too_slow():
    box = Sandbox()
    try:
        with pytest.raises(SandboxError, match="larger than"):
            box.run("check", "#" * (MAX_SOURCE_BYTES + 1), [], {})
        with pytest.raises(SandboxError, match="took longer than 1 seconds"):
            box.run("vet", LOOPING_RULES, [], {}, 2, timeout=1.0)
        ok = box.run("check", "ruleset mine \"Mine\" extends classic { }", [], {})
        assert ok["errors"] == 0 and ok["title"] == "Mine" and ok["players"] == [2, 10]
        assert any(o["name"] == "uno_penalty" and o["value"] == 2 for o in ok["options"])
        assert re.search(r"<html", box.run("sheet", "ruleset mine \"Mine\" extends classic { }", [], {}), re.I)
    finally:
        box.close()
