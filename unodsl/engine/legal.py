"""What may be done now: the legal actions of a decision, and why any other action is refused.

Listing uses the ruleset's memos and the actions built once per seat; checking an action that
was not listed explains the refusal in the rules' own words (a failed `play only if`, say).
"""
from __future__ import annotations

from ..compile.decisions import Action, Decision, Refused
from ..compile.expressions import Ctx
from .windows import seat_name


class LegalActions:
    """Mixed into Game: the legal actions of the current decision, and the checks of any other."""

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
