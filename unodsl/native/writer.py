"""A ruleset's native module: codegen's simulator loop, lowered, plus the game around it.

`NativeWriter` is codegen's `LoopWriter` in its simulator mode (every seat played inline by the
random bot, no event log; or, with `bot="basic"`, each of the seats' choices a call of
native.basic's compiled functions, at the places codegen's templates ask a seat, and, where basic
acts out of turn, the windows kept as codegen keeps them for a seat bot, each question of a seat
preceded by the actions out of turn due: native.windows), with two things of its own:

  - playability (`is_playable`, `playable_cards`) from a table of which card may follow which
    under which color, or from the match rules' own expressions, where the Python engine asks
    its memo;
  - the parts of a game the Python engine runs in its `Game` (dealing, the first dealer, teams,
    the round's opening rule and the rules' own `when the stock runs out`, both written by
    codegen's templates; rounds until the game ends, the statistics of many games), written here
    once as numba code over the same `State`.

Everything a rule means comes from codegen's templates through `lower.py`. `module_source()` is
the whole module the engine compiles: its text is also the key of the on-disk cache.
"""
from __future__ import annotations

import ast
import keyword
import random
import re

from ..compile.codegen.expressions import Env, Unsupported
from ..compile.codegen.loop import LoopWriter
from ..compile.effects import MAX_RUNS
from ..engine.bots import BasicBot, parse_spec
from ..engine.flow import MAX_ROUNDS, MAX_TURNS_PER_GAME, MAX_TURNS_PER_ROUND
from ..engine.windows import Interrupt
from ..lang import ast as A
from .layout import (
    GAME_SLOTS,
    NONE,
    SLOT,
    STALE_GAME_TURNS,
    STALE_ROUNDS,
    TRACE_DRAW,
    TRACE_PLAY,
    TRACE_ROUND,
    offsets,
)
from . import basic, far, windows
from .lower import RULE_MARK, Lowering, Strings, Tables, encode, lower_functions

MATCH_TABLE_LIMIT = 256      # distinct cards up to which matching is one table lookup
# Small functions compiled into their callers: each function numba compiles on its own is linked
# into, and optimised again with, every function that calls it.
INLINED = {"deal_count", "teams_on", "dealer_value", "round_start", "is_playable",
           "window_holds", "window_act_asking", "move_on", "open_state_windows"}
HIST_SIZE = MAX_TURNS_PER_GAME + MAX_TURNS_PER_ROUND + 2    # longest game, in turns, plus one
# A rule of a card's play written in more lines than this is a function of its own (outlined):
# far.split then calls it far, and numba compiles it beside `play` rather than inside it.
OUTLINE_LINES = 24


def rule_place(node) -> str:
    """A rule as a refusal names it: its place in its file and the kind of rule it is."""
    words = re.sub(r"(?<!^)(?=[A-Z])", " ", type(node).__name__).lower()
    span = node.span
    return f"the rule at {span.file} line {span.line} ({words})"


def marked_place(source: str, line: int | None) -> str | None:
    """The place of the rule whose lines hold `line` of the generated source: the nearest mark
    above it, at its indentation or less (NativeWriter.block); None outside every rule."""
    if line is None:
        return None
    lines = source.splitlines()
    depth = len(lines[line - 1]) - len(lines[line - 1].lstrip())
    for text in reversed(lines[:line - 1]):
        stripped = text.lstrip()
        indent = len(text) - len(stripped)
        if stripped and indent < depth:
            depth = indent
        if indent <= depth and stripped.startswith(repr(RULE_MARK)[:-1]):
            return ast.literal_eval(stripped)[len(RULE_MARK):]
    return None


