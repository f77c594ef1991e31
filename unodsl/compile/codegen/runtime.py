"""What generated code calls at run time besides the Game itself: small helpers with the
generic closures' exact semantics, and the driver that runs a generic program inside the
simulator's loop."""
from __future__ import annotations


def seats(value) -> tuple:
    """A seat or seats as a tuple, as the generic statements take `who`."""
    if value is None:
        return ()
    if isinstance(value, tuple):
        return value
    return (value,)


def floordiv(a, b):
    return a // b if b else 0


def mod(a, b):
    return a % b if b else 0


def card_attr(table, card):
    return None if card is None else table[card]


def seat_attr(getter, g, seat):
    return None if seat is None else getter(g, seat)


class RunSearch:
    """The search of every run of cards seat `s` may play after the card `first`, in the order
    LegalActions.runs_from finds them (depth first, at most `limit` runs), with the generated
    loop's `run_extend` testing each card: its state, the cards left at each depth of the run
    found so far. `found` starts with the card alone: no cards after it."""
    __slots__ = ("limit", "found", "run", "left")

    def __init__(self, g, s, first, limit):
        hand = list(g.hands[s])
        hand.remove(first)
        self.limit, self.found, self.run, self.left = limit, [()], [], [hand]


def run_options(g, st) -> list:
    """The distinct cards left, that may come next in the run found so far."""
    return g.rules.distinct(st.left[-1])


def run_take(st, card) -> bool:
    """`card` follows the run found so far: one more run, searched on from next; False once
    the search has found as many runs as it may."""
    st.run.append(card)
    st.found.append(tuple(st.run))
    rest = list(st.left[-1])
    rest.remove(card)
    st.left.append(rest)
    return len(st.found) - 1 < st.limit


def run_back(st) -> None:
    """Every run going on from the last card taken is found: back to the run before it."""
    st.run.pop()
    st.left.pop()


def run_found(st) -> list:
    return st.found


def read_generic(fn, ctx, rank):
    """A card property worked out in play by its compiled expression (where codegen has no
    template for it), in a context whose `card` is the card read; `rank` is its rank."""
    ctx.vars["rank"] = rank
    return fn(ctx)


def run_program(g, program, answer, value=None):
    """Run a generic generator (a program without a template, the end of a round) to its end
    inside the simulator's loop, each decision it yields answered by `answer(g, decision)`;
    `value` answers the decision a generator already started waits on."""
    while True:
        try:
            d = program.send(value)
        except StopIteration as stop:
            return stop.value
        value = answer(g, d)


def random_answer(g, d):
    """A decision answered as the seat's random bot would answer it."""
    g.decision, g._legal = d, None
    action = g._seat_bot.choose(g, g.legal_actions())
    return action if d.kind in ("turn", "drawn", "more") else g._validate(d, action)


def drive(g, program):
    """A generic program run inside the loop of the random seats."""
    return run_program(g, program, random_answer)


def pose(g, d):
    """A decision comes up in a seat bot's loop: first the seats a written-out offer still owes
    their chance act (an action out of turn lets them act as it asks its first question, before
    it is answered, as the step API does: codegen.offer), then those the last choice left due."""
    g.decision, g._legal = d, None
    if g._waiting_offer is not None:
        g._code.offer_rest(g)
    if g._out_of_turn_due:
        g._out_of_turn_due = False
        if g.windows:
            g.offer_out_of_turn()


def ask(g, d):
    """A decision taken inside the simulator's loop as the step API takes it when the seat's own
    bot plays every seat (`generate(..., bot=True)`): first the out-of-turn actions due (`pose`),
    then the bot's choice among the legal actions, or,
    for the table (a decision of no seat), one drawn uniformly. The action for a play's decision,
    else the value the game takes."""
    pose(g, d)
    actions = g.legal_actions()
    if d.seat is None:
        action = actions[int(g._seat_rand() * len(actions))]
    else:
        action = g._seat_bot.choose(g, actions)
        g._out_of_turn_due = True
    if d.kind == "turn":
        g._note_turn(d.seat, action.verb)
    return action if d.kind in ("turn", "drawn", "more") else g._validate(d, action)


def drive_bot(g, program):
    """A generic program run inside the loop of a seat bot, its decisions taken as `ask` takes them."""
    return run_program(g, program, ask)


def answer_out_of_turn(g):
    """The action out of turn waiting on its first question in a seat bot's loop (Game._asking)
    run to its end, that question and the others it asks taken as `ask` takes them: the others'
    chances to act out of turn came first, as the step API gives them."""
    program, g._asking = g._asking, None
    run_program(g, program, ask, ask(g, g.decision))
