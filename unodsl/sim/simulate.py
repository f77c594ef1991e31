"""Simulation: many whole games with bots, summarised as the statistics a designer reads.

Statistics are streamed into counters and histograms (no per-game records), so memory stays flat
however many games run. Game i uses a seed derived from the run's seed and i alone, so the same
seed gives the same statistics whether the games run in one process, several (--jobs) or on a
cluster: each worker plays a range of game indices and the partial statistics are merged.
"""
from __future__ import annotations

import math
import os
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from ..compile.decisions import Action
from ..compile.codegen import bot_loop_gap
from ..compile.ruleset import Ruleset
from ..engine.bots import make_bot
from ..engine.game import Game

WIN_UNIT = 2520     # divisible by every table size from 1 to 10, so shared wins stay whole numbers


def game_seed(seed: int, index: int) -> int:
    return random.Random(f"unodsl:{seed}:{index}").getrandbits(63)


def play_game(rules: Ruleset, players: int, seed: int, bot="basic", record: bool = True,
              rounds: int | None = None, inline: bool = True, generated: bool = True,
              rng: random.Random | None = None, watch=None) -> Game:
    """Play one whole game (or `rounds` rounds of it) with bots in every seat; return the game.

    `bot` names the bot of every seat (engine.bots.make_bot), or is a list of names, one per seat.
    `watch(game, seat)`, when given, is called after every action a seat takes when the game
    asks it (out-of-turn ones aside); no turn is then played inside the turn loop, out of sight.

    With record=False the game keeps no event log and the bots' choices, always taken from the
    engine's own list of legal actions, are applied without being checked again: the fast path.
    Bots that allow it (`inline_ok`, the random bot) are then played inside the generated turn
    loop itself, with the same choices (inline=False turns that off, and generated=False runs
    the generic turn loop instead of the generated one: both for tests).
    Races and chance events for the table are decided at random. A recorded game has its own
    generator, so that its log replays from the seed alone, and the bots and the table share a
    second one; with no log, all draw from one (seeding a generator costs as much as a turn),
    `rng` when given (the tests give the native engine's generator, to play its games)."""
    rng = rng if rng is not None else random.Random(seed ^ 0x5EED)
    specs = [bot] * players if isinstance(bot, str) else list(bot)
    bots = [make_bot(spec, rng) for spec in specs]
    inline_all = all(plays_inline(b, rules, players) and type(b) is type(bots[0]) for b in bots)
    seat_bot = bots[0] if inline and not record and inline_all and watch is None else None
    game = Game(rules, players, seed=seed, record=record, seat_bot=seat_bot, rng=None if record else rng,
                generated=generated)
    deal = Action(None, "deal")
    apply = game.apply if record else game.apply_trusted
    chooser = rng
    turn_choosers = [getattr(b, "choose_turn", None) for b in bots]     # bots with a faster way to play a turn
    while not game.game_over and game.decision is not None:
        if game._out_of_turn_due:          # the round's last choice, made inside the turn loop
            _offer_due(game)
        d = game.decision
        if d.kind == "deal":
            if rounds is not None and game.round >= rounds:
                break
            apply(deal)
            continue
        if d.seat is None:
            options = game.legal_actions()
            apply(options[int(chooser.random() * len(options))])
            continue
        choose_turn = turn_choosers[d.seat]
        if choose_turn is not None and d.kind == "turn" and not record and game.only_plays_or_draw(d.seat):
            apply(choose_turn(game, d.seat))
        else:
            apply(bots[d.seat].choose(game, game.legal_actions()))
        if watch is not None:
            watch(game, d.seat)
        if game.windows:
            game.offer_out_of_turn(bots, chooser)
    if game._out_of_turn_due:
        _offer_due(game)
    return game


def _offer_due(game: Game) -> None:
    """Out-of-turn actions after the last choice of a round played inside the turn loop, taken
    with the next round's deal (or the game's end) waiting, as the step API takes them."""
    game._out_of_turn_due = False
    if game.windows:
        game.offer_out_of_turn()


