"""The native engine plays the Python engine's games, action for action.

Both engines are given the same small portable generator (`native.portable.PortableRandom`,
SplitMix64) and the same seed; the Python engine then plays, with random bots through the step
API and its generic closures, exactly the game the compiled code plays. Each game's moves (every
card played, every turn a card was drawn, every round's winner, in order) and its whole final
state (hands, stock, discard pile, scores, winners, the generator's state) must be equal.

Every bundled ruleset, module and example the native engine runs is checked on a few seeds at the table
sizes of tests/test_codegen.py; what it cannot run must say so (`Unsupported`), never play. The
same holds with basic bots in every seat (native.basic), against BasicBot through the step API, for
every unit whose basic choices the native engine compiles, acting out of turn too (native.windows:
catching, saying a call out of turn, jumping in), at 2, 4 and 7 players for some.
Compiling costs: the first run on a machine compiles every ruleset; numba keeps the machine code
in the user's cache folder (native.engine.cache_dir), so later runs load it.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest
import yaml

pytest.importorskip("numba")

from unodsl.compile.loader import bundled_names, load  # noqa: E402
from unodsl.engine.flow import RoundFlow  # noqa: E402
from unodsl.engine.probe import knowledge  # noqa: E402
from unodsl.engine.table import Table  # noqa: E402
from unodsl.native import Unsupported, native_engine  # noqa: E402
from unodsl.native import engine as native_engine_module  # noqa: E402
from unodsl.native.layout import NONE  # noqa: E402
from unodsl.native.portable import PortableRandom  # noqa: E402
from unodsl.sim.simulate import play_game  # noqa: E402

from long_rules import runs_each_acting  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TRACE = 4000          # moves kept of a native game (the final state and generator hold the rest)
SEEDS = (0, 1)
MOVES = {"play": 1, "draw_turn": 2, "round_end": 3}     # layout.TRACE_PLAY, TRACE_DRAW, TRACE_ROUND


def _units(compiled_quick=None):
    """(ruleset, modules) of every bundled ruleset, every module on classic and every example.
    Given `compiled_quick` (the test compiles each), all but those named are slow: the quick run
    (-m "not slow") compiles few modules."""
    out = [(name, ()) for name, kind, _ in bundled_names() if kind == "ruleset"]
    out += [("classic", (name,)) for name, kind, _ in bundled_names() if kind == "module"]
    for path in sorted((ROOT / "examples").rglob("*.uno")):
        text = path.read_text(encoding="utf-8")
        if any(line.lstrip().startswith("module ") for line in text.splitlines()):
            scenarios = yaml.safe_load(path.with_suffix(".scenarios.yaml").read_text(encoding="utf-8"))
            out.append((scenarios.get("ruleset", "classic"), (str(path),)))
        else:
            out.append((str(path), ()))
    ids = ["+".join(Path(p).stem for p in (ref, *mods)) for ref, mods in out]
    return [pytest.param(ref, mods, id=label,
                         marks=() if compiled_quick is None or label in compiled_quick else pytest.mark.slow)
            for (ref, mods), label in zip(out, ids)]


def _python_game(rules, players: int, seed: int, bot: str = "random"):
    """The Python engine's game from the portable generator at `seed`, `bot` in every seat
    choosing through the step API, with its moves (a game keeping no log tells no plays, so each
    play is caught where the engine makes it)."""
    moves = []
    if bot == "basic":      # its measurements of the rules play games of their own: made before moves are caught
        knowledge(rules, players)
    record, play = Table.event, RoundFlow.play_gen

    def event(self, kind, **data):
        if kind in ("draw_turn", "round_end"):
            who = data.get("seat", data.get("winner"))
            moves.append((MOVES[kind], NONE if who is None else who, NONE))
        record(self, kind, **data)

    def play_gen(self, seat, action, *args, **kwargs):
        moves.extend((MOVES["play"], seat, card) for card in (action.card, *action.more))   # (a run: each card)
        return (yield from play(self, seat, action, *args, **kwargs))
    rng = PortableRandom(seed)
    Table.event, RoundFlow.play_gen = event, play_gen
    try:
        game = play_game(rules, players, seed, bot, record=False, inline=False, generated=False, rng=rng)
    finally:
        Table.event, RoundFlow.play_gen = record, play
    return game, moves, rng.getstate()


@pytest.mark.parametrize("ref, mods", _units(compiled_quick={"classic"}))
def test_native_engine_plays_the_python_games(ref, mods):
    rules = load(ref, mods)
    low, high = rules.players
    players = min(max(low, 4), high)      # one table size each keeps CI's compiling short (the
    # statistics of 2, 4 and 7 players are compared by bench/bench_native.py --agreement)
    try:
        engine = native_engine(rules, players, trace=TRACE)
    except Unsupported as missing:      # every bundled ruleset, module and example runs natively
        pytest.fail(f"the native engine does not run {ref}+{mods}: {missing}")
    _same_games(engine, rules, players, "random")


def _same_games(engine, rules, players: int, bot: str, seeds=SEEDS) -> None:
    for seed in seeds:
        native = engine.play(seed)
        game, moves, rng_state = _python_game(rules, players, seed, bot)
        where = f"{players} players, seed {seed}"
        assert [m[:3] for m in native.trace] == moves[:TRACE], f"moves differ ({where})"
        assert native.turns == game.turns > 0, where
        assert native.hands == game.hands, where
        assert native.copies == [[hand.count(c) for c in range(rules.size)] for hand in native.hands], where
        assert native.stock == game.stock, where
        assert native.discard == game.discard, where
        assert native.scores == list(game.scores), where
        assert native.winners == list(game.game_winners), where
        assert native.rng_state == rng_state, where


def test_whenever_rules_fire_in_the_native_engine():
    """`whenever` rules of both forms (the first player meeting a condition; a condition alone)
    fire in the native engine's compiled code as in the Python engine: the language's own
    scenario rules, a knock-out at ten cards and a stacked penalty held at eight."""
    rules = load(str(ROOT / "tests" / "scenarios" / "language" / "whenever.uno"))
    engine = native_engine(rules, 4, trace=TRACE)
    _same_games(engine, rules, 4, "random")
    assert sum(engine.play(seed).slot("eliminations") for seed in SEEDS) > 0, "someone was knocked out"


def test_piles_kept_in_order_in_the_native_engine():
    """A stock kept in order, natively as in the Python engine: the language's scenario rules,
    whose cards put a card on top of or under the stock and turn it over, and whose stock is
    renewed from the discard pile without its wild cards (`shuffle ... into the stock`, in the
    game of seed 22)."""
    rules = load(str(ROOT / "tests" / "scenarios" / "language" / "piles.uno"))
    assert rules.ordered_stock
    engine = native_engine(rules, 4, trace=TRACE)
    _same_games(engine, rules, 4, "random", (0, 22))
    assert engine.play(22).slot("reshuffles") > 0, "the stock was renewed"


# Units whose basic seats act out of turn natively in windows the module keeps (native.windows):
# catching a player who did not say their call (a call said with a play closes the window as the
# card lands, but a swap or a passing of hands can leave a player one card), saying it out of
# turn, jumping in.
ACT_OUT_OF_TURN = {"killer", "speed", "no-mercy", "shuffle-hands", "swap-hands", "classic+deadly",
                   "classic+progressive", "classic+jump-in", "classic+seven-o", "bounce-back", "mercy",
                   *(f"swap-hands+{name}" for name in ("discard-wilds", "draw-to-color", "everyone-three",
                                                      "exactly-seven", "extra-turn", "others-draw-two"))}
# Played at 2 and 7 players as well as 4: a plain unit, one whose seats act out of turn, one whose
# plays name players and move hands (the others at one table size: compiling is CI's cost).
EVERY_SIZE = {"classic", "classic+jump-in", "swap-hands"}


@pytest.mark.parametrize("ref, mods", _units(compiled_quick=()))
def test_native_basic_seats_play_the_python_games(ref, mods):
    """Basic bots in every seat, their every choice compiled (the turn's play, the drawn card's,
    colors, answers, the call said with a play, its actions out of turn), play BasicBot's games
    through the step API, at 4 players (and 2 and 7 for some: EVERY_SIZE), in every bundled
    ruleset, module and example."""
    rules = load(ref, mods)
    low, high = rules.players
    label = "+".join(Path(p).stem for p in (ref, *mods))
    sizes = {max(low, 2), min(high, 4), min(high, 7)} if label in EVERY_SIZE else {min(max(low, 4), high)}
    for players in sorted(sizes):
        try:
            engine = native_engine(rules, players, trace=TRACE, bot="basic")
        except Unsupported as missing:      # (basic.BotUnsupported too)
            pytest.fail(f"the native engine does not run {label} with basic bots: {missing}")
        assert (engine.windows > 0) == (label in ACT_OUT_OF_TURN), "the module keeps windows where basic acts in them"
        _same_games(engine, rules, players, "basic")
    if ref == "classic" and not mods:
        assert ("native", 4, TRACE, "basic") in rules.generated, "classic's basic seats play natively"


@pytest.mark.parametrize("ref, bot", [
    pytest.param("killer", "basic", id="killer"),
    *[pytest.param(str(ROOT / "tests" / "codegen" / f"{name}.uno"), "basic", id=name)
      for name in ("asks-out-of-turn", "turn-order", "moves-on", "wide-jump-in")]])
def test_native_basic_seats_act_out_of_turn_as_python(ref, bot):
    """Windows that open as the state changes (a passing of hands leaves a player one card),
    jumping in with a card whose play asks questions and, while its question waits, the others
    acting out of turn (poking its player), a window whose actions are offered in turn order, one
    that stays open across turns among `whenever` rules that put players out: natively as in the
    Python engine, at 2, 4 and 7 players where the rules allow; jumping in with any of many
    cards (whether a seat holds one looked for in its hand) beside any of a few (read from its
    copies of each card)."""
    rules = load(ref)
    low, high = rules.players
    for players in sorted({max(low, 2), min(high, 4), min(high, 7)}):
        _same_games(native_engine(rules, players, trace=TRACE, bot=bot), rules, players, bot)


def test_native_basic_seats_play_runs_of_cards_as_python():
    """Basic seats choose among runs of cards as BasicBot does (a run weighed by its first card
    and the color its last card names, the first listed of the best), at 2, 4 and 7 players, in
    rules where a run may end with a wild and so is sometimes basic's best play: some of these
    games' turns lay down more than one card."""
    rules = load(str(ROOT / "tests" / "codegen" / "runs-to-wild.uno"))
    for players in (2, 4, 7):
        engine = native_engine(rules, players, trace=TRACE, bot="basic")
        _same_games(engine, rules, players, "basic")
        if players > 2:         # (at two, a skip gives a player two plays in a row too)
            trace = engine.play(SEEDS[0]).trace
            runs = [a for a, b in zip(trace, trace[1:]) if a[0] == b[0] == MOVES["play"] and a[1] == b[1]]
            assert runs, f"some turn lays down a run ({players} players)"


