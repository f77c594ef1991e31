"""The statistics a simulation reports, with intervals that mean what they say.

- A win share is a proportion: its 95% interval is Wilson's score interval, which stays inside
  0..100% and does not collapse to a point when a seat won all or none of a few games (the
  normal "Wald" interval says "100.0% .. 100.0%" after 3 wins out of 3).
- `--compare A B` plays game i of A and game i of B from the same seed, so the two runs are
  paired: the interval of a difference comes from the per-game differences (`Paired`), and two
  identical rulesets give a difference of exactly 0 with an interval of zero width. Every row
  gets its interval, wins by seat (or by team) included.
- In a team game the wins of partners are one team's wins, and reported so.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

Z95 = 1.959964


def wilson(share: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion `share` observed over `n` trials."""
    if n <= 0:
        return 0.0, 1.0
    denom = 1 + z * z / n
    centre = (share + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, share * (1 - share) / n + z * z / (4 * n * n))) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def teams_of(teams) -> list[tuple[int, ...]]:
    """The seats of each team, in order of their first seat; a game without teams has none."""
    groups: dict = {}
    for seat, team in enumerate(teams or ()):
        groups.setdefault(team, []).append(seat)
    out = [tuple(g) for g in groups.values()]
    return out if any(len(g) > 1 for g in out) else []


def seat_label(seats) -> str:
    names = [f"p{s + 1}" for s in seats]
    return names[0] if len(names) == 1 else "team " + "+".join(names)


@dataclass
class Sums:
    """Sum and sum of squares of one per-game quantity (for a mean and its standard error)."""
    total: float = 0
    squares: float = 0

    def add(self, value) -> None:
        self.total += value
        self.squares += value * value

    def merge(self, other: "Sums") -> None:
        self.total += other.total
        self.squares += other.squares

    def mean(self, n: int) -> float:
        return self.total / n if n else 0.0

    def interval(self, n: int, z: float = Z95) -> tuple[float, float]:
        """The 95% interval of the mean (normal approximation; exact zero width if constant)."""
        if n < 2:
            m = self.mean(n)
            return m, m
        mean = self.total / n
        var = max(0.0, (self.squares - n * mean * mean) / (n - 1))
        if var < 1e-12 * max(1.0, mean * mean):
            var = 0.0
        half = z * math.sqrt(var / n)
        return mean - half, mean + half


# Per-game quantities a comparison reports, with their labels: (key, label, decimals).
COMPARED = (("turns", "turns per game", 1), ("rounds", "rounds per game", 2),
            ("points", "points scored per game", 1), ("drawn", "cards drawn per game", 1),
            ("reshuffles", "reshuffles per game", 3))


def game_values(game) -> dict:
    """The per-game quantities of one finished game."""
    return {"turns": game.turns, "rounds": game.round, "points": sum(max(0, s) for s in game.scores),
            "drawn": game.stats["drawn"], "reshuffles": game.stats["reshuffles"]}


def win_shares(game, players: int) -> list[float]:
    """Each seat's share of this game's win (ties split evenly)."""
    shares = [0.0] * players
    for s in game.game_winners:
        shares[s] = 1 / len(game.game_winners)
    return shares