def plays_inline(bot, rules: Ruleset, players: int) -> bool:
    """Whether the simulator may play this bot inside the generated turn loop: the random bot
    written out there (`inline_ok`), or a bot that says it chooses there as it does through the
    step API (`inline_for(rules, players)`), in rules whose loop can ask it (codegen.bot_loop_gap)."""
    if getattr(bot, "inline_ok", False):
        return True
    inline_for = getattr(bot, "inline_for", None)
    return callable(inline_for) and bot_loop_gap(rules) is None and bool(inline_for(rules, players))


def play_round_fast(rules: Ruleset, players: int, seed: int, bot: str = "random") -> Game:
    """One round on the fast path (the benchmark's unit of work)."""
    return play_game(rules, players, seed, bot, record=False, rounds=1)


def _variance(n: int, mean: float, sum_sq: int) -> float:
    """The sample variance of n values from their mean and the sum of their squares."""
    if n < 2:
        return 0.0
    return max(0.0, (sum_sq - n * mean * mean) / (n - 1))


@dataclass
class Stats:
    """Running totals over finished games; `merge` adds another run's totals."""
    players: int
    games: int = 0
    turns: Counter = field(default_factory=Counter)     # game length -> number of games
    turns_sq: int = 0
    rounds: int = 0
    rounds_sq: int = 0
    drawn: int = 0
    drawn_sq: int = 0                                    # (the squares of per-game counts, for their spread)
    reshuffles: int = 0
    reshuffles_sq: int = 0
    stock_empty: int = 0
    stalemates: int = 0
    eliminations: int = 0
    eliminations_sq: int = 0
    points: int = 0
    peak: dict = field(default_factory=dict)             # counter -> largest value seen
    wins: list = field(default_factory=list)             # in units of 1/2520 of a game: ties split exactly
    won: list = field(default_factory=list)              # games each seat won, alone or tied
    teams: tuple = ()                                    # the team of each seat (from the first game)
    team_won: Counter = field(default_factory=Counter)   # seats of a team -> games the team won

    def __post_init__(self):
        if not self.wins:
            self.wins = [0] * self.players
        if not self.won:
            self.won = [0] * self.players

    def add(self, game: Game) -> None:
        self.games += 1
        self.turns[game.turns] += 1
        self.turns_sq += game.turns * game.turns
        self.rounds += game.round
        self.rounds_sq += game.round * game.round
        drawn, reshuffles = game.stats["drawn"], game.stats["reshuffles"]
        self.drawn += drawn
        self.drawn_sq += drawn * drawn
        self.reshuffles += reshuffles
        self.reshuffles_sq += reshuffles * reshuffles
        self.stock_empty += game.stats["stock_empty"]
        eliminations = game.stats["eliminations"]
        self.eliminations += eliminations
        self.eliminations_sq += eliminations * eliminations
        self.stalemates += bool(game.stalemate)
        self.points += sum(max(0, s) for s in game.scores)
        for name, value in game.counter_peaks.items():
            self.peak[name] = max(self.peak.get(name, 0), value)
        if not self.teams:
            self.teams = tuple(game.teams)
        if game.game_winners and max(game.teams) < self.players - 1:     # partners at the table
            from .statistics import teams_of
            for seats in teams_of(game.teams):
                if any(s in game.game_winners for s in seats):
                    self.team_won[seats] += 1
        if game.game_winners:
            share = WIN_UNIT // len(game.game_winners)
            for s in game.game_winners:
                self.wins[s] += share
                self.won[s] += 1

    def merge(self, other: "Stats") -> None:
        self.games += other.games
        self.turns.update(other.turns)
        for name in ("turns_sq", "rounds", "rounds_sq", "drawn", "drawn_sq", "reshuffles", "reshuffles_sq",
                     "stock_empty", "stalemates", "eliminations", "eliminations_sq", "points"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name, value in other.peak.items():
            self.peak[name] = max(self.peak.get(name, 0), value)
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]
        self.won = [a + b for a, b in zip(self.won, other.won)]
        self.teams = self.teams or other.teams
        self.team_won.update(other.team_won)

    def percentile(self, q: float) -> int:
        """The smallest game length with at least q of the games at or below it."""
        need = max(1, math.ceil(q * self.games))
        seen = 0
        for value in sorted(self.turns):
            seen += self.turns[value]
            if seen >= need:
                return value
        return 0

    def mean_turns(self) -> float:
        return sum(v * c for v, c in self.turns.items()) / max(1, self.games)

    def var_turns(self) -> float:
        return _variance(self.games, self.mean_turns(), self.turns_sq)

    def spread(self, name: str) -> tuple:
        """(mean, variance) per game of `drawn`, `reshuffles`, `rounds` or `eliminations`."""
        n = max(1, self.games)
        mean = getattr(self, name) / n
        return mean, _variance(self.games, mean, getattr(self, name + "_sq"))

    def summary(self) -> dict:
        """Every statistic as plain data (counts as integers); win shares with Wilson intervals,
        by seat and, in a team game, by team."""
        from .statistics import seat_label, teams_of, wilson
        n = max(1, self.games)

        def share_row(seats) -> dict:
            p = sum(self.wins[s] for s in seats) / WIN_UNIT / n
            lo, hi = wilson(p, self.games)
            won = self.won[seats[0]] if len(seats) == 1 else self.team_won[seats]
            return {"seat": seat_label(seats), "wins": won, "share": round(p, 4),
                    "ci95": [round(lo, 4), round(hi, 4)]}
        out = {
            "games": self.games,
            "turns_per_game": {"mean": round(self.mean_turns(), 2), "median": self.percentile(0.5),
                               "p95": self.percentile(0.95)},
            "rounds_per_game": round(self.rounds / n, 2),
            "points_per_game": round(self.points / n, 2),
            "cards_drawn_per_game": round(self.drawn / n, 2),
            "reshuffles_per_game": round(self.reshuffles / n, 2),
            "stock_ran_dry_per_game": round(self.stock_empty / n, 2),
            "eliminations_per_game": round(self.eliminations / n, 2),
            "largest_counter": dict(sorted(self.peak.items())),
            "stalemates": self.stalemates,
            "wins_by_seat": [share_row((s,)) for s in range(self.players)],
        }
        teams = teams_of(self.teams)
        if teams:
            out["wins_by_team"] = [share_row(seats) for seats in teams]
        return out