class NativeWriter(LoopWriter):
    """Writes the native module of one ruleset for a table of `n` players."""

    def __init__(self, rules, n: int, bot: str = "random"):
        super().__init__(rules, n, Interrupt, MAX_TURNS_PER_ROUND, sim=True, record=False)
        self.bot_name = bot           # the bot of every seat: random, or basic (native.basic)
        self.basic = None             # basic's PlayTables, and the arrays of its choices
        self.basic_tables = None
        self.keeps_windows = False    # the module keeps the out-of-turn windows (native.windows)
        self.strings = Strings(rules.colors)
        self.local_functions = {"is_playable", "playable_cards", "play", "turn_starter", "end_round", "play_round",
                      "deal_count", "teams_on", "dealer_value", "round_start", "_matches", "_trace",
                      "play_targets", "stock_out", "settle", "run_extend"}
        self.uses_match_table = rules.match_static and rules.size <= MATCH_TABLE_LIMIT
        name, options = parse_spec(bot) if bot != "random" else (bot, {})
        if name == "basic":
            bot_tables = BasicBot(random.Random(0), **options).play_tables(rules, n)
            self.basic, self.basic_tables = bot_tables, basic.BasicTables(rules, n, bot_tables)
            self.local_functions |= set(basic.FUNCTIONS)
            self.keeps_windows = bool(rules.windows) and not windows.calls_close_every_window(self)
            if self.keeps_windows:
                self.local_functions |= set(windows.FUNCTIONS) | set(windows.WRITTEN)
        elif bot != "random":
            raise basic.BotUnsupported(f"the native engine plays only random and basic bots, not {bot} ones")
        self.outlined = []            # the rules of a card's play written as functions of their own
        self._outlines = {}           # (by rule: its function's name, parameters and names returned)
        self.offsets, _ = offsets(n, len(rules.deck), rules.size, len(rules.counters), 0,
                                  len(rules.windows) if self.keeps_windows else 0)

    # ---- what differs from the Python simulator loop --------------------------------------------
    @property
    def windows_kept(self) -> bool:
        """The out-of-turn windows are kept only for basic seats, where its call said with every
        play does not close them all as it lands (native.windows)."""
        return self.keeps_windows

    def allowed(self, ind: int):
        return None          # no memo of sets: every turn asks playable_cards, below

    def block(self, body, env: Env, ind: int) -> list:
        """Codegen's lines of each rule, after a string naming where the rule is in its file
        (lower.RULE_MARK), so that what the lowering refuses can be said as the rule it is in."""
        lines = []
        for stmt in body:
            lines += [(ind, repr(RULE_MARK + rule_place(stmt)))] + super().block((stmt,), env, ind)
        return lines or [(ind, "pass")]

    def playable_test(self, seat: str, card: str) -> str:
        return f"g.is_playable({seat}, {card})"

    def play_body(self, ind: int, drawn: str = "drawn", turn: bool = False, in_function: bool = False) -> list:
        """A card's play is written once, in `play`: elsewhere it is a call (compiled code calls
        cheaply, and numba compiles each copy of the effects anew). Setting
        `_played_this_turn` on a turn's own play, which codegen leaves out, changes nothing: only a
        draw turn reads it, after resetting it."""
        if in_function:
            return super().play_body(ind, drawn, turn, in_function)
        return [(ind, self.play_call("s", "card", "color_arg", "target_arg", "False", "call"))]

    def program(self, program, env: Env, ind: int) -> list:
        """A long rule of a card's play (an `on play` rule, an `after play` one) is a function of
        its own (`outlined`), written once and called wherever the rule runs (`play`, the first
        card's play as if played): numba compiles each function with all it links as one piece of
        work, and a ruleset's long rules, written into `play` and again into `turn_starter`, made
        those the longest of a first compile, with the rest waiting on them. Outlined, each rule
        is compiled once, beside the others (native.build)."""
        if (env.vars or env.played != "False" or self._in_run
                or not any(program is p for p in (*self.r.on_play, *self.r.after_play))):
            return super().program(program, env, ind)
        if id(program) not in self._outlines:
            self._outlines[id(program)] = self._outline(program)
        found = self._outlines[id(program)]
        if found is None:
            return super().program(program, env, ind)
        name, params, returned = found
        given = {"s": env.player, "actor": env.actor, "card": env.card, "honest": env.honest, "jumped": env.jumped,
                 "color_arg": env.color_arg, "target_arg": env.target_arg, "drawn": env.drawn}
        call = f"{name}({', '.join(['g', *(given[p] for p in params)])})"
        if not returned:
            return [(ind, call)]
        into = [given[p] if given[p].isidentifier() and not keyword.iskeyword(given[p]) else "_" for p in returned]
        return [(ind, f"{', '.join(into)} = {call}")]

    def run_lands(self, ind: int) -> list:
        """The cards of a run before the last, each acting as it lands where the rules say so: their
        rules stay inline there, where the play's names (`it` ...) are not yet set."""
        self._in_run = True
        try:
            return super().run_lands(ind)
        finally:
            self._in_run = False

    _in_run = False

    def _outline(self, program):
        """(name, parameters, names returned) of the rule written as a function of its own, or None
        when it stays inline: short (a call would cost more than it saves), playing a card (the
        call would come round to `play`), or setting a name of its caller's."""
        names = Env(player="s", actor="actor", card="card", honest="honest", jumped="jumped",
                    color_arg="color_arg", target_arg="target_arg", drawn="drawn")
        lines = super().program(program, names, 1)
        text = "\n".join("    " * i + t for i, t in lines)
        if len(lines) <= OUTLINE_LINES or re.search(r"\bplay\(|\beffect_gen\(", text):
            return None
        params = [p for p in ("s", "actor", "card", "honest", "jumped", "color_arg", "target_arg", "drawn")
                  if re.search(rf"\b{p}\b", text)]
        tree = ast.parse(f"def f({', '.join(['g', *params])}):\n{text}")
        stored = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        stored |= {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)} - {"f"}
        returned = [p for p in ("drawn", "color_arg", "target_arg") if p in stored and p in params]
        own = stored - set(params)
        if (stored & set(params)) - set(returned) or any(not re.match(r"_|l_|v_", n) for n in own):
            return None
        name = f"effect_{len(self.outlined) + 1}"
        self.local_functions.add(name)
        self.outlined.append([(0, f"def {name}({', '.join(['g', *params])}):"), *lines,
                              *([(1, f"return {', '.join(returned)}")] if returned else [])])
        return name, params, returned

    def event(self, ind: int, call: str) -> list:
        """The moves of a traced game (tests compare them with the Python engine's): kept by a game
        whose memory has room for them (NativeEngine's `trace`), passed over by the others."""
        kind = re.match(r"g\.event\('(\w+)'", call).group(1)
        if kind == "play":
            return [(ind, f"_trace(g, {TRACE_PLAY}, s, card)")]
        if kind == "draw_turn":
            return [(ind, f"_trace(g, {TRACE_DRAW}, s, None)")]
        if kind == "round_end":
            return [(ind, f"_trace(g, {TRACE_ROUND}, winner, None)")]
        return []

    # ---- basic seats: each choice a call of native.basic's functions ------------------------------
    def choose_turn(self, ind: int) -> list:
        if self.basic is None:
            return super().choose_turn(ind)
        L = [(ind, "cards = playable_cards(g, s)"),
             (ind, "playing = len(cards) > 0"),
             (ind, "if playing:"),
             (ind + 1, "card, color_arg, target_arg, more = basic_turn(g, s, cards, True)"
              if self.r.runs is not None else     # (playable_cards leaves them at O_BUF)
              "card, color_arg, target_arg = basic_play(g, s, O_BUF, len(cards))")]
        if not self.keeps_windows:
            return L
        # as the seat bot's loop takes a turn (codegen's turn_offer, bot_turn): the actions out of
        # turn the last choice left due first; then the play, said with the bot's call unless it
        # is the turn's only action
        call = self.basic.call
        r = self.r
        if call is None or r.renege_const is True:
            said = repr(call)
        else:
            counts = self.variant_colors()[0]
            many = f"sum({counts}[c] for c in cards) > 1"
            said = f"{call!r} if {many if r.renege_const is False else 'renege_open(g, s) or ' + many} else None"
        head = [(ind, "g.decision = TURN[s]"),
                (ind, "if g._out_of_turn_due:"),
                (ind + 1, "g._out_of_turn_due = False"),
                (ind + 1, "if g.windows:")]
        if self.moves_on:
            head += [(ind + 2, "if offer_due(g) and offer_turn(g):"), (ind + 3, "if g.round_over:"),
                     (ind + 4, "break"), (ind + 3, "continue")]
        else:
            head += [(ind + 2, "if offer_due(g):"), (ind + 3, "offer_turn(g)")]
        return head + [(ind, "call = None")] + L + [(ind + 1, f"call = {said}"), (ind, "g._out_of_turn_due = True")]

    def drawn_play(self, seat: str, card: str, ind: int, inline: bool) -> list:
        if self.basic is None:
            return super().drawn_play(seat, card, ind, inline)
        # played by a call, in locals of its own, as LoopWriter.random_play plays it
        color, target = ("color_arg", "target_arg") if inline else (self.temp("ca"), self.temp("ta"))
        call = "call" if inline else self.temp("call")
        L = [(ind, f"_, {color}, {target} = basic_drawn(g, {seat}, {card})")]
        if self.keeps_windows:      # as codegen's bot_drawn: asked as a decision, said with the call
            said = repr(self.basic.call)      # unless the card must be played, in one way only
            if self.basic.call is not None and self._drawn_must:
                said = f"None if {self.variant_colors()[0]}[{card}] == 1 else {said}"
            L = [(ind, "asking(g)"), *L, (ind, f"{call} = {said}"), (ind, "g._out_of_turn_due = True")]
        if not inline:
            return L + [(ind, self.play_call(seat, card, color, target, "False", call))]
        return L + [(ind, f"card = {card}"), *self.play_body(ind, drawn=self.temp("drawn"))]

    _drawn_must = False

    def more_play(self, seat: str, options: str, ind: int) -> list:
        if self.basic is None:
            return super().more_play(seat, options, ind)
        # BasicBot plays one of the cards a `may play` offers, the play weighed most, as a turn's,
        # said with its call; where the module keeps windows, asked as runtime.ask asks it
        x, color, target, call = self.temp("x"), self.temp("ca"), self.temp("ta"), self.temp("call")
        L = [(ind, f"{x}, {color}, {target} = basic_turn(g, {seat}, {options})"),
             (ind, f"{call} = {self.basic.call!r}")]
        return self.asked(L, ind) + [(ind, self.play_call(seat, x, color, target, "False", call))]

    def _sPlayDrawn(self, node, env, ind):
        self._drawn_must = node.must      # (read by drawn_play)
        try:
            return super()._sPlayDrawn(node, env, ind)
        finally:
            self._drawn_must = False

    def ask_for(self, answer: str, seat: str, kind: str, options: str, prompt: str, optional: bool, ind: int) -> list:
        if self.basic is None:
            return super().ask_for(answer, seat, kind, options, prompt, optional, ind)
        if kind == "'seat'":
            return self.asked([(ind, f"{answer} = basic_seat(g, {seat}, {options})")], ind)
        if kind == "'card'":
            return self.asked([(ind, f"{answer} = basic_card(g, {seat}, {options})")], ind)
        return self.asked([(ind, f"{answer} = basic_color(g, {seat}, {options})")], ind)

    def answer_choice(self, answer: str, seat: str, names: tuple, question: str) -> str:
        if self.basic is None:
            return super().answer_choice(answer, seat, names, question)
        if self.keeps_windows and set(names) & set(self.r.window_verbs()):
            # (the Game takes a window's word said by the seat answering as its answer)
            self.refused_choice = basic.NOT_YET.format("a question one of whose answers is a word said out of turn")
            raise basic.BotUnsupported(self.refused_choice)
        q = self.basic_tables.question(names)
        return f"{answer} = {names!r}[basic_answer(g, {seat}, {q}, {len(names)})]"

    def answer_lines(self, answer: str, seat: str, names: tuple, question: str, ind: int) -> list:
        return self.asked(super().answer_lines(answer, seat, names, question, ind), ind)

    def asked(self, lines: list, ind: int) -> list:
        """A seat's answer to a question, taken as runtime.ask takes it where the module keeps
        windows: the actions out of turn due first (native.windows `asking`), and due again after."""
        if not self.keeps_windows:
            return lines
        return [(ind, "asking(g)"), *lines, (ind, "g._out_of_turn_due = True")]

    refused_choice = None     # a choice of basic's not compiled, met where the rules were written

    def honesty_function(self) -> list:
        """`basic_honest(g, s, card)`: whether the seat's play of the card meets the rules'
        honesty test (True when it has none), the test written by codegen's templates."""
        env = Env(player="s", actor="s", card="card")
        honest = tuple(None if e is None else (e, f) for e, f in zip(self.r.honest_exprs, self.r.honest))

        def test(item, i):
            lines, value = self.condition(item[0], item[1], env, i)
            return lines + [(i, f"honest = {value}")]
        return [(0, "def basic_honest(g, s, card):"), (1, "honest = True"),
                *self.dispatch(honest, 1, test), (1, "return honest")]

    def renege_function(self) -> list:
        """`renege_open(g, s)`: whether the seat's turn offers a draw besides its plays (the rules'
        renege test, as Game._list_actions asks it)."""
        decl = self.r.composed.decls(A.Renege)[-1]
        lines, test = self.condition(decl.test, self.r.renege, Env(player="s", actor="s", card=None), 1)
        return [(0, "def renege_open(g, s):"), *lines, (1, f"return {test}")]

    # ---- the rules' own parts of a game the Python engine runs through closures -------------------
    def expression_functions(self) -> list:
        r = self.r
        c = r.composed
        nobody = Env(player="None", actor="None", card=None)
        L = []
        deal = c.decls(A.Deal)
        count = self._number(deal[-1].count, nobody) if deal else "0"
        L += [(0, "def deal_count(g):"), (1, f"return int({count})"), (0, "")]
        teams = c.decls(A.Teams)
        test = self._boolean(teams[-1].test, nobody) if teams else "False"
        L += [(0, "def teams_on(g):"), (1, f"return {test}"), (0, "")]
        dealer = c.decls(A.DealsFirst)
        if dealer and r.dealer_values is None:
            value = self._number(dealer[-1].value, Env(player="None", actor="None", card="card"))
        else:
            value = "DEALER_VALUES[card]" if dealer else "0"
        L += [(0, "def dealer_value(g, card):"), (1, f"return {value}"), (0, "")]
        if r.on_stock_out is not None:         # Table._take runs it (REFILL's take_card)
            L += [(0, "def stock_out(g):"), (1, "drawn = None")]
            L += self.program(r.on_stock_out, Env(player="None", actor="None", card=None), 1)
            L += [(1, "return"), (0, "")]
        # matching: a table when the match rules read only the card, the top card and the color
        L += [(0, "def is_playable(g, p, card):")]
        if not self.uses_match_table:
            matches = [self._boolean(m.test, Env(player="p", actor="p", card="card")) for m in c.decls(A.Match)]
            L += [(1, f"if not ({' or '.join(matches) or 'False'}):"), (2, "return False")]
        else:
            L += [(1, "if not _matches(g, card):"), (2, "return False")]
        env = Env(player="p", actor="p", card="card")
        for only in c.decls(A.PlayOnly):
            L += [(1, f"if not {self._boolean(only.test, env)}:"), (2, "return False")]
        L += [(1, "return True"), (0, "")]
        return L

    def generated_source(self) -> str:
        parts = (self.play_function(), self.starter_function(), self.round_start_function(),
                 self.end_round_function(), self.round_function())
        if self.names_players():
            parts += (self.targets_function() or [],)
        if self.basic is not None:
            parts += (self.honesty_function(),)
        if self.r.runs is not None:
            parts += (self.run_extend_function(),)
        if self.r.triggers:
            parts += (self.settle_function(),)
        if self.keeps_windows:          # what the windows mean (native.windows keeps them)
            parts += tuple(self.window_functions())
            if self.r.state_windows:
                parts += (self.state_windows_function(),)
            if self.moves_on:
                parts += (self.move_on_function(),)
            if self.r.renege_const is None:
                parts += (self.renege_function(),)
        parts += tuple(self.outlined)        # (written by the parts above)
        lines = [line for part in parts for line in part + [(0, "")]]
        lines += self.expression_functions()
        return "\n".join("    " * ind + text for ind, text in lines)

    # ---- the module ---------------------------------------------------------------------------
    def module_source(self) -> str:
        """The native module's full text: tables, the lowered functions, the game around them."""
        r = self.r
        if self.basic is not None:
            why = basic.refusal(self) or (windows.refusal(self) if self.keeps_windows else None)
            if why is not None:
                raise basic.BotUnsupported(why)
        source = self.generated_source()
        if self.refused_choice is not None:        # (met inside a rule, which it would leave to closures)
            raise basic.BotUnsupported(self.refused_choice)
        if self.delegated:          # a rule the Python engine runs through its generic closures
            raise Unsupported(self.delegated_place())
        if self.names_players() and self.targets_function() is None:
            raise Unsupported("a card whose play names a player")
        if r.runs is not None and self.names_players():       # (the plays then come from Game._plays)
            raise Unsupported("runs of cards in rules where a card's play names a player")
        tables = Tables(self.strings, self.ns, {name: i for i, name in enumerate(r.counters)},
                        windows={w.name: i for i, w in enumerate(r.windows)} if self.keeps_windows else {},
                        players=self.n)
        tables.seat_attrs = {id(fn): name for name, (_, fn) in r.resolver.seat_attrs.items()}
        try:
            functions = lower_functions(source, tables, self.local_functions)
        except Unsupported as missing:
            place = marked_place(source, getattr(missing, "line", None))
            if place is None:
                raise
            raise Unsupported(place) from None
        body = "\n\n".join(("@njit(cache=True, inline='always')\n" if fn.name in INLINED else "@njit(cache=True)\n")
                           + ast.unparse(ast.fix_missing_locations(fn)) for fn in functions)
        if self.basic is not None:
            variants = self.variant_colors()
            for name in variants:
                tables.use(name)
        parts = [HEADER, self.tables_source(tables)]
        if self.basic is not None:
            parts += [self.basic_tables.source(self.strings, variants),
                      basic.SOURCE.format(n=self.n, none=NONE, k=len(r.colors), cap=len(r.deck) + 1,
                                          named=basic.NAMED if self.names_players() else "",
                                          following=(basic.FOLLOWING_MATCH if self.uses_match_table else
                                                     basic.FOLLOWING_COLOR).format(none=NONE, k=len(r.colors),
                                                                                  cap=len(r.deck) + 1),
                                          **basic.turn_parts(r.runs is not None, NONE, MAX_RUNS),
                                          **basic.room(self.n), **{f"S_{k.upper()}": v for k, v in SLOT.items()})]
            if self.keeps_windows:
                parts += [windows.tables_source(self, self.strings), windows.source(self)]
        return far.split("\n".join(parts + [body, self.game_source()]) + "\n")

    def delegated_place(self) -> str:
        """Where the first rule left to the generic closures is, or what it is (a card property)."""
        program, missing = self.delegated[0]
        if isinstance(program, str):
            return f"the card property {program}"
        kind = missing.split(" ", 1)[0]          # ("AsIfPlayed outside a starter": the statement)
        for node in A.walk(program.body, self.r.definitions):
            if type(node).__name__ == kind and getattr(node, "span", None) is not None:
                return rule_place(node)
        return "one of its rules"

    def tables_source(self, tables: Tables) -> str:
        r = self.r
        s = self.strings
        rows = []

        def array(name, values, dtype="np.int64"):
            rows.append(f"{name} = np.array({list(values)!r}, dtype={dtype})")

        for name, values in sorted(tables.arrays.items()):
            array(name, values)
        for name, value in sorted(tables.numbers.items()):
            rows.append(f"{name} = {value}")
        for name, at in self.offsets.items():        # where each list lies in the game's memory
            if name != "trace":                       # (found by its slot: layout.REGIONS)
                rows.append(f"O_{name.upper()} = {at}")
        tags = sorted(tables.tags, key=tables.tags.get)
        rows.append(f"TAGS = np.array({[[int(t in r.cards.tags[c]) for t in tags] or [0] for c in range(r.size)]!r}, dtype=np.int8)")
        array("DECK", r.deck)
        array("POINTS", [encode(p, s) if isinstance(p, int) else 0 for p in r.cards.points])
        array("COUNTERS0", list(r.counters.values()) or [])
        if r.dealer_values is not None:
            array("DEALER_VALUES", [int(v or 0) for v in r.dealer_values])
        if self.uses_match_table:
            colors = list(r.colors) + [None]
            table = [[[int(card in r.playable_set(top, color)) for card in range(r.size)] for color in colors]
                     for top in range(r.size)]
            rows.append(f"MATCH = np.array({table!r}, dtype=np.int8)")
        return "\n".join(rows)

    def game_source(self) -> str:
        r = self.r
        refill = REFILL.format(none=NONE) if r.on_stock_out is not None else ""
        return refill + GAME.format(
            n=self.n, deck=len(r.deck), cap=len(r.deck) + 1, counters=len(r.counters), k=len(r.colors),
            game_slots=GAME_SLOTS, lazy=int(not r.ordered_stock), alike="g[O_ALIKE + c]" if r.faces else "c",
            dealer_random=int(not r.composed.decls(A.DealsFirst)), hist=HIST_SIZE,
            max_rounds=MAX_ROUNDS, max_game_turns=MAX_TURNS_PER_GAME,
            stale_rounds=STALE_ROUNDS, stale_game_turns=STALE_GAME_TURNS, none=NONE,
            **{f"S_{k.upper()}": v for k, v in SLOT.items()})


