"""Examples of play for a sheet, drawn from scenario files: the position, the moves, and what the
scenario's expectations say follows, with the cards pictured.

Only what a scenario states is said (its setup, its steps and its `expect:`), and only scenarios
the test suite runs are shown (`unodsl.front.sheet_examples` finds them and runs them first), so
a sheet's examples are what the tests prove. Seats get first names (Ana, Ben ...): a rule book
speaks of people, not of p1 and p2.
"""
from __future__ import annotations

from ..engine.actions import ActionSyntaxError, answer_words, parse_action
from ..lang import ast as A
from .deck import card_picture
from .describe import Describer, and_list, capital, humanize, plural
from .scoring import NAMES

SEAT_WORDS = {f"p{i + 1}": name for i, name in enumerate(NAMES)}


def _name(seat) -> str:
    return SEAT_WORDS.get(str(seat).lower(), str(seat))


def _cards(rules, codes) -> list:
    ids = []
    for code in codes or []:
        card = rules.codes.get(str(code).upper())
        if card is not None:
            ids.append(card)
    return ids


class _Words:
    """Cards as pictures (HTML) and as names (Markdown), side by side."""

    def __init__(self, rules):
        self.rules = rules

    def cards(self, codes) -> dict:
        ids = _cards(self.rules, codes)
        return {"pictures": [card_picture(self.rules, c, 18) for c in ids],
                "words": and_list([self.rules.cards.name[c] for c in ids])}


def _window_titles(rules) -> dict:
    out = {}
    for w in rules.composed.decls(A.Window):
        for item in w.items:
            if isinstance(item, A.WindowAction):
                out[item.verb] = w.title
    return out


def _move(rules, w: _Words, seat_word, text, players, rejected: bool) -> dict:
    who = _name(seat_word)
    try:
        seat = int(str(seat_word)[1:]) - 1
        a = parse_action(rules, seat, str(text), players, answer_words(rules))
    except (ActionSyntaxError, ValueError):
        return {"who": who, "text": f"does “{text}”", "pictures": [], "words": "", "after": ""}
    pics = w.cards([rules.code(a.card)]) if a.card is not None else {"pictures": [], "words": ""}
    after = ""
    if a.verb == "play":
        verb = "tries to play" if rejected else "plays"
        if a.color is not None:
            after += f" and names {rules.color_titles.get(a.color, a.color)}"
        if a.target is not None:
            after += f" and picks {NAMES[a.target]}"
        if a.call is not None:
            after += f" and says “{humanize(a.call)}” at once"
    elif a.card is not None:
        title = _window_titles(rules).get(a.verb)
        verb = "tries to play" if rejected else "plays"
        after = " out of turn" + (f" ({title.lower()})" if title else "")
    elif a.verb == "draw":
        verb = "draws"
        pics = {"pictures": [], "words": ""}
        after = ""
    elif a.verb == "keep":
        verb = "keeps the drawn card"
    elif a.verb == "pass":
        verb = "passes"
    elif a.verb == "choose":
        choice = a.answer or ""
        if a.color is not None:
            choice = rules.color_titles.get(a.color, a.color)
        elif a.target is not None:
            choice = NAMES[a.target]
        verb = f"chooses {choice}"
    elif a.verb == "deal":
        return {"who": "The next round", "text": "is dealt", "pictures": [], "words": "", "after": ""}
    else:
        label = capital(humanize(a.verb))
        verb = f"says “{label}”"
        if a.target is not None:
            after = f" about {NAMES[a.target]}"
    if a.verb == "draw":
        verb = "tries to draw" if rejected else "draws"
    if rejected:
        after += ", which the rules do not allow"
    return {"who": who, "text": verb, "pictures": pics["pictures"], "words": pics["words"], "after": after}


