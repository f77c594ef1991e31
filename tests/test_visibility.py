"""Hidden information stays hidden: no seat's view or events hold what that seat may not see.

Over whole games of every bundled ruleset, at every turn, each seat's view is compared with the
view of a game in which every card the seat cannot see was dealt again (`Game.determinize`): the
two must be equal, so the view depends only on what the seat sees. And every card list an event
carries is private to the seats allowed to see it.
"""
from __future__ import annotations

import random

import pytest

from unodsl.compile.decisions import Action, Refused
from unodsl.compile.loader import bundled_names, load
from unodsl.engine import Game
from unodsl.engine.bots import BOTS
from unodsl.engine.views import VIEW_KEYS

RULESETS = [name for name, kind, _ in bundled_names() if kind == "ruleset"]
MAX_ACTIONS = 4000


def _play(rules, players: int, seed: int, on_turn):
    """Two rounds with basic bots (acting out of turn too), calling on_turn(game) at each turn."""
    game = Game(rules, players, seed=seed)
    rng = random.Random(seed)
    bots = [BOTS["basic"](rng) for _ in range(players)]
    for _ in range(MAX_ACTIONS):
        d = game.decision
        if game.game_over or d is None or (d.kind == "deal" and game.round >= 2):
            break
        if d.kind == "deal":
            game.apply(Action(None, "deal"))
            continue
        if d.kind == "turn":
            on_turn(game)
        game.apply(bots[d.seat].choose(game, game.legal_actions()) if d.seat is not None
                   else game.legal_actions()[0])
        for s in game.out_of_turn_order([s for s in range(players) if bots[s].out_of_turn(game, s)], rng):
            act = bots[s].out_of_turn(game, s)
            if act is not None:
                try:
                    game.apply(act)
                except Refused:
                    pass
    return game


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_view_is_the_same_whatever_the_cards_it_cannot_see(ruleset):
    rules = load(ruleset)
    players = max(rules.players[0], min(4, rules.players[1]))
    rng = random.Random(7)
    changed = [0]

    def check(game):
        for seat in range(game.n):
            view = game.view(seat)
            assert set(view) == set(VIEW_KEYS)
            assert view["hand"] == [rules.code(c) for c in game.hands[seat]]
            copy = game.determinize(seat, rng)
            assert copy.view(seat) == view, f"{ruleset}: the view of p{seat + 1} shows cards it cannot see"
            changed[0] += any(a != b for s, (a, b) in enumerate(zip(game.hands, copy.hands)) if s != seat)
    _play(rules, players, 11, check)
    assert changed[0], "the hidden cards were never dealt differently: the comparison proved nothing"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_events_show_cards_only_to_the_seats_that_see_them(ruleset):
    rules = load(ruleset)
    players = max(rules.players[0], min(4, rules.players[1]))
    game = _play(rules, players, 5, lambda g: None)
    for i, event in enumerate(game.events):
        assert not isinstance(event.get("cards"), list), f"event {event['e']} shows its cards to everyone"
        private = event.get("private", {})
        for seat in range(players):
            seen = game.events_for(seat, i)[0]
            assert set(seen) == (set(event) - {"private"}) | set(private.get(seat, {}))
        watcher = game.events_for(None, i)[0]
        assert "private" not in watcher and not set(watcher) & {k for p in private.values() for k in p}


def test_determinize_keeps_the_other_faces_and_the_seats_own_cards():
    rules = load("flip")
    game = Game(rules, 4, seed=3)
    while game.decision.kind != "turn":
        game.apply(game.legal_actions()[0])
    view = game.view(0)
    assert view["other_faces"] and set(view["other_faces"]) == {"p2", "p3", "p4"}
    for seed in range(5):
        copy = game.determinize(0, random.Random(seed))
        assert copy.hands[0] == game.hands[0]
        other = rules.cards.other
        for s in range(1, 4):
            assert sorted(rules.code(other[c]) for c in copy.hands[s]) == sorted(rules.code(other[c]) for c in game.hands[s])


def test_determinize_is_only_for_a_turn():
    rules = load("classic")
    from unodsl.engine import Position
    code = rules.codes
    game = Game(rules, 2, position=Position(hands=[[code["B1"]], [code["Y1"]]], discard=[code["R9"]],
                                            stock=[code["R2"]]))
    game.apply(Action(0, "draw"))
    assert game.decision.kind == "drawn"
    with pytest.raises(ValueError):
        game.determinize(0, random.Random(1))


def test_a_hand_played_face_up_is_seen_until_the_round_ends():
    text = '''
ruleset open "Open" extends classic {
  on play skip "The player's hand is shown to everyone until the round ends." {
    skip next
    reveal player to others until the round ends
  }
}
'''
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "open.uno"
        path.write_text(text)
        rules = load(str(path))
    from unodsl.engine import Position
    code = rules.codes
    game = Game(rules, 3, position=Position(hands=[[code["RS"], code["R5"], code["B2"]], [code["Y1"]], [code["G1"]]],
                                            discard=[code["R9"]], stock=[code["B7"], code["B8"]]))
    game.apply(Action(0, "play", code["RS"]))
    assert game.view(1)["revealed"] == {"p1": ["R5", "B2"]}
    assert game.view(0)["revealed"] == {}
    game.apply(Action(2, "draw"))
    assert game.view(2)["revealed"] == {"p1": ["R5", "B2"]}
    game.apply(Action(0, "play", code["R5"]))
    assert game.view(1)["revealed"] == {"p1": ["B2"]}, "an open hand is seen as it changes"
