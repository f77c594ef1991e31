"""Simulation: many whole games with bots, summarised as the statistics a designer reads.

Statistics are streamed into counters and histograms (no per-game records), so memory stays flat
however many games run. Game i uses a seed derived from the run's seed and i alone, so results do
not depend on the order or the process a game runs in.
"""
from __future__ import annotations

import math
import random
import time
from collections import Counter
from dataclasses import dataclass, field

from .bots import BOTS
from .decisions import Action, Refused
from .engine import Game
from .ruleset import Ruleset


def game_seed(seed: int, index: int) -> int:
    return random.Random(f"unodsl:{seed}:{index}").getrandbits(63)


def play_game(rules: Ruleset, players: int, seed: int, bot: str = "basic", record: bool = True,
              rounds: int | None = None) -> Game:
    """Play one whole game (or `rounds` rounds of it) with bots in every seat; return the game.

    With record=False the game keeps no event log and the bots' choices, always taken from the
    engine's own list of legal actions, are applied without being checked again: the fast path."""
    game = Game(rules, players, seed=seed, record=record)
    rng = random.Random(seed ^ 0x5EED)
    bots = [BOTS[bot](rng) for _ in range(players)]
    deal = Action(None, "deal")
    apply = game.apply if record else game.apply_trusted
    chooser = random.Random(seed ^ 0xC0FFEE)
    while not game.game_over and game.decision is not None:
        d = game.decision
        if d.kind == "deal":
            if rounds is not None and game.round >= rounds:
                break
            apply(deal)
            continue
        if d.seat is None:          # a race or chance outcome for the table: decided at random
            options = game.legal_actions()
            apply(options[int(chooser.random() * len(options))])
            continue
        apply(bots[d.seat].choose(game, game.legal_actions()))
        if game.windows:
            for s in range(players):
                act = bots[s].out_of_turn(game, s)
                if act is not None:
                    try:
                        game.apply(act)
                    except Refused:
                        pass
    return game


@dataclass
class Stats:
    """Running totals over finished games."""
    players: int
    games: int = 0
    turns: Counter = field(default_factory=Counter)
    rounds: int = 0
    drawn: int = 0
    reshuffles: int = 0
    stock_empty: int = 0
    stalemates: int = 0
    wins: list = field(default_factory=list)
    points: int = 0

    def __post_init__(self):
        self.wins = [0.0] * self.players

    def add(self, game: Game) -> None:
        self.games += 1
        self.turns[game.turns] += 1
        self.rounds += game.round
        self.drawn += game.stats["drawn"]
        self.reshuffles += game.stats["reshuffles"]
        self.stock_empty += game.stats["stock_empty"]
        self.stalemates += bool(game.stalemate)
        self.points += sum(max(0, s) for s in game.scores)
        if game.game_winners:
            share = 1.0 / len(game.game_winners)
            for s in game.game_winners:
                self.wins[s] += share

    def merge(self, other: "Stats") -> None:
        self.games += other.games
        self.turns.update(other.turns)
        for name in ("rounds", "drawn", "reshuffles", "stock_empty", "stalemates", "points"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]

    def percentile(self, q: float) -> int:
        """The smallest game length with at least q of the games at or below it."""
        need = max(1, math.ceil(q * self.games))
        seen = 0
        for value in sorted(self.turns):
            seen += self.turns[value]
            if seen >= need:
                return value
        return 0

    def summary(self) -> dict:
        n = max(1, self.games)
        mean = sum(v * c for v, c in self.turns.items()) / n
        wins = []
        for s, w in enumerate(self.wins):
            p = w / n
            half = 1.96 * math.sqrt(p * (1 - p) / n)
            wins.append({"seat": f"p{s + 1}", "wins": round(w, 2), "share": round(p, 4),
                         "ci95": [round(max(0.0, p - half), 4), round(min(1.0, p + half), 4)]})
        return {
            "games": self.games,
            "turns_per_game": {"mean": round(mean, 2), "median": self.percentile(0.5), "p95": self.percentile(0.95)},
            "rounds_per_game": round(self.rounds / n, 3),
            "cards_drawn_per_game": round(self.drawn / n, 2),
            "reshuffles_per_game": round(self.reshuffles / n, 3),
            "stock_ran_dry_per_game": round(self.stock_empty / n, 3),
            "stalemates": self.stalemates,
            "wins_by_seat": wins,
        }


def play_round_fast(rules: Ruleset, players: int, seed: int, bot: str = "random") -> Game:
    """One round on the fast path (the benchmark's unit of work)."""
    return play_game(rules, players, seed, bot, record=False, rounds=1)


def simulate(rules: Ruleset, players: int, games: int, seed: int = 0, bot: str = "basic",
             first: int = 0) -> Stats:
    stats = Stats(players)
    for i in range(first, first + games):
        stats.add(play_game(rules, players, game_seed(seed, i), bot, record=False))
    return stats


def format_table(title: str, summary: dict, seconds: float) -> str:
    t = summary["turns_per_game"]
    lines = [title,
             f"  games               {summary['games']}",
             f"  turns per game      mean {t['mean']}  median {t['median']}  p95 {t['p95']}",
             f"  rounds per game     {summary['rounds_per_game']}",
             f"  cards drawn / game  {summary['cards_drawn_per_game']}",
             f"  reshuffles / game   {summary['reshuffles_per_game']}",
             f"  stock ran dry/game  {summary['stock_ran_dry_per_game']}",
             f"  stalemates          {summary['stalemates']}",
             "  wins by seat"]
    for w in summary["wins_by_seat"]:
        lo, hi = w["ci95"]
        lines.append(f"    {w['seat']:<4} {100 * w['share']:5.1f}%   95% CI {100 * lo:5.1f}% .. {100 * hi:5.1f}%")
    games_per_s = summary["games"] / seconds if seconds > 0 else 0
    lines.append(f"  time                {seconds:.2f} s ({games_per_s:.0f} games/s)")
    return "\n".join(lines)


def timed(fn, *args, **kwargs):
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return result, time.perf_counter() - start
