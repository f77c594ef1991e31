"""What a ruleset's cards, answers and out-of-turn actions do, measured by playing them.

The basic bot reasons from the rules it is given, not from UNO's habits: it does not know that a
Wild is worth keeping or that a challenge is risky, it measures it. Once per ruleset and table
size, `knowledge` plays random games through the engine (a card whenever one may be played, so
that hands shrink as in real games) and, at sampled turns, tries on copies
of the game (engine.sample.fork) every card of the stock, every answer to the questions those
plays raise, and every out-of-turn action open at that moment, and records what each did:

- how often a card may be played at all (`playability`): a card that fits almost anything is
  easy to play later, so it is worth keeping;
- what the action did by the next turn (`Effect`): how each hand changed and whose turns were
  passed over, by place at the table counted from the one who acted, and whether cards moved
  from hand to hand (a hand passed or swapped: then what the card does depends on the position,
  and the bot weighs it by its flow instead, below). An action that changes a counter puts
  something off (a penalty that grows until someone cannot answer it), so for it the changes are
  counted again when the one who acted has its next turn;
- for a card that moves cards between hands or names a player (`flows`), how it moves them: how
  many cards each place holds by the next turn for each card each place held before, and what
  it gains besides, apart for each place of the player it names. This is measured on the same
  positions by giving one place a few more cards at a time, with the same random numbers, so a
  hand swapped, passed on or shuffled into the others shows where it went; the bot then works
  out what such a play does to the hands as they are, instead of what it did on average;
- for each answer to a question, what it cost the one who answered and the one who asked, by
  how many cards the asker held (the asker's hand says something the answer depends on), and
  separately for askers who had nothing else to play (`careful_answers`: a sensible player
  plays a card that can be questioned when nothing else fits).

A card the rules give an honesty test to (`honest ... if`) is measured apart when played against
it (`bluffs`): what a bluff costs depends on being questioned.

Everything is measured with one fixed seed and looked up by card id, answer and window, never
by a name, so renaming a ruleset's words changes none of it.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from ..compile.decisions import Action
from ..compile.expressions import Ctx
from ..compile.ruleset import Ruleset
from .game import Game
from .sample import can_fork, fork

PROBE_SEED = 0x9E0BE
BASES = 16                 # turns at which every card of the stock is tried
POSITIONS = 80             # turns at which playability is counted
WINDOW_TRIES = 8           # tries of each out-of-turn action
MAX_TURNS = 1500           # turns played at most looking for open windows
MAX_STEPS = 200            # steps played on after a tried action
FLOW_EXTRA = 4             # cards given to one place at a time to see where its hand goes
FLOW_BASES = 12            # turns, with every player still in, at which where cards go is measured
FLOW_SURE = 4              # flow bases after which tries that all agreed are enough
ASKER_BUCKETS = (3, 6)     # asker's hand size: up to 3, up to 6, more


@dataclass(frozen=True)
class Effect:
    """What an action did on average. Places count from the seat that acted (0) in the direction
    of play before it acted; a card it played is not counted as a change of its hand."""
    cards: tuple       # mean change of each place's hand by the next turn
    lost: tuple        # how often each place was passed over before the next turn
    moved: float       # how often cards went from one hand to another
    deferred: float    # how often the action changed a counter (put something off)
    later: tuple       # for those: mean change of each place's hand by the actor's next turn
    count: int
    subject: float = 0.0        # mean change of the hand of the seat acted on (the actor, for a play)
    subject_lost: float = 0.0   # how often that seat was passed over before the next turn


@dataclass(frozen=True)
class Flow:
    """How playing a card moves cards between hands, by the next turn: for each place of the player
    the play names (place 0 for a card that names nobody), `spread[i][j]`, how many cards place j
    holds for each card place i held before (the card played not counted), and `extra[j]`, what
    place j holds besides (cards drawn, discarded), so that place j holds about
    sum_i spread[i][j] * before[i] + extra[j]; `lost[j]`, how often place j was passed over.
    An entry is None for a place the play was never tried naming. Places count from the player."""
    spread: tuple      # per named place: n rows of n
    extra: tuple       # per named place: n
    lost: tuple        # per named place: n
    count: tuple       # per named place: tries


@dataclass(frozen=True)
class AnswerEffect:
    """What one answer to a question cost by the next turn, on average, for askers holding few,
    some or many cards (one value per asker bucket)."""
    own: tuple         # change of the answerer's hand
    asker: tuple       # change of the asker's hand
    lost: tuple        # how often the answerer was passed over
    count: tuple       # tries


@dataclass(frozen=True)
class Knowledge:
    players: int
    playability: tuple     # per card id: how often it may be played at a turn
    effects: dict          # card id -> Effect of playing it (honestly, when the rules say when)
    bluffs: dict           # card id -> Effect of playing it when the rules' honesty test fails
    answers: dict          # options of a question -> {answer: AnswerEffect}
    careful_answers: dict  # the same, asked only by players who had nothing else to play
    windows: dict          # (window, verb, on oneself) -> Effect, places counted from the actor
    subject_change: dict   # (window, verb) -> mean change of the subject's hand
    flows: dict = field(default_factory=dict)   # card id -> Flow, for cards that move cards or name a player
    derived: dict = field(default_factory=dict, compare=False, repr=False)   # what bots work out from it, kept


def knowledge(rules: Ruleset, players: int) -> Knowledge:
    """The measured knowledge of this ruleset at this table size, computed once and kept."""
    key = ("bot knowledge", players)
    found = rules._memo.get(key)
    if found is None:
        found = rules._memo[key] = _Probe(rules, players).run()
    return found


def _surely_unplayable(game: Game, seat: int, card: int) -> bool:
    """Whether `card` may not be played now where the rules decide that from the pile alone (the
    top card, the color, the counters), asked of the game itself: most cards of the stock cannot
    be played, and copying the game to try each was most of a probe's time."""
    r = game.rules
    return r.match_static and (r.restrict_static or not r.restrictions) and not game.is_playable(seat, card)


