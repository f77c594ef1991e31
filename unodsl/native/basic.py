"""The basic bot's choices inside the native engine's compiled loop, from the tables it hands over.

BasicBot (engine.bots) weighs each choice by numbers fixed for a ruleset and table size: per card,
how hard it is to play later, its points and what it measurably does to every hand (its
`play_tables`, the same ones codegen.bots writes the Python loop's turn from); per answer to a
question, what it measurably costs by the asker's hand size (`answer_changes`). Here those numbers
become NumPy arrays of the module and the choices numba code over them: the turn's play and the
drawn card's, with the run of cards it goes on with where the rules play runs (the same sums, in
the same order of floating-point operations, as `_best`, over the plays in the order listed), the
color it names (`_follow`: the color leaving most of its hand playable) and its answer (ties drawn
from the game's generator as `_answer` draws them). Whether a card is played as a bluff is the
rules' honesty test, written by codegen's templates and lowered (`basic_honest`, writer.py).

Out of turn it says its call with its plays (the writer passes it to `play`); where that call
does not close every window as the card lands, the module keeps the windows and basic acts in
them (native.windows). `refusal` says in plain words what is not compiled yet. Nothing here
names a card, rule or word.
"""
from __future__ import annotations

from ..compile.codegen.expressions import Unsupported
from ..engine.bots import ANSWER_TIE, answer_changes
from ..engine.probe import ASKER_BUCKETS, knowledge
from ..lang import ast as A
from .layout import BOT_AFTER, BOT_BEFORE, BOT_FLOWED, BOT_ORDER, BOT_ROWS, BOT_SIZES

NOT_YET = "the native engine does not yet play basic bots in rules with {}"


class BotUnsupported(Unsupported):
    """What keeps the native engine from playing a bot's choices (plain words, said as they are)."""


def refusal(writer) -> str | None:
    """Why the native engine cannot play basic seats in these rules at this table size (plain
    words, for `simulate`'s note), or None."""
    r = writer.r
    if r.match_static and not writer.uses_match_table:
        return NOT_YET.format("more kinds of card than its table of which card may follow which holds")
    return None


class BasicTables:
    """The arrays the native basic bot reads, for one ruleset and table size; `question(names)`
    numbers each question its answers are chosen for, as the writer meets them."""

    def __init__(self, rules, players: int, play_tables):
        self.r, self.n, self.t = rules, players, play_tables
        self.know = knowledge(rules, players)
        self.questions: list = []

    def question(self, names: tuple) -> int:
        if names not in self.questions:
            self.questions.append(names)
        return self.questions.index(names)

    def source(self, strings, variant_tables: tuple) -> str:
        """The module's rows of basic's tables (the variant tables are codegen's, by name)."""
        r, n, t = self.r, self.n, self.t
        rows = []

        def array(name, values, dtype):
            rows.append(f"{name} = np.array({values!r}, dtype=np.{dtype})")

        def moves(row):
            return [0.0] * n if row is None else [float(x) for x in row]

        array("B_FIT", [float(x) for x in t.fit], "float64")
        array("B_POINTS", [float(x) for x in t.points], "float64")
        array("B_MOVES", [int(c is not None) for c in t.changes], "int8")
        array("B_CHANGES", [moves(c) for c in t.changes], "float64")
        bluff = [c in t.bluffs and r.honest[c] is not None for c in range(r.size)]
        array("B_BLUFFED", [int(b) for b in bluff], "int8")
        array("B_BLUFF_MOVES", [int(b and t.bluffs[c] is not None) for c, b in enumerate(bluff)], "int8")
        array("B_BLUFFS", [moves(t.bluffs[c] if b else None) for c, b in enumerate(bluff)], "float64")
        array("B_CARD_COLOR", [strings.id(c) if c is not None else -1 for c in r.cards.color], "int64")
        # flows (engine.bots.flowed): per card its row of the flow tables, or -1; per row and place
        # named, whether it was measured, the spread and the offset
        flowing = [c for c, f in enumerate(t.flows) if f is not None]
        array("B_FLOW_ROW", [flowing.index(c) if c in flowing else -1 for c in range(r.size)], "int64")
        array("B_FLOW_HAS", [[int(at is not None) for at in t.flows[c]] for c in flowing] or [[0] * n], "int8")
        array("B_SPREAD", [[[list(row) for row in at[0]] if at is not None else [[0.0] * n] * n for at in t.flows[c]]
                           for c in flowing] or [[[[0.0] * n] * n] * n], "float64")
        array("B_OFFSET", [[list(at[1]) if at is not None else [0.0] * n for at in t.flows[c]] for c in flowing]
                          or [[[0.0] * n] * n], "float64")
        array("B_NAMES", [int(p is not None and p.asks_target) for p in r.on_play], "int8")
        rows += [f"B_THREAT = {float(t.threat)!r}", f"B_EFFECT = {float(t.w_effect)!r}",
                 f"B_WPOINTS = {float(t.w_points)!r}", f"B_WFOLLOW = {float(t.w_follow)!r}",
                 f"B_TIE = {ANSWER_TIE!r}", f"B_VARIANTS, B_VARIANT_AT, B_VARIANT_COLOR = {', '.join(variant_tables)}"]
        array("B_BUCKETS", list(ASKER_BUCKETS), "int64")
        widest = max([len(q) for q in self.questions] + [1])
        measured, has, own, asker = [], [], [], []
        for names in self.questions:
            changes = answer_changes(self.know, names)
            measured.append(int(changes is not None))
            rows_has, rows_own, rows_asker = [], [], []
            for i in range(widest):
                change = changes.get(names[i]) if changes is not None and i < len(names) else None
                rows_has.append(int(change is not None))
                rows_own.append(list(change[0]) if change else [0.0] * (len(ASKER_BUCKETS) + 1))
                rows_asker.append(list(change[1]) if change else [0.0] * (len(ASKER_BUCKETS) + 1))
            has.append(rows_has)
            own.append(rows_own)
            asker.append(rows_asker)
        empty = [[[0.0] * (len(ASKER_BUCKETS) + 1)] * widest]
        array("B_MEASURED", measured or [0], "int8")
        array("B_ANSWERED", has or [[0] * widest], "int8")
        array("B_ANSWER_OWN", own or empty, "float64")
        array("B_ANSWER_ASKER", asker or empty, "float64")
        return "\n".join(rows)


