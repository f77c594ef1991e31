"""Bots: players that choose among the legal actions the engine offers.

A bot sees only what its seat may see (`Game.legal_actions`, its own hand, public counts), plus
the ruleset's declared facts (card points, tags, what each card's effect asks for). It knows no
card by name: "keep wilds for later" means "keep colorless cards", "challenge" is whatever answer
an `ask` offers first when the odds favour it.
"""
from __future__ import annotations

import random
from collections import Counter

from ..compile.decisions import Action
from .game import Game


class RandomBot:
    """Random play: a card chosen uniformly among the distinct cards it may play, then a color or
    player uniformly for it; only when it can play nothing, uniform over the other actions (draw,
    keep, answers). Never acts out of turn. This is not quite the reference engines' random play:
    it bluffs (a Wild Draw Four held with the current color is as likely as any card), answers a
    challenge at random, and weighs kinds of card, not cards in hand (bench/reference_policy.py
    plays as the reference loop does)."""

    name = "random"
    # The simulator may play this bot inside the generated turn loop (codegen writes its choice
    # out inline, drawing from `rng` exactly as below); tests/test_codegen.py holds the two equal.
    inline_ok = True

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, game: Game, actions: list) -> Action:
        rand = self.rng.random
        plays = [a for a in actions if a.verb == "play"]
        if plays:
            cards = list(dict.fromkeys(a.card for a in plays))
            card = cards[int(rand() * len(cards))]
            variants = [a for a in plays if a.card == card]
            return variants[int(rand() * len(variants))]
        return actions[int(rand() * len(actions))]

    def choose_turn(self, game: Game, seat: int) -> Action:
        """The same choice as `choose` for a plain turn, without listing every action first."""
        rand = self.rng.random
        cards = game.playable(seat)
        if not cards:
            return Action(seat, "draw")
        card = cards[int(rand() * len(cards))]
        program = game.rules.on_play[card]
        if program is None or not (program.asks_color or program.asks_target):
            return Action(seat, "play", card)
        variants = game._plays(seat, card)
        return variants[int(rand() * len(variants))]

    def out_of_turn(self, game: Game, seat: int) -> Action | None:
        return None


class BasicBot:
    """A sensible player: plays rather than draws, sheds high cards first, keeps colorless
    (wild) cards for when nothing else fits, names its strongest color, says UNO with its
    next-to-last card, catches others, and answers questions by simple odds."""

    name = "basic"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, game: Game, actions: list) -> Action:
        d = game.decision
        r = game.rules
        if d.kind in ("turn", "drawn"):
            plays = [a for a in actions if a.verb == "play"]
            if not plays:
                return next((a for a in actions if a.verb in ("draw", "keep")), actions[0])
            hand = game.hands[d.seat]
            # the strongest color and the weakest opponent, worked out only if a play names one
            best_color = target = None
            if any(a.color is not None for a in plays):
                counts = Counter(r.cards.color[c] for c in hand if r.cards.color[c] is not None)
                best_color = max(r.colors, key=lambda c: (counts.get(c, 0), -r.colors.index(c)))
            if any(a.target is not None for a in plays):
                target = min(game.opponents(d.seat) or game.others(d.seat) or (None,),
                             key=lambda s: len(game.hands[s]) if s is not None else 0)
            colored, points = r.cards.colored, r.cards.points

            def score(a: Action):
                c = colored[a.card]
                return (c, points[a.card] if c else -points[a.card],
                        a.color in (None, best_color), a.target in (None, target))
            best = plays[0] if len(plays) == 1 else max(plays, key=score)
            calls = r.call_verbs()
            if len(hand) == 2 and calls and best.call is None:
                best = Action(best.seat, best.verb, best.card, best.color, best.target, call=calls[0])
            return best
        if d.optional:          # a choice that may be declined: this bot always makes it
            actions = [a for a in actions if a.verb != "pass"] or actions
        if d.kind == "color":
            hand = game.hands[d.seat]
            counts = Counter(r.cards.color[c] for c in hand if r.cards.color[c] is not None)
            return max(actions, key=lambda a: counts.get(a.answer, 0))
        if d.kind == "seat":
            return min(actions, key=lambda a: len(game.hands[a.target]))
        if d.kind == "answer":
            return self._answer(game, actions)
        return actions[0]

    def _answer(self, game: Game, actions: list) -> Action:
        """Take the first answer (a challenge, say) when the asker probably held the color."""
        d = game.decision
        asker = game.next_seat(d.seat, -1)
        held = len(game.hands[asker]) if asker is not None else 0
        if len(actions) > 1 and held >= 4 and self.rng.random() < min(0.9, held / 10):
            return actions[0]
        return actions[-1]

    def out_of_turn(self, game: Game, seat: int) -> Action | None:
        for a in game.window_actions(seat):
            if a.target is not None and a.target != seat:
                return a
            if a.target is None:
                return a
        return None


BOTS = {"random": RandomBot, "basic": BasicBot}