def _bare_numbers(tree, compiled_names: set, prefix: str | None) -> list:
    """The calls of compiled functions (those named in `compiled_names`, or reached as
    `prefix.name`) in `tree` that hand one a bare number: a constant, a negated one, or a name
    the module assigns a constant to."""
    constants = {t.id for a in tree.body if isinstance(a, ast.Assign) and isinstance(a.value, ast.Constant)
                 for t in a.targets if isinstance(t, ast.Name)}
    bare = []
    for node in (n for f in tree.body if isinstance(f, ast.FunctionDef) for n in ast.walk(f)):
        if isinstance(node, ast.Call):
            f = node.func
            compiled = (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == prefix) or (
                isinstance(f, ast.Name) and f.id in compiled_names)
            if compiled:
                bare += [ast.unparse(node) for a in node.args
                         if (isinstance(a, ast.Constant) and type(a.value) in (int, bool))
                         or (isinstance(a, ast.UnaryOp) and isinstance(a.operand, ast.Constant))
                         or (isinstance(a, ast.Name) and a.id in constants)]
    return bare


def test_no_compiled_function_is_handed_a_bare_number():
    """numba compiles a function once more for every constant it is called with (a whole
    number, a negative one too, a yes or no, a name of the module standing for one): the module,
    and the runtime within itself, pass each as an int64 or a bool (lower._unliteral), so every
    function is compiled once. Two processes compiling the same module at once then write the
    same files: numba keeps a function's index of types and its machine code apart, and two
    processes adding two types of one function at once can leave the index naming the other's
    code (a module then ran another function's machine code and played other games)."""
    from unodsl.native import runtime
    from unodsl.native.writer import NativeWriter
    # crazy-eights: its own `when the stock runs out` is written into the module (REFILL)
    for name, mods, bot in (("classic", (), "random"), ("killer", (), "random"), ("crazy-eights", (), "random"),
                            ("classic", ("jump-in",), "basic")):
        tree = ast.parse(NativeWriter(load(name, mods), 4, bot=bot).module_source())
        called = {f.name for f in tree.body if isinstance(f, ast.FunctionDef)}
        bare = _bare_numbers(tree, called, "R")
        assert not bare, (name, mods, bot, bare[:5])
        assert "np.int64(" in ast.unparse(tree)
    tree = ast.parse(Path(runtime.__file__).read_text(encoding="utf-8"))
    own = {f.name for f in tree.body if isinstance(f, ast.FunctionDef)}
    assert not _bare_numbers(tree, own, None), "the runtime hands its own functions bare numbers"