def room(n: int) -> dict:
    """Where the bot's weighing lies in a game's memory (layout.BOT_ROWS), as the templates
    here and in native.windows name it."""
    rows = (("sizes_at", BOT_SIZES), ("after_at", BOT_AFTER), ("before_at", BOT_BEFORE),
            ("flowed_at", BOT_FLOWED), ("order_at", BOT_ORDER))
    return {**{name: f"O_BOT + {row * n}" if row else "O_BOT" for name, row in rows},
            "nobody_at": f"O_BOT + {BOT_ROWS * n}", "one_at": f"O_BOT + {BOT_ROWS * n + 1}"}


# numba source: the module's other names (MATCH, O_*, R, the slots) are the writer's.
SOURCE = '''
@njit(cache=True)
def basic_value(g, seat, order, sizes):
    """BasicBot._value: how good the hand sizes are for the seat's side, in cards."""
    team = g[O_TEAMS + seat]
    mine = 0.0
    theirs = 0.0
    count = 0
    for s in order:
        k = sizes[s]
        weighted = k * (1.0 + B_THREAT / (1.0 + (k if k > 0.0 else 0.0)))
        if g[O_TEAMS + s] == team:
            if s == seat:
                mine -= weighted
            else:
                mine -= 0.5 * weighted
        else:
            theirs += weighted
            count += 1
    return mine + theirs / count if count else mine


@njit(cache=True, inline='always')
def basic_sizes(g):
    """The hand sizes, as floats, in the bot's room (layout.BOT_SIZES)."""
    sizes = R.floats(g, np.int64({sizes_at}), np.int64({n}))
    for t in range({n}):
        sizes[t] = g[O_HLEN + t]
    return sizes


@njit(cache=True, inline='always')
def basic_following(g, s, top, color):
    """How many cards of the seat's hand may follow `top` under `color` (None: the card's own),
    and whether `top` itself may: BasicBot._follow."""{following}


@njit(cache=True)
def basic_flowed(g, s, order, sizes, row, place):
    """engine.bots.flowed: the hand sizes after a play whose flow is row `row` of the tables, for
    the player at `place` named (the same sums in the same order)."""
    m = len(order)
    before = R.floats(g, np.int64({before_at}), np.int64(m))
    for i in range(m):
        before[i] = sizes[order[i]]
    before[0] -= 1
    after = R.floats(g, np.int64({flowed_at}), np.int64({n}))
    R.copy_into(after, sizes)
    for j in range(m):
        x = B_OFFSET[row, place, j]
        for i in range(m):
            x += B_SPREAD[row, place, i, j] * before[i]
        after[order[j]] = x
    return after


@njit(cache=True)
def basic_turn(g, s, cards{runs_arg}):
    """BasicBot's play among the distinct playable `cards` (codegen.bots.bot_turn_function's
    sums): (card, color named or None, player named or None{runs_doc})."""{runs_init}
    sizes = basic_sizes(g)
    order = R.order_in(g, s, np.int64({order_at}))
    team = g[O_TEAMS + s]
    near = 0.0
    for t in order:
        if g[O_TEAMS + t] != team:
            k = 1.0 / (1.0 + sizes[t])
            if k > near:
                near = k
    base = basic_value(g, s, order, sizes)
    pw = B_WPOINTS * (0.5 + near)
    fw = B_WFOLLOW / (sizes[s] if sizes[s] > 1.0 else 1.0)
    after = R.floats(g, np.int64({after_at}), np.int64({n}))
    R.copy_into(after, sizes)
    after[s] -= 1
    plain = B_EFFECT * (basic_value(g, s, order, after) - base)
    best_card = {none}
    best_color = {none}
    best_target = {none}
    best_score = 0.0
    nobody = g[{nobody_at}:{nobody_at} + 1]
    nobody[0] = {none}
    for card in cards:
        bluff = B_BLUFFED[card] != 0 and not basic_honest(g, s, card)
        moved = B_BLUFF_MOVES[card] if bluff else B_MOVES[card]
        score = B_FIT[card] + pw * B_POINTS[card]
        if moved == 0:
            score += plain
        else:
            row = B_BLUFFS[card] if bluff else B_CHANGES[card]
            R.copy_into(after, sizes)
            for place in range(len(order)):
                after[order[place]] += row[place]
            after[order[0]] -= 1
            score += B_EFFECT * (basic_value(g, s, order, after) - base)
        targets = nobody
{named}
{variants}
    return best_card, best_color, best_target{more}


@njit(cache=True)
def basic_play(g, s, at, count):
    """BasicBot's play among the `count` distinct playable cards at `at` in the game's memory (a
    turn's, or the card just drawn): (card, color, player named). Asked with numbers, it is
    compiled once, on its own (native.far), where basic_turn, handed an array, is compiled again
    into every function that calls it."""
    {play}


@njit(cache=True, inline='always')
def basic_drawn(g, s, card):
    """BasicBot plays the card it drew whenever it may: its play's variant weighed as a turn's."""
    g[{one_at}] = card
    return basic_play(g, s, np.int64({one_at}), np.int64(1))


@njit(cache=True)
def basic_card(g, s, options):
    """BasicBot's card among `options` (never empty): the first most worth playing now, hard to
    play later and heavy in points as an opponent nears going out (_shed_value's sums)."""
    team = g[O_TEAMS + s]
    near = 0.0
    for t in R.order_in(g, s, np.int64({order_at})):
        if t != s and g[O_TEAMS + t] != team:
            k = 1.0 / (1.0 + g[O_HLEN + t])
            if k > near:
                near = k
    pw = B_WPOINTS * (0.5 + near)
    best = options[0]
    best_value = B_FIT[best] + pw * B_POINTS[best]
    for c in options:
        value = B_FIT[c] + pw * B_POINTS[c]
        if value > best_value:
            best, best_value = c, value
    return best


@njit(cache=True)
def basic_seat(g, s, options):
    """BasicBot's player among `options` (never empty): the first opponent holding fewest cards,
    else itself or a partner holding fewest (a choice it may decline it makes all the same)."""
    team = g[O_TEAMS + s]
    best = options[0]
    best_side = 2
    best_size = 0
    for t in options:
        side = 1 if g[O_TEAMS + t] == team else 0
        size = g[O_HLEN + t]
        if side < best_side or (side == best_side and size < best_size):
            best, best_side, best_size = t, side, size
    return best


@njit(cache=True)
def basic_color(g, s, options):
    """BasicBot's color among `options`: the first that leaves most of its hand able to follow
    the top card (a choice it may decline it makes all the same); None when there is none."""
    if len(options) == 0:
        return {none}
    top = R.top(g) if g[{S_DISCARD_LEN}] > 0 else {none}
    best = 0
    most = -1
    for i in range(len(options)):
        k = 0
        if top != {none}:
            k, _ = basic_following(g, s, top, options[i])
        if k > most:
            best, most = i, k
    return options[best]


@njit(cache=True)
def basic_answer(g, s, q, count):
    """BasicBot._answer to question `q` (of `count` answers): the index of the answer that
    measurably costs least given the asker's hand, ties drawn from the generator; an answer drawn
    at random when nothing was measured."""
    if count == 1:
        return 0
    if B_MEASURED[q] == 0:
        return np.int64(R.rand(g) * count)
    asker = g[{S_TURN}]
    held = g[O_HLEN + asker]
    bucket = len(B_BUCKETS)
    for i in range(len(B_BUCKETS)):
        if held <= B_BUCKETS[i]:
            bucket = i
            break
    sizes = basic_sizes(g)
    order = R.order_in(g, s, np.int64({order_at}))
    after = R.floats(g, np.int64({after_at}), np.int64({n}))
    values = R.new_reals(count)
    best = -np.inf
    for i in range(count):
        value = 0.0
        if B_ANSWERED[q, i] != 0:
            R.copy_into(after, sizes)
            after[s] += B_ANSWER_OWN[q, i, bucket]
            if asker != s:
                after[asker] += B_ANSWER_ASKER[q, i, bucket]
            value = basic_value(g, s, order, after)
        values[i] = value
        if value > best:
            best = value
    ties = 0
    for i in range(count):
        if values[i] >= best - B_TIE:
            ties += 1
    pick = np.int64(R.rand(g) * ties) if ties > 1 else 0
    for i in range(count):
        if values[i] >= best - B_TIE:
            if pick == 0:
                return i
            pick -= 1
    return 0
'''

