"""The web table in a real browser (Debian's Chromium, driven by Playwright): a host opens a table
with rules of their own from the lobby, a friend joins from the shared link in a second browser,
and they play until a round has ended after a Wild Draw Four was challenged and a player was
caught not saying UNO; one of them reloads the page mid-game, the server is restarted mid-game,
and the game goes on. The editor shows a mistake at the line it is on."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip("Debian's chromium is not installed (.ci/run installs it)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
PHONE = {"width": 375, "height": 800}
QUICK = """# A short game: small hands, many Wild Draw Fours.
ruleset quick "Quick test" extends classic {
  players 2 to 3
  deal 3
  deck {
    each color { 2 number 1..2 },
    4 wild_draw_four
  }
}
"""
BROKEN = 'ruleset mine "Mine" extends classic {\n  about "A mistake on line three."\n  colurs { red R }\n}\n'


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """`unodsl serve` as a person starts it, in a process of its own, so it can be restarted."""

    def __init__(self, data: Path):
        self.data, self.port, self.proc = data, free_port(), None
        self.base = f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen([sys.executable, "-m", "unodsl", "serve", "--port", str(self.port),
                                      "--data", str(self.data)], env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("unodsl serve did not start: " + (self.proc.stdout.read() if self.proc.poll() else ""))

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(20)
            self.proc = None


@pytest.fixture()
def served(tmp_path):
    server = Served(tmp_path / "tables")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _log(page) -> str:
    return page.locator("#log").inner_text()


def _version(page) -> int:
    return int(page.locator("#table").get_attribute("data-v") or -1)


def _settled(pages) -> None:
    """Wait until no page's state changes for a moment."""
    seen = None
    while True:
        now = [_version(p) for p in pages]
        if now == seen:
            return
        seen = now
        pages[0].wait_for_timeout(400)


def _hand(page) -> list:
    return page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.dataset.code)")


def _choose_color(page) -> None:
    """Press the color swatch a person would: the color most of their hand is (the first if none).
    Always naming the first color lets a tiny deck's round go round for ever."""
    names = page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.getAttribute('aria-label'))")
    swatches = page.locator("#chooser button.swatch")
    labels = swatches.evaluate_all("bs => bs.map(b => b.getAttribute('aria-label'))")
    held = [sum(name.startswith(label + " ") for name in names) for label in labels]
    swatches.nth(max(range(len(labels)), key=held.__getitem__)).click()


def _turn(page, events: dict) -> bool:
    """Make one sensible move on this page if it has one; True if a button was pressed."""
    catch = page.locator("#actions button[data-move^='catch']")
    if catch.count():
        catch.first.click()
        events["catch clicked"] = True
        return True
    question = page.locator("#question button")
    if question.count():
        challenge = page.locator("#question button[data-move='challenge']")
        if challenge.count() and "challenged" not in events:
            challenge.first.click()
            events["challenged"] = True
        else:
            accept = page.locator("#question button[data-move='accept']")
            (accept if accept.count() else question).first.click()
        return True
    if page.locator("#chooser button.swatch").count():
        _choose_color(page)
        return True
    prompt = page.locator("#prompt").inner_text()
    if "Your turn" in prompt or "You drew" in prompt:
        cards = page.locator("#hand .card.can")
        wild = page.locator("#hand .card.can[data-code='W+4']")
        if "challenged" in events:              # then play to go out: other cards first
            wild, cards = page.locator("#hand .card.can:not([data-code='W+4'])"), cards
        if wild.count() or cards.count():
            arm = page.locator("#arm-call:not(.armed)")
            if "catch clicked" in events and arm.count():     # once someone was caught: say UNO
                arm.first.click()
            (wild if wild.count() else cards).first.click()
            page.wait_for_timeout(80)
            if page.locator("#chooser button.swatch").count():
                _choose_color(page)
            return True
        for move in ("draw", "keep"):
            button = page.locator(f"#actions button[data-move='{move}']")
            if button.count():
                button.first.click()
                return True
    return False


