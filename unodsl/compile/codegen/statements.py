"""Statements of the rules language written as Python source: the second layer of codegen.

Each statement becomes lines of Python (with their indentation) that call the Game's primitives
as the generic closures do. A statement that asks someone a question yields a Decision, or, in
the simulator's code, draws the random seat's answer inline. A whole program is written inline
or, if any statement in it has no template, left to its closures with a context carrying the
same state.
"""
from __future__ import annotations

from dataclasses import replace

from ...lang import ast as A
from ..effects import ASKING, CHANCE_KINDS, CHANCE_PROMPTS, MAX_CHAINED_PLAYS, MAX_CHANCE, MAX_LOOP
from ..expressions import ANY, CARD, COLOR, INT, MEMBER, SEAT, SEATS
from .expressions import _NONNULL_SEATS, Env, ExpressionWriter, Unsupported

# Python's compiler takes at most 20 nested loops in a function (and 100 levels of indentation).
# Each nested block of a rule is one more level of indentation in the generated code, on top of
# the few levels of the generated functions themselves, so a rule nested deeper than this runs
# through its generic closures instead.
MAX_INDENT = 18


class StatementWriter(ExpressionWriter):
    """Statements, programs and per-card dispatch."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._uses: dict = {}                    # uses() of each kind of statement, asked again and again
        self.fixed_table = not self.uses((A.Eliminate, A.SwapSeats))    # every seat plays, in its place
        self._named: frozenset = frozenset()     # the choices the play being written names
        self._calls = 0                          # named statements written out so far

    @property
    def windows_kept(self) -> bool:
        """Whether the code keeps the out-of-turn windows (opens them, closes them, says calls):
        unless every seat is the simulator's random one, which never acts in a window."""
        return not self.sim or self.bot

    @property
    def settles(self) -> bool:
        """Whether the code lets the game come to rest (Game.settle): for `whenever` rules, and
        for windows that open as the state changes where the windows are kept (Game.settle
        opens none for the simulator's random seats)."""
        return bool(self.r.triggers) or (bool(self.r.state_windows) and self.windows_kept)

    @property
    def settle(self) -> str:
        """The call that lets the game come to rest: with `whenever` rules the module's own
        `settle(g)` (LoopWriter.settle_function), else the Game's, which then only opens windows:
        in a seat bot's loop, the module's own `open_state_windows` unless the round is over."""
        if self.r.triggers:
            return "settle(g)"
        return "if not g.round_over: open_state_windows(g)" if self.sim and self.bot else "g.settle()"

    # ---- statements ---------------------------------------------------------------------------
    def distinct(self, cards: str) -> str:
        """The distinct cards of `cards` as a player tells them apart (Ruleset.distinct): each
        card id once, or for two-faced cards each face once."""
        if self.r.faces:
            self.ns["DISTINCT"] = self.r.distinct
            return f"DISTINCT({cards})"
        return f"dict.fromkeys({cards})"

    def block(self, body, env: Env, ind: int) -> list:
        if ind > MAX_INDENT:          # Python refuses code nested past its own limits
            raise Unsupported(f"{type(body[0]).__name__ if body else 'rules'} nested too deeply to write out")
        lines = []
        for stmt in body:
            method = getattr(self, "_s" + type(stmt).__name__, None)
            if method is None:
                raise Unsupported(type(stmt).__name__)
            if self.settles and isinstance(stmt, ASKING):
                lines.append((ind, self.settle))        # the game comes to rest before a question
            lines += method(stmt, env, ind)
        return lines or [(ind, "pass")]

    def each_seat(self, who, env: Env, ind: int):
        """Lines that bind a temporary to each seat `who` names; returns (lines, name, indent)."""
        typ = self.typ(who, env)
        src = self.expr(who, env)
        t = self.temp()
        if isinstance(who, A.Name) and who.id == "next" and who.id not in env.vars and env.player in _NONNULL_SEATS:
            # Game.next_unskipped, when every seat is in its place and the next one is not skipped
            moved = "" if self.fixed_table else "not g._plain or "
            following = f"1 - {env.player}" if self.n == 2 else f"({env.player} + g.direction) % {self.n}"
            return [(ind, f"{t} = {following}"),
                    (ind, f"if {moved}g.skips[{t}]:"), (ind + 1, f"{t} = {src}")], t, ind
        if typ == SEAT:
            if self.nonnull(src):
                return [(ind, f"{t} = {src}")], t, ind
            return [(ind, f"{t} = {src}"), (ind, f"if {t} is not None:")], t, ind + 1
        if typ == SEATS:
            return [(ind, f"for {t} in ({src} or ()):")], t, ind + 1
        return [(ind, f"for {t} in _seats({src}):")], t, ind + 1

    def _sDraws(self, node, env, ind):
        n = self.temp("n")
        count = self._number(node.count, env)
        lines = [] if count == "1" else [(ind, f"{n} = {count}")]
        head, t, inner = self.each_seat(node.who, env, ind)
        x = self.temp("x")
        generic = [(inner, f"{x} = g.draw_cards({t}, {n if count != '1' else 1})"),
                   (inner, f"if {x} is not None:"), (inner + 1, f"{env.drawn} = {x}")]
        if count != "1":
            return lines + head + generic
        # one card, the most common draw: the stock's random pick inline (Game._take's fast case)
        h, i = self.temp("h"), self.temp("i")
        one = [(inner, "stock = g.stock"),
               (inner, "if stock and g._lazy:"),
               (inner + 1, f"{i} = int(g._rand() * len(stock))"),
               (inner + 1, f"{x} = stock[{i}]"), (inner + 1, f"stock[{i}] = stock[-1]"), (inner + 1, "stock.pop()"),
               (inner + 1, f"{h} = g.hands[{t}]"), (inner + 1, f"{h}.append({x})"),
               (inner + 1, f"{env.drawn} = {x}"),
               (inner + 1, "g.stats['drawn'] += 1"), (inner + 1, "g._drew_this_turn += 1")]
        if self.r.undoable:
            one += [(inner + 1, "if g._journal is not None:"), (inner + 2, f"g._journal.append(('draw', {t}, [{x}]))")]
        one += self.event(inner + 1, f"g.event('draw', seat={t}, count=1, private={{{t}: {{'cards': [{x}]}}}})")
        return head + one + [(inner, "else:")] + [(i_ + 1, text) for i_, text in generic]

    def playable_test(self, seat: str, card: str) -> str:
        """Whether the seat may play the card now (Game.is_playable), from the ruleset's memo of
        which cards may follow which when its match and `play only if` rules allow one."""
        r = self.r
        if r.match_static and not r.restrictions:
            return f"{card} in (MEMO.get((g.discard[-1], g.color)) or rules.playable_set(g.discard[-1], g.color))"
        if r.match_static and r.restrict_static:
            return f"{card} in rules.allowed_set(g.discard[-1], g.color, g.counters)"
        return f"g.is_playable({seat}, {card})"

    def _sDrawsUntil(self, node, env, ind):
        head, t, inner = self.each_seat(node.who, env, ind)
        h, got, x = self.temp("h"), self.temp("got"), self.temp("x")
        test = self._boolean(node.test, replace(env, player=t))
        return head + [
            (inner, f"{h} = g.hands[{t}]"), (inner, f"{got} = 0"),
            (inner, "while True:"),
            (inner + 1, f"{x} = g._take()"),
            (inner + 1, f"if {x} is None:"), (inner + 2, "break"),
            (inner + 1, f"{h}.append({x})"), (inner + 1, f"{env.drawn} = {x}"), (inner + 1, f"{got} += 1"),
            (inner + 1, f"if {test}:"), (inner + 2, "break"),
            (inner, f"g.drew({t}, {h}, {got})")]

    def _sSkip(self, node, env, ind):
        head, t, inner = self.each_seat(node.who, env, ind)
        return head + [(inner, f"g.skips[{t}] = 1")]

    def _sReverse(self, node, env, ind):
        return [(ind, "g.reverse()")]

    def _sPassHands(self, node, env, ind):
        return [(ind, "g.pass_hands()")]

    def _sSwapHands(self, node, env, ind):
        a, b = self.temp(), self.temp()
        return [(ind, f"{a} = {self.expr(node.who, env)}"), (ind, f"{b} = {self.expr(node.other, env)}"),
                (ind, f"if isinstance({a}, int) and isinstance({b}, int) and {a} != {b}:"),
                (ind + 1, f"g.swap_hands({a}, {b})")]

    def _sDiscardsCard(self, node, env, ind):
        x = self.temp("x")
        head, t, inner = self.each_seat(node.who, env, ind)
        return [(ind, f"{x} = {self.expr(node.card, env)}")] + head + [
            (inner, f"if {x} is not None and {x} in g.hands[{t}]:"), (inner + 1, f"g.discard_cards({t}, [{x}])")]

    def _sDiscardMatching(self, node, env, ind):
        """The cards of the collection that meet the condition, of which the game discards those
        the player really holds (Game.discard_held). The condition reads the card and the state,
        which nothing changes meanwhile, so trying it on every card, held or not, chooses the
        cards the generic statement chooses."""
        head, t, inner = self.each_seat(node.who, env, ind)
        chosen = self.temp("chosen")
        v = self.local("v_", node.var)
        test = self._boolean(node.test, replace(env, vars={**env.vars, node.var: (v, CARD)}))
        return head + [
            (inner, f"{chosen} = tuple({v} for {v} in ({self.expr(node.collection, env)} or ()) if {test})"),
            (inner, f"g.discard_held({t}, {chosen})")]

    def _sPutCard(self, node, env, ind):
        x = self.temp("x")
        head, t, inner = self.each_seat(node.who, env, ind)
        return [(ind, f"{x} = {self.expr(node.card, env)}")] + head + [
            (inner, f"if {x} is not None and {x} in g.hands[{t}]:"),
            (inner + 1, f"g.put_card({t}, {x}, {node.pile!r}, {node.bottom!r})")]

    def _sTurnOver(self, node, env, ind):
        return [(ind, f"g.turn_over({node.pile!r})")]

    def _sShufflePile(self, node, env, ind):
        if node.into is None:
            return [(ind, f"g.shuffle_pile({node.pile!r})")]
        cards, moving = self.temp("cards"), self.temp("moving")
        movable = f"{cards}[:-1]" if node.keep_top else cards
        if node.where is None:
            pick = f"list({movable})"
        else:
            inner = replace(env, vars={**env.vars, "card": ("v_card", CARD)})
            pick = f"[v_card for v_card in {movable} if {self._boolean(node.where, inner)}]"
        return [(ind, f"{cards} = g.pile({node.pile!r})"), (ind, f"{moving} = {pick}"),
                (ind, f"g.move_cards({node.pile!r}, {node.into!r}, {moving}, {node.keep_top!r})")]

    def _sCall(self, node, env, ind):
        """A named statement written out in place: each argument in a local, then its body, whose
        variables get names of their own."""
        d = self.r.definitions[node.name]
        self._calls += 1
        suffix, saved = f"_C{self._calls}", self._suffix
        lines, params = [], {}
        for p, arg in zip(d.params, node.args):
            local = self.temp("p")
            lines.append((ind, f"{local} = {self.expr(arg, env)}"))
            params[p] = (local, self.typ(arg, env))
        self._suffix = suffix
        try:
            lines += self.block(d.body, replace(env, vars=params), ind)
        finally:
            self._suffix = saved
        return lines

    def _sSwapSeats(self, node, env, ind):
        a, b = self.temp(), self.temp()
        return [(ind, f"{a} = {self.expr(node.who, env)}"), (ind, f"{b} = {self.expr(node.other, env)}"),
                (ind, f"if isinstance({a}, int) and isinstance({b}, int) and {a} != {b}:"),
                (ind + 1, f"g.swap_seats({a}, {b})")]

    def _sRedeal(self, node, env, ind):
        return [(ind, f"g.redeal({self.expr(node.start, env)})")]

    def _sRace(self, node, env, ind):
        """A race among players: its loser drawn by the game's generator (or asked, when the
        game asks about chance), then the body with the loser named."""
        among, var = self.temp("o"), self.local("v_", node.var)
        prompt = node.prompt or "Who lost the race?"
        outcome = f"g.chance_gen({among}, {prompt!r}, 'race')"
        inner = replace(env, vars={**env.vars, node.var: (var, SEAT)})
        return [(ind, f"{among} = _seats({self.expr(node.among, env)})"),
                (ind, f"if {among}:"),
                (ind + 1, f"{var} = drive(g, {outcome})" if self.sim else f"{var} = yield from {outcome}"),
                *self.block(node.body, inner, ind + 1)]

    def _sReveal(self, node, env, ind):
        head, t, inner = self.each_seat(node.who, env, ind)
        return head + [(inner, f"g.reveal({t}, _seats({self.expr(node.to, env)}), {node.until!r})")]

    def _sFlip(self, node, env, ind):
        return [(ind, f"g.flip({node.keep_order!r})")]

    def _decided(self, node, env):
        """The branch of an `if` that the options decide (or that is written as constant), else None."""
        fixed, value = self.res.constant(node.test, env.scope)
        test = None if fixed else self._boolean(node.test, env)
        if fixed or test in ("True", "False"):
            return (node.then if (value if fixed else test == "True") else node.other), test
        return None, test

    def _sIf(self, node, env, ind):
        taken, test = self._decided(node, env)
        if taken is not None or test is None:
            return self.block(taken, env, ind) if taken else []
        lines = [(ind, f"if {test}:")] + self.block(node.then, env, ind + 1)
        if A.reads_honesty(node.test):        # the verdict is told, as the generic closures do
            lines = self.event(ind, f"g.event('honesty', seat={env.player}, card={env.card or 'None'}, "
                                    f"honest={env.honest})") + lines
        other = node.other
        # `else if` chains become `elif`s, so that a long chain does not nest Python blocks
        while len(other) == 1 and isinstance(other[0], A.If) and not A.reads_honesty(other[0].test):
            taken, test = self._decided(other[0], env)
            if taken is not None or test is None:
                other = taken or ()
                continue
            lines += [(ind, f"elif {test}:")] + self.block(other[0].then, env, ind + 1)
            other = other[0].other
        if other:
            lines += [(ind, "else:")] + self.block(other, env, ind + 1)
        return lines

    def _sSetCounter(self, node, env, ind):
        return [(ind, f"g.set_counter({node.name!r}, {self._number(node.value, env)})")]

    def _sAddCounter(self, node, env, ind):
        return [(ind, f"g.set_counter({node.name!r}, g.counters.get({node.name!r}, 0) + {self._number(node.value, env)})")]

    def _sScores(self, node, env, ind):
        head, t, inner = self.each_seat(node.who, env, ind)
        return head + [(inner, f"g.add_score({t}, {self._number(node.amount, env)})")]

    def _sLet(self, node, env, ind):
        name = self.local("l_", node.name)      # may hold None, unlike loop variables (v_)
        src = self.expr(node.value, env)
        env.vars[node.name] = (name, self.typ(node.value, env))
        return [(ind, f"{name} = {src}")]

    def _sEliminate(self, node, env, ind):
        head, t, inner = self.each_seat(node.who, env, ind)
        return head + [(inner, f"g.eliminate({t}, {node.round_only!r})")]

    def _sEndGame(self, node, env, ind):
        return [(ind, f"g.end_game({node.best!r})")]

    def _sEndRound(self, node, env, ind):
        return [(ind, "g.end_round_now()")]

    def _sChooseColor(self, node, env, ind):
        t = self.temp()
        answer = self.temp("a")
        colors = self.r.groups.get(node.among, self.r.colors) if node.among else self.r.colors
        options = "COLORS" if colors == self.r.colors else self.const(colors, "GROUP")
        prompt = "Choose a " + self.r.color_word
        named = ([] if env.color_arg == "None" or id(node) not in self._named else   # the color named with the play
                 [(ind + 1, f"if {t} == {env.actor} and {env.color_arg} is not None:"),
                  (ind + 2, f"g.set_color({env.color_arg}, {t})"),
                  (ind + 2, f"{env.color_arg} = None")])
        return [
            (ind, f"{t} = {self.expr(node.who, env)}"),
            (ind, f"if isinstance({t}, int):"),
            *named,
            (ind + 1, f"{'elif' if named else 'if'} g.hands[{t}]:"),
            *self.ask_for(answer, t, "'color'", options, repr(prompt), node.optional, ind + 2),
            *([(ind + 2, f"if {answer} is not None:"), (ind + 3, f"g.set_color({answer}, {t})")] if node.optional else
              [(ind + 2, f"g.set_color({answer}, {t})")])]

    def ask_for(self, answer: str, seat: str, kind: str, options: str, prompt: str, optional: bool, ind: int) -> list:
        """`answer = ` the seat's choice among `options`: a decision, or in the simulator the random
        seat's pick, drawn as RandomBot draws among the listed answers (and `pass` when optional)."""
        if not self.sim or self.bot:
            extra = ", optional=True" if optional else ""
            decision = f"Decision({seat}, {kind}, {options}, {prompt}{extra})"
            return [(ind, f"{answer} = ask(g, {decision})" if self.bot else f"{answer} = yield {decision}")]
        if options == "COLORS":
            size = "NCOLORS"
        else:
            size = f"len({options})"
        if not optional:
            return [(ind, f"{answer} = {options}[int(rand() * {size})]")]
        k = self.temp("k")
        return [(ind, f"{k} = int(rand() * ({size} + 1))"),
                (ind, f"{answer} = {options}[{k}] if {k} < {size} else None")]

    def _sSetColor(self, node, env, ind):
        return [(ind, f"g.set_color_by_rules({self.expr(node.value, env)})")]

    def _candidates(self, node, env, ind, member):
        """`o = ` the distinct members of a pick's or chance's collection that meet its condition."""
        o = self.temp("o")
        v = self.local("v_", node.var)
        coll = self.expr(node.among, env)
        seq = (coll if self.seat_order(node.among, env) else f"dict.fromkeys(_seats({coll}))" if member == SEAT else self.distinct(f"{coll} or ()") if member == CARD
               else f"dict.fromkeys({coll} or ())")
        if node.where is None:
            return [(ind, f"{o} = tuple({seq})")], o
        inner = replace(env, vars={**env.vars, node.var: (v, member)})
        return [(ind, f"{o} = tuple({v} for {v} in {seq} if {self._boolean(node.where, inner)})")], o

    def _sPicks(self, node, env, ind):
        member = MEMBER.get(self.typ(node.among, env), SEAT)
        var = self.local("l_", node.var)
        t = self.temp()
        head, o = self._candidates(node, env, ind, member)
        active = "" if member == SEAT else f" and not g.inactive[{t}]"
        lines = [(ind, f"{t} = {self.expr(node.who, env)}"), *head, (ind, f"{var} = None"),
                 (ind, f"if isinstance({t}, int) and {o}{active}:")]
        env.vars[node.var] = (var, member)
        # the cases in the order the generic statement tries them; the last one asks
        cases = []
        if member == SEAT and env.target_arg != "None" and id(node) in self._named:
            cases.append((f"{t} == {env.actor} and {env.target_arg} in {o}",
                          [f"{var} = {env.target_arg}", f"{env.target_arg} = None"]))
        if member == SEAT:
            cases.append((f"not g.hands[{t}]", ["pass"]))           # a player who has gone out is not asked
        if not node.optional:
            cases.append((f"len({o}) == 1", [f"{var} = {o}[0]"]))
        for i, (test, body) in enumerate(cases):
            lines.append((ind + 1, f"{'if' if i == 0 else 'elif'} {test}:"))
            lines += [(ind + 2, line) for line in body]
        kind, prompt = {SEAT: ("'seat'", "'Choose a player'"), CARD: ("'card'", "'Choose a card'"),
                        COLOR: ("'color'", "'Choose a color'")}[member]
        inner = ind + 2 if cases else ind + 1
        if cases:
            lines.append((ind + 1, "else:"))
        return lines + self.ask_for(var, t, kind, o, prompt, node.optional, inner)

    def _sChance(self, node, env, ind):
        var = self.local("l_", node.var)
        if node.among is None:
            lo, hi, opts = self.temp("lo"), self.temp("hi"), self.temp("o")
            outcome = f"g.chance_gen({opts}, {node.prompt or 'Which number came up?'!r}, 'number')"
            env.vars[node.var] = (var, INT)
            return [(ind, f"{lo} = {self._number(node.low, env)}"), (ind, f"{hi} = {self._number(node.high, env)}"),
                    (ind, f"{opts} = tuple(range({lo}, min(max({lo}, {hi}), {lo} + {MAX_CHANCE}) + 1))"),
                    (ind, f"{var} = drive(g, {outcome})" if self.sim else f"{var} = yield from {outcome}")]
        member = MEMBER.get(self.typ(node.among, env), SEAT)
        lines, o = self._candidates(node, env, ind, member)
        prompt = node.prompt or CHANCE_PROMPTS[member]
        outcome = f"g.chance_gen({o}, {prompt!r}, {CHANCE_KINDS[member]!r}, 'chance')"
        env.vars[node.var] = (var, member)
        return lines + [(ind, f"{var} = None"), (ind, f"if {o}:"),
                        (ind + 1, f"{var} = drive(g, {outcome})" if self.sim else f"{var} = yield from {outcome}")]

    def _sAsk(self, node, env, ind):
        t = self.temp()
        answer = self.temp("a")
        names = tuple(a.name for a in node.answers)
        lines = [(ind, f"{t} = {self.expr(node.who, env)}"),
                 (ind, f"if isinstance({t}, int) and not g.inactive[{t}]:"),
                 *self.answer_lines(answer, t, names, node.question, ind + 1)]
        for i, a in enumerate(node.answers):
            lines.append((ind + 1, f"{'if' if i == 0 else 'elif'} {answer} == {a.name!r}:"))
            lines += self.block(a.body, env, ind + 2)
        return lines

    def answer_lines(self, answer: str, seat: str, names: tuple, question: str, ind: int) -> list:
        """The lines that set `answer` to the seat's answer (`answer_choice`)."""
        return [(ind, self.answer_choice(answer, seat, names, question))]

    def answer_choice(self, answer: str, seat: str, names: tuple, question: str) -> str:
        """`answer = ` the seat's answer to a question: a decision, the seat bot's choice, or the
        random seat's, drawn uniformly among the answers."""
        if self.bot:
            return f"{answer} = ask(g, Decision({seat}, 'answer', {names!r}, {question!r}))"
        if self.sim:
            return f"{answer} = {names!r}[int(rand() * {len(names)})]"
        return f"{answer} = yield Decision({seat}, 'answer', {names!r}, {question!r})"

    def _sForEach(self, node, env, ind):
        ctype = self.typ(node.collection, env)
        var = self.local("v_", node.var)
        vtype = MEMBER.get(ctype, ANY)
        inner = replace(env, vars={**env.vars, node.var: (var, vtype)})
        return [(ind, f"for {var} in tuple({self.expr(node.collection, env)} or ()):")] + self.block(node.body, inner, ind + 1)

    def _sWhile(self, node, env, ind):
        """The body again while the test holds, at most MAX_LOOP times; a loop stopped by that
        limit is told in the log (as the generic statement does)."""
        limit = self.event(ind + 1, "g.event('loop_limit', limit=%d)" % MAX_LOOP)
        return [(ind, f"for {self.temp('i')} in range({MAX_LOOP}):"),
                (ind + 1, f"if not ({self._boolean(node.test, env)}):"), (ind + 2, "break"),
                *self.block(node.body, env, ind + 1),
                *([(ind, "else:")] + limit if limit else [])]

    def _sReturnStarter(self, node, env, ind):
        return [(ind, "g.put_back_starter()"), (ind, "redo = True")]

    def _sCancel(self, node, env, ind):
        return [(ind, "g.cancel_top()")]

    def _sPlaysCard(self, node, env, ind):
        """`X plays C` (effects._PlaysCard): a card X holds, played out of turn
        (RoundFlow.play_out_of_turn): earlier skips are cancelled, play goes on from X, and the
        card is played as a jump, with the color and player named for the action; counted as a
        play inside a move (`chained`)."""
        t, x = self.temp(), self.temp("x")
        return [(ind, f"{t} = {self.expr(node.who, env)}"), (ind, f"{x} = {self.expr(node.card, env)}"),
                (ind, f"if isinstance({t}, int) and {x} is not None and {x} in g.hands[{t}]:"),
                *self.chained([(ind + 1, f"g.out_of_turn_start({t})"),
                               (ind + 1, self.play_call(t, x, env.color_arg, env.target_arg, "True"))], ind + 1)]

    def chained(self, lines: list, ind: int) -> list:
        """`lines` (at `ind`), which may play a card inside a move, counted in `g.chained_plays`:
        once MAX_CHAINED_PLAYS plays have been made inside one another, no more is offered (told
        as `loop_limit`) and the game goes on."""
        limit = self.event(ind + 1, f"g.event('loop_limit', limit={MAX_CHAINED_PLAYS})")
        return [(ind, f"if g.chained_plays >= {MAX_CHAINED_PLAYS}:"), *(limit or [(ind + 1, "pass")]),
                (ind, "else:"), (ind + 1, "g.chained_plays += 1"), *[(i + 1, t) for i, t in lines],
                (ind + 1, "g.chained_plays -= 1")]

    def play_call(self, seat: str, card: str, color: str, target: str, jumped: str, call: str = "None") -> str:
        """A call of the module's `play` (LoopWriter.play_function), in this mode's terms."""
        if self.sim and not self.bot:
            return f"play(g, {seat}, {card}, {color}, {target}, {jumped}" + (f", {call})" if self.windows_kept else ")")
        action = f"Action({seat}, 'play', {card}, {color}, {target}, None, {call})"
        return f"play(g, {seat}, {action}, {jumped})" if self.bot else f"yield from play(g, {seat}, {action}, {jumped})"

    def _sStarts(self, node, env, ind):
        return [(ind, f"g.starts({self.expr(node.who, env)})")]

    def _sPlaysAgain(self, node, env, ind):
        return [(ind, f"g.plays_again({self.expr(node.who, env)})")]

    # ---- whole programs -----------------------------------------------------------------------
    def program(self, program, env: Env, ind: int) -> list:
        """The program's statements inline, or, without a template for one of them, a call to its
        generic closures with a context carrying the same state."""
        saved, self._named = self._named, program.named
        try:
            if not program.body:
                return []
            inner = replace(env, vars=dict(env.vars))
            head = []
            if any(isinstance(n, A.Builtin) and n.id == "played" for n in A.walk(program.body, self.r.definitions)):
                inner = replace(inner, played=self.temp("played"))      # the program's own `played`
                head = [(ind, f"{inner.played} = False")]
            return head + self.block(program.body, inner, ind)
        except Unsupported as missing:
            self.delegated.append((program, str(missing)))
        finally:
            self._named = saved
        p = self.const(program, "PROG")
        c = self.temp("ctx")
        card = env.card or "None"
        call = (f"{p}.plain({c})" if program.plain is not None else
                f"drive(g, {p}.run({c}))" if self.sim else f"yield from {p}.run({c})")
        # the rule's variables in scope (a `whenever some NAME` rule's NAME) go with the context
        names = ", ".join(f"{k!r}: {v}" for k, (v, _) in env.vars.items())
        return [(ind, f"{c} = Ctx(g, {env.player}, {card}, {env.honest}, {env.actor}, {env.color_arg}, {env.target_arg})"),
                (ind, f"{c}.jumped = {env.jumped}"), (ind, f"{c}.drawn = {env.drawn}"),
                *([(ind, f"{c}.vars.update({{{names}}})")] if names else []),
                (ind, call), (ind, f"{env.drawn} = {c}.drawn")]

    def condition(self, node, fn, env: Env, ind: int) -> tuple:
        """(lines, test): a condition as an inline Python test, or, without a template, as a call
        of its closure on a context the lines build."""
        try:
            return [], self._boolean(node, env)
        except Unsupported:
            f = self.const(fn, "COND")
            c = self.temp("ctx")
            return [(ind, f"{c} = Ctx(g, {env.player}, {env.card or 'None'}, {env.honest}, {env.actor}, {env.color_arg}, {env.target_arg})"),
                    (ind, f"{c}.jumped = {env.jumped}")], f"bool({f}({c}))"

    def dispatch(self, per_card: tuple, ind: int, emit) -> list:
        """Branches on the card's entry in a per-card table (programs, conditions), one branch
        per distinct entry; cards with no entry fall through first, being the most common."""
        distinct = []
        for item in per_card:
            if item is not None and all(item is not d for d in distinct):
                distinct.append(item)
        if not distinct:
            return []
        index = tuple(0 if item is None else 1 + next(i for i, d in enumerate(distinct) if d is item)
                      for item in per_card)
        table = self.const(index, "IDX")
        if len(distinct) == 1:
            return [(ind, f"if {table}[card]:")] + (emit(distinct[0], ind + 1) or [(ind + 1, "pass")])
        k = self.temp("k")
        lines = [(ind, f"{k} = {table}[card]"), (ind, f"if {k} == 0:"), (ind + 1, "pass")]
        for i, item in enumerate(distinct, 1):
            lines.append((ind, f"elif {k} == {i}:"))
            lines += emit(item, ind + 1) or [(ind + 1, "pass")]
        return lines

    def uses(self, types: tuple, whole_round: bool = True, where=None) -> bool:
        """Whether a rule can run a statement of these types (branches the options rule out
        excepted): what the rules never do, the loop need not check for (a seat out of the game,
        a turn given away). With whole_round=False, only the rules that run during turns; with
        `where`, only such statements it holds for. Kept per kind of statement: the rules do not
        change while their code is written, and every function written asks again."""
        found = self._uses.get((types, whole_round)) if where is None else None
        if found is not None:
            return found
        r = self.r
        programs = [*r.on_play, r.on_draw, *r.after_play, *(a.program for w in r.windows for a in w.actions),
                    *(t.program for t in r.triggers), r.on_stock_out]
        if whole_round:
            programs += [*r.starter, r.on_round_end, r.on_round_start]
        found = any(self._runs(p.body, types, where) for p in programs if p is not None)
        if where is None:
            self._uses[(types, whole_round)] = found
        return found

    def _runs(self, body, types, where=None) -> bool:
        for stmt in body:
            if isinstance(stmt, types) and (where is None or where(stmt)):
                return True
            if isinstance(stmt, A.If):
                fixed, value = self.res.constant(stmt.test)
                branches = ((stmt.then if value else stmt.other),) if fixed else (stmt.then, stmt.other)
            elif isinstance(stmt, A.Call):
                branches = (self.r.definitions[stmt.name].body,)
            else:
                branches = tuple(v for v in (getattr(stmt, f) for f in stmt.__dataclass_fields__)
                                 if isinstance(v, tuple) and v and isinstance(v[0], A.Node))
                branches += tuple(a.body for a in stmt.answers) if isinstance(stmt, A.Ask) else ()
            if any(self._runs(b, types, where) for b in branches):
                return True
        return False