# The functions above, and the one the writer lowers from the rules' honesty tests.
FUNCTIONS = ("basic_turn", "basic_flowed", "basic_play", "basic_drawn", "basic_card", "basic_seat", "basic_color", "basic_answer", "basic_honest")

# basic_following's body: from the table of which card may follow which under which color, or,
# where the match rules read more than the cards and the color, the cards of that color (as
# BasicBot._follow counts them there).
FOLLOWING_MATCH = """
    if color == {none}:
        color = B_CARD_COLOR[top]
    c = {k} if color < 0 else color
    h = O_HANDS + s * {cap}
    k = 0
    for i in range(g[O_HLEN + s]):
        if MATCH[top, c, g[h + i]] != 0:
            k += 1
    return k, MATCH[top, c, top] != 0"""
FOLLOWING_COLOR = """
    if color == {none}:
        color = B_CARD_COLOR[top]
    h = O_HANDS + s * {cap}
    k = 0
    for i in range(g[O_HLEN + s]):
        if B_CARD_COLOR[g[h + i]] == color:
            k += 1
    return k, B_CARD_COLOR[top] == color"""

# In basic_turn, each variant of a card's play weighed (`_best`'s sums): those of the card's own
# play, or, where the rules play runs of cards, those of the card alone and then of each run from it
# (LegalActions._plays' order: the colors its last card's play asks for), the first weighed most
# taken with its run.
VARIANTS_HEAD = """
        flow = B_FLOW_ROW[card]
        at = B_VARIANT_AT[card]
        for v in range(B_VARIANTS[card]):
            color = B_VARIANT_COLOR[at + v]"""
