"""The table's primitives for compiled games: the Game's methods, over a game's flat memory.

Generated code calls the Game's primitives (`g.draw_cards(t, 2)`, `g.reverse()`, `g.others(s)`);
the lowering (`lower.py`) turns each call into the function of the same name here, with the game
first (`R.draw_cards(g, t, 2)`). Each keeps its Game twin's exact semantics, random draws
included (the order of the cards in a hand, in the stock and in the discard pile matters: it
decides what a random pick takes), so that a native game and a Python game given the same
generator (`portable.PortableRandom`) are the same game. The twins are named in the docstrings.

`g` is one int64 array (see `layout`): a slot per scalar, a region per list, found through the
offsets kept in its `o_*` slots. Everything here knows no ruleset: the ruleset's own code
(matching, effects, scoring) is generated, lowered and compiled per ruleset, and calls these.
Compiled once per machine and cached on disk (numba's `cache=True`).
"""
from __future__ import annotations

import numpy as np
from numba import njit as _njit, types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.extending import intrinsic, overload

from . import layout
from .layout import (
    JOURNAL_SIZE,
    JOURNAL_WIDTH,
    NONE,
    SLOT,
    STALE_IDLE,
    STALE_TURNS,
)
from .portable import GAMMA, MIX1, MIX2

MAX_SCORE = 10 ** 15       # as engine.scoring.MAX_SCORE

COLOR, DIRECTION, TURN, DEALER = SLOT["color"], SLOT["direction"], SLOT["turn"], SLOT["dealer"]
WINNER, N_ACTIVE, PLAIN, IDLE = SLOT["winner"], SLOT["n_active"], SLOT["plain"], SLOT["idle_turns"]
WITHOUT_PLAY = SLOT["turns_without_play"]
END_NOW, DREW = SLOT["end_now"], SLOT["drew_this_turn"]
NEXT_OVERRIDE, ROUND_OVER, GAME_OVER = SLOT["next_override"], SLOT["round_over"], SLOT["game_over"]
STOCK_LEN, DISCARD_LEN, LAZY, FACE = SLOT["stock_len"], SLOT["discard_len"], SLOT["lazy"], SLOT["face"]
DRAWN, RESHUFFLES, STOCK_EMPTY, ELIMINATIONS = SLOT["drawn"], SLOT["reshuffles"], SLOT["stock_empty"], SLOT["eliminations"]
STALEMATE, N_WINNERS, REFILLING = SLOT["stalemate"], SLOT["n_winners"], SLOT["refilling"]
JOURNAL_ON, JOURNAL_LEN, LAST_LEN = SLOT["journal_on"], SLOT["journal_len"], SLOT["last_len"]
TURNS_BEFORE, ROUND_TURNS, RNG = SLOT["turns_before"], SLOT["round_turns"], SLOT["rng"]
N, CAP, CARDS = SLOT["n"], SLOT["cap"], SLOT["cards"]
O_HANDS, O_HLEN, O_SKIPS, O_SCORES = SLOT["o_hands"], SLOT["o_hlen"], SLOT["o_skips"], SLOT["o_scores"]
O_COPIES = SLOT["o_copies"]
O_ROUND_POINTS, O_TEAMS, O_ELIMINATED = SLOT["o_round_points"], SLOT["o_teams"], SLOT["o_eliminated"]
O_BENCHED, O_INACTIVE, O_ORDER, O_POS = SLOT["o_benched"], SLOT["o_inactive"], SLOT["o_order"], SLOT["o_pos"]
O_WINNERS, O_PERM, O_STOCK, O_DISCARD = SLOT["o_winners"], SLOT["o_perm"], SLOT["o_stock"], SLOT["o_discard"]
O_BUF, O_COUNTERS, O_PEAKS, O_POINTS = SLOT["o_buf"], SLOT["o_counters"], SLOT["o_peaks"], SLOT["o_points"]
O_COLORS, O_ALIKE = SLOT["o_colors"], SLOT["o_alike"]
O_SEEN, O_JOURNAL, O_LAST = SLOT["o_seen"], SLOT["o_journal"], SLOT["o_last"]
O_WIN, O_HELD, WIN_SIZE, WINDOWS = SLOT["o_win"], SLOT["o_held"], SLOT["win_size"], SLOT["windows"]
WIN_STAMP, OUT_OF_TURN, OUT_OF_TURN_DUE = SLOT["win_stamp"], SLOT["out_of_turn"], SLOT["out_of_turn_due"]

# Whole numbers handed to another compiled function go as int64, not as constants: numba compiles
# a function once more for each constant it is called with (`note` once per kind of entry), and
# once more for a variable that starts as a constant before it changes (`got = 0`, then counted).
J_DRAW, J_DIRECTION, J_COLOR = np.int64(layout.J_DRAW), np.int64(layout.J_DIRECTION), np.int64(layout.J_COLOR)
J_COUNTER, J_SWAP, J_PASS = np.int64(layout.J_COUNTER), np.int64(layout.J_SWAP), np.int64(layout.J_PASS)
J_FLIP = np.int64(layout.J_FLIP)
ZERO, ONE = np.int64(0), np.int64(1)



def njit(**options):
    """numba's `njit` for a function only compiled code calls (every one here, and every one of a
    ruleset's module but its entry, `run_games`): without the wrappers that let Python call it
    (`no_cpython_wrapper`, `no_cfunc_wrapper`), which numba would otherwise write, optimise and
    keep on disk for each function (a tenth of the runtime's compiling). None here is
    inline='always': numba inlines such a function by running its passes on it again at each call,
    in every function calling it (the module's too, for every ruleset), which costs more than
    compiling it once, kept on disk, and letting LLVM inline it, as it does the small ones."""
    return _njit(no_cpython_wrapper=True, no_cfunc_wrapper=True, **options)


