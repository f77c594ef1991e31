"""The engine's public API: decisions, legal actions, refusals that change nothing, views."""
from __future__ import annotations

import random

import pytest

from unodsl import Action, Game, Refused, load
from unodsl.engine import Position
from unodsl.engine.actions import parse_action
from unodsl.front.scenarios import snapshot


@pytest.fixture(scope="module")
def rules():
    return load("classic")


def codes(rules, *cs):
    return [rules.codes[c] for c in cs]


def test_every_legal_action_is_accepted(rules):
    for seed in range(20):
        game = Game(rules, 3, seed=seed)
        rng = random.Random(seed)
        for _ in range(300):
            if game.round_over:
                break
            actions = game.legal_actions()
            assert actions, game.decision
            before = snapshot(game)
            for a in actions:          # every listed action passes the rules' own checks
                assert a.seat == game.decision.seat
                game._validate(game.decision, a)
            assert snapshot(game) == before
            game.apply(rng.choice(actions))


def test_refused_actions_leave_the_state_unchanged(rules):
    game = Game(rules, 4, seed=3)
    seat = game.decision.seat
    other = (seat + 1) % 4
    before = snapshot(game)
    not_held = next(c for c in range(rules.size) if c not in game.hands[seat])
    tries = [Action(other, "draw"), Action(seat, "keep"), Action(seat, "play", not_held),
             Action(seat, "catch", target=other), Action(seat, "uno"), Action(seat, "challenge")]
    for a in tries:
        with pytest.raises(Refused):
            game.apply(a)
        assert snapshot(game) == before


def test_wild_needs_a_color_and_numbers_take_none(rules):
    hands = [codes(rules, "W", "R5", "G1"), codes(rules, "B2")]
    game = Game(rules, 2, position=Position(hands=hands, discard=codes(rules, "R1")))
    with pytest.raises(Refused, match="needs a color"):
        game.apply(parse_action(rules, 0, "play W", 2))
    with pytest.raises(Refused, match="takes no color"):
        game.apply(parse_action(rules, 0, "play R5 blue", 2))
    game.apply(parse_action(rules, 0, "play W blue", 2))
    assert game.color == "blue"


def test_view_hides_other_hands_and_shows_revealed_ones(rules):
    hands = [codes(rules, "W+4", "R5", "G1"), codes(rules, "B2", "B3"), codes(rules, "Y2")]
    game = Game(rules, 3, position=Position(hands=hands, discard=codes(rules, "R1")))
    view = game.view(1)
    assert view["hand"] == ["B2", "B3"]
    assert view["hand_sizes"] == {"p1": 3, "p2": 2, "p3": 1}
    assert "R5" not in str(view["hand_sizes"])
    game.apply(parse_action(rules, 0, "play W+4 blue", 3))      # a bluff: p1 holds R5 on red
    assert game.view(1)["decision"]["options"] == ["challenge", "accept"]
    game.apply(parse_action(rules, 1, "challenge", 3))
    assert sorted(game.view(1)["revealed"]["p1"]) == ["G1", "R5"]
    assert game.view(2)["revealed"] == {}


def test_window_actions_are_offered_to_the_right_seats(rules):
    hands = [codes(rules, "R5", "G1"), codes(rules, "B2", "B3"), codes(rules, "Y2", "Y3")]
    game = Game(rules, 3, position=Position(hands=hands, discard=codes(rules, "R1"),
                                            stock=codes(rules, "G7", "G8", "G9")))
    game.apply(parse_action(rules, 0, "play R5", 3))
    assert [a.verb for a in game.window_actions(0)] == ["uno"]
    assert [(a.verb, a.target) for a in game.window_actions(2)] == [("catch", 0)]
    game.apply(parse_action(rules, 2, "catch p1", 3))
    assert sorted(rules.code(c) for c in game.hands[0]) == ["G1", "G7", "G8"]
    assert game.window_actions(1) == []
    with pytest.raises(Refused):
        game.apply(parse_action(rules, 1, "catch p1", 3))


def test_players_outside_the_range_are_refused(rules):
    with pytest.raises(ValueError, match="2 to 10"):
        Game(rules, 11)


def test_a_game_left_between_rounds_is_freed_at_once(rules):
    """Between rounds no generator holds the game, so dropping it frees it without the cycle
    collector: simulations that stop after a round do not pile up garbage."""
    import gc
    import weakref
    game = Game(rules, 2, seed=3, record=False)
    rng = random.Random(3)
    while not game.round_over:
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
    assert game.decision.kind == "deal"
    ref = weakref.ref(game)
    gc.disable()
    try:
        del game
        assert ref() is None
    finally:
        gc.enable()



@pytest.mark.parametrize("generated", [True, False])
def test_a_drawn_card_is_seen_by_its_drawer_only(rules, generated):
    """Events keep what only some seats may see apart: the drawer learns the card, nobody else."""
    position = Position(hands=[codes(rules, "R1", "R2"), codes(rules, "B1", "B2")], discard=codes(rules, "G5"),
                        stock=codes(rules, "Y7", "Y8"))
    game = Game(rules, 2, seed=1, position=position, generated=generated)
    game.apply(Action(0, "draw"))
    mine = [e for e in game.events_for(0) if e["e"] == "draw"]
    theirs = [e for e in game.events_for(1) if e["e"] == "draw"]
    watching = [e for e in game.events_for(None) if e["e"] == "draw"]
    assert mine == [{"e": "draw", "seat": 0, "count": 1, "cards": codes(rules, "Y7")}]
    assert theirs == watching == [{"e": "draw", "seat": 0, "count": 1}]
    assert game.events_for(1, start=len(game.events)) == []


def test_the_written_out_shuffle_shuffles_as_the_standard_library_does():
    """engine.views.shuffle (what a bot's sample of the game deals with) gives the same order and
    leaves the generator where random.Random.shuffle does, for every length; a generator of
    another kind shuffles itself."""
    from unodsl.engine.views import shuffle

    for seed in range(60):
        for size in (0, 1, 2, 3, 5, 31, 32, 33, 108, 300):
            theirs, ours = random.Random(seed), random.Random(seed)
            a, b = list(range(size)), list(range(size))
            theirs.shuffle(a)
            shuffle(ours, b)
            assert a == b and theirs.getstate() == ours.getstate()

    class Counting(random.Random):
        calls = 0

        def shuffle(self, x):
            Counting.calls += 1
            super().shuffle(x)
    cards = list(range(10))
    shuffle(Counting(1), cards)
    assert Counting.calls == 1 and sorted(cards) == list(range(10))