@dataclass
class Paired:
    """B against A over the same seeds: per-game differences (B - A) and each side's values."""
    players: int
    games: int = 0
    a: dict = field(default_factory=dict)          # key -> Sums of A's values
    b: dict = field(default_factory=dict)
    diff: dict = field(default_factory=dict)       # key -> Sums of B - A
    teams_a: tuple = ()
    teams_b: tuple = ()

    def add(self, game_a, game_b) -> None:
        if not self.games:
            self.teams_a, self.teams_b = tuple(game_a.teams), tuple(game_b.teams)
        self.games += 1
        va, vb = game_values(game_a), game_values(game_b)
        wa, wb = win_shares(game_a, self.players), win_shares(game_b, self.players)
        for i, seats in enumerate(self.groups()):
            va[f"win:{i}"], vb[f"win:{i}"] = sum(wa[s] for s in seats), sum(wb[s] for s in seats)
        for key in va:
            self.a.setdefault(key, Sums()).add(va[key])
            self.b.setdefault(key, Sums()).add(vb[key])
            self.diff.setdefault(key, Sums()).add(vb[key] - va[key])

    def merge(self, other: "Paired") -> None:
        if not self.games:
            self.teams_a, self.teams_b = other.teams_a, other.teams_b
        self.games += other.games
        for mine, theirs in ((self.a, other.a), (self.b, other.b), (self.diff, other.diff)):
            for key, sums in theirs.items():
                mine.setdefault(key, Sums()).merge(sums)

    def row(self, key: str) -> dict:
        n = self.games
        a, b = self.a.get(key, Sums()).mean(n), self.b.get(key, Sums()).mean(n)
        lo, hi = self.diff.get(key, Sums()).interval(n)
        return {"a": a, "b": b, "difference": b - a, "ci95": [lo, hi], "relative": (b - a) / a if a else 0.0}

    def groups(self) -> list[tuple[int, ...]]:
        """Seats by team when both sides play in the same teams, else one seat each."""
        teams = teams_of(self.teams_a)
        if teams and teams == teams_of(self.teams_b):
            return teams
        return [(s,) for s in range(self.players)]

    def summary(self) -> dict:
        out = {key: _rounded(self.row(key), decimals) for key, _, decimals in COMPARED}
        out["wins"] = [{"seats": seat_label(seats), **_rounded(self.row(f"win:{i}"), 4)}
                       for i, seats in enumerate(self.groups())]
        return out


def _rounded(row: dict, decimals: int) -> dict:
    r = lambda x: round(x, decimals + 1)   # noqa: E731 (one more digit than shown)
    return {"a": r(row["a"]), "b": r(row["b"]), "difference": r(row["difference"]),
            "ci95": [r(row["ci95"][0]), r(row["ci95"][1])], "relative": round(row["relative"], 4)}


def simulate_paired(rules_a, rules_b, players: int, games: int, seed: int, bot: str, first: int = 0,
                    progress=None) -> Paired:
    """Game i of A and game i of B from the same seed, for i in first .. first + games - 1."""
    from .simulate import game_seed, play_game
    paired = Paired(players)
    for i in range(first, first + games):
        s = game_seed(seed, i)
        paired.add(play_game(rules_a, players, s, bot, record=False),
                   play_game(rules_b, players, s, bot, record=False))
        if progress is not None:
            progress(1)
    return paired


def format_compare(name_a: str, name_b: str, games: int, players: int, bot: str, seed: int,
                   summary: dict) -> str:
    lines = [f"A = {name_a}", f"B = {name_b}",
             f"{games} games each, {players} players, {bot} bots, the same seeds (from {seed}); "
             "B-A is paired game by game, with its 95% interval"]
    width = max(len(label) for _, label, _ in COMPARED) + 2
    for key, label, d in COMPARED:
        v = summary[key]
        lines.append(f"  {label:<{width}} A {v['a']:>8.{d}f}   B {v['b']:>8.{d}f}   B-A {v['difference']:>+8.{d}f}"
                     f"   (95% CI {v['ci95'][0]:+.{d}f} .. {v['ci95'][1]:+.{d}f})"
                     + (f", {100 * v['relative']:+.1f}%" if v['a'] else ""))
    lines.append("  wins (share of games)")
    for w in summary["wins"]:
        lines.append(f"    {w['seats']:<{width - 2}} A {100 * w['a']:>7.1f}%   B {100 * w['b']:>7.1f}%   "
                     f"B-A {100 * w['difference']:>+7.1f}%  (95% CI {100 * w['ci95'][0]:+.1f}% .. "
                     f"{100 * w['ci95'][1]:+.1f}%)")
    lines.append("  points scored per game: all players' final scores added up")
    return "\n".join(lines)


def compare_csv_rows(summary: dict) -> list[tuple]:
    """(statistic, a, b, difference, ci95 low, ci95 high) for every compared row."""
    rows = []
    for key, _, _ in COMPARED:
        v = summary[key]
        rows.append((f"{key}_per_game", v["a"], v["b"], v["difference"], v["ci95"][0], v["ci95"][1]))
    for w in summary["wins"]:
        rows.append((f"win_share_{w['seats'].replace(' ', '_')}", w["a"], w["b"], w["difference"],
                     w["ci95"][0], w["ci95"][1]))
    return rows