def is_honest(game: Game, seat: int, card: int) -> bool:
    """Whether playing the card now meets the rules' honesty test for it (True when it has none)."""
    test = game.rules.honest[card]
    return test is None or bool(test(Ctx(game, player=seat, card=card, actor=seat)))


def asker_bucket(size: int) -> int:
    for i, top in enumerate(ASKER_BUCKETS):
        if size <= top:
            return i
    return len(ASKER_BUCKETS)


class _Sums:
    """Running sums for one kind of action."""
    __slots__ = ("cards", "lost", "moved", "deferred", "later", "count", "subject", "subject_lost")

    def __init__(self, n: int):
        self.cards, self.lost, self.later = [0.0] * n, [0.0] * n, [0.0] * n
        self.moved = self.deferred = self.subject = self.subject_lost = 0.0
        self.count = 0

    def effect(self) -> Effect:
        k = max(1, self.count)
        later = tuple(c / max(1.0, self.deferred) for c in self.later)
        return Effect(tuple(c / k for c in self.cards), tuple(x / k for x in self.lost), self.moved / k,
                      self.deferred / k, later, self.count, self.subject / k, self.subject_lost / k)


class _Probe:
    def __init__(self, rules: Ruleset, players: int):
        self.rules, self.n = rules, players
        self.rng = random.Random(PROBE_SEED)
        self.cards = {c: _Sums(players) for c in range(rules.size)}
        self.bluffs = {c: _Sums(players) for c in range(rules.size) if rules.honest[c] is not None}
        self.windows: dict = {}
        self.subjects: dict = {}
        self.answers: dict = {}
        self.careful: dict = {}
        self.playable = [0] * rules.size
        self.turns_seen = 0
        self.flow_bases: list = []     # (copy of the game, seat, seed) where cards' flows are measured
        self.flow_rng = random.Random(PROBE_SEED + 2)    # (its own: the other measures stay as they were)

    def run(self) -> Knowledge:
        rng, n = self.rng, self.n
        bases = turns = guard = 0
        windows_known = self._windows_known()
        game = Game(self.rules, n, rng=random.Random(PROBE_SEED + 1), record=False)
        while (turns < POSITIONS or bases < BASES or (turns < MAX_TURNS and not windows_known)) and guard < 200_000:
            guard += 1
            d = game.decision
            if game.game_over or d is None:
                game = Game(self.rules, n, rng=random.Random(rng.getrandbits(32)), record=False)
                continue
            if d.kind == "turn" and can_fork(game):
                turns += 1
                if len(self.flow_bases) < FLOW_BASES and self.flow_rng.random() < 0.2 and \
                        len(game._order_from(d.seat)) == n:
                    seed = self.flow_rng.getrandbits(32)
                    self.flow_bases.append((fork(game, random.Random(seed)), d.seat, seed))
                if turns <= POSITIONS:
                    self._count_playable(game, d.seat)
                if bases < BASES and rng.random() < 0.2:
                    bases += 1
                    self._try_cards(game, d.seat)
                if game.windows and not windows_known:
                    self._try_windows(game)
                    windows_known = self._windows_known()
            game.apply_trusted(_shedding(game.legal_actions(), rng.random))
        return Knowledge(n, tuple(p / max(1, self.turns_seen) for p in self.playable),
                         {c: s.effect() for c, s in self.cards.items()},
                         {c: s.effect() for c, s in self.bluffs.items()},
                         {opts: {o: _answer_effect(v) for o, v in per.items()} for opts, per in self.answers.items()},
                         {opts: {o: _answer_effect(v) for o, v in per.items()} for opts, per in self.careful.items()},
                         {k: s.effect() for k, s in self.windows.items()},
                         {k: total / max(1, count) for k, (total, count) in self.subjects.items()},
                         self._flows())

    def _windows_known(self) -> bool:
        for w in self.rules.windows:
            for a in w.actions:
                for own in ((True,) if a.who == "player" else (False,) if a.who == "others" else (True, False)):
                    found = self.windows.get((w.name, a.verb, own))
                    if found is None or found.count < WINDOW_TRIES:
                        return False
        return True

    def _count_playable(self, game: Game, seat: int) -> None:
        self.turns_seen += 1
        playable = self.playable
        for c in range(self.rules.size):
            if game.is_playable(seat, c):
                playable[c] += 1

    # -- cards and the questions they raise -----------------------------------------------------
    def _try_cards(self, base: Game, seat: int) -> None:
        """Every card of the stock, played in turn by the seat to play. Each try plays on with
        the same random numbers (common random numbers), so that tries differ by their card."""
        seed = self.rng.getrandbits(32)
        for card in range(self.rules.size):
            if card in base.stock:
                self._try_card(base, seat, card, seed)

    # -- how cards move between hands -----------------------------------------------------------
    def _flows(self) -> dict:
        """Flow of each card that moves cards between hands, or names a player, tried at every
        flow base, once per player it may name."""
        out = {}
        for card in range(self.rules.size):
            program = self.rules.on_play[card]
            names = program is not None and program.asks_target
            if not names and self.cards[card].moved <= 0:
                continue
            sums: dict = {}
            for k, (base, seat, seed) in enumerate(self.flow_bases):
                self._try_flows(base, seat, card, seed, sums)
                if k + 1 >= FLOW_SURE and _agreed(sums):
                    break
            if sums:
                out[card] = _flow(sums, self.n)
        return out

    def _try_flows(self, base: Game, seat: int, card: int, seed: int, sums: dict) -> None:
        """The card played by `seat` naming each player it may (the first color it may name),
        whether or not it fits the pile there (where cards go does not depend on it, and the tries
        are many more), first as the hands stand, then with FLOW_EXTRA more cards in one place at
        a time: with the same random numbers, what those cards changed says where that place's
        hand went."""
        game = _holding(base, seat, card, seed)
        order = game._order_from(seat)
        n = len(order)
        targets = dict.fromkeys(a.target for a in game._plays(seat, card))
        for target in targets:
            place = 0 if target is None else order.index(target) if target in order else None
            if place is None:
                continue
            before, after, lost = self._flow_try(base, seat, card, seed, target, order, None)
            if after is None:
                continue
            spread = []
            for i in range(n):
                _, more, _ = self._flow_try(base, seat, card, seed, target, order, i)
                if more is None:
                    break
                moved = [m - a for m, a in zip(more, after)]
                # cards given are kept by the hands, unless something (a hand thrown in at a limit)
                # is not in proportion to them: such a try says nothing of where hands go
                spread.append([d / FLOW_EXTRA for d in moved] if sum(moved) == FLOW_EXTRA else None)
            else:
                sums.setdefault(place, []).append((before, after, lost, spread))

    def _flow_try(self, base: Game, seat: int, card: int, seed: int, target, order: list, extra_at):
        """(hands by place before, by the next turn, and who was passed over), the play naming
        `target`, with FLOW_EXTRA cards from the stock given to place `extra_at` first (None:
        none); (None, None, None) when the stock is too short."""
        game = _holding(base, seat, card, seed)
        action = next(a for a in game._plays(seat, card) if a.target == target)
        if extra_at is not None:
            if len(game.stock) < FLOW_EXTRA:
                return None, None, None
            hand = game.hands[order[extra_at]]
            for _ in range(FLOW_EXTRA):
                hand.append(game.stock.pop(0))
        before = [len(game.hands[s]) for s in order]
        before[0] -= 1
        game.apply_trusted(action)
        _play_on(game, None, stop_at_question=False)
        return before, [len(game.hands[s]) for s in order], [_passed_over(game, seat, s) for s in order]

    @staticmethod
    def _with_card(base: Game, seat: int, card: int, seed: int):
        """A copy of the game in which the seat holds `card` (taken from the stock), and the play
        it will try; (None, None) when the card may not be played now."""
        if _surely_unplayable(base, seat, card):
            return None, None
        game = fork(base, random.Random(seed))
        game.stock.remove(card)
        game.hands[seat].append(card)
        if not game.is_playable(seat, card):
            return None, None
        variants = game._plays(seat, card)
        return game, variants[int(game.rng.random() * len(variants))]

    def _try_card(self, base: Game, seat: int, card: int, seed: int) -> None:
        game, action = self._with_card(base, seat, card, seed)
        if game is None:
            return
        sums = self.bluffs[card] if not is_honest(game, seat, card) else self.cards[card]
        before = _Before(game, seat, card)
        game.apply_trusted(action)
        asked = _play_on(game, None, stop_at_question=False)
        before.record(sums, game)
        if asked is not None:
            self._try_answers(base, seat, card, seed, asked, careful=not base.playable(seat))

    def _try_answers(self, base: Game, seat: int, card: int, seed: int, asked, careful: bool) -> None:
        """The same play again (the same random numbers lead to the same question), once per
        answer to the question it raised; `careful`: the asker had nothing else to play."""
        d, asker_size = asked
        tables = [self.answers.setdefault(d.options, {})]
        if careful:
            tables.append(self.careful.setdefault(d.options, {}))
        bucket = asker_bucket(asker_size)
        for option in d.options:
            game, action = self._with_card(base, seat, card, seed)
            sizes = [len(h) for h in game.hands]
            game.apply_trusted(action)
            _play_on(game, None, stop_at_question=True)
            if game.decision is None or game.decision.kind != "answer":
                return
            answerer = game.decision.seat
            game.apply_trusted(Action(answerer, option))
            _play_on(game, None, stop_at_question=False)
            measured = (len(game.hands[answerer]) - sizes[answerer], len(game.hands[seat]) - (sizes[seat] - 1),
                        _passed_over(game, seat, answerer), 1)
            for per in tables:
                sums = per.setdefault(option, [[0.0, 0.0, 0.0, 0] for _ in range(len(ASKER_BUCKETS) + 1)])[bucket]
                for i, value in enumerate(measured):
                    sums[i] += value

    # -- out of turn ----------------------------------------------------------------------------
    def _try_windows(self, base: Game) -> None:
        for t in range(self.n):
            for action in base.window_actions(t):
                key = (_window_of(self.rules, action.verb), action.verb, action.target in (None, t))
                if key not in self.windows or self.windows[key].count < WINDOW_TRIES:
                    self._try_window(base, action, key)

    def _try_window(self, base: Game, action: Action, key) -> None:
        game = fork(base, random.Random(self.rng.getrandbits(32)))
        actor = action.seat
        subject = action.target if action.target is not None else actor
        before = _Before(game, actor, action.card)
        try:
            game.apply(action)
        except Exception:      # a window the copy could not take: nothing to learn from it
            return
        _play_on(game, None, stop_at_question=False)
        before.record(self.windows.setdefault(key, _Sums(self.n)), game, subject)
        total, count = self.subjects.get(key[:2], (0.0, 0))
        self.subjects[key[:2]] = (total + len(game.hands[subject]) - before.sizes[subject], count + 1)


