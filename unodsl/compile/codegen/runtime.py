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


def drive(g, program):
    """Run a generic generator (a program without a template, the end of a round) to its end
    inside the simulator's loop, answering each decision as the seat's bot would."""
    value = None
    while True:
        try:
            d = program.send(value)
        except StopIteration as stop:
            return stop.value
        g.decision, g._legal = d, None
        if g._code.scan is not None:          # a bot that acts out of turn looks at the windows first
            start, g._scan_from = g._scan_from, 0
            if g.windows:
                g._code.scan(g, start, False)     # (no turn is decided here)
            g._legal = None
        action = g._seat_bot.choose(g, g.legal_actions())
        value = action if d.kind in ("turn", "drawn", "more") else g._validate(d, action)


# ---- the basic bot's judgements (engine.bots.BasicBot), for its choices written into the loop ------
def bot_best_color(g, seat):
    """The color the seat holds most of (the first of them in the rules' order)."""
    table = g.rules.cards.color
    counts: dict = {}
    for c in g.hands[seat]:
        color = table[c]
        if color is not None:
            counts[color] = counts.get(color, 0) + 1
    best, most = None, -1
    for color in g.rules.colors:
        k = counts.get(color, 0)
        if k > most:
            best, most = color, k
    return best


def bot_weakest(g, seat):
    """The opponent (else any other player) holding the fewest cards, the first of them."""
    hands = g.hands
    return min(g.opponents(seat) or g.others(seat) or (None,), key=lambda s: len(hands[s]) if s is not None else 0)


def bot_fewest(g, options):
    """The player among `options` holding the fewest cards, the first of them."""
    hands = g.hands
    return min(options, key=lambda s: len(hands[s]))


def bot_target_ok(g, seat, card, target) -> bool:
    """Whether some play of the card names `target` (or nobody)."""
    return any(a.target is None or a.target == target for a in g._plays(seat, card))


def bot_target(g, seat, card, target):
    """The player a play of the card names: `target` when it may, else the first it may name."""
    named = [a.target for a in g._plays(seat, card)]
    return target if target in named else named[0]


BOT_HELPERS = {"bot_best_color": bot_best_color, "bot_weakest": bot_weakest, "bot_fewest": bot_fewest,
               "bot_target_ok": bot_target_ok, "bot_target": bot_target}
