#!/usr/bin/env python3
"""The native engine against the Python engine (and minimal_uno.py), side by side in one process.

Every engine runs its share of games in turn, repeat after repeat, and each figure is the median
over the repeats, so a busy machine slows them all alike: read the ratios. Whole games with random
bots (the bots the native engine plays), as `unodsl simulate --bots random` plays them:

  python    unodsl.sim.simulate.simulate (the Python engine's simulator loop)
  native    unodsl.sim.engines.simulate_native (the rules compiled by numba)
  minimal   ../shared/bench/minimal_uno.py, the lean hand-written loop (two players, one round
            a game; when present)

Then the start of a run, each in a fresh process: compiling a ruleset with an empty cache, compiling
it after another ruleset was compiled (numba's code for the shared runtime then comes from the
cache), and loading it from the cache. With --agreement N, instead, both engines play N games of each
bundled ruleset, module and example they share at 2, 4 and 7 players, and every statistic is compared by
a two-sample test (turns, cards drawn and reshuffles per game: Welch's z on the means; wins by
seat: a chi-square test of the two engines' counts), flagging |z| > 4 or p < 1e-4; random bots in
every seat, or basic ones with --bot basic (random seats never act out of turn: basic's do, in the
windows the module keeps). With --basic,
instead, whole games of classic at 4 players with the default basic bots in every seat, the
Python engine (basic played inside its generated loop) against the native one (native.basic), in
games per second; killer, speed and classic with jump-in (and seven-o) against classic per turn,
basic bots on the Python engine; natively, per turn against classic, the rulesets whose basic seats act
out of turn (classic with jump-in, killer, speed, deadly); and the native engine's start with basic bots
(classic, and classic with jump-in, whose module keeps the windows basic acts in). With --start, only
the starts (random and basic bots), medians of the repeats, in the processes of --start-python when
given, each its wall time and its CPU time (user + system, its workers' included); with
--start-against TREE, the start of the unodsl in that source folder too (another version), the two
in turn.

usage: python bench/bench_native.py [--games N] [--repeats R]
                                   [--seed S] [--agreement N [--enough Z] [--units NAMES] [--bot random|basic]] [--basic]
                                   [--start [--start-against TREE]] [--start-python PYTHON]
"""
from __future__ import annotations

import argparse
import math
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from unodsl import load  # noqa: E402
from unodsl.compile.loader import bundled_names  # noqa: E402
from unodsl.native import Unsupported, native_engine  # noqa: E402
from unodsl.sim.engines import simulate_native  # noqa: E402
from unodsl.sim.simulate import simulate  # noqa: E402

REFERENCE = HERE.parent.parent / "shared" / "bench" / "minimal_uno.py"
START_PYTHON = sys.executable        # the interpreter whose fresh processes are timed to start
CASES = [("classic", (), 2), ("classic", (), 4), ("killer", (), 4), ("speed", (), 4), ("classic", ("jump-in",), 4),
         ("classic", ("seven-o", "jump-in"), 4)]


def _turns(stats) -> int:
    return sum(t * c for t, c in stats.turns.items())


def _python(rules, players, games, seed, bot="random"):
    start = time.perf_counter()
    stats = simulate(rules, players, games, seed, bot)
    return time.perf_counter() - start, _turns(stats), games


def _native(rules, players, games, seed, bot="random"):
    start = time.perf_counter()
    stats = simulate_native(rules, players, games, seed, bot=bot)
    return time.perf_counter() - start, _turns(stats), games