class _Before:
    """The table before a tried action, to measure the action by."""

    def __init__(self, game: Game, actor: int, played):
        self.actor = actor
        self.order = game._order_from(actor)
        self.sizes = [len(h) for h in game.hands]
        self.hands = [Counter(h) for h in game.hands]
        self.counters = dict(game.counters)
        if played is not None:                # a card played is not a change of the hand
            self.sizes[actor] -= 1
            self.hands[actor][played] -= 1

    def record(self, sums: _Sums, game: Game, subject: int | None = None) -> None:
        """Add what the action did by the next turn, and for one that changed a counter, by the
        actor's next turn too (playing the copy on); what it did to the seat it was on (`subject`,
        the actor when None) is kept apart too, as that seat's place differs from try to try."""
        subject = self.actor if subject is None else subject
        for place, s in enumerate(self.order):
            sums.cards[place] += len(game.hands[s]) - self.sizes[s]
            sums.lost[place] += _passed_over(game, self.actor, s)
        sums.subject += len(game.hands[subject]) - self.sizes[subject]
        sums.subject_lost += _passed_over(game, self.actor, subject)
        sums.moved += _moved(self.hands, game.hands)
        sums.count += 1
        if game.counters != self.counters and not game.round_over:
            sums.deferred += 1
            _play_on(game, self.actor, stop_at_question=False)
            for place, s in enumerate(self.order):
                sums.later[place] += len(game.hands[s]) - self.sizes[s]


