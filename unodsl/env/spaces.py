"""The observation and action spaces of a ruleset at a table size, derived from its rules.

Nothing here knows a card: the actions are every way the ruleset's own cards can be played
(with a color when the card's effect asks for one, naming a player when it names one), draw,
keep and pass, each choice a question of the rules can ask (a color, a player, a card, each
answer the rules' `ask`s offer), each out-of-turn action of its windows, and `wait` (let an
out-of-turn moment pass). Players are named by place, counted from the one who acts (place 1
is the next seat clockwise), so that one policy serves every seat.

The observation is one flat vector of what the seat may see: its hand (a count per card of the
deck), the top card, the current color, every place's hand size, score, partnership and whether
it still plays, the direction, the stock and discard sizes, the rules' counters, which windows
are open for whom, and what kind of decision is asked; then, only for rules that show them, what
it sees of others' cards: the hands shown to it (`reveal`, `players see every hand`), the faces
not in play of each other place's cards (two-faced cards, `players see other faces`), and the
stock's top card or its other face. Cards are counted by the face a player sees, so copies that
look alike are one entry whatever their other side. `Layout.encode` reads only those facts and
the seat's own hand (tests/test_env.py proves it: dealing the hidden cards anew changes no
observation, and swapping a card for one whose seen face differs does).
"""
from __future__ import annotations

import numpy as np

from ..compile.decisions import Action
from ..compile.ruleset import Ruleset
from ..engine.game import Game
from ..lang import ast as A

DECISION_KINDS = ("turn", "drawn", "more", "color", "seat", "card", "answer", "window")
WIDE = 1e6                  # bound of the values that have none (scores, counters)
FEW = 6                     # cards counted one by one; more are counted at once (np.bincount)


def answer_names(rules: Ruleset) -> list:
    """Every answer a question of the rules can be given, in the order the rules write them."""
    names: dict = {}
    if rules.composed is not None:
        for _, decl, _ in rules.composed.items:
            for node in A.walk(decl):
                if isinstance(node, A.Ask):
                    for a in node.answers:
                        names.setdefault(a.name, None)
    return list(names)


