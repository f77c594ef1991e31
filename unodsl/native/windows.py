"""Out-of-turn windows in the native engine's compiled loop, and the basic bot's actions in them.

Where the basic bot's call, said with every play, closes every window the rules open as the card
lands (`calls_close_every_window`), no window is ever open when a seat is asked
anything, and the module keeps none. Elsewhere (a play taken without its call, a window others
act in, a window that opens as the state changes, jumping in) the module keeps them, as the
Python engine's `Windows` does, and a basic seat acts in them as BasicBot.out_of_turn chooses:

  - what a window means is written by codegen's templates and lowered like every other rule
    (LoopWriter.window_functions: whether it holds, an action's card test and program; the
    play's opening of windows, the call said with it, `open_state_windows`, `move_on`);
  - the table of windows is the module's memory (layout: a stamp per window and seat, 0 when
    closed, so that their order is the order they opened in, as the Game's dict keeps it; the
    card each opened on; whether its `opens when` condition held); a window's key is one number,
    its own number times the players plus the seat;
  - the offer (Windows.offer_out_of_turn with `out_of_turn_order`, `_window_action` and
    BasicBot.out_of_turn with `_action_value`) is `SOURCE`, numba code over tables of the rules'
    windows and of what basic measured of each action (engine.bots._out_of_turn_plan), the same
    sums in the same order of floating-point operations, the same draws from the generator.

An action that may ask questions (jumping in) is taken only at a turn's head (`offer_turn`),
as the Python engine allows it only at a turn decision. There the Python engine runs it up to its
first question, lets the others act out of turn while the question waits, answers it, then
moves on (Game._ask_out_of_turn, runtime.answer_out_of_turn); here it runs as one call, and its
first question, where it is asked (`asking`, at the head of every question a seat is asked),
first gives the waiting offer's other seats their chance (`oot_pending`). Those can only take
actions that ask nothing, so no offer ever runs inside another that could reach it again: numba
keeps no machine code on disk for functions that call each other round in a circle.

Nothing here names a card, rule or word: the tables say what the windows are.
"""
from __future__ import annotations

from ..engine.bots import _out_of_turn_plan
from ..engine.probe import knowledge
from ..engine.windows import MAX_OUT_OF_TURN
from ..lang import ast as A
from . import basic
from .layout import NONE, SLOT, STALE_OUT_OF_TURN, offer_size

FEW = 8          # cards an action passes up to which whether a seat holds one is read from its copies
WHO = {"player": 0, "others": 1, "anyone": 2}

# The functions SOURCE defines, and those codegen writes for the module (LoopWriter).
FUNCTIONS = ("window_open", "window_close", "open_windows", "close_turn_windows", "say_call", "window_card_ok",
             "first_window_card", "offer_due", "action_value", "basic_out_of_turn", "basic_choice",
             "offer_collect", "window_taken", "window_plain", "window_action_plain", "offer_run_plain", "asking",
             "window_action_turn", "offer_turn", "settle_windows")
WRITTEN = ("window_holds", "window_card", "window_act_plain", "window_act_asking", "open_state_windows", "move_on",
           "renege_open")


def calls_close_every_window(writer) -> bool:
    """Whether the call basic says with every play closes, as the play lands, every window the
    rules open: one window, opened by a play only, whose own call (`player may VERB`) it is; every
    turn offers a draw besides its plays (so a play is always chosen, and carries the call), no
    drawn card must be played (a lone play, taken without the call) and no rule plays a card for
    a player. Then no window is open whenever a seat is asked anything, and the module keeps none."""
    r = writer.r
    call = writer.basic.call
    if call is None or len(r.windows) != 1 or r.renege_const is not True or writer.uses((A.PlaysCard,)):
        return False
    if writer.uses((A.PlayDrawn,), where=lambda node: node.must):
        return False
    w = r.windows[0]
    return not w.state and any(a.who == "player" and a.card_test is None and a.verb == call for a in w.actions)


