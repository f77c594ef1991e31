"""The learning environments, for every bundled ruleset: PettingZoo's own api_test and
seed_test, OpenSpiel's random simulation test, Gymnasium's environment checker, and the proof
that an observation holds only what its seat may see. Episodes are one round, to keep CI short."""
from __future__ import annotations

import functools
import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from unodsl.compile.loader import bundled_names, load  # noqa: E402
from unodsl.engine.sample import can_fork, fork, sample_for  # noqa: E402
from unodsl.env import env, raw_env  # noqa: E402
from unodsl.env.gym_env import SingleSeatEnv  # noqa: E402
from unodsl.env.match import Match  # noqa: E402
from unodsl.env.spaces import Layout  # noqa: E402

RULESETS = [name for name, kind, _ in bundled_names() if kind == "ruleset"]


def _tables(name: str) -> list:
    """The usual table sizes of a ruleset: two players and four (what it allows of them)."""
    low, high = load(name).players
    return [n for n in (2, 4) if low <= n <= high]


CASES = [(name, n) for name in RULESETS for n in _tables(name)]
STEPS = 400        # the visibility test's episodes are cut short after this many actions


@pytest.mark.parametrize("name,players", CASES)
def test_pettingzoo_api(name, players):
    api_test(env(rules=name, players=players, episode="round"), num_cycles=300)


@pytest.mark.parametrize("name,players", CASES)
def test_pettingzoo_seed(name, players):
    seed_test(functools.partial(env, rules=name, players=players, episode="round"), num_cycles=300)


def test_whole_games_and_modules():
    """A whole game to the rules' end, with modules and options, pays +1 to the winners and
    sums to zero."""
    e = raw_env(rules="classic", players=3, with_=["seven-o"], options={"target": 60}, episode="game")
    e.reset(seed=4)
    rng = random.Random(4)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
    pay = e.match.payoffs()
    assert e.match.game.game_over and max(pay) == 1.0 and abs(sum(pay)) < 1e-9


def test_out_of_turn_seats_are_selected():
    """While a window is open, the seats that may act in it become the selected agent: the
    player who has just played first (so it may say UNO), then the others, who may catch it."""
    m = Match(load("classic"), 3, seed=1, episode="round")
    rng = random.Random(2)
    seen = set()
    while not m.done and len(seen) < 2:
        if m.window:
            seen.add(m.game.decision.seat == m.agent)
            names = {m.layout.describe(i) for i in m.legal()}
            assert "wait" in names
        legal = m.legal()
        waits = [i for i in legal if i == m.layout.wait]
        m.step(waits[0] if waits and rng.random() < 0.5 else legal[rng.randrange(len(legal))])
    assert seen, "no window opened in a whole round"


def test_spaces_come_from_the_rules():
    """The action space is the ruleset's own: renaming nothing, a variant with other cards and
    windows has other actions; players are named by place, the same for every seat."""
    classic, killer = Layout(load("classic"), 4), Layout(load("killer"), 4)
    assert len(classic.keys) != len(killer.keys)
    assert any(k[0] == "window" and k[1] == "jump" for k in killer.keys)
    assert not any(k[0] == "window" and k[1] == "jump" for k in classic.keys)
    r = load("classic")
    plays = [k for k in classic.keys if k[0] == "play"]
    assert len(plays) == sum(len(r.colors) if p is not None and p.asks_color else 1 for p in r.on_play)


@pytest.mark.parametrize("name", RULESETS)
def test_an_observation_holds_only_what_its_seat_may_see(name):
    """Dealing every card a seat cannot see anew (the other hands and the stock, each hand
    keeping its size) changes neither its observation nor its action mask."""
    players = _tables(name)[-1]
    checked = 0
    for seed in range(3):
        m = Match(load(name), players, seed=seed, episode="round", max_steps=STEPS)
        rng = random.Random(seed)
        while not m.done:
            if can_fork(m.game) and rng.random() < 0.3:
                for seat in range(players):
                    other = sample_for(m.game, seat, random.Random(rng.random()))
                    assert other.hands[seat] == m.game.hands[seat]
                    kind = m.kind() if seat == m.agent else None
                    np.testing.assert_array_equal(m.layout.encode(other, seat, kind), m.observe(seat))
                    checked += 1
            legal = m.legal()
            m.step(legal[rng.randrange(len(legal))])
    assert checked > 20


def _swapped(game, seat: int, card_slot: int, look) -> tuple:
    """Forks of `game` in which one card of `seat`'s hand changes places with a card of the
    stock (not its top): one whose other face looks the same (`look`), one whose does not."""
    card = game.hands[seat][card_slot]
    forks = []
    for alike in (True, False):
        for j, other in enumerate(game.stock[:-1]):
            if (look(other) == look(card)) == alike and game.rules.same_face[other] != game.rules.same_face[card]:
                clone = fork(game, random.Random(0))
                clone.hands[seat][card_slot], clone.stock[j] = clone.stock[j], clone.hands[seat][card_slot]
                forks.append(clone)
                break
        else:
            forks.append(None)
    return tuple(forks)