@dataclass(frozen=True)
class Job:
    """What a worker needs to play a range of games. The rules travel as names plus the texts of
    the user's own files (`files`: path and text pairs), so a worker on another machine, which
    cannot see those files, compiles exactly the rules the user gave; `version` and
    `fingerprint` say which unodsl and which bundled rules the sender had."""
    ref: str
    with_: tuple
    options: tuple
    players: int
    seed: int
    bot: str
    first: int
    count: int
    files: tuple = ()
    version: str = ""
    fingerprint: str = ""
    against: tuple | None = None         # (ref, with_, options) of B, for a paired comparison
    engine: str = "python"               # the engine that plays (sim.engines: "python" or "native")

    def label(self) -> str:
        return f"games {self.first + 1:,} to {self.first + self.count:,}"


_WORKER_RULES: dict = {}


def _rules_of(ref: str, with_: tuple, options: tuple, files: tuple) -> Ruleset:
    """Compiled rules, once per worker process (compiling costs more than a chunk of games)."""
    key = (ref, with_, options, files)
    if key not in _WORKER_RULES:
        from ..compile.loader import load
        _WORKER_RULES.clear()
        _WORKER_RULES[key] = load(ref, with_, dict(options), files=dict(files) or None)
    return _WORKER_RULES[key]