def refusal(writer) -> str | None:
    """What of the rules' windows the native basic bot does not play yet (plain words), or None."""
    r = writer.r
    actions = [a for w in r.windows for a in w.actions]
    verbs = [a.verb for a in actions]
    if len(set(verbs)) < len(verbs):
        return basic.NOT_YET.format("two windows whose actions out of turn use the same word")
    if r.faces and any(a.card_test is not None for a in actions):
        return basic.NOT_YET.format("actions out of turn in a game of two-faced cards")
    for w in r.windows:
        if w.state and w.opens_expr is not None and any(
                isinstance(n, A.Name) and n.id == "card" for n in A.walk((w.opens_expr,), r.definitions)):
            return basic.NOT_YET.format("a window that opens as the game changes and reads the card played")
    return None


def tables_source(writer, strings) -> str:
    """The module's tables of the rules' windows and of what basic weighs actions out of turn by."""
    r, n = writer.r, writer.n
    measured, harms = _out_of_turn_plan(r, knowledge(r, n))
    windows = r.windows
    actions = [(i, a) for i, w in enumerate(windows) for a in w.actions]
    rows = [f"KEPT_WINDOWS = {len(windows)}"]

    def array(name, values, dtype):
        rows.append(f"{name} = np.array({values!r}, dtype=np.{dtype})")

    def floats(values):
        return [float(v) for v in values]

    array("W_CLOSES", [int(w.closes_on_turn) for w in windows], "int8")
    array("W_ORDER", [int(w.turn_order) for w in windows], "int8")
    array("W_ACT_AT", [sum(len(v.actions) for v in windows[:i]) for i in range(len(windows))], "int64")
    array("W_ACT_N", [len(w.actions) for w in windows], "int64")
    array("A_WINDOW", [i for i, _ in actions], "int64")
    array("A_WHO", [WHO[a.who] for _, a in actions], "int64")
    array("A_CARD", [int(a.card_test is not None) for _, a in actions], "int8")
    array("A_ASKS", [int(a.program.plain is None) for _, a in actions], "int8")
    array("A_VERB", [strings.id(a.verb) for _, a in actions], "int64")
    names = [w.name for w in windows]
    has, harm_w, cards, on_has, on = [], [], [], [], []
    for _, a in actions:
        row = [measured.get((a.verb, own)) for own in (False, True)]
        has.append([int(m is not None) for m in row])
        harm_w.append([names.index(m[0]) if m is not None else 0 for m in row])
        cards.append([floats((list(m[1]) + [0.0] * n)[:n]) if m is not None else [0.0] * n for m in row])
        on_has.append([int(m is not None and m[2] is not None) for m in row])
        on.append([float(m[2]) if m is not None and m[2] is not None else 0.0 for m in row])
    array("A_HAS", has, "int8")
    array("A_HARM_W", harm_w, "int64")
    array("A_CARDS", cards, "float64")
    array("A_ON_HAS", on_has, "int8")
    array("A_ON", on, "float64")
    widest = max([len(harms[w.name]) for w in windows] + [1])
    array("H_N", [len(harms[w.name]) for w in windows], "int64")
    array("H_MEAN", [floats(harms[w.name]) + [0.0] * (widest - len(harms[w.name])) for w in windows], "float64")
    array("W_ASKS_COLOR", [int(p is not None and p.asks_color) for p in r.on_play], "int8")
    # an action whose card test reads only the card, the top card and the color: the cards it
    # passes, per top card and color (None last), as the Game reads them (Ruleset.window_card_set)
    static = [a for _, a in actions if a.card_test is not None and a.card_static]
    array("A_STATIC", [static.index(a) if a in static else -1 for _, a in actions], "int64")
    colors = list(r.colors) + [None]
    sets = [[[r.window_card_set(a, top, color) for color in colors] for top in range(r.size)] for a in static]
    array("W_CARDS", [[[[int(c in ok) for c in range(r.size)] for ok in row] for row in by_top]
                      for by_top in sets] or [[[[0]]]], "int8")
    # and, where they are few, the same cards listed (W_FEW_N of them, -1 where they are many): a
    # seat holds one when its copies of one are not 0 (layout's `copies`), a few reads
    few = [[[sorted(ok) if len(ok) <= FEW else None for ok in row] for row in by_top] for by_top in sets]
    width = max([len(ok) for by_top in few for row in by_top for ok in row if ok] + [1])
    array("W_FEW_N", [[[-1 if ok is None else len(ok) for ok in row] for row in by_top] for by_top in few]
          or [[[0]]], "int64")
    array("W_FEW", [[[(ok or []) + [0] * (width - len(ok or [])) for ok in row] for row in by_top] for by_top in few]
          or [[[[0]]]], "int64")
    return "\n".join(rows)


