"""Copies of a game to think with: an exact fork, and a sample of what one seat cannot see.

A bot that looks ahead (the search bot, the basic bot weighing an effect that depends on the
position) plays copies of the game through the engine, so it needs no model of the rules of its
own. `fork` copies a game stopped at a turn (or between rounds) and lets the copy play on with its
own random generator, leaving the original untouched. `sample_for` is the copy a seat may think
with: every card that seat cannot see (the other hands and the stock) is dealt anew at random,
each hand keeping its size, and what the rules let it see of them (hands shown to it, the other
faces of two-faced cards, the stock's top) as it is. The sample is built only from what the seat may see (its own hand,
the public piles and counts, and the multiset of unseen cards, which follows from them), so a bot
that thinks with samples chooses the same whatever the hidden cards are (tests/test_bots.py).
"""
from __future__ import annotations

import random

from .game import Game

# Attributes a copy shares with its original (immutable, or rebuilt below) instead of copying.
_SHARED = frozenset({"rules", "_code", "_fixed_actions", "_window_verbs", "rng", "_rand", "_gen",
                     "_round", "_seat_bot", "_seat_rand", "events", "log", "decision", "_legal",
                     "_journal"})


def _copy(value, memo: dict):
    """A copy of the game's own containers (lists, dicts, sets, tuples holding them) of plain
    values; other objects (rules, window rules) are shared. The game's containers each hold one
    kind of thing, so the first item says whether the items need copying too. A list held in two
    places (a hand, and the journal entry that would give it back) is copied once, so the copy
    holds it in both."""
    kind = value.__class__
    if kind is list:
        found = memo.get(id(value))
        if found is None:
            if value and value[0].__class__ in _CONTAINERS:
                found = [_copy(v, memo) for v in value]
            else:
                found = value[:]
            memo[id(value)] = found
        return found
    if kind is dict:
        if value and next(iter(value.values())).__class__ in _CONTAINERS:
            return {k: _copy(v, memo) for k, v in value.items()}
        return value.copy()
    if kind is tuple:
        return tuple([_copy(v, memo) if v.__class__ in _CONTAINERS else v for v in value])
    if kind is set:
        return set(value)
    return value


_CONTAINERS = (list, dict, set, tuple)


def can_fork(game: Game) -> bool:
    """Whether the game stands where a copy can pick it up: at a turn, between rounds, or over."""
    d = game.decision
    return game._seat_bot is None and (d is None or d.kind in ("turn", "deal"))


def fork(game: Game, rng: random.Random) -> Game:
    """An independent copy of `game` that plays on exactly as the original would, except that
    its random events (draws from the stock, races) come from `rng`. It keeps no event log.

    Only a game waiting for a turn or for the next deal can be forked (`can_fork`): inside a turn
    part of the state lives in the running turn loop, which cannot be copied."""
    if not can_fork(game):
        raise ValueError("a game can be copied only at a turn or between rounds")
    clone = Game.__new__(Game)
    state, memo = clone.__dict__, {}
    for name, value in game.__dict__.items():
        state[name] = _copy(value, memo) if value.__class__ in _CONTAINERS and name not in _SHARED else value
    clone.rng, clone._rand = rng, rng.random
    clone.record = False
    clone.events, clone.log = [], []
    clone._journal, clone._legal = None, None
    clone.decision = game.decision
    if game._round is None:                   # between rounds, or over: no round is running
        clone._gen = clone._round = None
        return clone
    clone._gen = clone._round_resumed()
    next(clone._gen)
    clone._round = clone._code.play_round(clone)
    clone.decision = clone._round.send(None)     # the turn loop's head: the same turn decision
    return clone


def unseen(game: Game, seat: int) -> list:
    """The cards `seat` cannot see, sorted: every other hand and the stock."""
    cards = list(game.stock)
    for s, hand in enumerate(game.hands):
        if s != seat:
            cards.extend(hand)
    return sorted(cards)


def sample_for(game: Game, seat: int, rng: random.Random) -> Game:
    """A fork of `game` in which every card `seat` cannot see is dealt anew at random: each other
    hand keeps its size, the rest is the stock. It depends only on what the seat may see; where
    the rules let the seat see more than its own hand (hands shown to it, the other faces of
    two-faced cards, the stock's top card), what it sees stays as it is (`_sample_seen`)."""
    clone = fork(game, rng)
    seen = clone.visible_hands(seat)
    rules = clone.rules
    backs = "other faces" in rules.sees and bool(rules.faces)
    if seen or backs or "stock top" in rules.sees:
        _sample_seen(clone, seat, rng, seen, backs)
    else:
        pool = unseen(clone, seat)
        rand = rng.random
        left = len(pool)
        for s, hand in enumerate(clone.hands):
            if s == seat:
                continue
            for k in range(len(hand)):        # each card of the hand drawn at random from the pool
                i = int(rand() * left)
                left -= 1
                hand[k] = pool[i]             # in place: a journal entry may hold the same list
                pool[i] = pool[left]
            # (the rest of the pool is the stock: a sampled stock is drawn at random, in any order)
        del pool[left:]
        clone.stock = pool
        clone._lazy = True                    # the sampled stock is drawn at random
    clone.revealed = {seat: clone.revealed[seat]} if seat in clone.revealed else {}
    clone.last_journal = [_resampled(entry, clone, seat, rng) for entry in clone.last_journal]
    return clone


def _sample_seen(clone: Game, seat: int, rng: random.Random, seen: dict, backs: bool) -> None:
    """Deal anew what `seat` cannot see, keeping what it sees: the hands shown to it stay; with
    other faces shown, each card of another hand is drawn among the unseen cards whose other face
    looks the same; a stock top it sees stays on top, the rest of the stock in random order."""
    rules = clone.rules
    other, same = rules.cards.other, rules.same_face
    stock = clone.stock
    top_seen = bool(stock) and not clone._lazy and (backs or "stock top" in rules.sees)
    top = stock[-1] if top_seen else None
    pool = list(stock[:-1]) if top_seen else list(stock)
    hidden = [s for s in range(clone.n) if s != seat and s not in seen]
    for s in hidden:
        pool.extend(clone.hands[s])
    pool.sort()
    look = (lambda card: same[other[card]]) if backs else (lambda card: None)
    by_look: dict = {}
    for card in pool:
        by_look.setdefault(look(card), []).append(card)
    rand = rng.random
    for s in hidden:
        hand = clone.hands[s]
        for k, card in enumerate(hand):   # in place: a journal entry may hold the same list
            cards = by_look[look(card)]
            i = int(rand() * len(cards))
            hand[k] = cards[i]
            cards[i] = cards[-1]
            cards.pop()
    rest = [card for cards in by_look.values() for card in cards]
    rng.shuffle(rest)
    clone.stock = rest + ([top] if top_seen else [])
    clone._lazy = not top_seen            # a stock whose top is seen is drawn in order


def _resampled(entry, clone: Game, seat: int, rng: random.Random):
    """A journal entry of the last play (what `cancel top` would undo) that names cards another
    seat drew names, in the sample, cards of that seat's sampled hand instead: which cards they
    drew is hidden, and the undo must find them there."""
    if not entry or entry[0] != "draw" or entry[1] == seat:
        return entry
    hand = clone.hands[entry[1]]
    count = min(len(entry[2]), len(hand))
    return ("draw", entry[1], rng.sample(hand, count))
