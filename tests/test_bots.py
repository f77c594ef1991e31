"""Bots: they see only what their seat may see, `basic` reasons from the rules it is given (so
renaming a ruleset's words changes none of its choices), and other bots plug in by import path
or entry point. Strength is measured in bench/, not here."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from unodsl.compile.decisions import Action, Refused
from unodsl.compile.loader import bundled_names, load
from unodsl.engine import Game
from unodsl.engine import bots as bots_module
from unodsl.engine.bots import BasicBot, BotError, RandomBot, bot_names, check_bot, make_bot
from unodsl.engine.sample import can_fork, fork, sample_for
from unodsl.engine.search import SearchBot
from unodsl.sim.simulate import play_game

ROOT = Path(__file__).resolve().parent.parent
RULESETS = [name for name, kind, _ in bundled_names() if kind == "ruleset"]


def _same(rng: random.Random) -> random.Random:
    copy = random.Random()
    copy.setstate(rng.getstate())
    return copy


class PeekingBot(BasicBot):
    """Plays the card the next player holds most of: it reads a hand it may not see."""

    def choose(self, game, actions):
        nxt = game.next_seat(game.decision.seat)
        plays = [a for a in actions if a.verb == "play"]
        if not plays:
            return actions[0]
        held = game.hands[nxt]
        return max(plays, key=lambda a: (held.count(a.card), -plays.index(a)))


def _blind(make, name: str, players: int, seeds=range(2), limit: int = 120) -> int:
    """Count the decisions at which the bot chose differently on a sample of the game (every
    card its seat cannot see dealt anew) than on the game itself, given the same random state."""
    rules = load(name)
    differences = 0
    for seed in seeds:
        game = Game(rules, players, seed=seed, record=False)
        rng = random.Random(seed)
        steps = 0
        while not game.game_over and game.round < 2 and steps < limit:
            steps += 1
            d = game.decision
            if d.kind == "deal":
                game.apply(Action(None, "deal"))
                continue
            actions = game.legal_actions()
            if can_fork(game) and d.seat is not None:
                state = rng.getstate()
                real = make(_same(rng)).choose(game, actions)
                sample = sample_for(game, d.seat, random.Random(steps))
                seen = make(_same(rng)).choose(sample, sample.legal_actions())
                differences += real != seen
                rng.setstate(state)
            game.apply_trusted(RandomBot(rng).choose(game, actions))
    return differences


@pytest.mark.parametrize("name", RULESETS)
def test_bots_see_only_their_seat(name):
    players = 4 if load(name).players[1] >= 4 else 2
    assert _blind(RandomBot, name, players) == 0
    assert _blind(BasicBot, name, players) == 0
    assert _blind(lambda rng: SearchBot(rng, iterations=6, endgame=99), name, players, seeds=range(1), limit=40) == 0


def test_the_check_catches_a_bot_that_peeks():
    assert _blind(PeekingBot, "classic", 2) > 0


def test_a_sample_hides_only_what_the_seat_cannot_see():
    game = Game(load("classic"), 4, seed=3, record=False)
    sample = sample_for(game, 1, random.Random(0))
    assert sample.hands[1] == game.hands[1]
    assert [len(h) for h in sample.hands] == [len(h) for h in game.hands]
    assert sample.discard == game.discard and sample.color == game.color
    assert sorted(c for s in (0, 2, 3) for c in sample.hands[s]) + sorted(sample.stock) != []
    assert sorted(sum((sample.hands[s] for s in (0, 2, 3)), sample.stock)) == \
        sorted(sum((game.hands[s] for s in (0, 2, 3)), game.stock))


def test_a_fork_plays_on_as_the_game_would_and_leaves_it_alone():
    rules = load("killer")
    game = Game(rules, 4, seed=5, record=False)
    before = [list(h) for h in game.hands]
    copy = fork(game, _same(game.rng))
    chooser_a, chooser_b = random.Random(1), random.Random(1)
    for _ in range(60):
        if copy.game_over:
            break
        acts = copy.legal_actions()
        copy.apply_trusted(acts[int(chooser_a.random() * len(acts))])
    assert game.hands == before
    for _ in range(60):
        if game.game_over:
            break
        acts = game.legal_actions()
        game.apply_trusted(acts[int(chooser_b.random() * len(acts))])
    assert game.hands == copy.hands and game.discard == copy.discard and game.scores == copy.scores
    with pytest.raises(ValueError):
        while game.decision.kind in ("turn", "deal"):
            game.apply_trusted(game.legal_actions()[-1])
        fork(game, random.Random(0))


def _to_a_drawing_turn(game: Game, rng: random.Random):
    """Play `game` on (a card whenever one may be played) until some seat, holding nothing it may
    play, draws at its turn and the round goes on: (that seat, the top card and color it drew on,
    the cards it held)."""
    while True:
        d = game.decision
        assert d is not None and d.kind != "deal", "no drawing turn in this round"
        actions = game.legal_actions()
        plays = [a for a in actions if a.verb == "play"]
        if d.kind == "turn" and not plays:
            seen = (d.seat, game.discard[-1], game.color, len(game.hands[d.seat]))
            game.apply_trusted(next(a for a in actions if a.verb == "draw"))
            if game.decision is not None and game.decision.kind == "turn" and game.decision.seat != d.seat:
                return seen
            continue
        game.apply_trusted(plays[0] if plays else actions[int(rng.random() * len(actions))])


def test_a_drawing_turn_shows_what_the_seat_could_not_play_until_it_plays():
    rules = load("classic")
    game = Game(rules, 2, seed=11, record=False)
    drew, top, color, held = _to_a_drawing_turn(game, random.Random(2))
    assert game.drew_on[drew] == (top, color, (), held)
    assert game.playable_kinds(*game.drew_on[drew][:3]) == rules.playable_set(top, color)
    assert game.drew_on[1 - drew] is None
    for _ in range(200):                  # on until that seat plays at its turn
        d = game.decision
        plays = [a for a in game.legal_actions() if a.verb == "play"]
        if d.kind == "turn" and d.seat == drew and plays:
            game.apply_trusted(plays[0])
            assert game.drew_on[drew] is None
            return
        game.apply_trusted(plays[0] if plays else game.legal_actions()[0])
    pytest.fail("the seat never played again")


def test_samples_that_infer_from_draws_give_a_seat_that_drew_nothing_it_could_have_played():
    rules = load("classic")
    game = Game(rules, 2, seed=11, record=False)
    drew = _to_a_drawing_turn(game, random.Random(2))[0]
    *seen, held = game.drew_on[drew]
    kinds = game.playable_kinds(*seen)
    me = 1 - drew
    since = len(game.hands[drew]) - held          # cards drawn since: anything
    plain = [sum(c in kinds for c in sample_for(game, me, random.Random(i)).hands[drew]) for i in range(200)]
    inferred = [sample_for(game, me, random.Random(i), infer=True) for i in range(200)]
    assert all(sum(c in kinds for c in s.hands[drew]) <= since for s in inferred)
    assert max(plain) > since                      # without the inference they would hold some
    for s in inferred:                              # the same cards, hand sizes and view
        assert s.hands[me] == game.hands[me] and [len(h) for h in s.hands] == [len(h) for h in game.hands]
        assert sorted(s.hands[drew] + s.stock) == sorted(game.hands[drew] + game.stock)


@pytest.mark.parametrize("name", RULESETS)
def test_basics_pick_inside_the_loop_is_its_choice(name):
    """`pick` (the turn's play as the generated loop asks for it, Game.play_round_out) weighs
    the plays as `choose` does: the same play, every time."""
    rules = load(name)
    if rules.runs is not None:
        pytest.skip("a ruleset with runs is played out through its legal actions")
    players = 3 if rules.players[0] <= 3 <= rules.players[1] else rules.players[0]
    compared = 0
    for seed in range(3):
        game = Game(rules, players, seed=seed, record=False)
        rng = random.Random(seed)
        for _ in range(150):
            d = game.decision
            if d is None or d.kind == "deal":
                break
            actions = game.legal_actions()
            if d.kind == "turn" and any(a.verb == "play" for a in actions):
                chosen = BasicBot(random.Random(1)).choose(game, actions)
                picked = BasicBot(random.Random(1)).pick(game, d.seat, game.playable(d.seat))
                assert picked == (chosen.card, chosen.color, chosen.target)
                compared += 1
            game.apply_trusted(RandomBot(rng).choose(game, actions))
    assert compared > 20

# -- basic reasons from the rules ------------------------------------------------------------

RENAMES = [
    ('ruleset classic "Classic UNO"', 'ruleset renamed "Renamed"'),
    ("wild_draw_four", "mega"), ("draw_two", "plus_two"),
    ('card number 0..9 "Number"', 'card pip 0..9 "Pip"'), ("card.kind == number", "card.kind == pip"),
    ("1 number 0, 2 number 1..9, 2 skip, 2 reverse", "1 pip 0, 2 pip 1..9, 2 hop, 2 flip"),
    ('card skip "Skip"', 'card hop "Hop"'), ("on play skip", "on play hop"),
    ('card reverse "Reverse"', 'card flip "Flip"'), ("on play reverse", "on play flip"),
    ("starter reverse", "starter flip"),
    ('card wild "Wild"', 'card joker "Joker"'), ("4 wild,", "4 joker,"), ("on play wild ", "on play joker "),
    ("starter wild ", "starter joker "), ("tags wild", "tags free"), ("card is wild", "card is free"),
    ('"{color}S"', '"{color}H"'), ('"{color}R"', '"{color}F"'), ('"{color}+2"', '"{color}P"'),
    ('code "W+4"', 'code "XX"'), ('code "W"', 'code "X"'),
    ('red R "Red", yellow Y "Yellow", green G "Green", blue B "Blue"',
     'rouge Q "Rouge", jaune J "Jaune", vert V "Vert", bleu K "Bleu"'),
    ("uno_penalty", "shout_fine"), ("force_play_drawn", "must_play"), ("two_player_rules", "duel_rules"),
    ('challenge "Say it', 'doubt "Say it'), ('accept "Draw four', 'take "Draw four'),
    ('window uno "Saying UNO"', 'window shout "Shouting"'), ("player may uno", "player may shout"),
    ("others may catch", "others may nab"),
]
VERBS = {"doubt": "challenge", "take": "accept", "shout": "uno", "nab": "catch"}


def _renamed(tmp_path) -> Path:
    text = (ROOT / "rulesets" / "classic.uno").read_text(encoding="utf-8")
    for old, new in RENAMES:
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / "renamed.uno"
    path.write_text(text, encoding="utf-8")
    return path


def _same_choice(a: Action, b: Action, colors_a, colors_b) -> bool:
    color = None if b.color is None else colors_a[colors_b.index(b.color)]
    answer = b.answer if b.answer not in colors_b else colors_a[colors_b.index(b.answer)]
    call = None if b.call is None else VERBS.get(b.call, b.call)
    return (a.seat, a.verb, a.card, a.color, a.target, a.answer, a.call) == \
        (b.seat, VERBS.get(b.verb, b.verb), b.card, color, b.target, answer, call)


@pytest.mark.parametrize("players", [2, 4])
def test_renaming_a_rulesets_words_changes_none_of_basics_choices(tmp_path, players):
    rules_a, rules_b = load("classic"), load(str(_renamed(tmp_path)))
    assert rules_b.colors != rules_a.colors and rules_b.code(0) != rules_a.code(0)
    for seed in range(3):
        a, b = Game(rules_a, players, seed=seed, record=False), Game(rules_b, players, seed=seed, record=False)
        bots_a = [BasicBot(random.Random(seed * 10 + s)) for s in range(players)]
        bots_b = [BasicBot(random.Random(seed * 10 + s)) for s in range(players)]
        choices = 0
        while not a.game_over and a.round <= 2:
            d = a.decision
            if d.kind == "deal":
                a.apply(Action(None, "deal"))
                b.apply(Action(None, "deal"))
                continue
            x = bots_a[d.seat].choose(a, a.legal_actions())
            y = bots_b[d.seat].choose(b, b.legal_actions())
            assert _same_choice(x, y, rules_a.colors, rules_b.colors), (seed, a.turns, x, y)
            choices += 1
            a.apply(x)
            b.apply(y)
            for s in range(players):
                x, y = bots_a[s].out_of_turn(a, s), bots_b[s].out_of_turn(b, s)
                assert (x is None) == (y is None) and (x is None or _same_choice(x, y, rules_a.colors, rules_b.colors))
                if x is not None:
                    for game, act in ((a, x), (b, y)):
                        try:
                            game.apply(act)
                        except Refused:
                            pass
            assert a.hands == b.hands
        assert choices > 50


SUITED_EIGHTS = """
ruleset suited_eights "Suited eights" extends classic {
  about "Eights keep their color but may be played on anything."
  match card.kind == number and card.rank == 8 "an eight, at any time"
}
"""


def _basic_turns(rules, seeds, rounds: int, spread: int):
    """(game, decision, its legal actions, basic's choice) at every decision of games of basic
    players, 4 of them, seat s of seed k driven by the generator seed k * spread + s, up to
    `rounds` rounds; the caller looks, then the choice is applied."""
    for seed in seeds:
        game = Game(rules, 4, seed=seed, record=False)
        bots = [BasicBot(random.Random(seed * spread + s)) for s in range(4)]
        while not game.game_over and game.round <= rounds:
            d = game.decision
            if d.kind == "deal":
                game.apply(Action(None, "deal"))
                continue
            actions = game.legal_actions()
            action = bots[d.seat].choose(game, actions)
            yield game, d, actions, action
            game.apply(action)


def test_basic_keeps_the_cards_that_fit_anything_whatever_their_color(tmp_path):
    """Eights that are colored yet fit anything are kept for later like wilds: basic seldom
    plays one while it holds another card it could play (UNO's habit, "keep the colorless
    cards", shed them first)."""
    path = tmp_path / "eights.uno"
    path.write_text(SUITED_EIGHTS, encoding="utf-8")
    rules = load(str(path))
    eights = {c for c in range(rules.size) if rules.cards.kind[c] == "number" and rules.cards.rank[c] == 8}
    early = total = 0
    for game, d, _, action in _basic_turns(rules, range(6), rounds=2, spread=7):
        if d.kind == "turn" and action.verb == "play" and action.card in eights:
            total += 1
            early += any(c not in eights for c in game.playable(d.seat))
    assert total > 20
    assert early / total < 0.35, f"{early} of {total} eights played while another card fitted"


def test_basic_swaps_hands_with_the_smallest_and_never_into_a_larger_one():
    """A card that swaps hands with a player its player names is weighed by where it sends each
    hand (its measured flow), for the place of the player named: basic names an opponent holding
    fewest cards, and does not swap its hand for a larger one while it has another card to play
    (tests/codegen/hands-move.uno: jacks swap, queens pass every hand on)."""
    rules = load(str(ROOT / "tests" / "codegen" / "hands-move.uno"))
    jacks = {c for c in range(rules.size) if rules.cards.rank[c] == 11}
    swaps = 0
    for game, d, actions, action in _basic_turns(rules, range(8), rounds=3, spread=5):
        if d.kind == "turn" and action.verb == "play" and action.card in jacks:
            sizes = {t: len(game.hands[t]) for t in game.opponents(d.seat)}
            assert sizes[action.target] == min(sizes.values()), (game.turns, sizes, action)
            if any(a.verb == "play" and a.card not in jacks for a in actions):
                assert min(sizes.values()) <= len(game.hands[d.seat]) - 1, (game.turns, sizes)
            swaps += 1
    assert swaps > 20


def test_answers_are_weighed_not_taken_in_order(tmp_path):
    """Writing a question's answers in the other order changes none of basic's answers: the same
    games (random players elsewhere), answered in both rulesets, get the same answer each time."""
    text = (ROOT / "rulesets" / "classic.uno").read_text(encoding="utf-8")
    start = text.index('        challenge "Say it')
    middle = text.index('        accept "Draw four')
    end = text.index("      }\n    }\n  }\n\n  on draw")
    swapped = text[:start] + text[middle:end] + text[start:middle] + text[end:]
    swapped = swapped.replace('ruleset classic "Classic UNO"', 'ruleset swapped "Swapped"')
    path = tmp_path / "swapped.uno"
    path.write_text(swapped, encoding="utf-8")
    rules_a, rules_b = load("classic"), load(str(path))
    answers = 0
    for players, seed in ((2, 0), (3, 1), (4, 2)):
        a, b = Game(rules_a, players, seed=seed), Game(rules_b, players, seed=seed)
        bot_a, bot_b = BasicBot(random.Random(seed)), BasicBot(random.Random(seed))
        chooser = random.Random(seed)
        while not a.game_over and a.round <= 2:
            if a.decision.kind == "answer":
                assert b.decision.kind == "answer" and b.decision.options != a.decision.options
                x, y = bot_a.choose(a, a.legal_actions()), bot_b.choose(b, b.legal_actions())
                assert x.verb == y.verb, (players, seed, a.turns)
                answers += 1
            else:
                acts = a.legal_actions()
                x = y = acts[int(chooser.random() * len(acts))]
            a.apply(x)
            b.apply(y)
        assert a.log == b.log
    assert answers > 20


# -- plug-in bots ----------------------------------------------------------------------------

def test_bots_plug_in_by_import_path_and_options():
    sys.path.insert(0, str(ROOT / "examples" / "bots"))
    try:
        assert check_bot("lowest:LowestFirst") == "lowest:LowestFirst"
        game = play_game(load("classic"), 3, 5, ["lowest:LowestFirst", "basic", "search:iterations=4"], rounds=1)
        assert game.round_over or game.game_over
    finally:
        sys.path.remove(str(ROOT / "examples" / "bots"))
    bot = make_bot("search:iterations=7:endgame=5:rollout=basic", random.Random(0))
    assert (bot.iterations, bot.endgame, bot.player.name) == (7, 5, "basic")


def test_bots_plug_in_by_entry_point(monkeypatch):
    class Point:
        name = "mine"

        def load(self):
            return RandomBot
    monkeypatch.setattr(bots_module, "_entry_points", lambda: [Point()])
    assert "mine" in bot_names()
    assert isinstance(make_bot("mine", random.Random(0)), RandomBot)


@pytest.mark.parametrize("spec", ["clever", "search:iterations", "search:depth=3", "search:rollout=clever",
                                  "search:endgame=-1", "nosuchmodule:Bot",
                                  "random:Nope", "", "unodsl.engine.game:Game"])
def test_bad_bot_names_are_explained(spec):
    with pytest.raises(BotError):
        check_bot(spec)


@pytest.mark.parametrize("name", RULESETS)
def test_the_search_bot_plays_every_ruleset(name):
    players = 2 if load(name).players[0] <= 2 else 4
    game = play_game(load(name), players, 3, ["search:iterations=3:endgame=99"] + ["basic"] * (players - 1), rounds=1)
    assert game.turns > 0


def test_basic_acts_out_of_turn_when_it_measurably_helps():
    """Out of turn basic takes only actions it is offered, catches a rival left with one card
    whenever it may (the catch costs the caught player cards: measured by engine.probe), never
    its own partner, and jumps in where that measurably helps."""
    for name, mods, players in (("classic", (), 4), ("teams", (), 4), ("killer", (), 4)):
        rules = load(name, mods)
        caught = jumped = spared = 0
        for seed in range(6):
            game = Game(rules, players, seed=seed, record=False)
            bot, rng = BasicBot(random.Random(seed)), random.Random(seed)
            while not game.game_over and game.round <= 2:
                for s in range(players):
                    options = game.window_actions(s)
                    if not options:
                        continue
                    act = bot.out_of_turn(game, s)
                    assert act is None or act in options
                    rival = [a for a in options if a.verb == "catch" and game.teams[a.target] != game.teams[s]]
                    if rival:
                        assert act is not None and act.verb == "catch" and act in rival, (name, seed, options, act)
                        caught += 1
                    partner = [a for a in options if a.verb == "catch" and a.target != s
                               and game.teams[a.target] == game.teams[s]]
                    if partner and not rival:
                        assert act not in partner, (name, seed, options, act)
                        spared += 1
                    if act is not None and act.verb not in ("catch", "uno"):
                        jumped += 1
                actions = game.legal_actions()
                game.apply(actions[int(rng.random() * len(actions))])
        assert caught > 0, name
        if name == "teams":
            assert spared > 0, "a partner left with one card was there to be caught"
        if name == "killer":
            assert jumped > 0, "basic jumps in where it helps"


@pytest.mark.parametrize("ref, mods", [("classic", ()), ("classic", ("nines",)), ("killer", ())])
def test_the_probe_copies_a_game_only_to_try_a_card_that_may_be_played(monkeypatch, ref, mods):
    """Where the pile alone decides what may be played, measuring a ruleset copies the game to try
    a card only when that card may be played there (most may not: copying was most of its time),
    and what it measures is what copying for every card measured."""
    from unodsl.engine import probe
    rules = load(ref, mods)
    assert rules.match_static
    tried = []
    original = probe._Probe._with_card

    def counted(base, seat, card, seed):
        forks_before = len(forks)
        game, action = original(base, seat, card, seed)
        tried.append((game is not None, len(forks) > forks_before))
        return game, action
    forks = []
    real_fork = probe.fork
    monkeypatch.setattr(probe, "fork", lambda *args: forks.append(1) or real_fork(*args))
    monkeypatch.setattr(probe._Probe, "_with_card", staticmethod(counted))
    known = probe._Probe(rules, 4).run()
    assert any(not playable for playable, _ in tried) and all(copied == playable for playable, copied in tried)

    monkeypatch.setattr(probe, "_surely_unplayable", lambda *args: False)      # a copy for every card
    assert probe._Probe(load(ref, mods), 4).run() == known
