"""Bots: players that choose among the legal actions the engine offers.

A bot is any object with `choose(game, actions) -> Action` (one of `actions`, the legal actions
of `game.decision`) and `out_of_turn(game, seat) -> Action | None` (one of
`game.window_actions(seat)`, or None), built as `Bot(rng, **options)` with a random generator
of its own, kept as `bot.rng` (saved games and web tables restore it). A bot reads only what its seat may see: `game.view(seat)`, `game.events_for(seat)`,
its own hand, the public counts and piles, the ruleset's declared facts, what the rules measurably
do (engine.probe), and copies of the game in which every card it cannot see is dealt anew
(`engine.sample.sample_for`). tests/test_bots.py
holds every bundled bot to that: its choice does not change when the hidden cards do. A bot may
also offer `pick(game, seat, cards) -> (card, color, player)`, its play among the distinct
playable cards, for the generated turn loop to ask when it plays a round out inside it
(Game.play_round_out: the search bot's worlds).

Bundled bots: `random` (the reference engines' random player), `basic` (reasons from what the
rules' cards and answers measurably do: engine.probe) and `search` (engine.search: determinized
Monte Carlo search through the engine). Other bots plug in by name (`make_bot`): an import path
`package.module:Class`, or a name that a package declares under the `unodsl.bots` entry point
group; options follow the name, `search:iterations=400`. `check_bot` builds one to check a name
before any game starts; `bot_label` is the name as a list shows it to a person.
"""
from __future__ import annotations

import importlib
import random
from importlib import metadata
from typing import NamedTuple

from ..compile.codegen import PlayTables
from ..compile.decisions import Action
from .game import Game
from .probe import asker_bucket, is_honest, knowledge

ENTRY_POINT_GROUP = "unodsl.bots"


