"""The table's cards: the stock, the discard pile and the hands, and what the rules do to them.

Drawing (a dealt stock is drawn at random, a laid-out one in order, and the discard pile is
reshuffled when the stock runs dry), swapping and passing hands, revealing, discarding, the
current color and the rules' counters, and the journal of a play that `cancel top` undoes.
These are the primitives the rules' programs call; they know no card by name.
"""
from __future__ import annotations

from ..compile.expressions import Ctx


class Table:
    """Mixed into Game: the state it works on (hands, stock, discard, color, counters, stats)
    is set up by Game and the round flow."""

    def event(self, kind: str, **data) -> None:
        """Add an event to the game's log (when it keeps one). What only some seats may see goes
        under `private`, {seat: {field: value}}: `Game.events_for` shows each seat its own part."""
        if self.record:
            data["e"] = kind
            self.events.append(data)

    def _take(self):
        """The next card of the stock. A dealt stock is never shuffled: each draw takes a card at
        random, which gives the same distribution at a fraction of the cost; a stock laid out by a
        scenario is drawn in its given order."""
        stock = self.stock
        if not stock:
            if len(self.discard) > 1:
                top = self.discard[-1]
                rest = self.discard[:-1]
                if not self._lazy:
                    self.rng.shuffle(rest)
                self.stock = stock = rest
                self.discard = [top]
                self.stats["reshuffles"] += 1
                self.event("reshuffle", cards=len(rest))
            else:
                self.stats["stock_empty"] += 1
                return None
        if self._lazy:
            i = int(self._rand() * len(stock))
            card = stock[i]
            stock[i] = stock[-1]
            stock.pop()
            return card
        return stock.pop()

    def draw(self, seat: int, count: int, ctx: Ctx) -> None:
        card = self.draw_cards(seat, count)
        if card is not None:
            ctx.drawn = card

    def draw_cards(self, seat: int, count: int):
        """The seat draws `count` cards (fewer if the stock runs dry); returns the last one drawn."""
        hand = self.hands[seat]
        got = 0
        for _ in range(count):
            card = self._take()
            if card is None:
                break
            hand.append(card)
            got += 1
        self.drew(seat, hand, got)
        return hand[-1] if got else None

    def draw_until(self, seat: int, test, ctx: Ctx) -> None:
        hand = self.hands[seat]
        got = 0
        saved = ctx.player
        ctx.player = seat
        while True:
            card = self._take()
            if card is None:
                break
            hand.append(card)
            ctx.drawn = card
            got += 1
            if test(ctx):
                break
        ctx.player = saved
        self.drew(seat, hand, got)

    def drew(self, seat: int, hand: list, got: int) -> None:
        """Account for `got` cards just added to the end of the seat's hand."""
        self.stats["drawn"] += got
        self._drew_this_turn += got
        if self._journal is not None:
            self._journal.append(("draw", seat, hand[len(hand) - got:]))
        if self.record:
            self.event("draw", seat=seat, count=got, private={seat: {"cards": hand[len(hand) - got:]}})

    def set_color(self, color, seat) -> None:
        self._note("color", self.color)
        self.color = color
        self.event("color", seat=seat, color=color)

    def set_counter(self, name: str, value: int) -> None:
        self._note("counter", name, self.counters.get(name, 0))
        self.counters[name] = value
        if value > self.counter_peaks.get(name, 0):
            self.counter_peaks[name] = value

    def swap_hands(self, a: int, b: int) -> None:
        self.hands[a], self.hands[b] = self.hands[b], self.hands[a]
        self._note("hands", None, (a, b))
        self.event("swap", seats=[a, b])

    def pass_hands(self) -> None:
        old = list(self.hands)
        new = list(self.hands)
        for s in range(self.n):
            if self._active(s):
                new[self.next_seat(s)] = self.hands[s]
        self.hands = new
        self._note("hands", None, old)
        self.event("pass_hands")

    def _note(self, *entry) -> None:
        if self._journal is not None:
            self._journal.append(entry)

    def cancel_top(self) -> None:
        """Undo what the play of the top card did: its draws, reversals, colors, counters, swaps."""
        for entry in reversed(self.last_journal):
            kind = entry[0]
            if kind == "draw":
                _, seat, cards = entry
                hand = self.hands[seat]
                for card in reversed(cards):
                    if card in hand:
                        hand.reverse()
                        hand.remove(card)
                        hand.reverse()
                        self.stock.append(card)
            elif kind == "direction":
                self.direction = -self.direction
            elif kind == "color":
                self.color = entry[1]
            elif kind == "counter":
                self.counters[entry[1]] = entry[2]
            elif kind == "hands":
                _, _, before = entry
                if isinstance(before, tuple):
                    a, b = before
                    self.hands[a], self.hands[b] = self.hands[b], self.hands[a]
                else:
                    self.hands = list(before)
        self.last_journal = []
        self.event("cancel")

    def reveal(self, seat: int, to: tuple) -> None:
        for t in to:
            self.revealed.setdefault(t, {})[seat] = list(self.hands[seat])
        self.event("reveal", seat=seat, to=list(to),
                   private={t: {"cards": list(self.hands[seat])} for t in to})

    def redeal(self, start) -> None:
        """Gather every hand, shuffle them together and deal one at a time clockwise from `start`."""
        cards = [c for s in range(self.n) if self._active(s) for c in self.hands[s]]
        self.rng.shuffle(cards)
        for s in range(self.n):
            if self._active(s):
                self.hands[s] = []
        seats = [s for s in (self.order[(self.pos[start] + k) % self.n] for k in range(self.n)) if self._active(s)]
        for i, card in enumerate(cards):
            self.hands[seats[i % len(seats)]].append(card)
        self.event("redeal", start=start)

    def discard_cards(self, seat: int, cards: list) -> None:
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        top = self.discard[-1:]
        self.discard[-1:] = list(cards) + top
        self.event("discard", seat=seat, count=len(cards))

    def has_gone_out(self, seat: int) -> bool:
        return not self.hands[seat]

    def hand_points(self, seat: int) -> int:
        return sum(map(self.rules.cards.points.__getitem__, self.hands[seat]))

    def run_length(self) -> int:
        """How many cards with the same code lie in a row on top of the discard pile."""
        pile = self.discard
        if not pile:
            return 0
        top, count = pile[-1], 0
        for card in reversed(pile):
            if card != top:
                break
            count += 1
        return count

    def put_back_starter(self) -> None:
        """`return it and turn another`: the starter goes back into the stock."""
        card = self.discard.pop()
        self.stock.append(card)
        if not self._lazy:
            self.rng.shuffle(self.stock)
        self.event("starter_returned", card=card)