@intrinsic
def borrowed(typingctx, array):
    """The same array, owned by nobody: a view whose memory record is null. numba counts the
    owners of an array each time a compiled function receives it, with an atomic add and subtract
    that cost more than most of the work of a turn; the view's counts are a test of a null pointer.
    Safe only while something else holds the array: `run_games` borrows the game's memory, which
    its caller holds for the whole run."""
    def codegen(context, builder, sig, args):
        view = cgutils.create_struct_proxy(sig.args[0])(context, builder, value=args[0])
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()
    return array(array), codegen


@intrinsic
def far(typingctx, function, address, g, args):
    """`function(g, *args)`, called through `address`, that of its machine code (native.far):
    this function is compiled without the callee's code, which numba would otherwise link into
    it and optimise again. The callee is compiled (typed here) for the game's memory and int64
    numbers, whatever integers or booleans `args` are, so that the engine can ask numba for the
    address of that one compilation before a game starts."""
    if not isinstance(function, types.Dispatcher):
        raise TypingError(f"far: {function} is not a compiled function")
    if not (isinstance(g, types.Array) and g.dtype == types.int64 and g.ndim == 1 and g.layout == "C"):
        raise TypingError(f"far: the game's memory is {g}, not a contiguous int64 array")
    if not isinstance(args, types.BaseTuple) or not all(isinstance(a, (types.Integer, types.Boolean)) for a in args):
        raise TypingError(f"far: the arguments of {function.dispatcher.py_func.__name__} are {args}, not numbers")
    callee = (g,) + (types.int64,) * len(args)
    returns = typingctx.resolve_function_type(function, callee, {}).return_type

    def codegen(context, builder, sig, values):
        _, at, memory, packed = values
        numbers = [context.cast(builder, builder.extract_value(packed, i), t, types.int64) for i, t in enumerate(args)]
        pointer = builder.inttoptr(at, context.call_conv.get_function_type(returns, callee).as_pointer())
        status, result = context.call_conv.call_function(builder, pointer, returns, callee, [memory, *numbers])
        with cgutils.if_unlikely(builder, status.is_error):
            context.call_conv.return_status_propagate(builder, status)
        return result
    return returns(function, address, g, args), codegen


_GAMMA, _MIX1, _MIX2 = np.uint64(GAMMA), np.uint64(MIX1), np.uint64(MIX2)
_U30, _U27, _U31, _U11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)


# ---- the generator (portable.PortableRandom) ----------------------------------------------------
@njit(cache=True)
def _mix(state):
    s = state + _GAMMA
    z = (s ^ (s >> _U30)) * _MIX1
    z = (z ^ (z >> _U27)) * _MIX2
    return z ^ (z >> _U31)


@njit(cache=True)
def next64(g):
    s = np.uint64(g[RNG])
    g[RNG] = np.int64(s + _GAMMA)
    return _mix(s)


@njit(cache=True)
def rand(g):
    """random.random()"""
    return np.float64(next64(g) >> _U11) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def randbelow(g, n):
    """Random._randbelow(n): rejection sampling on n.bit_length() bits."""
    k = 0
    m = n
    while m > 0:
        k += 1
        m >>= 1
    if k == 0:
        return 0
    shift = np.uint64(64 - k)
    r = np.int64(next64(g) >> shift)
    while r >= n:
        r = np.int64(next64(g) >> shift)
    return r


@njit(cache=True)
def shuffle(g, start, length):
    """random.shuffle(g[start:start + length]), in place."""
    for i in range(length - 1, 0, -1):
        j = randbelow(g, i + 1)
        g[start + i], g[start + j] = g[start + j], g[start + i]


@njit(cache=True)
def game_seed(seed, index):
    """portable.game_seed: the seed of game `index` of a run (seed: a uint64, already salted)."""
    return _mix(_mix(seed) + np.uint64(index))


# ---- values: Python's None and truth, as the generated code uses them ---------------------------
def truth(x):
    """bool(x) as Python sees the value: None (NONE) and 0 are false, an empty list is false."""


@overload(truth)
def _truth(x):
    if isinstance(x, types.Array):
        return lambda x: x.shape[0] > 0
    if isinstance(x, types.Boolean):
        return lambda x: x
    if isinstance(x, types.Integer):
        return lambda x: x != 0 and x != NONE
    if isinstance(x, types.Float):
        return lambda x: x != 0.0


def nz(x):
    """`(x or 0)`: a number, with None as 0."""


@overload(nz)
def _nz(x):
    if isinstance(x, types.Boolean):
        return lambda x: np.int64(1) if x else np.int64(0)
    if isinstance(x, types.Integer):
        return lambda x: np.int64(0) if x == NONE else np.int64(x)


def seats_of(x):
    """runtime.seats: a seat or seats as a list; None is no seat."""


@overload(seats_of)
def _seats_of(x):
    if isinstance(x, types.Array):
        return lambda x: x
    if isinstance(x, types.Integer):
        def one(x):
            if x == NONE:
                return np.empty(0, np.int64)
            out = np.empty(1, np.int64)
            out[0] = x
            return out
        return one


def contains(xs, x):
    """`x in (xs or ())`"""


@overload(contains)
def _contains(xs, x):
    if isinstance(xs, types.Array):
        def find(xs, x):
            for v in xs:
                if v == x:
                    return True
            return False
        return find
    if isinstance(xs, types.Integer):     # a seat that may be None, as a collection of seats
        return lambda xs, x: xs != NONE and xs == x