def run_job(job: Job):
    """Play a job's games: Stats, or for a comparison the paired statistics of A and B."""
    rules = _rules_of(job.ref, job.with_, job.options, job.files)
    if job.against is None:
        return simulate(rules, job.players, job.count, job.seed, job.bot, first=job.first, engine=job.engine)
    from .statistics import simulate_paired
    ref_b, with_b, options_b = job.against
    rules_b = _rules_of(ref_b, with_b, options_b, job.files)
    return simulate_paired(rules, rules_b, job.players, job.count, job.seed, job.bot, first=job.first)


def simulate(rules: Ruleset, players: int, games: int, seed: int = 0, bot: str = "basic",
             first: int = 0, progress=None, engine: str = "python") -> Stats:
    """Games first .. first+games-1 of the run seeded `seed`, played by `engine` (the Python
    engine, or native when sim.engines.choose said so)."""
    if engine == "native":
        from .engines import simulate_native
        return simulate_native(rules, players, games, seed, first, progress, bot)
    stats = Stats(players)
    for i in range(first, first + games):
        stats.add(play_game(rules, players, game_seed(seed, i), bot, record=False))
        if progress is not None:
            progress(1)
    return stats


def chunks(games: int, parts: int, largest: int = 500):
    """(first, count) ranges covering games, small enough for a steady progress bar; made one at
    a time, so that a billion games cost no list."""
    size = max(1, min(largest, math.ceil(games / max(1, parts * 8))))
    return ((i, min(size, games - i)) for i in range(0, games, size))


def run_parallel(ref: str, with_, options: dict, players: int, games: int, seed: int, bot: str,
                 jobs: int, progress=None, files: dict | None = None, against=None, engine: str = "python"):
    """Play `games` games over `jobs` processes with `engine`; the statistics do not depend on `jobs`.

    Only a few chunks are in flight at a time and each result is dropped once merged, so the
    memory used does not grow with the number of games. Ctrl-C ends every worker at once."""
    from .workers import run_jobs
    work = (Job(ref, tuple(with_), tuple(sorted(options.items())), players, seed, bot, first, count,
                tuple(sorted((files or {}).items())), against=against, engine=engine)
            for first, count in chunks(games, jobs, largest=500 if engine == "python" else 50_000))
    total = []

    def merge(job, result):
        if total:
            total[0].merge(result)
        else:
            total.append(result)
        if progress is not None:
            progress(job.count)
    run_jobs(run_job, work, jobs, merge, label=Job.label)
    return total[0]


class Progress:
    """A one-line progress bar with games/s and time left, on a terminal only."""

    def __init__(self, total: int, stream=None):
        self.total, self.done = total, 0
        self.stream = stream if stream is not None else sys.stderr
        self.created = self.start = self.last = time.perf_counter()
        self.enabled = hasattr(self.stream, "isatty") and self.stream.isatty() and not os.environ.get("CI")
        self.setup: tuple | None = None      # (what was done before the games, its seconds)

    def begin(self, after: str = "") -> None:
        """The games start now: the rate and the time left count from here, not from a compile
        before them; `after` names that work (its time is then said apart, `format_table`)."""
        self.start = self.last = time.perf_counter()
        self.setup = (after, self.start - self.created) if after else None

    def __call__(self, n: int) -> None:
        self.done += n
        now = time.perf_counter()
        if not self.enabled or (now - self.last < 0.2 and self.done < self.total):
            return
        self.last = now
        rate = self.done / max(1e-9, now - self.start)
        left = (self.total - self.done) / rate if rate else 0
        width = 30
        filled = int(width * self.done / max(1, self.total))
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} games"
                          f"  {rate:,.0f} games/s  {left:,.0f} s left ")
        self.stream.flush()

    def status(self, text: str) -> None:
        """A line saying what is being done before the games start (on a terminal only; the
        next line written over it, or `close`, clears it)."""
        if self.enabled:
            self.stream.write("\r" + text[:79])
            self.stream.flush()

    def close(self) -> None:
        """Clear the line (the bar, or a status): what is printed next starts on a clean one."""
        if self.enabled:
            self.stream.write("\r" + " " * 79 + "\r")
            self.stream.flush()


POINTS_NOTE = "points scored per game: all players' final scores added up"