class RandomBot:
    """Random play: a card chosen uniformly among the distinct cards it may play, then a color or
    player uniformly for it; only when it can play nothing, uniform over the other actions (draw,
    keep, answers). Never acts out of turn. This is not quite the reference engines' random play:
    it bluffs (a card whose play fails the rules' honesty test is as likely as any card), answers a
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


# How the basic bot weighs a play: what it does to the hands (a turn lost counts as this many
# cards), how hard the card is to play later, its points and how much of the hand can follow it.
TURN_CARDS = 0.6
THREAT = 3.0           # an opponent's cards count up to this much more as it nears going out
W_EFFECT, W_FIT, W_POINTS, W_FOLLOW = 0.5, 1.0, 0.3, 0.4
MOVES = 0.2            # a card moves cards between hands when it did at least this often (weighed by its flow)


def closeness(cards: float) -> float:
    """How near a hand is to going out: 1 when empty, 1/2 with one card, falling with each card."""
    return 1.0 / (1.0 + max(0.0, cards))


class BasicBot:
    """A sensible player that knows only what the rules measurably do (engine.probe).

    It plays rather than draws. Among its plays it weighs what each card's effect does to every
    hand and turn at the table, as measured, against how near each player is to going out (it
    hurts the leader, and a partner never); it plays first the cards that are hard to play later
    and keeps those that fit almost anything; it sheds points when someone is about to go out;
    and it names the color, or plays the card, that leaves most of its hand playable. A play
    whose effect moves cards between hands, or names a player, is weighed by where it measurably
    sends each hand's cards, applied to the hands as they are (a swap with the player holding
    fewest cards gains most). Each answer to a question is weighed by what it measurably costs, given how many cards the
    asker holds. Out of turn it takes an action when what it measurably does helps its side, and
    its own when that closes a window in which others could hurt it."""

    name = "basic"

    def __init__(self, rng: random.Random):
        self.rng = rng
        self._kept = None     # (knowledge, its plan, {play: the play with its closing call}): `_kept_for`

    def inline_for(self, rules, players: int) -> bool:
        """Whether this bot chooses the same inside the generated turn loop (Game's `seat_bot`):
        always, as it weighs every play from tables (`play_tables`) and asks nothing of copies of
        the game."""
        return True

    def play_tables(self, rules, players: int) -> PlayTables:
        """What its turn's play and its actions out of turn are weighed by, as tables the
        generated loop reads (codegen.bots writes the weighing out, exactly as `_best` weighs a
        play and `_action_value` an action)."""
        plan = _plan(rules, knowledge(rules, players))
        return PlayTables(self.name, plan.fit, plan.points, plan.changes, plan.bluffs, plan.flows,
                          plan.close_with_play, THREAT, W_EFFECT, W_POINTS, W_FOLLOW,
                          _out_of_turn_plan(rules, knowledge(rules, players)))

    # -- on its turn ----------------------------------------------------------------------------
    def choose(self, game: Game, actions: list) -> Action:
        d = game.decision
        if len(actions) == 1:
            return actions[0]
        kind = d.kind
        if kind in ("turn", "drawn", "more"):
            plays = [a for a in actions if a.verb == "play"]
            if not plays:
                return next((a for a in actions if a.verb in ("draw", "keep", "pass")), actions[0])
            return self._best_play(game, d.seat, plays, knowledge(game.rules, game.n))
        if d.optional:          # a choice that may be declined (`may choose`): this bot makes it
            actions = [a for a in actions if a.verb != "pass"] or actions
            if len(actions) == 1:
                return actions[0]
        if kind == "color":
            top = game.discard[-1] if game.discard else None
            return max(actions, key=lambda a: (self._follow(game, d.seat, top, a.answer, None), -actions.index(a)))
        if kind == "seat":
            return min(actions, key=lambda a: (self._side(game, d.seat, a.target), len(game.hands[a.target])))
        if kind == "card":
            know = knowledge(game.rules, game.n)
            return max(actions, key=lambda a: self._shed_value(game, game.rules.codes.get((a.answer or "").upper()), know))
        if kind == "answer":
            return self._answer(game, actions, knowledge(game.rules, game.n))
        return actions[int(self.rng.random() * len(actions))]

    def _best_play(self, game: Game, seat: int, plays: list, know) -> Action:
        best = plays[self._best(game, seat, [a[2:5] for a in plays], know)]
        # made so that it closes its player's own windows as `closing_own_windows` does, each play once
        kept = self._kept_for(game.rules, know)
        call = kept[1].close_with_play
        if call is None or best.verb != "play" or best.call is not None:
            return best
        if best.more:           # (a run: too many of them to keep)
            return best._replace(call=call)
        called = kept[2].get(best)
        if called is None:
            called = kept[2][best] = best._replace(call=call)
        return called

    def pick(self, game: Game, seat: int, cards: list) -> tuple:
        """The turn's play among the distinct playable `cards`, as (card, color, player), weighed
        as `choose` weighs it: the choice the generated turn loop asks for when this bot plays a
        round out inside it (Game.play_round_out, for the search bot's worlds)."""
        rules = game.rules
        variants = []
        for card in cards:
            program = rules.on_play[card]
            if program is None or not (program.asks_color or program.asks_target):
                variants.append((card, None, None))
            elif not program.asks_target:
                variants += [(card, color, None) for color in program.color_options]
            else:
                variants += [(a.card, a.color, a.target) for a in game._plays(seat, card)]
        if len(variants) == 1:
            return variants[0]
        return variants[self._best(game, seat, variants, knowledge(rules, game.n))]

    def _kept_for(self, rules, know) -> tuple:
        """(know, its plan, {play: the play with its closing call}), kept from the last turn."""
        kept = self._kept
        if kept is None or kept[0] is not know:
            kept = self._kept = (know, _plan(rules, know), {})
        return kept

    def _best(self, game: Game, seat: int, variants: list, know) -> int:
        """Which play of `variants` (card, color, player) weighs most: what its card does to the
        hands, how hard it is to play later, its points, and how much of the hand can follow it.
        A card that moves cards between hands, or names a player, does to the hands what its
        measured flow (engine.probe.Flow) does to them as they stand, for the place it names."""
        if len(variants) == 1:
            return 0
        plan = self._kept_for(game.rules, know)[1]
        flows = plan.flows
        hands = game.hands
        hand = hands[seat]
        sizes = list(map(len, hands))
        order = game._order_from(seat)
        weights = self._weights(game, seat, order, sizes)
        base, plain, points_weight, follow_weight = weights
        rules = game.rules
        memo, colors, static = rules._memo, rules.cards.color, rules.match_static
        fit, points, changes, bluffs = plan.fit, plan.points, plan.changes, plan.bluffs
        worth: dict = {}        # card (or card and player named) -> the play's worth but for what follows it
        best, best_score = 0, None
        last = None             # the card of the play before, and its worth: a card's colors come together
        for i, (card, color, target) in enumerate(variants):
            flow = flows[card]
            at = None if flow is None else flow[0] if target is None else \
                flow[order.index(target)] if target in order else None
            if at is not None:
                key = (card, target)
                score = worth.get(key)
                if score is None:
                    score = worth[key] = plan.fit[card] + points_weight * plan.points[card] + W_EFFECT * (
                        self._value(game, seat, order, flowed(at, sizes, order)) - base)
                last = None
            elif card == last:
                score = last_worth
            else:
                score = worth.get(card)
                if score is None:
                    cards = bluffs[card] if card in bluffs and not is_honest(game, seat, card) else changes[card]
                    if cards is None:     # (`_worth`, written out for a card that only leaves the hand)
                        score = fit[card] + points_weight * points[card] + plain
                    else:
                        score = self._worth(game, seat, order, sizes, weights, plan, card, cards)
                    worth[card] = score
                last, last_worth = card, score
            # how many of its other cards could follow it (`_follow`, written out: it runs per play)
            if static:
                if color is None:
                    color = colors[card]
                ok = memo.get((card, color))
                if ok is None:
                    ok = rules.playable_set(card, color)
                follow = sum(map(ok.__contains__, hand))
                if card in ok and card in hand:
                    follow -= 1
            else:
                follow = self._follow(game, seat, card, color, card)
            score += follow_weight * follow
            if best_score is None or score > best_score:
                best, best_score = i, score
        return best

    @staticmethod
    def _weights(game: Game, seat: int, order: list, sizes: list) -> tuple:
        """What weighs every play alike at this position: the value of the hand sizes (`_value`),
        what a card that only leaves the hand changes of it, the weight of a card's points (more
        as an opponent nears going out) and of each card that can follow. Both values are summed
        in one pass, term by term as `_value` sums them, so that they come out the same."""
        teams = game.teams
        team = teams[seat]
        mine, shed, theirs, count, fewest = 0.0, 0.0, 0.0, 0, None
        for s in order:             # the same sums, in the same order, as `_value`
            k = sizes[s]
            weighted = k * (1.0 + THREAT / (1.0 + (k if k > 0.0 else 0.0)))
            if teams[s] == team:
                if s == seat:
                    mine -= weighted
                    k -= 1
                    shed -= k * (1.0 + THREAT / (1.0 + (k if k > 0.0 else 0.0)))
                else:
                    mine -= 0.5 * weighted
                    shed -= 0.5 * weighted
            else:
                theirs += weighted
                count += 1
                if fewest is None or k < fewest:
                    fewest = k
        if count:
            base, plain = mine + theirs / count, shed + theirs / count
        else:
            base, plain = mine, shed
        near = closeness(fewest) if count else 0.0        # closeness falls as a hand grows
        return base, W_EFFECT * (plain - base), W_POINTS * (0.5 + near), W_FOLLOW / max(1, sizes[seat])

    def _worth(self, game: Game, seat: int, order: list, sizes: list, weights: tuple, plan, card: int, cards) -> float:
        """A play's worth but for what can follow it: how hard its card is to play later, its
        points, and what it does to the hands (`cards`: the change by place, or None)."""
        base, plain, points_weight, _ = weights
        score = plan.fit[card] + points_weight * plan.points[card]
        if cards is None:
            return score + plain
        after = _applied(sizes, order, cards, played=True)
        return score + W_EFFECT * (self._value(game, seat, order, after) - base)

    @staticmethod
    def _value(game: Game, seat: int, order: list, sizes: list) -> float:
        """How good the hand sizes are for the seat's side, in cards: fewer cards on its side
        (a partner's count half), more on the opponents' (averaged over them); every hand's cards
        weigh more as it nears going out."""
        teams = game.teams
        team = teams[seat]
        mine, theirs, count = 0.0, 0.0, 0
        for s in order:
            k = sizes[s]
            weighted = k * (1.0 + THREAT / (1.0 + (k if k > 0.0 else 0.0)))
            if teams[s] == team:
                mine -= weighted if s == seat else 0.5 * weighted
            else:
                theirs += weighted
                count += 1
        return mine + theirs / count if count else mine

    @staticmethod
    def _shed_value(game: Game, card, know) -> float:
        """Worth playing now: hard to play later, and heavy in points when someone is near out."""
        if card is None:
            return 0.0
        plan = _plan(game.rules, know)
        seat = game.decision.seat if game.decision is not None else None
        near = max((closeness(len(game.hands[s])) for s in game.opponents(seat)), default=0.0) if seat is not None else 0.0
        return plan.fit[card] + W_POINTS * (0.5 + near) * plan.points[card]

    @staticmethod
    def _follow(game: Game, seat: int, top, color, played) -> int:
        """How many of the seat's other cards could follow `top` under `color`."""
        r = game.rules
        if top is None:
            return 0
        if color is None:
            color = r.cards.color[top]
        hand = game.hands[seat]
        if r.match_static:
            ok = r.playable_set(top, color)
            count = sum(map(ok.__contains__, hand))
            return count - 1 if played is not None and played in ok and played in hand else count
        colors = r.cards.color
        count = [colors[c] for c in hand].count(color)
        return count - 1 if played is not None and colors[played] == color and played in hand else count

    @staticmethod
    def _side(game: Game, seat: int, other: int) -> int:
        """0 for an opponent, 1 for oneself or a partner."""
        return int(game.teams[other] == game.teams[seat])

    # -- answers --------------------------------------------------------------------------------
    def _answer(self, game: Game, actions: list, know) -> Action:
        """The answer that measurably costs least, given how many cards the asker holds, asked by
        a sensible player (one who played the card because nothing else fitted), when measured."""
        d = game.decision
        measured = answer_changes(know, d.options)
        if measured is None:
            return actions[int(self.rng.random() * len(actions))]
        asker = game.turn
        bucket = asker_bucket(len(game.hands[asker]))
        sizes = [len(h) for h in game.hands]
        order = game._order_from(d.seat)
        scored = []
        for a in actions:
            change = measured.get(a.verb)
            if change is None:
                scored.append((0.0, a))
                continue
            after = list(sizes)
            after[d.seat] += change[0][bucket]
            if asker != d.seat:
                after[asker] += change[1][bucket]
            scored.append((self._value(game, d.seat, order, after), a))
        best = max(v for v, _ in scored)
        ties = [a for v, a in scored if v >= best - ANSWER_TIE]
        return ties[int(self.rng.random() * len(ties))] if len(ties) > 1 else ties[0]

    # -- out of turn ----------------------------------------------------------------------------
    def out_of_turn(self, game: Game, seat: int) -> Action | None:
        options = game.window_actions(seat)
        if not options:
            return None
        measured, harms = _out_of_turn_plan(game.rules, knowledge(game.rules, game.n))
        sizes = [len(h) for h in game.hands]
        order = game._order_from(seat)
        base = self._value(game, seat, order, sizes)
        best, best_value = None, 0.0
        weighed: dict = {}      # (verb, on whom, with a card) -> its value: the same for every card and color
        for a in options:
            subject = a.target if a.target is not None else seat
            key = (a.verb, subject, a.card is not None)
            value = weighed.get(key)
            if value is None:
                value = weighed[key] = self._action_value(game, seat, order, sizes, base, measured, harms, key)
            if value > best_value + 1e-9:
                best, best_value = a, value
        return best

    def _action_value(self, game: Game, seat: int, order: list, sizes: list, base: float, measured: dict,
                      harms: dict, key: tuple) -> float:
        """What an action out of turn measurably does for the seat's side (-inf: never measured);
        its own action also avoids what others could do to it in the window it closes. An action
        on another seat changes that seat's hand by what it measurably did to the seats it was on,
        wherever they sat (a catch on one's partner costs one's own side), and the actor's own."""
        verb, subject, played = key
        own = subject == seat
        found = measured.get((verb, own))
        if found is None:
            return float("-inf")
        window, cards, on_subject = found
        if own or on_subject is None:
            after = _applied(sizes, order, cards, played)
        else:
            after = list(sizes)
            after[seat] += cards[0] - (1 if played else 0)
            after[subject] += on_subject
        value = self._value(game, seat, order, after) - base
        if own:
            worst = 0.0
            for mean in harms[window]:
                after = list(sizes)
                after[seat] += mean
                worst = max(worst, base - self._value(game, seat, order, after))
            value += worst
        return value


def _out_of_turn_plan(rules, know) -> tuple:
    """What the basic bot weighs actions out of turn by, derived once per ruleset and table size:
    {(verb, on oneself): (its window, its measured change of each place's hand, its change of the
    hand it was on, a lost turn counted as TURN_CARDS cards: None when it mostly puts something
    off)} for the actions measured at least once, and {window: the mean change of the subject's
    hand by each action others may take in it} (what closing one's own window avoids)."""
    key = ("basic bot out of turn", know.players)
    found = rules._memo.get(key)
    if found is None or found[0] is not know:
        measured, harms = {}, {w.name: [] for w in rules.windows}
        for verb in rules.window_verbs():
            window = _window_of(rules, verb)
            for own in (False, True):
                effect = know.windows.get((window, verb, own))
                if effect is not None and effect.count:
                    on_subject = None if effect.deferred >= 0.5 else effect.subject + TURN_CARDS * effect.subject_lost
                    measured[(verb, own)] = (window, changes(effect), on_subject)
        for (w, verb, own) in know.windows:
            if not own and w in harms:
                harms[w].append(know.subject_change.get((w, verb), 0.0))
        found = rules._memo[key] = (know, (measured, harms))
    return found[1]


def changes(effect) -> list:
    """An action's measured change of each place's hand, a lost turn counted as TURN_CARDS
    cards; for an action that mostly puts something off, the change by the actor's next turn."""
    if effect.deferred >= 0.5:
        return list(effect.later)
    return [c + TURN_CARDS * lost for c, lost in zip(effect.cards, effect.lost)]


def _applied(sizes: list, order: list, cards, played: bool) -> list:
    """Hand sizes after an action with these changes by place (order[0] acted); a card played
    leaves the actor's hand."""
    after = list(sizes)
    for place, s in enumerate(order):
        after[s] += cards[place]
    if played:
        after[order[0]] -= 1
    return after


class _Plan(NamedTuple):
    """What the basic bot derives from a ruleset's knowledge once: per card id."""
    changes: tuple        # the measured change of each place's hand, or None if it changes nothing
    bluffs: dict          # card id -> the same when played against the rules' honesty test
    flows: tuple          # per card: None, or (spread, offset) per place it names, for a card that moves
                          # cards between hands or names a player (`flowed`)
    fit: tuple            # W_FIT * how hard the card is to play later
    points: tuple         # its points, as a share of the most a card carries
    close_with_play: str | None  # the call said with a play, closing the player's own window (`_closing_call`)


def _plan(rules, know) -> _Plan:
    key = ("basic bot plan", know.players)
    found = rules._memo.get(key)
    if found is None or found[0] is not know:
        points = rules.cards.points
        top = max(1, max(abs(p or 0) for p in points))
        def changed(effect):
            c = changes(effect)
            return tuple(c) if any(abs(x) > 1e-9 for x in c) else None
        plan = _Plan(tuple(changed(know.effects[c]) for c in range(rules.size)),
                     {c: changed(e) if e.count else changed(know.effects[c]) for c, e in know.bluffs.items()},
                     tuple(_flow_table(rules, know, c) for c in range(rules.size)),
                     tuple(W_FIT * (1.0 - p) for p in know.playability),
                     tuple((points[c] or 0) / top for c in range(rules.size)), _closing_call(rules, know))
        found = rules._memo[key] = (know, plan)
    return found[1]


def _flow_table(rules, know, card: int):
    """The card's measured flow as the bot weighs it: per place it names, (spread, what each
    place gains besides, a lost turn counted as TURN_CARDS cards), or None where never tried;
    None for a card that neither moves cards between hands (at least MOVES of the time) nor
    names a player, or whose flow was never measured."""
    program = rules.on_play[card]
    flow = know.flows.get(card)
    if flow is None or not ((program is not None and program.asks_target) or know.effects[card].moved >= MOVES):
        return None
    return tuple(None if spread is None else
                 (spread, tuple(e + TURN_CARDS * lost for e, lost in zip(flow.extra[p], flow.lost[p])))
                 for p, spread in enumerate(flow.spread))


def flowed(at: tuple, sizes: list, order: list) -> list:
    """Hand sizes after a play whose flow by place is `at` (spread, offset), order[0] its player,
    whose played card leaves its hand: place j holds offset[j] + the sum over places i of
    spread[i][j] times what place i held. Seats out of the order keep their hands. codegen.bots and
    native.basic write the same sums in the same order."""
    spread, offset = at
    before = [sizes[t] for t in order]
    before[0] -= 1
    after = list(sizes)
    for j, t in enumerate(order):
        x = offset[j]
        for i, b in enumerate(before):
            x += spread[i][j] * b
        after[t] = x
    return after


def closing_own_windows(game: Game, action: Action, know=None) -> Action:
    """The play, made so that it closes as it lands the windows it opens for its player (`play X
    VERB`, whatever the rules call it), when others could measurably hurt the player in them."""
    if action.verb != "play" or action.call is not None:
        return action
    know = know if know is not None else knowledge(game.rules, game.n)
    call = _plan(game.rules, know).close_with_play
    return action._replace(call=call) if call is not None else action


def _closing_call(rules, know) -> str | None:
    """The player's own call (`player may VERB`, without a card) of a window that lets the others
    do something measurably costing the player cards, said with a play to close it as it lands;
    None when no window is worth closing."""
    for w in rules.windows:
        own = next((a.verb for a in w.actions if a.who == "player" and a.card_test is None), None)
        if own is not None:
            if any(know.subject_change.get((w.name, a.verb), 0.0) > 0 for a in w.actions if a.who != "player"):
                return own
    return None


ANSWER_TIE = 1e-9      # answers whose values differ by less are equally good (one is drawn)


def answer_changes(know, options: tuple) -> dict | None:
    """What each answer to the question of these `options` measurably changes, per asker bucket
    (engine.probe.asker_bucket): {answer: (the answerer's hand, a lost turn counted as TURN_CARDS
    cards; the asker's hand)}, each a tuple by bucket (a bucket tried fewer than five times takes
    the pooled mean); None when nothing was measured (the answer is then drawn at random). Kept
    per knowledge: the basic bot and the native engine's tables both read it."""
    key = ("basic answers", options)
    found = know.derived.get(key)
    if found is None:
        measured = know.careful_answers.get(options) or know.answers.get(options)
        found = know.derived[key] = (_answer_table(measured),) if measured else (None,)
    return found[0]


def _answer_table(measured: dict) -> dict:
    out = {}
    for verb, effect in measured.items():
        own, asker = [], []
        for b in range(len(effect.count)):
            if effect.count[b] >= 5:
                mine, theirs, lost = effect.own[b], effect.asker[b], effect.lost[b]
            else:
                mine, theirs, lost = (_pooled(effect.own, effect.count), _pooled(effect.asker, effect.count),
                                      _pooled(effect.lost, effect.count))
            own.append(mine + TURN_CARDS * lost)
            asker.append(theirs)
        out[verb] = (tuple(own), tuple(asker))
    return out


def _pooled(values: tuple, counts: tuple) -> float:
    total = sum(counts)
    return sum(v * c for v, c in zip(values, counts)) / total if total else 0.0


def _window_of(rules, verb: str) -> str:
    return rules.window_verbs()[verb][0][0].name


def _play_to_turn_of(game: Game, seat: int, rng: random.Random, limit: int = 200) -> None:
    """Play a copy on at random until the seat's next turn, the round's end or `limit` steps."""
    for _ in range(limit):
        d = game.decision
        if d is None or d.kind == "deal" or game.round_over or (d.kind == "turn" and d.seat == seat):
            return
        actions = game.legal_actions()
        game.apply_trusted(actions[int(rng.random() * len(actions))])


# -- finding bots by name ---------------------------------------------------------------------

def _search_bot():
    from .search import SearchBot
    return SearchBot


BOTS = {"random": RandomBot, "basic": BasicBot}
LAZY = {"search": _search_bot}


class BotError(ValueError):
    """A bot name that names no bot, or options it does not take; the message says why."""


def bot_names() -> list:
    """The bundled bots and those installed packages declare (entry points), sorted."""
    return sorted(set(BOTS) | set(LAZY) | {ep.name for ep in _entry_points()})


def _entry_points():
    try:
        return list(metadata.entry_points(group=ENTRY_POINT_GROUP))
    except Exception:                     # a broken installed package must not break the bundled bots
        return []


def parse_spec(spec: str) -> tuple:
    """`name[:key=value...]` or `module.path:Class[:key=value...]` -> (name, {key: value})."""
    if not isinstance(spec, str) or not spec.strip():
        raise BotError("name a bot: " + ", ".join(bot_names()))
    parts = spec.strip().split(":")
    name, rest = parts[0], parts[1:]
    if rest and "=" not in rest[0] and name not in bot_names():     # module.path:Class
        name, rest = f"{name}:{rest[0]}", rest[1:]
    options = {}
    for item in rest:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise BotError(f"bot options are key=value, not `{item}` (in `{spec}`)")
        options[key.strip()] = _option_value(value.strip())
    return name, options


def _option_value(text: str):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def bot_class(name: str):
    """The class (or factory) a bot name stands for."""
    if name in BOTS:
        return BOTS[name]
    if name in LAZY:
        return LAZY[name]()
    for ep in _entry_points():
        if ep.name == name:
            try:
                return ep.load()
            except Exception as err:
                raise BotError(f"the bot `{name}` could not be loaded: {err}") from None
    if ":" in name:
        module, _, attr = name.partition(":")
        try:
            found = importlib.import_module(module)
            for part in attr.split("."):
                found = getattr(found, part)
        except (ImportError, AttributeError) as err:
            raise BotError(f"no bot at `{name}`: {err}") from None
        return found
    raise BotError(f"no bot called `{name}`: use one of {', '.join(bot_names())}, "
                   f"or an import path like package.module:Class")


def check_bot(spec: str) -> str:
    """Raise BotError unless `spec` names a bot that can be built with its options."""
    name, options = parse_spec(spec)
    cls = bot_class(name)
    try:
        bot = cls(random.Random(0), **options)
    except TypeError as err:
        raise BotError(f"the bot `{name}` does not take these options: {err}") from None
    for method in ("choose", "out_of_turn"):
        if not callable(getattr(bot, method, None)):
            raise BotError(f"`{name}` is not a bot: it has no {method}(...) method")
    return spec


def bot_label(spec: str) -> str:
    """A bot as a person reads it in a list: its own short name (the class's `name`, else the
    name it was given), then its options, `search, iterations 50`."""
    name, options = parse_spec(spec)
    try:
        title = getattr(bot_class(name), "name", None)
    except BotError:
        title = None
    if not isinstance(title, str) or not title.strip():
        title = name.rpartition(":")[2] or name
    return ", ".join([title.strip()] + [f"{key} {value}" for key, value in options.items()])


def make_bot(spec: str, rng: random.Random):
    """A bot built from its name (with options) and a random generator of its own."""
    name, options = parse_spec(spec)
    cls = bot_class(name)
    try:
        return cls(rng, **options)
    except TypeError as err:
        raise BotError(f"the bot `{name}` does not take these options: {err}") from None