def test_two_friends_play_a_round_through_a_reload_and_a_restart(served, browser, tmp_path):
    host_ctx = browser.new_context(viewport=PHONE)
    friend_ctx = browser.new_context(viewport=PHONE)
    host = host_ctx.new_page()
    errors = []
    host.on("pageerror", lambda e: errors.append(str(e)))

    # the host opens a table with rules of their own, from the lobby
    host.goto(served.base + "/")
    host.check("input[name=source][value=own]")
    host.fill("#own-text", QUICK)
    host.wait_for_function("document.getElementById('own-status').textContent.startsWith('Ready')", timeout=30000)
    assert host.locator("#options .option").count() >= 5          # the rules' own options, in words
    while host.locator("#seats .seatrow").count() > 2:
        host.click("#remove-seat")
    host.select_option("[data-seat-kind='1']", "human")
    host.fill("input[aria-label='Name for seat 1']", "Ann")
    host.click("#open")
    host.wait_for_selector("#created:not([hidden])", timeout=30000)
    link = host.input_value("#share-link")
    host.click("#go-seat")

    # a friend joins from the shared link
    friend = friend_ctx.new_page()
    friend.on("pageerror", lambda e: errors.append(str(e)))
    friend.goto(link)
    friend.fill("#name", "Bob")
    friend.click("button[data-seat='1']")
    friend.wait_for_selector("#hand .card", timeout=20000)
    host.wait_for_selector("#hand .card", timeout=20000)
    assert host.locator("#players li").nth(1).locator(".pname").inner_text().startswith("Bob")

    events = {}
    pages = [host, friend]
    moves = 0
    deadline = time.monotonic() + 150
    while True:
        assert time.monotonic() < deadline, f"no round with a challenge and a catch: {_log(host)[-600:]}"
        if "challenged" in events and "told" not in events:
            host.wait_for_timeout(300)
            events["told"] = _log(host) + _log(friend)
        if "catch clicked" in events and "caught" not in events:
            host.wait_for_timeout(300)
            events["caught"] = _log(host) + _log(friend)
        done = "challenged" in events and "catch clicked" in events and "restarted" in events
        if done and host.locator("#result:not([hidden])").count():
            break
        if host.locator("#actions button[data-move='deal']").count():
            host.click("#actions button[data-move='deal']")
            host.wait_for_timeout(150)
            continue
        moved = False
        for page in pages:
            before = _version(page)
            if _turn(page, events):
                moved = True
                try:                         # the move's state arrives (or a refusal: then go on)
                    page.wait_for_function(f"Number(document.getElementById('table').dataset.v) > {before}",
                                           timeout=1500)
                except sync_api.TimeoutError:
                    pass
        moves += moved
        if moves == 6 and "reloaded" not in events:          # a dropped phone: the page comes back
            _settled(pages)
            version, hand = _version(friend), _hand(friend)
            friend.reload()
            friend.wait_for_function(f"Number(document.getElementById('table').dataset.v) >= {version}",
                                     timeout=20000)
            assert (_version(friend), _hand(friend)) == (version, hand)
            events["reloaded"] = True
        if moves == 12 and "restarted" not in events:         # the server goes down and comes back
            _settled(pages)
            version, hand = _version(host), _hand(host)
            served.stop()
            host.wait_for_selector("#link.off", timeout=20000)
            served.start()
            host.wait_for_selector("#link.on", timeout=30000)
            friend.wait_for_selector("#link.on", timeout=30000)
            host.wait_for_function(f"Number(document.getElementById('table').dataset.v) >= {version}",
                                   timeout=20000)
            assert (_version(host), _hand(host)) == (version, hand)
            events["restarted"] = True
    told = events["told"]
    assert "challenge." in told or "challenges." in told
    assert "was a bluff" in told or "was played fairly" in told        # the challenge is explained
    assert re.search(r"(You catch|catches you)", events["caught"])
    assert "won round" in host.locator("#result").inner_text()
    host.screenshot(path=str(tmp_path / "table.png"), full_page=True)
    assert not errors, errors
    host_ctx.close()
    friend_ctx.close()


def test_the_editor_shows_a_mistake_at_its_line(served, browser):
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    page = ctx.new_page()
    page.goto(served.base + "/editor")
    page.wait_for_selector("#status.good", timeout=30000)       # the starter text checks clean
    page.fill("#source", BROKEN)
    page.wait_for_selector("#gutter b[data-line='3']", timeout=30000)
    assert page.locator("#gutter b").count() == 1
    first = page.locator("#diagnostics li pre").first.inner_text()
    assert first.startswith("rules.uno:3:3: error[E101]: unknown word `colurs` here")
    assert "did you mean `colors`?" in first
    assert "^^^^^^" in first
    assert page.locator("#open-table").is_disabled()
    page.fill("#source", BROKEN.replace("  colurs { red R }\n", ""))
    page.wait_for_selector("#status.good", timeout=30000)
    assert page.locator("#open-table").is_enabled()
    assert "Mine" in page.frame_locator("#sheet").locator("body").inner_text(timeout=20000)
    ctx.close()
