"""A worked scoring example, played by the engine itself on a small made-up position.

The first player goes out with a card that has no effect of its own; the others hold a spread of
the deck's cards. The engine then scores the round as the rules say, so the example can never
disagree with the game: the sheet only reports the cards held and the points the engine gave.
"""
from __future__ import annotations

from ..lang import ast as A

from .deck import card_picture
from .describe import and_list, plural

NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jun")


def _plain_cards(rules) -> list:
    """Card ids that do nothing when played (no effect of their own), in deck order."""
    seen, out = set(), []
    for card in rules.deck:
        if card not in seen:
            seen.add(card)
            if rules.on_play[card] is None:
                out.append(card)
    return out


def _spread(rules, count: int, avoid: set) -> list:
    """`count` distinct cards of different kinds where possible, highest points first."""
    by_kind: dict = {}
    for card in dict.fromkeys(rules.deck):
        if card not in avoid:
            by_kind.setdefault(rules.cards.kind[card], []).append(card)
    picks = []
    kinds = list(by_kind)
    k = 0
    while len(picks) < count and any(by_kind.values()):
        pool = by_kind[kinds[k % len(kinds)]]
        if pool:
            picks.append(pool.pop(len(pool) // 2))
        k += 1
    return picks


def _scores_card_points(rules) -> bool:
    """Whether the round's scoring reads the points of cards (its own, or through named statements)."""
    defs = getattr(rules, "definitions", None) or None
    return any(isinstance(n, A.Attr) and n.name == "points"
               for decl in rules.composed.decls(A.OnRoundEnd) for n in A.walk(decl, defs))


def worked_example(rules, d) -> dict | None:
    """{"text", "hands": [{"name", "pictures", "points"}], "result"} or None when no position fits."""
    from ..engine.game import Game, Position
    if not _scores_card_points(rules):
        return None                 # the hands' points play no part: an example would show nothing
    low, high = rules.players
    n = 3 if low <= 3 <= high else low
    plain = _plain_cards(rules)
    for last in plain:
        tops = [c for c in plain if c != last and last in rules.playable_set(c, rules.cards.color[c])]
        if not tops:
            continue
        top = tops[0]
        others = _spread(rules, 3 * (n - 1), {last, top})
        if len(others) < 3 * (n - 1):
            return None
        hands = [[last]] + [others[i::n - 1] for i in range(n - 1)]
        stock = [c for c in dict.fromkeys(rules.deck) if c not in others and c not in (last, top)][:10]
        try:
            game = Game(rules, n, seed=0, position=Position(hands=hands, discard=[top], stock=stock, turn=0),
                        generated=False)
            play = next(a for a in game.legal_actions() if a.verb == "play" and a.card == last)
            game.apply(play)
        except Exception:        # a ruleset whose round cannot end this way: no example
            continue
        if not game.round_over:
            continue
        held = []
        for s in range(1, n):
            pts = [rules.cards.points[c] for c in hands[s]]
            held.append({"name": NAMES[s], "pictures": [card_picture(rules, c, 20) for c in hands[s]],
                         "sum": " + ".join(str(p) for p in pts) + f" = {sum(pts)}",
                         "cards": and_list([rules.cards.name[c] for c in hands[s]])})
        gains = [(NAMES[s], game.round_points[s]) for s in range(n) if game.round_points[s]]
        if not gains:
            result = "Nobody scores this round."
        else:
            result = and_list([f"{name} scores {p} {plural(p, 'point')}" for name, p in gains]) + "."
        return {"goes_out": NAMES[0], "last": card_picture(rules, last, 20), "last_name": rules.cards.name[last],
                "hands": held, "result": result}
    return None
