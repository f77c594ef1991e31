"""The simulator's bots written into the turn loop: a layer of codegen between statements and loop.

In the simulator's code (`sim`) every seat is played inline by one bot, drawing from the game's
generator exactly as the bot object would through the step API (tests/test_codegen.py holds the
two equal, game for game):

  random   RandomBot: uniform among the distinct playable cards, then among a play's variants;
           uniform among the answers of any other question; never acts out of turn.
  basic    BasicBot: the playable card of highest (colored, points) with its strongest color and
           weakest opponent, UNO said with the next-to-last card; the most held color; the
           player with the fewest cards; the first card offered; a challenge by the odds. It
           acts out of turn, so wherever the Python engine would stop at a decision, the code
           first lets every seat, in order, take the first window action the bot would take
           (`scan_windows`, written here from the ruleset's windows: their conditions, card
           tests and programs inline, no closures).

A decision point: where the step API would stop (a turn, a drawn card, a color, an answer, a
player or card to pick). Before its bot answers, `g._scan_from` says from which seat the window
scan starts: 0, or the seat after one whose action out of turn led here (as `play_game` goes on
with the next seat once that action has run up to the next decision).
"""
from __future__ import annotations

from ...lang import ast as A
from .expressions import Env, Unsupported
from .statements import StatementWriter

INLINE_BOTS = ("random", "basic")          # the bots the simulator can play inside the loop


