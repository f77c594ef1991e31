"""Engine invariants over many random games of every bundled ruleset.

Cards are conserved after every action, every game ends, and the same seed gives the same game,
byte for byte in its event log. Seeds and player counts are drawn by hypothesis.
"""
from __future__ import annotations

import io
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unodsl.compile.decisions import Action, Refused
from unodsl.compile.loader import bundled_names, load
from unodsl.engine import Game, eventlog
from unodsl.engine.bots import BOTS
from unodsl.sim.simulate import play_game

RULESETS = [name for name, kind, _ in bundled_names() if kind == "ruleset"]
MODULES = [name for name, kind, _ in bundled_names() if kind == "module"]
MAX_ACTIONS = 200_000


def _cards(game: Game) -> Counter:
    """Every card on the table, whichever of its faces is in play."""
    held = [c for h in game.hands for c in h] + game.stock + game.discard
    return Counter(map(game.rules.physical, held))


def _play_checked(rules, players: int, seed: int, bot: str) -> Game:
    """A whole game with bots, checking conservation after every single action."""
    game = Game(rules, players, seed=seed)
    deck = Counter(map(rules.physical, rules.deck))
    rng = random.Random(seed)
    bots = [BOTS[bot](rng) for _ in range(players)]
    assert _cards(game) == deck
    for _ in range(MAX_ACTIONS):
        d = game.decision
        if game.game_over or d is None:
            break
        action = Action(None, "deal") if d.kind == "deal" else bots[d.seat].choose(game, game.legal_actions())
        game.apply(action)
        assert _cards(game) == deck, f"cards not conserved after {action}"
        for s in range(players):
            extra = bots[s].out_of_turn(game, s)
            if extra is not None:
                try:
                    game.apply(extra)
                except Refused:
                    pass
                assert _cards(game) == deck
    return game


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 10), seed=st.integers(0, 2**32), bot=st.sampled_from(["random", "basic"]))
def test_every_game_ends_and_conserves_cards(ruleset, players, seed, bot):
    rules = load(ruleset)
    players = max(rules.players[0], min(players, rules.players[1]))
    game = _play_checked(rules, players, seed, bot)
    assert game.game_over, "the game did not end"
    assert game.game_winners, "a finished game names its winners"
    assert all(0 <= s < players for s in game.game_winners)


@pytest.mark.parametrize("module", MODULES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 10), seed=st.integers(0, 2**32), bot=st.sampled_from(["random", "basic"]))
def test_every_module_game_ends_and_conserves_cards(module, players, seed, bot):
    rules = load("classic", [module])
    game = _play_checked(rules, players, seed, bot)
    assert game.game_over and game.game_winners


@pytest.mark.parametrize("rules_name", RULESETS + [f"classic+{m}" for m in MODULES])
def test_games_rarely_end_in_stalemate(rules_name):
    """A stalemate is the declared end of a round nobody can finish; with sensible bots it is rare.
    (A round the rules' own `blocked when` ends, as Hoyle's Crazy Eights blocks, is the game's
    rule, not a stalemate.)"""
    name, *mods = rules_name.split("+")
    rules = load(name, mods)
    players = max(rules.players[0], min(4, rules.players[1]))
    games = [play_game(rules, players, seed, "basic", record=False) for seed in range(12)]
    stalemated = sum(bool(g.stalemate) and not g.stats.get("blocked") for g in games)
    assert stalemated <= 1


@pytest.mark.parametrize("players", range(2, 11))
def test_classic_ends_for_every_player_count(players):
    rules = load("classic")
    for seed in range(3):
        game = _play_checked(rules, players, seed * 7919 + players, "basic")
        assert game.game_over
        assert max(game.scores) >= rules.option("target")


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=8, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_same_seed_same_event_log(ruleset, players, seed):
    rules = load(ruleset)
    players = max(rules.players[0], min(players, rules.players[1]))
    logs = []
    for _ in range(2):
        buf = io.StringIO()
        eventlog.write(buf, ruleset, [], {}, play_game(rules, players, seed, "basic"))
        logs.append(buf.getvalue())
    assert logs[0] == logs[1]


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 8), seed=st.integers(0, 2**32))
def test_event_log_replays_to_the_same_state(players, seed):
    rules = load("classic")
    game = play_game(rules, players, seed, "basic")
    buf = io.StringIO()
    eventlog.write(buf, "classic", [], {}, game)
    replayed = eventlog.replay(buf.getvalue().splitlines())
    assert eventlog.digest(replayed) == eventlog.digest(game)
    assert replayed.log == game.log