def test_rules_with_their_own_refill_keep_their_machine_code_on_disk():
    """A ruleset's own `when the stock runs out` runs inside the module's draws, not handed to
    the runtime as a function (numba keeps no machine code of such a caller): its module is on
    disk after a run, as every other."""
    rules = load(str(ROOT / "tests" / "scenarios" / "language" / "piles.uno"))
    assert rules.on_stock_out is not None
    native_engine(rules, 4, trace=TRACE)
    assert native_engine_module._known_module(rules, 4) is not None


def test_modules_that_keep_windows_keep_their_machine_code_on_disk():
    """Where basic acts out of turn, an action that may ask questions runs inside an offer, and
    its questions offer the others their chance: no function of the module calls another round
    in a circle (numba keeps no machine code of those), so it is on disk after a run."""
    rules = load("classic", ("jump-in",))
    assert native_engine(rules, 4, trace=TRACE, bot="basic").windows > 0
    assert native_engine_module._known_module(rules, 4, "basic") is not None


def test_every_function_of_a_module_keeps_one_compilation_on_disk():
    """What numba keeps on disk of each of a module's functions (its index: one entry per type it
    was compiled for) has one entry: no function was handed a constant, a local name bound to one
    included (a window's key, `best = -1`), which the look at the text above does not see. Two
    entries are what two processes compiling at once can leave naming each other's code."""
    import pickle
    rules = load("classic", ("jump-in",))
    native_engine(rules, 4, trace=TRACE, bot="basic")
    digest = native_engine_module._known_module(rules, 4, "basic")
    folder = native_engine_module._numba_folder(native_engine_module.cache_dir())
    indexes = sorted(folder.glob(f"ruleset_{digest}.*.nbi"))
    assert len(indexes) > 20
    for index in indexes:
        with open(index, "rb") as f:
            pickle.load(f)                              # numba's version
            _, overloads = pickle.loads(f.read())
        assert len(overloads) == 1, (index.name, [key[0] for key in overloads])