def _play_on(game: Game, until_seat, stop_at_question: bool):
    """Play a copy on at random (with its own generator) to the next turn (of `until_seat`, when
    given) or the round's end, or to the first question when `stop_at_question`. Returns the
    first question met on the way, with the asker's hand size, or None."""
    asked = None
    rand = game.rng.random
    for _ in range(MAX_STEPS):
        d = game.decision
        if d is None or d.kind == "deal" or game.round_over:
            break
        if d.kind == "turn" and (until_seat is None or d.seat == until_seat):
            break
        if d.kind == "answer" and asked is None:
            asked = (d, len(game.hands[game.turn]))
            if stop_at_question:
                break
        actions = game.legal_actions()
        game.apply_trusted(actions[int(rand() * len(actions))])
    return asked


def _shedding(actions: list, rand):
    """A random action, a play whenever there is one: positions like those of real games, where
    hands shrink and windows about the last cards open."""
    plays = [a for a in actions if a.verb == "play"]
    pick = plays or actions
    return pick[int(rand() * len(pick))]


def _passed_over(game: Game, actor: int, seat: int) -> bool:
    """Whether `seat` was passed over between the actor and the turn that follows."""
    d = game.decision
    if game.round_over or d is None or d.kind != "turn" or seat == actor or d.seat == seat:
        return False
    order = game._order_from(actor)
    if d.seat not in order or seat not in order:
        return False
    return d.seat == actor or order.index(seat) < order.index(d.seat)


