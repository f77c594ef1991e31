"""The narration both front ends print: a sentence for every kind of event, and whole games of
every bundled ruleset and module, played at the terminal, whose transcript a family can read
(no event names, answer words, identifiers, `none`, or internal words in parentheses)."""
from __future__ import annotations

import io
import random
import re

import pytest

from unodsl.compile.loader import bundled_names, load
from unodsl.engine.actions import format_action
from unodsl.engine.bots import RandomBot
from unodsl.engine.events import EVENTS
from unodsl.front.narration import SENTENCES, Narrator, for_players
from unodsl.front.play import Session

RULESETS = [name for name, kind, _ in bundled_names() if kind == "ruleset"]
MODULES = [name for name, kind, _ in bundled_names() if kind == "module"]


@pytest.fixture(scope="module")
def classic():
    return load("classic")


def test_every_kind_of_event_has_a_sentence():
    missing = set(EVENTS) - set(SENTENCES)
    assert not missing, f"give these events a sentence in unodsl/front/narration.py: {sorted(missing)}"


SAMPLES = {
    "action": {"seat": 1, "action": "challenge", "question": "Challenge the Wild Draw Four?"},
    "dealer": {"seat": 3}, "deal": {"dealer": 3, "cards": 7}, "starter": {"card": 0},
    "starter_returned": {"card": 0}, "play": {"seat": 1, "card": 0}, "draw_turn": {"seat": 1},
    "draw": {"seat": 1, "count": 2}, "reshuffle": {"cards": 30}, "skipped": {"seat": 2},
    "direction": {"direction": -1}, "color": {"seat": 1, "color": "red"},
    "swap": {"seats": [1, 2]}, "pass_hands": {}, "redeal": {"start": 2},
    "swap_seats": {"seats": [1, 3]}, "discard": {"seat": 1, "count": 1},
    "reveal": {"seat": 1, "to": [2]}, "cancel": {}, "honesty": {"seat": 1, "card": 53, "honest": False},
    "window": {"seat": 2, "verb": "catch", "subject": 1}, "race": {"outcome": 2, "prompt": "Who was last?"},
    "number": {"outcome": 28, "prompt": "How many cards did the dealer cut?"},
    "score": {"seat": 1, "points": -50}, "eliminated": {"seat": 1, "round_only": True}, "loop_limit": {"limit": 1000},
    "stalemate": {"reason": "nobody could play or draw"},
    "round_end": {"winner": 1, "points": [0, 40, 0, 0], "scores": [0, 40, 0, 0]},
    "game_end": {"winners": [1]},
    "color_set": {"color": "blue"}, "chance": {"of": "race", "outcome": 2, "prompt": "Who is the target?"},
    "put": {"seat": 1, "pile": "discard", "where": "bottom", "card": 0}, "turn_over": {"pile": "stock"},
    "shuffle": {"pile": "discard", "into": "stock", "cards": 12}, "flip": {"face": "dark", "top": 0},
    "trigger_limit": {"limit": 100},
}


def test_chance_and_piles_keep_hidden_cards_hidden(classic):
    watcher = Narrator(classic, 4, 0)
    assert watcher.tell([{"e": "chance", "of": "card"}]) == ["A card is picked at random."]
    assert watcher.tell([{"e": "chance", "of": "color", "outcome": "red"}]) == ["Chance picks red."]
    put = {"e": "put", "seat": 1, "pile": "stock", "where": "bottom"}
    assert watcher.tell([put]) == ["p2 puts a card at the bottom of the stock."]
    assert Narrator(classic, 4, 1).tell([{**put, "card": classic.codes["R5"]}]) == \
        ["You put Red 5 at the bottom of the stock."]


@pytest.mark.parametrize("kind", sorted(EVENTS))
def test_each_sentence_reads_as_english(classic, kind):
    assert kind in SAMPLES, f"add a sample `{kind}` event to this test"
    for viewer in (None, 0, 1, 2):
        lines = Narrator(classic, 4, viewer).tell([{"e": kind, **SAMPLES[kind]}])
        assert len(lines) == 1, (kind, viewer, lines)
        assert_readable(lines[0], classic)
        assert "Something happened" not in lines[0]


def test_second_person_for_the_viewer(classic):
    you = Narrator(classic, 4, 1)
    them = Narrator(classic, 4, 0)
    played = {"e": "play", "seat": 1, "card": classic.codes["W"]}
    chose = {"e": "color", "seat": 1, "color": "blue"}
    assert you.tell([played, chose]) == ["You play Wild and choose blue."]
    assert them.tell([played, chose]) == ["p2 plays Wild and chooses blue."]
    drew = {"e": "draw", "seat": 2, "count": 2}
    lost = {"e": "skipped", "seat": 2}
    assert Narrator(classic, 4, 2).tell([drew, lost]) == ["You draw 2 cards and lose your turn."]
    assert them.tell([drew, lost]) == ["p3 draws 2 cards and loses their turn."]
    swap = {"e": "swap", "seats": [0, 1]}
    assert you.tell([swap]) == ["You and p1 swap hands."]