def _minimal():
    if not REFERENCE.exists():
        return None
    import importlib.util
    spec = importlib.util.spec_from_file_location("minimal_uno", REFERENCE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    def run(games, seed):
        rand = random.Random(seed).random
        start = time.perf_counter()
        turns = sum(module.play_game(rand)[0] for _ in range(games))
        return time.perf_counter() - start, turns, games
    return run


OTHER_RULESET = "crazy-eights"      # compiled first, for the start of a ruleset after a machine's first

START = """import time, sys
t = time.perf_counter()
from unodsl import load
from unodsl.native import native_engine
name, *mods = sys.argv[1].split("+")                # a ruleset and its modules: classic+jump-in
native_engine(load(name, tuple(mods)), int(sys.argv[2]), bot=sys.argv[3])    # compiled, or loaded, and run once
print(time.perf_counter() - t)
"""
WINDOWS_UNIT = "classic+jump-in"    # basic acts out of turn natively (native.windows): its start too


class Start(NamedTuple):
    """Seconds from a fresh process to a ready engine (wall: as the process itself measures it,
    from before its first import), and the CPU time (user + system) of that process and of every
    process it waited for (`RUSAGE_CHILDREN`: compiling in workers is counted)."""
    wall: float
    cpu: float


def _start_env(tree: str | None) -> dict:
    """The environment of a timed start: this one's, with `tree` first on the path when given, and
    Python's byte code kept (PYTHONDONTWRITEBYTECODE, set in some shells and containers, would have
    every start compile unodsl's modules from their source again, a third of a second here, which an
    installed unodsl does not do)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join([tree] + [p for p in [os.environ.get("PYTHONPATH")] if p])
    return env


def _write_byte_code(tree: str | None) -> None:
    """Import what a start imports, untimed, so that the first timed start finds its byte code."""
    subprocess.run([START_PYTHON, "-c", "import unodsl, unodsl.native.engine, unodsl.native.build"],
                   env=_start_env(tree), capture_output=True, check=True, cwd=tree or HERE.parent)


def start_times(name: str, players: int, bot: str = "random", tree: str | None = None) -> tuple[Start, Start, Start]:
    """Seconds from a fresh process to a ready engine: with an empty cache, then with it filled;
    and compiling it where another ruleset was compiled before (numba's compilation of the
    runtime every module calls is then on disk: what every ruleset after a machine's first
    pays). The process is START_PYTHON's: what else is installed beside numba counts (numba
    imports SciPy's BLAS when SciPy is there, as the `test` extra brings it). With `tree`, the
    unodsl of that source folder (another version, to compare) is the one started."""
    env = _start_env(tree)
    _write_byte_code(tree)

    def timed(cache: str, ruleset: str) -> Start:
        run = [START_PYTHON, "-c", START, ruleset, str(players), bot]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(run, env={**env, "UNODSL_CACHE": cache, "NUMBA_CACHE_DIR": cache},
                              capture_output=True, text=True, check=True, cwd=tree or HERE.parent)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return Start(float(done.stdout), cpu)

    with tempfile.TemporaryDirectory() as cache:
        first = timed(cache, name)                  # nothing compiled before
        cached = timed(cache, name)
    with tempfile.TemporaryDirectory() as cache:
        timed(cache, OTHER_RULESET)
        after_other = timed(cache, name)
    return first, cached, after_other


def speed(args) -> int:
    engines, cases = {}, []
    for name, mods, players in CASES:
        rules = load(name, mods)
        label = "+".join((name, *mods)) + f", {players}p"
        try:
            native_engine(rules, players)
        except Unsupported as missing:
            print(f"{label}: not run natively ({missing})")
            continue
        cases.append((label, name))
        # the Python engine plays far fewer games in the same time
        engines[f"python  {label}"] = lambda s, r=rules, p=players: _python(r, p, max(20, args.games // 40), s)
        engines[f"native  {label}"] = lambda s, r=rules, p=players: _native(r, p, args.games, s)
    minimal = _minimal()
    if minimal is not None:
        engines["minimal_uno.py, 2p, one round"] = lambda s: minimal(args.games // 4, s)
    us, rate = {k: [] for k in engines}, {k: [] for k in engines}
    for r in range(args.repeats):
        for name, run in engines.items():
            seconds, turns, games = run(args.seed + r * 100_000)
            us[name].append(seconds / turns * 1e6)
            rate[name].append(games / seconds)
    med = {k: statistics.median(v) for k, v in us.items()}
    gps = {k: statistics.median(v) for k, v in rate.items()}
    print(f"python {sys.version.split()[0]}, {args.repeats} repeats, medians (random bots, whole games)")
    print(f"{'engine':<34} {'us/turn':>8} {'games/s':>10}")
    for name in engines:
        print(f"{name:<34} {med[name]:8.3f} {gps[name]:10.0f}")
    print("ratios:")
    for label, _ in cases:
        print(f"  native / python, {label:<22} {med['native  ' + label] / med['python  ' + label]:6.3f}x per turn")
    if minimal is not None:
        ref = med["minimal_uno.py, 2p, one round"]
        print(f"  native classic 2p / minimal_uno     {med['native  classic, 2p'] / ref:6.3f}x per turn (target <= 0.25x)")
        print(f"  python classic 2p / minimal_uno     {med['python  classic, 2p'] / ref:6.3f}x per turn")
    for label, _ in cases[2:]:
        for engine in ("native", "python"):
            ratio = med[f"{engine}  {label}"] / med[f"{engine}  classic, 4p"]
            print(f"  {engine} {label} / classic 4p{'':<4} {ratio:6.3f}x per turn (target <= 2x)")
    print_start("random", *start_times("classic", 4))
    return 0


def basic_speed(args) -> int:
    """Whole games of classic, 4 players, basic bots: the Python engine against the native one;
    then the native engine per turn for the rulesets that act out of turn against classic."""
    rules, players = load("classic"), 4
    native_engine(rules, players, bot="basic")       # compiled (or loaded) before any timing
    python_games = max(20, args.games // 40)
    engines = {"python": lambda s: _python(rules, players, python_games, s, "basic"),
               "native": lambda s: _native(rules, players, args.games, s, "basic")}
    rate = {k: [] for k in engines}
    us = {k: [] for k in engines}
    for r in range(args.repeats):
        for name, run in engines.items():
            seconds, turns, games = run(args.seed + r * 100_000)
            rate[name].append(games / seconds)
            us[name].append(seconds / turns * 1e6)
    gps = {k: statistics.median(v) for k, v in rate.items()}
    med = {k: statistics.median(v) for k, v in us.items()}
    print(f"python {sys.version.split()[0]}, {args.repeats} repeats, medians (classic, 4 players, basic bots, "
          f"whole games; python {python_games} games a repeat, native {args.games})")
    print(f"{'engine':<10} {'us/turn':>8} {'games/s':>10}")
    for name in engines:
        print(f"{name:<10} {med[name]:8.3f} {gps[name]:10.1f}")
    print(f"ratio: native / python {gps['native'] / gps['python']:.1f}x the games per second (target >= 10x)")
    basic_native_rulesets(args)
    basic_rulesets(args)
    print_start("basic", *start_times("classic", players, "basic"))
    print_start("basic", *start_times(WINDOWS_UNIT, players, "basic"), unit=WINDOWS_UNIT)
    return 0


# basic seats natively, per turn, against classic: where they act out of turn (native.windows)
NATIVE_BASIC = [("classic", (), "basic"), ("classic", ("jump-in",), "basic"), ("killer", (), "basic"),
                ("speed", (), "basic"), ("classic", ("seven-o", "jump-in"), "basic"), ("classic", ("deadly",), "basic")]


def basic_native_rulesets(args) -> None:
    """Per turn with basic bots natively, 4 players, all taken in turn each repeat: the rulesets
    whose basic seats act out of turn against classic (those the native engine does not play
    basic in are named, with why)."""
    cases = {}
    for name, mods, bot in NATIVE_BASIC:
        label = "+".join((name, *mods)) + ("" if bot == "basic" else f" ({bot})")
        rules = load(name, mods)
        try:
            native_engine(rules, 4, bot=bot)        # compiled (or loaded) before any timing
        except Unsupported as missing:
            print(f"  {label}: not run natively ({missing})")
            continue
        cases[label] = (rules, bot)
    us: dict = {}
    for r in range(args.repeats):
        for label, (rules, bot) in cases.items():
            seconds, turns, _ = _native(rules, 4, args.games, args.seed + r * 100_000, bot)
            us.setdefault(label, []).append(seconds / turns * 1e6)
    med = {k: statistics.median(v) for k, v in us.items()}
    print(f"basic bots, native engine, 4 players, {args.games} games a repeat, medians:")
    for label, value in med.items():
        print(f"  {label:<28} {value:8.3f} us/turn  {value / med['classic']:5.2f}x classic")


def basic_rulesets(args) -> None:
    """Per turn with basic bots on the Python engine: killer, speed and classic with jump-in (and
    seven-o) against classic, 4 players, all taken in turn each repeat (where the native engine
    does not play basic's choices in them, as `simulate` says, the Python engine plays)."""
    games = max(10, args.games // 100)
    cases = {"+".join((name, *mods)): load(name, mods) for name, mods, players in CASES if players == 4}
    us: dict = {}
    for rules in cases.values():    # the rules' knowledge and generated code, before any timing
        _python(rules, 4, 2, args.seed - 1, "basic")
    for r in range(args.repeats):
        for label, rules in cases.items():
            seconds, turns, _ = _python(rules, 4, games, args.seed + r * 100_000, "basic")
            us.setdefault(label, []).append(seconds / turns * 1e6)
    med = {k: statistics.median(v) for k, v in us.items()}
    print(f"basic bots, Python engine, 4 players, {games} games a repeat, medians:")
    for label, value in med.items():
        print(f"  {label:<28} {value:8.2f} us/turn  {value / med['classic']:5.2f}x classic (target <= 2x)")


def print_start(bot: str, first: Start, cached: Start, after_other: Start, note: str = "", label: str = "",
                unit: str = "classic") -> None:
    print(f"start of a run{label}, {unit} 4p, {bot} bots (fresh processes of {START_PYTHON}{note}): "
          f"compiling {first.wall:.1f} s (CPU {first.cpu:.1f} s) with an empty cache, {after_other.wall:.1f} s "
          f"(CPU {after_other.cpu:.1f} s) after another ruleset ({OTHER_RULESET}) was compiled; from the cache "
          f"{cached.wall:.2f} s (CPU {cached.cpu:.2f} s) (targets: < 10 s, < 1 s)")


def _median_start(times: list) -> tuple:
    return tuple(Start(*(statistics.median(getattr(t[i], f) for t in times) for f in Start._fields)) for i in range(3))


def starts(args) -> int:
    """Only the start of a run, random and basic bots, medians of the repeats; with --start-against,
    that source folder's start too, the two taken in turn each repeat."""
    trees = {"": None}
    if args.start_against:
        trees = {f" ({Path(args.start_against).name})": args.start_against, " (this tree)": None}
    for unit, bot in (("classic", "random"), ("classic", "basic"), (WINDOWS_UNIT, "basic"), ("killer", "basic"),
                      ("speed", "basic")):
        times: dict = {label: [] for label in trees}
        for _ in range(args.repeats):
            for label, tree in trees.items():
                times[label].append(start_times(unit, 4, bot, tree))
        for label in trees:
            print_start(bot, *_median_start(times[label]), f", medians of {args.repeats}", label, unit)
    return 0


# ---- agreement --------------------------------------------------------------------------------
def _welch(a_mean, a_var, a_n, b_mean, b_var, b_n) -> float:
    se = math.sqrt(a_var / a_n + b_var / b_n)
    return 0.0 if se == 0 else (a_mean - b_mean) / se


def _chi2_p(a: list, b: list) -> float:
    """p-value of a chi-square test that two count vectors come from one distribution."""
    na, nb = sum(a), sum(b)
    stat, dof = 0.0, -1
    for x, y in zip(a, b):
        total = x + y
        if total == 0:
            continue
        dof += 1
        for seen, n in ((x, na), (y, nb)):
            expected = total * n / (na + nb)
            stat += (seen - expected) ** 2 / expected
    if dof <= 0:
        return 1.0
    # Wilson-Hilferty: the chi-square tail through a normal one
    z = ((stat / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / math.sqrt(2 / (9 * dof))
    return 0.5 * math.erfc(z / math.sqrt(2))


def _examples() -> list:
    """(ruleset, modules) of each example: a ruleset file alone, a module on the ruleset its
    scenarios name (classic when they name none)."""
    import yaml
    out = []
    for path in sorted((HERE.parent / "examples").rglob("*.uno")):
        if any(line.lstrip().startswith("module ") for line in path.read_text(encoding="utf-8").splitlines()):
            scenarios = path.with_suffix(".scenarios.yaml")
            host = yaml.safe_load(scenarios.read_text(encoding="utf-8")).get("ruleset", "classic") if scenarios.exists() else "classic"
            out.append((host, (str(path),)))
        else:
            out.append((str(path), ()))
    return out


def _unit_label(name: str, mods: tuple) -> str:
    """A ruleset and its modules as the agreement run names them: classic+jump-in."""
    return "+".join(Path(p).stem for p in (name, *mods))


def _games_to_catch(stats, games: int, z: float) -> int:
    """How many more games than `games` make a 1% difference of turns per game show as `z`
    (Welch's z of two runs of as many games each, their spread estimated from `stats`); 0 when
    `games` are enough, or no z is asked for."""
    if z <= 0 or stats.var_turns() == 0:
        return 0
    shows = 0.01 * stats.mean_turns() / math.sqrt(2 * stats.var_turns() / games)
    return max(0, math.ceil(games * (z / shows) ** 2) - games)


def agreement(args) -> int:
    units = [(n, ()) for n, kind, _ in bundled_names() if kind == "ruleset"]
    units += [("classic", (n,)) for n, kind, _ in bundled_names() if kind == "module"]
    units += _examples()
    if args.units:
        wanted = set(args.units.split(","))
        units = [(name, mods) for name, mods in units if _unit_label(name, mods) in wanted]
        if not units:
            raise SystemExit(f"no unit is named {args.units}")
    bad = 0
    bot = args.bot
    print(f"{args.agreement:,} games per engine" + (f" or more, enough for a 1% difference of turns to show as z "
          f"{args.enough:g}" if args.enough else "") + f"; {bot} bots; flagged: |z| > 4 or p < 1e-4")
    for name, mods in units:
        rules = load(name, mods)
        low, high = rules.players
        sizes = sorted({low, min(high, 4), min(high, 7)})
        if args.players:
            sizes = [n for n in sorted(set(args.players)) if low <= n <= high]
        for players in sizes:
            label = f"{_unit_label(name, mods)}, {players}p"
            try:
                native_engine(rules, players, bot=bot)
            except Unsupported as missing:
                print(f"  {label:<28} not run natively: {missing}")
                break
            a = simulate(rules, players, args.agreement, args.seed, bot)
            more = _games_to_catch(a, args.agreement, args.enough)
            if more:                    # the same run of seeds, on from where it stopped
                a.merge(simulate(rules, players, more, args.seed, bot, first=args.agreement))
            b = simulate_native(rules, players, a.games, args.seed + 1, bot=bot)    # other games
            z = {"turns": _welch(a.mean_turns(), a.var_turns(), a.games, b.mean_turns(), b.var_turns(), b.games)}
            for stat, said in (("drawn", "cards drawn"), ("reshuffles", "reshuffles"), ("rounds", "rounds"),
                               ("eliminations", "eliminations")):
                z[said] = _welch(*a.spread(stat), a.games, *b.spread(stat), b.games)
            p = _chi2_p(a.won, b.won)
            flags = [k for k, v in z.items() if abs(v) > 4] + (["wins by seat"] if p < 1e-4 else [])
            bad += bool(flags)
            one_percent = 0.01 * a.mean_turns() / math.sqrt(a.var_turns() / a.games + b.var_turns() / b.games)
            games = f" ({a.games:,} games)" if a.games != args.agreement else ""
            print(f"  {label + games:<28} turns {a.mean_turns():8.2f} vs {b.mean_turns():8.2f} (z {z['turns']:+.2f};"
                  f" a 1% difference: z {one_percent:.1f})"
                  f"  drawn/game {a.drawn / a.games:7.2f} vs {b.drawn / b.games:7.2f} (z {z['cards drawn']:+.2f})"
                  f"  reshuffles/game {a.reshuffles / a.games:5.2f} vs {b.reshuffles / b.games:5.2f}"
                  f" (z {z['reshuffles']:+.2f})  rounds/game {a.rounds / a.games:6.2f} vs {b.rounds / b.games:6.2f}"
                  f" (z {z['rounds']:+.2f})" + (f"  eliminations/game {a.eliminations / a.games:6.2f} vs "
                  f"{b.eliminations / b.games:6.2f} (z {z['eliminations']:+.2f})" if a.eliminations or b.eliminations else "") +
                  f"  wins by seat p={p:.3f}" + (f"   DIFFERS: {', '.join(flags)}" if flags else ""))
    return 1 if bad else 0


def main() -> int:
    global REFERENCE, START_PYTHON
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=4000, help="native games per repeat (default: 4000)")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1,
                    help="the run's seed (default 1; with --agreement, the Python engine's, the native engine's one more)")
    ap.add_argument("--agreement", type=int, metavar="N", default=0,
                    help="instead of timing, compare the engines' statistics over N games each")
    ap.add_argument("--enough", metavar="Z", type=float, default=0.0,
                    help="with --agreement: per unit, as many more games as a 1%% difference of turns "
                         "per game needs to show as z Z (4: as the flag)")
    ap.add_argument("--units", metavar="NAMES", default="",
                    help="with --agreement: only these units, comma-separated (classic,classic+jump-in)")
    ap.add_argument("--players", metavar="N,N", default="",
                    help="with --agreement: only these table sizes, comma-separated (default: each unit's "
                         "fewest, 4 and 7, as it allows)")
    ap.add_argument("--bot", choices=("random", "basic"), default="random",
                    help="with --agreement: the bot in every seat (default: random, whose seats never act out of "
                         "turn; basic acts in the windows)")
    ap.add_argument("--basic", action="store_true",
                    help="instead, whole games of classic 4p with basic bots: Python against native")
    ap.add_argument("--start", action="store_true",
                    help="instead, only the start of a run (compiling, then loading): classic with random and "
                         "basic bots, classic with jump-in, killer and speed with basic bots")
    ap.add_argument("--start-against", metavar="TREE", default="",
                    help="with --start: also time the start of the unodsl in this source folder (another "
                         "version, e.g. `git archive main | tar -x -C TREE`), the two in turn each repeat")
    ap.add_argument("--reference", metavar="FILE", default=str(REFERENCE),
                    help="the hand-written reference loop (default: ../shared/bench/minimal_uno.py)")
    ap.add_argument("--start-python", metavar="PYTHON", default=START_PYTHON,
                    help="the interpreter whose start is timed (default: this one), e.g. that of a "
                         "virtual environment with only the native extra installed")
    args = ap.parse_args()
    try:
        args.players = [int(n) for n in args.players.split(",")] if args.players else []
    except ValueError:
        ap.error(f"--players: `{args.players}` is not a list of whole numbers such as 7 or 2,4")
    REFERENCE, START_PYTHON = Path(args.reference), args.start_python
    if args.basic:
        return basic_speed(args)
    if args.start:
        return starts(args)
    return agreement(args) if args.agreement else speed(args)


if __name__ == "__main__":
    sys.exit(main())