def test_an_observation_shows_the_other_faces_the_rules_show():
    """In flip every seat sees the faces not in play of the others' cards. Swapping a card of
    another hand with a hidden one whose other face looks the same changes no observation (only
    the face no one else sees changed); swapping it with one whose other face differs changes
    what that seat sees. The observation counts the faces seen, from the ruleset's faces."""
    rules = load("flip")
    r = rules
    look = lambda card: r.same_face[r.cards.other[card]]      # noqa: E731
    checked = 0
    for seed in range(4):
        m = Match(rules, 3, seed=seed, episode="round", max_steps=STEPS)
        rng = random.Random(seed)
        while not m.done and checked < 40:
            if can_fork(m.game) and len(m.game.stock) > 1 and rng.random() < 0.3:
                g, layout = m.game, m.layout
                at, R = layout.offsets["other_faces"], r.size
                for seat in range(3):
                    other = (seat + 1) % 3
                    obs = m.observe(seat)
                    assert ((obs >= layout.low) & (obs <= layout.high)).all()
                    block = obs[at:at + R]                       # place 1: the next seat
                    want = np.bincount([look(c) for c in g.hands[other]], minlength=R)
                    np.testing.assert_array_equal(block, want)
                    alike, unlike = _swapped(g, other, rng.randrange(len(g.hands[other])), look)
                    kind = m.kind() if seat == m.agent else None
                    if alike is not None:
                        np.testing.assert_array_equal(layout.encode(alike, seat, kind), m.observe(seat))
                        # the seat that holds the card sees its face in play change
                        assert not np.array_equal(layout.encode(alike, other, None), layout.encode(g, other, None))
                    if unlike is not None:
                        assert not np.array_equal(layout.encode(unlike, seat, kind), m.observe(seat))
                    checked += (alike is not None) + (unlike is not None)
            legal = m.legal()
            m.step(legal[rng.randrange(len(legal))])
    assert checked >= 40


def test_the_visibility_check_catches_a_peek():
    """The check above would catch an encoder that read another seat's hand: what it would
    read differs between the game and the samples."""
    m = Match(load("classic"), 2, seed=0, episode="round")

    def peek(game, seat):
        return sorted(game.hands[1 - seat])
    assert any(peek(sample_for(m.game, 0, random.Random(i)), 0) != peek(m.game, 0) for i in range(5))


@pytest.mark.parametrize("name", RULESETS)
def test_openspiel_random_simulation(name):
    pyspiel = pytest.importorskip("pyspiel")
    import unodsl.env.openspiel_game  # noqa: F401  (registers python_unodsl)
    game = pyspiel.load_game("python_unodsl", {"rules": name, "players": _tables(name)[0], "max_steps": 300})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_openspiel_parameters():
    pyspiel = pytest.importorskip("pyspiel")
    import unodsl.env.openspiel_game  # noqa: F401
    game = pyspiel.load_game("python_unodsl", {"rules": "killer", "players": 4})
    assert game.num_players() == 4 and game.num_distinct_actions() == Layout(load("killer"), 4).size
    game = pyspiel.load_game("python_unodsl", {"rules": "classic", "players": 3, "with": "seven-o",
                                               "options": "uno_penalty=4"})
    state = game.new_initial_state()
    assert state.is_chance_node()
    with pytest.raises(Exception):
        pyspiel.load_game("python_unodsl", {"rules": "classic", "players": 11})


def test_gymnasium_single_seat():
    from gymnasium.utils.env_checker import check_env
    e = SingleSeatEnv(rules="classic", players=3, seat=1, opponents="basic", episode="round")
    check_env(e, skip_render_check=True)
    obs, _ = e.reset(seed=3)
    rng = random.Random(3)
    done, reward = False, 0.0
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, term, trunc, _ = e.step(int(legal[rng.randrange(len(legal))]))
        done = term or trunc
    assert reward in (1.0, -0.5, 0.0)
    obs, _ = e.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, term, trunc, info = e.step(illegal)
    assert (reward, term, trunc, info) == (-1.0, True, False, {"illegal": True})
    with pytest.raises(RuntimeError):
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError):
        raw_env(rules="classic", players=1)
    with pytest.raises(ValueError):
        Match(load("classic"), 2, seed=0, episode="forever")
    with pytest.raises(ValueError):
        SingleSeatEnv(rules="classic", players=2, seat=5)
    m = Match(load("classic"), 2, seed=0, episode="round")
    illegal = next(i for i in range(m.layout.size) if i not in m.actions)
    with pytest.raises(ValueError):
        m.step(illegal)
