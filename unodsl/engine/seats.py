"""Seats and the order of play: who is next, who is still playing, who sits where.

Seats are numbered clockwise; `order` and `pos` map table positions to seats once players have
swapped places, and eliminated or benched seats are passed over.
"""
from __future__ import annotations


# (players, direction, seat) -> the other seats in the order of play, when every seat plays in
# its own place: `others` is asked for by many rules on every play, and is the same tuple each time
_PLAIN_OTHERS: dict = {}


class Seats:
    """Mixed into Game: direction, skips, the seating order and who is still in play."""

    def clockwise(self, seat, step: int = 1):
        """The seat `step` places on from `seat`, passing over those out of play (further steps
        of `step`). With every seat in play, simply the one sitting there: the turn loop asks
        this on every turn once players have changed places."""
        if seat is None:
            return None
        n, order, inactive = self.n, self.order, self.inactive
        p = self.pos[seat]
        if self._n_active == n:
            return order[(p + step) % n]
        for k in range(1, n + 1):
            t = order[(p + step * k) % n]
            if not inactive[t]:
                return t
        return seat

    def next_seat(self, seat, step: int = 1):
        if seat is None:
            return None
        return self.clockwise(seat, self.direction * step)

    def next_unskipped(self, seat):
        """The next seat in the direction of play that is not already to lose its turn: so that
        each of several skips played together skips one more player."""
        if seat is None:
            return None
        s = seat
        for _ in range(self.n):
            s = self.clockwise(s, self.direction)
            if not self.skips[s]:
                return s
        return self.next_seat(seat)

    def _order_from(self, start) -> list:
        """Active seats in the order of play, starting at `start` (a list of the caller's own).
        Once players have changed places, each seat's order is worked out once per direction
        and seating (`_update_plain` forgets them): bots ask for it at every choice."""
        if self._plain:
            n, d = self.n, self.direction
            return [(start + d * k) % n for k in range(n)]
        key = (start, self.direction)
        found = self._orders.get(key)
        if found is None:
            order = []
            p = self.pos[start]
            for k in range(self.n):
                s = self.order[(p + self.direction * k) % self.n]
                if self._active(s):
                    order.append(s)
            found = self._orders[key] = tuple(order)
        return list(found)

    def others(self, seat) -> tuple:
        if seat is None:
            return tuple(self._order_from(self.dealer or 0))
        if self._plain:
            key = (self.n, self.direction, seat)
            found = _PLAIN_OTHERS.get(key)
            if found is None:
                found = _PLAIN_OTHERS[key] = tuple((seat + self.direction * k) % self.n for k in range(1, self.n))
            return found
        order = self._order_from(self.next_seat(seat))
        return tuple([s for s in order if s != seat])

    def everyone(self, seat) -> tuple:
        return tuple(self._order_from(seat if seat is not None else (self.dealer or 0)))

    def opponents(self, seat) -> tuple:
        if seat is None:
            return self.others(None)
        teams = self.teams
        team = teams[seat]
        return tuple([s for s in self.others(seat) if teams[s] != team])

    def active_count(self) -> int:
        return self._n_active

    def _active(self, seat) -> bool:
        return not self.inactive[seat]

    def _refresh_active(self) -> None:
        self.inactive = [e or b for e, b in zip(self.eliminated, self.benched)]
        self._n_active = self.inactive.count(False)
        self._update_plain()

    def _update_plain(self) -> None:
        """Whether every seat plays and sits in its own place, so that the next seat is simply
        (seat + direction) mod n: the generated turn loop's shortcut."""
        self._plain = self._n_active == self.n and self.order == self._seated
        self._orders = {}       # (seat, direction) -> _order_from, for this seating and these players

    def swap_seats(self, a: int, b: int) -> None:
        """Two players change places at the table, keeping their cards and scores."""
        pa, pb = self.pos[a], self.pos[b]
        self.order[pa], self.order[pb] = b, a
        self.pos[a], self.pos[b] = pb, pa
        self._update_plain()
        self.event("swap_seats", seats=[a, b])

    def skip(self, seat: int) -> None:
        """The seat loses its next turn (once, however many times it is skipped before then)."""
        self.skips[seat] = 1

    def reverse(self) -> None:
        self.direction = -self.direction
        self._note("direction")
        self.event("direction", direction=self.direction)

    def starts(self, seat) -> None:
        if isinstance(seat, int):
            self.next_override = seat

    plays_again = starts