@njit(cache=True)
def numbers(low, high):
    """tuple(range(low, high)): the whole numbers from low up to high, less high."""
    return np.arange(low, max(low, high), 1, np.int64)


@njit(cache=True)
def floordiv(a, b):
    return a // b if b else 0


@njit(cache=True)
def mod(a, b):
    return a % b if b else 0


@njit(cache=True)
def row(table, lengths, i):
    """Row i of a table of rows of different lengths (lower.Tables): as long as it is."""
    return table[i, :lengths[i]]


@njit(cache=True)
def card_attr(table, card):
    return NONE if card == NONE else table[card]


@njit(cache=True)
def distinct(g, xs):
    """list(dict.fromkeys(xs)): the values in order, each once; of cards, each as a player tells
    them apart (Ruleset.distinct: two-faced cards showing the same face are one)."""
    seen, alike = g[O_SEEN], g[O_ALIKE]
    cards = g[CARDS]
    out = np.empty(xs.shape[0], np.int64)
    k = 0
    for x in xs:
        if x < 0 or x >= cards:        # not a card: compare with those kept
            dup = False
            for j in range(k):
                if out[j] == x:
                    dup = True
                    break
            if not dup:
                out[k] = x
                k += 1
        elif g[seen + g[alike + x]] == 0:
            g[seen + g[alike + x]] = 1
            out[k] = x
            k += 1
    for j in range(k):
        if 0 <= out[j] < cards:
            g[seen + g[alike + out[j]]] = 0
    return out[:k]


# ---- hands, the stock, the discard pile (engine.table.Table) -------------------------------------
@njit(cache=True)
def hlen(g, seat):
    return g[g[O_HLEN] + seat]


@njit(cache=True)
def _row(g, seat):
    return g[O_HANDS] + seat * g[CAP]


@njit(cache=True)
def _copies(g, seat):
    return g[O_COPIES] + seat * g[CARDS]


@njit(cache=True)
def recount(g, seat):
    """The seat's copies of each card (layout's `copies`) counted anew from its hand: after the
    hand changed as a whole (swapped, passed, turned over, emptied)."""
    c = _copies(g, seat)
    for k in range(g[CARDS]):
        g[c + k] = 0
    h = _row(g, seat)
    for i in range(hlen(g, seat)):
        g[c + g[h + i]] += 1


@njit(cache=True)
def hand(g, seat):
    """The seat's hand, as a view."""
    h = _row(g, seat)
    return g[h:h + hlen(g, seat)]


@njit(cache=True)
def hand_or_none(g, seat):
    """A seat's hand, or no cards when there is no seat."""
    if seat == NONE:
        return g[0:0]
    return hand(g, seat)


@njit(cache=True)
def hand_copy(g, seat):
    h = _row(g, seat)
    return g[h:h + hlen(g, seat)].copy()


@njit(cache=True)
def hand_add(g, seat, card):
    k = g[O_HLEN] + seat
    g[_row(g, seat) + g[k]] = card
    g[k] += 1
    g[_copies(g, seat) + card] += 1


@njit(cache=True)
def hand_remove(g, seat, card):
    """list.remove: the first copy of the card goes, the rest keep their order."""
    h = _row(g, seat)
    k = g[O_HLEN] + seat
    n = g[k]
    for i in range(n):
        if g[h + i] == card:
            for j in range(i, n - 1):
                g[h + j] = g[h + j + 1]
            g[k] = n - 1
            g[_copies(g, seat) + card] -= 1
            return


@njit(cache=True)
def _without(xs, n, card):
    """The first n of xs but the first copy of `card`, in order (list.remove on a copy)."""
    out = np.empty(max(n - 1, 0), np.int64)
    k = 0
    gone = False
    for i in range(n):
        if xs[i] == card and not gone:
            gone = True
        elif k < out.shape[0]:
            out[k] = xs[i]
            k += 1
    return out


@njit(cache=True)
def run_search(g, seat, first, limit):
    """codegen.runtime.RunSearch: (the cards left at each depth, how many, the run found so far,
    [its length, the limit of runs], the runs found: the card alone first)."""
    hand = hand_copy(g, seat)
    n = hand.shape[0]
    left = np.empty((n, n), np.int64)
    nleft = np.zeros(n, np.int64)
    left[0, :n - 1] = _without(hand, n, first)
    nleft[0] = n - 1
    found = [np.empty(0, np.int64)]
    return left, nleft, np.empty(n, np.int64), np.array([0, limit], np.int64), found


@njit(cache=True)
def run_options(g, st):
    left, nleft, _, at, _ = st
    d = at[0]
    return distinct(g, left[d, :nleft[d]])


@njit(cache=True)
def run_take(st, card):
    """codegen.runtime.run_take (a card follows the run found at most as deep as the cards
    left, so the next depth is always there)."""
    left, nleft, run, at, found = st
    d = at[0]
    run[d] = card
    found.append(run[:d + 1].copy())
    rest = _without(left[d], nleft[d], card)
    left[d + 1, :rest.shape[0]] = rest
    nleft[d + 1] = rest.shape[0]
    at[0] = d + 1
    return len(found) - 1 < at[1]


@njit(cache=True)
def run_back(st):
    st[3][0] -= 1


@njit(cache=True)
def run_found(st):
    return st[4]


@njit(cache=True)
def hand_has(g, seat, card):
    h = _row(g, seat)
    for i in range(hlen(g, seat)):
        if g[h + i] == card:
            return True
    return False


@njit(cache=True)
def all_hands(g):
    """all(g.hands): nobody's hand is empty."""
    o = g[O_HLEN]
    for s in range(g[N]):
        if g[o + s] == 0:
            return False
    return True


