"""What each seat may see: the one place that decides it.

`view(seat)` is the state as that seat sees it, `events_for(seat)` the event log as it may read it,
and `determinize(seat, rng)` a whole game consistent with what it sees, for a search bot. Every
front end (the terminal, the web table, the learning environments, the bots) reads only these.

What a seat sees, besides every public fact (hand sizes, the top card, the color, the scores):

- its own hand, face in play;
- a hand the rules revealed to it (`reveal X to Y`): a look at it until a turn begins, or, with
  `until the round ends`, the hand itself as it changes;
- with `players see every hand`, every hand;
- with `players see other faces` (two-faced cards), the face not in play of every card in the
  others' hands, as a sorted list (the order of a hand says nothing), and of the stock's top card;
- with `players see top of stock`, the stock's top card.

The view's keys are listed in `VIEW_KEYS`; card lists are card codes, seats are "p1".."pN".
"""
from __future__ import annotations

import random

from .flow import Position
from .windows import seat_name

VIEW_KEYS = {
    "seat": "the seat the view is for",
    "hand": "its own hand, face in play, in the order held",
    "hand_sizes": "seat -> how many cards each hand holds",
    "revealed": "seat -> the cards of another hand this seat sees now (revealed to it, or open)",
    "other_faces": "seat -> the faces not in play of another hand's cards, sorted (two-faced cards, "
                   "`players see other faces`); empty otherwise",
    "stock_top": "the stock's top card, when the rules show it (`players see top of stock`), else None",
    "stock_top_other_face": "the face not in play of the stock's top card, when the rules show the other "
                            "faces, else None",
    "face": "the face of the cards in play (two-faced cards), else None",
    "top": "the top card of the discard pile",
    "color": "the current color (or suit), None when none is chosen",
    "direction": "clockwise or counterclockwise",
    "turn": "whose turn it is",
    "decision": "who must act now, what kind of answer, the options and the prompt",
    "stock_size": "cards in the stock",
    "discard_size": "cards in the discard pile",
    "scores": "seat -> score",
    "counters": "the rules' counters -> their values (public: every play that changes one is seen)",
    "round": "the number of the round",
    "round_over": "whether the round is over",
    "game_over": "whether the game is over",
}


