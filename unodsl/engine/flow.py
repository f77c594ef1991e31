"""Rounds and turns: dealing, the starter card, the generic turn loop, a card's play, and the
end of a round.

Each round is a generator of its own. `_play_round` is the generic turn loop that the generated
code (unodsl.compile.codegen) is tested against; `play_gen` plays a card from a hand.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..compile.codegen import generate
from ..compile.decisions import Action, Decision
from ..compile.expressions import Ctx
from .windows import Interrupt

MAX_TURNS_PER_ROUND = 5000
MAX_TURNS_PER_GAME = 50_000      # the longest bundled games last under 2,000 turns
MAX_ROUNDS = 500
MAX_AS_IF = 20           # effects applied again inside one another (`as if X played C`)

DEAL = Decision(None, "deal", prompt="Deal the next round")


@dataclass
class Position:
    """A position to start from instead of dealing (scenario files build these)."""
    hands: list
    discard: list = field(default_factory=list)
    starter: int | None = None
    color: str | None = None
    stock: list = field(default_factory=list)        # first drawn first
    direction: int = 1
    turn: int | None = None
    dealer: int | None = None
    scores: list | None = None
    called: tuple = ()        # seats whose call at one card (say, UNO) is already made
    face: int = 0             # two-faced cards: the face in play (0: the first)
    teams: list | None = None
    counters: dict = field(default_factory=dict)     # counter values other than their start
    eliminated: tuple = ()                          # seats already out of the game


class RoundLoop:
    """Yielded by a round's generator: play this round's turn loop, then resume me."""
    __slots__ = ("loop",)

    def __init__(self, loop):
        self.loop = loop


class RoundFlow:
    """Mixed into Game: sets rounds up, runs their turns and ends them."""

    def _play_one_round(self, position):
        """Set a round up (dealt, or laid out as `position`), play it, and return the decision
        that follows it: deal the next round, or None when the game is over."""
        self.round += 1
        if position is not None:
            yield from self._setup_position(position)
        else:
            yield from self._deal_round(self.round == 1)
        yield RoundLoop(self._code.play_round(self))      # run by _resume until the round ends
        return self._after_round()

    def _after_round(self):
        """The decision that follows a finished round: deal the next, or None when the game is over."""
        if self.game_over:
            return None
        if self.round >= MAX_ROUNDS or self.turns >= MAX_TURNS_PER_GAME:
            self.stalemate = (f"no one had won after {MAX_ROUNDS} rounds" if self.round >= MAX_ROUNDS else
                              f"no one had won after {MAX_TURNS_PER_GAME:,} turns")
            self.event("stalemate", reason=self.stalemate)
            self.end_game("highest")
            return None
        return DEAL

    def play_round_out(self, seat_bot) -> None:
        """Play the rest of this round with `seat_bot` in every seat, inside the generated turn
        loop, in one call, without decisions or an event log: the fast way for a search to see
        where a copy of a game leads. The bot is one the simulator plays there (`inline_ok`: the
        random one), or one with `pick(game, seat, cards) -> (card, color, player)`, which then
        chooses each turn's play among the distinct playable `cards` (it plays whenever it can;
        its other choices, answers and drawn cards, are the random policy's, and nobody acts out
        of turn). The game must keep no log, have no runs of cards and wait for a turn.
        Afterwards only its result is to be read (round_over, winner, hands, scores): it cannot
        be played on."""
        d = self.decision
        if self.record or self.rules.runs is not None or d is None or d.kind != "turn":
            raise ValueError("only an unrecorded game waiting for a turn, without runs, is played out this way")
        pick = callable(getattr(seat_bot, "pick", None))
        if not (pick or getattr(seat_bot, "inline_ok", False)):
            raise ValueError("this bot cannot be played inside the turn loop")
        self._seat_bot, self._seat_rand = seat_bot, seat_bot.rng.random
        self._bot_loop = False
        self._code = generate(self.rules, self.n, Interrupt, MAX_TURNS_PER_ROUND, sim=True, pick=pick)
        self._round = self._gen = self._legal = None
        self.decision = None
        for _ in self._code.play_round(self):     # the simulator's loop never stops for a decision
            raise RuntimeError("the simulator's turn loop asked for a decision")

    def _round_resumed(self):
        """Stands for `_play_one_round` in a copy of a game made during a round (engine.sample):
        it waits where that generator waits while the round's turn loop runs."""
        yield
        return self._after_round()

    def _reset_round(self) -> None:
        n = self.n
        self.hands = [[] for _ in range(n)]
        self.stock, self.discard = [], []
        self.color, self.direction = None, 1
        self.skips = [0] * n                  # 1: loses its next turn
        self.windows = {}                     # (window name, subject seat) -> (WindowRule, card it opened on)
        self.next_override = None             # the seat that plays next, if a rule said so
        self.round_over, self.winner = False, None
        self.round_points = [0] * n
        self._turns_before += self.round_turns
        self.round_turns = 0
        self.counters = dict(self.rules.counters)
        self.benched = [False] * n            # out for this round only
        self.inactive = list(self.eliminated)  # eliminated or benched: passed over in play
        self._n_active = self.inactive.count(False)
        self._update_plain()
        self.idle_turns = 0                   # turns in a row in which nobody played or drew
        self.turns_without_play = 0           # turns in a row in which nobody played
        self.out_of_turn = 0                  # actions out of turn this round (see windows.MAX_OUT_OF_TURN)
        self._held = {}                       # (window, seat) -> its `opens when` condition held last time
        self._end_now = False
        self._as_if_depth = 0
        self.face = 0                         # two-faced cards: the face in play (0: the first)
        self.revealed = {}                    # viewer -> {seat: cards seen, or None: the live hand}
        self._reveal_ends = {}                # (viewer, seat) -> "turn" or "round"
        self.drew_on = [None] * n             # what each seat's last drawing turn showed (Game._note_turn)

    def _setup_teams(self) -> None:
        """Partners across the table: only for an even number of players, four or more."""
        if self.n >= 4 and self.n % 2 == 0 and self.rules.teams(Ctx(self)):
            half = self.n // 2
            self.teams = [s % half for s in range(self.n)]

    def _deal_round(self, first: bool):
        r = self.rules
        self._reset_round()
        if first:
            self._setup_teams()
            if self.dealer is None:
                self.dealer = self._choose_dealer()
        self.stock = stock = list(r.deck)
        # a dealt stock is drawn at random (after a laid-out round too), unless the rules put cards
        # on it or read its order (two-faced cards turn it over, a seen top card is drawn next):
        # then it is shuffled once the hands are dealt
        self._lazy = not r.ordered_stock
        count = int(r.deal(Ctx(self)) or 0)
        order = self._order_from(self.next_seat(self.dealer))
        hands, rand = self.hands, self._rand
        for _ in range(count):
            if not stock:
                break
            for s in order:
                if stock:      # a fresh stock is drawn at random (see _take)
                    i = int(rand() * len(stock))
                    hands[s].append(stock[i])
                    stock[i] = stock[-1]
                    stock.pop()
        if r.ordered_stock:
            self.rng.shuffle(stock)
        if self.record:
            self.event("deal", dealer=self.dealer, cards=count)
        if self._code.round_start is not None:
            yield from self._code.round_start(self)
        elif r.on_round_start is not None:
            yield from r.on_round_start.run(Ctx(self, player=self.dealer))
        yield from self._code.turn_starter(self, None)

    def _choose_dealer(self) -> int:
        """Each contender turns a card from the deck; the highest value deals, ties turn again."""
        r = self.rules
        if r.dealer_value is None:
            return self.rng.randrange(self.n)
        deck, rand, size = r.deck, self._rand, len(r.deck)
        contenders = list(range(self.n))
        ctx = Ctx(self)
        while len(contenders) > 1:
            picked: list = []           # distinct places in the deck, each uniformly at random
            while len(picked) < len(contenders):
                i = int(rand() * size)
                if i not in picked:
                    picked.append(i)
            if r.dealer_values is not None:
                values = [r.dealer_values[deck[i]] for i in picked]
            else:
                values = []
                for i in picked:
                    ctx.card = deck[i]
                    values.append(r.dealer_value(ctx) or 0)
            best = max(values)
            contenders = [s for s, v in zip(contenders, values) if v == best]
        if self.record:
            self.event("dealer", seat=contenders[0])
        return contenders[0]

    def _turn_starter(self, card):
        r = self.rules
        while True:
            if card is None:
                card = self._take()
            if card is None:
                break
            self.discard.append(card)
            self.color = r.cards.color[card]
            if self.record:
                self.event("starter", card=card)
            program = r.starter[card]
            ctx = Ctx(self, player=self.dealer, card=card)
            if program is not None:
                yield from program.run(ctx)
            if not ctx.redo:
                break
            card = None
        self.turn = self.dealer
        self._advance()

    def _setup_position(self, p: Position):
        for s in p.eliminated:
            self.eliminated[s] = True
        self._reset_round()
        self.counters.update(p.counters)
        r = self.rules
        self.face = p.face
        self.hands = [list(h) for h in p.hands]
        self.stock = list(reversed(p.stock))
        self.discard = list(p.discard)
        self.direction = p.direction
        if p.scores is not None:
            self.scores = list(p.scores)
        if p.teams is not None:
            self.teams = list(p.teams)
        else:
            self._setup_teams()
        if p.starter is not None:
            yield from self._turn_starter(p.starter)
            if p.turn is not None:
                self.turn = p.turn
        else:
            self.color = p.color if p.color is not None else r.cards.color[self.discard[-1]]
            self.turn = p.turn if p.turn is not None else 0
        if p.color is not None:
            self.color = p.color
        for s in range(self.n):
            self._open_windows(s, None)
        for s in p.called:
            self.windows = {k: w for k, w in self.windows.items() if k[1] != s}

    def _play_round(self):
        """The generic turn loop. `codegen` writes a specialised copy of it for each ruleset; this
        one stays as the reference the generated loop is tested against."""
        r = self.rules
        turn_decisions = [Decision(s, "turn") for s in range(self.n)]
        if r.settles:
            self.settle()
        while not self.round_over:
            s = self.turn
            action = yield turn_decisions[s]
            if isinstance(action, Interrupt):
                if (yield from self._interrupted(action)):
                    break
                continue
            self.round_turns += 1
            active_before = self._n_active
            self._close_turn_windows()
            self._drew_this_turn = 0
            self._played_this_turn = False
            if action.verb == "play":
                yield from self.play_gen(s, action)
            else:
                ctx = Ctx(self, player=s, actor=s)
                self.event("draw_turn", seat=s)
                if r.on_draw.plain is not None:
                    r.on_draw.plain(ctx)
                else:
                    yield from r.on_draw.run(ctx)
            if r.settles:
                self.settle()
            if self._end_now:
                self._finish_round(None)
                break
            out = self._gone_out(s)
            if out is not None:
                yield from self._end_round(out)
                break
            moved = self._played_this_turn or self._drew_this_turn or self._n_active != active_before
            self.idle_turns = 0 if moved else self.idle_turns + 1
            self.turns_without_play = 0 if self._played_this_turn else self.turns_without_play + 1
            if r.blocked is None:
                blocked = self.idle_turns >= max(2, self.active_count())
            else:
                blocked = bool(r.blocked(Ctx(self, player=s, actor=s)))
            if blocked or self.round_turns >= MAX_TURNS_PER_ROUND:
                yield from self._stalled()
                break
            self._advance()

    def _interrupted(self, action: Interrupt):
        """Run an out-of-turn action that arrived at a turn decision; True when it ended the round."""
        self._played_this_turn = False
        yield from action.program.run(action.ctx)
        if self.rules.settles:
            self.settle()
        s = self.turn
        if self._after_turn_ends_round(s):
            yield from self._end_round(self._gone_out(s))
            return True
        if self._played_this_turn or self.inactive[s]:    # play goes on from a card played out of
            self._advance()                               # turn, or past a player now out
        return False

    def _stalled(self):
        """End a round nobody can finish: no one could act for a lap, or it ran too long."""
        self.declare_stalemate()
        yield from self._end_round(None)

    def declare_stalemate(self) -> None:
        r = self.rules
        if self.round_turns >= MAX_TURNS_PER_ROUND and (r.blocked is not None or not self.idle_turns):
            self.stalemate = f"the round passed {MAX_TURNS_PER_ROUND} turns"
        elif r.blocked is not None:
            self.stalemate = r.blocked_doc or "the round is blocked, as the rules define it"
            self.stats["blocked"] = self.stats.get("blocked", 0) + 1     # the rules' own end of a round
        else:
            self.stalemate = "nobody could play or draw"
        self.event("stalemate", reason=self.stalemate)

    def _after_turn_ends_round(self, seat) -> bool:
        return self._end_now or self._gone_out(seat) is not None

    def play_out_of_turn(self, seat: int, card: int, ctx: Ctx):
        """`X plays C` out of turn: earlier skips are cancelled and play goes on from X."""
        self.out_of_turn_start(seat)
        yield from self.play_gen(seat, Action(seat, "play", card, ctx.color_arg, ctx.target_arg), jumped=True)

    def out_of_turn_start(self, seat: int) -> None:
        """Before a card played out of turn lands: earlier skips are cancelled and play goes on
        from its player."""
        self.skips = [0] * self.n
        self.next_override = None
        self.turn = seat

    def chance_gen(self, options: tuple, prompt: str, kind: str, event: str | None = None):
        """A real-world or chance outcome: drawn by the game's generator, or asked as a decision
        (of kind `kind`). It is logged as an event `kind` (a race, a number) or, for one member of
        a collection, `chance`; a card picked by chance is not named there, since it may be hidden."""
        if self.chance == "ask":
            answer = yield Decision(None, kind, tuple(options), prompt)
        else:
            answer = options[self.rng.randrange(len(options))]
        if event is None:
            self.event(kind, outcome=answer, prompt=prompt)
        elif kind == "card":
            self.event("chance", of="card", prompt=prompt)
        else:
            self.event("chance", of=kind, outcome=answer, prompt=prompt)
        return answer

    def play_gen(self, seat: int, action: Action, jumped: bool = False):
        """Play a card from a hand: it lands, windows open, then its effect runs."""
        r = self.rules
        card = action.card
        ctx = Ctx(self, player=seat, card=card, actor=seat, color_arg=action.color, target_arg=action.target)
        ctx.jumped = jumped
        outer = self._journal
        journal = self._journal = [] if r.undoable else None
        if action.more:
            card = yield from self.run_gen(seat, card, action.more)
            ctx.card = card
        honest = r.honest[card]
        if honest is not None:
            ctx.honest = bool(honest(ctx))
        self._lay(seat, card)
        if r.windows:
            self._open_windows(seat, card, ctx)
        if action.call is not None:
            self.say_call(seat, action.call)
        program = r.on_play[card]
        if program is not None:
            if program.plain is not None:
                program.plain(ctx)
            else:
                yield from program.run(ctx)
        if journal is not None:
            self.last_journal = journal
        self._journal = outer
        for after in r.after_play:
            if after.plain is not None:
                after.plain(ctx)
            else:
                yield from after.run(ctx)

    def _lay(self, seat: int, card: int) -> None:
        """A played card leaves the hand for the discard pile; its color, if it has one, is now
        the color in play."""
        self.hands[seat].remove(card)
        self.discard.append(card)
        self._played_this_turn = True
        color = self.rules.cards.color[card]
        if color is not None:
            self.color = color
        if self.record:
            self.event("play", seat=seat, card=card)

    def run_gen(self, seat: int, first: int, more: tuple):
        """A run (`play runs where`): every card but the last lands on the pile in order (and,
        when each card acts, takes effect as it lands); returns the last card, which the play
        goes on with. The cards were checked before (LegalActions._check_run)."""
        r = self.rules
        cards = (first, *more)
        for card in cards[:-1]:
            self._lay(seat, card)
            program = r.on_play[card]
            if r.runs_each_acts and program is not None:
                yield from program.run(Ctx(self, player=seat, card=card, actor=seat))
        return cards[-1]

    def effect_gen(self, seat, card):
        """Run a card's effect as if `seat` had played it (a starter card, or `as if X played C`).
        Effects that apply effects again stop at MAX_AS_IF deep, with an event in the log."""
        program = self.rules.on_play[card] if card is not None else None
        if program is None or not isinstance(seat, int):
            return
        depth = self._as_if_depth
        if depth >= MAX_AS_IF:
            self.event("loop_limit", limit=MAX_AS_IF)
            return
        self._as_if_depth = depth + 1
        try:
            yield from program.run(Ctx(self, player=seat, card=card))
        finally:
            self._as_if_depth = depth

    def _gone_out(self, seat):
        hands = self.hands
        if hands[seat]:
            if all(hands) or all(h or self.inactive[s] for s, h in enumerate(hands)):
                return next(s for s in range(self.n) if not self.inactive[s]) if self._n_active == 1 else None
        elif self._active(seat):
            return seat
        for s in self._order_from(seat):
            if not self.hands[s]:
                return s
        if self.active_count() == 1:
            return next(s for s in range(self.n) if self._active(s))
        return None

    def _end_round(self, winner):
        self._finish_round(winner)
        program = self.rules.on_round_end
        if program is not None:
            yield from program.run(Ctx(self, player=winner))
        self.event("round_end", winner=winner, points=list(self.round_points), scores=list(self.scores))

    def _finish_round(self, winner) -> None:
        self.round_over = True
        self.winner = winner
        self.windows = {}

    def _advance(self) -> None:
        if self.next_override is not None:
            self.turn, self.next_override = self.next_override, None
            return
        s = self.turn
        skips = self.skips
        for _ in range(2 * self.n + 1):
            s = self.clockwise(s, self.direction)
            if skips[s]:
                skips[s] = 0
                self.event("skipped", seat=s)
                continue
            break
        self.turn = s

    def return_starter(self, ctx: Ctx) -> None:
        self.put_back_starter()
        ctx.redo = True

    def end_round_now(self) -> None:
        self._end_now = True