@njit(cache=True)
def top(g):
    """g.discard[-1]"""
    return g[g[O_DISCARD] + g[DISCARD_LEN] - 1]


@njit(cache=True)
def discard_push(g, card):
    g[g[O_DISCARD] + g[DISCARD_LEN]] = card
    g[DISCARD_LEN] += 1


@njit(cache=True)
def note(g, kind, a, b, c):
    """Table._note: what a play did, for `cancel top` to undo (only while a play keeps a journal)."""
    if g[JOURNAL_ON] == 0:
        return
    k = g[JOURNAL_LEN]
    if k < JOURNAL_SIZE:
        e = g[O_JOURNAL] + k * JOURNAL_WIDTH
        g[e] = kind
        g[e + 1] = a
        g[e + 2] = b
        g[e + 3] = c
        g[JOURNAL_LEN] = k + 1


@njit(cache=True)
def _take(g):
    """Table._take: a card at random from a dealt stock, the top card (the last) from one kept in
    order; the discard pile (less its top card) becomes the stock when it runs dry, shuffled
    when the stock is kept in order."""
    n = g[STOCK_LEN]
    stock = g[O_STOCK]
    if n == 0:
        d = g[DISCARD_LEN]
        if d > 1:
            discard = g[O_DISCARD]
            for i in range(d - 1):
                g[stock + i] = g[discard + i]
            g[discard] = g[discard + d - 1]
            g[DISCARD_LEN] = 1
            n = d - 1
            g[STOCK_LEN] = n
            if g[LAZY] == 0:
                shuffle(g, stock, n)
            g[RESHUFFLES] += 1
        else:
            g[STOCK_EMPTY] += 1
            return NONE
    if g[LAZY] == 0:
        g[STOCK_LEN] = n - 1
        return g[stock + n - 1]
    i = np.int64(rand(g) * n)
    card = g[stock + i]
    g[stock + i] = g[stock + n - 1]
    g[STOCK_LEN] = n - 1
    return card


@njit(cache=True)
def take(g, own_refill):
    """Table._take: as `_take`, unless the rules have their own `when the stock runs out`
    (`own_refill`): the module's `take_card` runs it first when it is due (`refill_due`), and a
    stock still empty then stays empty."""
    if own_refill and g[STOCK_LEN] == 0:
        g[STOCK_EMPTY] += 1
        return NONE
    return _take(g)


@njit(cache=True)
def refill_due(g):
    """Whether the rules' own `when the stock runs out` is to run now: the stock is empty and it
    is not running already (a draw inside it finds nothing); if so, it is marked running until
    `refilled`. (The module runs it itself: numba cannot keep on disk the machine code of a
    function handed another function.)"""
    if g[STOCK_LEN] == 0 and g[REFILLING] == 0:
        g[REFILLING] = 1
        return True
    return False


@njit(cache=True)
def refilled(g):
    g[REFILLING] = 0


@njit(cache=True)
def drew(g, seat, handle, got):
    """Table.drew: account for `got` cards just added to the end of the seat's hand."""
    g[DRAWN] += got
    g[DREW] += got
    if g[JOURNAL_ON] != 0:
        h = _row(g, seat)
        n = hlen(g, seat)
        for i in range(n - got, n):
            note(g, J_DRAW, seat, g[h + i], ZERO)


@njit(cache=True)
def draw_cards(g, seat, count):
    """Table.draw_cards: the last card drawn, or None (rules with their own `when the stock runs
    out` draw through the module's `draw_cards`, the same loop over its `take_card`)."""
    got = ZERO
    last = NONE
    for _ in range(count):
        card = _take(g)
        if card == NONE:
            break
        hand_add(g, seat, card)
        last = card
        got += 1
    drew(g, seat, seat, got)
    return last


@njit(cache=True)
def set_color(g, color, seat):
    note(g, J_COLOR, g[COLOR], ZERO, ZERO)
    g[COLOR] = color


@njit(cache=True)
def set_counter(g, index, value):
    k = g[O_COUNTERS] + index
    note(g, J_COUNTER, index, g[k], ZERO)
    g[k] = value
    p = g[O_PEAKS] + index
    if value > g[p]:
        g[p] = value


@njit(cache=True)
def _swap_rows(g, a, b):
    """Seats a and b swap hands and copies, through views indexed from 0: no index is checked
    for being negative at each step (speed's swaps: 12.1 to 7.7 ns a turn, perf samples)."""
    la, lb = g[O_HLEN] + a, g[O_HLEN] + b
    _swap_spans(g, _row(g, a), _row(g, b), max(g[la], g[lb]))
    g[la], g[lb] = g[lb], g[la]
    _swap_spans(g, _copies(g, a), _copies(g, b), g[CARDS])


@njit(cache=True)
def _swap_spans(g, at, other, n):
    """The n numbers from `at` and from `other` change places."""
    x, y = g[at:at + n], g[other:other + n]
    for i in range(n):
        x[i], y[i] = y[i], x[i]


@njit(cache=True)
def swap_hands(g, a, b):
    _swap_rows(g, a, b)
    note(g, J_SWAP, a, b, ZERO)


@njit(cache=True)
def _permute_hands(g):
    """Hand s goes to seat perm[s] (a permutation of the seats), in place: each cycle of the
    permutation, taken once from its least seat, by swapping rows (their copies of each card
    with them), with no copy of the hands made and none counted anew."""
    n, perm = g[N], g[O_PERM]
    for s in range(n):
        t = g[perm + s]
        while t > s:                        # a seat of the cycle below s: taken from there
            t = g[perm + t]
        if t < s:
            continue
        t = g[perm + s]
        while t != s:                       # s holds, in turn, the hand that goes on to t's next
            _swap_rows(g, s, t)
            t = g[perm + t]


