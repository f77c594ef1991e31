"""A seat bot's actions out of turn written into its generated loop (`generate(..., bot=True)` with
the bot's tables): the offer after each choice, as Windows.offer_out_of_turn makes it.

The generic offer finds the seats that may act by building a context and calling each open
window's closures, lists every action of every seat, and takes the chosen one through
Game.apply, which checks it again and runs its program through the interpreter. Written out
here, the same steps use what the windows mean as codegen writes it once for every engine
(LoopWriter.window_functions: whether a window holds, an action's card test, its program) and
the cards an action passes as a table per top card and color:

  - `bot_out_of_turn(g, t)`: BasicBot.out_of_turn over Windows.window_actions, the bot's
    weighing written out from its tables (codegen.bots.weigh_action), each action of each
    open window weighed with the first card it may be taken with (the bot weighs an action by
    what it is, whom it is on and whether it plays a card: the other cards are worth the same);
  - `offer_out_of_turn(g)` and `offer_rest(g)`: the offer, the seats that may act found as
    Windows.acting_seats finds them, then asked in Windows.out_of_turn_order;
  - `take_out_of_turn(g, action)`: Windows._window_action for an action the bot chose (so it
    is one the window offers now). An action that may ask questions runs to its end in place,
    as the seat bot's loop runs a play; the step API lets the others act once its first
    question is asked, before it is answered, so the offer's other seats wait on the Game
    (`_waiting_offer`) and that question gives them their chance first (runtime.pose).

Nothing here names a window, verb or card: the rules' windows are numbered in order, their
actions in order across them.
"""
from __future__ import annotations

from .bots import weigh_action
from .expressions import Env


def numbered_actions(rules) -> list:
    """(window number, action) for every action out of turn, numbered in order across windows."""
    return [(i, a) for i, w in enumerate(rules.windows) for a in w.actions]


def offer_functions(writer) -> tuple:
    """The functions above, for the writer's ruleset and table size."""
    return choice_function(writer), offer_function(writer), rest_function(), take_function(writer)


def _each_window(writer, per_window) -> list:
    """Lines running `per_window(i, window, ind)` for each open window that still holds
    (Windows._window_holds: its opening condition, as `window_holds` writes it), with `s` its
    player and `card` the card it opened on (the Game's windows, in the order opened)."""
    L = [(1, "for (name, s), (rule, card) in g.windows.items():")]
    for i, w in enumerate(writer.r.windows):
        L += [(2, f"{'if' if i == 0 else 'elif'} name == {w.name!r}:")]
        inner = per_window(i, w, 4) or [(4, "pass")]
        if w.opens_expr is None:
            L += [(ind - 1, text) for ind, text in inner]
            continue
        env = Env(player="s", actor="s", card=None if w.state else "card")
        lines, test = writer.condition(w.opens_expr, w.opens, env, 3)
        L += [*lines, (3, f"if {test}:"), *inner]
    return L


def _turn_line(writer) -> list:
    """`turn = ` whether an action that may ask questions may be taken now
    (Windows._interrupt_allowed), where some action with a card may ask."""
    if any(a.card_test is not None and a.program.plain is None for _, a in numbered_actions(writer.r)):
        return [(1, "d = g.decision"), (1, "turn = d is not None and d.kind == 'turn'")]
    return []


def _seats(who: str, ind: int) -> tuple:
    """(lines, indent) binding `t` to each seat that may take an action of `who` in the window
    open for `s` (Windows._may_act)."""
    if who == "player":
        return [(ind, "t = s")], ind
    if who == "others":
        return [(ind, "for t in ALL_SEATS:"), (ind + 1, "if t != s:")], ind + 2
    return [(ind, "for t in ALL_SEATS:")], ind + 1


def _cards(writer, k: int, a, ind: int) -> list:
    """`cards = ` the cards of seat t's hand, in the order it holds them, that action k may be
    taken with in the window open for `s` (Windows._window_cards: its card test, as a table per
    top card and color where it reads only those)."""
    if a.card_static:
        act = writer.const(a, "ACT")
        return [(ind, f"ok = rules.window_card_set({act}, g.discard[-1], g.color)"),
                (ind, f"cards = [c for c in {writer.distinct('g.hands[t]')} if c in ok]")]
    return [(ind, f"cards = [c for c in {writer.distinct('g.hands[t]')} if window_card(g, {k}, t, s, c)]")]


