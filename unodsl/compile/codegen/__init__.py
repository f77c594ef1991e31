"""A ruleset's turn loop written out as Python source, once per ruleset and table size.

The generic loop (`Game._play_round`) interprets the compiled rules: each play builds a context
and calls a closure for every expression and statement, and each window, honesty rule and
effect is looked up and tried in general. For one ruleset at one table size most of that is
fixed. This module writes the turn loop and the play of a card as Python source instead: options
are folded into constants, expressions become inline Python (`len(g.hands[s]) == 1`), each
card's effect becomes a branch of the play function, and the next seat is `(s + direction) % n`
whenever no seat is out or moved. The source is compiled with `compile()` and run by the same
`Game`, so decisions, actions, windows and the event log are unchanged.

It knows no card or variant: it translates the language's statements and expressions. Where it
has no template for something (a rare statement, say), the whole program that contains it runs
through its generic closures instead, sharing the same state. tests/test_codegen.py checks that
the generated loop plays exactly the same games as the generic one, event for event.

Layers: `expressions` writes expressions, `statements` statements and whole programs, `loop` the
functions the Game runs, `bots` and `offer` a seat bot's weighing and its offer of actions out of
turn; `runtime` holds the helpers the generated code calls.
"""
from __future__ import annotations

from typing import Callable, NamedTuple

from ..decisions import Refused
from .bots import PlayTables, bind_tables
from .loop import LoopWriter
from .runtime import answer_out_of_turn, ask, drive, drive_bot, pose

__all__ = ["Generated", "generate", "drive", "bot_loop_gap", "PlayTables"]


class Generated(NamedTuple):
    """A ruleset's generated code for one table size."""
    play_round: Callable        # play_round(g): Game._play_round
    turn_starter: Callable      # turn_starter(g, card): Game._turn_starter
    playable: Callable          # playable_cards(g, seat): Game.playable on a turn
    turn_actions: Callable      # turn_actions(g, seat): Game.legal_actions on a turn
    source: str
    delegated: tuple            # (program, what had no template) run by the generic closures
    open_state_windows: Callable | None = None  # open_state_windows(g): Game._open_state_windows
    round_start: Callable | None = None         # round_start(g): the rules' `on round start`
    move_on: Callable | None = None             # move_on(g): Game._interrupted in a seat bot's loop
    offer_out_of_turn: Callable | None = None   # offer_out_of_turn(g): the seat bot's offer (codegen.offer)
    offer_rest: Callable | None = None          # offer_rest(g): the seats it still owes their chance


def generate(rules, n: int, interrupt_type, max_turns: int, sim: bool = False, record: bool = False,
             pick: bool = False, bot: bool = False, tables: PlayTables | None = None) -> Generated:
    """The generated code for this ruleset and table size, cached on the ruleset. With sim,
    every seat is played inline by the random policy (the Game's `seat_bot`), and the round
    loop returns at the end of the round without yielding; with pick as well, the seat bot's own
    `pick(game, seat, cards)` chooses each turn's play instead (its other choices stay random);
    with bot instead, the seat bot makes every choice, as the step API asks it (runtime.ask),
    and acts out of turn in the windows it keeps (only where `bot_loop_gap` finds nothing); with
    its `tables` as well, its turn's play and its weighing of actions out of turn are written
    out from them (codegen.bots), and its offer of those actions from the windows' meaning
    (codegen.offer);
    with record, it keeps the event log."""
    key = (n, sim, record and not sim, sim and pick, sim and bot, tables.name if sim and bot and tables else None)
    found = rules.generated.get(key)
    if found is None:
        writer = LoopWriter(rules, n, interrupt_type, max_turns, sim, record)
        writer.pick = sim and pick and not bot
        writer.bot = sim and bot
        if writer.bot:
            writer.ns.update(ask=ask, pose=pose, drive=drive_bot, answer_out_of_turn=answer_out_of_turn,
                             Refused=Refused)
            if tables is not None:
                writer.tables = tables
                bind_tables(writer.ns, tables, rules)
        text = writer.source()
        code = compile(text, f"<unodsl generated: {rules.name}, {n} players>", "exec")
        exec(code, writer.ns)
        found = rules.generated[key] = Generated(writer.ns["play_round"], writer.ns["turn_starter"],
                                                 writer.ns["playable_cards"],
                                                 writer.ns["turn_actions"], text, tuple(writer.delegated),
                                                 writer.ns.get("open_state_windows"), writer.ns["round_start"],
                                                 writer.ns.get("move_on"), writer.ns.get("offer_out_of_turn"),
                                                 writer.ns.get("offer_rest"))
    return found


def bot_loop_gap(rules) -> str | None:
    """What keeps a seat bot's every choice out of the generated loop (`generate(..., bot=True)`),
    or None: runs of cards (only the random seats' choice among them is written out). An action
    out of turn that may ask questions, or after which the rules settle, moves the loop on
    (`move_on`), its questions answered at the loop's head."""
    if rules.runs is not None:
        return "a bot's choice among runs of cards is not written out"
    return None