@pytest.mark.parametrize("mods", [(), ("deadly",)], ids=["classic", "classic+deadly"])
def test_a_native_run_adds_up_what_its_games_did(mods):
    """A native run's statistics (every total, the squares that give their spread included) are
    those of the same games played by the Python engine on the same generator, game by game
    (deadly: players put out of the round, many rounds a game)."""
    from unodsl.native.portable import game_seed
    from unodsl.sim.engines import simulate_native
    from unodsl.sim.simulate import Stats
    rules = load("classic", mods)
    native = simulate_native(rules, 4, 6, seed=3)
    python = Stats(4)
    for i in range(6):
        python.add(play_game(rules, 4, 0, "random", record=False, inline=False, generated=False,
                             rng=PortableRandom(game_seed(3, i))))
    assert native.drawn_sq > native.drawn > 0 and native.rounds_sq > native.rounds > 0
    assert (native.eliminations_sq > native.eliminations > 0) == bool(mods)
    for name in ("turns", "turns_sq", "rounds", "rounds_sq", "drawn", "drawn_sq", "reshuffles", "reshuffles_sq",
                 "eliminations", "eliminations_sq", "points", "won"):
        assert getattr(native, name) == getattr(python, name), name


def _simulate(*args):
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "unodsl", "simulate", *args, "--format", "json"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    out = __import__("json").loads(done.stdout)
    out.pop("seconds")
    return out, done.stderr.strip().splitlines()


TWO_JUMPS = """module twice "Twice" {
  window jump "Jumping in" {
    opens after play
    closes when a turn begins
    anyone may jump with a card where card.code == top.code "Play the card on top's twin, out of turn." {
      actor plays card
    }
  }
  window late "Jumping in late" {
    opens after play when player.cards == 1
    closes when a turn begins
    anyone may jump with a card where card.code == top.code "Play its twin on a player down to one card." {
      actor plays card
    }
  }
}
"""


def test_basic_bots_the_native_engine_does_not_play_yet_are_named_and_played_by_python(tmp_path):
    """Two windows whose actions share a word: the native basic bot would not know which it
    acts in. The run says so in plain words and the Python engine plays the same games."""
    rules = tmp_path / "twice.uno"
    rules.write_text(TWO_JUMPS, encoding="utf-8")
    run = ("classic", "--with", str(rules), "-n", "3")
    played, said = _simulate(*run, "--engine", "native")
    assert said == ["engine: Python (the native engine does not yet play basic bots in rules with two windows "
                    "whose actions out of turn use the same word)"]
    assert played == _simulate(*run, "--engine", "python")[0]
    random, said = _simulate(*run, "--bots", "random", "--engine", "native")     # random seats never act out of turn
    assert said == ["engine: native (the rules compiled to machine code)"] and random["games"] == 3


def test_simulate_says_which_engine_played_and_falls_back_with_a_reason():
    from unodsl.sim.engines import choose
    python, said = _simulate("classic", "-n", "30", "--bots", "random", "--engine", "python")
    assert said == ["engine: Python"]
    native, said = _simulate("classic", "-n", "30", "--bots", "random", "--engine", "native")
    assert said == ["engine: native (the rules compiled to machine code)"]
    assert native["games"] == 30 and sum(w["wins"] for w in native["wins_by_seat"]) >= 30
    assert native != python              # other seeds: other games (tests above hold the games equal)
    assert not choose(load("classic"), 4, "random", 30, "native").compiles     # on disk now: loaded
    basic, said = _simulate("classic", "-n", "30", "--engine", "native", "--jobs", "2")
    assert said == ["engine: native (the rules compiled to machine code)"]
    assert basic["games"] == 30 and basic != _simulate("classic", "-n", "30", "--engine", "python")[0]
    # what the native engine cannot run is played by Python, the same games, and named
    search, said = _simulate("classic", "-n", "2", "--bots", "search:iterations=5", "--engine", "native")
    assert said == ["engine: Python (the native engine plays only random, basic bots, not search:iterations=5 ones)"]
    runs = ("classic", "--with", str(ROOT / "examples" / "runs" / "color-runs.uno"), "-n", "3")
    played, said = _simulate(*runs, "--engine", "native")        # basic's runs of cards: compiled too
    assert said == ["engine: native (the rules compiled to machine code)"] and played["games"] == 3
    jump, said = _simulate("classic", "--with", "jump-in", "-n", "30", "--engine", "native")
    assert said == ["engine: native (the rules compiled to machine code)"] and jump["games"] == 30
    runs = ("classic", "--with", "seven-o", "--with", str(ROOT / "examples" / "runs" / "color-runs.uno"),
            "-n", "5", "--bots", "random")
    played, said = _simulate(*runs, "--engine", "native")
    assert said == ["engine: Python (the native engine cannot run Classic UNO: it has no code for "
                    "runs of cards in rules where a card's play names a player)"]
    assert played == _simulate(*runs, "--engine", "python")[0]
    # auto keeps short runs on Python
    _, said = _simulate("classic", "-n", "30", "--bots", "random")
    assert said[0].startswith("engine: Python (30 games are too few to pay for")
    _, said = _simulate("classic", "-n", "30")
    assert said[0].startswith("engine: Python (30 games are too few to pay for")