def _usable(writer, a, ind: int) -> list:
    """`usable = ` the cards action `a` may be taken with now, whoever holds them
    (Ruleset.window_usable_set), kept per top card and color: for a card test that reads only
    those, on cards of one face."""
    act = writer.const(a, "ACT")
    writer.ns.setdefault(f"{act}_USABLE", {})
    return [(ind, "top = (g.discard[-1], g.color)"),
            (ind, f"usable = {act}_USABLE.get(top)"),
            (ind, "if usable is None:"),
            (ind + 1, f"usable = {act}_USABLE[top] = rules.window_usable_set({act}, *top)")]


def _acting_seats(writer) -> list:
    """Lines setting `can[t]` for each seat t with some action out of turn open to it
    (Windows.acting_seats)."""
    n, faces = writer.n, writer.r.faces
    writer.ns["ALL_SEATS"] = tuple(range(n))

    def per_window(i, w, ind):
        L = []
        for k, a in numbered_actions(writer.r):
            if a not in w.actions:
                continue
            at = ind
            if a.card_test is not None and a.program.plain is None:
                L += [(at, "if turn:")]
                at += 1
            usable = a.card_test is not None and a.card_static and not faces
            if usable:
                L += _usable(writer, a, at)
            if a.who == "anyone" and a.card_test is None:     # every seat at once
                L += [(at, f"can = [True] * {n}")]
                continue
            if a.who == "anyone" and usable:    # each seat written out: no loop to run
                L += [(at, "hands = g.hands"),
                      (at, "can = [{}]".format(", ".join(f"can[{t}] or not usable.isdisjoint(hands[{t}])"
                                                         for t in range(n))))]
                continue
            seats, inner = _seats(a.who, at)
            L += seats + [(inner, "if not can[t]:")]
            if a.card_test is None:
                L += [(inner + 1, "can[t] = True")]
            elif usable:
                L += [(inner + 1, "can[t] = not usable.isdisjoint(g.hands[t])")]
            else:
                L += _cards(writer, k, a, inner + 1) + [(inner + 1, "can[t] = any(PLAY_COLORS[c] for c in cards)")]
        return L

    return [(1, f"can = [False] * {n}"),
            *_each_window(writer, per_window),
            (2, "if False not in can:"), (3, "break")]


def choice_function(writer) -> list:
    """`bot_out_of_turn(g, t)`: the action out of turn seat t's bot takes now, or None, as
    BasicBot.out_of_turn chooses among Windows.window_actions: the actions open to it in the
    order listed, each weighed by what it is, whom it is on and whether it plays a card
    (codegen.bots.weigh_action), the first worth most (and more than nothing) taken, with the
    first card it may be taken with (the others are worth the same)."""
    def consider(a, subject: str, own: bool, card: str, color: str, ind: int) -> list:
        played = a.card_test is not None
        value = weigh_action(writer, a.verb, own, played, ind + 1)
        if not value:           # never measured: never taken
            return []
        target = "None" if a.who == "player" else "s"
        return [(ind, f"key = ({a.verb!r}, {subject}, {played})"),
                (ind, "if key not in weighed:"),
                (ind + 1, "weighed.add(key)"),
                (ind + 1, "if base is None:"),
                (ind + 2, "sizes = [len(h) for h in g.hands]"),
                (ind + 2, f"order = {writer.order_from('t')}"),
                (ind + 2, "teams = g.teams"),
                (ind + 2, "base = hands_value(t, order, teams, sizes, B_THREAT)"),
                *value,
                (ind + 1, "if value > best_value + 1e-9:"),
                (ind + 2, f"best, best_value = Action(t, {a.verb!r}, {card}, {color}, {target}), value")]

    def weigh(a, ind):
        """The lines weighing action a for seat t, on itself or on `s` as its `who` says."""
        card, color = ("c", "PLAY_COLORS[c][0]") if a.card_test is not None else ("None", "None")
        if a.who == "player":
            return consider(a, "t", True, card, color, ind)
        if a.who == "others":
            return consider(a, "s", False, card, color, ind)
        return [(ind, "if t == s:"), *(consider(a, "s", True, card, color, ind + 1) or [(ind + 1, "pass")]),
                (ind, "else:"), *(consider(a, "s", False, card, color, ind + 1) or [(ind + 1, "pass")])]

    def per_window(i, w, ind):
        L = []
        for k, a in numbered_actions(writer.r):
            if a not in w.actions:
                continue
            at = ind
            test = {"player": "t == s", "others": "t != s", "anyone": None}[a.who]
            if a.card_test is not None and a.program.plain is None:
                test = f"turn and {test}" if test else "turn"
            if test:
                L += [(at, f"if {test}:")]
                at += 1
            if a.card_test is None:
                L += weigh(a, at) or [(at, "pass")]
                continue
            if a.card_static and not writer.r.faces:     # (the first card held in `usable`)
                L += _usable(writer, a, at) + [
                    (at, "for c in g.hands[t]:"),
                    (at + 1, "if c in usable:"),
                    *weigh(a, at + 2),
                    (at + 2, "break")]
                continue
            L += _cards(writer, k, a, at) + [
                (at, "for c in cards:"),
                (at + 1, "if PLAY_COLORS[c]:"),
                *weigh(a, at + 2),
                (at + 2, "break")]
        return L

    return [(0, "def bot_out_of_turn(g, t):"), *_turn_line(writer),
            (1, "best = base = None"), (1, "best_value = 0.0"), (1, "weighed = set()"),
            *_each_window(writer, per_window), (1, "return best")]


