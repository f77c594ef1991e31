"""Copies of a game to think with: an exact fork, and a sample of what one seat cannot see.

A bot that looks ahead (the search bot) plays copies of the game through the engine, so it needs
no model of the rules of its own. `fork` copies a game stopped at a turn (or between rounds) and lets the copy play on with its
own random generator, leaving the original untouched. `sample_for` is the copy a seat may think
with: every card that seat cannot see (the other hands and the stock) is dealt anew at random,
each hand keeping its size. The sample is built only from what the seat may see (its own hand,
the public piles and counts, and the multiset of unseen cards, which follows from them), so a bot
that thinks with samples chooses the same whatever the hidden cards are (tests/test_bots.py).
"""
from __future__ import annotations

import random

from ..compile.codegen import generate
from .flow import MAX_TURNS_PER_ROUND
from .game import Game
from .windows import Interrupt

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
    if kind is tuple:           # shared unless it holds a container (a tuple of plain values cannot change)
        if not any(v.__class__ in _CONTAINERS for v in value):
            return value
        return tuple([_copy(v, memo) if v.__class__ in _CONTAINERS else v for v in value])
    if kind is set:
        return set(value)
    return value


_CONTAINERS = (list, dict, set, tuple)


def can_fork(game: Game) -> bool:
    """Whether the game stands where a copy can pick it up: at a turn, between rounds, or over.
    A seat bot's loop that asks it every choice (Game._bot_loop) stands at a turn only at the
    turn's head, the one place it sets a turn's decision; other seats played inside the loop
    never stand anywhere."""
    d = game.decision
    return (game._seat_bot is None or game._bot_loop) and (d is None or d.kind in ("turn", "deal"))


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
    if game._seat_bot is not None:            # a seat bot's loop: the copy plays on through the step API
        clone._seat_bot = clone._seat_rand = None
        clone._bot_loop = clone._out_of_turn_due = False
        clone._code = generate(game.rules, game.n, Interrupt, MAX_TURNS_PER_ROUND)
    if game._round is None:                   # between rounds, or over: no round is running
        clone._gen = clone._round = None
        return clone
    clone._gen = clone._round_resumed()
    next(clone._gen)
    clone._round = clone._code.play_round(clone)
    clone.decision = clone._round.send(None)     # the turn loop's head: the same turn decision
    return clone


def sample_for(game: Game, seat: int, rng: random.Random, infer: bool = False) -> Game:
    """A fork of `game` in which every card `seat` cannot see is dealt anew at random
    (`Game.deal_unseen_anew`: hand sizes kept, and the other faces the rules show). It depends
    only on what the seat may see. infer: believe that the others play sensibly, so that a seat
    that drew rather than played held nothing it could play (`_respect_draws`)."""
    clone = fork(game, rng)
    clone.deal_unseen_anew(seat, rng, clone.hands, clone.stock)   # in place: a journal entry may hold a hand
    if infer:
        _respect_draws(clone, seat, rng)
    clone.revealed = {seat: clone.revealed[seat]} if seat in clone.revealed else {}
    clone.last_journal = [_resampled(entry, clone, seat, rng) for entry in clone.last_journal]
    return clone


def _respect_draws(game: Game, seat: int, rng: random.Random) -> None:
    """Make the sample agree with what the others' drawing turns showed (`Game.drew_on`): of a
    seat that drew on its last turn, the cards it held then (as many as it holds now, at most)
    are none it could have played (which of its cards those are is drawn at random: the others
    were drawn since, and may be anything). A card that breaks this changes places with one that does not,
    taken at random from the unseen stock or the hands that showed nothing. Only where unseen
    cards are all alike (no other faces shown): there the swap reveals nothing."""
    rules = game.rules
    notes = game.drew_on
    if not any(notes) or ("other faces" in rules.sees and rules.faces):
        return
    seen = game.visible_hands(seat)
    hidden = [s for s in range(game.n) if s != seat and s not in seen]
    stock = game.stock
    under = len(stock) - (bool(stock) and not game._lazy and "stock top" in rules.sees)
    free = [(stock, i) for i in range(under)]
    free += [(game.hands[s], i) for s in hidden if notes[s] is None for i in range(len(game.hands[s]))]
    for s in hidden:
        if notes[s] is None:
            continue
        top, color, counters, held = notes[s]
        kinds = game.playable_kinds(top, color, counters)
        if kinds is None:
            continue
        hand = game.hands[s]
        places = list(range(len(hand)))
        rng.shuffle(places)                               # which of them are the cards drawn since
        for i in places[len(hand) - min(held, len(hand)):]:
            if hand[i] not in kinds:
                continue
            for _ in range(len(free)):                   # a few tries find one in a large stock
                place, j = free[int(rng.random() * len(free))]
                if place[j] not in kinds:
                    hand[i], place[j] = place[j], hand[i]
                    break


def _resampled(entry, clone: Game, seat: int, rng: random.Random):
    """A journal entry of the last play (what `cancel top` would undo) that names cards another
    seat drew names, in the sample, cards of that seat's sampled hand instead: which cards they
    drew is hidden, and the undo must find them there."""
    if not entry or entry[0] != "draw" or entry[1] == seat:
        return entry
    hand = clone.hands[entry[1]]
    count = min(len(entry[2]), len(hand))
    return ("draw", entry[1], rng.sample(hand, count))
