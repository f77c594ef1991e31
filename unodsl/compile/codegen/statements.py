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
from .expressions import (
    _NONNULL_SEATS,
    ANY,
    CARD,
    CARDS,
    SEAT,
    SEATS,
    Env,
    ExpressionWriter,
    Unsupported,
    py_name,
)

# Python's compiler takes at most 20 nested loops in a function (and 100 levels of indentation).
# Each nested block of a rule is one more level of indentation in the generated code, on top of
# the few levels of the generated functions themselves, so a rule nested deeper than this runs
# through its generic closures instead.
MAX_INDENT = 18


class StatementWriter(ExpressionWriter):
    """Statements, programs and per-card dispatch."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fixed_table = not self.uses((A.Eliminate, A.SwapSeats))    # every seat plays, in its place

    # ---- statements ---------------------------------------------------------------------------
    def block(self, body, env: Env, ind: int) -> list:
        if ind > MAX_INDENT:          # Python refuses code nested past its own limits
            raise Unsupported("rules nested too deeply to write out")
        lines = []
        for stmt in body:
            method = getattr(self, "_s" + type(stmt).__name__, None)
            if method is None:
                raise Unsupported(type(stmt).__name__)
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

    def _sRedeal(self, node, env, ind):
        return [(ind, f"g.redeal({self.expr(node.start, env)})")]

    def _sRace(self, node, env, ind):
        """A race among players: its loser drawn by the game's generator (or asked, when the
        game asks about chance), then the body with the loser named."""
        among, var = self.temp("o"), py_name("v_", node.var)
        prompt = node.prompt or "Who lost the race?"
        outcome = f"g.chance_gen({among}, {prompt!r}, 'race')"
        inner = replace(env, vars={**env.vars, node.var: (var, SEAT)})
        return [(ind, f"{among} = _seats({self.expr(node.among, env)})"),
                (ind, f"if {among}:"),
                (ind + 1, f"{var} = drive(g, {outcome})" if self.sim else f"{var} = yield from {outcome}"),
                *self.block(node.body, inner, ind + 1)]

    def _sReveal(self, node, env, ind):
        head, t, inner = self.each_seat(node.who, env, ind)
        return head + [(inner, f"g.reveal({t}, _seats({self.expr(node.to, env)}))")]

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
        name = py_name("l_", node.name)      # may hold None, unlike loop variables (v_)
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
        named = ([] if env.color_arg == "None" else       # the color named with the play
                 [(ind + 1, f"if {t} == {env.actor} and {env.color_arg} is not None:"),
                  (ind + 2, f"g.set_color({env.color_arg}, {t})")])
        return [
            (ind, f"{t} = {self.expr(node.who, env)}"),
            (ind, f"if isinstance({t}, int):"),
            *named,
            (ind + 1, f"{'elif' if named else 'if'} g.hands[{t}]:"),
            *(self.sim_choice("color", answer, t, "COLORS", "NCOLORS", ind + 2) if self.sim else
              [(ind + 2, f"{answer} = yield Decision({t}, 'color', COLORS, 'Choose a color')")]),
            (ind + 2, f"g.set_color({answer}, {t})")]

    def sim_choice(self, kind: str, answer: str, seat: str, options: str, size: str, ind: int) -> list:
        """`answer = ` the simulated seat's choice among `options` (a decision of this kind):
        the random policy's, uniform as RandomBot picks (bots.BotWriter has the others)."""
        return [(ind, f"{answer} = {options}[int(rand() * {size})]")]

    def _sAsk(self, node, env, ind):
        t = self.temp()
        answer = self.temp("a")
        names = tuple(a.name for a in node.answers)
        lines = [(ind, f"{t} = {self.expr(node.who, env)}"),
                 (ind, f"if isinstance({t}, int):"),
                 *(self.sim_choice("answer", answer, t, repr(names), str(len(names)), ind + 1) if self.sim else
                   [(ind + 1, f"{answer} = yield Decision({t}, 'answer', {names!r}, {node.question!r})")])]
        for i, a in enumerate(node.answers):
            lines.append((ind + 1, f"{'if' if i == 0 else 'elif'} {answer} == {a.name!r}:"))
            lines += self.block(a.body, env, ind + 2)
        return lines

    def _sForEach(self, node, env, ind):
        ctype = self.typ(node.collection, env)
        var = py_name("v_", node.var)
        vtype = SEAT if ctype == SEATS else CARD if ctype == CARDS else ANY
        inner = replace(env, vars={**env.vars, node.var: (var, vtype)})
        return [(ind, f"for {var} in tuple({self.expr(node.collection, env)} or ()):")] + self.block(node.body, inner, ind + 1)

    def _sReturnStarter(self, node, env, ind):
        return [(ind, "g.put_back_starter()"), (ind, "redo = True")]

    def _sCancel(self, node, env, ind):
        return [(ind, "g.cancel_top()")]

    def _sPlaysCard(self, node, env, ind):
        """`X plays C` out of turn (RoundFlow.play_out_of_turn): earlier skips are cancelled and
        play goes on from X, who plays C as an out-of-turn play."""
        t, x = self.temp(), self.temp("x")
        play = (f"play(g, {t}, {x}, {env.color_arg}, {env.target_arg}, True, False)" if self.sim else
                f"yield from play(g, {t}, Action({t}, 'play', {x}, {env.color_arg}, {env.target_arg}), True)")
        return [(ind, f"{t} = {self.expr(node.who, env)}"), (ind, f"{x} = {self.expr(node.card, env)}"),
                (ind, f"if isinstance({t}, int) and {x} is not None and {x} in g.hands[{t}]:"),
                (ind + 1, f"g.skips = [0] * {self.n}"), (ind + 1, "g.next_override = None"),
                (ind + 1, f"g.turn = {t}"), (ind + 1, play)]

    def _sStarts(self, node, env, ind):
        return [(ind, f"g.starts({self.expr(node.who, env)})")]

    def _sPlaysAgain(self, node, env, ind):
        return [(ind, f"g.plays_again({self.expr(node.who, env)})")]

    # ---- whole programs -----------------------------------------------------------------------
    def program(self, program, env: Env, ind: int) -> list:
        """The program's statements inline, or, without a template for one of them, a call to its
        generic closures with a context carrying the same state."""
        try:
            return self.block(program.body, replace(env, vars=dict(env.vars)), ind) if program.body else []
        except Unsupported as missing:
            self.delegated.append((program, str(missing)))
        p = self.const(program, "PROG")
        c = self.temp("ctx")
        card = env.card or "None"
        call = (f"{p}.plain({c})" if program.plain is not None else
                f"drive(g, {p}.run({c}))" if self.sim else f"yield from {p}.run({c})")
        return [(ind, f"{c} = Ctx(g, {env.player}, {card}, {env.honest}, {env.actor}, {env.color_arg}, {env.target_arg})"),
                (ind, f"{c}.jumped = {env.jumped}"), (ind, f"{c}.drawn = {env.drawn}"),
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

    def uses(self, types: tuple, whole_round: bool = True) -> bool:
        """Whether a rule can run a statement of these types (branches the options rule out
        excepted): what the rules never do, the loop need not check for (a seat out of the game,
        a turn given away). With whole_round=False, only the rules that run during turns."""
        r = self.r
        programs = [*r.on_play, r.on_draw, *r.after_play, *(a.program for w in r.windows for a in w.actions)]
        if whole_round:
            programs += [*r.starter, r.on_round_end, r.on_round_start]
        return any(self._runs(p.body, types) for p in programs if p is not None)

    def _runs(self, body, types) -> bool:
        for stmt in body:
            if isinstance(stmt, types):
                return True
            if isinstance(stmt, A.If):
                fixed, value = self.res.constant(stmt.test)
                branches = ((stmt.then if value else stmt.other),) if fixed else (stmt.then, stmt.other)
            else:
                branches = tuple(v for v in (getattr(stmt, f) for f in stmt.__dataclass_fields__)
                                 if isinstance(v, tuple) and v and isinstance(v[0], A.Node))
                branches += tuple(a.body for a in stmt.answers) if isinstance(stmt, A.Ask) else ()
            if any(self._runs(b, types) for b in branches):
                return True
        return False