RUNS_HEAD = """
        flow = B_FLOW_ROW[card]
        st = R.run_search(g, s, card, np.int64({most}))
        if runs:
            run_extend(g, s, st, card)
        found = R.run_found(st)
        for ri in range(len(found)):
            more = found[ri]
            last = more[len(more) - 1] if len(more) > 0 else card
            at = B_VARIANT_AT[last]
            for v in range(B_VARIANTS[last]):
                color = B_VARIANT_COLOR[at + v]"""
WEIGH = """            k, follows = basic_following(g, s, card, color)
            if follows:
                k -= 1
            for target in targets:
                worth = score
                if flow >= 0:
                    place = 0
                    if target != {none}:           # (a player out of the order of play: no flow)
                        place = -1
                        for i in range(len(order)):
                            if order[i] == target:
                                place = i
                                break
                    if place >= 0 and B_FLOW_HAS[flow, place] != 0:
                        worth = B_FIT[card] + pw * B_POINTS[card] + B_EFFECT * (
                            basic_value(g, s, order, basic_flowed(g, s, order, sizes, flow, place)) - base)
                total = worth + fw * k
                if best_card == {none} or total > best_score:
                    best_card, best_color, best_target, best_score = card, color, target, total"""


def turn_parts(runs: bool, none: int, most: int) -> dict:
    """SOURCE's parts of basic_turn and basic_drawn that differ where the rules play runs of
    cards: basic_turn then also searches each card's runs (not for a drawn card, played alone)
    and returns the run its play goes on with."""
    weigh = WEIGH.format(none=none)
    if not runs:
        return {"variants": VARIANTS_HEAD.lstrip("\n") + "\n" + weigh, "more": "", "runs_arg": "", "runs_doc": "",
                "runs_init": "", "play": "return basic_turn(g, s, g[at:at + count])"}
    weigh = "\n".join("    " + line for line in weigh.splitlines())
    weigh += "\n                        best_more = more"
    return {"variants": RUNS_HEAD.format(most=most).lstrip("\n") + "\n" + weigh, "more": ", best_more",
            "runs_arg": ", runs", "runs_doc": ",\n    and the cards played after it: a run, or none",
            "runs_init": "\n    best_more = R.new_ints(np.int64(0))",
            "play": "card, color, target, _ = basic_turn(g, s, g[at:at + count], np.bool_(False))\n    return card, color, target"}


# In basic_turn, where some card's play names a player: the players it may name (play_targets,
# the writer's), each a variant of the play as Game._plays lists them (colors, then players).
NAMED = """        if B_NAMES[card] != 0:
            targets = play_targets(g, s, card)
            if len(targets) == 0:
                targets = nobody"""