def _mutated_games(monkeypatch, ref: str, pattern: str, replacement: str, why: str, bot: str = "random",
                   mods: tuple = (), seeds=SEEDS) -> list:
    """Per seed, whether the moves and whether the hands of the native game differ from the Python
    engine's when `pattern` in the ruleset's native module is replaced (the mutated module is
    written and compiled anew, and noted nowhere)."""
    import re

    from unodsl.native.writer import NativeWriter
    rules = load(ref, mods)
    original = NativeWriter.module_source

    def mutated(self):
        text = original(self)
        broken = re.sub(pattern, replacement, text)
        assert broken != text, why
        return broken

    def forget():
        for key in [k for k in rules.generated if isinstance(k, tuple) and str(k[0]).startswith("native")]:
            del rules.generated[key]
    forget()
    monkeypatch.setattr(NativeWriter, "module_source", mutated)
    # the mutated module must be written, not found through a note of the right one, and leave none
    monkeypatch.setattr(native_engine_module, "_known_module", lambda *args: None)
    monkeypatch.setattr(native_engine_module, "_remember", lambda *args: None)
    try:
        engine = native_engine(rules, 4, trace=TRACE, bot=bot)
        found = []
        for seed in seeds:
            native = engine.play(seed)
            game, moves, _ = _python_game(rules, 4, seed, bot)
            found.append(([m[:3] for m in native.trace] != moves[:TRACE], native.hands != game.hands))
        return found
    finally:
        forget()


@pytest.mark.slow
def test_a_mutated_rule_is_caught(monkeypatch):
    """A skip that does not skip, written into the native module, plays other games than the
    Python engine's: the comparison above catches it (slow: the mutated module is compiled)."""
    found = _mutated_games(monkeypatch, "classic", r"(g\[O_SKIPS \+ \w+\]) = 1", r"\1 = 0",
                           "classic's skip is written as a mark on the skipped seat")
    assert all(moves and hands for moves, hands in found)


@pytest.mark.slow
def test_a_mutated_choice_of_player_is_caught(monkeypatch):
    """A random seat that always names the first player it may (not one drawn among them), written
    into the native module of a ruleset whose cards name players, plays other games than the
    Python engine's (slow: the mutated module is compiled)."""
    found = _mutated_games(monkeypatch, "swap-hands", r"target_arg = (\w+)\[\w+ % \w+\]", r"target_arg = \1[0]",
                           "the random seat draws the player its play names")
    assert all(moves or hands for moves, hands in found)


@pytest.mark.slow
def test_a_mutated_basic_weighing_is_caught(monkeypatch):
    """Basic seats that weigh a play without how much of the hand can follow it, written into the
    native module, play other games than BasicBot's (slow: the mutated module is compiled)."""
    found = _mutated_games(monkeypatch, "classic", r"total = worth \+ fw \* k", "total = worth",
                           "the native weighing adds what can follow a play", bot="basic")
    assert all(moves and hands for moves, hands in found)


@pytest.mark.slow
@pytest.mark.parametrize("ref, mods, pattern, replacement", [
    ("classic", ("deadly",), r"if value > best \+ 1e-9:", "if value > best + 1e-9 and A_WHO[a] != 1:"),
    ("classic", ("jump-in",), r"if value > best \+ 1e-9:", "if value > best + 1e-9 and A_WHO[a] != 2:"),
    (str(ROOT / "tests" / "codegen" / "asks-out-of-turn.uno"), (),
     r"R\.far\(offer_run_plain, g\[O_FAR \+ \d+\], g, \(np.int64\(O_OFFER\),\)\)\n", "pass\n")],
    ids=["never-catches", "never-jumps-in", "none-act-while-a-question-waits"])