def offer_function(writer) -> list:
    """`offer_out_of_turn(g)`: every seat that may act is asked whether it does; those that want
    to act do, in the order the Game gives them, the first with the action it chose, the others
    asked again when their chance comes (`offer_rest`)."""
    return [(0, "def offer_out_of_turn(g):"),
            *_turn_line(writer), *_acting_seats(writer),
            (1, "if True not in can:"), (2, "return"),
            (1, "wants = {}"),
            (1, "for t in ALL_SEATS:"),
            (2, "if can[t]:"),
            (3, "act = bot_out_of_turn(g, t)"),
            (3, "if act is not None:"), (4, "wants[t] = act"),
            (1, "if wants:"),
            (2, "order = g.out_of_turn_order(wants, g._seat_bot.rng)"),
            (2, "g._waiting_offer = iter(order[1:])"),
            (2, "take_out_of_turn(g, wants[order[0]])"),
            (2, "offer_rest(g)")]


def rest_function() -> list:
    """`offer_rest(g)`: the offer's seats still waiting for their chance, each asked again (an
    earlier action may have changed its mind). An action taken here that asks a question gives
    the seats after it their chance as it asks (runtime.pose), from the same iterator."""
    return [(0, "def offer_rest(g):"),
            (1, "rest = g._waiting_offer"),
            (1, "if rest is None:"), (2, "return"),      # (given as a question was asked)
            (1, "for t in rest:"),
            (2, "act = bot_out_of_turn(g, t)"),
            (2, "if act is not None:"), (3, "take_out_of_turn(g, act)"),
            (1, "g._waiting_offer = None")]


def take_function(writer) -> list:
    """`take_out_of_turn(g, action)`: Windows._window_action for an action the bot chose among
    the options the windows offer now: only whether its seat still plays is checked. A verb
    more than one action uses is left to the Game, which finds the window it is taken in."""
    r = writer.r
    actions = numbered_actions(r)
    verbs = [a.verb for _, a in actions]
    writer.ns.update(A_AT={v: k for k, v in enumerate(verbs) if verbs.count(v) == 1},
                     A_OWN=tuple(a.who == "player" for _, a in actions),
                     A_WINDOW=tuple(r.windows[i].name for i, _ in actions),
                     A_ASKS=tuple(a.program.plain is None for _, a in actions))
    asking = any(a.program.plain is None for _, a in actions)
    plain = any(a.program.plain is not None for _, a in actions)
    args = "g, a, t, s, action.card, action.color, action.target"
    run_asking = [(2, "g._played_this_turn = False"),
                  (2, f"window_act_asking({args})"),
                  (2, "move_on(g)")]
    run_plain = [(2, "outer = g._journal"), (2, "g._journal = None"),
                 (2, f"window_act_plain({args})"),
                 (2, "g._journal = outer"),
                 *([(2, "g._settle_out_of_turn(None)")] if r.settles else [])]
    if asking and plain:
        run = [(1, "if A_ASKS[a]:"), *run_asking, (1, "else:"), *run_plain]
    else:
        run = [(i - 1, text) for i, text in (run_asking if asking else run_plain)]
    return [(0, "def take_out_of_turn(g, action):"),
            (1, "t = action.seat"),
            (1, "a = A_AT.get(action.verb)"),
            (1, "if a is None:"),
            (2, "try:"), (3, "g.apply(action)"),
            (2, "except Refused:"), (3, "pass"),
            (2, "return"),
            (1, "if g.inactive[t] or g._count_out_of_turn():"), (2, "return"),
            (1, "s = t if A_OWN[a] else action.target"),
            (1, "del g.windows[(A_WINDOW[a], s)]"),
            (1, "g._legal = None"),
            *run]

