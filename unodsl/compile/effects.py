"""Statements of the rules language compiled into programs the engine runs.

A program is a generator function over a context: it runs its statements, calling the engine's
generic primitives (draw, skip, reverse, swap hands ...), and yields a `Decision` whenever a
player must answer (a color, a player, a challenge, whether to play a drawn card). Programs with
no such statement also get a plain function, so the common case costs no generator.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from ..lang import ast as A
from ..lang.diagnostics import suggest
from .decisions import Decision
from .index import COUNTER
from .expressions import ANY, BOOL, CARD, CARDS, INT, SEAT, SEATS, Ctx, Resolver

MAX_LOOP = 1000      # a `while` that runs longer than this stops, with an event in the log
MAX_CHANCE = 10_000  # the widest range a `chance` may draw from
MAX_CHAINED_PLAYS = 50  # plays inside plays (`may play a card where` in an effect) in one move


def _telling_honesty(test):
    """A test that reads `honest`, made to log the verdict first (the `honesty` event)."""
    def told(c: Ctx):
        c.g.event("honesty", seat=c.player, card=c.card, honest=bool(c.honest))
        return test(c)
    return told


@dataclass(frozen=True)
class Program:
    run: Callable            # generator function: run(ctx) yields Decisions
    plain: Optional[Callable]  # same, without suspending, when no statement can ask anything
    asks_color: bool         # the acting player chooses a color (so a play names one)
    asks_target: bool        # the acting player picks a player (so a play may name one)
    body: tuple
    target_options: Optional[Callable] = None   # ctx -> the players a play may name
    target_required: bool = False  # a pick not behind a question: the play must name the player


def _seats(value) -> tuple:
    if value is None:
        return ()
    if isinstance(value, tuple):
        return value
    return (value,)


class StatementCompiler:
    """Turns a block of statements into a Program, with names checked by the Resolver."""

    def __init__(self, resolver: Resolver):
        self.r = resolver
        self.diags = resolver.diags

    def program(self, body: tuple, scope: dict | None = None) -> Program:
        scope = dict(scope or {})
        outer, self._seat_picks = getattr(self, "_seat_picks", None), None
        outer_required, self._pick_required = getattr(self, "_pick_required", False), False
        ops = [self.stmt(s, scope) for s in body]
        options, required = self._seat_picks, self._pick_required
        self._seat_picks = outer or options
        self._pick_required = outer_required or required
        suspends = any(sus for _, sus in ops)
        run = _block(ops)
        plain = _plain_block(ops) if not suspends else None
        return Program(run, plain, _asks(body, A.ChooseColor), options is not None, body, options, required)

    def stmt(self, node, scope: dict):
        """Compile one statement into (function, suspends)."""
        return getattr(self, "_" + type(node).__name__)(node, scope)

    def _who(self, node, scope, what="who"):
        fn, typ = self.r.compile(node, scope)
        if typ not in (SEAT, SEATS, ANY):
            self.diags.error("E210", f"{what} should be a player or players, but it is a {typ}", node.span)
        return fn

    # -- statements that never ask anything -----------------------------------------------------
    def _Draws(self, node, scope):
        who = self._who(node.who, scope)
        n = self.r.expect(node.count, INT, scope, "the number of cards")

        def draws(c: Ctx):
            count = n(c) or 0
            for s in _seats(who(c)):
                c.g.draw(s, count, c)
        return draws, False

    def _DrawsUntil(self, node, scope):
        who = self._who(node.who, scope)
        test = self.r.expect(node.test, BOOL, scope, "the `until` condition")

        def draws_until(c: Ctx):
            for s in _seats(who(c)):
                c.g.draw_until(s, test, c)
        return draws_until, False

    def _Skip(self, node, scope):
        who = self._who(node.who, scope)

        def skip(c: Ctx):
            for s in _seats(who(c)):
                c.g.skip(s)
        return skip, False

    def _Reverse(self, node, scope):
        return (lambda c: c.g.reverse()), False

    def _SwapHands(self, node, scope):
        a = self._who(node.who, scope)
        b = self._who(node.other, scope)

        def swap(c: Ctx):
            x, y = a(c), b(c)
            if isinstance(x, int) and isinstance(y, int) and x != y:
                c.g.swap_hands(x, y)
        return swap, False

    def _PassHands(self, node, scope):
        return (lambda c: c.g.pass_hands()), False

    def _Reveal(self, node, scope):
        a = self._who(node.who, scope)
        b = self._who(node.to, scope)

        def reveal(c: Ctx):
            for s in _seats(a(c)):
                c.g.reveal(s, _seats(b(c)))
        return reveal, False

    def _Scores(self, node, scope):
        who = self._who(node.who, scope)
        amount = self.r.expect(node.amount, INT, scope, "the points")

        def scores(c: Ctx):
            for s in _seats(who(c)):
                c.g.add_score(s, amount(c) or 0)
        return scores, False

    def _Eliminate(self, node, scope):
        who = self._who(node.who, scope)
        round_only = node.round_only

        def eliminate(c: Ctx):
            for s in _seats(who(c)):
                c.g.eliminate(s, round_only)
        return eliminate, False

    def _counter(self, node):
        if node.name in self.r.counters:
            self.r.note(COUNTER, node.name, node.span, "end" if isinstance(node, A.AddCounter) else "after")
        if node.name not in self.r.counters:
            self.diags.error("E205", f"unknown counter `{node.name}`", node.span,
                             suggest(node.name, self.r.counters) or "declare it first: counter pending = 0")
        return node.name

    def _SetCounter(self, node, scope):
        name = self._counter(node)
        value = self.r.expect(node.value, INT, scope, "the counter's new value")

        def set_counter(c: Ctx):
            c.g.set_counter(name, value(c) or 0)
        return set_counter, False

    def _AddCounter(self, node, scope):
        name = self._counter(node)
        value = self.r.expect(node.value, INT, scope, "the amount to add")

        def add_counter(c: Ctx):
            c.g.set_counter(name, c.g.counters.get(name, 0) + (value(c) or 0))
        return add_counter, False

    def _DiscardsCard(self, node, scope):
        who = self._who(node.who, scope)
        card = self.r.expect(node.card, CARD, scope, "the card to discard")

        def discards(c: Ctx):
            x = card(c)
            for s in _seats(who(c)):
                if x is not None and x in c.g.hands[s]:
                    c.g.discard_cards(s, [x])
        return discards, False

    def _Cancel(self, node, scope):
        return (lambda c: c.g.cancel_top()), False

    def _Redeal(self, node, scope):
        start = self._who(node.start, scope)
        return (lambda c: c.g.redeal(start(c))), False

    def _SwapSeats(self, node, scope):
        a = self._who(node.who, scope)
        b = self._who(node.other, scope)

        def swap(c: Ctx):
            x, y = a(c), b(c)
            if isinstance(x, int) and isinstance(y, int) and x != y:
                c.g.swap_seats(x, y)
        return swap, False

    def _While(self, node, scope):
        self.r.loops[id(node)] = "while"
        test = self.r.expect(node.test, BOOL, scope, "the condition of `while`")
        body = self.program(node.body, scope)
        run = body.run

        def loop(c: Ctx):
            for _ in range(MAX_LOOP):
                if not test(c):
                    return
                yield from run(c)
            c.g.event("loop_limit", limit=MAX_LOOP)
        return loop, True

    def _Starts(self, node, scope):
        who = self._who(node.who, scope)
        return (lambda c: c.g.starts(who(c))), False

    def _PlaysAgain(self, node, scope):
        who = self._who(node.who, scope)
        return (lambda c: c.g.plays_again(who(c))), False

    def _ReturnStarter(self, node, scope):
        return (lambda c: c.g.return_starter(c)), False

    def _Let(self, node, scope):
        fn, typ = self.r.compile(node.value, scope)
        scope[node.name] = typ
        name = node.name

        def let(c: Ctx):
            c.vars[name] = fn(c)
        return let, False

    def _EndGame(self, node, scope):
        best = node.best
        return (lambda c: c.g.end_game(best)), False

    def _EndRound(self, node, scope):
        return (lambda c: c.g.end_round_now()), False

    def _DiscardMatching(self, node, scope):
        who = self._who(node.who, scope)
        coll, ctype = self.r.compile(node.collection, scope)
        self.r.loops[id(node)] = ctype
        if ctype not in (CARDS, ANY):
            self.diags.error("E210", f"`discards every` goes over cards, not a {ctype}", node.collection.span,
                             "write for example `player discards every c in player.hand where c is wild`")
        inner = dict(scope)
        inner[node.var] = CARD
        test = self.r.expect(node.test, BOOL, inner, "the `where` condition")
        var = node.var

        def discard(c: Ctx):
            for s in _seats(who(c)):
                held = list(c.g.hands[s])
                chosen = []
                for card in tuple(coll(c) or ()):
                    c.vars[var] = card
                    if card in held and test(c):       # only cards this player really holds
                        held.remove(card)
                        chosen.append(card)
                c.g.discard_cards(s, chosen)
        return discard, False

    # -- statements that may ask a player --------------------------------------------------------
    def _ChooseColor(self, node, scope):
        who = self._who(node.who, scope)

        def choose(c: Ctx):
            s = who(c)
            if not isinstance(s, int):
                return
            if s == c.actor and c.color_arg is not None:
                c.g.set_color(c.color_arg, s)
                return
            if c.g.has_gone_out(s):
                return
            answer = yield Decision(s, "color", c.g.rules.colors, "Choose a color")
            c.g.set_color(answer, s)
        return choose, True

    def _Picks(self, node, scope):
        who = self._who(node.who, scope)
        among, typ = self.r.compile(node.among, scope)
        self.r.loops[id(node)] = typ
        if typ not in (SEATS, SEAT, CARDS, ANY):
            self.diags.error("E210", f"`picks` chooses among players or cards, not a {typ}", node.among.span)
        var = node.var
        inner = dict(scope)
        inner[var] = CARD if typ == CARDS else SEAT
        where = self.r.expect(node.where, BOOL, inner, "the `where` condition") if node.where is not None else None

        def candidates(c: Ctx) -> tuple:
            found = []
            for x in dict.fromkeys(_seats(among(c)) if typ != CARDS else (among(c) or ())):
                c.vars[var] = x
                if where is None or where(c):
                    found.append(x)
            return tuple(found)

        if typ == CARDS:
            scope[var] = CARD

            def picks_card(c: Ctx):
                s = who(c)
                options = candidates(c)
                c.vars[var] = None
                if not isinstance(s, int) or not options:
                    return
                if len(options) == 1:
                    c.vars[var] = options[0]
                    return
                answer = yield Decision(s, "card", options, "Choose a card")
                c.vars[var] = answer
            return picks_card, True
        scope[var] = SEAT
        if isinstance(node.who, A.Name) and node.who.id == "player" and not getattr(self, "_dead", False):
            if getattr(self, "_seat_picks", None) is None:
                self._seat_picks = candidates    # the player may name this seat with the play: `play R7 p3`
            if not getattr(self, "_in_ask", 0):
                self._pick_required = True

        def picks(c: Ctx):
            s = who(c)
            options = candidates(c)
            c.vars[var] = None
            if not isinstance(s, int) or not options:
                return
            if s == c.actor and c.target_arg in options:
                c.vars[var] = c.target_arg
                return
            if c.g.has_gone_out(s):
                return
            if len(options) == 1:
                c.vars[var] = options[0]
                return
            answer = yield Decision(s, "seat", options, "Choose a player")
            c.vars[var] = answer
        return picks, True

    def _Ask(self, node, scope):
        who = self._who(node.who, scope)
        names = tuple(a.name for a in node.answers)
        seen = set()
        for a in node.answers:
            if a.name in seen:
                self.diags.error("E220", f"the answer `{a.name}` is listed twice", a.span)
            seen.add(a.name)
        self._in_ask = getattr(self, "_in_ask", 0) + 1
        bodies = {a.name: self.program(a.body, scope).run for a in node.answers}
        self._in_ask -= 1
        question = node.question

        def ask(c: Ctx):
            s = who(c)
            if not isinstance(s, int):
                return
            answer = yield Decision(s, "answer", names, question)
            yield from bodies[answer](c)
        return ask, True

    def _PlayDrawn(self, node, scope):
        who = self._who(node.who, scope)
        must = node.must

        def play_drawn(c: Ctx):
            s = who(c)
            card = c.drawn
            if not isinstance(s, int) or card is None or not c.g.is_playable(s, card) or card not in c.g.hands[s]:
                return
            action = yield Decision(s, "drawn", (), "Play the card you drew?", card=card, must=must)
            if action.verb == "play":
                yield from c.g.play_gen(s, action)
        return play_drawn, True

    def _MayPlayCard(self, node, scope):
        who = self._who(node.who, scope)
        test = self.r.expect(node.test, BOOL, scope, "the card condition")

        def may_play(c: Ctx):
            s = who(c)
            if not isinstance(s, int) or c.g.round_over:
                return
            probe = Ctx(c.g, player=s, actor=s)
            options = []
            for card in dict.fromkeys(c.g.hands[s]):
                probe.card = card
                if test(probe):
                    options.append(card)
            if not options:
                return
            if c.g.chained_plays >= MAX_CHAINED_PLAYS:      # each play may offer another: not for ever
                c.g.event("loop_limit", limit=MAX_CHAINED_PLAYS)
                return
            action = yield Decision(s, "more", tuple(options), "Play another card, or pass")
            if action.verb == "play":
                c.g.chained_plays += 1
                try:
                    yield from c.g.play_gen(s, action)
                finally:
                    c.g.chained_plays -= 1
        return may_play, True

    def _PlaysCard(self, node, scope):
        who = self._who(node.who, scope)
        card = self.r.expect(node.card, CARD, scope, "the card played")

        def plays(c: Ctx):
            s, x = who(c), card(c)
            if isinstance(s, int) and x is not None and x in c.g.hands[s]:
                yield from c.g.play_out_of_turn(s, x, c)
        return plays, True

    def _Race(self, node, scope):
        among = self._who(node.among, scope, "who races")
        inner = dict(scope)
        inner[node.var] = SEAT
        body = self.program(node.body, inner).run
        var, prompt = node.var, node.prompt or "Who lost the race?"

        def race(c: Ctx):
            options = _seats(among(c))
            if not options:
                return
            c.vars[var] = yield from c.g.chance_gen(options, prompt, "race")
            yield from body(c)
        return race, True

    def _Chance(self, node, scope):
        low = self.r.expect(node.low, INT, scope, "the lowest number")
        high = self.r.expect(node.high, INT, scope, "the highest number")
        scope[node.var] = INT
        var, prompt = node.var, node.prompt or "Which number came up?"

        def chance(c: Ctx):
            lo, hi = low(c) or 0, high(c) or 0
            options = tuple(range(lo, min(max(lo, hi), lo + MAX_CHANCE) + 1))
            c.vars[var] = yield from c.g.chance_gen(options, prompt, "number")
        return chance, True

    def _AsIfPlayed(self, node, scope):
        who = self._who(node.who, scope)

        def as_if(c: Ctx):
            s = who(c)
            yield from c.g.effect_gen(s, c.card)
        return as_if, True

    def _If(self, node, scope):
        test = self.r.expect(node.test, BOOL, scope, "the condition of `if`")
        fixed, value = self.r.constant(node.test, scope)
        if fixed:          # decided by options alone: only the branch taken counts
            taken, dead = (node.then, node.other) if value else (node.other, node.then)
            self._dead, was = True, getattr(self, "_dead", False)
            self.program(dead, scope)                 # still checked for mistakes
            self._dead = was
            program = self.program(taken, scope)
            if program.plain is not None:
                return program.plain, False
            run = program.run
            return run, True
        if A.reads_honesty(node.test):
            test = _telling_honesty(test)
        then = self.program(node.then, scope)
        other = self.program(node.other, scope)
        if then.plain and other.plain:
            tp, op = then.plain, other.plain

            def if_plain(c: Ctx):
                if test(c):
                    tp(c)
                else:
                    op(c)
            return if_plain, False
        tr, orun = then.run, other.run

        def if_gen(c: Ctx):
            if test(c):
                yield from tr(c)
            else:
                yield from orun(c)
        return if_gen, True

    def _ForEach(self, node, scope):
        coll, typ = self.r.compile(node.collection, scope)
        self.r.loops[id(node)] = typ
        if typ not in (SEATS, CARDS, ANY):
            self.diags.error("E210", f"`for each` goes over players or cards, not a {typ}", node.collection.span)
        inner = dict(scope)
        inner[node.var] = SEAT if typ == SEATS else CARD if typ == CARDS else ANY
        body = self.program(node.body, inner)
        var = node.var
        if body.plain:
            bp = body.plain

            def each_plain(c: Ctx):
                for x in tuple(coll(c) or ()):
                    c.vars[var] = x
                    bp(c)
            return each_plain, False
        br = body.run

        def each_gen(c: Ctx):
            for x in tuple(coll(c) or ()):
                c.vars[var] = x
                yield from br(c)
        return each_gen, True


def _block(ops):
    def run(c: Ctx):
        for fn, suspends in ops:
            if suspends:
                yield from fn(c)
            else:
                fn(c)
    return run


def _plain_block(ops):
    fns = tuple(fn for fn, _ in ops)
    if len(fns) == 1:
        return fns[0]

    def plain(c: Ctx):
        for fn in fns:
            fn(c)
    return plain


def _asks(body, node_type) -> bool:
    """Whether a body lets the acting player answer a question of this type with the play itself."""
    for s in body:
        if isinstance(s, node_type) and isinstance(s.who, A.Name) and s.who.id == "player":
            return True
        for child in _children(s):
            if _asks(child, node_type):
                return True
    return False


def _children(s):
    if isinstance(s, A.If):
        return (s.then, s.other)
    if isinstance(s, (A.ForEach, A.While, A.Race)):
        return (s.body,)
    if isinstance(s, A.Ask):
        return tuple(a.body for a in s.answers)
    return ()
