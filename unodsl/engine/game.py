"""The game engine: a state machine that plays any compiled Ruleset.

One generator drives a whole game: it deals, turns the starter card, runs turns and rounds, and
yields a `Decision` wherever someone must act. `apply(action)` checks the action against that
decision (or against an open out-of-turn window), refuses it with a message and no change if the
rules do not allow it, and otherwise resumes the generator. The rules' programs call the generic
primitives of the table, the seats and the scores; no card or variant is known here.

Game's jobs live in modules of their own, mixed into it: `table` (cards), `seats` (order of
play), `flow` (rounds and turns), `windows` (out of turn), `scoring`, `legal` (what may be
done) and `views` (what a seat may see). This module builds a game and drives it.
"""
from __future__ import annotations

import random

from ..compile.codegen import Generated, bot_loop_gap, generate
from ..compile.decisions import Action, Decision, Refused
from ..compile.ruleset import Ruleset
from .actions import format_action
from .flow import MAX_TURNS_PER_ROUND, Position, RoundFlow, RoundLoop
from .legal import LegalActions
from .scoring import Scoring
from .seats import Seats
from .table import Table
from .views import Views
from .triggers import Triggers
from .windows import Interrupt, Windows, seat_name

__all__ = ["Game", "Position", "seat_name"]


class _Halted(Exception):
    """Game.halt inside a seat bot's turn loop: the loop stops where it is, and the game is over."""