@njit(cache=True)
def pass_hands(g):
    """Table.pass_hands: every active seat's hand goes to its next seat."""
    n, perm, inactive = g[N], g[O_PERM], g[O_INACTIVE]
    for s in range(n):
        g[perm + s] = s if g[inactive + s] != 0 else next_seat(g, s, ONE)
    for s in range(n):
        note(g, J_PASS, s, g[perm + s], ZERO)
    note(g, J_PASS, -ONE, n, ZERO)
    _permute_hands(g)


@njit(cache=True)
def cancel_top(g):
    """Table.cancel_top: undo what the play of the top card did."""
    k = g[LAST_LEN] - 1
    last = g[O_LAST]
    while k >= 0:
        e = last + k * JOURNAL_WIDTH
        kind = g[e]
        if kind == J_DRAW:
            seat, card = g[e + 1], g[e + 2]
            h = _row(g, seat)
            lk = g[O_HLEN] + seat
            n = g[lk]
            for i in range(n - 1, -1, -1):       # the last copy in the hand goes back
                if g[h + i] == card:
                    for j in range(i, n - 1):
                        g[h + j] = g[h + j + 1]
                    g[lk] = n - 1
                    g[_copies(g, seat) + card] -= 1
                    g[g[O_STOCK] + g[STOCK_LEN]] = card
                    g[STOCK_LEN] += 1
                    break
        elif kind == J_DIRECTION:
            g[DIRECTION] = -g[DIRECTION]
        elif kind == J_COLOR:
            g[COLOR] = g[e + 1]
        elif kind == J_FLIP:            # turned over again: twice is the same as never
            flip(g, g[e + 1] != 0)
        elif kind == J_COUNTER:
            g[g[O_COUNTERS] + g[e + 1]] = g[e + 2]
        elif kind == J_SWAP:
            _swap_rows(g, g[e + 1], g[e + 2])
        elif kind == J_PASS:             # the seats' entries lie just before it: undo them at once
            n = g[e + 2]
            for i in range(n):
                f = last + (k - n + i) * JOURNAL_WIDTH
                g[g[O_PERM] + g[f + 2]] = g[f + 1]
            _permute_hands(g)
            k -= n
        k -= 1
    g[LAST_LEN] = 0


@njit(cache=True)
def journal_open(g):
    """A play starts its own journal (flow.play_gen): returns where the outer play's entries end."""
    g[JOURNAL_ON] += 1
    return g[JOURNAL_LEN]


@njit(cache=True)
def journal_close(g, start):
    """The play finished: its entries become the last journal, and the outer play's resumes."""
    k = g[JOURNAL_LEN] - start
    src, dst = g[O_JOURNAL] + start * JOURNAL_WIDTH, g[O_LAST]
    for i in range(k * JOURNAL_WIDTH):
        g[dst + i] = g[src + i]
    g[LAST_LEN] = k
    g[JOURNAL_LEN] = start
    g[JOURNAL_ON] -= 1


@njit(cache=True)
def reveal(g, seat, to):
    """Table.reveal: what a seat is shown changes no bot's play here."""
    return


@njit(cache=True)
def redeal(g, start):
    """Table.redeal: every active hand gathered, shuffled and dealt one at a time from `start`."""
    n, buf, inactive = g[N], g[O_BUF], g[O_INACTIVE]
    k = np.int64(0)             # not a bare 0: numba would compile shuffle for that constant too
    for s in range(n):
        if g[inactive + s] == 0:
            h = _row(g, s)
            for i in range(hlen(g, s)):
                g[buf + k] = g[h + i]
                k += 1
    shuffle(g, buf, k)
    for s in range(n):
        if g[inactive + s] == 0:
            g[g[O_HLEN] + s] = 0
            recount(g, s)
    seats = g[O_PERM]
    m = 0
    for j in range(n):
        s = g[g[O_ORDER] + (g[g[O_POS] + start] + j) % n]
        if g[inactive + s] == 0:
            g[seats + m] = s
            m += 1
    for i in range(k):
        hand_add(g, g[seats + i % m], g[buf + i])


@njit(cache=True)
def discard_cards(g, seat, cards):
    """Table.discard_cards: the cards leave the hand and go under the top card."""
    for c in cards:
        hand_remove(g, seat, c)
    _under_top(g, cards)


@njit(cache=True)
def discard_held(g, seat, cards):
    """Table.discard_held: of the cards, in their order, those the hand holds (each as often as
    it holds it) leave it and go under the top card."""
    held = np.empty(cards.shape[0], np.int64)
    k = 0
    for c in cards:
        if hand_has(g, seat, c):
            hand_remove(g, seat, c)
            held[k] = c
            k += 1
    _under_top(g, held[:k])


@njit(cache=True)
def _under_top(g, cards):
    """The cards, in their order, onto the discard pile beneath its top card (or as the pile)."""
    d = g[DISCARD_LEN]
    pile = g[O_DISCARD]
    k = cards.shape[0]
    if d == 0:
        for i in range(k):
            g[pile + i] = cards[i]
        g[DISCARD_LEN] = k
        return
    top_card = g[pile + d - 1]
    for i in range(k):
        g[pile + d - 1 + i] = cards[i]
    g[pile + d - 1 + k] = top_card
    g[DISCARD_LEN] = d + k


@njit(cache=True)
def has_gone_out(g, seat):
    return hlen(g, seat) == 0


@njit(cache=True)
def hand_points(g, seat):
    total = 0
    h, points = _row(g, seat), g[O_POINTS]
    for i in range(hlen(g, seat)):
        total += g[points + g[h + i]]
    return total


