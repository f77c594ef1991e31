"""Out-of-turn windows: what the rules let players do between turns (say UNO, catch, jump in).

A window opens after a play when its condition holds, and stays open while it still holds (and,
for most, until a turn begins). Actions in a window are checked here; an action whose rules may
ask questions runs inside the game's own flow, as an `Interrupt` (in a seat bot's loop, as a
generator of its own the loop answers: `_ask_out_of_turn`).
"""
from __future__ import annotations

from ..compile.decisions import Action, Refused
from ..compile.expressions import Ctx

MAX_OUT_OF_TURN = 5000    # actions out of turn in one round: each can open a window again


class _Nothing:
    """A program that does nothing: resumes the turn loop after an action out of turn."""
    @staticmethod
    def run(ctx):
        return iter(())


_NOTHING = _Nothing()


class Interrupt:
    """An out-of-turn action whose rules may ask questions: run inside the game's own flow."""
    __slots__ = ("program", "ctx")

    def __init__(self, program, ctx):
        self.program, self.ctx = program, ctx


def seat_name(seat: int | None) -> str:
    return "nobody" if seat is None else f"p{seat + 1}"


class Windows:
    """Mixed into Game: the open windows (`windows`) and the actions taken in them."""

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
                    out.extend(Action(seat, a.verb, card, color, target=subject) for color in self._card_colors(card))
        return out

    def acting_seats(self) -> list:
        """The seats that may act out of turn now, in seat order: those whose `window_actions`
        is not empty, found with each open window checked once rather than once per seat."""
        n = self.n
        can = [False] * n
        hands, rules = self.hands, self.rules
        for (name, subject), (rule, opened_on) in self.windows.items():
            if all(can) or not self._window_holds(rule, subject, opened_on):
                continue
            for a in rule.actions:
                if a.card_test is not None and a.program.plain is None and not self._interrupt_allowed():
                    continue
                who = a.who
                seats = (subject,) if who == "player" else range(n)
                # the same cards pass whoever holds them (`_window_cards`): looked for in each hand,
                # among those an action can be taken with (`_card_colors`)
                usable = rules.window_usable_set(a, self.discard[-1], self.color) \
                    if a.card_static and a.card_test is not None and not rules.faces else None
                for seat in seats:
                    if can[seat] or (who == "others" and seat == subject):
                        continue
                    if a.card_test is None:
                        can[seat] = True
                    elif usable is not None:
                        can[seat] = not usable.isdisjoint(hands[seat])
                    else:
                        can[seat] = any(self._card_colors(card) for card in self._window_cards(a, seat, subject))
        return [s for s in range(n) if can[s]]

    def _card_colors(self, card) -> tuple:
        """The colors an action out of turn with this card is taken with (None: it names none)."""
        program = self.rules.on_play[card]
        return program.color_options if program is not None and program.asks_color else (None,)

    def _window_cards(self, act, seat, subject) -> list:
        if act.card_static:          # the same cards pass whoever holds them: a table per top card
            ok = self.rules.window_card_set(act, self.discard[-1], self.color)
            return [card for card in self.rules.distinct(self.hands[seat]) if card in ok]
        ctx = Ctx(self, player=subject, actor=seat)
        found = []
        for card in self.rules.distinct(self.hands[seat]):
            ctx.card = card
            if act.card_test(ctx):
                found.append(card)
        return found

    def _open_windows(self, seat: int, card, ctx: Ctx | None = None) -> None:
        for rule in self.rules.windows:
            if ctx is None:
                ctx = Ctx(self, player=seat, card=card, actor=seat)
            if rule.opens is None or rule.opens(ctx):
                self.windows.pop((rule.name, seat), None)     # re-opened windows move to the end
                self.windows[(rule.name, seat)] = (rule, card)
                if rule.state:                  # opened now: not again until it stops holding
                    self._held[(rule.name, seat)] = True

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
                card = self.held(seat, action.card)
                if card is None or card not in self.hands[seat]:
                    reasons.append(f"{seat_name(seat)} holds no such card")
                    continue
                ctx.card = card
                if not act.card_test(ctx):
                    reasons.append(f"{self.rules.code(card)} cannot be used to {verb} now")
                    continue
                program = self.rules.on_play[card]
                if program is not None and program.asks_color and action.color is None and len(self.hands[seat]) > 1:
                    word = self.rules.color_word
                    reasons.append(f"{self.rules.code(card)} needs a {word}: {verb} {self.rules.code(card)} {word.upper()}")
                    continue
            if act.program.plain is None and not self._interrupt_allowed():
                reasons.append(f"wait: {self._not_your_turn(self.decision)}")
                continue
            if self._count_out_of_turn():
                return
            del self.windows[(rule.name, subject)]
            if self.record:
                self._record(action)
            self.event("window", seat=seat, verb=verb, subject=subject)
            self._legal = None
            if act.program.plain is not None:
                outer, self._journal = self._journal, None
                act.program.plain(ctx)
                self._journal = outer
                if self.rules.settles:
                    self._settle_out_of_turn(ctx)
            elif self._bot_loop:
                self._ask_out_of_turn(act.program, ctx)
            else:
                self._resume(Interrupt(act.program, ctx))
            return
        raise Refused(reasons[0] if reasons else f"nobody can {verb} now")

    def _count_out_of_turn(self) -> bool:
        """One more action out of turn in this round; True when that is past the limit (each can
        open a window again, so rules could go on forever): the game has halted."""
        self.out_of_turn += 1
        if self.out_of_turn > MAX_OUT_OF_TURN:
            self.halt(f"more than {MAX_OUT_OF_TURN:,} moves were made out of turn in one round")
            return True
        return False

    def _settle_out_of_turn(self, ctx: Ctx | None) -> None:
        """After an action out of turn the game comes to rest; if that put the player deciding a
        turn out, or ended the round, the game moves on from there."""
        self.settle()
        d = self.decision
        if d is not None and d.kind == "turn" and (self.inactive[d.seat] or self._after_turn_ends_round(d.seat)):
            if self._bot_loop:                    # the seat bot's turn loop is running: it moves on itself
                self._played_this_turn = False
                self._code.move_on(self)
            else:
                self._resume(Interrupt(_NOTHING, ctx))

    def _ask_out_of_turn(self, program, ctx: Ctx) -> None:
        """An action out of turn that may ask questions, taken in a seat bot's loop as the step
        API takes it (Game._interrupted): it runs up to its first question, which is then the
        decision while the others' chances to act out of turn go on (`_asking` keeps the rest,
        for the loop's head to answer: runtime.answer_out_of_turn), or to its end; then the loop
        moves on from it (`move_on`: play goes on from a card played out of turn)."""
        gen = self._out_of_turn_gen(program, ctx)
        try:
            self.decision, self._legal = next(gen), None
        except StopIteration:
            return
        self._asking = gen

    def _out_of_turn_gen(self, program, ctx: Ctx):
        """Game._interrupted in a seat bot's loop: the action's program, its questions yielded,
        then the generated `move_on` (which settles, ends the round or passes play on)."""
        self._played_this_turn = False
        yield from program.run(ctx)
        self._code.move_on(self)

    def _close_turn_windows(self) -> None:
        if self.windows:
            self.windows = {k: w for k, w in self.windows.items() if not w[0].closes_on_turn}

    def say_call(self, seat: int, verb: str) -> None:
        """`play X VERB`: the player's own call (the rules' `player may VERB`, whatever its word),
        said as the card lands: the first window open for the player that offers it closes."""
        for key, (rule, _) in self.windows.items():
            if key[1] == seat and verb in rule.own_calls:
                del self.windows[key]           # (the loop ends here: the dict is not read on)
                self.event("window", seat=seat, verb=verb, subject=seat)
                return

    def offer_out_of_turn(self, bots=None, rng=None) -> None:
        """After a seat's choice, while windows are open: every seat's bot (`bots`, one a seat; the
        seat bot playing inside the turn loop by default) is asked whether it acts out of turn,
        and those that want to act do, in `out_of_turn_order`: the first with the action it
        answered, the others asked again when their chance comes (an earlier action may have
        changed their mind); a refused action is dropped. The
        simulator's step loop and the generated loop's own seat bot both act through this; a seat
        bot whose loop has the offer written out (codegen.offer) makes it there."""
        if bots is None and self._code.offer_out_of_turn is not None:
            self._code.offer_out_of_turn(self)
            return
        if bots is None:
            bots = [self._seat_bot] * self.n
            rng = self._seat_bot.rng
        # a seat with nothing it may do out of turn is not asked (a bot then has nothing to choose)
        wants = {}
        for s in self.acting_seats():
            act = bots[s].out_of_turn(self, s)
            if act is not None:
                wants[s] = act
        for i, s in enumerate(self.out_of_turn_order(wants, rng)):
            # the first to act sees the game as it answered; the others are asked again
            act = wants[s] if i == 0 else bots[s].out_of_turn(self, s)
            if act is not None:
                try:
                    self.apply(act)
                except Refused:
                    pass

    def out_of_turn_order(self, seats, rng) -> list:
        """The seats that want to act out of turn, in the order they get the chance: the rules'
        own order when every open window gives one (`in turn order`: the window's player first,
        then the others in the order of play), else a random order drawn from `rng` (the
        generator that drives the bots and the table, so the same seed gives the same game)."""
        seats = list(seats)
        if len(seats) < 2:
            return seats
        open_ = list(self.windows)
        if open_ and all(self.windows[k][0].turn_order for k in open_):
            subject = open_[-1][1]
            ring = self._order_from(subject)
            rank = {s: i for i, s in enumerate(ring)}
            return sorted(seats, key=lambda s: rank.get(s, len(ring)))
        rng.shuffle(seats)
        return seats
