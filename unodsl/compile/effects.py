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
from .index import COUNTER, NAMED
from .expressions import (
    ANY,
    BOOL,
    CARD,
    CARDS,
    COLOR,
    COLORS,
    INT,
    MEMBER,
    NONE,
    SEAT,
    SEATS,
    Ctx,
    Resolver,
)

MAX_LOOP = 1000      # a `while` that runs longer than this stops, with an event in the log
MAX_CHANCE = 10_000  # the widest range a `chance` may draw from
MAX_FIRINGS = 100    # `whenever` rules run at most this often each time the game comes to rest
# `chance NAME from COLLECTION`: the decision a scenario answers for each kind of member
CHANCE_KINDS = {SEAT: "race", CARD: "card", COLOR: "color"}
CHANCE_PROMPTS = {SEAT: "Which player did chance pick?", CARD: "Which card did chance pick?",
                  COLOR: "Which color did chance pick?"}
MAX_RUNS = 200          # runs of cards listed from one first card (LegalActions.runs_from)
MAX_CHAINED_PLAYS = 50  # plays the rules make (may play a card, may play it, X plays C) inside one another


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
    asks_color: bool         # the play surely makes its player choose a color: the play names it
    asks_target: bool        # the play surely makes its player pick a player: the play names them
    body: tuple
    target_options: Optional[Callable] = None   # ctx -> the players a play may name
    target_required: bool = False  # the play must name the player (when there is a choice)
    color_later: bool = False      # some color is asked when its statement runs, not with the play
    target_later: bool = False     # some player is asked for when their statement runs
    named: frozenset = frozenset()  # ids of the choice statements the play names
    color_options: tuple = ()      # the colors a play may name, when it names one (all, or a group's)


def _seats(value) -> tuple:
    if value is None:
        return ()
    if isinstance(value, tuple):
        return value
    return (value,)