@njit(cache=True)
def run_length(g):
    d = g[DISCARD_LEN]
    pile = g[O_DISCARD]
    if d == 0:
        return 0
    t = g[pile + d - 1]
    count = 0
    for i in range(d - 1, -1, -1):
        if g[pile + i] != t:
            break
        count += 1
    return count


@njit(cache=True)
def put_back_starter(g):
    """Table.put_back_starter: the starter goes back into the stock, which is shuffled when it is
    kept in order (a dealt one is drawn at random)."""
    d = g[DISCARD_LEN] - 1
    g[DISCARD_LEN] = d
    g[g[O_STOCK] + g[STOCK_LEN]] = g[g[O_DISCARD] + d]
    g[STOCK_LEN] += 1
    if g[LAZY] == 0:
        shuffle(g, g[O_STOCK], g[STOCK_LEN])


@njit(cache=True)
def _pile(g, stock):
    """(first index, length slot) of the stock, or of the discard pile."""
    return (g[O_STOCK], STOCK_LEN) if stock else (g[O_DISCARD], DISCARD_LEN)


@njit(cache=True)
def put_card(g, seat, card, stock, bottom):
    """Table.put_card: the card leaves the seat's hand for the top or the bottom of a pile."""
    hand_remove(g, seat, card)
    at, size = _pile(g, stock)
    n = g[size]
    if bottom:
        for i in range(n, 0, -1):
            g[at + i] = g[at + i - 1]
        g[at] = card
    else:
        g[at + n] = card
    g[size] = n + 1


@njit(cache=True)
def pile(g, stock):
    """Table.pile: the stock or the discard pile, bottom card first, as a view."""
    at, size = _pile(g, stock)
    return g[at:at + g[size]]


@njit(cache=True)
def _reverse(g, start, length):
    i, j = start, start + length - 1
    while i < j:
        g[i], g[j] = g[j], g[i]
        i += 1
        j -= 1


@njit(cache=True)
def turn_over(g, stock):
    """Table.turn_over: the pile's order reversed, its bottom card now on top."""
    at, size = _pile(g, stock)
    _reverse(g, at, g[size])


@njit(cache=True)
def shuffle_pile(g, stock):
    at, size = _pile(g, stock)
    shuffle(g, at, g[size])


@njit(cache=True)
def move_cards(g, source, into, cards, keep_top):
    """Table.move_cards (`shuffle PILE into PILE`): these cards of the source pile (its top card
    kept where it is when keep_top) join the other pile, which is then shuffled, unless it is a
    dealt stock (drawn at random anyway)."""
    at, size = _pile(g, source)
    n = g[size]
    old = g[at:at + n].copy()
    m = n - 1 if keep_top and n > 0 else n
    for c in cards:                      # list.remove: the first copy goes
        for i in range(m):
            if old[i] == c:
                for j in range(i, m - 1):
                    old[j] = old[j + 1]
                m -= 1
                break
    for i in range(m):
        g[at + i] = old[i]
    if keep_top and n > 0:
        g[at + m] = old[n - 1]
        m += 1
    g[size] = m
    to, to_size = _pile(g, into)
    k = g[to_size]
    for c in cards:
        g[to + k] = c
        k += 1
    g[to_size] = k
    if not into or g[LAZY] == 0:
        shuffle(g, to, k)
    if into and cards.shape[0] > 0:
        g[RESHUFFLES] += 1


@njit(cache=True)
def _turn_over(g, start, length, reverse):
    """Every card of g[start:start + length] shows its other face (`id ^ 1`, compile.faces),
    the cards' order reversed when `reverse`."""
    if reverse:
        _reverse(g, start, length)
    for i in range(start, start + length):
        g[i] ^= 1


@njit(cache=True)
def flip(g, keep_order):
    """Table.flip: every card turned over: each hand in place, the stock as a pile (its order
    reversed), the discard pile as a pile or, keeping the pile order, each card where it lies;
    the color becomes the new top card's."""
    cap, lens = g[CAP], g[O_HLEN]
    for s in range(g[N]):
        _turn_over(g, g[O_HANDS] + s * cap, g[lens + s], np.bool_(False))
        recount(g, s)
    _turn_over(g, g[O_STOCK], g[STOCK_LEN], np.bool_(True))
    _turn_over(g, g[O_DISCARD], g[DISCARD_LEN], np.bool_(not keep_order))
    g[FACE] ^= 1
    note(g, J_COLOR, g[COLOR], ZERO, ZERO)  # undone after the flip is, so the color comes back
    note(g, J_FLIP, ONE if keep_order else ZERO, ZERO, ZERO)
    if g[DISCARD_LEN] > 0:
        g[COLOR] = g[g[O_COLORS] + top(g)]


# ---- seats and the order of play (engine.seats.Seats) ---------------------------------------------
@njit(cache=True)
def clockwise(g, seat, step):
    if seat == NONE:
        return NONE
    n, order, inactive = g[N], g[O_ORDER], g[O_INACTIVE]
    p = g[g[O_POS] + seat]
    for k in range(1, n + 1):
        t = g[order + (p + step * k) % n]
        if g[inactive + t] == 0:
            return t
    return seat


@njit(cache=True)
def next_seat(g, seat, step):
    if seat == NONE:
        return NONE
    return clockwise(g, seat, g[DIRECTION] * step)


@njit(cache=True)
def next_unskipped(g, seat):
    if seat == NONE:
        return NONE
    s = seat
    skips = g[O_SKIPS]
    for _ in range(g[N]):
        s = clockwise(g, s, g[DIRECTION])
        if g[skips + s] == 0:
            return s
    return next_seat(g, seat, ONE)


