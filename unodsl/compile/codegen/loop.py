"""The turn loop written as Python source: the top layer of codegen.

Writes the functions the Game runs: `play_round` (Game._play_round), `play` (a card lands and
acts), `turn_starter`, `round_start`, `end_round` (scoring), `playable_cards` and `turn_actions`
(what may be played, as Game.playable and Game.legal_actions list it). What the rules can never do is left out
of them; what they fix is folded into constants and tables.
"""
from __future__ import annotations

import io
import re
import tokenize
from dataclasses import replace

from ...lang import ast as A
from ..effects import MAX_CHAINED_PLAYS, MAX_FIRINGS, MAX_RUNS
from ..expressions import ANY, MEMBER, SEAT
from .bots import bot_functions
from .offer import offer_functions
from .expressions import _NONNULL_SEATS, Env, Unsupported
from .statements import StatementWriter

CARD_PLAYS_KEPT = 4096      # lists of plays of cards that name a player kept by the written bot turn


class LoopWriter(StatementWriter):
    """Writes the Python source of one ruleset's turn loop for a table of `n` players."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.pick = False         # the simulator's turn plays chosen by the seat bot's `pick`
        self._play_depth = 0      # plays being written inside one another (a drawn card's)
        self._variant_colors = None   # names of the tables of a play's colors (variant_colors)
        self._targets = ()            # play_targets's lines once written (None: it cannot be)
        self._as_if = None        # inside a starter rule: writes `as if <seat> played it`
        self._orders = None       # the order of play from each seat per direction (order_from)

    def _sPlayDrawn(self, node, env, ind):
        """`X may play it` / `must play it` (effects._PlayDrawn): the card just drawn, if X may
        play it, offered to X and played, counted in `g.chained_plays` as `may play a card`'s
        plays are (a rule that draws and plays again inside every play stops at the limit)."""
        head, L = self._drawn_offer(node, env, ind)
        return head + self.chained(L, ind + 1)

    def _drawn_offer(self, node, env, ind) -> tuple:
        """(the test that the drawn card may be played, the lines that offer and play it)."""
        t, x, act = self.temp(), self.temp("x"), self.temp("act")
        who = self.expr(node.who, env)
        if who in _NONNULL_SEATS:
            t = who
            head = [(ind, f"{x} = {env.drawn}"),
                    (ind, f"if {x} is not None and {self.playable_test(t, x)} and {x} in g.hands[{t}]:")]
        else:
            head = [(ind, f"{t} = {who}"),
                    (ind, f"{x} = {env.drawn}"),
                    (ind, f"if isinstance({t}, int) and {x} is not None and {self.playable_test(t, x)} and {x} in g.hands[{t}]:")]
        # the turn's player plays the drawn card: its play written out here, once (not inside
        # another play's effect, where it stays a call)
        inline = who == "s" and self._play_depth == 0
        tracked = env.played != "False"           # the program reads `played`
        if tracked:
            head = [(ind, f"{env.played} = False")] + head
        noted = [(ind + 1, f"{env.played} = True")] if tracked else []
        if self.sim and not self.bot:     # the simulator's seat plays the drawn card (drawn_play)
            return head, noted + self.drawn_play(t, x, ind + 1, inline)
        d = self.temp("d")
        if self.bot and self.tables is not None:
            return head, noted + self.bot_drawn(t, x, d, act, node.must, ind + 1, inline)
        # the decision and its legal actions, as Game._list_actions lists them
        listed = ([(ind + 1, f"g._legal = list(PLAYS[{t}][{x}])")] if node.must else
                  [(ind + 1, f"g._legal = [*PLAYS[{t}][{x}], FIXED[{t}].keep]")])
        L = [
            (ind + 1, f"{d} = DRAWN.get(({t}, {x}, {node.must!r}))"),
            (ind + 1, f"if {d} is None:"),
            (ind + 2, f"{d} = DRAWN[({t}, {x}, {node.must!r})] = Decision({t}, 'drawn', (), 'Play the card you drew?', card={x}, must={node.must!r})"),
            *(listed if self.r.runs is None and not any(p is not None and p.asks_target for p in self.r.on_play)
              else []),
            (ind + 1, f"{act} = ask(g, {d})" if self.bot else f"{act} = yield {d}"),
            (ind + 1, f"if {act}.verb == 'play':"),
            *[(i + 1, line) for i, line in noted]]
        if not inline:
            return head, L + [(ind + 2, f"play(g, {t}, {act}, False)" if self.bot else f"yield from play(g, {t}, {act}, False)")]
        return head, L + [(ind + 2, f"_, _, card, color_arg, target_arg, _, call, more = {act}"),
                          *self.play_body(ind + 2, drawn=self.temp("drawn"))]

    def _sMayPlayCard(self, node, env, ind):
        """`may play a card where C` (effects._MayPlayCard): the player may play one of the
        distinct cards held that meet C, or pass, unless the round is over. C sees the player and
        the card only. The play is a call of `play`, counted in `g.chained_plays`, so that plays
        offering plays stop after MAX_CHAINED_PLAYS (told as `loop_limit`)."""
        t, o, v, act = self.temp(), self.temp("o"), "v_card", self.temp("act")
        test = self._boolean(node.test, Env(player=t, actor=t, card=v, drawn="None"))
        tracked = env.played != "False"           # the program reads `played`
        noted = [(ind + 3, f"{env.played} = True")] if tracked else []
        limit = self.event(ind + 3, f"g.event('loop_limit', limit={MAX_CHAINED_PLAYS})")
        L = [(ind, f"{t} = {self.expr(node.who, env)}"),
             *([(ind, f"{env.played} = False")] if tracked else []),
             (ind, f"if isinstance({t}, int) and not g.round_over:"),
             (ind + 1, f"{o} = tuple({v} for {v} in {self.distinct(f'g.hands[{t}]')} if {test})"),
             (ind + 1, f"if {o}:"),
             (ind + 2, f"if g.chained_plays >= {MAX_CHAINED_PLAYS}:"), *(limit or [(ind + 3, "pass")]),
             (ind + 2, "else:")]
        if self.sim and not self.bot:     # the simulator's seat plays one of them (more_play)
            return L + noted + [(ind + 3, "g.chained_plays += 1"), *self.more_play(t, o, ind + 3),
                                (ind + 3, "g.chained_plays -= 1")]
        decision = f"Decision({t}, 'more', {o}, 'Play another card, or pass')"
        return L + [(ind + 3, f"{act} = ask(g, {decision})" if self.bot else f"{act} = yield {decision}"),
                    (ind + 3, f"if {act}.verb == 'play':"),
                    *[(i + 1, line) for i, line in noted],
                    (ind + 4, "g.chained_plays += 1"),
                    (ind + 4, f"play(g, {t}, {act}, False)" if self.bot else f"yield from play(g, {t}, {act}, False)"),
                    (ind + 4, "g.chained_plays -= 1")]

    def more_play(self, seat: str, options: str, ind: int) -> list:
        """The simulator's seat plays one of the cards `options` a `may play` offers: the random
        policy always plays, a card drawn uniformly among them, then its play's variant
        (random_play), as RandomBot chooses among the decision's plays."""
        x = self.temp("x")
        return [(ind, f"{x} = {options}[int(rand() * len({options}))]")] + self.random_play(seat, x, ind, False)

    def drawn_play(self, seat: str, card: str, ind: int, inline: bool) -> list:
        """The simulator's seat plays the card it drew and may play: the random policy always
        does, with one draw for the card, then its play's variant (random_play)."""
        return [(ind, "rand()")] + self.random_play(seat, card, ind, inline)

    def bot_drawn(self, t: str, x: str, d: str, act: str, must: bool, ind: int, inline: bool) -> list:
        """The seat bot plays the card `x` seat `t` drew, written out as `ask` takes the decision
        (the out-of-turn actions due first: runtime.pose) and as the bot's `choose` takes
        it: a play rather than keeping the card, the one weighed most (`bot_best`), said with
        the bot's call unless it is the only action offered."""
        v = self.temp("v")
        alone = [(ind, f"if len({v}) == 1:"), (ind + 1, f"{act} = {v}[0]"), (ind, "else:")] if must else []
        chosen = [(ind + bool(must), f"{act} = bot_best(g, {t}, {v})")]
        if self.tables.call is not None:
            chosen += [(ind + bool(must), f"if {act}.call is None:"),
                       (ind + bool(must) + 1, f"{act} = {act}._replace(call=B_CALL)")]
        L = [(ind, f"{d} = DRAWN.get(({t}, {x}, {must!r}))"),
             (ind, f"if {d} is None:"),
             (ind + 1, f"{d} = DRAWN[({t}, {x}, {must!r})] = Decision({t}, 'drawn', (), 'Play the card you drew?', card={x}, must={must!r})"),
             (ind, f"pose(g, {d})"),
             (ind, f"{v} = PLAYS[{t}][{x}]"),
             (ind, f"if {v} is None:"), (ind + 1, f"{v} = g._plays({t}, {x})"),
             *alone, *chosen,
             (ind, "g._out_of_turn_due = True")]
        if not inline:
            return L + [(ind, f"play(g, {t}, {act}, False)")]
        return L + [(ind, f"_, _, card, color_arg, target_arg, _, call, more = {act}"),
                    *self.play_body(ind, drawn=self.temp("drawn"))]

    def random_play(self, seat: str, card: str, ind: int, inline: bool) -> list:
        """The random policy plays `card`: a color and a player for it drawn uniformly, as
        `RandomBot` picks among the play's variants (one draw even when there is only one).
        Played by a call, its color and player are locals of their own: the play whose effect
        makes it keeps the color and player named with it."""
        color, target = ("color_arg", "target_arg") if inline else (self.temp("ca"), self.temp("ta"))
        L = [(ind, f"if ASKS[{card}] == 0:"),
             (ind + 1, "rand()"),
             (ind + 1, f"{color} = {target} = None"),
             (ind, f"elif ASKS[{card}] == 1:"),
             (ind + 1, f"{color}, {target} = {self.color_pick(card)}, None"),
             (ind, "else:"),
             *self.random_variant(seat, card, ind + 1, (color, target))]
        if not inline:
            return L + [(ind, self.play_call(seat, card, color, target, "False"))]
        return L + [(ind, f"card = {card}"),
                    *self.play_body(ind, drawn=self.temp("drawn"))]

    def color_pick(self, card: str) -> str:
        """The random policy's color for a play of `card` that names one: uniform among the
        colors its effect offers (all of them, unless it asks for a color of a group)."""
        if all(p is None or not p.asks_color or p.color_options == self.r.colors for p in self.r.on_play):
            return "COLORS[int(rand() * NCOLORS)]"
        table = self.const(tuple(p.color_options if p is not None else () for p in self.r.on_play), "CARD_COLORS")
        return f"{table}[{card}][int(rand() * len({table}[{card}]))]"

    def _sAsIfPlayed(self, node, env, ind):
        who = self.temp()
        if node.card is not None:        # another card's effect: the card's own play, as a call
            card = self.temp("x")
            run = f"g.effect_gen({who}, {card})"
            return [(ind, f"{who} = {self.expr(node.who, env)}"), (ind, f"{card} = {self.expr(node.card, env)}"),
                    (ind, f"drive(g, {run})" if self.sim else f"yield from {run}")]
        if self._as_if is None or env.card != "card":
            raise Unsupported("AsIfPlayed outside a starter")
        return [(ind, f"{who} = {self.expr(node.who, env)}")] + self._as_if(who, ind)

    def play_function(self) -> list:
        """`play(...)`: Game.play_gen for this ruleset, for plays inside effects (a drawn card).
        Driven by a Game it is a generator of decisions taking the action; in the simulator it is
        a plain function taking the card, color and player chosen."""
        if self.bot:
            head = [(0, "def play(g, s, action, jumped):"), (1, "rand = g._seat_rand"),
                    (1, "_, _, card, color_arg, target_arg, _, call, more = action")]
        elif self.sim:          # (where the windows are kept, with the call said with the play)
            call = ", call" if self.windows_kept else ""
            head = [(0, f"def play(g, s, card, color_arg, target_arg, jumped{call}):"), (1, "rand = g._seat_rand")]
        else:
            head = [(0, "def play(g, s, action, jumped):"),
                    (1, "_, _, card, color_arg, target_arg, _, call, more = action")]
        return head + self.play_body(1, in_function=True) + ([] if self.sim else [(1, "return"), (1, "yield")])

    def play_body(self, ind: int, drawn: str = "drawn", turn: bool = False, in_function: bool = False) -> list:
        """A card lands and acts: with `s`, `card`, `color_arg`, `target_arg`, `jumped` (and,
        driven by a Game, `call`) bound; `drawn` names the local holding `it` for this play. The
        simulator skips windows, which random seats never use; a ruleset that never cancels a play
        keeps no journal of it. A turn's own play need not note that someone played (only a
        draw turn asks)."""
        r = self.r
        env = Env(player="s", actor="s", card="card", honest="honest", jumped="jumped",
                  color_arg="color_arg", target_arg="target_arg", drawn=drawn)
        self._play_depth += 1
        L = []
        if r.runs is not None and not self.sim:     # a run: the cards before the last land first
            L += [(ind, "if more:"), (ind + 1, "card = yield from g.run_gen(s, card, more)")]
        if r.undoable:
            L += [(ind, "outer = g._journal"), (ind, "journal = g._journal = []")]
        honest = tuple(None if e is None else (e, f) for e, f in zip(r.honest_exprs, r.honest))
        def honesty(item, i):
            lines, test = self.condition(item[0], item[1], env, i)
            return lines + [(i, f"honest = {test}")]
        L += self.dispatch(honest, ind, honesty)
        L += [(ind, "g.hands[s].remove(card)"), (ind, "g.discard.append(card)"),
              *([] if turn else [(ind, "g._played_this_turn = True")]),
              (ind, "c = T_color[card]"), (ind, "if c is not None:"), (ind + 1, "g.color = c"),
              *self.event(ind, "g.event('play', seat=s, card=card)")]
        if self.windows_kept:
            for w in r.windows:
                rule = self.const(w, "WIN")
                if w.opens_expr is None:
                    opened = []
                else:
                    lines, test = self.condition(w.opens_expr, w.opens, env, ind)
                    opened = lines + [(ind, f"if {test}:")]
                inner = ind + bool(opened)
                L += opened + [(inner, f"g.windows.pop(({w.name!r}, s), None)"),
                               (inner, f"g.windows[({w.name!r}, s)] = ({rule}, card)"),
                               *([(inner, f"g._held[({w.name!r}, s)] = True")] if w.state else [])]
            L += [(ind, "if call is not None:"), (ind + 1, "g.say_call(s, call)")]
        L += self.dispatch(r.on_play, ind, lambda p, i: self.program(p, env, i))
        if r.undoable:
            L += [(ind, "g.last_journal = journal or []"), (ind, "g._journal = outer")]
        for after in r.after_play:
            L += self.program(after, env, ind)
        self._play_depth -= 1
        text = "\n".join(t for _, t in L)
        locals_ = ((drawn, "None"), ("honest", "True")) + (() if in_function else (("jumped", "False"),))
        start = [(ind, f"{name} = {value}") for name, value in locals_ if re.search(rf"\b{name}\b", text)]
        return start + L

    def allowed(self, ind: int) -> list:
        """`ok = ` the cards that may be played now, from the ruleset's memo when its match and
        `play only if` rules read only the card, the top card, the color and counters; None when
        they read more (then each card is tried with Game.is_playable)."""
        r = self.r
        if r.match_static and not r.restrictions:
            return [(ind, "top = g.discard[-1]"), (ind, "ok = MEMO.get((top, g.color))"),
                    (ind, "if ok is None:"), (ind + 1, "ok = rules.playable_set(top, g.color)")]
        if r.match_static and r.restrict_static:
            values = "".join(f"g.counters[{name!r}], " for name in r.counters)
            return [(ind, "top = g.discard[-1]"), (ind, f"ok = MEMO.get((top, g.color, ({values})))"),
                    (ind, "if ok is None:"), (ind + 1, "ok = rules.allowed_set(top, g.color, g.counters)")]
        return None

    def playable_function(self) -> list:
        """`playable_cards(g, s)`: Game.playable for a turn, the distinct cards in hand that may
        be played, in the order they are held."""
        ok = self.allowed(1)
        if ok is None:
            return [(0, "def playable_cards(g, s):"),
                    (1, f"return [c for c in {self.distinct('g.hands[s]')} if g.is_playable(s, c)]")]
        return [(0, "def playable_cards(g, s):")] + ok + [(1, f"return [*{self.distinct('filter(ok.__contains__, g.hands[s])')}]")]

    def turn_actions_function(self) -> list:
        """`turn_actions(g, s)`: Game.legal_actions for a turn."""
        return [(0, "def turn_actions(g, s):"), *self.list_turn_actions(1), (1, "return acts")]

    def list_turn_actions(self, ind: int) -> list:
        """`acts = ` the legal actions of seat `s`'s turn, from the actions built once per seat."""
        r = self.r
        targets = r.runs is not None or any(p is not None and p.asks_target for p in r.on_play)
        ok = self.allowed(ind)
        cards = (self.distinct("filter(ok.__contains__, g.hands[s])") if ok is not None else "playable_cards(g, s)")
        L = [(ind, "plays = PLAYS[s]"), *(ok or [])]
        if targets:
            L += [(ind, "acts = []"),
                  (ind, f"for c in {cards}:"),
                  (ind + 1, "v = plays[c]"),
                  (ind + 1, "acts += v if v is not None else g._plays(s, c)")]
        else:
            L += [(ind, "acts = []"), (ind, "add = acts.extend"),       # (faster than a comprehension)
                  (ind, f"for c in {cards}:"), (ind + 1, "add(plays[c])")]
        # every playable card gives at least one action, so no action means no playable card
        if r.renege_const is True:
            L += [(ind, "acts.append(DRAW[s])")]
        elif r.renege_const is False:
            L += [(ind, "if not acts:"), (ind + 1, "acts.append(DRAW[s])")]
        else:
            L += [(ind, "if not acts or rules.renege(Ctx(g, s, None, True, s)):"), (ind + 1, "acts.append(DRAW[s])")]
        return L

    def choose_turn(self, ind: int) -> list:
        """The random policy's turn, drawing from the generator exactly as the step API's random
        bot would: `RandomBot.choose_turn` when the turn offers only the playable cards and
        `draw` (the renege rule fixed to yes, or nothing playable), `RandomBot.choose` over the
        listed actions otherwise. Both pick a card uniformly among the distinct playable cards;
        `choose` also draws once for the play's variant, and once to pick `draw` when it is the
        only action."""
        r = self.r
        ok = self.allowed(ind)
        if ok is None:
            L = [(ind, "cards = playable_cards(g, s)")]
        else:
            L = ok + [(ind, f"cards = [*{self.distinct('filter(ok.__contains__, g.hands[s])')}]")]
        if self.bot and self.tables is not None:    # the seat bot's play, written out from its tables
            return [*self.turn_offer(ind),
                    *L,
                    (ind, "playing = bool(cards)"),
                    (ind, "if playing:"),
                    (ind + 1, "action, said = bot_turn(g, s, cards)"),
                    (ind + 1, "_, verb, card, color_arg, target_arg, _, call, more = action"),
                    (ind + 1, "if call is None:"), (ind + 2, "call = said"),
                    (ind, "g._note_turn(s, 'play' if playing else 'draw')"),
                    (ind, "g._out_of_turn_due = True")]
        if self.bot:            # the seat bot's own choice among the listed actions
            return [*self.turn_offer(ind),
                    (ind, "action = ask(g, TURN[s])"),
                    (ind, "_, verb, card, color_arg, target_arg, _, call, more = action"),
                    (ind, "playing = verb == 'play'")]
        if self.pick:           # the seat bot chooses: it always plays when it can
            return L + [(ind, "playing = bool(cards)"),
                        (ind, "if playing:"),
                        (ind + 1, "g.decision = TURN[s]"),     # (the bot may list a play's variants)
                        (ind + 1, "card, color_arg, target_arg = pick(g, s, cards)")]
        if r.runs is not None:  # every turn goes through RandomBot.choose
            return L + [(ind, "if not cards:"), (ind + 1, "rand()"), (ind + 1, "playing = False"),
                        (ind, "else:"), (ind + 1, "playing = True"),
                        (ind + 1, "card = cards[int(rand() * len(cards))]"),
                        *self.random_run(ind + 1)]
        listed = r.renege_const is not True     # some turns go through RandomBot.choose
        L += [(ind, "if not cards:"),
              *([(ind + 1, "rand()")] if r.renege_const is None else []),
              (ind + 1, "playing = False"),
              (ind, "else:"),
              (ind + 1, "playing = True"),
              (ind + 1, "card = cards[int(rand() * len(cards))]"),
              (ind + 1, "k = ASKS[card]"),
              (ind + 1, "if k == 0:"),
              *([(ind + 2, "rand()")] if listed else []),
              (ind + 2, "color_arg = target_arg = None"),
              (ind + 1, "elif k == 1:"), (ind + 2, f"color_arg, target_arg = {self.color_pick('card')}, None"),
              (ind + 1, "else:"),
              *([(ind + 2, "g.decision = TURN[s]")] if self.names_players() and self.targets_function() is None else []),
              *self.random_variant("s", "card", ind + 2)]
        return L

    def turn_offer(self, ind: int) -> list:
        """The head of a seat bot's turn, as runtime.ask takes a decision: the out-of-turn actions
        the last choice left due come first. One may have moved the game on (`move_on`), or be
        waiting on a question (answered here: runtime.answer_out_of_turn, which moves it on);
        then the round is over, or another turn is due."""
        offer = "offer_out_of_turn(g)" if self.writes_offer else "g.offer_out_of_turn()"
        L = [(ind, "g.decision, g._legal = TURN[s], None"),
             (ind, "if g._out_of_turn_due:"),
             (ind + 1, "g._out_of_turn_due = False"),
             (ind + 1, "if g.windows:"), (ind + 2, offer)]
        if self.moves_on:
            # (a written-out offer answers an action's questions in place: a choice made since
            # leaves the next actions due, as the loop's head gives them after the answers)
            moved = "g.decision is not TURN[s]" + (" or g._out_of_turn_due" if self.writes_offer else "")
            L += [(ind + 2, f"if {moved}:"),
                  *([(ind + 3, "if g._asking is not None:"), (ind + 4, "answer_out_of_turn(g)")]
                    if self.asks_out_of_turn else []),
                  (ind + 3, "if g.round_over:"), (ind + 4, "break"),
                  (ind + 3, "continue")]
        return L

    @property
    def writes_offer(self) -> bool:
        """Whether the seat bot's offer of actions out of turn is written out (codegen.offer):
        in its loop with its tables, where the rules have windows."""
        return self.bot and self.tables is not None and bool(self.r.windows)

    @property
    def asks_out_of_turn(self) -> bool:
        """Whether some action out of turn may ask questions (it then runs inside the turn loop)."""
        return any(a.program.plain is None for w in self.r.windows for a in w.actions)

    @property
    def moves_on(self) -> bool:
        """Whether an action out of turn may move the seat bot's loop on: one that may ask
        questions (Game._ask_out_of_turn), or any where rules settle after it
        (Game._settle_out_of_turn)."""
        return self.sim and self.windows_kept and (self.asks_out_of_turn or self.r.settles and bool(self.r.windows))

    def move_on_function(self) -> list:
        """`move_on(g)`: Game._interrupted in the seat bot's loop, called by the Game once an
        action out of turn that may ask questions ran, or one that put the player deciding a
        turn out, or ended the round (`g._played_this_turn` cleared before it): the game comes
        to rest, then the round ends, or play passes on from a card played out of turn or past a
        player now out. The decision is then the next turn's, or None once the round is over;
        the loop's head (`turn_offer`) goes on from there."""
        return [(0, "def move_on(g):"),
                *([(1, self.settle)] if self.r.settles else []),
                (1, "s = g.turn"),
                (1, "if g._after_turn_ends_round(s):"),
                (2, "end_round(g, g._gone_out(s))"),
                (2, "g.decision = None"),
                (2, "return"),
                (1, "if g._played_this_turn or g.inactive[s]:"), (2, "g._advance()"),
                (1, "g.decision, g._legal = TURN[g.turn], None")]

    def random_run(self, ind: int) -> list:
        """`more, color_arg, target_arg = ` the random policy's play of `card` in rules with runs:
        one draw among every play Game._plays lists for it, the card alone or with each run of
        cards after it (found by `run_extend`), each with every color its last card's play asks for.
        Where some card's play names a player, the plays come from the Game itself."""
        if self.names_players():
            v = self.temp("v")
            return [(ind, f"{v} = g._plays(s, card)"),
                    (ind, f"{v} = {v}[int(rand() * len({v}))]"),
                    (ind, f"color_arg, target_arg, more = {v}.color, {v}.target, {v}.more")]
        runs, m, n, k, last = self.temp("runs"), self.temp("m"), self.temp("n"), self.temp("k"), self.temp("last")
        counts, starts, colors = self.variant_colors()
        search = self.temp("search")
        return [(ind, f"{search} = _run_search(g, s, card, {MAX_RUNS})"),
                (ind, f"run_extend(g, s, {search}, card)"),
                (ind, f"{runs} = _run_found({search})"),
                (ind, f"{n} = 0"),
                (ind, f"for {m} in {runs}:"),
                (ind + 1, f"{n} += {counts}[{m}[-1] if len({m}) > 0 else card]"),
                (ind, f"{k} = int(rand() * {n})"),
                (ind, f"more = {runs}[0]"), (ind, f"{last} = card"),
                (ind, f"for {m} in {runs}:"),
                (ind + 1, f"{last} = {m}[-1] if len({m}) > 0 else card"),
                (ind + 1, f"if {k} < {counts}[{last}]:"), (ind + 2, f"more = {m}"), (ind + 2, "break"),
                (ind + 1, f"{k} -= {counts}[{last}]"),
                (ind, f"color_arg, target_arg = {colors}[{starts}[{last}] + {k}], None")]

    def run_extend_function(self) -> list:
        """`run_extend(g, s, st, top)`: LegalActions.runs_from's search from the card `top` on,
        over the state `st` (runtime.RunSearch): each distinct card left that may follow `top`
        (the rules' `play runs where`, with `top` the card before) is one more run, then the runs
        going on from it. False once the search has found as many runs as it may."""
        r = self.r
        env = Env(player="s", actor="s", card="card", top="top")
        try:
            lines, test = [], self._boolean(r.runs_expr, env)
        except Unsupported:
            lines = [(2, "ctx = Ctx(g, s, card, True, s)"), (2, "ctx.top = top")]
            test = f"{self.const(r.runs, 'COND')}(ctx)"
        return [(0, "def run_extend(g, s, st, top):"),
                (1, "for card in _run_options(g, st):"),
                *lines,
                (2, f"if {test}:"),
                (3, "if not _run_take(st, card):"), (4, "return False"),
                (3, "if not run_extend(g, s, st, card):"), (4, "return False"),
                (3, "_run_back(st)"),
                (1, "return True")]

    def run_lands(self, ind: int) -> list:
        """The simulator's run of a turn's play (Game.run_gen), before the play itself: every card
        but the last lands on the pile in order (and, when each card acts, takes effect as it
        lands); `card` is then the last one."""
        env = Env(player="s", actor="s", card="card")
        x = self.temp("x")
        acts = self.dispatch(self.r.on_play, ind + 2, lambda p, i: self.program(p, env, i)) if self.r.runs_each_acts else []
        return [(ind, f"for {x} in more:"),
                (ind + 1, "g.hands[s].remove(card)"), (ind + 1, "g.discard.append(card)"),
                (ind + 1, "c = T_color[card]"), (ind + 1, "if c is not None:"), (ind + 2, "g.color = c"),
                *self.event(ind + 1, "g.event('play', seat=s, card=card)"),
                *[(i - 1, t) for i, t in acts],
                (ind + 1, f"card = {x}")]

    def random_variant(self, seat: str, card: str, ind: int, into: tuple = ("color_arg", "target_arg")) -> list:
        """`color_arg, target_arg = ` (or the names `into` gives) a play of `card` that names a
        player, drawn uniformly among its variants (every color it asks for, with every player it
        may name), as RandomBot picks among `Game._plays`: one draw, the variant at
        `color * players + player`. The players come from `play_targets` (below); when it
        cannot be written, from the Game itself."""
        color, target = into
        if not self.names_players():          # (never reached: no card names a player)
            return [(ind, f"{color} = {target} = None")]
        if self.targets_function() is None:
            v = self.temp("v")
            return [(ind, f"{v} = g._plays({seat}, {card})"),
                    (ind, f"{v} = {v}[int(rand() * len({v}))]"),
                    (ind, f"{color}, {target} = {v}.color, {v}.target")]
        o, n, m, k = self.temp("o"), self.temp("n"), self.temp("m"), self.temp("k")
        counts, starts, colors = self.variant_colors()
        return [(ind, f"{o} = play_targets(g, {seat}, {card})"),
                (ind, f"{n} = len({o})"),
                (ind, f"{m} = {n} if {n} > 0 else 1"),
                (ind, f"{k} = int(rand() * ({counts}[{card}] * {m}))"),
                (ind, f"{color} = {colors}[{starts}[{card}] + {k} // {m}]"),
                (ind, f"{target} = {o}[{k} % {m}] if {n} > 0 else None")]

    def names_players(self) -> bool:
        """Whether some card's play names a player (ASKS 2)."""
        return any(a == 2 for a in self.ns["ASKS"])

    def variant_colors(self) -> tuple:
        """Names of three tables: per card, how many colors its play may name (1: none, None),
        where they start in the third, and all of them in a row (Game._plays's colors)."""
        if self._variant_colors is not None:
            return self._variant_colors
        counts, starts, colors = [], [], []
        for p in self.r.on_play:
            options = p.color_options if p is not None and p.asks_color else (None,)
            starts.append(len(colors))
            counts.append(len(options))
            colors += options
        self._variant_colors = (self.const(tuple(counts), "VARIANTS"), self.const(tuple(starts), "VARIANT_AT"),
                                self.const(tuple(colors), "VARIANT_COLOR"))
        return self._variant_colors

    def targets_function(self):
        """`play_targets(g, s, card)`: the players a play of `card` by `s` may name (a program's
        `target_options`: the candidates of the first `picks` the play names), worked out before
        the card leaves the hand; written once, or None when a pick's players have no template."""
        if self._targets == ():
            def first_pick(p, ind):
                picks = [n for n in A.walk(p.body) if isinstance(n, A.Picks) and id(n) in p.named]
                lines, o = self._candidates(picks[0], Env(player="s", actor="s", card="card"), ind, SEAT)
                return lines + [(ind, f"return {o}")]
            per_card = tuple(p if p is not None and p.asks_target else None for p in self.r.on_play)
            try:
                body = self.dispatch(per_card, 1, first_pick)
                self._targets = [(0, "def play_targets(g, s, card):"), *body, (1, "return _seats(None)")]
            except Unsupported:
                self._targets = None
        return self._targets

    def starter_function(self) -> list:
        """`turn_starter(g, card)`: Game._turn_starter, the card turned to start the pile and its
        starter rule (a generator in both modes; the simulator's never yields)."""
        r = self.r
        starter_env = Env(player="s", actor="None", card="card")
        # `as if <seat> played it`: the card's own effect, with that seat as the player
        as_if = Env(player="s", actor="None", card="card")
        self._as_if = lambda who_src, ind: [(ind, f"s = {who_src}")] + self.dispatch(
            r.on_play, ind, lambda p, i: self.program(p, as_if, i))
        L = [(0, "def turn_starter(g, card):"),
             *([(1, "rand = g._seat_rand")] if self.sim else []),
             (1, "while True:"),
             (2, "if card is None:"), (3, "card = g._take()"),
             (2, "if card is None:"), (3, "break"),
             (2, "g.discard.append(card)"), (2, "g.color = T_color[card]"),
             *self.event(2, "g.event('starter', card=card)"),
             (2, "s = g.dealer"), (2, "redo = False"), (2, "drawn = None"),
             *self.dispatch(r.starter, 2, lambda p, i: self.program(p, starter_env, i)),
             (2, "if not redo:"), (3, "break"),
             (2, "card = None"),
             (1, "s = g.turn = g.dealer"),
             (1, "if g.next_override is None:"),      # (a starter rule may say who starts)
             *self.advance(2, generic="g._advance()"),
             (1, "else:"), (2, "g._advance()"),
             (1, "return"), (1, "yield")]
        self._as_if = None
        return L

    def round_start_function(self) -> list:
        """`round_start(g)`: the rules' `on round start`, run once the hands are dealt, with the
        dealer as its player (a generator in both modes, as turn_starter is)."""
        L = [(0, "def round_start(g):"), *([(1, "rand = g._seat_rand")] if self.sim else []),
             (1, "s = g.dealer"), (1, "drawn = None")]
        if self.r.on_round_start is not None:
            L += self.program(self.r.on_round_start, Env(player="s", actor="None", card=None), 1)
        return L + [(1, "return"), (1, "yield")]

    def end_round_function(self) -> list:
        """`end_round(g, winner)`: Game._end_round, with the ruleset's scoring inline."""
        r = self.r
        env = Env(player="winner", actor="None", card=None)
        L = [(0, "def end_round(g, winner):"), (1, "g._finish_round(winner)"),
             *([(1, "rand = g._seat_rand")] if self.sim else [])]
        if r.on_round_end is not None:
            L += [(1, "drawn = None")] + self.program(r.on_round_end, env, 1)
        L += self.event(1, "g.event('round_end', winner=winner, points=list(g.round_points), scores=list(g.scores))")
        if not self.sim:
            L += [(1, "return"), (1, "yield")]
        return L

    def advance(self, ind: int, generic: str) -> list:
        """Game._advance from seat `s` when no rule gives the next turn to anyone: the next seat
        that is not to lose its turn; simply (s + direction) mod n when every seat plays in its
        own place, else the generic call."""
        n = self.n
        step = ("1 - {}" if n == 2 else f"({{}} + d) % {n}")     # two players: the other one, either way
        fast = [*([] if n == 2 else [(ind, "d = g.direction")]), (ind, "skips = g.skips"),
                (ind, "t = " + step.format("s")),
                (ind, "while skips[t]:"),
                (ind + 1, "skips[t] = 0"),
                *self.event(ind + 1, "g.event('skipped', seat=t)"),
                (ind + 1, "t = " + step.format("t")),
                (ind, "g.turn = t")]
        if self.fixed_table:
            return fast
        return [(ind, "if g._plain:"), *[(i + 1, t) for i, t in fast], (ind, "else:"), (ind + 1, generic)]

    def round_function(self) -> list:
        """`play_round(g)`: Game._play_round for this ruleset and table size. What the rules can
        never do is left out: with no `eliminate` and no `swaps seats` every seat stays in play in
        its own place; with no `starts` or `plays again` in the turn, play passes in order; with
        no `end round` only an empty hand ends the round."""
        fixed_table = self.fixed_table
        in_order = not self.uses((A.Starts, A.PlaysAgain), whole_round=False)
        # only a window action that may ask questions runs inside the turn loop (Game._window_action)
        interrupts = self.asks_out_of_turn or (
            self.r.settles and bool(self.r.windows))      # an action out of turn may put the decider out
        env = Env(player="s", actor="s", card=None)
        draw = self.program(self.r.on_draw, env, 3)
        end = "end_round(g, {})" if self.sim else "yield from end_round(g, {})"
        L = [(0, "def play_round(g):")]
        if self.settles:
            L += [(1, self.settle)]          # (the starter may have made a `whenever` rule hold)
        if self.sim:
            L += [(1, "rand = g._seat_rand"),
                  *([(1, "pick = g._seat_bot.pick")] if self.pick else []),
                  (1, "while True:"),
                  (2, "s = g.turn")]
            L += self.choose_turn(2)
        else:
            # the turn's legal actions are listed as it begins, for Game.legal_actions and apply
            L += [(1, "while True:"),
                  (2, "s = g.turn"),
                  *self.list_turn_actions(2),
                  (2, "g._legal = acts"),
                  (2, "action = yield TURN[s]"),
                  *([(2, "if action.__class__ is Interrupt:"),
                     (3, "if (yield from g._interrupted(action)):"), (4, "break"),
                     (3, "continue")] if interrupts else []),
                  (2, "_, verb, card, color_arg, target_arg, _, call, more = action"),
                  (2, "playing = verb == 'play'")]
        # A play always moves the game on; a draw turn may not (an empty stock, nothing to play):
        # a lap of turns in which nobody moved is a stalemate.
        stalemate = [(3, "g.declare_stalemate()"), (3, end.format("None")), (3, "break")]
        L += [(2, "turns = g.round_turns = g.round_turns + 1"),
              *([] if fixed_table else [(2, "active_before = g._n_active")]),
              *([] if not self.windows_kept or not self.r.windows else
                [(2, "if g.windows:"), (3, self.close_turn_windows())]),
              (2, "if playing:"),
              *(self.run_lands(3) if self.sim and self.r.runs is not None else []),
              *self.play_body(3, turn=True),
              (3, "g.idle_turns = 0"),
              *([(3, "g.turns_without_play = 0")] if self.r.blocked is not None else []),
              *([(3, self.settle)] if self.settles else []),
              (2, "else:"),
              (3, "g._drew_this_turn = 0"), (3, "g._played_this_turn = False"),
              (3, "drawn = None"),
              *self.event(3, "g.event('draw_turn', seat=s)"),
              *(draw or [(3, "pass")]),
              *([(3, self.settle)] if self.settles else []),
              (3, "moved = g._played_this_turn or g._drew_this_turn" +
                  ("" if fixed_table else " or g._n_active != active_before")),
              *([(2, "if g._end_now:"), (3, "g._finish_round(None)"), (3, "break")] if self.uses((A.EndRound,), whole_round=False) else []),
              (2, "hands = g.hands"),
              (2, "if not hands[s] or not all(hands)" + ("" if fixed_table else " or g._n_active == 1") + ":"),
              (3, "out = g._gone_out(s)"),
              (3, "if out is not None:"), (4, end.format("out")), (4, "break"),
              *self.blocked_check(stalemate),
              (2, "if turns >= MAX_TURNS:"), *stalemate]
        if in_order:
            L += self.advance(2, generic="g._advance()")
        else:
            L += [(2, "if g.next_override is None:"), *self.advance(3, "g._advance()"), (2, "else:"), (3, "g._advance()")]
        if self.sim:
            L += [(1, "return"), (1, "yield")]
        return L

    def close_turn_windows(self) -> str:
        """The line closing the windows that close as a turn begins (Game._close_turn_windows):
        in a seat bot's loop where every window does, all of them (the native engine keeps its
        own table of windows, and lowers the Game's call)."""
        if self.bot and all(w.closes_on_turn for w in self.r.windows):
            return "g.windows = {}"
        return "g._close_turn_windows()"

    def blocked_check(self, stalemate: list) -> list:
        """The end of a turn that did not end the round: is the round blocked? By default when
        nobody played or drew for a lap of turns; else as the rules' `blocked when` says."""
        if self.r.blocked is None:
            return [(2, "if not playing:"),
                    (3, "if moved:"), (4, "g.idle_turns = 0"),
                    (3, "else:"),
                    (4, "g.idle_turns += 1"),
                    (4, "if g.idle_turns >= 2 and g.idle_turns >= g._n_active:"), *[(i + 2, t) for i, t in stalemate]]
        env = Env(player="s", actor="s", card=None)
        lines, test = self.condition(self.r.blocked_expr, self.r.blocked, env, 2)
        return [(2, "if not playing:"),
                (3, "g.idle_turns = 0 if moved else g.idle_turns + 1"),
                (3, "g.turns_without_play = 0 if g._played_this_turn else g.turns_without_play + 1"),
                *lines, (2, f"if {test}:"), *stalemate]

    def state_windows_function(self) -> list:
        """`open_state_windows(g)`: Game._open_state_windows for this ruleset and table size, each
        `opens when` condition written out (the game checks them every time it comes to rest).
        What held last is written only when it changes: the check runs after every choice, and
        almost always finds nothing new."""
        L = [(0, "def open_state_windows(g):"), (1, "held = g._held"), (1, "inactive = g.inactive"),
             (1, "windows = g.windows")]
        env = Env(player="s", actor="s", card=None)
        for w in self.r.state_windows:
            rule = self.const(w, "WIN")
            lines, test = self.condition(w.opens_expr, w.opens, env, 2)
            for seat in range(self.n):          # (written out per seat: its key is a constant)
                L += [(1, f"s = {seat}"),
                      *[(ind - 1, text) for ind, text in lines],
                      (1, f"key = ({w.name!r}, {seat})"),
                      (1, f"if not inactive[{seat}] and {test}:"),
                      (2, "if not held.get(key):"),
                      (3, "windows.pop(key, None)"),
                      (3, f"windows[key] = ({rule}, None)"),
                      (3, "held[key] = True"),
                      (1, "elif held.get(key):"),
                      (2, "held[key] = False")]
        return L

    def settle_function(self) -> list:
        """`settle(g)`: Game.settle for rules with `whenever` rules. Up to MAX_FIRINGS times, the
        first rule that holds fires (Triggers._fire): each rule's condition is written out, a
        `whenever some NAME in X where C` as a search for the first NAME meeting C, then its
        statements, with `player` the seat whose turn it is; then the windows that open as the
        state changes, as the Game opens them. A rule's statements never ask anything (the
        compiler refuses that), so nothing they do lets the game come to rest again inside this:
        it needs no guard against running inside itself."""
        env = Env(player="s", actor="None", card=None)
        L = [(0, "def settle(g):"),
             (1, "if g.round_over:"), (2, "return"),
             (1, f"for {self.temp('i')} in range({MAX_FIRINGS}):"),
             (2, "if g._end_now or g.game_over:"), (3, "break"),
             (2, "s = g.turn"), (2, "drawn = None")]
        for trigger in self.r.triggers:
            inner = replace(env, vars={})
            if trigger.find is None:
                lines, test = self.condition(trigger.test_expr, trigger.test, env, 2)
            else:
                lines, test = self.first_found(trigger, inner, 2)
            L += [*lines, (2, f"if {test}:"), *self.program(trigger.program, inner, 3), (3, "continue")]
        L += [(2, "break")]
        limit = self.event(2, f"g.event('trigger_limit', limit={MAX_FIRINGS})")
        L += [(1, "else:"), *limit] if limit else []
        if self.r.state_windows and self.sim and self.windows_kept:     # (the seat bot acts in windows)
            L += [(1, "open_state_windows(g)")]
        elif self.r.state_windows and not self.sim:      # (random seats never use windows)
            L += [(1, "if g._seat_bot is None:"), (2, "open_state_windows(g)")]
        return L

    def window_functions(self) -> list:
        """What the rules' windows mean, for an engine that takes actions out of turn itself
        (the native one: native.windows): windows numbered in the rules' order, their actions
        numbered in order across them.
          - `window_holds(g, w, s, card)`: Windows._window_holds, whether window w, open for seat
            s on `card`, still holds (its opening condition; a window that opens as the state
            changes is read without a card);
          - `window_card(g, a, t, s, card)`: whether seat t may take action a with `card` in the
            window open for s (its card condition; Windows._window_cards);
          - `window_act_plain(...)` and `window_act_asking(g, a, t, s, card, color_arg,
            target_arg)`: action a's program, with s the window's player, t the actor and the
            card, color and player named for it: the programs that ask no question, and those
            that may (Windows._window_action)."""
        holds = [(0, "def window_holds(g, w, s, card):")]
        for i, w in enumerate(self.r.windows):
            if w.opens_expr is None:
                holds += [(1, f"if w == {i}:"), (2, "return True")]
                continue
            env = Env(player="s", actor="s", card=None if w.state else "card")
            lines, test = self.condition(w.opens_expr, w.opens, env, 2)
            holds += [(1, f"if w == {i}:"), *lines, (2, f"return {test}")]
        holds += [(1, "return False")]
        actions = [a for w in self.r.windows for a in w.actions]
        cards = [(0, "def window_card(g, a, t, s, card):")]
        for i, a in enumerate(actions):
            if a.card_test is not None:
                lines, test = self.condition(a.card_expr, a.card_test, Env(player="s", actor="t", card="card"), 2)
                cards += [(1, f"if a == {i}:"), *lines, (2, f"return {test}")]
        cards += [(1, "return False")]
        out = [holds, cards]
        for name, asking in (("window_act_plain", False), ("window_act_asking", True)):
            L = [(0, f"def {name}(g, a, t, s, card, color_arg, target_arg):"),
                 *([(1, "rand = g._seat_rand")] if self.sim else []), (1, "drawn = None")]
            for i, a in enumerate(actions):
                if (a.program.plain is None) == asking:
                    env = Env(player="s", actor="t", card="card" if a.card_test is not None else None,
                              color_arg="color_arg", target_arg="target_arg")
                    L += [(1, f"if a == {i}:"), *(self.program(a.program, env, 2) or [(2, "pass")]), (2, "return")]
            out.append(L + [(1, "return")])
        return out

    def first_found(self, trigger, env: Env, ind: int) -> tuple:
        """(lines, test) of `whenever some NAME in X where C`: the lines find the first member
        of X that meets C (None if none does), the test is whether one did; NAME is bound in
        env to it. Without a template for X or C, the rule's own finder is called."""
        node, found = trigger.test_expr, self.temp()
        member = MEMBER.get(self.typ(node.collection, env), ANY)
        env.vars[trigger.var] = (found, member)
        try:
            coll = self.expr(node.collection, env)
            v = self.local("v_", node.var)
            where = self._boolean(node.where, replace(env, vars={**env.vars, node.var: (v, member)})) \
                if node.where is not None else "True"
            lines = [(ind, f"{found} = None"),
                     (ind, f"for {v} in tuple({coll} or ()):"),
                     (ind + 1, f"if {where}:"), (ind + 2, f"{found} = {v}"), (ind + 2, "break")]
        except Unsupported:
            lines = [(ind, f"{found} = {self.const(trigger.find, 'FIND')}(Ctx(g, {env.player}))")]
        return lines, f"{found} is not None"

    def source(self) -> str:
        parts = (self.playable_function(), self.turn_actions_function(), self.play_function(),
                 self.starter_function(), self.round_start_function(), self.end_round_function(),
                 self.round_function()) + (
                 (self.state_windows_function(),) if self.r.state_windows and self.windows_kept else ()) + (
                 (self.settle_function(),) if self.r.triggers else ()) + (
                 (self.move_on_function(),) if self.moves_on else ())
        if self.sim and not self.bot and self.r.runs is not None:
            parts += (self.run_extend_function(),)
        if self.sim and self.names_players() and self.targets_function() is not None:
            parts += (self.targets_function(),)
        if self.writes_offer:        # (the offer writes whether a window holds in place)
            _, card_test, act_plain, act_asking = self.window_functions()
            parts += (card_test, act_plain, act_asking) + offer_functions(self)
        if self.bot and self.tables is not None:
            targets = self.names_players() and self.targets_function() is not None
            if targets:
                parts += (self.card_plays_function(),)
            renege = ([], "True") if self.r.renege_expr is None else self.condition(
                self.r.renege_expr, self.r.renege, Env(player="s", actor="s", card=None), 2)
            parts += bot_functions(self.r, self.r.renege_const, renege, self.order_from("s"), any(f is not None for f in self.tables.flows),
                                   "card_plays(g, s, c)" if targets else "g._plays(s, c)",
                                   self.n, self.fixed_table)
        lines = [line for part in parts for line in self.bind_stable(part) + [(0, "")]]
        lines += self.property_functions()
        return "\n".join("    " * ind + text for ind, text in lines)

    def card_plays_function(self) -> list:
        """`card_plays(g, s, c)`: Game._plays of a card whose play names a player (the seat's
        fixed actions have none for it): every color it names (PLAY_COLORS) with every player
        it may name (`play_targets`), or with none when it may name nobody. The lists are kept
        by seat, card and players (the same few, turn after turn), up to CARD_PLAYS_KEPT of them."""
        self.ns.update(CARD_PLAYS={}, CARD_PLAYS_KEPT=CARD_PLAYS_KEPT)
        return [(0, "def card_plays(g, s, c):"),
                (1, "o = play_targets(g, s, c) or (None,)"),
                (1, "key = (s, c, o)"),
                (1, "found = CARD_PLAYS.get(key)"),
                (1, "if found is None:"),
                (2, "if len(CARD_PLAYS) >= CARD_PLAYS_KEPT:"),
                (3, "CARD_PLAYS.clear()"),
                (2, "found = CARD_PLAYS[key] = [Action(s, 'play', c, color, t) for color in PLAY_COLORS[c] for t in o]"),
                (1, "return found")]

    def order_from(self, seat: str) -> str:
        """The expression of the order of play from `seat`, as Game._order_from gives it: read
        from a table per seat and direction while every seat plays in its own place (always, in
        rules that never move or drop a seat), else asked of the Game."""
        n = self.n
        if self._orders is None:
            self._orders = {d: tuple(tuple((s + d * k) % n for k in range(n)) for s in range(n)) for d in (1, -1)}
        table = self.const(self._orders, "ORDERS")
        if self.fixed_table:
            return f"{table}[g.direction][{seat}]"
        return f"({table}[g.direction][{seat}] if g._plain else g._order_from({seat}))"

    def bind_stable(self, function: list) -> list:
        """Read the game's lists the rules never replace through locals bound once per call:
        `hands` unless a rule passes hands or cancels a play, `skips` unless a rule plays a card
        out of turn (each round starts with new lists, and a new call)."""
        stable = {"g.stats": "stats", "g.counters": "counters"}
        if not self.uses((A.PassHands, A.Cancel)):
            stable["g.hands"] = "hands"
        if not self.uses((A.PlaysCard,)):
            stable["g.skips"] = "skips"
        (ind, head), body = function[0], function[1:]
        rewritten = [(i, _rename_attributes(t, stable)) for i, t in body]
        used = [(attr, name) for attr, name in stable.items() if any(t != r and name in r for (_, t), (_, r)
                                                                     in zip(body, rewritten))]
        out = [(i, t) for i, t in rewritten if t not in (f"{name} = {name}" for _, name in used)]
        return [(ind, head)] + [(ind + 1, f"{name} = {attr}") for attr, name in used] + out


def _rename_attributes(line: str, names: dict) -> str:
    """`g.hands` -> `hands` (for each `g.X` in names) in one line of generated Python, read as
    tokens: text inside string literals, and `x.g.hands`, are left as they are. Only a line that
    holds one of the names' text is read at all (the code writers put no space around a dot),
    and as tokens only if it holds a string or a comment: tokenizing every line was a tenth of
    the time a ruleset's loop took to write."""
    if not any(attr in line for attr in names):
        return line
    if not any(mark in line for mark in "'\"#"):
        return re.sub(r"(?<![\w.])g\.(\w+)", lambda m: names.get(m.group(0), m.group(0)), line)
    tokens = [tok for tok in tokenize.generate_tokens(io.StringIO(line).readline)
              if tok.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER)]
    cuts = []
    for k in range(len(tokens) - 2):
        g, dot, attr = tokens[k:k + 3]
        after_dot = k > 0 and tokens[k - 1].string == "."
        if (g.type == tokenize.NAME and g.string == "g" and dot.string == "." and not after_dot
                and f"g.{attr.string}" in names):
            cuts.append((g.start[1], attr.end[1], names[f"g.{attr.string}"]))
    for start, end, name in reversed(cuts):
        line = line[:start] + name + line[end:]
    return line
