"""The generated turn loop plays exactly the games the generic loop plays.

`codegen` writes each ruleset's turn loop as Python; `Game(..., generated=False)` runs the generic
reference loop instead. For every bundled ruleset, every bundled module on classic, every
example, every rules file in tests/codegen/ (which test how names, texts and nesting are
written) and every rules file of tests/scenarios (written to exercise the language's
primitives), under every alternative value of every choice option, both loops play the same seeds
with the same bots (including bots that act out of turn: saying UNO, catching, jumping in), and
must produce the same event log, action log and final state.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from unodsl.compile.codegen import bot_loop_gap
from unodsl.compile.loader import bundled_names, load
from unodsl.engine import Game
from unodsl.engine.bots import BasicBot
from unodsl.sim.simulate import play_game, plays_inline

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = 2


def _units():
    """(label, ruleset reference, modules) for everything bundled and every example."""
    out = [(name, name, ()) for name, kind, _ in bundled_names() if kind == "ruleset"]
    out += [(f"classic+{name}", "classic", (name,)) for name, kind, _ in bundled_names() if kind == "module"]
    for path in sorted((ROOT / "examples").rglob("*.uno")):
        text = path.read_text()
        label = str(path.relative_to(ROOT))
        if any(line.lstrip().startswith("module ") for line in text.splitlines()):
            scenarios = yaml.safe_load(path.with_suffix(".scenarios.yaml").read_text())
            out.append((label, scenarios.get("ruleset", "classic"), (str(path),)))
        else:
            out.append((label, str(path), ()))
    for path in sorted((ROOT / "tests" / "codegen").glob("*.uno")):     # rules made to test codegen itself
        out.append((str(path.relative_to(ROOT)), str(path), ()))
    # the rules files of the language's own scenarios, each written to exercise its primitives
    for path in sorted((ROOT / "tests" / "scenarios").rglob("*.uno")):
        out.append((str(path.relative_to(ROOT)), str(path), ()))
    return out


def _variants():
    """Each unit with its defaults, and once more for every other value of each option."""
    cases = []
    for label, ref, mods in _units():
        rules = load(ref, mods)
        cases.append(pytest.param(ref, mods, {}, id=label))
        for name, info in sorted(rules.options.items()):
            if isinstance(info.default, bool):
                others = [not info.value]
            else:
                others = [c for c in info.choices if c != info.value]
            for value in others:
                cases.append(pytest.param(ref, mods, {name: value}, id=f"{label}:{name}={value}"))
    return cases


def _seeds(options: dict) -> tuple:
    """Three tables (fewest players, four, seven) with the defaults; two with an option changed."""
    return (0, 1, 2) if not options else (0, 2)


def _state(game: Game) -> dict:
    return {"events": game.events, "log": game.log, "hands": game.hands, "stock": game.stock,
            "discard": game.discard, "scores": game.scores, "turns": game.turns, "stats": game.stats,
            "color": game.color, "direction": game.direction, "counters": game.counters,
            "winners": game.game_winners, "stalemate": game.stalemate}


@pytest.mark.parametrize("ref, mods, options", _variants())
def test_generated_loop_plays_the_generic_games(ref, mods, options):
    rules = load(ref, mods, options)
    low, high = rules.players
    for seed in _seeds(options):
        players = [low, min(high, 4), min(high, 7)][seed]
        for bot in ("basic", "random"):
            generic = _state(play_game(rules, players, 1000 + seed, bot, rounds=ROUNDS, generated=False))
            generated = _state(play_game(rules, players, 1000 + seed, bot, rounds=ROUNDS))
            for key in generic:
                assert generated[key] == generic[key], f"{key} differs ({players} players, seed {1000 + seed}, {bot})"
            assert generic["turns"] > 0


def test_benchmarked_rulesets_run_fully_generated():
    """Classic and Killer, the rulesets the benchmark measures, need no generic fallback."""
    for name in ("classic", "killer"):
        game = Game(load(name), 4, seed=1)
        assert game._code.delegated == (), name


@pytest.mark.parametrize("ref, mods, options", _variants())
def test_inline_random_seats_play_the_same_games(ref, mods, options):
    """The simulator's fast path (random seats played inside the generated loop) makes exactly
    the choices the random bot makes through the step API (in rules with runs of cards too, each
    turn's runs listed inside the loop as the step API lists them)."""
    rules = load(ref, mods, options)
    low, high = rules.players
    for seed in _seeds(options):
        players = [low, min(high, 4), min(high, 7)][seed]
        stepped = play_game(rules, players, 2000 + seed, "random", record=False, rounds=ROUNDS, inline=False)
        inline = play_game(rules, players, 2000 + seed, "random", record=False, rounds=ROUNDS)
        assert inline._seat_bot is not None and stepped._seat_bot is None
        a, b = _state(stepped), _state(inline)
        for key in a:
            assert b[key] == a[key], f"{key} differs ({players} players, seed {2000 + seed})"


@pytest.mark.parametrize("ref, mods", [pytest.param(ref, mods, id=label) for label, ref, mods in _units()])
def test_inline_basic_seats_play_the_same_games(ref, mods):
    """Basic seats played inside the generated loop (every choice asked there as the step API
    asks it, out-of-turn actions included, plays tried on samples of the game too) play the
    games they play through the step API; where they cannot be (runs of cards), the simulator
    keeps the step API. Rules that settle after an action out of turn, whose windows open as the
    state changes, and window actions that may ask questions (jump-in) are played inside the loop."""
    rules = load(ref, mods)
    low, high = rules.players
    for players in (low, min(high, 4)):
        inlined = bot_loop_gap(rules) is None
        assert plays_inline(BasicBot(random.Random(0)), rules, players) == inlined
        assert inlined == (rules.runs is None), "basic seats play inside the turn loop unless runs of cards are listed"
        rounds = ROUNDS if inlined else 1
        stepped = play_game(rules, players, 3000 + players, "basic", record=False, rounds=rounds, inline=False)
        inline = play_game(rules, players, 3000 + players, "basic", record=False, rounds=rounds)
        assert (inline._seat_bot is not None) == inlined and stepped._seat_bot is None
        a, b = _state(stepped), _state(inline)
        for key in a:
            assert b[key] == a[key], f"{key} differs ({players} players, seed {3000 + players})"


def test_generic_loop_passes_every_scenario(monkeypatch):
    """The reference loop the generated one is held to passes the whole scenario suite too."""
    from unodsl.front import scenarios
    games = []

    def generic_game(*args, **kwargs):
        games.append(Game(*args, generated=False, **kwargs))
        return games[-1]
    monkeypatch.setattr(scenarios, "Game", generic_game)
    paths = scenarios.collect([ROOT / "tests" / "scenarios", ROOT / "examples"])
    ran = 0
    for path in paths:
        for sc in scenarios.load_file(path):
            failures = scenarios.run(sc)
            assert not failures, f"{path.name}: {sc.name}: {failures[0]}"
            ran += 1
    assert ran > 300 and len(games) >= ran
    assert all(g._code.play_round is Game._play_round for g in games)


@pytest.mark.parametrize("name", ["flip", "no-mercy", "crazy-eights"])
def test_new_bundled_rulesets_run_fully_generated(name):
    """The rulesets of the language's second part need no generic fallback either, in the step
    API's loop or in the simulator's."""
    rules = load(name)
    for players in (2, 4, 7):
        assert Game(rules, players, seed=1)._code.delegated == ()
        assert Game(rules, players, seed=1, record=False, generated=True)._code.delegated == ()
        assert play_game(rules, players, 1, "random", record=False, rounds=1)._code.delegated == ()


@pytest.mark.parametrize("path", [*sorted((ROOT / "tests" / "codegen").glob("*.uno")),
                                  ROOT / "tests" / "scenarios" / "language" / "definitions.uno"],
                         ids=lambda p: p.name)
def test_rules_made_for_codegen_run_fully_generated(path):
    """The rules written to test codegen (and those of the named statements' scenarios) are
    written out whole: named statements, faces, runs and the rest need no generic fallback."""
    rules = load(str(path))
    for players in (rules.players[0], min(rules.players[1], 4)):
        assert Game(rules, players, seed=1)._code.delegated == ()
        assert play_game(rules, players, 1, "random", record=False, rounds=1)._code.delegated == ()


def test_the_game_s_stable_lists_are_read_through_locals_in_code_only():
    """`g.hands` becomes the local `hands` where it is code: not inside a string, not as another
    object's attribute (`x.g.hands`), not as part of a longer name (`g.handsome`)."""
    from unodsl.compile.codegen.loop import _rename_attributes
    names = {"g.hands": "hands", "g.skips": "skips"}
    assert _rename_attributes("n = len(g.hands[s]) + g.skips[s]", names) == "n = len(hands[s]) + skips[s]"
    assert _rename_attributes("say('g.hands', x.g.hands, g.handsome)", names) == "say('g.hands', x.g.hands, g.handsome)"
    assert _rename_attributes("g.stats['turns'] += 1", names) == "g.stats['turns'] += 1"
    # a line with no string or comment is renamed without reading it as tokens: the same rules hold
    assert _rename_attributes("n = x.g.hands + g.handsome + g.hands[s]", names) == "n = x.g.hands + g.handsome + hands[s]"