HEADER = '''"""A ruleset's native module, written by unodsl.native (do not edit: it is rebuilt from the rules)."""
import numpy as np
from numba import njit as entry
from unodsl.native.runtime import njit
import unodsl.native.runtime as R
'''

# Draws where the rules have their own `when the stock runs out` (`stock_out`): runtime.take's
# and runtime.draw_cards's, the refill run here, as numba keeps on disk no machine code of a
# function handed another function.
REFILL = '''
@njit(cache=True)
def take_card(g):
    if R.refill_due(g):
        stock_out(g)
        R.refilled(g)
    return R.take(g, np.bool_(True))


@njit(cache=True)
def draw_cards(g, seat, count):
    got = R.ZERO
    last = np.int64({none})
    for _ in range(count):
        card = take_card(g)
        if card == {none}:
            break
        R.hand_add(g, seat, card)
        last = card
        got += 1
    R.drew(g, seat, seat, got)
    return last

'''

# The game around the rules' code: numba source, with the slots and limits filled in. Every function
# of the module is runtime.njit's (only compiled code calls it: no wrappers for Python) but
# `run_games`, the one Python calls (numba's own njit, imported as `entry`).
GAME = '''
@njit(cache=True, inline='always')
def _matches(g, card):
    c = g[{S_COLOR}]
    return MATCH[R.top(g), {k} if c == {none} else c, card] != 0


@njit(cache=True)
def _trace(g, kind, seat, card):
    k = g[{S_TRACE_LEN}]
    if k < g[{S_TRACE_SIZE}]:
        e = g[{S_O_TRACE}] + 5 * k
        g[e] = kind
        g[e + 1] = seat
        g[e + 2] = card
        g[e + 3] = g[{S_COLOR}]
        g[e + 4] = g[{S_ROUND}]
        g[{S_TRACE_LEN}] = k + 1


@njit(cache=True, inline='always')
def playable_cards(g, s):
    """Game.playable on a turn: the distinct cards in hand that may be played, in hand order
    (two-faced cards showing the same face are one: the first held)."""
    h = O_HANDS + s * {cap}
    n = g[O_HLEN + s]
    out = g[O_BUF:O_BUF + n]
    k = 0
    for i in range(n):
        c = g[h + i]
        if g[O_SEEN + {alike}] == 0 and is_playable(g, s, c):
            g[O_SEEN + {alike}] = 1
            out[k] = c
            k += 1
    for j in range(k):
        c = out[j]
        g[O_SEEN + {alike}] = 0
    return out[:k]


@njit(cache=True, inline='always')
def choose_dealer(g):
    """RoundFlow._choose_dealer: each contender turns a card; the highest value deals."""
    n = {n}
    if {dealer_random}:
        return R.randbelow(g, np.int64(n))
    contenders = R.new_ints(np.int64(n))
    for j in range(n):
        contenders[j] = j
    m = n
    picked = R.new_ints(np.int64(n))
    values = R.new_ints(np.int64(n))
    while m > 1:
        k = 0
        while k < m:
            i = np.int64(R.rand(g) * {deck})
            fresh = True
            for j in range(k):
                if picked[j] == i:
                    fresh = False
            if fresh:
                picked[k] = i
                k += 1
        best = 0
        for j in range(m):
            values[j] = dealer_value(g, DECK[picked[j]])
            if j == 0 or values[j] > best:
                best = values[j]
        kept = 0
        for j in range(m):
            if values[j] == best:
                contenders[kept] = contenders[j]
                kept += 1
        m = kept
    return contenders[0]


@njit(cache=True)
def deal_round(g, first):
    """RoundFlow._deal_round: a dealt round, its opening rule and its starter card."""
    R.reset_round(g, COUNTERS0)
    if first:
        if {n} >= 4 and {n} % 2 == 0 and teams_on(g):
            for s in range({n}):
                g[O_TEAMS + s] = s % ({n} // 2)
        if g[{S_DEALER}] == {none}:
            g[{S_DEALER}] = choose_dealer(g)
    for i in range({deck}):
        g[O_STOCK + i] = DECK[i]
    g[{S_STOCK_LEN}] = {deck}
    g[{S_LAZY}] = {lazy}
    count = deal_count(g)
    order = R.order_from(g, R.next_seat(g, g[{S_DEALER}], np.int64(1)))
    for _ in range(count):
        if g[{S_STOCK_LEN}] == 0:
            break
        for s in order:
            left = g[{S_STOCK_LEN}]
            if left > 0:
                i = np.int64(R.rand(g) * left)
                R.hand_add(g, s, g[O_STOCK + i])
                g[O_STOCK + i] = g[O_STOCK + left - 1]
                g[{S_STOCK_LEN}] = left - 1
    if not {lazy}:             # a stock kept in order is shuffled once the hands are dealt
        R.shuffle(g, np.int64(O_STOCK), g[{S_STOCK_LEN}])
    round_start(g)
    turn_starter(g, np.int64({none}))


@njit(cache=True, inline='always')
def play_one(g, seed):
    """A whole game (Game and RoundFlow._play_one_round), from the first deal to its end."""
    g[:{game_slots}] = 0
    g[{S_COLOR}] = {none}
    g[{S_DEALER}] = {none}
    g[{S_WINNER}] = {none}
    g[{S_NEXT_OVERRIDE}] = {none}
    g[{S_DIRECTION}] = 1
    for s in range({n}):
        g[O_SCORES + s] = 0
        g[O_ELIMINATED + s] = 0
        g[O_TEAMS + s] = s
        g[O_ORDER + s] = s
        g[O_POS + s] = s
    for j in range({counters}):
        g[O_PEAKS + j] = 0
    g[{S_RNG}] = np.int64(seed)
    first = True
    while True:
        g[{S_ROUND}] += 1
        deal_round(g, first)
        first = False
        play_round(g)
        if g[{S_GAME_OVER}]:
            break
        if g[{S_ROUND}] >= {max_rounds} or g[{S_TURNS_BEFORE}] + g[{S_ROUND_TURNS}] >= {max_game_turns}:
            g[{S_STALEMATE}] = {stale_rounds} if g[{S_ROUND}] >= {max_rounds} else {stale_game_turns}
            R.end_game(g, np.bool_(True))
            break
        g[{S_DEALER}] = R.clockwise(g, g[{S_DEALER}], np.int64(1))


@entry(cache=True)
def run_games(state, seed, first, count, hist, totals, peaks, wins, won, team_won, unit, direct):
    """Play games first .. first+count-1 of a run, adding their statistics to the arrays given
    (sim.simulate.Stats: totals are turns squared, rounds, drawn, reshuffles, stock ran dry,
    eliminations, stalemates, points, and the squares of drawn, reshuffles, rounds and
    eliminations; a win is worth `unit`, shared among a game's winners; `won`
    counts the games each seat won, alone or tied, and `team_won` those each team won).
    With `direct`, one game whose generator starts at `seed` itself (the tests' games)."""
    g = R.borrowed(state)                # held by the caller: no counting of its owners below
    for i in range(first, first + count):
        play_one(g, seed if direct else R.game_seed(seed, i))
        turns = g[{S_TURNS_BEFORE}] + g[{S_ROUND_TURNS}]
        hist[turns if turns < {hist} - 1 else {hist} - 1] += 1
        totals[0] += turns * turns
        totals[1] += g[{S_ROUND}]
        totals[2] += g[{S_DRAWN}]
        totals[3] += g[{S_RESHUFFLES}]
        totals[4] += g[{S_STOCK_EMPTY}]
        totals[5] += g[{S_ELIMINATIONS}]
        totals[6] += g[{S_STALEMATE}] != 0
        for s in range({n}):
            if g[O_SCORES + s] > 0:
                totals[7] += g[O_SCORES + s]
        totals[8] += g[{S_DRAWN}] * g[{S_DRAWN}]
        totals[9] += g[{S_RESHUFFLES}] * g[{S_RESHUFFLES}]
        totals[10] += g[{S_ROUND}] * g[{S_ROUND}]
        totals[11] += g[{S_ELIMINATIONS}] * g[{S_ELIMINATIONS}]
        for j in range({counters}):
            if g[O_PEAKS + j] > peaks[j]:
                peaks[j] = g[O_PEAKS + j]
        m = g[{S_N_WINNERS}]
        for j in range(m):
            wins[g[O_WINNERS + j]] += unit // m
            won[g[O_WINNERS + j]] += 1
        for t in range({n}):
            for j in range(m):
                if g[O_TEAMS + g[O_WINNERS + j]] == t:
                    team_won[t] += 1
                    break
'''