def _facts(rules, d: Describer, w: _Words, expect: dict, players: int) -> list:
    """What an `expect:` says, in words, in a fixed order."""
    out = []
    for seat, codes in (expect.get("hands") or {}).items():
        c = w.cards(codes)
        out.append({"text": f"{_name(seat)} holds" + ("" if codes else " no cards"), **c, "after": ""})
    for seat, n in (expect.get("hand_sizes") or {}).items():
        out.append({"text": f"{_name(seat)} holds {n} {plural(n, 'card')}", "pictures": [], "words": "", "after": ""})
    simple = []
    if "top" in expect and expect["top"] is not None:
        out.append({"text": "the top card is", **w.cards([expect["top"]]), "after": ""})
    if "color" in expect and expect["color"] is not None:
        color = next((c for c in rules.colors if c.lower() == str(expect["color"]).lower()), expect["color"])
        simple.append(f"the color is {rules.color_titles.get(color, color)}")
    if "direction" in expect:
        simple.append("play goes " + str(expect["direction"]))
    if "pending_draw" in expect and "pending" in rules.counters:
        simple.append(f"{d.counter_phrase('pending')} is {expect['pending_draw']}")
    if expect.get("stock_size") is not None:
        n = expect["stock_size"]
        simple.append(f"{n} {plural(n, 'card')} {'is' if n == 1 else 'are'} left in the stock")
    if expect.get("winner"):
        simple.append(f"{_name(expect['winner'])} wins the round")
    elif expect.get("round_over") is True:
        simple.append("the round is over")
    for seat, n in (expect.get("round_points") or {}).items():
        if n:
            simple.append(f"{_name(seat)} scores {n} {plural(n, 'point')}")
    for seat, n in (expect.get("scores") or {}).items():
        simple.append(f"{_name(seat)} has {n} {plural(n, 'point')} in all")
    if expect.get("eliminated"):
        simple.append(and_list([_name(s) for s in expect["eliminated"]]) + " " +
                      ("is" if len(expect["eliminated"]) == 1 else "are") + " out")
    winners = expect.get("game_winner")
    if winners:
        winners = winners if isinstance(winners, list) else [winners]
        simple.append(and_list([_name(s) for s in winners]) + " " + ("wins" if len(winners) == 1 else "win") + " the game")
    elif expect.get("game_over") is True:
        simple.append("the game is over")
    if expect.get("turn"):
        simple.append(f"it is {_name(expect['turn'])}’s turn")
    if "playable" in expect:
        c = w.cards(expect["playable"])
        out.append({"text": "the cards that may be played are" if expect["playable"] else "no card may be played",
                    **c, "after": ""})
    out.extend({"text": s, "pictures": [], "words": "", "after": ""} for s in simple)
    if out:
        out[0] = {**out[0], "text": capital(out[0]["text"])}
    return out


def _punctuate(items: list) -> None:
    """Clauses joined with semicolons into one sentence."""
    for i, item in enumerate(items):
        item["after"] = item["after"] + (";" if i < len(items) - 1 else ".")


def example_context(rules, example: dict, index: int = 0) -> dict:
    """One example for the templates, from a scenario given as data (as in its file)."""
    d = Describer(rules)
    w = _Words(rules)
    setup = example.get("setup") or {}
    players = int(example.get("players") or max([int(str(s)[1:]) for s in (setup.get("hands") or {})] + [2]))
    position = []
    for seat, codes in (setup.get("hands") or {}).items():
        c = w.cards(codes)
        position.append({"text": f"{_name(seat)} holds", **c, "after": ""})
    discard = setup.get("discard") or ([setup["starter"]] if setup.get("starter") else [])
    if discard:
        position.append({"text": "the top card is", **w.cards(discard[-1:]), "after": ""})
    if setup.get("color"):
        color = next((c for c in rules.colors if c.lower() == str(setup["color"]).lower()), setup["color"])
        position.append({"text": "the color is " + rules.color_titles.get(color, color), "pictures": [],
                         "words": "", "after": ""})
    stock = (setup.get("stock") or [])[:4]
    if stock:
        position.append({"text": "the next cards of the stock are", **w.cards(stock), "after": ""})
    moves, outcome = [], []
    for step in example.get("steps") or []:
        if not isinstance(step, dict):
            continue
        if "expect" in step:
            moves.append({"who": "Then", "text": "" + "; ".join(f["text"] + (" " + f["words"] if f["words"] else "")
                                                                   for f in _facts(rules, d, w, step["expect"], players)).lower(),
                          "pictures": [], "words": "", "after": ""})
            continue
        rejected = bool(step.get("rejected"))
        for seat, text in step.items():
            if seat != "rejected":
                moves.append(_move(rules, w, seat, text, players, rejected))
    if example.get("expect"):
        outcome = _facts(rules, d, w, example["expect"], players)
    _punctuate(position)
    _punctuate(outcome)
    for m in moves:
        m["after"] += "."
    caption = example.get("sheet")
    if not isinstance(caption, str):
        caption = str(example.get("name", "An example"))
    return {"id": f"example-{index + 1}", "caption": caption, "position": position, "moves": moves,
            "outcome": outcome}
