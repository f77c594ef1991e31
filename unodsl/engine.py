"""The game engine: a state machine that plays any compiled Ruleset.

One generator drives a whole game: it deals, turns the starter card, runs turns and rounds, and
yields a `Decision` wherever someone must act. `apply(action)` checks the action against that
decision (or against an open out-of-turn window), refuses it with a message and no change if the
rules do not allow it, and otherwise resumes the generator. The rules' programs call the generic
primitives below (draw, skip, reverse, swap hands, score ...); no card or variant is known here.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from .actions import format_action
from .codegen import Generated, generate
from .decisions import Action, Decision, Refused
from .expressions import Ctx
from .ruleset import Ruleset

MAX_TURNS_PER_ROUND = 5000
MAX_ROUNDS = 500


class _Interrupt:
    """An out-of-turn action whose rules may ask questions: run inside the game's own flow."""
    __slots__ = ("program", "ctx")

    def __init__(self, program, ctx):
        self.program, self.ctx = program, ctx


_DEAL = Decision(None, "deal", prompt="Deal the next round")


class _Round:
    """Yielded by the game's generator: play this round's turn loop, then resume me."""
    __slots__ = ("loop",)

    def __init__(self, loop):
        self.loop = loop


def seat_name(seat: int | None) -> str:
    return "nobody" if seat is None else f"p{seat + 1}"


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
    uno: tuple = ()
    teams: list | None = None