def test_a_player_who_cannot_play_and_is_out_is_told_once(classic):
    events = [{"e": "draw_turn", "seat": 1}, {"e": "eliminated", "seat": 1, "round_only": True}]
    assert Narrator(classic, 4, 0).tell(events) == ["p2 plays no card and is out of the round."]
    assert Narrator(classic, 4, 1).tell(events) == ["You play no card and are out of the round."]


def test_a_drawn_card_is_named_to_its_drawer_only(classic):
    card = classic.codes["R5"]
    event = {"e": "draw", "seat": 0, "count": 1, "private": {0: {"cards": [card]}}}
    from unodsl.engine.game import Game
    game = Game(classic, 3, seed=1)
    game.events = [event]
    assert Narrator(classic, 3, 0).tell(game.events_for(0)) == ["You draw Red 5."]
    assert Narrator(classic, 3, 1).tell(game.events_for(1)) == ["p1 draws a card."]


def test_a_catch_names_its_rule_once(classic):
    n = Narrator(classic, 4, 0)
    catch = [{"e": "window", "seat": 0, "verb": "catch", "subject": 2}, {"e": "draw", "seat": 2, "count": 2}]
    first = n.tell(catch)
    assert first[0].startswith("You catch p3: p3 draws 2 cards. The rule: “Catch a player")
    assert n.tell(catch) == ["You catch p3: p3 draws 2 cards."]
    said = n.tell([{"e": "window", "seat": 2, "verb": "uno", "subject": 2}])
    assert said == ["p3 says UNO!"]


def test_a_jump_in_is_told_as_one_out_of_turn_play():
    rules = load("killer")
    n = Narrator(rules, 4, None)
    r1 = rules.codes["R1"]
    lines = n.tell([{"e": "play", "seat": 1, "card": r1}, {"e": "action", "seat": 2, "action": "jump R1 p2"},
                    {"e": "window", "seat": 2, "verb": "jump", "subject": 1}, {"e": "cancel"},
                    {"e": "play", "seat": 2, "card": r1}])
    assert lines == ["p2 plays Red 1.", "Out of turn, p3 plays Red 1; p2's Red 1 loses its effect."]


def test_answers_are_told_in_words(classic):
    speed = load("speed")
    bet = {"e": "action", "seat": 1, "action": "no_bet",
           "question": "Bet that the dealer cut exactly the cards dealt?"}
    assert Narrator(speed, 4, 0).tell([bet]) == [
        "Asked “Bet that the dealer cut exactly the cards dealt?”, p2 answers: Do not bet."]
    assert Narrator(speed, 4, 1).tell([bet]) == ["You answer: Do not bet."]
    accept = {"e": "action", "seat": 2, "action": "accept", "question": "Challenge the Wild Draw Four?"}
    assert Narrator(classic, 4, 0).tell([accept]) == ["p3 accepts."]
    challenge = {"e": "action", "seat": 1, "action": "challenge", "question": "Challenge the Wild Draw Four?"}
    assert Narrator(classic, 4, 0).tell([challenge]) == ["p2 challenges."]
    assert Narrator(classic, 4, 1).tell([challenge]) == ["You challenge."]


def test_a_challenge_says_why_it_succeeded_or_failed(classic):
    w4 = classic.codes["W+4"]
    told = Narrator(classic, 4, 0).tell([{"e": "honesty", "seat": 1, "card": w4, "honest": False}])
    assert told == ["p2's Wild Draw Four was a bluff: it may only be played when p2 holds no card of the "
                    "current color."]
    told = Narrator(classic, 4, 0).tell([{"e": "honesty", "seat": 1, "card": w4, "honest": True}])
    assert told == ["p2's Wild Draw Four was played fairly: p2 holds no card of the current color."]


def test_the_engine_tells_the_verdict_of_a_challenge(classic):
    from unodsl.compile.decisions import Action
    from unodsl.engine.game import Game, Position
    for generated in (True, False):
        hands = [[classic.codes[c] for c in ("W+4", "R5", "G2")], [classic.codes["Y1"]] * 3, [classic.codes["B1"]]]
        pos = Position(hands=hands, discard=[classic.codes["R7"]], stock=[classic.codes["B2"]] * 10, color="red", turn=0)
        game = Game(classic, 3, seed=1, position=pos, generated=generated)
        game.apply(Action(0, "play", classic.codes["W+4"], "blue"))
        game.apply(Action(1, "challenge"))
        verdicts = [e for e in game.events if e["e"] == "honesty"]
        assert verdicts == [{"e": "honesty", "seat": 0, "card": classic.codes["W+4"], "honest": False}]