@njit(cache=True)
def order_from(g, start):
    out = np.empty(g[N], np.int64)
    return out[:_fill_order(g, start, out)]


@njit(cache=True)
def floats(g, at, n):
    """g[at:at + n] read as float64: a bot's room to weigh its choices (layout.BOT_ROWS), a view
    of the game's memory rather than an array of its own. Written once here, not at each of the
    bot's uses in every module: numba types and lowers a view at each place it is written."""
    return g[at:at + n].view(np.float64)


@njit(cache=True)
def new_ints(n):
    """A new array of n int64s, for a module's code. numba compiles its own functions (np.empty
    and np.arange, max and min, int, an array's max) afresh in every process that compiles code
    calling them, as it keeps none of them on disk: a tenth of a ruleset's first compile went to
    them. The runtime's machine code is kept, and this with it."""
    return np.empty(n, np.int64)


@njit(cache=True)
def new_reals(n):
    """A new array of n float64s, for a module's code (new_ints says why)."""
    return np.empty(n, np.float64)


@njit(cache=True)
def least(a, b):
    """min(a, b) of two int64s, for a module's code (new_ints says why)."""
    return b if b < a else a


@njit(cache=True)
def most(a, b):
    """max(a, b) of two int64s, for a module's code (new_ints says why)."""
    return b if b > a else a


@njit(cache=True)
def copy_into(out, xs):
    """out[:len(xs)] = xs, as a loop: numba writes a slice assignment out anew at each place."""
    for i in range(len(xs)):
        out[i] = xs[i]


@njit(cache=True)
def order_in(g, start, at):
    """order_from, written in g from `at` (room for a seat each) and returned as a view of it:
    for a bot's weighing, which needs no array of its own."""
    out = g[at:at + g[N]]
    return out[:_fill_order(g, start, out)]


@njit(cache=True)
def _fill_order(g, start, out):
    """The players still in, in order of play from `start`, written in `out`; how many."""
    n, d = g[N], g[DIRECTION]
    if g[PLAIN] != 0:
        for k in range(n):
            out[k] = (start + d * k) % n
        return n
    m = 0
    p = g[g[O_POS] + start]
    for k in range(n):
        s = g[g[O_ORDER] + (p + d * k) % n]
        if g[g[O_INACTIVE] + s] == 0:
            out[m] = s
            m += 1
    return m


@njit(cache=True)
def _dealer_or_0(g):
    d = g[DEALER]
    return 0 if d == NONE else d


@njit(cache=True)
def others(g, seat):
    """Seats.others: a new array (a rule may keep it), the order written and the seat left out
    in place."""
    if seat == NONE:
        return order_from(g, _dealer_or_0(g))
    out = np.empty(g[N], np.int64)
    m = 0
    for i in range(_fill_order(g, next_seat(g, seat, ONE), out)):
        if out[i] != seat:
            out[m] = out[i]
            m += 1
    return out[:m]


@njit(cache=True)
def everyone(g, seat):
    return order_from(g, _dealer_or_0(g) if seat == NONE else seat)


@njit(cache=True)
def opponents(g, seat):
    mine = others(g, seat)
    if seat == NONE:
        return mine
    teams = g[O_TEAMS]
    m = 0
    for i in range(mine.shape[0]):      # (others' array is new: its partners are left out in place)
        if g[teams + mine[i]] != g[teams + seat]:
            mine[m] = mine[i]
            m += 1
    return mine[:m]


@njit(cache=True)
def update_plain(g):
    n = g[N]
    plain = g[N_ACTIVE] == n
    for s in range(n):
        if g[g[O_ORDER] + s] != s:
            plain = False
    g[PLAIN] = 1 if plain else 0


@njit(cache=True)
def refresh_active(g):
    k = 0
    for s in range(g[N]):
        out = g[g[O_ELIMINATED] + s] != 0 or g[g[O_BENCHED] + s] != 0
        g[g[O_INACTIVE] + s] = 1 if out else 0
        k += not out
    g[N_ACTIVE] = k
    update_plain(g)


@njit(cache=True)
def swap_seats(g, a, b):
    order, pos = g[O_ORDER], g[O_POS]
    pa, pb = g[pos + a], g[pos + b]
    g[order + pa], g[order + pb] = b, a
    g[pos + a], g[pos + b] = pb, pa
    update_plain(g)


@njit(cache=True)
def skip(g, seat):
    g[g[O_SKIPS] + seat] = 1


@njit(cache=True)
def reverse(g):
    g[DIRECTION] = -g[DIRECTION]
    note(g, J_DIRECTION, ZERO, ZERO, ZERO)


@njit(cache=True)
def starts(g, seat):
    if seat != NONE:
        g[NEXT_OVERRIDE] = seat


@njit(cache=True)
def plays_again(g, seat):
    starts(g, seat)


@njit(cache=True)
def end_round_now(g):
    g[END_NOW] = 1


# ---- scores and the end (engine.scoring.Scoring, engine.flow.RoundFlow) ----------------------------
@njit(cache=True)
def add_score(g, seat, points):
    teams, scores, rp = g[O_TEAMS], g[O_SCORES], g[O_ROUND_POINTS]
    team = g[teams + seat]
    for s in range(g[N]):
        if g[teams + s] == team:
            g[scores + s] = max(-MAX_SCORE, min(MAX_SCORE, g[scores + s] + points))
            g[rp + s] = max(-MAX_SCORE, min(MAX_SCORE, g[rp + s] + points))