class Game:
    """One game of a ruleset, from the first deal to its end.

    seed or rng: the game's random generator (the same seed and actions give the same game);
    dealer: the first dealer (else chosen as the rules say); position: lay the first round out
    instead of dealing it (scenarios); chance: "random" decides races and chance events with the
    generator, "ask" makes them decisions; record: keep the event log; generated: run the
    ruleset's generated turn loop (codegen), or the generic one it is tested against;
    seat_bot: a random bot that plays every seat inside the turn loop (the simulator's fast path).
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
        self._lazy = position is None         # a dealt stock is drawn at random, never shuffled
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
        self._drew_this_turn = 0
        self._played_this_turn = False
        self._journal = None
        self.last_journal: list = []
        self._window_verbs = rules.window_verbs()
        if seat_bot is not None and record:
            raise ValueError("seats played inside the turn loop keep no event log: use record=False")
        self._seat_bot = seat_bot
        self._seat_rand = seat_bot.rng.random if seat_bot is not None else None
        if seat_bot is not None or generated:
            self._code = generate(rules, players, _Interrupt, MAX_TURNS_PER_ROUND, sim=seat_bot is not None,
                                  record=record)
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

    # ---- driving ------------------------------------------------------------------------------
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
            while d.__class__ is _Round:
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

    def apply(self, action: Action) -> None:
        """Carry out an action, or raise Refused (with the state unchanged) if the rules forbid it."""
        legal = self._legal
        if legal is not None and action in legal:        # listed by legal_actions(): already checked
            d = self.decision
            if d.kind in ("turn", "drawn", "more"):
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
        if self.record:
            self._record(action)
        self._resume(value)

    def apply_trusted(self, action: Action) -> None:
        """Apply an action taken from `legal_actions()` of the current decision, unchecked and
        unrecorded: the simulator's own loop, where bots only ever pick listed actions."""
        d = self.decision
        self._resume(action if d.kind in ("turn", "drawn", "more", "deal") else self._validate(d, action))

    def _record(self, action: Action) -> None:
        text = format_action(self.rules, action)
        self.log.append((action.seat, text))
        self.event("action", seat=action.seat, action=text)

    def _not_your_turn(self, d: Decision) -> str:
        who = seat_name(d.seat)
        if d.kind == "turn":
            return f"it is {who}'s turn"
        if d.kind == "answer":
            return f"{who} must answer first: " + " or ".join(d.options)
        return f"{who} must decide first"

    def _validate(self, d: Decision, a: Action):
        """Return the value to send into the game for this decision, or raise Refused."""
        r = self.rules
        if d.kind == "turn":
            if a.verb == "play":
                self._check_play(a, drawn=None)
                return a
            if a.verb == "draw":
                if not self._may_draw(a.seat):
                    raise Refused("you must play a card you can play: " +
                                  ", ".join(sorted({r.code(c) for c in self.playable(a.seat)})))
                return a
            if a.verb == "keep":
                raise Refused("you can only keep a card you have just drawn")
            raise Refused(f"it is your turn: play a card or draw (not `{a.verb}`)")
        if d.kind == "drawn":
            if a.verb == "keep":
                if d.must:
                    raise Refused(f"the drawn card {r.code(d.card)} must be played")
                return a
            if a.verb == "play":
                self._check_play(a, drawn=d.card)
                return a
            raise Refused(f"you drew {r.code(d.card)}: play it or keep it")
        if d.kind == "more":
            if a.verb == "pass":
                return a
            if a.verb == "play":
                self._check_play(a, drawn=None, options=d.options)
                return a
            raise Refused("play another card (" + ", ".join(r.code(c) for c in d.options) + ") or pass")
        if d.kind == "card":
            card = r.codes.get((a.answer or "").upper()) if a.verb == "choose" else a.card
            if card not in d.options:
                raise Refused("choose a card: " + ", ".join(r.code(c) for c in d.options))
            return card
        if d.kind == "race":
            if a.verb != "choose" or a.target not in d.options:
                raise Refused(f"{d.prompt} choose " + ", ".join(seat_name(s) for s in d.options))
            return a.target
        if d.kind == "number":
            try:
                number = int(a.answer) if a.verb == "choose" else None
            except (TypeError, ValueError):
                number = None
            if number not in d.options:
                raise Refused(f"{d.prompt} choose a number from {d.options[0]} to {d.options[-1]}")
            return number
        if d.kind == "color":
            color = a.answer if a.verb == "choose" else a.color
            if color not in d.options:
                raise Refused("choose a color: " + ", ".join(d.options))
            return color
        if d.kind == "seat":
            if a.verb != "choose" or a.target not in d.options:
                raise Refused("choose a player: " + ", ".join(seat_name(s) for s in d.options))
            return a.target
        if d.kind == "answer":
            answer = a.answer if a.verb == "choose" else a.verb
            if answer not in d.options:
                raise Refused("answer " + " or ".join(d.options))
            return answer
        raise Refused(f"nothing can be done now ({d.kind})")

    def _check_play(self, a: Action, drawn, options=None) -> None:
        r = self.rules
        card = a.card
        hand = self.hands[a.seat]
        if card is None or card not in hand:
            raise Refused(f"{seat_name(a.seat)} holds no {r.code(card) if card is not None else 'such card'}")
        if drawn is not None and card != drawn:
            raise Refused(f"after drawing you may only play the card you drew ({r.code(drawn)}) or keep it")
        if options is not None:
            if card not in options:
                raise Refused(f"{r.code(card)} may not be played now: " + ", ".join(r.code(c) for c in options))
        elif not self.is_playable(a.seat, card):
            raise Refused(self._why_not(a.seat, card))
        program = r.on_play[card]
        last = len(hand) == 1
        if a.color is not None:
            if program is None or not program.asks_color:
                raise Refused(f"{r.code(card)} takes no color")
            if a.color not in r.colors:
                raise Refused("choose a color: " + ", ".join(r.colors))
        elif program is not None and program.asks_color and not last:
            raise Refused(f"{r.code(card)} needs a color: play {r.code(card)} " + "|".join(r.colors))
        if a.target is not None:
            if program is None or not program.asks_target:
                raise Refused(f"{r.code(card)} takes no player")
            allowed = program.target_options(Ctx(self, player=a.seat, card=card, actor=a.seat))
            if a.target not in allowed:
                names = ", ".join(seat_name(s) for s in allowed) or "nobody"
                raise Refused(f"{seat_name(a.target)} cannot be chosen for {r.code(card)}: choose {names}")
        elif program is not None and program.target_required and not last:
            allowed = program.target_options(Ctx(self, player=a.seat, card=card, actor=a.seat))
            if len(allowed) > 1:
                raise Refused(f"{r.code(card)} needs a player: play {r.code(card)} ... "
                              + "|".join(seat_name(s) for s in allowed))

    def _why_not(self, seat: int, card: int) -> str:
        """Why a card may not be played: the failed `play only if` rule in its author's words,
        or the match."""
        r = self.rules
        code, top = r.code(card), r.code(self.discard[-1])
        ctx = Ctx(self, player=seat, card=card, actor=seat)
        matched = card in r.playable_set(self.discard[-1], self.color) if r.match_static else bool(r.match(ctx))
        if matched:
            for test, doc in zip(r.restrictions, r.restriction_docs):
                if not test(ctx):
                    return f"{code} may not be played now" + (f": {doc}" if doc else "")
        return f"{code} cannot be played on {top} (the color is {self.color or 'not chosen'})"

    def _may_draw(self, seat: int) -> bool:
        r = self.rules
        allowed = r.renege_const if r.renege_const is not None else r.renege(Ctx(self, player=seat, actor=seat))
        return bool(allowed) or not self.playable(seat)

    # ---- what can be done -----------------------------------------------------------------------
    def is_playable(self, seat, card) -> bool:
        r = self.rules
        if r.match_static:
            if not r.restrictions:
                return card in r.playable_set(self.discard[-1], self.color)
            if r.restrict_static:
                return card in r.allowed_set(self.discard[-1], self.color, self.counters)
            if card not in r.playable_set(self.discard[-1], self.color):
                return False
            ctx = Ctx(self, player=seat, card=card, actor=seat)
        else:
            ctx = Ctx(self, player=seat, card=card, actor=seat)
            if not r.match(ctx):
                return False
        return all(test(ctx) for test in r.restrictions)

    def playable(self, seat: int) -> list:
        """Distinct card ids in the seat's hand that may be played now."""
        d = self.decision
        if d is not None and d.kind == "drawn" and d.seat == seat:
            return [d.card] if self.is_playable(seat, d.card) else []
        if self._code.playable is not None:
            return self._code.playable(self, seat)
        r = self.rules
        if r.match_static and not r.restrictions:
            ok = r._memo.get((self.discard[-1], self.color))
            if ok is None:
                ok = r.playable_set(self.discard[-1], self.color)
            return [c for c in dict.fromkeys(self.hands[seat]) if c in ok]
        if r.match_static and r.restrict_static:
            ok = r.allowed_set(self.discard[-1], self.color, self.counters)
            return [c for c in dict.fromkeys(self.hands[seat]) if c in ok]
        return [c for c in dict.fromkeys(self.hands[seat]) if self.is_playable(seat, c)]

    def legal_actions(self) -> list:
        """Every action the seat to decide may take now (out-of-turn window actions excluded)."""
        legal = self._legal
        if legal is None:
            d = self.decision
            if d is not None and d.kind == "turn" and self._code.turn_actions is not None:
                legal = self._code.turn_actions(self, d.seat)
            else:
                legal = self._list_actions()
            self._legal = legal
        return list(legal)

    def _list_actions(self) -> list:
        d = self.decision
        if d is None:
            return []
        s = d.seat
        fixed = self._fixed_actions[s] if s is not None else None
        if d.kind == "turn":
            acts = []
            cards = self.playable(s)
            for c in cards:
                variants = fixed.plays[c]
                acts += variants if variants is not None else self._plays(s, c)
            r = self.rules
            if (r.renege_const if r.renege_const is not None else r.renege(Ctx(self, player=s, actor=s))) or not cards:
                acts.append(fixed.draw)
            return acts
        if d.kind == "drawn":
            acts = self._plays(s, d.card)
            if not d.must:
                acts.append(fixed.keep)
            return acts
        if d.kind == "more":
            return [a for c in d.options for a in self._plays(s, c)] + [fixed.pass_]
        if d.kind == "card":
            return [Action(s, "choose", answer=self.rules.code(c)) for c in d.options]
        if d.kind == "race":
            return [Action(None, "choose", target=t) for t in d.options]
        if d.kind == "number":
            return [Action(None, "choose", answer=str(v)) for v in d.options]
        if d.kind == "color":
            return [Action(s, "choose", answer=c) for c in d.options]
        if d.kind == "seat":
            return [Action(s, "choose", target=t) for t in d.options]
        if d.kind == "answer":
            return [Action(s, o) for o in d.options]
        if d.kind == "deal":
            return [Action(None, "deal")]
        return []

    def only_plays_or_draw(self, seat: int) -> bool:
        """Whether this turn's actions are the playable cards plus `draw` (the usual case), so that
        a bot may choose from `playable()` without listing every action."""
        r = self.rules
        return r.renege_const is not None and (r.renege_const or not self.playable(seat))

    def _plays(self, seat, card) -> list:
        """Every way the seat may play the card: with each color, or naming each player, it asks for."""
        variants = self._fixed_actions[seat].plays[card]
        if variants is not None:
            return list(variants)
        program = self.rules.on_play[card]
        colors = self.rules.colors if program.asks_color else (None,)
        targets = program.target_options(Ctx(self, player=seat, card=card, actor=seat)) if program.asks_target else ()
        targets = targets or (None,)
        return [Action(seat, "play", card, color, t) for color in colors for t in targets]

    def window_actions(self, seat: int) -> list:
        """Out-of-turn actions this seat may take now (saying UNO, catching a player, jumping in)."""
        out = []
        for (name, subject), (rule, opened_on) in self.windows.items():
            if not self._window_holds(rule, subject, opened_on):
                continue
            for a in rule.actions:
                if not self._may_act(a.who, seat, subject):
                    continue
                if a.card_test is None:
                    out.append(Action(seat, a.verb, target=None if a.who == "player" else subject))
                    continue
                if a.program.plain is None and not self._interrupt_allowed():
                    continue
                for card in self._window_cards(a, seat, subject):
                    program = self.rules.on_play[card]
                    colors = self.rules.colors if program is not None and program.asks_color else (None,)
                    out.extend(Action(seat, a.verb, card, color, target=subject) for color in colors)
        return out

    def _window_cards(self, act, seat, subject) -> list:
        ctx = Ctx(self, player=subject, actor=seat)
        found = []
        for card in dict.fromkeys(self.hands[seat]):
            ctx.card = card
            if act.card_test(ctx):
                found.append(card)
        return found

    def view(self, seat: int) -> dict:
        """What one seat may see: its own hand, every public fact, and hands revealed to it."""
        r = self.rules
        d = self.decision
        return {
            "seat": seat_name(seat),
            "hand": [r.code(c) for c in self.hands[seat]],
            "hand_sizes": {seat_name(s): len(h) for s, h in enumerate(self.hands)},
            "top": r.code(self.discard[-1]) if self.discard else None,
            "color": self.color,
            "direction": "clockwise" if self.direction == 1 else "counterclockwise",
            "turn": seat_name(self.turn),
            "decision": None if d is None else {"seat": seat_name(d.seat) if d.seat is not None else None,
                                                "kind": d.kind, "options": list(d.options), "prompt": d.prompt},
            "stock_size": len(self.stock),
            "discard_size": len(self.discard),
            "scores": {seat_name(s): v for s, v in enumerate(self.scores)},
            "round": self.round,
            "revealed": {seat_name(s): [r.code(c) for c in h] for s, h in self.revealed.get(seat, {}).items()},
            "round_over": self.round_over,
            "game_over": self.game_over,
        }

    # ---- windows ------------------------------------------------------------------------------
    def _open_windows(self, seat: int, card, ctx: Ctx | None = None) -> None:
        for rule in self.rules.windows:
            if ctx is None:
                ctx = Ctx(self, player=seat, card=card, actor=seat)
            if rule.opens is None or rule.opens(ctx):
                self.windows.pop((rule.name, seat), None)     # re-opened windows move to the end
                self.windows[(rule.name, seat)] = (rule, card)

    def _window_holds(self, rule, subject, card=None) -> bool:
        """A window stays open while its opening condition still holds (one card left, say)."""
        return rule.opens is None or bool(rule.opens(Ctx(self, player=subject, card=card, actor=subject)))

    @staticmethod
    def _may_act(who: str, seat: int, subject: int) -> bool:
        return (who == "player" and seat == subject) or (who == "others" and seat != subject) or who == "anyone"

    def _interrupt_allowed(self) -> bool:
        return self.decision is not None and self.decision.kind == "turn"

    def _window_action(self, action: Action) -> None:
        seat, verb = action.seat, action.verb
        if seat is None or not 0 <= seat < self.n or not self._active(seat):
            raise Refused(f"{seat_name(seat)} is not playing")
        reasons = []
        for rule, act in self._window_verbs[verb]:
            subject = seat if act.who == "player" else action.target
            if subject is None:
                open_for = [subj for (name, subj) in self.windows
                            if name == rule.name and self._may_act(act.who, seat, subj)]
                if act.card_test is not None and open_for:
                    subject = open_for[-1]          # the latest play is the one to jump in on
                elif len(open_for) == 1:
                    subject = open_for[0]
                else:
                    reasons.append(f"say whom: {verb} pN")
                    continue
            rule_open = self.windows.get((rule.name, subject))
            if rule_open is None or not self._window_holds(rule, subject, rule_open[1]):
                reasons.append(f"{seat_name(subject)} cannot be caught out now" if act.who != "player"
                               else f"there is nothing to {verb} now")
                continue
            if not self._may_act(act.who, seat, subject):
                reasons.append(f"{seat_name(seat)} may not {verb} {seat_name(subject)}")
                continue
            ctx = Ctx(self, player=subject, actor=seat, color_arg=action.color, target_arg=action.target)
            if act.card_test is not None:
                card = action.card
                if card is None or card not in self.hands[seat]:
                    reasons.append(f"{seat_name(seat)} holds no such card")
                    continue
                ctx.card = card
                if not act.card_test(ctx):
                    reasons.append(f"{self.rules.code(card)} cannot be used to {verb} now")
                    continue
                program = self.rules.on_play[card]
                if program is not None and program.asks_color and action.color is None and len(self.hands[seat]) > 1:
                    reasons.append(f"{self.rules.code(card)} needs a color: {verb} {self.rules.code(card)} COLOR")
                    continue
            if act.program.plain is None and not self._interrupt_allowed():
                reasons.append(f"wait: {self._not_your_turn(self.decision)}")
                continue
            del self.windows[(rule.name, subject)]
            self._record(action)
            self.event("window", seat=seat, verb=verb, subject=subject)
            self._legal = None
            if act.program.plain is not None:
                outer, self._journal = self._journal, None
                act.program.plain(ctx)
                self._journal = outer
            else:
                self._resume(_Interrupt(act.program, ctx))
            return
        raise Refused(reasons[0] if reasons else f"nobody can {verb} now")

    def _close_turn_windows(self) -> None:
        if self.windows:
            self.windows = {k: w for k, w in self.windows.items() if not w[0].closes_on_turn}

    # ---- the game -----------------------------------------------------------------------------
    def _play_one_round(self, position):
        """Set a round up (dealt, or laid out as `position`), play it, and return the decision
        that follows it: deal the next round, or None when the game is over."""
        self.round += 1
        if position is not None:
            yield from self._setup_position(position)
        else:
            yield from self._deal_round(self.round == 1)
        yield _Round(self._code.play_round(self))      # run by _resume until the round ends
        if self.game_over:
            return None
        if self.round >= MAX_ROUNDS:
            self.stalemate = f"no one had won after {MAX_ROUNDS} rounds"
            self.end_game("highest")
            return None
        return _DEAL

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
        self._idle = 0                        # turns in a row in which nobody played or drew
        self._end_now = False

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
        self._lazy = True              # a dealt stock is drawn at random (after a laid-out round too)
        count = int(r.deal(Ctx(self)) or 0)
        order = self._order_from(self.next_seat(self.dealer))
        hands, rand = self.hands, self._rand
        for _ in range(count):
            for s in order:
                if stock:      # a fresh stock is drawn at random (see _take)
                    i = int(rand() * len(stock))
                    hands[s].append(stock[i])
                    stock[i] = stock[-1]
                    stock.pop()
        if self.record:
            self.event("deal", dealer=self.dealer, cards=count)
        if r.on_round_start is not None:
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
        self._reset_round()
        r = self.rules
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
        for s in p.uno:
            self.windows = {k: w for k, w in self.windows.items() if k[1] != s}

    def _play_round(self):
        """The generic turn loop. `codegen` writes a specialised copy of it for each ruleset; this
        one stays as the reference the generated loop is tested against."""
        r = self.rules
        turn_decisions = [Decision(s, "turn") for s in range(self.n)]
        while not self.round_over:
            s = self.turn
            action = yield turn_decisions[s]
            if isinstance(action, _Interrupt):
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
            if self._end_now:
                self._finish_round(None)
                break
            out = self._gone_out(s)
            if out is not None:
                yield from self._end_round(out)
                break
            moved = self._played_this_turn or self._drew_this_turn or self._n_active != active_before
            self._idle = 0 if moved else self._idle + 1
            if self._idle >= max(2, self.active_count()) or self.round_turns >= MAX_TURNS_PER_ROUND:
                yield from self._stalled()
                break
            self._advance()

    def _interrupted(self, action: _Interrupt):
        """Run an out-of-turn action that arrived at a turn decision; True when it ended the round."""
        self._played_this_turn = False
        yield from action.program.run(action.ctx)
        s = self.turn
        if self._after_turn_ends_round(s):
            yield from self._end_round(self._gone_out(s))
            return True
        if self._played_this_turn:        # a card played out of turn: play goes on from it
            self._advance()
        return False

    def _stalled(self):
        """End a round nobody can finish: no one could act for a lap, or it ran too long."""
        self.declare_stalemate()
        yield from self._end_round(None)

    def declare_stalemate(self) -> None:
        self.stalemate = ("nobody could play or draw" if self._idle else
                          f"the round passed {MAX_TURNS_PER_ROUND} turns")
        self.event("stalemate", reason=self.stalemate)

    def _after_turn_ends_round(self, seat) -> bool:
        return self._end_now or self._gone_out(seat) is not None

    def play_out_of_turn(self, seat: int, card: int, ctx: Ctx):
        """`X plays C` out of turn: earlier skips are cancelled and play goes on from X."""
        self.skips = [0] * self.n
        self.next_override = None
        self.turn = seat
        yield from self.play_gen(seat, Action(seat, "play", card, ctx.color_arg, ctx.target_arg), jumped=True)

    def chance_gen(self, options: tuple, prompt: str, kind: str):
        """A real-world or chance outcome: drawn by the game's generator, or asked as a decision."""
        if self.chance == "ask":
            answer = yield Decision(None, kind, tuple(options), prompt)
        else:
            answer = options[self.rng.randrange(len(options))]
        self.event(kind, outcome=answer)
        return answer

    def play_gen(self, seat: int, action: Action, jumped: bool = False):
        """Play a card from a hand: it lands, windows open, then its effect runs."""
        r = self.rules
        card = action.card
        ctx = Ctx(self, player=seat, card=card, actor=seat, color_arg=action.color, target_arg=action.target)
        ctx.jumped = jumped
        outer = self._journal
        journal = self._journal = [] if r.undoable else None
        honest = r.honest[card]
        if honest is not None:
            ctx.honest = bool(honest(ctx))
        self.hands[seat].remove(card)
        self.discard.append(card)
        self._played_this_turn = True
        color = r.cards.color[card]
        if color is not None:
            self.color = color
        if self.record:
            self.event("play", seat=seat, card=card)
        if r.windows:
            self._open_windows(seat, card, ctx)
        if action.uno:
            self.say_uno(seat)
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

    def say_uno(self, seat: int) -> None:
        """`play X uno`: the player's own `uno` window action, taken with the play."""
        for key, (rule, _) in list(self.windows.items()):
            if key[1] == seat and any(a.verb == "uno" and a.who == "player" for a in rule.actions):
                del self.windows[key]
                self.event("window", seat=seat, verb="uno", subject=seat)

    def effect_gen(self, seat, card):
        """Run a card's effect as if `seat` had played it (starter cards)."""
        program = self.rules.on_play[card] if card is not None else None
        if program is not None:
            yield from program.run(Ctx(self, player=seat, card=card))

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

    def _active(self, seat) -> bool:
        return not self.inactive[seat]

    def _refresh_active(self) -> None:
        self.inactive = [e or b for e, b in zip(self.eliminated, self.benched)]
        self._n_active = self.inactive.count(False)
        self._update_plain()

    def _update_plain(self) -> None:
        """Whether every seat plays and sits in its own place, so that the next seat is simply
        (seat + direction) mod n: the generated turn loop's shortcut."""
        self._plain = self._n_active == self.n and self.order == self._seated

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

    # ---- primitives the rules call ------------------------------------------------------------
    def event(self, kind: str, **data) -> None:
        if self.record:
            data["e"] = kind
            self.events.append(data)

    def _take(self):
        """The next card of the stock. A dealt stock is never shuffled: each draw takes a card at
        random, which gives the same distribution at a fraction of the cost; a stock laid out by a
        scenario is drawn in its given order."""
        stock = self.stock
        if not stock:
            if len(self.discard) > 1:
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

    def draw(self, seat: int, count: int, ctx: Ctx) -> None:
        card = self.draw_cards(seat, count)
        if card is not None:
            ctx.drawn = card

    def draw_cards(self, seat: int, count: int):
        """The seat draws `count` cards (fewer if the stock runs dry); returns the last one drawn."""
        hand = self.hands[seat]
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
            self.event("draw", seat=seat, count=got)

    def skip(self, seat: int) -> None:
        """The seat loses its next turn (once, however many times it is skipped before then)."""
        self.skips[seat] = 1

    def reverse(self) -> None:
        self.direction = -self.direction
        self._note("direction")
        self.event("direction", direction=self.direction)

    def set_color(self, color, seat) -> None:
        self._note("color", self.color)
        self.color = color
        self.event("color", seat=seat, color=color)

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

    # ---- the journal of a play, so that `cancel top` can undo it ----------------------------
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

    def reveal(self, seat: int, to: tuple) -> None:
        for t in to:
            self.revealed.setdefault(t, {})[seat] = list(self.hands[seat])
        self.event("reveal", seat=seat, to=list(to))

    def add_score(self, seat: int, points: int) -> None:
        for s in range(self.n):
            if self.teams[s] == self.teams[seat]:
                self.scores[s] += points
                self.round_points[s] += points

    def eliminate(self, seat: int, round_only: bool = False) -> None:
        if not self._active(seat):
            return
        if round_only:
            self.benched[seat] = True
        else:
            self.eliminated[seat] = True
        self._refresh_active()
        self.stats["eliminations"] += 1
        self.stock[0:0] = self.hands[seat]
        self.hands[seat] = []
        self.windows = {k: w for k, w in self.windows.items() if k[1] != seat}
        self.event("eliminated", seat=seat, round_only=round_only)

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

    def swap_seats(self, a: int, b: int) -> None:
        """Two players change places at the table, keeping their cards and scores."""
        pa, pb = self.pos[a], self.pos[b]
        self.order[pa], self.order[pb] = b, a
        self.pos[a], self.pos[b] = pb, pa
        self._update_plain()
        self.event("swap_seats", seats=[a, b])

    def clockwise(self, seat, step: int = 1):
        if seat is None:
            return None
        n, order, inactive = self.n, self.order, self.inactive
        p = self.pos[seat]
        for k in range(1, n + 1):
            t = order[(p + step * k) % n]
            if not inactive[t]:
                return t
        return seat

    def run_length(self) -> int:
        """How many cards with the same code lie in a row on top of the discard pile."""
        pile = self.discard
        if not pile:
            return 0
        top, count = pile[-1], 0
        for card in reversed(pile):
            if card != top:
                break
            count += 1
        return count

    def starts(self, seat) -> None:
        if isinstance(seat, int):
            self.next_override = seat

    plays_again = starts

    def return_starter(self, ctx: Ctx) -> None:
        self.put_back_starter()
        ctx.redo = True

    def put_back_starter(self) -> None:
        """`return it and turn another`: the starter goes back into the stock."""
        card = self.discard.pop()
        self.stock.append(card)
        if not self._lazy:
            self.rng.shuffle(self.stock)
        self.event("starter_returned", card=card)

    def end_game(self, best: str) -> None:
        active = [s for s in range(self.n) if not self.eliminated[s]] or list(range(self.n))
        pick = max if best == "highest" else min
        target = pick(self.scores[s] for s in active)
        self.game_over = True
        self.game_winners = [s for s in active if self.scores[s] == target]
        self.event("game_end", winners=self.game_winners)

    def end_round_now(self) -> None:
        self._end_now = True

    def discard_cards(self, seat: int, cards: list) -> None:
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        top = self.discard[-1:]
        self.discard[-1:] = list(cards) + top
        self.event("discard", seat=seat, count=len(cards))

    def has_gone_out(self, seat: int) -> bool:
        return not self.hands[seat]

    # ---- seats --------------------------------------------------------------------------------
    def next_seat(self, seat, step: int = 1):
        if seat is None:
            return None
        return self.clockwise(seat, self.direction * step)

    def next_unskipped(self, seat):
        """The next seat in the direction of play that is not already to lose its turn: so that
        each of several skips played together skips one more player."""
        if seat is None:
            return None
        s = seat
        for _ in range(self.n):
            s = self.clockwise(s, self.direction)
            if not self.skips[s]:
                return s
        return self.next_seat(seat)

    def _order_from(self, start) -> list:
        """Active seats in the order of play, starting at `start`."""
        if self._plain:
            n, d = self.n, self.direction
            return [(start + d * k) % n for k in range(n)]
        order = []
        p = self.pos[start]
        for k in range(self.n):
            s = self.order[(p + self.direction * k) % self.n]
            if self._active(s):
                order.append(s)
        return order

    def others(self, seat) -> tuple:
        if seat is None:
            return tuple(self._order_from(self.dealer or 0))
        order = self._order_from(self.next_seat(seat))
        return tuple([s for s in order if s != seat])

    def everyone(self, seat) -> tuple:
        return tuple(self._order_from(seat if seat is not None else (self.dealer or 0)))

    def opponents(self, seat) -> tuple:
        if seat is None:
            return self.others(None)
        teams = self.teams
        team = teams[seat]
        return tuple([s for s in self.others(seat) if teams[s] != team])

    def active_count(self) -> int:
        return self._n_active

    def hand_points(self, seat: int) -> int:
        return sum(map(self.rules.cards.points.__getitem__, self.hands[seat]))

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
