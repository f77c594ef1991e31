"""Which engine plays a simulation (`simulate --engine auto|native|python`), and native runs.

The Python engine is the reference and plays everything. The native engine (unodsl.native, the
optional `native` extra) plays the same rules compiled to machine code, for the random and basic
bots (native.basic: basic's choices compiled too, where they are); when it cannot play a run (not
installed, the bots, a statement or ruleset it has no code for, a choice of basic's not compiled
yet) the run falls back to Python and `choose` says why in one line. `auto` takes native only
when the run is long enough to pay for compiling, or when the compiled code is already in the
cache.

A native run gives game i of a run the seed `native.portable.game_seed(seed, i)`: its statistics
do not depend on --jobs either, but its games are not the Python engine's games for that seed
(the two use different generators); tests/test_native.py holds the engines to the same games
when they share one generator.
"""
from __future__ import annotations

from collections import Counter
from typing import NamedTuple

ENGINES = ("auto", "native", "python")
NATIVE_BOTS = ("random", "basic")     # the bots the native engine plays
# Games from which `auto` compiles a ruleset it has not compiled yet, and from which it loads one
# it has, by bot: the Python engine plays a basic game in about fifteen times a random one's time.
AUTO_GAMES = {"random": 20_000, "basic": 2_000}
CACHED_AUTO_GAMES = {"random": 500, "basic": 100}
CHUNK = 5_000                 # games per call into compiled code (for the progress bar)


class Choice(NamedTuple):
    engine: str          # "native" or "python"
    note: str            # one line for the person: which engine, and why not native
    compiles: bool = False    # native, not yet compiled for these rules and table size


def choose(rules, players: int, bot: str, games: int, wanted: str = "auto") -> Choice:
    """The engine that plays this run, and a one-line note saying which and why."""
    if wanted == "python":
        return Choice("python", "engine: Python")
    from .. import native
    why = None
    if bot not in NATIVE_BOTS:          # said first: true whether or not the extra is installed
        why = f"the native engine plays only {', '.join(NATIVE_BOTS)} bots, not {bot} ones"
    elif not native.available():
        why = "the native engine is not installed (pip install 'unodsl[native]')"
    else:
        from ..native.engine import is_cached
        try:
            cached = is_cached(rules, players, bot)
        except native.Unsupported as missing:
            why = _why_not(rules, missing)
        else:
            if wanted == "auto" and games < (CACHED_AUTO_GAMES if cached else AUTO_GAMES)[bot]:
                why = (f"{games:,} games are too few to pay for "
                       f"{'loading' if cached else 'compiling'} the native engine")
    if why is not None:
        return Choice("python", f"engine: Python ({why})")
    return Choice("native", "engine: native (the rules compiled to machine code)", not cached)


def _why_not(rules, missing) -> str:
    """What keeps the native engine from a run, in plain words: a choice of the bot's it has not
    compiled (said as it is), or what in the rules it has no code for."""
    from ..native.basic import BotUnsupported
    if isinstance(missing, BotUnsupported):
        return str(missing)
    return f"the native engine cannot run {rules.title}: it has no code for {missing}"


def prepare(rules, players: int, bot: str = "random") -> Choice:
    """Compile (or load from the cache) the native engine before worker processes start, so that
    they inherit it, or find it on disk, instead of each compiling it. Code numba refuses to
    compile (a gap of the native engine) is refused like any other: the Python engine plays."""
    from ..native import Unsupported, native_engine
    try:
        native_engine(rules, players, bot=bot)
    except Unsupported as missing:
        return Choice("python", f"engine: Python ({_why_not(rules, missing)})")
    return Choice("native", "engine: native (the rules compiled to machine code)")


def simulate_native(rules, players: int, games: int, seed: int = 0, first: int = 0, progress=None,
                    bot: str = "random"):
    """Games first .. first+games-1 of the native run seeded `seed` with `bot` in every seat, as
    sim.simulate.Stats."""
    from ..native import native_engine
    from .simulate import WIN_UNIT, Stats
    engine = native_engine(rules, players, bot=bot)
    stats = Stats(players)
    state = engine.new_state()
    for start in range(first, first + games, CHUNK):
        count = min(CHUNK, first + games - start)
        stats.merge(_stats(rules, players, engine.run(count, seed, start, WIN_UNIT, state), count))
        if progress is not None:
            progress(count)
    return stats


def _stats(rules, players: int, t, games: int):
    """The engine's raw totals (native.engine.Totals) as the Stats of the games they add up."""
    from .simulate import Stats
    from .statistics import teams_of
    stats = Stats(players, games=games)
    stats.turns = Counter({int(k): int(t.hist[k]) for k in t.hist.nonzero()[0]})
    (stats.turns_sq, stats.rounds, stats.drawn, stats.reshuffles, stats.stock_empty,
     stats.eliminations, stats.stalemates, stats.points, stats.drawn_sq, stats.reshuffles_sq, stats.rounds_sq,
     stats.eliminations_sq) = (
        int(x) for x in t.totals)
    stats.peak = {name: int(v) for name, v in zip(rules.counters, t.peaks) if v > 0}   # as Game keeps them
    stats.wins = [int(x) for x in t.wins]
    stats.won = [int(x) for x in t.won]
    stats.teams = tuple(t.teams)
    for seats in teams_of(t.teams):
        stats.team_won[seats] += int(t.team_won[t.teams[seats[0]]])
    return stats
