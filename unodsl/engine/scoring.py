"""Scoring: points, teams sharing them, players leaving the game, and the game's end."""
from __future__ import annotations

MAX_SCORE = 10 ** 15


class Scoring:
    """Mixed into Game: scores, eliminations and the winners of the game."""

    def add_score(self, seat: int, points: int) -> None:
        """Points to the seat and its team; scores stay within MAX_SCORE either way (rules that
        multiply points could otherwise make numbers no statistic can hold)."""
        for s in range(self.n):
            if self.teams[s] == self.teams[seat]:
                self.scores[s] = max(-MAX_SCORE, min(MAX_SCORE, self.scores[s] + points))
                self.round_points[s] = max(-MAX_SCORE, min(MAX_SCORE, self.round_points[s] + points))
        if points and self.record:
            self.event("score", seat=seat, points=points)

    def eliminate(self, seat: int, round_only: bool = False) -> None:
        if not self._active(seat):
            return
        if round_only:
            self.benched[seat] = True
        else:
            self.eliminated[seat] = True
        self._refresh_active()
        self.stats["eliminations"] += 1
        self.stock[0:0] = self.hands[seat]
        self.hands[seat] = []
        self.windows = {k: w for k, w in self.windows.items() if k[1] != seat}
        self.event("eliminated", seat=seat, round_only=round_only)

    def end_game(self, best: str) -> None:
        active = [s for s in range(self.n) if not self.eliminated[s]] or list(range(self.n))
        pick = max if best == "highest" else min
        target = pick(self.scores[s] for s in active)
        self.game_over = True
        self.game_winners = [s for s in active if self.scores[s] == target]
        self.event("game_end", winners=self.game_winners)
