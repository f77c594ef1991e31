"""Game facts for a sheet, from simulated games (`--stats N`): how long a game takes and whether
playing first helps.

A figure is printed only where its 95% confidence interval says it is real, and always with the
number of games behind it: the length of a game is rounded to what its interval supports, and the
first player's share of wins is given only when its interval leaves out the fair share (else the
sheet says that N games show no advantage). The time is the number of turns at a stated pace,
to the nearest five minutes (a pace is a guess: it deserves no finer figure).
"""
from __future__ import annotations

import math

from ..sim.statistics import Z95, wilson

STATS_PLAYERS = 4
SECONDS_PER_TURN = 6          # a family's pace at the table, for the estimated time
MAX_GAMES = 10_000


def _round_to(value: float, half_width: float) -> int:
    """A value rounded to the precision its interval supports (±18 -> tens, ±3 -> units)."""
    if half_width <= 0:
        return round(value)
    step = 10 ** max(0, math.floor(math.log10(max(1.0, half_width))))
    return int(round(value / step) * step)


def _first_player(game) -> int | None:
    for e in game.events:
        if e.get("e") in ("play", "draw_turn") and e.get("seat") is not None:
            return e["seat"]
    return None


def play_facts(rules, games: int, players: int | None = None, seed: int = 1) -> dict:
    """Facts of `games` simulated games with basic bots (a fixed seed, so a sheet is repeatable)."""
    from ..sim.simulate import game_seed, play_game
    if games > MAX_GAMES:
        raise ValueError(f"--stats plays at most {MAX_GAMES} games")
    low, high = rules.players
    n = players or min(max(STATS_PLAYERS, low), high)
    turns, rounds, first_wins, counted = [], 0, 0.0, 0
    for i in range(games):
        g = play_game(rules, n, game_seed(seed, i), "basic", record=True)
        turns.append(g.turns)
        rounds += g.round
        first = _first_player(g)
        if first is not None and g.game_winners:
            counted += 1
            if first in g.game_winners:
                first_wins += 1 / len(g.game_winners)
    mean = sum(turns) / len(turns)
    sd = math.sqrt(sum((t - mean) ** 2 for t in turns) / (len(turns) - 1)) if len(turns) > 1 else 0.0
    half = Z95 * sd / math.sqrt(len(turns)) if len(turns) > 1 else mean
    low_t, high_t = max(0.0, mean - half), mean + half
    minutes = mean * SECONDS_PER_TURN / 60
    facts = {
        "games": games, "players": n, "seed": seed, "bots": "basic",
        "turns": {"mean": round(mean, 1), "low": round(low_t, 1), "high": round(high_t, 1),
                  "about": _round_to(mean, half)},
        "rounds": round(rounds / games),
        "minutes": {"about": max(5, int(round(minutes / 5) * 5)) if minutes >= 5 else max(1, round(minutes)),
                    "seconds_per_turn": SECONDS_PER_TURN},
        "fair_percent": round(100 / n, 1),
    }
    lo, hi = wilson(first_wins / counted if counted else 0.0, counted)
    fair = 1 / n
    facts["first_player"] = {"games": counted, "percent": round(100 * first_wins / max(1, counted)),
                             "low": round(100 * lo), "high": round(100 * hi),
                             "real": counted > 0 and not lo <= fair <= hi}
    return facts