def test_a_mutated_out_of_turn_weighing_is_caught(monkeypatch, ref, mods, pattern, replacement):
    """Basic seats that never take the actions of others out of turn (catching a player who did
    not say their call) or of anyone (jumping in), or that do not get their chance to act while
    a question asked out of turn waits, written into the native module, play other games than
    BasicBot's (slow: the mutated module is compiled)."""
    found = _mutated_games(monkeypatch, ref, pattern, replacement,
                           "the native module weighs actions out of turn and offers them while a question waits",
                           bot="basic", mods=mods)
    assert all(moves and hands for moves, hands in found)


HANDS_MOVE = str(ROOT / "tests" / "codegen" / "hands-move.uno")


def test_native_basic_seats_weigh_plays_that_move_hands_as_python_does():
    """Cards that swap hands with a player their player names, pass every hand on, or make a
    named player draw: basic seats weigh each play by where it sends each hand's cards (its
    measured flow, for the place of the player named) and name players as BasicBot does, natively
    as through the step API, at 2 and 4 players."""
    rules = load(HANDS_MOVE)
    for players in (2, 4):
        _same_games(native_engine(rules, players, trace=TRACE, bot="basic"), rules, players, "basic", range(4))


@pytest.mark.slow
def test_a_mutated_weighing_of_moving_hands_is_caught(monkeypatch):
    """Basic seats that weigh a swap or a passing of hands by what it did on average (not by its
    flow applied to the hands as they stand), written into the native module, play other games
    than BasicBot's (slow: the mutated module is compiled)."""
    found = _mutated_games(monkeypatch, HANDS_MOVE, r"if place >= 0 and B_FLOW_HAS\[flow, place\] != 0:", "if False:",
                           "the native weighing reads the flow of a play that moves hands", bot="basic",
                           seeds=range(4))
    assert sum(moves for moves, _ in found) >= 3


def test_a_later_run_loads_the_module_an_earlier_one_wrote_without_writing_it(monkeypatch):
    from unodsl.native.writer import NativeWriter
    first = native_engine(load("classic"), 4, trace=TRACE).play(0)
    written = []
    original = NativeWriter.module_source

    def counted(self):
        written.append(1)
        return original(self)
    monkeypatch.setattr(NativeWriter, "module_source", counted)
    again = native_engine(load("classic"), 4, trace=TRACE).play(0)
    assert written == [] and again.hands == first.hands and again.trace == first.trace
    # a damaged note is not believed: the module is written again, and noted anew
    rules = load("classic")
    note = native_engine_module._known_path(rules, 4)
    note.write_text("../../elsewhere")
    again = native_engine(rules, 4, trace=TRACE).play(0)
    assert written == [1] and again.hands == first.hands
    assert native_engine_module._known_module(load("classic"), 4) is not None


def test_games_kept_with_their_moves_and_without_share_one_module():
    """The trace (the moves a test compares) is room in a game's memory, not code: the module,
    compiled once, plays the same game with a trace of any length and without one."""
    rules = load("classic")
    traced, plain, short = native_engine(rules, 4, trace=TRACE), native_engine(rules, 4), native_engine(rules, 4, trace=5)
    assert traced.module is plain.module is short.module
    a, b, c = traced.play(3), plain.play(3), short.play(3)
    assert len(a.trace) > 5 and b.trace == [] and c.trace == a.trace[:5]
    for game in (b, c):
        assert (game.hands, game.scores, game.turns, game.rng_state) == (a.hands, a.scores, a.turns, a.rng_state)


def test_a_damaged_module_on_disk_is_written_again():
    """A module file cut short (or changed) no longer hashes to its name: it is not believed, and
    the next run writes it whole again rather than failing to import it for ever."""
    first = native_engine(load("classic"), 4, trace=TRACE).play(0)
    digest = native_engine_module._known_module(load("classic"), 4)
    path = native_engine_module.cache_dir() / f"ruleset_{digest}.py"
    text = path.read_text(encoding="utf-8")
    path.write_text(text[:300], encoding="utf-8")
    assert native_engine_module._known_module(load("classic"), 4) is None
    again = native_engine(load("classic"), 4, trace=TRACE).play(0)
    assert path.read_text(encoding="utf-8") == text
    assert again.hands == first.hands and again.trace == first.trace


class _Warming:
    """An engine whose warms fail in turn as `failures` say (None, or none left: it does not)."""

    def __init__(self, *failures):
        self.failures, self.calls = list(failures), []

    def warm(self, first=False):
        self.calls.append(first)
        failure = self.failures.pop(0) if self.failures else None
        if failure is not None:
            raise failure


