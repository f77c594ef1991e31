"""What may be done now: the legal actions of a decision, and why any other action is refused.

Listing uses the ruleset's memos and the actions built once per seat; checking an action that
was not listed explains the refusal in the rules' own words (a failed `play only if`, say).
"""
from __future__ import annotations

from ..compile.decisions import Action, Decision, Refused
from ..compile.effects import MAX_RUNS
from ..compile.expressions import Ctx
from .windows import seat_name


class LegalActions:
    """Mixed into Game: the legal actions of the current decision, and the checks of any other."""

    def held(self, seat: int, card, among=None):
        """The card a move names, as the player tells cards apart: two-faced cards showing the
        same face are the same to their holder, so a code names the first such card held (or of
        `among`, the cards a decision offers)."""
        if not self.rules.faces or card is None:
            return card
        pool = self.hands[seat] if among is None else among
        if card in pool:
            return card
        same = self.rules.same_face
        return next((c for c in pool if same[c] == same[card]), card)

    def _validate(self, d: Decision, a: Action):
        """Return the value to send into the game for this decision, or raise Refused."""
        r = self.rules
        if r.faces and a.card is not None and a.seat is not None and 0 <= a.seat < self.n:
            a = a._replace(card=self.held(a.seat, a.card, (d.card,) if d.kind == "drawn" and
                                          r.same_face[a.card] == r.same_face[d.card] else None))
        if d.kind == "turn":
            if a.verb == "play":
                return self._check_play(a, drawn=None)
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
                return self._check_play(a, drawn=d.card)
            raise Refused(f"you drew {r.code(d.card)}: play it or keep it")
        if d.kind == "more":
            if a.verb == "pass":
                return a
            if a.verb == "play":
                return self._check_play(a, drawn=None, options=d.options)
            raise Refused("play another card (" + ", ".join(r.code(c) for c in d.options) + ") or pass")
        if d.optional and a.verb == "pass":
            return None                  # the seat declines the choice
        decline = ", or pass" if d.optional else ""
        if d.kind == "card":
            card = r.codes.get((a.answer or "").upper()) if a.verb == "choose" else a.card
            card = self.held(d.seat, card, d.options) if d.seat is not None else card
            if card not in d.options:
                raise Refused("choose a card: " + ", ".join(r.code(c) for c in d.options) + decline)
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
                raise Refused(f"choose a {r.color_word}: " + ", ".join(d.options) + decline)
            return color
        if d.kind == "seat":
            if a.verb != "choose" or a.target not in d.options:
                raise Refused("choose a player: " + ", ".join(seat_name(s) for s in d.options) + decline)
            return a.target
        if d.kind == "answer":
            answer = a.answer if a.verb == "choose" else a.verb
            if answer not in d.options:
                raise Refused("answer " + " or ".join(d.options))
            return answer
        raise Refused(f"nothing can be done now ({d.kind})")

    def _check_play(self, a: Action, drawn, options=None) -> Action:
        """The play as the game will carry it out (its cards as held), or raise Refused."""
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
        if a.more:
            if drawn is not None or options is not None:
                raise Refused("a run of cards is a turn's play: here only one card may be played")
            a = a._replace(more=self._check_run(a))
            card = a.more[-1]
        program = r.on_play[card]
        last = len(hand) == 1 + len(a.more)
        if a.call is not None and a.call not in r.call_verbs():
            raise Refused(f"`{a.call}` cannot be said with a play")
        if a.color is not None:
            if program is None or not program.asks_color:
                later = program is not None and program.color_later
                raise Refused(f"{r.code(card)} takes no {r.color_word}" + (
                    " with the play: its effect asks for one when it needs it" if later else ""))
            if a.color not in program.color_options:
                raise Refused(f"choose a {r.color_word}: " + ", ".join(program.color_options))
        elif program is not None and program.asks_color and not last:
            raise Refused(f"{r.code(card)} needs a {r.color_word}: play {r.code(card)} " + "|".join(program.color_options))
        if a.target is not None:
            if program is None or not program.asks_target:
                later = program is not None and program.target_later
                raise Refused(f"{r.code(card)} takes no player" + (
                    " with the play: its effect asks for one when it needs it" if later else ""))
            allowed = program.target_options(Ctx(self, player=a.seat, card=card, actor=a.seat))
            if a.target not in allowed:
                names = ", ".join(seat_name(s) for s in allowed) or "nobody"
                raise Refused(f"{seat_name(a.target)} cannot be chosen for {r.code(card)}: choose {names}")
        elif program is not None and program.target_required and not last:
            allowed = program.target_options(Ctx(self, player=a.seat, card=card, actor=a.seat))
            if len(allowed) > 1:
                raise Refused(f"{r.code(card)} needs a player: play {r.code(card)} ... "
                              + "|".join(seat_name(s) for s in allowed))
        return a

    def _check_run(self, a: Action) -> tuple:
        """A play of several cards: the rules allow runs, the player holds them all, and each card
        after the first meets the run condition with the card before it as `top`."""
        r = self.rules
        if r.runs is None:
            raise Refused("these rules play one card at a time")
        left = list(self.hands[a.seat])
        left.remove(a.card)
        prev = a.card
        held = []
        for card in a.more:
            card = self.held(a.seat, card, left)
            if card not in left:
                raise Refused(f"{seat_name(a.seat)} holds no other {r.code(card)} for the run")
            ctx = Ctx(self, player=a.seat, card=card, actor=a.seat)
            ctx.top = prev
            if not r.runs(ctx):
                raise Refused(f"{r.code(card)} cannot follow {r.code(prev)} in a run")
            left.remove(card)
            held.append(card)
            prev = card
        return tuple(held)

    def runs_from(self, seat: int, first: int, limit: int = MAX_RUNS) -> list:
        """Every run the seat may play starting with `first` (each a tuple of the cards after it),
        the longest way first; at most `limit` of them."""
        r = self.rules
        found: list = []

        def extend(prev, left, so_far):
            ctx = Ctx(self, player=seat, actor=seat)
            ctx.top = prev
            for card in r.distinct(left):
                if len(found) >= limit:
                    return
                ctx.card = card
                if r.runs(ctx):
                    rest = list(left)
                    rest.remove(card)
                    run = so_far + (card,)
                    found.append(run)
                    extend(card, rest, run)
        hand = list(self.hands[seat])
        hand.remove(first)
        extend(first, hand, ())
        return found

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
        return f"{code} cannot be played on {top} (the {r.color_word} is {self.color or 'not chosen'})"

    def _may_draw(self, seat: int) -> bool:
        r = self.rules
        allowed = r.renege_const if r.renege_const is not None else r.renege(Ctx(self, player=seat, actor=seat))
        return bool(allowed) or not self.playable(seat)

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

    def playable_kinds(self, top, color, counters: tuple) -> frozenset | None:
        """Every card id that anyone could play on `top` under `color` with the counters at these
        values (in the rules' order), when the rules decide that from those alone (None
        otherwise): what a seat that drew instead of playing showed it did not hold (Game.drew_on)."""
        r = self.rules
        if not r.match_static or top is None:
            return None
        if not r.restrictions:
            return r.playable_set(top, color)
        if r.restrict_static:
            return r.allowed_set(top, color, dict(zip(r.counters, counters)))
        return None

    def would_be_honest(self, seat: int, card: int) -> bool | None:
        """Whether playing `card` now would meet the card's `honest` condition (False: a bluff
        the rules allow and others may challenge); None when the card has no such condition."""
        honest = self.rules.honest[card]
        if honest is None:
            return None
        return bool(honest(Ctx(self, player=seat, card=card, actor=seat)))

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
            return [c for c in r.distinct(self.hands[seat]) if c in ok]
        if r.match_static and r.restrict_static:
            ok = r.allowed_set(self.discard[-1], self.color, self.counters)
            return [c for c in r.distinct(self.hands[seat]) if c in ok]
        return [c for c in r.distinct(self.hands[seat]) if self.is_playable(seat, c)]

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
            acts = self._plays(s, d.card, runs=False)
            if not d.must:
                acts.append(fixed.keep)
            return acts
        if d.kind == "more":
            return [a for c in d.options for a in self._plays(s, c, runs=False)] + [fixed.pass_]
        decline = [fixed.pass_] if d.optional and fixed is not None else []
        if d.kind == "card":
            return [Action(s, "choose", answer=self.rules.code(c)) for c in d.options] + decline
        if d.kind == "race":
            return [Action(None, "choose", target=t) for t in d.options]
        if d.kind == "number":
            return [Action(None, "choose", answer=str(v)) for v in d.options]
        if d.kind == "color":
            return [Action(s, "choose", answer=c) for c in d.options] + decline
        if d.kind == "seat":
            return [Action(s, "choose", target=t) for t in d.options] + decline
        if d.kind == "answer":
            return [Action(s, o) for o in d.options]
        if d.kind == "deal":
            return [Action(None, "deal")]
        return []

    def only_plays_or_draw(self, seat: int) -> bool:
        """Whether this turn's actions are the playable cards plus `draw` (the usual case), so that
        a bot may choose from `playable()` without listing every action."""
        r = self.rules
        return r.runs is None and r.renege_const is not None and (r.renege_const or not self.playable(seat))

    def _plays(self, seat, card, runs: bool = True) -> list:
        """Every way the seat may play the card: with each color, or naming each player, it asks for."""
        variants = self._fixed_actions[seat].plays[card]
        if variants is not None:
            return list(variants)
        out = []
        starts = ((),) + (tuple(self.runs_from(seat, card)) if runs and self.rules.runs is not None else ())
        for more in starts:
            program = self.rules.on_play[more[-1] if more else card]
            if program is None:
                out.append(Action(seat, "play", card, more=more))
                continue
            colors = program.color_options if program.asks_color else (None,)
            targets = program.target_options(Ctx(self, player=seat, card=card, actor=seat)) if program.asks_target else ()
            targets = targets or (None,)
            out += [Action(seat, "play", card, color, t, more=more) for color in colors for t in targets]
        return out