def test_asides_about_options_are_left_out_for_players():
    rules = load("killer")
    text = ("Play a card identical to the top card, out of turn: the card you cover loses its effect "
            "(unless jump_in_effect = first-stands), and play goes on from you.")
    assert for_players(rules, text) == ("Play a card identical to the top card, out of turn: the card you "
                                        "cover loses its effect, and play goes on from you.")
    assert for_players(rules, "One. With jump_in_effect, two. Three.") == "One. Three."


# ---- whole games at the terminal ------------------------------------------------------------------

_IDENTIFIER = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")             # pass_hands, no_bet, jump_in_effect
_PAREN_WORD = re.compile(r"\((?:[a-z_]+|[a-z]+ [a-z]+)\)")            # (cancel), (number), (out)
_RAW = re.compile(r"\b(?:None|none|True|False|null)\b|[{}\[\]<>]|Something happened|\(you\)")


def assert_readable(text: str, rules) -> None:
    for pattern in (_IDENTIFIER, _PAREN_WORD, _RAW):
        found = pattern.search(text)
        assert found is None, f"{found.group(0)!r} in: {text}"
    for name in rules.options:
        if "_" in name:
            assert name not in text, f"option name {name!r} in: {text}"


class Typist:
    """Plays seat p1 as a person would at the prompt: asks for help once, then types the moves a
    random player would choose, with an out-of-turn call now and then."""

    def __init__(self, seed):
        self.session = None
        self.rng = random.Random(seed)
        self.bot = RandomBot(self.rng)
        self.asked_help = False

    def isatty(self):
        return False

    def readline(self, *limit):
        g = self.session.game
        if not self.asked_help:
            self.asked_help = True
            return "help\n"
        if g.decision is None or g.decision.kind == "deal":
            return "\n"
        extra = g.window_actions(0)
        if extra and self.rng.random() < 0.5:
            return format_action(g.rules, self.rng.choice(extra)) + "\n"
        if g.decision.seat != 0:
            return "hand\n"
        return format_action(g.rules, self.bot.choose(g, g.legal_actions())) + "\n"


GAMES = [(name, ()) for name in RULESETS] + [("classic", (m,)) for m in MODULES if m != "red-zero"] + \
        [("killer", ("red-zero", "nines", "silent-twos")), ("classic", ("seven-o", "deadly"))]


@pytest.mark.parametrize("name,modules", GAMES, ids=["+".join((n,) + m) for n, m in GAMES])
def test_a_whole_game_at_the_terminal_reads_as_english(name, modules):
    options = {"target": 150} if name != "challenge-uno" else {"target": 60}
    if "target" not in load(name, modules).options:
        options = {}                          # a game won otherwise (no-mercy: the first out wins)
    rules = load(name, modules, options)
    typist, out = Typist(7), io.StringIO()
    session = Session(rules, 4, [0], "basic", 7, typist, out)
    typist.session = session
    session.run()
    text = out.getvalue()
    assert session.game.game_over, "the game did not end"
    assert "Your hand" in text and "The game is over" in text
    for line in text.splitlines():
        if not line.startswith("p1> "):            # the prompt, and what the person typed
            assert_readable(line, rules)


@pytest.mark.parametrize("name", RULESETS + ["classic+" + m for m in MODULES if m != "red-zero"] + ["killer+red-zero"])
def test_every_example_in_help_is_a_move_the_game_reads(name):
    base, *modules = name.split("+")
    rules = load(base, tuple(modules))
    session = Session(rules, 4, [0], "basic", 1, io.StringIO(""), io.StringIO())
    examples = [m.group(1) for line in session.help_lines(0) for m in re.finditer(r"`([^`]+)`", line)]
    examples = [e for e in examples if e not in ("hint", "hand", "help", "quit")]
    assert len(examples) >= 6
    for text in examples:
        action = session.parse(0, text)          # raises if the game cannot read it
        assert format_action(rules, action) in (text, text.replace(" ", "_"))
        if action.verb == "play":
            program = rules.on_play[action.card]
            asks_color = program is not None and program.asks_color
            asks_target = program is not None and program.asks_target
            assert (action.color is not None) == asks_color, text
            assert (action.target is not None) == asks_target, text
        if action.verb in rules.card_verbs():
            assert action.card is not None, text
