"""The terminal front end: scripted sessions through `play_session`, plus the Session pieces a
script cannot reach (a refused move leaves the game untouched, reveals stay private).

Seeds are found by looking at the first screen rather than hard-coded, so the tests keep
working when the engine deals differently, and fail if the screen stops showing what they need.
"""
import io
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from unodsl.compile.loader import load
from unodsl.engine.actions import format_action
from unodsl.engine.bots import RandomBot
from unodsl.front.play import WIDTH, Session, play_session

ROOT = Path(__file__).resolve().parent.parent
HAND = re.compile(r"^Your hand \((\d+)\): (.*)$", re.MULTILINE)


@pytest.fixture(scope="module")
def rules():
    return load("classic")


def run(rules, script, seed=1, players=4, humans=(0,), bot="basic"):
    out = io.StringIO()
    rc = play_session(rules, players, list(humans), bot, seed, io.StringIO(script), out)
    return rc, out.getvalue()


def hands_shown(text):
    """Each `Your hand` line as (codes, playable codes)."""
    shown = []
    for _, cards in HAND.findall(text):
        codes = cards.split()
        shown.append(([c.lstrip("*") for c in codes], [c[1:] for c in codes if c.startswith("*")]))
    return shown


def seed_where(rules, wanted):
    """The first seed whose first screen for p1 is a turn whose hand satisfies `wanted`."""
    for seed in range(200):
        rc, text = run(rules, "quit\n", seed)
        if "Your turn" not in text:
            continue
        codes, playable = hands_shown(text)[0]
        if wanted(codes, playable):
            return seed, codes, playable
    pytest.fail("no seed gives the wanted first hand")


class EndlessInterrupt(io.StringIO):
    def readline(self, *args):
        raise KeyboardInterrupt


class NoInput(io.StringIO):
    def readline(self, *args):
        raise AssertionError("an all-bot game must not read input")


def test_unknown_word_then_illegal_card_then_quit(rules):
    seed, codes, playable = seed_where(rules, lambda codes, playable: set(codes) - set(playable))
    stuck = next(c for c in codes if c not in playable)
    rc, text = run(rules, f"frobnicate\nplay {stuck}\nquit\n", seed)
    assert rc == 0
    assert "Not a move: unknown move `frobnicate`" in text
    assert f"Not allowed: {stuck} cannot be played on" in text
    assert "Goodbye" in text
    assert "Traceback" not in text
    assert text.count("p1> ") == 3            # asked again after each mistake, nothing moved on
    assert len(hands_shown(text)) == 1


def test_card_not_held_is_refused(rules):
    seed, codes, _ = seed_where(rules, lambda codes, playable: True)
    absent = next(c for c in ("R5", "G7", "B2", "Y9", "RS") if c not in codes)
    rc, text = run(rules, f"play {absent}\nquit\n", seed)
    assert rc == 0
    assert f"Not allowed: you hold no {absent}" in text


def test_end_of_input_at_once(rules):
    rc, text = run(rules, "")
    assert rc == 0
    assert "p1> " in text
    assert "End of input. Goodbye." in text
    assert "Traceback" not in text


def test_ctrl_c_says_goodbye(rules):
    out = io.StringIO()
    rc = play_session(rules, 4, [0], "basic", 1, EndlessInterrupt(), out)
    assert rc == 130
    assert "Interrupted. Goodbye." in out.getvalue()


def test_all_bots_play_to_the_end(rules):
    out = io.StringIO()
    rc = play_session(rules, 4, [], "basic", 5, NoInput(), out)
    text = out.getvalue()
    assert rc == 0
    assert "=== Game over after" in text
    scores = dict(re.findall(r"(p\d) (-?\d+)", re.search(r"^Final scores: (.*)$", text, re.M).group(1)))
    winner = re.search(r"^Winner: (p\d)$", text, re.M).group(1)
    assert int(scores[winner]) == max(int(v) for v in scores.values())
    assert "plays" in text and "deals 7 cards" in text      # the rounds were told
    assert "p1> " not in text


def test_help_lists_moves_and_card_codes(rules):
    rc, text = run(rules, "help\nquit\n")
    assert rc == 0
    help_text = text.split("p1> ")[1]
    for code in ("R0", "R9", "RS", "RR", "R+2", "B+2", "W", "W+4"):
        assert re.search(rf"(^|\s){re.escape(code)}(\s|$|,)", help_text), code
    for move in ("`play R0`", "`play W red`", "`play R0 uno`", "`draw`", "`keep`", "`choose red`",
                 "`challenge`", "`accept`", "`uno`", "`catch p2`", "`hint`", "`quit`"):
        assert move in help_text, move
    assert "RS = Red Skip" in help_text
    assert "Challenge the Wild Draw Four?" in help_text


def test_hint_suggests_a_playable_card_without_playing_it(rules):
    seed, codes, playable = seed_where(rules, lambda codes, playable: playable)
    rc, text = run(rules, "hint\nhand\nquit\n", seed)
    assert rc == 0
    hint = re.search(r"^Hint: play (\S+?)[ .]", text, re.M)
    assert hint and hint.group(1) in playable
    listed = re.search(r"^Cards you can play: (.*)$", text, re.M).group(1).split()
    assert sorted(listed) == sorted(playable)
    before, after = hands_shown(text)          # `hand` shows the same hand: nothing was played
    assert before == after