class Game(Table, Seats, RoundFlow, Windows, Scoring, LegalActions, Views, Triggers):
    """One game of a ruleset, from the first deal to its end.

    seed or rng: the game's random generator (the same seed and actions give the same game);
    dealer: the first dealer (else chosen as the rules say); position: lay the first round out
    instead of dealing it (scenarios); chance: "random" decides races and chance events with the
    generator, "ask" makes them decisions; record: keep the event log; generated: run the
    ruleset's generated turn loop (codegen), or the generic one it is tested against;
    seat_bot: a bot that plays every seat inside the turn loop (the simulator's fast path): the
    random one written out there (`inline_ok`), or any other asked each choice as the step API
    asks it, out-of-turn actions included (codegen.bot_loop_gap says which rules allow it).
    """

    def __init__(self, rules: Ruleset, players: int, seed=None, dealer: int | None = None,
                 position: Position | None = None, chance: str = "random", record: bool = True,
                 generated: bool = True, seat_bot=None, rng: random.Random | None = None):
        low, high = rules.players
        if not low <= players <= high:
            raise ValueError(f"{rules.title} is for {low} to {high} players, not {players}")
        self.rules = rules
        self.n = players
        self.seed = seed
        self.chance = chance               # "random": the game's generator decides races; "ask": a decision
        self.record = record               # keep the event log (off for fast simulation)
        self._legal = None                 # legal actions of the current decision, once listed
        self.rng = rng if rng is not None else random.Random(seed)
        self._rand = self.rng.random
        self.turn = 0
        self.dealer = players - 1 if dealer is None and position is not None else dealer
        self.scores = [0] * players
        self.eliminated = [False] * players
        self._lazy = position is None and not rules.ordered_stock   # a dealt stock is drawn at random
        self._refilling = False               # the rules' `when the stock runs out` is running
        self._settling = False                # the `whenever` rules are running
        self._held = {}
        self.order = list(range(players))     # seat at each position around the table
        self.pos = list(range(players))       # position of each seat
        self.teams = list(range(players))
        self._seated = list(range(players))   # the order of a table where nobody changed places
        self.round = 0
        self.game_over = False
        self.game_winners: list = []
        self.stalemate = ""
        self._turns_before = 0            # turns of the rounds before this one (see `turns`)
        self.round_turns = 0
        self.events: list = []
        self.log: list = []
        self.stats = {"drawn": 0, "reshuffles": 0, "stock_empty": 0, "eliminations": 0}
        self.counter_peaks: dict = {}      # the largest value each counter reached (a stacked penalty)
        self.revealed: dict = {}
        self._reveal_ends: dict = {}
        self.face = 0
        self._drew_this_turn = 0
        self.chained_plays = 0             # plays inside plays in this move (see effects.MAX_CHAINED_PLAYS)
        self._played_this_turn = False
        self._journal = None
        self.last_journal: list = []
        self._window_verbs = rules.window_verbs()
        if seat_bot is not None and record:
            raise ValueError("seats played inside the turn loop keep no event log: use record=False")
        self._seat_bot = seat_bot
        self._seat_rand = seat_bot.rng.random if seat_bot is not None else None
        self._out_of_turn_due = False         # a seat bot's choice was made: others may act out of turn
        bot = seat_bot is not None and not getattr(seat_bot, "inline_ok", False)
        self._bot_loop = bot                  # the seat bot is asked every choice, as the step API asks it
        self._asking = None                   # in its loop, an action out of turn waiting on a question
        self._waiting_offer = None            # in its written-out offer, the seats still to be offered their chance
        if seat_bot is not None or generated:
            if bot and bot_loop_gap(rules) is not None:
                raise ValueError(f"this bot cannot play inside the turn loop here: {bot_loop_gap(rules)}")
            tables = seat_bot.play_tables(rules, players) if bot and hasattr(seat_bot, "play_tables") else None
            self._code = generate(rules, players, Interrupt, MAX_TURNS_PER_ROUND, sim=seat_bot is not None,
                                  record=record, bot=bot, tables=tables)
        else:
            self._code = Generated(Game._play_round, Game._turn_starter, None, None, "", ())
        self._fixed_actions = rules.fixed_actions(players)
        self.decision: Decision | None = None
        self._round = None                    # the running round's turn loop (see _resume)
        self._gen = self._play_one_round(position)
        self._resume(None)        # sets up the first round (see _reset_round) and plays to a decision

    @property
    def turns(self) -> int:
        """Turns played in the whole game (a turn: one play, or one draw with its possible play)."""
        return self._turns_before + self.round_turns

    def _resume(self, value) -> None:
        """Send the answer to the decision into the game and run it to the next decision.

        Each round is a generator (`_play_one_round`) that sets the round up, hands over the
        round's turn loop, and returns the decision that follows the round: deal the next one, or
        None when the game is over. The turn loop runs as a generator of its own (`_round`), so
        answers go straight to it, one frame deep. Between rounds no generator is running, so a
        game left there holds no reference cycle and is freed at once."""
        self._legal = None
        try:
            if self._round is not None:
                try:
                    self.decision = self._round.send(value)
                    return
                except StopIteration:
                    self._round = None
                    value = None
            if self._gen is None:                 # the deal was answered: the next round
                self.dealer = self.clockwise(self.dealer, 1)       # the deal passes to the left
                self._gen, value = self._play_one_round(None), None
            d = self._gen.send(value)
            while d.__class__ is RoundLoop:
                try:
                    self._round = d.loop
                    d = d.loop.send(None)
                except StopIteration:
                    self._round = None
                    d = self._gen.send(None)
            self.decision = d
        except StopIteration as done:
            self._gen = None
            self.decision = done.value
        except _Halted:              # the game was halted inside a seat bot's loop: it is over
            pass

    def apply(self, action: Action) -> None:
        """Carry out an action, or raise Refused (with the state unchanged) if the rules forbid it."""
        legal = self._legal
        if legal is not None and action in legal:        # listed by legal_actions(): already checked
            d = self.decision
            kind = d.kind
            if kind in ("turn", "drawn", "more"):
                if kind == "turn":
                    if action.verb == "play":      # (`_note_turn` for a play, the most common turn)
                        self.drew_on[d.seat] = None
                    else:
                        self._note_turn(d.seat, action.verb)
                if self.record:
                    self._record(action)
                if self._round is not None:
                    self._legal = None
                    try:
                        self.decision = self._round.send(action)
                        return
                    except StopIteration:
                        self._round = None
                        action = None
                self._resume(action)
                return
        d = self.decision
        if self.game_over or d is None:
            raise Refused("the game is over")
        verb = action.verb
        answering = d.kind == "answer" and action.seat == d.seat and (
            verb in d.options or (verb == "choose" and action.answer in d.options))
        if not answering and verb in self._window_verbs:
            self._window_action(action)
            return
        if d.kind == "deal":
            if verb != "deal":
                raise Refused("the round is over: deal the next round first")
            self._record(action)
            self._resume(action)
            return
        if d.seat is not None and action.seat != d.seat:
            raise Refused(self._not_your_turn(d))
        value = self._validate(d, action)
        if d.kind == "turn":
            self._note_turn(d.seat, verb)
        if self.record:
            self._record(action, d.prompt if answering else None)
        self._resume(value)

    def apply_trusted(self, action: Action) -> None:
        """Apply an action taken from `legal_actions()` of the current decision, unchecked and
        unrecorded: the simulator's own loop, where bots only ever pick listed actions."""
        d = self.decision
        if d.kind == "turn":
            self._note_turn(d.seat, action.verb)
        self._resume(action if d.kind in ("turn", "drawn", "more", "deal") else self._validate(d, action))

    def _note_turn(self, seat: int, verb: str) -> None:
        """Keep what a turn shows everyone (`drew_on`): a seat that draws rather than plays shows,
        if it plays sensibly, that it held nothing it could play; a play ends what that showed."""
        if verb == "draw":         # kept as it stands; what it rules out is worked out when asked
            self.drew_on[seat] = (self.discard[-1] if self.discard else None, self.color,
                                  tuple(self.counters.values()) if self.rules.restrictions else (),
                                  len(self.hands[seat]))
        elif verb == "play":
            self.drew_on[seat] = None

    def _record(self, action: Action, question: str | None = None) -> None:
        text = format_action(self.rules, action)
        self.log.append((action.seat, text))
        if question is None:
            self.event("action", seat=action.seat, action=text)
        else:                     # an answer keeps its question, so that it can be told
            self.event("action", seat=action.seat, action=text, question=question)

    def _not_your_turn(self, d: Decision) -> str:
        who = seat_name(d.seat)
        if d.kind == "turn":
            return f"it is {who}'s turn"
        if d.kind == "answer":
            return f"{who} must answer first: " + " or ".join(d.options)
        return f"{who} must decide first"

    def halt(self, reason: str) -> None:
        """Stop the game at once, with no winner, when the rules go past one of the engine's
        limits (the reason names it). Called between moves, never from inside a round's flow."""
        self.stalemate = reason
        self.event("stalemate", reason=reason)
        self.game_over = self.round_over = True
        self._round = self._gen = None
        self.decision = self._legal = None
        if self._bot_loop:           # inside a seat bot's turn loop, which must not run on (see _resume)
            raise _Halted