def _rate(games: int, seconds: float) -> str:
    """Games a second as a reader wants it: a run slower than ten games a second keeps two
    figures (one game in 2.6 s is 0.38 games a second, not 0)."""
    if seconds <= 0:
        return "no time measured"
    rate = games / seconds
    return f"{rate:,.0f} games/s" if rate >= 10 else f"{rate:.2g} games/s"


def format_table(title: str, summary: dict, seconds: float, setup: tuple | None = None) -> str:
    """The run's statistics for a person; `setup` (what was done before the games, in how many of
    the `seconds`: Progress.setup) is said apart, so that the rate is the games' own."""
    t = summary["turns_per_game"]
    rows = [("games", f"{summary['games']}"),
            ("turns per game", f"mean {t['mean']:.2f}   median {t['median']}   95th percentile {t['p95']}"),
            ("rounds per game", f"{summary['rounds_per_game']:.2f}"),
            ("points scored per game", f"{summary['points_per_game']:.2f}"),
            ("cards drawn per game", f"{summary['cards_drawn_per_game']:.2f}"),
            ("reshuffles per game", f"{summary['reshuffles_per_game']:.2f}"),
            ("stock ran dry per game", f"{summary['stock_ran_dry_per_game']:.2f}"),
            ("eliminations per game", f"{summary['eliminations_per_game']:.2f}"),
            ("stalemates", f"{summary['stalemates']}")]
    rows += [(f"largest {name}", f"{value}") for name, value in summary["largest_counter"].items()]
    width = max(len(label) for label, _ in rows) + 2
    lines = [title] + [f"  {label:<{width}}{value}" for label, value in rows]
    by_team = "wins_by_team" in summary
    lines.append("  wins by team (share of games, 95% interval)" if by_team else
                 "  wins by seat (share of games, 95% interval)")
    for w in summary["wins_by_team" if by_team else "wins_by_seat"]:
        lo, hi = w["ci95"]
        lines.append(f"    {w['seat']:<{max(4, width - 2)}} {100 * w['share']:5.1f}%   {100 * lo:5.1f}% .. {100 * hi:5.1f}%")
    if setup is None:
        lines.append(f"  {'time':<{width}}{seconds:.2f} s ({_rate(summary['games'], seconds)})")
    else:
        what, before = setup
        lines.append(f"  {'time':<{width}}{seconds:.2f} s ({before:.2f} s {what}, "
                     f"then {_rate(summary['games'], seconds - before)})")
    lines.append(f"  ({POINTS_NOTE})")
    return "\n".join(lines)


def format_csv(summary: dict, about: dict) -> str:
    """One row per statistic, each carrying what was simulated (`about`: ruleset, modules,
    players, bots, seed), so that the rows of several runs can be put in one table."""
    t = summary["turns_per_game"]
    rows = [("games", summary["games"], "", ""), ("turns_mean", t["mean"], "", ""),
            ("turns_median", t["median"], "", ""), ("turns_p95", t["p95"], "", "")]
    for key in ("rounds_per_game", "points_per_game", "cards_drawn_per_game", "reshuffles_per_game",
                "stock_ran_dry_per_game", "eliminations_per_game", "stalemates"):
        rows.append((key, summary[key], "", ""))
    for name, value in summary["largest_counter"].items():
        rows.append((f"largest_{name}", value, "", ""))
    for group in ("wins_by_seat", "wins_by_team"):
        for w in summary.get(group, []):
            label = w["seat"].replace(" ", "_")
            rows.append((f"wins_{label}", w["wins"], "", ""))
            rows.append((f"win_share_{label}", w["share"], w["ci95"][0], w["ci95"][1]))
    return csv_text(list(about), ["statistic", "value", "ci95_low", "ci95_high"],
                    [list(about.values()) + list(r) for r in rows])


def csv_text(lead: list, columns: list, rows: list) -> str:
    import csv
    import io
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(lead + columns)
    writer.writerows(rows)
    return out.getvalue()