def source(writer) -> str:
    """SOURCE for this ruleset and table size: what the module calls to settle after an action
    out of turn, and the branches of actions that may ask questions only where there are some."""
    r, n = writer.r, writer.n
    settle = "settle(g)" if r.triggers else "settle_windows(g)" if r.state_windows else ""
    asks = writer.asks_out_of_turn
    return SOURCE.format(
        **basic.room(n), n=n, size=n * len(r.windows), windows=len(r.windows), none=NONE, offer=offer_size(n),
        k=len(r.colors), cap=len(r.deck) + 1, cards=r.size, most=MAX_OUT_OF_TURN, stale=STALE_OUT_OF_TURN,
        settle=settle or "pass",
        settle_turn=_lines(4, [settle,
                               f"d = g[{SLOT['decision_turn']}]",
                               f"if d != {NONE} and (g[O_INACTIVE + d] != 0 or R.after_turn_ends_round(g, d)):",
                               f"    g[{SLOT['played_this_turn']}] = 0",
                               "    move_on(g)"]) if settle else "pass",
        asking_turn=_lines(8, [f"g[{SLOT['played_this_turn']}] = 0",
                               f"g[{SLOT['oot_pending']}] = 1",
                               "window_act_asking(g, a, seat, subject, card, color, target)",
                               f"g[{SLOT['oot_pending']}] = 0",
                               "move_on(g)",
                               "return"]) if asks else "return",
        state=("if g[{0}] == 0:\n        open_state_windows(g)".format(SLOT["round_over"])
               if r.state_windows else "return"),
        in_turn_order=(_lines(8, IN_TURN_ORDER.format(n=n).splitlines()) if any(w.turn_order for w in r.windows)
                       else "if True:"),
        offer_turn_loop=_lines(4, TURN_LOOP.format(n=n, S_ROUND_OVER=SLOT["round_over"]).splitlines())
        if asks or settle else "offer_run_plain(g, base)",
        **{f"S_{k.upper()}": v for k, v in SLOT.items()})


# Seats that want to act out of turn in the rules' own order, when every window open says so
# (Windows.out_of_turn_order); written only where some window is `in turn order`.
IN_TURN_ORDER = """opened = open_windows(g, np.bool_(False))
ordered = opened > 0
for i in range(opened):
    if W_ORDER[g[O_WIN_KEYS + i] // {n}] == 0:
        ordered = False
if ordered:
    ring = R.order_from(g, g[O_WIN_KEYS + opened - 1] % {n})
    rank = np.full({n}, len(ring), np.int64)
    for i in range(len(ring)):
        rank[ring[i]] = i
    for i in range(1, m):          # sorted by rank, stable
        s = g[base + 2 + i]
        j = i
        while j > 0 and rank[g[base + 2 + j - 1]] > rank[s]:
            g[base + 2 + j] = g[base + 2 + j - 1]
            j -= 1
        g[base + 2 + j] = s
else:"""

# The loop of an offer at a turn's head, where it differs from the offer with a question waiting
# (an action may ask questions, or the game settles after one and may move on from it); else
# the two are the same loop, compiled once.
TURN_LOOP = """while g[base] < g[base + 1] and g[{S_ROUND_OVER}] == 0:
    i = g[base]
    g[base] = i + 1
    s = g[base + 2 + i]
    if i == 0:
        want = base + 2 + {n} + 4 * s
        a, card, color, subject = g[want], g[want + 1], g[want + 2], g[want + 3]
    else:
        a, card, color, subject = basic_out_of_turn(g, s)
    if a >= 0:
        window_action_turn(g, a, s, card, color, subject)"""