class Layout:
    """Actions as indices and observations as vectors for one ruleset and table size."""

    def __init__(self, rules: Ruleset, players: int):
        self.rules, self.n = rules, players
        self.colors = tuple(rules.colors)
        self.color_index = {c: i for i, c in enumerate(self.colors)}
        self.counters = tuple(rules.counters)
        self.windows = tuple(w.name for w in rules.windows)
        self.window_index = {w: i for i, w in enumerate(self.windows)}
        self.keys: list = []
        self.index: dict = {}
        self._build_actions()
        self.size = len(self.keys)
        self._build_observation()

    # -- actions --------------------------------------------------------------------------------
    def _add(self, key) -> None:
        if key not in self.index:
            self.index[key] = len(self.keys)
            self.keys.append(key)

    def _build_actions(self) -> None:
        r, n = self.rules, self.n
        places = tuple(range(n))
        for card, program in enumerate(r.on_play):
            colors = self.colors if program is not None and program.asks_color else (None,)
            targets = places if program is not None and program.asks_target else (None,)
            for color in colors:
                for place in targets:
                    self._add(("play", card, color, place))
        for verb in ("draw", "keep", "pass"):
            self._add((verb,))
        for color in self.colors:
            self._add(("color", color))
        for place in places:
            self._add(("seat", place))
        for card in range(r.size):
            self._add(("card", card))
        for name in answer_names(r):
            self._add(("answer", name))
        for w in r.windows:
            for a in w.actions:
                if a.card_test is not None:
                    for card, program in enumerate(r.on_play):
                        colors = self.colors if program is not None and program.asks_color else (None,)
                        for color in colors:
                            for place in places:
                                self._add(("window", a.verb, card, color, place))
                else:
                    for place in ((None,) if a.who == "player" else places):
                        self._add(("window", a.verb, None, None, place))
        self._add(("wait",))
        self.wait = self.index[("wait",)]

    def place(self, seat: int, other) -> int | None:
        return None if other is None else (other - seat) % self.n

    def key_of(self, seat: int, action: Action, window: bool = False):
        """The action's key: what it does, with players named by place from `seat`."""
        verb = action.verb
        if window:
            return ("window", verb, action.card, action.color, self.place(seat, action.target))
        if verb == "play":
            return ("play", action.card, action.color, self.place(seat, action.target))
        if verb in ("draw", "keep", "pass"):
            return (verb,)
        if verb == "choose":
            if action.target is not None:
                return ("seat", self.place(seat, action.target))
            if action.answer in self.color_index:
                return ("color", action.answer)
            card = self.rules.codes.get((action.answer or "").upper())
            if card is not None:
                return ("card", card)
        return ("answer", verb)

    def index_of(self, seat: int, action: Action, window: bool = False) -> int:
        return self.index[self.key_of(seat, action, window)]

    def describe(self, i: int) -> str:
        """An action index in words (for people reading a policy's choices)."""
        key = self.keys[i]
        code = self.rules.code
        if key[0] == "play":
            _, card, color, place = key
            return " ".join(["play", code(card)] + ([color] if color else []) +
                            ([f"place {place}"] if place is not None else []))
        if key[0] == "window":
            _, verb, card, color, place = key
            return " ".join([verb] + ([code(card)] if card is not None else []) + ([color] if color else []) +
                            ([f"place {place}"] if place is not None else []))
        if key[0] == "card":
            return f"choose {code(key[1])}"
        if key[0] in ("color", "seat", "answer"):
            return f"choose {key[1]}" if key[0] != "answer" else key[1]
        return key[0]

    # -- observations ---------------------------------------------------------------------------
    def _build_observation(self) -> None:
        r, n = self.rules, self.n
        R, C = r.size, len(self.colors)
        backs = "other faces" in r.sees and bool(r.faces)
        shown = "every hand" in r.sees or _reveals(r)
        self.backs, self.shown = backs, shown
        self.stock_top = "stock top" in r.sees
        fields = [("hand", R), ("top", R), ("color", C + 1),
                  ("hand_sizes", n), ("scores", n), ("partners", n), ("playing", n),
                  ("direction", 1), ("stock", 1), ("discard", 1),
                  ("counters", len(self.counters)), ("windows", len(self.windows) * n),
                  ("decision", len(DECISION_KINDS)),
                  ("seen_hands", R * (n - 1) if shown else 0),       # the other hands it is shown
                  ("other_faces", R * (n - 1) if backs else 0),      # the faces it sees of the others'
                  ("stock_top", R if self.stock_top else 0),
                  ("stock_top_other_face", R if backs else 0)]
        self.offsets, at = {}, 0
        for name, width in fields:
            self.offsets[name] = at
            at += width
        self.length = at
        deck = len(r.deck)
        o = self.offsets
        # A card is seen as its face: copies showing the same face look alike whatever their
        # backs (two-faced cards), so every count is kept at the first id of each face.
        self.face = np.array(r.same_face if r.faces else range(R), dtype=np.intp)
        other = np.array(r.cards.other if r.faces else range(R), dtype=np.intp)
        self.back = self.face[other]              # per card id: the face its other side shows
        copies = self._deck_counts(self.face)
        low = np.zeros(at, np.float32)
        high = np.ones(at, np.float32)
        high[o["hand"]:o["hand"] + R] = copies
        high[o["hand_sizes"]:o["hand_sizes"] + n] = deck
        low[o["scores"]:o["scores"] + n] = -WIDE
        high[o["scores"]:o["scores"] + n] = WIDE
        high[o["stock"]] = high[o["discard"]] = deck
        low[o["counters"]:o["counters"] + len(self.counters)] = -WIDE
        high[o["counters"]:o["counters"] + len(self.counters)] = WIDE
        if shown:
            high[o["seen_hands"]:o["seen_hands"] + R * (n - 1)] = np.tile(copies, n - 1)
        if backs:
            high[o["other_faces"]:o["other_faces"] + R * (n - 1)] = np.tile(self._deck_counts(self.back), n - 1)
        self.low, self.high = low, high
        self._kind = {k: o["decision"] + i for i, k in enumerate(DECISION_KINDS)}
        # per card id, the face seen (None: the id itself), as a tuple to read card by card
        self._face = tuple(self.face.tolist()) if r.faces else None
        self._back = tuple(self.back.tolist()) if backs else None
        self._orders = [[(seat + place) % n for place in range(n)] for seat in range(n)]
        self.every_hand = "every hand" in r.sees
        self._blank = np.zeros(at, np.float32)
        self._kinds = R                       # card ids: rules.size, read at every step

    def _deck_counts(self, faces) -> np.ndarray:
        """The most cards of the deck that can show each face: on either side, as cards turn."""
        deck = np.array(self.rules.deck, dtype=np.intp)
        R = self.rules.size
        both = np.bincount(faces[deck], minlength=R)
        if self.rules.faces:
            both = both + np.bincount(faces[np.array(self.rules.cards.other, dtype=np.intp)[deck]], minlength=R)
        return both.astype(np.float32)

    def encode(self, game: Game, seat: int, kind: str) -> np.ndarray:
        """The observation of `seat` (deciding something of `kind`, or nothing: None)."""
        o = self.offsets
        n, R = self.n, self._kinds
        face, back = self._face, self._back
        obs = self._blank.copy()
        hands = game.hands
        self._count(obs, o["hand"], hands[seat], face)
        if game.discard:
            top = game.discard[-1]
            obs[o["top"] + (top if face is None else face[top])] = 1
        ci = self.color_index.get(game.color)
        obs[o["color"] + (ci if ci is not None else len(self.colors))] = 1
        sizes, scores, partners, playing = o["hand_sizes"], o["scores"], o["partners"], o["playing"]
        teams, inactive, score = game.teams, game.inactive, game.scores
        team = teams[seat]
        for place, s in enumerate(self._orders[seat]):
            obs[sizes + place] = len(hands[s])
            obs[scores + place] = score[s]
            obs[partners + place] = teams[s] == team
            obs[playing + place] = not inactive[s]
        obs[o["direction"]] = game.direction == 1
        obs[o["stock"]] = len(game.stock)
        obs[o["discard"]] = len(game.discard)
        if self.counters:
            counters = game.counters
            at = o["counters"]
            obs[at:at + len(self.counters)] = [counters.get(name, 0) for name in self.counters]
        if game.windows:
            at = o["windows"]
            for (name, subject) in game.windows:
                obs[at + self.window_index[name] * n + (subject - seat) % n] = 1
        if kind is not None:
            obs[self._kind[kind]] = 1
        if self.shown and (self.every_hand or game.revealed.get(seat)):
            at = o["seen_hands"] - R                     # place 1 is the first block
            seen = game.visible_hands(seat) if self.every_hand else game.revealed_to(seat)
            for s, cards in seen.items():
                if s != seat:
                    self._count(obs, at + (s - seat) % n * R, cards, face)
        if back is not None:
            at = o["other_faces"] - R
            for place, s in enumerate(self._orders[seat]):
                if place:
                    self._count(obs, at + place * R, hands[s], back)
        if game.stock and not game._lazy:
            card = game.stock[-1]
            if self.stock_top:
                obs[o["stock_top"] + (card if face is None else face[card])] = 1
            if back is not None:
                obs[o["stock_top_other_face"] + back[card]] = 1
        return obs

    def _count(self, obs: np.ndarray, at: int, cards, faces) -> None:
        """Fill obs[at:at + R], still zero, with how many of `cards` show each face (`faces`:
        per card id, the face seen; None: the id itself). A few cards are counted one by one,
        more at once (np.bincount): each is the faster there."""
        if len(cards) <= FEW:
            for c in cards:
                obs[at + (c if faces is None else faces[c])] += 1
            return
        ids = np.fromiter(cards if faces is None else (faces[c] for c in cards), np.intp, len(cards))
        R = self._kinds
        obs[at:at + R] = np.bincount(ids, minlength=R)


def _reveals(rules: Ruleset) -> bool:
    """Whether any rule shows a hand to a player (`reveal`)."""
    if rules.composed is None:
        return False
    return any(isinstance(node, A.Reveal) for _, decl, _ in rules.composed.items for node in A.walk(decl))