def test_hint_says_draw_when_nothing_fits(rules):
    seed, _, _ = seed_where(rules, lambda codes, playable: not playable)
    rc, text = run(rules, "hint\nquit\n", seed)
    assert "Hint: draw." in text
    assert "Your turn: nothing you hold can be played, so draw. Type `draw`." in text


def test_a_legal_play_moves_the_game_on(rules):
    plain = lambda playable: [c for c in playable if not c.startswith("W")]
    seed, codes, playable = seed_where(rules, lambda codes, playable: plain(playable))
    card = plain(playable)[0]
    rc, text = run(rules, f"play {card}\nquit\n", seed)
    assert rc == 0
    assert re.search(rf"^  You play {re.escape(rules.cards.name[rules.codes[card]])}\.$", text, re.M)
    assert "Not allowed" not in text
    assert text.count("p1> ") == 2             # a second prompt (or the round went on without us)


def test_refused_move_does_not_change_the_game(rules):
    seed, codes, playable = seed_where(rules, lambda codes, playable: set(codes) - set(playable))
    stuck = next(c for c in codes if c not in playable)
    out = io.StringIO()
    session = Session(rules, 4, [0], "basic", seed, io.StringIO(""), out)
    g = session.game
    while g.decision.seat != 0:                # let the bots move up to p1's first turn
        session._apply(session.bots[g.decision.seat].choose(g, g.legal_actions()))
    before = (list(g.hands[0]), len(g.events), g.decision, list(g.discard), g.color)
    assert session.try_move(0, f"play {stuck}") is False
    assert session.try_move(0, "play") is False
    assert session.try_move(0, "keep") is False
    assert (list(g.hands[0]), len(g.events), g.decision, list(g.discard), g.color) == before
    assert "Not allowed" in out.getvalue() and "Not a move" in out.getvalue()
    assert session.try_move(0, format_action(rules, g.legal_actions()[0])) is True
    assert g.decision != before[2] or len(g.events) > before[1]


def test_out_of_turn_word_at_a_prompt_is_checked_by_the_rules(rules):
    rc, text = run(rules, "uno\ncatch p2\nquit\n")
    assert rc == 0
    assert "Not allowed: there is nothing to uno now" in text
    assert "Not allowed: p2 cannot be caught out now" in text


def test_reveal_is_shown_only_to_its_audience(rules):
    session = Session(rules, 3, [0], "basic", 2, io.StringIO(""), io.StringIO())
    g = session.game
    shown = list(g.hands[1])
    event = {"e": "reveal", "seat": 1, "to": [2], "private": {2: {"cards": shown}}}
    name = rules.cards.name[shown[0]]
    assert name not in session.describe(event, 0)
    assert session.describe(event, 0) == "p2 shows their hand to p3."
    assert name in session.describe(event, 2)
    assert session.describe(event, 2).startswith("p2 shows you their hand: ")
    assert session.describe({"e": "draw", "seat": 1, "count": 2}, 0) == "p2 draws 2 cards."


def test_bad_setup_is_reported(rules):
    out = io.StringIO()
    assert play_session(rules, 4, [7], "basic", 1, io.StringIO(""), out) == 2
    assert "no seat p8" in out.getvalue()
    out = io.StringIO()
    assert play_session(rules, 4, [0], "genius", 1, io.StringIO(""), out) == 2
    assert "no bot called `genius`" in out.getvalue()


def test_a_plug_in_bot_plays_by_import_path(rules, monkeypatch):
    """examples/bots/lowest.py, named as a person would name it on the command line."""
    monkeypatch.syspath_prepend(str(ROOT / "examples" / "bots"))
    res = subprocess.run([sys.executable, "-m", "unodsl", "play", "classic", "--players", "3", "--seed", "5",
                          "--bots", "lowest:LowestFirst:greedy=no"], input="", capture_output=True, text=True,
                         cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT / "examples" / "bots")}, timeout=60)
    assert res.returncode == 0, res.stderr
    assert "Your hand" in res.stdout and "Goodbye" in res.stdout
    out = io.StringIO()
    session = Session(rules, 3, [], "lowest:LowestFirst", 5, NoInput(), out)
    assert {type(b).__name__ for b in session.bots.values()} == {"LowestFirst"}
    session.run()
    text = out.getvalue()
    assert "=== Game over after" in text and " plays " in text


class Autoplayer:
    """Types a legal move for whoever is asked, from the live game: a whole game with people."""

    def __init__(self, seed):
        self.session = None
        self.rng = random.Random(seed)
        self.bot = RandomBot(self.rng)

    def isatty(self):
        return False

    def readline(self, size=-1):
        g = self.session.game
        if g.decision is None or g.decision.kind == "deal":
            return "\n"
        if self.rng.random() < 0.1:
            return self.rng.choice(["hint\n", "hand\n", "uno\n", "catch p2\n", "play Q9\n"])
        return format_action(g.rules, self.bot.choose(g, g.legal_actions())) + "\n"


@pytest.mark.parametrize("seed,humans", [(3, [0]), (4, [0, 2])])
def test_people_can_play_a_whole_game(rules, seed, humans):
    stdin, out = Autoplayer(seed), io.StringIO()
    session = Session(rules, 3, humans, "basic", seed, stdin, out)
    stdin.session = session
    session.run()
    text = out.getvalue()
    assert session.game.game_over
    assert re.search(r"^(Winner: p\d|Winners, tied: p\d|You won the game\.)", text, re.M)
    if session.game.round > 1:
        assert "Press Enter to deal round 2" in text
    assert "*** Round 1" in text
    too_wide = [line for line in text.splitlines() if len(line) > WIDTH]
    assert not too_wide