class Views:
    """Mixed into Game: the state and the event log as one seat may see them."""

    def events_for(self, seat: int | None, start: int = 0) -> list:
        """The events from index `start` on, as `seat` may see them (None: someone watching, who
        sees only what is public): each event's private part for that seat is merged into it, and
        every other seat's is left out."""
        out = []
        for ev in self.events[start:]:
            private = ev.get("private")
            if private is None:
                out.append(ev)
                continue
            seen = {k: v for k, v in ev.items() if k != "private"}
            seen.update(private.get(seat, {}))
            out.append(seen)
        return out

    def visible_hands(self, seat: int) -> dict:
        """{other seat: its cards} for every other hand this seat sees now."""
        seen = {}
        if "every hand" in self.rules.sees:
            seen = {s: list(h) for s, h in enumerate(self.hands) if s != seat}
        for s, cards in self.revealed_to(seat).items():
            if s != seat:
                seen[s] = cards
        return seen

    def view(self, seat: int) -> dict:
        """What one seat may see (the keys and their meaning: VIEW_KEYS)."""
        r = self.rules
        d = self.decision
        code = r.cards.code
        sees = r.sees
        backs = "other faces" in sees and bool(r.faces)
        other = r.cards.other
        stock_top = self.stock[-1] if self.stock and not self._lazy else None
        return {
            "seat": seat_name(seat),
            "hand": [code[c] for c in self.hands[seat]],
            "hand_sizes": {seat_name(s): len(h) for s, h in enumerate(self.hands)},
            "revealed": {seat_name(s): [code[c] for c in h] for s, h in self.visible_hands(seat).items()},
            "other_faces": {seat_name(s): sorted(code[other[c]] for c in h)
                            for s, h in enumerate(self.hands) if s != seat} if backs else {},
            "stock_top": code[stock_top] if stock_top is not None and "stock top" in sees else None,
            "stock_top_other_face": code[other[stock_top]] if stock_top is not None and backs else None,
            "face": self.face_name(),
            "top": code[self.discard[-1]] if self.discard else None,
            "color": self.color,
            "direction": "clockwise" if self.direction == 1 else "counterclockwise",
            "turn": seat_name(self.turn),
            "decision": None if d is None else {"seat": seat_name(d.seat) if d.seat is not None else None,
                                                "kind": d.kind, "options": list(d.options), "prompt": d.prompt},
            "stock_size": len(self.stock),
            "discard_size": len(self.discard),
            "scores": {seat_name(s): v for s, v in enumerate(self.scores)},
            "counters": dict(self.counters),
            "round": self.round,
            "round_over": self.round_over,
            "game_over": self.game_over,
        }

    def unseen_cards(self, seat: int) -> list:
        """Every card this seat cannot see, as (place, index): ("hand", s) positions and the
        stock's, each a slot a determinized game may fill with another unseen card."""
        seen = self.visible_hands(seat)
        slots = []
        for s, hand in enumerate(self.hands):
            if s != seat and s not in seen:
                slots += [("hand", s, i) for i in range(len(hand))]
        top_seen = bool(self.stock) and not self._lazy and "stock top" in self.rules.sees
        slots += [("stock", None, i) for i in range(len(self.stock)) if not (top_seen and i == len(self.stock) - 1)]
        return slots

    def deal_unseen_anew(self, seat: int, rng: random.Random, hands: list, stock: list) -> None:
        """Deal every card `seat` cannot see again at random among the places it cannot see, in
        place in `hands` and `stock` (this game's own lists, or copies of them): hand sizes stay,
        and where the rules show other faces a card changes places only with cards that show the
        same other face. What comes out depends only on what the seat may see."""
        rules = self.rules
        if not ("other faces" in rules.sees and rules.faces):      # every unseen card alike
            seen = self.visible_hands(seat)
            hidden = [s for s in range(self.n) if s != seat and s not in seen]
            top_seen = bool(stock) and not self._lazy and "stock top" in rules.sees
            under = len(stock) - top_seen
            pool = [card for s in hidden for card in hands[s]] + stock[:under]
            pool.sort()
            shuffle(rng, pool)
            at = 0
            for s in hidden:
                k = len(hands[s])
                hands[s][:] = pool[at:at + k]
                at += k
            stock[:under] = pool[at:]
            return
        slots = self.unseen_cards(seat)

        def get(slot):
            place, s, i = slot
            return hands[s][i] if place == "hand" else stock[i]

        def put(slot, card):
            place, s, i = slot
            if place == "hand":
                hands[s][i] = card
            else:
                stock[i] = card
        other, same = self.rules.cards.other, self.rules.same_face
        backs_shown = "other faces" in self.rules.sees and bool(self.rules.faces)
        groups: dict = {}
        for slot in slots:
            card = get(slot)
            key = same[other[card]] if backs_shown and (slot[0] == "hand" or slot[2] == len(stock) - 1) else None
            groups.setdefault(key, []).append(slot)
        for group in groups.values():
            cards = sorted(get(slot) for slot in group)      # the same cards whatever their places
            shuffle(rng, cards)
            for slot, card in zip(group, cards):
                put(slot, card)

    def determinize(self, seat: int, rng: random.Random):
        """A new Game at this turn in which every card `seat` cannot see is dealt again at random
        among the places it cannot see (keeping hand sizes, and the other face of each card where
        the rules show other faces): a full state consistent with the seat's view, for a search
        bot to play out. Only at a turn decision, where a round can be laid out anew (the open
        windows, skips, counters, scores and the face in play carry over); the copy keeps no
        event log and gets its own generator from `rng`. Raises ValueError elsewhere."""
        d = self.decision
        if d is None or d.kind != "turn":
            raise ValueError("a game can be determinized only at a turn decision")
        hands = [list(h) for h in self.hands]
        stock = list(self.stock)
        self.deal_unseen_anew(seat, rng, hands, stock)
        from .game import Game
        position = Position(hands=hands, discard=list(self.discard), color=self.color,
                            stock=list(reversed(stock)), direction=self.direction, turn=self.turn,
                            dealer=self.dealer, scores=list(self.scores), teams=list(self.teams),
                            face=self.face, counters=dict(self.counters),
                            called=tuple(s for s in range(self.n) if not any(k[1] == s for k in self.windows)))
        copy = Game(self.rules, self.n, rng=random.Random(rng.getrandbits(64)), dealer=self.dealer,
                    position=position, record=False)
        copy.round, copy.round_turns, copy._turns_before = self.round, self.round_turns, self._turns_before
        copy.skips = list(self.skips)
        copy.order, copy.pos = list(self.order), list(self.pos)
        copy.eliminated, copy.benched = list(self.eliminated), list(self.benched)
        copy._refresh_active()
        copy.revealed = {v: {s: list(h) for s, h in shown.items()} for v, shown in self.revealed.items()}
        copy._reveal_ends = dict(self._reveal_ends)
        copy.next_override = self.next_override
        return copy


_SHUFFLE = getattr(random.Random, "shuffle", None)
_RANDBELOW = getattr(random.Random, "_randbelow_with_getrandbits", None)


def shuffle(rng: random.Random, cards: list) -> None:
    """`rng.shuffle(cards)`, with the same draws and the same order, written out: a bot's sample
    of the game shuffles every card it cannot see, and the standard library spends a method call
    per card. Only for a generator that shuffles as `random.Random` does (draws below a bound
    from `getrandbits`); any other shuffles itself. tests/test_engine.py holds the two equal."""
    kind = type(rng)
    if kind.shuffle is not _SHUFFLE or getattr(kind, "_randbelow", None) is not _RANDBELOW or _RANDBELOW is None:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        bound = i + 1
        bits = bound.bit_length()
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]