class StatementCompiler:
    """Turns a block of statements into a Program, with names checked by the Resolver."""

    def __init__(self, resolver: Resolver, settles: bool = False, defs: dict | None = None):
        self.r = resolver
        self.diags = resolver.diags
        self.settles = settles      # the rules have `whenever` rules: the game settles before each question
        self.defs = defs or {}      # name -> A.Define: the named statements
        self._calling: list = []    # the named statements being compiled, one inside another

    def program(self, body: tuple, scope: dict | None = None, play: bool = False) -> Program:
        """A block as a Program. With play (a card's `on play`), the choices its player surely
        makes (a color, a player) are named with the play itself (`play W blue`, `play R7 p3`);
        every other choice is asked when the statement that makes it runs."""
        scope = dict(scope or {})
        outer = getattr(self, "_choices", None)
        if play or outer is None:
            self._choices = {}          # choice statement -> (cell: named with the play?, what it picks)
        ops = [self.stmt(s, scope) for s in body]
        choices = self._choices
        if play or outer is None:
            self._choices = outer
        suspends = any(sus for _, sus in ops)
        run = _block(ops)
        plain = _plain_block(ops) if not suspends else None
        if not play:
            return Program(run, plain, False, False, body)
        is_pick = lambda node: id(node) in choices and choices[id(node)][1] is not None
        colors, sure_color = named_with_play(body, self.r.constant, lambda n: isinstance(n, A.ChooseColor))
        targets, sure_target = named_with_play(body, self.r.constant, is_pick)
        options = None
        for node in (*colors, *targets):
            choices[id(node)][0][0] = True
        for node in _in_order(body, targets):
            options = choices[id(node)][1]
            break
        named = {id(n) for n in (*colors, *targets)}
        later = [n for n in A.walk(body, self.defs) if id(n) in choices and id(n) not in named]
        return Program(run, plain, sure_color, sure_target, body, options, sure_target,
                       color_later=any(isinstance(n, A.ChooseColor) for n in later),
                       target_later=any(choices[id(n)][1] is not None for n in later),
                       named=frozenset(named), color_options=self._color_options(colors) if sure_color else ())

    def _color_options(self, named) -> tuple:
        """The colors the play may name: those of the groups its named `chooses a color in GROUP`
        statements offer, in the rules' order, or every color."""
        found = set()
        for node in named:
            found |= set(self.r.groups.get(node.among, self.r.colors) if node.among else self.r.colors)
        return tuple(c for c in self.r.colors if c in found) or self.r.colors

    def stmt(self, node, scope: dict):
        """Compile one statement into (function, suspends)."""
        fn, suspends = getattr(self, "_" + type(node).__name__)(node, scope)
        if self.settles and isinstance(node, ASKING):
            return _settled(fn), True
        return fn, suspends

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
        until = node.until

        def reveal(c: Ctx):
            for s in _seats(a(c)):
                c.g.reveal(s, _seats(b(c)), until)
        return reveal, False

    def _Flip(self, node, scope):
        if not self.r.faces:
            self.diags.error("E355", "`flip` turns every card over, but these cards have one face", node.span,
                             "declare two faces first: faces light, dark")
        keep = node.keep_order
        return (lambda c: c.g.flip(keep)), False

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

    def _counter(self, node, value_type: str | None = None):
        """The counter a `set`/`add` names; an unknown one is reported with a hint that fits what
        was meant: a close counter, the current color (for a color value, or the color's own
        word), or declaring the counter."""
        if node.name in self.r.counters:
            self.r.note(COUNTER, node.name, node.span, "end" if isinstance(node, A.AddCounter) else "after")
        if node.name not in self.r.counters:
            word = self.r.color_word
            hint = suggest(node.name, self.r.counters)
            if not hint and (value_type == COLOR or suggest(node.name, (word, "color", "colour"))):
                hint = (f"the current {word} is not a counter: change it with `set {word} to ...`, for example "
                        f"`set {word} to {self.r.colors[0] if self.r.colors else 'red'}`")
            self.diags.error("E205", f"unknown counter `{node.name}`", node.span,
                             hint or f"declare it first: counter {node.name} = 0")
        return node.name

    def _SetCounter(self, node, scope):
        if node.name in self.r.counters:
            name = self._counter(node)
            value = self.r.expect(node.value, INT, scope, "the counter's new value")
        else:            # an unknown counter is reported once; its value is only checked for names
            value, vtype = self.r.compile(node.value, scope)
            name = self._counter(node, vtype)

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

    def _PutCard(self, node, scope):
        who = self._who(node.who, scope)
        card = self.r.expect(node.card, CARD, scope, "the card to put on the pile")
        pile, bottom = node.pile, node.bottom

        def put(c: Ctx):
            x = card(c)
            for s in _seats(who(c)):
                if x is not None and x in c.g.hands[s]:
                    c.g.put_card(s, x, pile, bottom)
        return put, False

    def _TurnOver(self, node, scope):
        pile = node.pile
        return (lambda c: c.g.turn_over(pile)), False

    def _ShufflePile(self, node, scope):
        pile, into, keep_top = node.pile, node.into, node.keep_top
        if into is None:
            return (lambda c: c.g.shuffle_pile(pile)), False
        if into == pile:
            self.diags.error("E210", "a pile cannot be shuffled into itself", node.span,
                             "write `shuffle the stock` to shuffle a pile where it lies")
        inner = dict(scope)
        inner["card"] = CARD
        test = self.r.expect(node.where, BOOL, inner, "the `where` condition") if node.where is not None else None

        def shuffle_into(c: Ctx):
            cards = c.g.pile(pile)
            movable = cards[:-1] if keep_top else cards
            if test is None:
                moving = list(movable)
            else:
                saved = c.vars.get("card")
                moving = []
                for x in movable:
                    c.vars["card"] = x
                    if test(c):
                        moving.append(x)
                c.vars["card"] = saved
            c.g.move_cards(pile, into, moving, keep_top)
        return shuffle_into, False

    def _Call(self, node, scope):
        """`NAME(ARG, ...)`: the named statement's body, run with its parameters set to the values
        of the arguments. It sees its parameters and the built-in names, not the caller's
        variables, and its own variables do not outlive it."""
        d = self.defs.get(node.name)
        if d is not None:
            self.r.note(NAMED, node.name, node.span, "start")
        args = [self.r.compile(a, scope) for a in node.args]
        if d is None:
            self.diags.error("E221", f"no statement is defined with the name `{node.name}`", node.span,
                             suggest(node.name, self.defs) or f"define it: define {node.name}(...) {{ ... }}")
            return (lambda c: None), False
        if len(args) != len(d.params):
            self.diags.error("E222", f"`{node.name}` takes {len(d.params)} value{'s' if len(d.params) != 1 else ''} "
                             f"({', '.join(d.params) or 'none'}), but {len(args)} {'is' if len(args) == 1 else 'are'} given",
                             node.span, f"write {node.name}({', '.join(d.params)})")
            return (lambda c: None), False
        if node.name in self._calling:
            chain = " -> ".join(self._calling[self._calling.index(node.name):] + [node.name])
            self.diags.error("E344", f"`{node.name}` uses itself ({chain}), so it would never end", node.span,
                             "a named statement may use others, but none may lead back to itself")
            return (lambda c: None), False
        inner = {p: t for p, (_, t) in zip(d.params, args)}
        self._calling.append(node.name)
        body = self.program(d.body, inner)
        self._calling.pop()
        fns = tuple(f for f, _ in args)
        params = d.params
        bound = tuple(dict.fromkeys(params + bound_names(d.body)))

        def enter(c: Ctx):
            saved = {n: c.vars[n] for n in bound if n in c.vars}
            values = [f(c) for f in fns]
            for n in bound:
                c.vars.pop(n, None)
            c.vars.update(zip(params, values))
            return saved

        def leave(c: Ctx, saved):
            for n in bound:
                c.vars.pop(n, None)
            c.vars.update(saved)

        if body.plain is not None:
            plain = body.plain

            def call(c: Ctx):
                saved = enter(c)
                plain(c)
                leave(c, saved)
            return call, False
        run = body.run

        def call_gen(c: Ctx):
            saved = enter(c)
            yield from run(c)
            leave(c, saved)
        return call_gen, True

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
        named = self._choice(node, None)          # [True] when the play gives this color
        optional = node.optional
        colors = self.r.colors
        if node.among is not None:
            if node.among not in self.r.groups:
                self.diags.error("E351", f"there is no group `{node.among}`", node.span,
                                 suggest(node.among, self.r.groups) or
                                 f"declare it: group {node.among} = {', '.join(colors[:2])}")
            colors = self.r.groups.get(node.among, colors)
        prompt = "Choose a " + self.r.color_word

        def choose(c: Ctx):
            s = who(c)
            if not isinstance(s, int):
                return
            if named[0] and s == c.actor and c.color_arg is not None:
                color, c.color_arg = c.color_arg, None
                c.g.set_color(color, s)
                return
            if c.g.has_gone_out(s):
                return
            answer = yield Decision(s, "color", colors, prompt, optional=optional)
            if answer is not None:
                c.g.set_color(answer, s)
        return choose, True

    def _choice(self, node, candidates) -> list:
        """A cell the enclosing `on play` sets when the play itself names this choice."""
        cell = [False]
        if self._choices is not None:
            self._choices[id(node)] = (cell, candidates)
        return cell

    def _SetColor(self, node, scope):
        value, typ = self.r.compile(node.value, scope)
        if typ not in (COLOR, NONE, ANY):
            self.diags.error("E210", f"the new color should be a color, but it is a {typ}", node.value.span,
                             "for example: set color to red, or set color to top.color")

        def set_color(c: Ctx):
            c.g.set_color_by_rules(value(c))
        return set_color, False

    def _Picks(self, node, scope):
        who = self._who(node.who, scope)
        among, typ = self.r.compile(node.among, scope)
        self.r.loops[id(node)] = typ
        if typ not in (SEATS, SEAT, CARDS, COLORS, ANY):
            self.diags.error("E210", f"`picks` chooses among players, cards or colors, not a {typ}", node.among.span)
        var = node.var
        inner = dict(scope)
        member = MEMBER.get(typ, SEAT)
        inner[var] = member
        where = self.r.expect(node.where, BOOL, inner, "the `where` condition") if node.where is not None else None
        optional = node.optional

        def candidates(c: Ctx) -> tuple:
            found = []
            for x in (dict.fromkeys(_seats(among(c))) if member == SEAT else
                      c.g.rules.distinct(among(c) or ()) if member == CARD else dict.fromkeys(among(c) or ())):
                c.vars[var] = x
                if where is None or where(c):
                    found.append(x)
            return tuple(found)

        scope[var] = member
        if member in (CARD, COLOR):
            kind, prompt = ("card", "Choose a card") if member == CARD else ("color", "Choose a color")

            def picks_thing(c: Ctx):
                s = who(c)
                options = candidates(c)
                c.vars[var] = None
                if not isinstance(s, int) or not options or c.g.inactive[s]:
                    return
                if len(options) == 1 and not optional:
                    c.vars[var] = options[0]
                    return
                answer = yield Decision(s, kind, options, prompt, optional=optional)
                c.vars[var] = answer
            return picks_thing, True
        named = self._choice(node, candidates)    # [True] when the play names this player: `play R7 p3`

        def picks(c: Ctx):
            s = who(c)
            options = candidates(c)
            c.vars[var] = None
            if not isinstance(s, int) or not options:
                return
            if named[0] and s == c.actor and c.target_arg in options:
                c.vars[var], c.target_arg = c.target_arg, None
                return
            if c.g.has_gone_out(s):
                return
            if len(options) == 1 and not optional:
                c.vars[var] = options[0]
                return
            answer = yield Decision(s, "seat", options, "Choose a player", optional=optional)
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
        bodies = {a.name: self.program(a.body, scope).run for a in node.answers}
        question = node.question

        def ask(c: Ctx):
            s = who(c)
            if not isinstance(s, int) or c.g.inactive[s]:
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
            c.played = False
            if not isinstance(s, int) or card is None or not c.g.is_playable(s, card) or card not in c.g.hands[s]:
                return
            if c.g.chained_plays >= MAX_CHAINED_PLAYS:      # a play that draws and plays again: not for ever
                c.g.event("loop_limit", limit=MAX_CHAINED_PLAYS)
                return
            c.g.chained_plays += 1
            try:
                action = yield Decision(s, "drawn", (), "Play the card you drew?", card=card, must=must)
                c.played = action.verb == "play"
                if c.played:
                    yield from c.g.play_gen(s, action)
            finally:
                c.g.chained_plays -= 1
        return play_drawn, True

    def _MayPlayCard(self, node, scope):
        who = self._who(node.who, scope)
        test = self.r.expect(node.test, BOOL, scope, "the card condition")

        def may_play(c: Ctx):
            s = who(c)
            c.played = False
            if not isinstance(s, int) or c.g.round_over:
                return
            probe = Ctx(c.g, player=s, actor=s)
            options = []
            for card in c.g.rules.distinct(c.g.hands[s]):
                probe.card = card
                if test(probe):
                    options.append(card)
            if not options:
                return
            if c.g.chained_plays >= MAX_CHAINED_PLAYS:      # each play may offer another: not for ever
                c.g.event("loop_limit", limit=MAX_CHAINED_PLAYS)
                return
            action = yield Decision(s, "more", tuple(options), "Play another card, or pass")
            c.played = action.verb == "play"
            if c.played:
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
                if c.g.chained_plays >= MAX_CHAINED_PLAYS:      # plays that play again: not for ever
                    c.g.event("loop_limit", limit=MAX_CHAINED_PLAYS)
                    return
                c.g.chained_plays += 1
                try:
                    yield from c.g.play_out_of_turn(s, x, c)
                finally:
                    c.g.chained_plays -= 1
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
        if node.among is not None:
            return self._chance_pick(node, scope)
        low = self.r.expect(node.low, INT, scope, "the lowest number")
        high = self.r.expect(node.high, INT, scope, "the highest number")
        if node.where is not None:
            self.diags.error("E210", "`where` picks from a collection, not from a range of numbers",
                             node.where.span, "write `chance roll from 1 to 6`, or pick from players, cards or colors")
        scope[node.var] = INT
        var, prompt = node.var, node.prompt or "Which number came up?"

        def chance(c: Ctx):
            lo, hi = low(c) or 0, high(c) or 0
            options = tuple(range(lo, min(max(lo, hi), lo + MAX_CHANCE) + 1))
            c.vars[var] = yield from c.g.chance_gen(options, prompt, "number")
        return chance, True

    def _chance_pick(self, node, scope):
        """`chance NAME from COLLECTION [where C]`: one member of the collection, at random."""
        among, typ = self.r.compile(node.among, scope)
        if typ not in (SEATS, SEAT, CARDS, COLORS, ANY):
            self.diags.error("E210", f"`chance` picks from players, cards or colors (or a range of numbers: "
                             f"`from 1 to 6`), not a {typ}", node.among.span)
        member = MEMBER.get(typ, SEAT)
        var = node.var
        inner = dict(scope)
        inner[var] = member
        where = self.r.expect(node.where, BOOL, inner, "the `where` condition") if node.where is not None else None
        scope[var] = member
        kind = CHANCE_KINDS[member]
        prompt = node.prompt or CHANCE_PROMPTS[member]

        def chance(c: Ctx):
            found = []
            for x in dict.fromkeys(_seats(among(c)) if member == SEAT else (among(c) or ())):
                c.vars[var] = x
                if where is None or where(c):
                    found.append(x)
            c.vars[var] = None
            if found:
                c.vars[var] = yield from c.g.chance_gen(tuple(found), prompt, kind, "chance")
        return chance, True

    def _AsIfPlayed(self, node, scope):
        who = self._who(node.who, scope)
        card = self.r.expect(node.card, CARD, scope, "the card whose effect is applied") if node.card is not None else None

        def as_if(c: Ctx):
            s = who(c)
            yield from c.g.effect_gen(s, c.card if card is None else card(c))
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
        if typ not in (SEATS, CARDS, COLORS, ANY):
            self.diags.error("E210", f"`for each` goes over players, cards or colors, not a {typ}", node.collection.span)
        inner = dict(scope)
        inner[node.var] = MEMBER.get(typ, ANY)
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


