"""How a game's state lies in the native engine's memory: one int64 array.

A native game is one flat int64 array `g`. Every scalar the Python `Game` keeps as an attribute
(the color, the direction, whose turn it is, the statistics ...) is the slot `g[SLOT[name]]`;
every list (hands, the stock, skips, scores ...) is a region of `g` starting at the offset kept
in the slot `o_<name>` (`g[g[O_SKIPS] + seat]`). One array, not a tuple of arrays, because
compiled code passes it to every primitive it calls, and numba counts an array's owners each time
one is passed: `run_games` borrows it (`runtime.borrowed`), so that passing it costs nothing, and
a bot weighs its choices in a region of it (`bot`) rather than in arrays of its own, which numba
would allocate and count. Beside each hand lies how many copies of each card it holds (`copies`,
a row of `cards` per seat, kept by the runtime's hand functions), so that whether a seat holds
one of a few cards (one that may jump in) is a few reads, not a look through its hand.

`None` is `NONE`, and every text the rules use (colors, kinds, codes, answers) is a number (see
`lower.Strings`), so that comparisons stay what they are in Python.

This module imports no numba: the lowering and the engine's setup use it too.
"""
from __future__ import annotations

NONE = -(1 << 62)      # None: no seat, no card, no color; far from any number a rule computes

# Per-seat regions (n slots each), then the others, in the order they lie in memory.
SEAT_REGIONS = ("hlen", "skips", "scores", "round_points", "teams", "eliminated", "benched",
                "inactive", "order", "pos", "winners", "perm")
REGIONS = ("hands", "copies") + SEAT_REGIONS + ("stock", "discard", "buf", "counters", "peaks", "points", "colors", "alike",
                                      "seen", "journal", "last", "bot", "win", "win_card", "held", "win_keys", "offer",
                                      "far", "trace")
# The last two lie after every region a module's text names: far's length is known only once that
# text is written, and the trace's (moves a test keeps) only when a game's memory is made, so one
# module serves games kept with a trace and without (a module finds its trace by the slot o_trace).


# Scalars of a game. Names follow the Game attribute they stand for (without its leading
# underscore), so that `g.idle_turns` in generated code is `g[SLOT["idle_turns"]]` here.
SCALARS = (
    "color", "direction", "turn", "dealer", "round", "round_turns", "turns_before", "winner",
    "n_active", "plain", "idle_turns", "turns_without_play", "end_now", "drew_this_turn", "played_this_turn", "next_override",
    "round_over", "game_over", "lazy", "face", "stock_len", "discard_len",
    "drawn", "reshuffles", "stock_empty", "eliminations",      # Game.stats
    "stalemate", "n_winners", "chained_plays", "refilling",
    "journal_on", "journal_len", "last_len",                    # the journal of plays (cancel top)
    # out of turn (native.windows): windows open, the last window's stamp, actions out of turn this
    # round, whether a seat's choice leaves them due, the seat whose turn is being decided (NONE:
    # another decision), an action out of turn waiting for its first question, whether it asked one,
    # the seats that may act (bits) and the windows open and holding that the last look found
    "windows", "win_stamp", "out_of_turn", "out_of_turn_due", "decision_turn", "oot_pending", "oot_asked",
    "oot_can", "oot_held",
    "trace_len", "rng",
    # the shape of this game's memory, set once
    "n", "cap", "cards", "trace_size", "win_size", *(f"o_{name}" for name in REGIONS),
)
SLOT = {name: i for i, name in enumerate(SCALARS)}
STATS = ("drawn", "reshuffles", "stock_empty", "eliminations")
# Slots a new game starts without (play_one leaves the shape alone).
GAME_SLOTS = SLOT["rng"] + 1

# Why a game stopped without a winner (Game.stalemate as a number).
STALE_IDLE, STALE_TURNS, STALE_ROUNDS, STALE_GAME_TURNS, STALE_OUT_OF_TURN = 1, 2, 3, 4, 5

JOURNAL_SIZE = 4096     # entries the plays of one move may note; older ones are forgotten past it
JOURNAL_WIDTH = 4
TRACE_WIDTH = 5

# Journal entry kinds.
J_DRAW, J_DIRECTION, J_COLOR, J_COUNTER, J_SWAP, J_PASS, J_FLIP = 1, 2, 3, 4, 5, 6, 7

# Trace entries: (kind, seat, card, color after, round).
TRACE_PLAY, TRACE_DRAW, TRACE_ROUND = 1, 2, 3


def sizes(players: int, deck: int, cards: int, counters: int, trace: int, windows: int = 0, far: int = 0) -> dict:
    """The length of each region for a table of `players`, a deck of `deck` cards (`cards`
    distinct), `counters` counters, a trace of `trace` entries and `windows` windows kept (one
    of each per seat: its stamp, 0 when closed, the card it opened on, whether its `opens when`
    condition held, room for the keys of those open in order; and two offers out of turn, each
    the seats in the order they act and what each wants to do), and the addresses of `far`
    functions (native.far: the module's text says how many), the last two (REGIONS says why)."""
    cap = deck + 1
    out = {"hands": players * cap, "copies": players * cards, **{name: players for name in SEAT_REGIONS},
           "stock": cap, "discard": cap, "buf": cap + players, "counters": counters, "peaks": counters,
           "points": cards, "colors": cards, "alike": cards, "seen": cards, "journal": JOURNAL_SIZE * JOURNAL_WIDTH,
           "last": JOURNAL_SIZE * JOURNAL_WIDTH, "bot": BOT_ROWS * players + 2, "win": windows * players, "win_card": windows * players,
           "held": windows * players, "win_keys": windows * players,
           "offer": 2 * offer_size(players) if windows else 0,
           "far": far, "trace": trace * TRACE_WIDTH}
    return out


# The bot's room to weigh its choices (native.basic): rows of a number per seat, read as floats
# (the hand sizes, the sizes after a move, two more for a play's flow), then the seats in order of
# play from one of them; and two slots for a one-card list (no player named, the card drawn).
BOT_ROWS = 5
BOT_SIZES, BOT_AFTER, BOT_BEFORE, BOT_FLOWED, BOT_ORDER = range(BOT_ROWS)


def offer_size(players: int) -> int:
    """The memory of one offer out of turn (native.windows): the next seat's place in the order
    and their count, the seats in the order they get the chance, and per seat the action it
    wants (the action's number, its card, its color, the window's player)."""
    return 2 + 5 * players


def offsets(players: int, deck: int, cards: int, counters: int, trace: int, windows: int = 0,
            far: int = 0) -> tuple[dict, int]:
    """(region -> its first index in g, the length of g)."""
    at = len(SCALARS)
    out = {}
    for name, size in sizes(players, deck, cards, counters, trace, windows, far).items():
        out[name] = at
        at += size
    return out, at