def _lines(indent: int, lines: list) -> str:
    """Lines of code for a place in SOURCE indented by `indent` (the first is placed there)."""
    return ("\n" + " " * indent).join(lines)


# numba source: the module's other names (O_*, R, the basic bot's B_* and basic_value, the
# functions codegen writes) are the writer's and basic's.
SOURCE = '''
@njit(cache=True)
def window_open(g, k, card):
    """A window opens (Windows._open_windows): last of those open, on `card`. Like
    `window_close`, compiled once and inlined by LLVM: numba inlining them ran its passes on them
    again at each call (speed's state windows, four seats of both, took 1.8 to 2.4 s to compile)."""
    if g[O_WIN + k] == 0:
        g[{S_WINDOWS}] += 1
    g[{S_WIN_STAMP}] += 1
    g[O_WIN + k] = g[{S_WIN_STAMP}]
    g[O_WIN_CARD + k] = card


@njit(cache=True)
def window_close(g, k):
    if g[O_WIN + k] != 0:
        g[O_WIN + k] = 0
        g[{S_WINDOWS}] -= 1


@njit(cache=True, inline='always')
def open_windows(g, holding):
    """How many windows are open (with `holding`, only those that still hold:
    Windows._window_holds); their keys are written in the module's memory at O_WIN_KEYS, in the
    order they opened (the Game's `windows`, a dict), to be read before any window opens or closes
    again. A count rather than a view of that memory: no array is made at each of the offer's
    many calls."""
    m = 0
    left = g[{S_WINDOWS}]
    for k in range({size}):
        if left == 0:
            break
        stamp = g[O_WIN + k]
        if stamp == 0:
            continue
        left -= 1
        if holding and not window_holds(g, k // {n}, k % {n}, g[O_WIN_CARD + k]):
            continue
        j = m
        while j > 0 and g[O_WIN + g[O_WIN_KEYS + j - 1]] > stamp:
            g[O_WIN_KEYS + j] = g[O_WIN_KEYS + j - 1]
            j -= 1
        g[O_WIN_KEYS + j] = k
        m += 1
    return m


@njit(cache=True, inline='always')
def close_turn_windows(g):
    """Windows._close_turn_windows: those that close when a turn begins."""
    for k in range({size}):
        if g[O_WIN + k] != 0 and W_CLOSES[k // {n}] != 0:
            window_close(g, k)


@njit(cache=True, inline='always')
def say_call(g, s, verb):
    """Windows.say_call: the first window open for the player that offers their call closes."""
    best = np.int64(-1)
    for w in range({windows}):
        k = w * {n} + s
        if g[O_WIN + k] != 0 and (best < 0 or g[O_WIN + k] < g[O_WIN + best]):
            for a in range(W_ACT_AT[w], W_ACT_AT[w] + W_ACT_N[w]):
                if A_WHO[a] == 0 and A_VERB[a] == verb:
                    best = k
                    break
    if best >= 0:
        window_close(g, best)


@njit(cache=True)
def window_card_ok(g, a, seat, subject, card):
    """Whether action a may be taken with the card (Windows._window_cards): from the table of
    its cards, per top card and color, when its test reads only the card, the top card and the
    color; else its test, as codegen writes it."""
    i = A_STATIC[a]
    if i >= 0:
        c = g[{S_COLOR}]
        return W_CARDS[i, R.top(g), {k} if c == {none} else c, card] != 0
    return window_card(g, a, seat, subject, card)


@njit(cache=True)
def first_window_card(g, a, seat, subject):
    """The first card the seat holds that action a may be taken with (Windows._window_cards, a
    card whose play names a color among none left out: `_card_colors`), or None."""
    h = O_HANDS + seat * {cap}
    for j in range(g[O_HLEN + seat]):
        card = g[h + j]
        if B_VARIANTS[card] > 0 and window_card_ok(g, a, seat, subject, card):
            return card
    return {none}


@njit(cache=True)
def offer_due(g):
    """Windows.acting_seats: the seats whose `window_actions` is not empty, as bits (seat s:
    1 << s), 0 when none (an offer would change nothing, and is skipped: its calls cost more than
    this look). Kept, with how many windows are open and holding (their keys written by
    `open_windows`), for `offer_collect` and `basic_choice`, which come next. Each window and
    action is looked at once, for the seats it may be taken by that are not yet found. Whether a
    seat holds a card an action passes is a read of its copies of each such card (layout's
    `copies`) where they are few (W_FEW), as for jumping in with the card on top; else a look
    through its hand against the action's table row."""
    m = open_windows(g, np.bool_(True))
    turn = g[{S_DECISION_TURN}] != {none}
    c = g[{S_COLOR}]
    c0 = {k} if c == {none} else c
    top = R.top(g)
    everyone = (1 << {n}) - 1
    can = 0
    for i in range(m):
        key = g[O_WIN_KEYS + i]
        w = key // {n}
        subject = key - w * {n}
        for a in range(W_ACT_AT[w], W_ACT_AT[w] + W_ACT_N[w]):
            who = A_WHO[a]
            if A_CARD[a] != 0 and A_ASKS[a] != 0 and not turn:
                continue
            seats = 1 << subject if who == 0 else everyone ^ (1 << subject) if who == 1 else everyone
            seats &= ~can
            if seats == 0:
                continue
            if A_CARD[a] == 0:
                can |= seats
                continue
            static = A_STATIC[a]
            few = W_FEW_N[static, top, c0] if static >= 0 else -1
            for seat in range({n}):
                if not (seats >> seat) & 1:
                    continue
                if few >= 0:
                    held = O_COPIES + seat * {cards}
                    for j in range(few):
                        card = W_FEW[static, top, c0, j]
                        if g[held + card] != 0 and B_VARIANTS[card] > 0:
                            can |= 1 << seat
                            break
                elif static >= 0:
                    passed = W_CARDS[static, top, c0]
                    h = O_HANDS + seat * {cap}
                    for j in range(g[O_HLEN + seat]):
                        card = g[h + j]
                        if passed[card] != 0 and B_VARIANTS[card] > 0:
                            can |= 1 << seat
                            break
                elif first_window_card(g, a, seat, subject) != {none}:
                    can |= 1 << seat
    g[{S_OOT_CAN}] = can
    g[{S_OOT_HELD}] = m
    return can


@njit(cache=True, inline='always')
def action_value(g, a, seat, subject, played, order, sizes, base, after):
    """BasicBot._action_value of action a on the window open for `subject` (with a card played
    or not): -inf when never measured. (`after`: room for hand sizes, written over.)"""
    own = 1 if subject == seat else 0
    if A_HAS[a, own] == 0:
        return -np.inf
    cards = A_CARDS[a, own]
    R.copy_into(after, sizes)
    if own == 1 or A_ON_HAS[a, own] == 0:
        for place in range(len(order)):
            after[order[place]] += cards[place]
        if played:
            after[order[0]] -= 1
    else:
        after[seat] += cards[0] - (1.0 if played else 0.0)
        after[subject] += A_ON[a, own]
    value = basic_value(g, seat, order, after) - base
    if own == 1:
        worst = 0.0
        h = A_HARM_W[a, own]
        for i in range(H_N[h]):
            R.copy_into(after, sizes)
            after[seat] += H_MEAN[h, i]
            x = base - basic_value(g, seat, order, after)
            if x > worst:
                worst = x
        value += worst
    return value


@njit(cache=True)
def basic_out_of_turn(g, seat):
    """BasicBot.out_of_turn (below)."""
    if g[{S_WINDOWS}] == 0:
        return -1, {none}, {none}, {none}
    if not (offer_due(g) >> seat) & 1:
        return -1, {none}, {none}, {none}
    return basic_choice(g, seat, g[{S_OOT_HELD}])


@njit(cache=True)
def basic_choice(g, seat, m):
    """BasicBot.out_of_turn among Windows.window_actions(seat), not empty, the windows open and
    holding being the first `m` keys at O_WIN_KEYS: (action, card, color, the window's player) of the first action
    weighed best, the action -1 when none helps. Every card and color of an action weighs the
    same: only the first is ever chosen."""
    turn = g[{S_DECISION_TURN}] != {none}
    best_a, best_card, best_color, best_subject = -1, {none}, {none}, {none}
    sizes = basic_sizes(g)
    order = R.order_in(g, seat, np.int64({order_at}))
    base = basic_value(g, seat, order, sizes)
    after = R.floats(g, np.int64({after_at}), np.int64({n}))
    best = 0.0
    for i in range(m):
        key = g[O_WIN_KEYS + i]
        w = key // {n}
        subject = key - w * {n}
        for a in range(W_ACT_AT[w], W_ACT_AT[w] + W_ACT_N[w]):
            who = A_WHO[a]
            if not ((who == 0 and seat == subject) or (who == 1 and seat != subject) or who == 2):
                continue
            card = {none}
            color = {none}
            if A_CARD[a] != 0:
                if A_ASKS[a] != 0 and not turn:
                    continue
                card = first_window_card(g, a, seat, subject)
                if card == {none}:
                    continue
                color = B_VARIANT_COLOR[B_VARIANT_AT[card]]
            value = action_value(g, a, seat, subject, card != {none}, order, sizes, base, after)
            if value > best + 1e-9:
                best_a, best_card, best_color, best_subject, best = a, card, color, subject, value
    return best_a, best_card, best_color, best_subject


@njit(cache=True)
def offer_collect(g, base):
    """Windows.offer_out_of_turn, its first part: every seat's bot is asked whether it acts (a
    seat with nothing it may do answers no), and those that want to are put in the order they
    get the chance (`out_of_turn_order`: the windows' own when every open one says `in turn
    order`, else shuffled with the game's generator), kept at `base` (layout.offer_size). The
    seats that may act are those `offer_due` found just before."""
    m = 0
    can, held = g[{S_OOT_CAN}], g[{S_OOT_HELD}]
    for s in range({n}):
        if not (can >> s) & 1:
            continue
        a, card, color, subject = basic_choice(g, s, held)
        if a >= 0:
            g[base + 2 + m] = s
            want = base + 2 + {n} + 4 * s
            g[want] = a
            g[want + 1] = card
            g[want + 2] = color
            g[want + 3] = subject
            m += 1
    if m >= 2:
        {in_turn_order}
            for i in range(m - 1, 0, -1):  # PortableRandom.shuffle
                j = R.randbelow(g, np.int64(i + 1))
                g[base + 2 + i], g[base + 2 + j] = g[base + 2 + j], g[base + 2 + i]
    g[base] = 0
    g[base + 1] = m


@njit(cache=True)
def window_taken(g, a, seat, card, color, subject):
    """Windows._window_action's checks of the action (a refused one changes nothing); when it
    is taken, it counts (a round with more than MAX_OUT_OF_TURN halts the game) and its window
    closes."""
    if g[O_INACTIVE + seat] != 0:
        return False
    who = A_WHO[a]
    if who == 0:
        subject = seat
    w = A_WINDOW[a]
    k = w * {n} + subject
    if g[O_WIN + k] == 0 or not window_holds(g, w, subject, g[O_WIN_CARD + k]):
        return False
    if not ((who == 0 and seat == subject) or (who == 1 and seat != subject) or who == 2):
        return False
    if A_CARD[a] != 0:
        if not R.hand_has(g, seat, card) or not window_card_ok(g, a, seat, subject, card):
            return False
        if W_ASKS_COLOR[card] != 0 and color == {none} and g[O_HLEN + seat] > 1:
            return False
    if A_ASKS[a] != 0 and g[{S_DECISION_TURN}] == {none}:
        return False
    g[{S_OUT_OF_TURN}] += 1
    if g[{S_OUT_OF_TURN}] > {most}:         # Game.halt
        g[{S_STALEMATE}] = {stale}
        g[{S_GAME_OVER}] = 1
        g[{S_ROUND_OVER}] = 1
        g[{S_DECISION_TURN}] = {none}
        R.close_windows(g)
        return False
    window_close(g, k)
    return True


@njit(cache=True, inline='always')
def window_plain(g, a, seat, card, color, subject):
    """An action that asks no question: its program, keeping no journal of what it does."""
    journal = g[{S_JOURNAL_ON}]
    g[{S_JOURNAL_ON}] = 0
    window_act_plain(g, a, seat, subject, card, color, {none} if A_WHO[a] == 0 else subject)
    g[{S_JOURNAL_ON}] = journal


@njit(cache=True, inline='always')
def window_action_plain(g, a, seat, card, color, subject):
    """Windows._window_action with a question waiting: only actions that ask nothing are taken;
    then the game comes to rest."""
    if window_taken(g, a, seat, card, color, subject):
        window_plain(g, a, seat, card, color, subject)
        {settle}


@njit(cache=True)
def offer_run_plain(g, base):
    """The offer kept at `base` goes on (with a question waiting): the first seat acts with the
    action it answered, each other is asked again when its chance comes."""
    while g[base] < g[base + 1] and g[{S_ROUND_OVER}] == 0:
        i = g[base]
        g[base] = i + 1
        s = g[base + 2 + i]
        if i == 0:
            want = base + 2 + {n} + 4 * s
            a, card, color, subject = g[want], g[want + 1], g[want + 2], g[want + 3]
        else:
            a, card, color, subject = basic_out_of_turn(g, s)
        if a >= 0:
            window_action_plain(g, a, s, card, color, subject)


@njit(cache=True)
def asking(g):
    """runtime.ask's head, as a seat is asked a question: the decision is no longer a turn; an
    action out of turn that asked it first lets the offer it came from go on (the others' chances
    come while its question waits: Game._ask_out_of_turn); then the actions out of turn the last
    choice left due."""
    g[{S_DECISION_TURN}] = {none}
    if g[{S_OOT_PENDING}] != 0:
        g[{S_OOT_PENDING}] = 0
        g[{S_OOT_ASKED}] = 1
        offer_run_plain(g, np.int64(O_OFFER))
    if g[{S_OUT_OF_TURN_DUE}] != 0:
        g[{S_OUT_OF_TURN_DUE}] = 0
        if g[{S_WINDOWS}] != 0 and offer_due(g):    # (Windows.offer_out_of_turn, a question waiting)
            offer_collect(g, np.int64(O_OFFER + {offer}))
            offer_run_plain(g, np.int64(O_OFFER + {offer}))


@njit(cache=True, inline='always')
def window_action_turn(g, a, seat, card, color, subject):
    """Windows._window_action at a turn's head: an action that may ask questions runs, then the
    game moves on from it (Game._ask_out_of_turn, `move_on`); one that asks nothing runs, then
    the game comes to rest, moving on if that put the player deciding the turn out or ended the
    round (Game._settle_out_of_turn)."""
    if not window_taken(g, a, seat, card, color, subject):
        return
    target = {none} if A_WHO[a] == 0 else subject
    if A_ASKS[a] != 0:
        {asking_turn}
    window_plain(g, a, seat, card, color, subject)
    {settle_turn}


@njit(cache=True)
def offer_turn(g):
    """Windows.offer_out_of_turn at a turn's head: whether the turn loop then moves on (a
    question was asked out of turn, another seat's turn is due, or the round is over), as the
    seat bot's loop does when the decision is no longer this turn (codegen's `turn_offer`)."""
    turn = g[{S_DECISION_TURN}]
    g[{S_OOT_ASKED}] = 0
    base = np.int64(O_OFFER)
    offer_collect(g, base)
    {offer_turn_loop}
    return g[{S_OOT_ASKED}] != 0 or g[{S_DECISION_TURN}] != turn


@njit(cache=True)
def settle_windows(g):
    """Game.settle where the rules have no `whenever` rule: the windows that open as the state
    changes."""
    {state}
'''