def test_machine_code_numba_cannot_read_is_compiled_anew_once(monkeypatch):
    """numba does not check its files: one cut short fails to unpickle. The module's and the
    runtime's machine code are then removed and compiled anew, once; a failure that comes back is
    raised, and a construct numba refuses is not retried."""
    import pickle
    from numba.core.errors import TypingError
    forgotten = []
    monkeypatch.setattr(native_engine_module, "_forget_machine_code", forgotten.append)
    monkeypatch.setattr(native_engine_module, "_compiled", lambda digest: True)
    engine = _Warming(pickle.UnpicklingError("pickle data was truncated"))
    native_engine_module._warmed(engine, "abc")
    assert forgotten == ["abc"] and engine.calls == [False, True]
    engine = _Warming(EOFError(), EOFError("again"))
    with pytest.raises(EOFError, match="again"):
        native_engine_module._warmed(engine, "abc")
    assert forgotten == ["abc", "abc"] and engine.calls == [False, True]
    engine = _Warming(TypingError("refused"))
    with pytest.raises(TypingError):
        native_engine_module._warmed(engine, "abc")
    assert forgotten == ["abc", "abc"] and engine.calls == [False]


def test_forgetting_machine_code_removes_the_modules_and_the_runtimes_only(monkeypatch, tmp_path):
    from unodsl.native import runtime
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(native_engine_module, "cache_dir", lambda: tmp_path / "native")
    monkeypatch.setattr(runtime.next64._cache, "_cache_path", str(tmp_path / "runtime"))
    modules, kept = tmp_path / "native" / "__pycache__", tmp_path / "runtime"
    names = {modules: ["ruleset_abc.play-1.py311.nbi", "ruleset_abc.play-1.py311.1.nbc", "ruleset_def.play-1.py311.nbi"],
             kept: ["runtime.take-9.py311.nbi", "runtime.take-9.py311.1.nbc", "runtime-0.68.mark"]}
    for folder, files in names.items():
        folder.mkdir(parents=True)
        for name in files:
            (folder / name).write_bytes(b"x")
    native_engine_module._forget_machine_code("abc")
    assert sorted(p.name for p in modules.iterdir()) == ["ruleset_def.play-1.py311.nbi"]
    assert sorted(p.name for p in kept.iterdir()) == ["runtime-0.68.mark"]


def test_the_machine_code_on_disk_is_found_where_numba_keeps_it(monkeypatch, tmp_path):
    """A run loads the module an earlier one wrote when numba kept its machine code: beside the
    modules, or under NUMBA_CACHE_DIR when that names a folder (as the start benchmark sets it),
    in the subfolder numba's own locator names for the modules' folder."""
    from numba.core.caching import _CacheLocator
    modules = tmp_path / "native"
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    assert native_engine_module._numba_folder(modules) == modules / "__pycache__"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    expected = tmp_path / "numba" / _CacheLocator.get_suitable_cache_subpath(str(modules / "ruleset_x.py"))
    assert native_engine_module._numba_folder(modules) == expected


@pytest.mark.parametrize("ref, mods", _units())
def test_what_the_native_engine_cannot_run_is_named_and_played_by_python(ref, mods):
    """A ruleset is either compiled whole or refused with what it met (a statement, a game
    method, a kind of card), and then `simulate --engine native` plays it with Python and says
    so in one line (no compiling here: only the module's text is written)."""
    from unodsl.native.engine import is_cached
    from unodsl.sim.engines import choose
    rules = load(ref, mods)
    players = min(4, rules.players[1])
    choice = choose(rules, players, "random", 10 ** 6, "native")
    try:
        is_cached(rules, players)
    except Unsupported as missing:
        assert choice.engine == "python"
        assert choice.note == f"engine: Python (the native engine cannot run {rules.title}: it has no code for {missing})"
        assert "\n" not in choice.note
    else:
        assert (choice.engine, choice.note) == ("native", "engine: native (the rules compiled to machine code)")


def test_a_refusal_names_the_rule_in_plain_words(tmp_path):
    """What the lowering meets in a rule's generated lines is said as that rule's place in its
    file, and what the generic closures run as the first rule among them (rules nested deeper
    than codegen writes out); a rule inside a `whenever` rule (written in the module's own
    settle) is named in the same way. (No bundled rule is refused at its place any more: classic
    is given one of each.)"""
    from unodsl.sim.engines import choose

    def reason(rules):
        note = choose(rules, 4, "random", 10 ** 6, "native").note
        return note[note.index("it has no code for ") + len("it has no code for "):-1]

    classic = (ROOT / "rulesets" / "classic.uno").read_text(encoding="utf-8")
    skip = 'on play skip "The next player loses their turn." { skip next }'
    line = next(i for i, text in enumerate(classic.splitlines(), 1) if skip in text) + 1
    # a game method with no native twin (`set color to`), and rules nested too deeply to write out
    nested = "if players > 0 { " * 20 + "skip next" + " }" * 20
    for name, statement, kind in (("lowered", "set color to top.color", "set color"), ("closures", nested, "if")):
        path = tmp_path / f"{name}.uno"
        path.write_text(classic.replace(skip, skip[:-1] + "\n    " + statement + "\n  }"), encoding="utf-8")
        assert reason(load(str(path))) == f"the rule at {path} line {line} ({kind})"
    recolor = tmp_path / "recolor.uno"
    recolor.write_text('ruleset recolor extends classic {\n  whenever color == red "Red never stays." '
                       '{ set color to blue }\n}\n', encoding="utf-8")
    assert reason(load(str(recolor))) == f"the rule at {recolor} line 2 (set color)"