class BotWriter(StatementWriter):
    """Bots' choices and the out-of-turn window scan, for the simulator's code."""

    def __init__(self, *args, bot: str = "random", out_of_turn_limit: int = 0, **kwargs):
        super().__init__(*args, **kwargs)
        self.out_of_turn_limit = out_of_turn_limit     # Game's: out-of-turn moves in one round
        if bot not in INLINE_BOTS:
            raise Unsupported(f"the {bot} bot inside the loop")
        self.bot = bot if self.sim else None
        # the windows matter to this code: the Python engine's own (a person or bot may act), or
        # a simulated bot that acts out of turn
        self.windows_live = bool(self.r.windows) and (not self.sim or bot == "basic")
        r = self.r
        self.ns.update(ASKC=tuple(p is not None and p.asks_color for p in r.on_play),
                       ASKT=tuple(p is not None and p.asks_target for p in r.on_play),
                       MAX_OUT_OF_TURN=out_of_turn_limit)

    # ---- decision points ----------------------------------------------------------------------
    def decision_point(self, ind: int) -> list:
        """Before a bot answers a decision other than its turn: the window scan (plain actions
        only: an action whose rules may ask questions waits for a turn, as in Game)."""
        if not (self.sim and self.windows_live):
            return []
        start = self.temp("from")
        return [(ind, f"{start} = g._scan_from"), (ind, "g._scan_from = 0"),
                (ind, "if g.windows:"), (ind + 1, f"scan_windows(g, {start}, False)")]

    def turn_point(self, ind: int, end_loop: str) -> list:
        """The decision point of a turn: an action out of turn may have given the turn away
        (`continue`: a new turn) or ended the round (`end_loop`)."""
        if not (self.sim and self.windows_live):
            return []
        start, done = self.temp("from"), self.temp("r")
        return [(ind, f"{start} = g._scan_from"), (ind, "g._scan_from = 0"),
                (ind, "if g.windows:"),
                (ind + 1, f"{done} = scan_windows(g, {start}, True)"),
                (ind + 1, f"if {done} == 1:"), (ind + 2, "continue"),
                (ind + 1, f"if {done} == 2:"), (ind + 2, end_loop)]

    # ---- choices --------------------------------------------------------------------------------
    def sim_choice(self, kind: str, answer: str, seat: str, options: str, size: str, ind: int) -> list:
        if self.bot != "basic":
            return super().sim_choice(kind, answer, seat, options, size, ind)
        L = self.decision_point(ind)
        if kind == "color":
            return L + [(ind, f"{answer} = bot_best_color(g, {seat})")]
        if kind == "answer":          # BasicBot._answer: the first answer when the asker probably held the color
            held = self.temp("held")
            return L + [(ind, f"{held} = len(g.hands[g.next_seat({seat}, -1)])"),
                        (ind, f"if {size} > 1 and {held} >= 4 and rand() < min(0.9, {held} / 10):"),
                        (ind + 1, f"{answer} = {options}[0]"),
                        (ind, "else:"), (ind + 1, f"{answer} = {options}[{size} - 1]")]
        if kind == "seat":            # the player with the fewest cards, the first of them
            return L + [(ind, f"{answer} = bot_fewest(g, {options})")]
        return L + [(ind, f"{answer} = {options}[0]")]

    def bot_turn(self, ind: int, cards: list) -> list:
        """The turn's choice: `playing`, and for a play `card`, `color_arg`, `target_arg` (and,
        for a bot that says UNO, `uno`). `cards` are lines binding `cards`, the playable ones."""
        if self.bot != "basic":
            return cards + self.random_turn(ind)
        L = cards + [(ind, "if not cards:"), (ind + 1, "playing = False"), (ind, "else:"), (ind + 1, "playing = True")]
        i = ind + 1
        L += [(i, "bc = bot_best_color(g, s) if any(ASKC[c] for c in cards) else None"),
              (i, "tg = bot_weakest(g, s) if any(ASKT[c] for c in cards) else None"),
              (i, "card = -1"), (i, "b0 = b1 = 0"), (i, "b3 = False"),
              (i, "for c in cards:"),
              (i + 1, "k0 = 1 if T_colored[c] else 0"),
              (i + 1, "k1 = T_points[c] if k0 else -T_points[c]"),
              (i + 1, "k3 = True if not ASKT[c] else bot_target_ok(g, s, c, tg)"),
              (i + 1, "if card < 0 or k0 > b0 or (k0 == b0 and (k1 > b1 or (k1 == b1 and k3 and not b3))):"),
              (i + 2, "card = c"), (i + 2, "b0 = k0"), (i + 2, "b1 = k1"), (i + 2, "b3 = k3"),
              *self.basic_variant("s", "card", "bc", "tg", i),
              (i, "uno = len(g.hands[s]) == 2")]
        return L

    def basic_variant(self, seat: str, card: str, color: str, target: str, ind: int) -> list:
        """`color_arg, target_arg = ` BasicBot's variant of a play: its strongest color, and the
        weakest opponent when the play may name them (else the first player it may name)."""
        return [(ind, f"color_arg = {color} if ASKC[{card}] else None"),
                (ind, f"target_arg = bot_target(g, {seat}, {card}, {target}) if ASKT[{card}] else None")]

    def bot_drawn(self, seat: str, card: str, ind: int) -> list:
        """A drawn card the seat may play, which both bots play: its variant (and UNO)."""
        if self.bot != "basic":
            return self.random_drawn(seat, card, ind)
        return [*self.decision_point(ind),
                (ind, f"bc = bot_best_color(g, {seat}) if ASKC[{card}] else None"),
                (ind, f"tg = bot_weakest(g, {seat}) if ASKT[{card}] else None"),
                *self.basic_variant(seat, card, "bc", "tg", ind),
                (ind, f"uno = len(g.hands[{seat}]) == 2")]

    # ---- the window scan --------------------------------------------------------------------
    def scan_functions(self) -> tuple:
        """`scan_windows(g, first, at_turn)`: seats first .. n-1 in turn take the first window
        action BasicBot.out_of_turn would take; 0: the decision stands, 1: an action out of turn
        ran and play goes on from a new turn, 2: the round (or the game) is over.
        `scan_seat(g, seat, at_turn)`: one seat's action, as `Game.window_actions` lists them
        (windows in the order they opened, actions in the order written, cards in hand order,
        colors in order) and BasicBot picks (its own window's `player` action, another seat's
        window otherwise): -1 when it takes none."""
        if not (self.sim and self.windows_live):
            return ()
        scan = [(0, "def scan_windows(g, first, at_turn):"),
                (1, f"for seat in range(first, {self.n}):"),
                (2, "if not g.windows:"), (3, "return 0"),
                (2, "done = scan_seat(g, seat, at_turn)"),
                (2, "if done > 0:"), (3, "return done"),
                (1, "return 0")]
        decls = self.r.composed.decls(A.Window)
        seat = [(0, "def scan_seat(g, seat, at_turn):"), (1, "rand = g._seat_rand"),
                (1, "for wname, subject, opened in g.open_windows():")]
        for i, (rule, decl) in enumerate(zip(self.r.windows, decls)):
            tests = [item.card_test for item in decl.items if isinstance(item, A.WindowAction)]
            seat += [(2, f"{'if' if i == 0 else 'elif'} wname == {rule.name!r}:")]
            if rule.opens_expr is not None:         # Game._window_holds
                holds = Env(player="subject", actor="subject", card="opened")
                lines, test = self.condition(rule.opens_expr, rule.opens, holds, 3)
                seat += lines + [(3, f"if not {test}:"), (4, "continue")]
            for act, card_test in zip(rule.actions, tests):
                seat += self.window_action(rule, act, card_test, 3)
        seat += [(1, "return -1")]
        return scan, seat

    def window_action(self, rule, act, card_test, ind: int) -> list:
        """One action of a window, if the bot takes it: the checks of Game.window_actions, then
        the action (take_action)."""
        mine = "seat == subject" if act.who == "player" else "seat != subject"
        target = "None" if act.who == "player" else "subject"
        plain = act.program.plain is not None
        L = [(ind, f"if {mine}{'' if plain else ' and at_turn'}:")]
        i = ind + 1
        if card_test is None:
            return L + self.take_action(rule, act, Env(player="subject", actor="seat", card=None, target_arg=target), i)
        x, col = self.temp("x"), self.temp("col")
        lines, test = self.condition(card_test, act.card_test, Env(player="subject", actor="seat", card=x), i + 1)
        body_env = Env(player="subject", actor="seat", card=x, color_arg=col, target_arg=target)
        return L + [(i, f"for {x} in dict.fromkeys(g.hands[seat]):"), *lines,
                    (i + 1, f"if {test}:"),
                    (i + 2, f"{col} = COLORS[0] if ASKC[{x}] else None"),
                    *self.take_action(rule, act, body_env, i + 2)]

    def take_action(self, rule, act, env: Env, ind: int) -> list:
        """Game._window_action after its checks: count it, close the window, run its program
        (with no journal, as a plain one runs in Game; an action that may ask questions runs as
        RoundFlow._interrupted runs it, at a turn)."""
        L = [(ind, "g.out_of_turn += 1"),
             (ind, "if g.out_of_turn > MAX_OUT_OF_TURN:"),     # Game.halt
             (ind + 1, f"g.stalemate = {OUT_OF_TURN_STALEMATE.format(self.out_of_turn_limit)!r}"),
             (ind + 1, "g.game_over = True"), (ind + 1, "g.round_over = True"), (ind + 1, "return 2"),
             (ind, f"del g.windows[({rule.name!r}, subject)]"),
             (ind, "drawn = None")]
        if act.program.plain is not None:
            return L + [(ind, "outer = g._journal"), (ind, "g._journal = None"),
                        *self.program(act.program, env, ind),
                        (ind, "g._journal = outer"), (ind, "return 0")]
        t = self.temp("t")
        end = "end_round(g, {})" if self.sim else "yield from end_round(g, {})"
        return L + [(ind, "g._scan_from = seat + 1"),          # play_game goes on with the next seat
                    (ind, "g._played_this_turn = False"),
                    *self.program(act.program, env, ind),
                    (ind, f"{t} = g.turn"),
                    (ind, f"if g._end_now or g._gone_out({t}) is not None:"),
                    (ind + 1, end.format(f"g._gone_out({t})")), (ind + 1, "return 2"),
                    (ind, "if g._played_this_turn:"), (ind + 1, "g._advance()"),
                    (ind, "return 1")]


OUT_OF_TURN_STALEMATE = "more than {:,} moves were made out of turn in one round"