@njit(cache=True)
def eliminate(g, seat, round_only):
    """Scoring.eliminate: the seat's cards go to the bottom of the stock (its front)."""
    if g[g[O_INACTIVE] + seat] != 0:
        return
    if round_only:
        g[g[O_BENCHED] + seat] = 1
    else:
        g[g[O_ELIMINATED] + seat] = 1
    refresh_active(g)
    g[ELIMINATIONS] += 1
    k = hlen(g, seat)
    n = g[STOCK_LEN]
    stock, h = g[O_STOCK], _row(g, seat)
    for i in range(n - 1, -1, -1):
        g[stock + i + k] = g[stock + i]
    for i in range(k):
        g[stock + i] = g[h + i]
    g[STOCK_LEN] = n + k
    g[g[O_HLEN] + seat] = 0
    recount(g, seat)


@njit(cache=True)
def end_game(g, highest):
    n, elim, scores = g[N], g[O_ELIMINATED], g[O_SCORES]
    any_left = False
    for s in range(n):
        if g[elim + s] == 0:
            any_left = True
    best = 0
    first = True
    for s in range(n):
        if any_left and g[elim + s] != 0:
            continue
        v = g[scores + s]
        if first or (v > best if highest else v < best):
            best = v
            first = False
    g[GAME_OVER] = 1
    m = 0
    for s in range(n):
        if (not any_left or g[elim + s] == 0) and g[scores + s] == best:
            g[g[O_WINNERS] + m] = s
            m += 1
    g[N_WINNERS] = m


@njit(cache=True)
def _first_active(g):
    for s in range(g[N]):
        if g[g[O_INACTIVE] + s] == 0:
            return s
    return NONE


@njit(cache=True)
def gone_out(g, seat):
    """RoundFlow._gone_out: who has won the round after `seat`'s move, or None."""
    n, inactive = g[N], g[O_INACTIVE]
    if hlen(g, seat) > 0:
        every = True
        for s in range(n):
            if hlen(g, s) == 0 and g[inactive + s] == 0:
                every = False
        if every:
            return _first_active(g) if g[N_ACTIVE] == 1 else NONE
    elif g[inactive + seat] == 0:
        return seat
    for s in order_from(g, seat):
        if hlen(g, s) == 0:
            return s
    if g[N_ACTIVE] == 1:
        return _first_active(g)
    return NONE


@njit(cache=True)
def finish_round(g, winner):
    g[ROUND_OVER] = 1
    g[WINNER] = winner
    if g[WINDOWS] != 0:
        close_windows(g)


@njit(cache=True)
def close_windows(g):
    """Every out-of-turn window closes (RoundFlow._finish_round; native.windows keeps them)."""
    win = g[O_WIN]
    for k in range(g[WIN_SIZE]):
        g[win + k] = 0
    g[WINDOWS] = 0


@njit(cache=True)
def after_turn_ends_round(g, seat):
    """RoundFlow._after_turn_ends_round: the rules ended the round, or someone has won it."""
    return g[END_NOW] != 0 or gone_out(g, seat) != NONE


@njit(cache=True)
def out_of_turn_start(g, seat):
    """RoundFlow.out_of_turn_start: before a card played out of turn lands, earlier skips are
    cancelled and play goes on from its player."""
    skips = g[O_SKIPS]
    for s in range(g[N]):
        g[skips + s] = 0
    g[NEXT_OVERRIDE] = NONE
    g[TURN] = seat


@njit(cache=True)
def declare_stalemate(g):
    g[STALEMATE] = STALE_IDLE if g[IDLE] != 0 else STALE_TURNS


@njit(cache=True)
def advance(g):
    """RoundFlow._advance: the next seat that is not to lose its turn."""
    if g[NEXT_OVERRIDE] != NONE:
        g[TURN] = g[NEXT_OVERRIDE]
        g[NEXT_OVERRIDE] = NONE
        return
    s = g[TURN]
    skips = g[O_SKIPS]
    for _ in range(2 * g[N] + 1):
        s = clockwise(g, s, g[DIRECTION])
        if g[skips + s] != 0:
            g[skips + s] = 0
            continue
        break
    g[TURN] = s


@njit(cache=True)
def chance_pick(g, options):
    """RoundFlow.chance_gen deciding at random: options[randrange(len(options))]."""
    return options[randbelow(g, options.shape[0])]


@njit(cache=True)
def reset_round(g, counters0):
    """RoundFlow._reset_round."""
    n = g[N]
    for s in range(n):
        g[g[O_HLEN] + s] = 0
        recount(g, s)
        g[g[O_SKIPS] + s] = 0
        g[g[O_ROUND_POINTS] + s] = 0
        g[g[O_BENCHED] + s] = 0
    g[STOCK_LEN] = 0
    g[DISCARD_LEN] = 0
    g[FACE] = 0
    g[COLOR] = NONE
    g[DIRECTION] = 1
    g[NEXT_OVERRIDE] = NONE
    g[ROUND_OVER] = 0
    g[WINNER] = NONE
    g[TURNS_BEFORE] += g[ROUND_TURNS]
    g[ROUND_TURNS] = 0
    for i in range(counters0.shape[0]):
        g[g[O_COUNTERS] + i] = counters0[i]
    refresh_active(g)
    g[IDLE] = 0
    g[WITHOUT_PLAY] = 0
    g[END_NOW] = 0
    g[JOURNAL_ON] = 0
    g[JOURNAL_LEN] = 0
    g[LAST_LEN] = 0
    if g[WIN_SIZE] != 0:            # (native.windows) no window open, none held, none acted in yet
        close_windows(g)
        held = g[O_HELD]
        for k in range(g[WIN_SIZE]):
            g[held + k] = 0
        g[WIN_STAMP] = 0
        g[OUT_OF_TURN] = 0
        g[OUT_OF_TURN_DUE] = 0