# Statements that ask someone (or chance) something: with `whenever` rules, the game comes to rest
# before each of them, so that what the rules say must hold does hold when a player decides.
ASKING = (A.ChooseColor, A.Picks, A.Ask, A.PlayDrawn, A.MayPlayCard, A.Chance, A.Race)


def _settled(fn):
    def settled(c: Ctx):
        c.g.settle()
        yield from fn(c)
    return settled


def bound_names(body) -> tuple:
    """The names a block binds: its `let`s, picks, chances, races and loop variables."""
    out = []
    for n in A.walk(body):
        if isinstance(n, A.Let):
            out.append(n.name)
        elif isinstance(n, (A.Picks, A.Chance, A.Race, A.ForEach, A.Quantifier, A.DiscardMatching)):
            out.append(n.var)
    return tuple(out)


def _by_player(node) -> bool:
    return isinstance(node.who, A.Name) and node.who.id == "player"


def named_with_play(body, fixed, is_choice) -> tuple:
    """Which choices of a card's effect the play itself names, and whether it surely names one:
    (statements, sure).

    A choice is named with the play when the player who played surely makes it: it is the first
    such choice on every way through the effect (an `if` counts when both its branches make one;
    one that the options decide counts by its branch). A choice inside a question, a loop, a race
    or one branch only, an optional one, and one made by anyone else is asked when it runs."""
    def walk(stmts, claimed, nodes):
        for s in stmts:
            if is_choice(s) and _by_player(s) and not s.optional:
                if not claimed:
                    nodes.append(s)
                    claimed = True
            elif isinstance(s, A.If):
                known, value = fixed(s.test)
                if known:
                    claimed = walk(s.then if value else s.other, claimed, nodes)
                else:
                    a = walk(s.then, claimed, nodes)
                    b = walk(s.other, claimed, nodes)
                    claimed = a and b
        return claimed

    nodes: list = []
    sure = walk(body, False, nodes)
    return (tuple(nodes) if sure else ()), sure


def _in_order(body, nodes) -> list:
    """The given statements in the order they are written."""
    ids = {id(n) for n in nodes}
    return [n for n in A.walk(body) if id(n) in ids]
