"""Tournaments: bots against each other with the seats rotated, win rates and ratings.

`--bots a,b,c` names the bot of each seat of the first game (repeated to fill the table); game i
moves every bot i seats on, so over the games each bot sits in every seat equally often (a bot
named twice holds two seats).
Game i is seeded from the run's seed and i alone, so the results do not depend on `--jobs`.

Each game scores every bot the share of its seats that won (a win shared by w winners counts
1/w), and a bot's win rate is the mean of that over the games, with a 95% Wilson interval over
the games (a bot's seats in one game are not independent trials; a bot that holds several
seats scores between 0 and 1, for which the binomial interval is the wider one). Ratings
are Bradley-Terry strengths fitted to who beat whom (every winner beats every other seat of
another bot), on the Elo scale (400 points: ten to one odds) with the mean at 1500, and their
95% intervals come from a bootstrap over the games.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from ..compile.ruleset import Ruleset
from .statistics import wilson
from .workers import run_jobs
from .simulate import chunks, game_seed, play_game

BOOTSTRAP = 200          # resamples for the ratings' intervals


def lineup(bots: list, players: int, index: int) -> list:
    """The bot of each seat in game `index`: the list (repeated to fill the table, or cut to
    it) moved on by `index` seats."""
    return [bots[(s - index) % len(bots)] for s in range(players)]


@dataclass
class Results:
    """Per-game records (small: one score and one row of pairwise wins per bot) in game order."""
    names: list
    scores: list = field(default_factory=list)      # per game: {bot: share of its seats that won}
    beats: list = field(default_factory=list)       # per game: {(winner bot, loser bot): count}
    turns: list = field(default_factory=list)
    stalemates: int = 0

    def add(self, seats: list, game) -> None:
        winners = set(game.game_winners)
        held: dict = {}
        won: dict = {}
        for s, bot in enumerate(seats):
            held[bot] = held.get(bot, 0) + 1
            if s in winners:
                won[bot] = won.get(bot, 0.0) + 1.0 / len(winners)
        self.scores.append({b: won.get(b, 0.0) / held[b] for b in held})
        pairs: dict = {}
        for w in winners:
            for s, bot in enumerate(seats):
                if s not in winners and bot != seats[w]:
                    key = (seats[w], bot)
                    pairs[key] = pairs.get(key, 0) + 1
        self.beats.append(pairs)
        self.turns.append(game.turns)
        self.stalemates += bool(game.stalemate) or not winners

    def merge(self, other: "Results") -> None:
        self.scores += other.scores
        self.beats += other.beats
        self.turns += other.turns
        self.stalemates += other.stalemates

    def summary(self, seed: int = 0) -> dict:
        games = len(self.scores)
        rows = []
        ratings, intervals = self.ratings(seed)
        for bot in self.names:
            values = [g[bot] for g in self.scores if bot in g]
            n = len(values)
            mean = sum(values) / n if n else 0.0
            lo, hi = wilson(mean, n)
            rows.append({"bot": bot, "games": n, "win_rate": round(mean, 4),
                         "ci95": [round(lo, 4), round(hi, 4)],
                         "rating": round(ratings[bot], 1),
                         "rating_ci95": [round(intervals[bot][0], 1), round(intervals[bot][1], 1)]})
        return {"games": games, "stalemates": self.stalemates,
                "turns_per_game": round(sum(self.turns) / max(1, games), 2), "bots": rows}

    def ratings(self, seed: int = 0) -> tuple:
        """Bradley-Terry ratings of the bots, and 95% bootstrap intervals."""
        best = _bradley_terry(self.names, self.beats)
        if len(self.names) < 2 or not self.beats:
            return best, {b: (best[b], best[b]) for b in self.names}
        rng = random.Random(seed ^ 0xB007)
        samples = {b: [] for b in self.names}
        n = len(self.beats)
        for _ in range(BOOTSTRAP):
            picked = [self.beats[int(rng.random() * n)] for _ in range(n)]
            fitted = _bradley_terry(self.names, picked)
            for b in self.names:
                samples[b].append(fitted[b])
        intervals = {}
        for b, values in samples.items():
            values.sort()
            intervals[b] = (values[int(0.025 * (len(values) - 1))], values[int(0.975 * (len(values) - 1))])
        return best, intervals


def _bradley_terry(names: list, games: list, rounds: int = 200) -> dict:
    """Strengths by the minorization-maximization iteration (Hunter 2004), with half a win and
    half a loss against every other bot added so that a bot that never lost stays finite."""
    wins = {(a, b): 0.5 for a in names for b in names if a != b}
    for pairs in games:
        for key, count in pairs.items():
            wins[key] = wins.get(key, 0.5) + count
    strength = {b: 1.0 for b in names}
    for _ in range(rounds):
        new = {}
        for a in names:
            total_wins = sum(wins[(a, b)] for b in names if b != a)
            denom = sum((wins[(a, b)] + wins[(b, a)]) / (strength[a] + strength[b]) for b in names if b != a)
            new[a] = total_wins / denom if denom else 1.0
        scale = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        strength = {b: v / scale for b, v in new.items()}
    return {b: 1500 + 400 * math.log10(v) for b, v in strength.items()}


@dataclass(frozen=True)
class GamesJob:
    """What a worker needs to play a range of games (of a tournament, or of the balance
    report, which plays whole games: rounds None): everything is rebuilt from names."""
    ref: str
    with_: tuple
    options: tuple
    players: int
    bots: tuple
    seed: int
    rounds: int | None
    first: int
    count: int


def run_tournament_job(job: GamesJob) -> Results:
    from ..compile.loader import load
    rules = load(job.ref, job.with_, dict(job.options))
    return play_tournament(rules, job.players, list(job.bots), job.count, job.seed, job.rounds, first=job.first)


def play_tournament(rules: Ruleset, players: int, bots: list, games: int, seed: int = 0,
                    rounds: int | None = None, first: int = 0, progress=None) -> Results:
    results = Results(list(dict.fromkeys(bots)))
    for i in range(first, first + games):
        seats = lineup(bots, players, i)
        game = play_game(rules, players, game_seed(seed, i), seats, record=False, rounds=rounds)
        if rounds is not None and not game.game_over:
            game.game_winners = [] if game.winner is None else [
                s for s in range(players) if game.teams[s] == game.teams[game.winner]]
        results.add(seats, game)
        if progress is not None:
            progress(1)
    return results


def run_tournament_parallel(ref: str, with_, options: dict, players: int, bots: list, games: int, seed: int,
                            rounds: int | None, jobs: int, progress=None) -> Results:
    """The same tournament over `jobs` processes: chunks of game indices, merged in order."""
    work = [GamesJob(ref, tuple(with_), tuple(sorted(options.items())), players, tuple(bots), seed, rounds,
                          first, count) for first, count in chunks(games, jobs)]
    parts: dict = {}

    def got(job, result) -> None:
        parts[job.first] = result
        if progress is not None:
            progress(job.count)
    run_jobs(run_tournament_job, work, jobs, got, label=_games_of)
    total = Results(list(dict.fromkeys(bots)))
    for first in sorted(parts):
        total.merge(parts[first])
    return total


def _games_of(job) -> str:
    return f"games {job.first + 1} to {job.first + job.count}"


def format_table(title: str, summary: dict, seconds: float) -> str:
    lines = [title,
             f"  games {summary['games']}, {summary['turns_per_game']} turns per game, "
             f"{summary['stalemates']} without a winner",
             f"  {'bot':<24} {'games':>6} {'win rate':>9}   {'95% CI':<15} {'rating':>7}   95% CI"]
    for row in summary["bots"]:
        lo, hi = row["ci95"]
        rlo, rhi = row["rating_ci95"]
        lines.append(f"  {row['bot']:<24} {row['games']:>6} {100 * row['win_rate']:8.1f}%   "
                     f"{100 * lo:5.1f}% .. {100 * hi:5.1f}%  {row['rating']:7.0f}   {rlo:.0f} .. {rhi:.0f}")
    lines.append(f"  time {seconds:.1f} s")
    return "\n".join(lines)