def test_different_seeds_give_different_games():
    rules = load("classic")
    digests = {eventlog.digest(play_game(rules, 4, seed, "basic")) for seed in range(5)}
    assert len(digests) == 5


@pytest.mark.parametrize("ruleset", RULESETS)
def test_deals_are_shuffled(ruleset):
    """Different seeds deal different hands, and a dealt hand is not a run of the deck's order."""
    rules = load(ruleset)
    first_hands = {tuple(sorted(Game(rules, 4, seed=seed).hands[0])) for seed in range(20)}
    assert len(first_hands) >= 19
    ordered = sorted(rules.deck)
    for seed in range(5):
        hand = Game(rules, 4, seed=seed).hands[1]
        assert hand != ordered[-len(hand):] and hand != ordered[:len(hand)]


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32), turns=st.integers(0, 30))
def test_a_sampled_copy_played_out_in_one_call_conserves_cards_and_ends_its_round(ruleset, players, seed, turns):
    """What the search bot thinks with: a seat's sample of the game (its unseen cards dealt anew)
    holds the same cards, and Game.play_round_out plays it to the round's end, conserving them,
    with random players or basic ones picking their plays inside the loop."""
    from unodsl.engine.bots import BasicBot, RandomBot
    from unodsl.engine.sample import can_fork, sample_for
    rules = load(ruleset)
    if rules.runs is not None:
        pytest.skip("a ruleset with runs is played out through its legal actions")
    low, high = rules.players
    players = min(max(players, low), high)
    game = Game(rules, players, seed=seed, record=False)
    deck = Counter(map(rules.physical, rules.deck))
    rng = random.Random(seed)
    for _ in range(turns):
        d = game.decision
        if d is None or d.kind == "deal" or game.round_over:
            break
        game.apply_trusted(RandomBot(rng).choose(game, game.legal_actions()))
    d = game.decision
    if d is None or d.kind != "turn" or not can_fork(game):
        return
    copy = sample_for(game, d.seat, random.Random(seed + 1))
    assert _cards(copy) == deck and [len(h) for h in copy.hands] == [len(h) for h in game.hands]
    assert sorted(copy.hands[d.seat]) == sorted(game.hands[d.seat])
    copy.play_round_out(RandomBot(random.Random(seed + 2)))
    assert copy.round_over and _cards(copy) == deck
    # the search bot's own worlds: inferred from the draws, played out by basic players picking
    believed = sample_for(game, d.seat, random.Random(seed + 3), infer=True)
    assert _cards(believed) == deck and [len(h) for h in believed.hands] == [len(h) for h in game.hands]
    believed.play_round_out(BasicBot(random.Random(seed + 4)))
    assert believed.round_over and _cards(believed) == deck
    assert game.decision is d and _cards(game) == deck          # the original is untouched


@pytest.mark.parametrize("rules_name", RULESETS + [f"classic+{m}" for m in MODULES])
def test_the_seats_asked_out_of_turn_are_those_that_may_act(rules_name):
    """The simulator asks only `Game.acting_seats()` whether they act out of turn: after every
    move of random games, they are exactly the seats whose `window_actions` is not empty."""
    name, *modules = rules_name.split("+")
    rules = load(name, modules)
    if not rules.windows:
        pytest.skip("no out-of-turn windows")
    players = min(max(4, rules.players[0]), rules.players[1])
    rng = random.Random(7)
    players_ = BOTS["random"](rng)           # plays without a call, so that windows stay open
    bots = [BOTS["basic"](rng) for _ in range(players)]
    checked = 0
    for seed in range(10):
        if checked >= 40:
            break
        game = Game(rules, players, seed=seed, record=False)
        for _ in range(300):
            d = game.decision
            if game.game_over or d is None:
                break
            action = Action(None, "deal") if d.kind == "deal" else players_.choose(game, game.legal_actions())
            game.apply(action)
            assert game.acting_seats() == [s for s in range(players) if game.window_actions(s)]
            checked += bool(game.windows)
            for s in game.acting_seats():
                extra = bots[s].out_of_turn(game, s)
                if extra is not None:
                    try:
                        game.apply(extra)
                    except Refused:
                        pass
                    assert game.acting_seats() == [s for s in range(players) if game.window_actions(s)]
    assert checked, "no window was ever open"