def _moved(before: list, after_hands: list) -> bool:
    """Whether some card left one hand for another (not drawn, not played)."""
    for t, hand in enumerate(after_hands):
        gained = Counter(hand) - before[t]
        if not gained:
            continue
        for s, old in enumerate(before):
            if s != t and gained & (old - Counter(after_hands[s])):
                return True
    return False


def _window_of(rules: Ruleset, verb: str) -> str:
    return rules.window_verbs()[verb][0][0].name


def _holding(base: Game, seat: int, card: int, seed: int) -> Game:
    """A copy of the game in which the seat holds `card`, taken from the stock when it is there
    (else one more: only where hands go is measured with it)."""
    game = fork(base, random.Random(seed))
    if card in game.stock:
        game.stock.remove(card)
    game.hands[seat].append(card)
    return game


def _agreed(sums: dict) -> bool:
    """Whether every try so far sent every place's cards to the same places (a swap, a passing of
    hands: where cards go does not depend on the position, and more tries would say the same)."""
    for tries in sums.values():
        first = tries[0][3]
        if any(t[3] != first for t in tries) or any(row is None for row in first):
            return False
    return True


def _flow(sums: dict, n: int) -> Flow:
    """The mean spread, extra and passing over per named place, from each try's
    (before, after, lost, spread): extra is what the try's own spread leaves unexplained."""
    spread, extra, lost, count = [None] * n, [None] * n, [None] * n, [0] * n
    for place, tries in sums.items():
        k = len(tries)
        mean = []
        for i in range(n):
            rows = [t[3][i] for t in tries if t[3][i] is not None]
            # no try kept the cards given to place i: its hand is taken to stay where it is
            mean.append([sum(r[j] for r in rows) / len(rows) for j in range(n)] if rows else
                        [float(i == j) for j in range(n)])
        rest = [sum(t[1][j] - sum(mean[i][j] * t[0][i] for i in range(n)) for t in tries) / k for j in range(n)]
        spread[place] = tuple(tuple(row) for row in mean)
        extra[place] = tuple(rest)
        lost[place] = tuple(sum(t[2][j] for t in tries) / k for j in range(n))
        count[place] = k
    return Flow(tuple(spread), tuple(extra), tuple(lost), tuple(count))


def _answer_effect(buckets: list) -> AnswerEffect:
    def mean(i):
        return tuple(b[i] / b[3] if b[3] else 0.0 for b in buckets)
    return AnswerEffect(mean(0), mean(1), mean(2), tuple(b[3] for b in buckets))
