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
        random, which gives the same distribution at a fraction of the cost (unless the rules
        read or change the stock's order); a stock laid out by a scenario is drawn in its given
        order. An empty stock is renewed as the rules' `when the stock runs out` says, by default
        from the discard pile but its top card."""
        stock = self.stock
        if not stock:
            refill = self.rules.on_stock_out
            if refill is not None:
                if not self._refilling:          # a draw inside the refill finds nothing
                    self._refilling = True
                    try:
                        refill.plain(Ctx(self))
                    finally:
                        self._refilling = False
                stock = self.stock
                if not stock:
                    self.stats["stock_empty"] += 1
                    return None
            elif len(self.discard) > 1:
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

    # ---- piles ---------------------------------------------------------------------------------
    def pile(self, name: str) -> list:
        """A pile by name ("stock", "discard"), bottom card first and top card last."""
        return self.stock if name == "stock" else self.discard

    def _set_pile(self, name: str, cards: list) -> None:
        if name == "stock":
            self.stock = cards
        else:
            self.discard = cards

    def put_card(self, seat: int, card: int, pile: str, bottom: bool) -> None:
        """`WHO puts CARD on top of / at the bottom of PILE`: the card leaves the seat's hand."""
        self.hands[seat].remove(card)
        cards = self.pile(pile)
        if bottom:
            cards.insert(0, card)
        else:
            cards.append(card)
        where = "bottom" if bottom else "top"
        if pile == "stock":              # face down: only its owner knows it
            self.event("put", seat=seat, pile=pile, where=where, private={seat: {"card": card}})
        else:
            self.event("put", seat=seat, pile=pile, where=where, card=card)

    def turn_over(self, pile: str) -> None:
        """The pile turned over: its order reversed, the bottom card now on top."""
        self.pile(pile).reverse()
        self.event("turn_over", pile=pile)

    def shuffle_pile(self, pile: str) -> None:
        self.rng.shuffle(self.pile(pile))
        self.event("shuffle", pile=pile)

    def move_cards(self, source: str, into: str, cards: list, keep_top: bool) -> None:
        """`shuffle PILE into PILE`: these cards of the source pile (its top card kept where it is
        when keep_top) join the other pile, which is then shuffled."""
        old = self.pile(source)
        top = old[-1:] if keep_top else []
        rest = old[:-1] if keep_top else list(old)
        for card in cards:
            rest.remove(card)
        self._set_pile(source, rest + top)
        target = self.pile(into)
        target.extend(cards)
        if into != "stock" or not self._lazy:       # a dealt stock is drawn at random anyway
            self.rng.shuffle(target)
        if into == "stock" and cards:
            self.stats["reshuffles"] += 1
        self.event("shuffle", pile=source, into=into, cards=len(cards))

    def draw(self, seat: int, count: int, ctx: Ctx) -> None:
        card = self.draw_cards(seat, count)
        if card is not None:
            ctx.drawn = card

    def draw_cards(self, seat: int, count: int):
        """The seat draws `count` cards (fewer if the stock runs dry); returns the last one drawn."""
        hand = self.hands[seat]
        stock = self.stock
        if self._lazy and len(stock) >= count:      # `_take`'s random draws, without its refills
            rand = self._rand
            for _ in range(count):
                i = int(rand() * len(stock))
                hand.append(stock[i])
                stock[i] = stock[-1]
                stock.pop()
            got = count
        else:
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

    def set_color_by_rules(self, color) -> None:
        """`set color to ...`: the rules, not a player, decide the current color."""
        self._note("color", self.color)
        self.color = color
        self.event("color_set", color=color)

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
            elif kind == "flip":
                self.flip(entry[1])         # turned over again: twice is the same as never
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

    def reveal(self, seat: int, to: tuple, until: str = "turn") -> None:
        """Show a hand to some players: a look at it as it is now, which they keep in view until a
        turn begins (until="turn"), or the hand itself, as it changes, until the round ends
        (until="round", a hand played face up). Only those players' views hold it."""
        cards = list(self.hands[seat])
        stamp = "round" if until == "round" else (self.round, self.round_turns)
        for t in to:
            self.revealed.setdefault(t, {})[seat] = cards
            self._reveal_ends[(t, seat)] = stamp
        self.event("reveal", seat=seat, to=list(to), until=until, private={t: {"cards": cards} for t in to})

    def revealed_to(self, viewer: int) -> dict:
        """{seat: cards} the rules have shown this viewer and that are still in view: a look
        lasts until a turn begins, an open hand until the round ends (its cards as they are now)."""
        out = {}
        shown = self.revealed.get(viewer)
        if not shown:
            return out
        now = (self.round, self.round_turns)
        for seat, cards in list(shown.items()):
            stamp = self._reveal_ends.get((viewer, seat))
            if stamp == "round":
                out[seat] = list(self.hands[seat])
            elif stamp == now:
                out[seat] = list(cards)
            else:                                 # a look whose time is over: forgotten
                del shown[seat]
                self._reveal_ends.pop((viewer, seat), None)
        if not shown:
            del self.revealed[viewer]
        return out

    def flip(self, keep_order: bool = False) -> None:
        """Turn every card over, so that its other face is in play: each hand; the stock, turned
        over as a pile (its order reverses); the discard pile, turned over as a pile (its bottom
        card comes on top) or, keeping the pile order, each card where it lies. The current color
        becomes that of the new top card."""
        other = self.rules.cards.other
        for hand in self.hands:            # in place: the lists stay the game's own
            hand[:] = [other[c] for c in hand]
        self.stock[:] = [other[c] for c in reversed(self.stock)]
        self.discard[:] = [other[c] for c in (self.discard if keep_order else reversed(self.discard))]
        self.face ^= 1
        self._note("color", self.color)     # undone after the flip is, so the color comes back
        self._note("flip", keep_order)
        if self.discard:
            self.color = self.rules.cards.color[self.discard[-1]]
        self.event("flip", face=self.rules.faces[self.face], top=self.discard[-1] if self.discard else None)

    def face_name(self):
        """The face of the cards in play (two-faced cards), or None."""
        faces = self.rules.faces
        return faces[self.face] if faces else None

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

    def discard_held(self, seat: int, cards) -> None:
        """`discards every`: of `cards`, in their order, those the seat holds (each as often as
        it holds it) are discarded, the others passed over."""
        held = list(self.hands[seat])
        chosen = []
        for c in cards:
            if c in held:
                held.remove(c)
                chosen.append(c)
        self.discard_cards(seat, chosen)

    def has_gone_out(self, seat: int) -> bool:
        return not self.hands[seat]

    def hand_points(self, seat: int) -> int:
        return sum(map(self.rules.cards.points.__getitem__, self.hands[seat]))

    def run_length(self) -> int:
        """How many cards with the same code lie in a row on top of the discard pile."""
        pile = self.discard
        if len(pile) < 2:
            return len(pile)
        top = pile[-1]
        if pile[-2] != top:     # (most often: asked after every play by rules that count runs)
            return 1
        count = 0
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