def test_a_run_is_said_to_compile_only_where_no_machine_code_is_on_disk(tmp_path, monkeypatch):
    """`simulate` tells a person at a terminal it is compiling (sim.engines.Choice.compiles) only
    when the module's machine code is not in the cache (no compiling here: `choose` only looks)."""
    from unodsl.sim.engines import choose
    monkeypatch.setenv("UNODSL_CACHE", str(tmp_path / "empty"))
    assert choose(load("classic"), 4, "random", 10 ** 6, "native").compiles


def test_the_new_statements_fall_back_by_name():
    """What the native engine has no twin for yet names itself: a pile's cards read whole, runs
    where a play names a player; flip's two-faced cards and stock kept in order, the rules' own
    `when the stock runs out` and random and basic seats' runs have theirs."""
    from unodsl.sim.engines import choose
    from unodsl.native.lower import Strings, Tables, lower_functions
    notes = {name: choose(load(name), 4, "random", 10 ** 6, "native").note
             for name in ("flip", "crazy-eights")}
    assert notes["flip"] == "engine: native (the rules compiled to machine code)"
    assert notes["crazy-eights"] == "engine: native (the rules compiled to machine code)"
    # a pile's cards read as a list, top card first (`stock.cards`): not lowered, said as what it is
    source = "def f(g):\n    return tuple(reversed(g.stock))\n"
    with pytest.raises(Unsupported, match=r"the call reversed\(\.\.\.\)"):
        lower_functions(source, Tables(Strings(()), {}, {}), set())
    runs = ROOT / "examples" / "runs" / "color-runs.uno"
    scenarios = yaml.safe_load(runs.with_suffix(".scenarios.yaml").read_text(encoding="utf-8"))
    rules = load(scenarios.get("ruleset", "classic"), (str(runs),)) if "module " in runs.read_text() else load(str(runs))
    assert choose(rules, 4, "random", 10 ** 6, "native").note == "engine: native (the rules compiled to machine code)"
    assert choose(rules, 4, "basic", 10 ** 6, "native").note == "engine: native (the rules compiled to machine code)"
    named = load(scenarios.get("ruleset", "classic"), ("seven-o", str(runs)))     # (a 7 names a player)
    assert choose(named, 4, "random", 10 ** 6, "native").note.endswith(
        "it has no code for runs of cards in rules where a card's play names a player)")


@pytest.mark.slow
def test_a_long_rule_written_once_plays_the_python_games_in_a_run_and_alone(tmp_path):
    """A long rule of a card's play is a function of its own that `play` calls (native.writer's
    `program`), but stays inline where each card of a run acts as it lands: both play the Python
    engine's games (slow: the module is compiled)."""
    rules = load(runs_each_acting(tmp_path))
    engine = native_engine(rules, 4, trace=TRACE)
    _same_games(engine, rules, 4, "random")
    sixes = {c for c in range(rules.size) if rules.cards.kind[c] == "number" and rules.cards.rank[c] == 6}
    trace = engine.play(SEEDS[0]).trace
    assert any(a[0] == b[0] == MOVES["play"] and a[1] == b[1] and a[2] in sixes for a, b in zip(trace, trace[1:])), \
        "a 6 is played inside a run, a card after it"


def test_hands_follow_any_order_of_seats_they_are_passed_in():
    """The runtime passes hands in place, a cycle of seats at a time (runtime._permute_hands):
    for any permutation of seven seats (seats left in place among them), each hand, and its
    copies of each card, lands at the seat the permutation sends it to."""
    import random

    import numba
    import numpy as np

    from unodsl.native import runtime as R
    from unodsl.native.engine import GameView

    @numba.njit
    def deal(g, seat, cards):
        for c in cards:
            R.hand_add(g, seat, c)

    @numba.njit
    def permute(g):
        R._permute_hands(g)

    rules = load("classic")
    engine = native_engine(rules, 7)
    rand = random.Random(7)
    for _ in range(40):
        g = engine.new_state()
        for seat in range(7):
            deal(g, seat, np.array(rand.choices(range(rules.size), k=rand.randint(0, 12)), np.int64))
        before = GameView(engine, g).hands
        order = list(range(7))
        rand.shuffle(order)
        for seat in rand.sample(range(7), rand.randint(0, 3)):      # some seats keep their hands
            order[order.index(seat)], order[seat] = order[seat], seat
        g[engine.offsets["perm"]:engine.offsets["perm"] + 7] = order
        permute(g)
        after = GameView(engine, g)
        assert after.hands == [before[order.index(seat)] for seat in range(7)], order
        assert after.copies == [[hand.count(c) for c in range(rules.size)] for hand in after.hands]
