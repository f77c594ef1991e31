"""Actions as people write them: `play W+4 blue`, `draw`, `catch p2`, `choose red`.

One parser serves scenario steps, the terminal prompt and event logs, so all three read moves the
same way. Card codes and colors come from the ruleset (case-insensitive); seats are p1..pN.
"""
from __future__ import annotations

import re

from ..compile.decisions import Action
from ..compile.ruleset import Ruleset
from ..lang import ast as A
from ..lang.diagnostics import suggest

_SEAT = re.compile(r"^p(\d{1,9})$", re.IGNORECASE)


class ActionSyntaxError(ValueError):
    """The text is not a move this ruleset understands; the message says what was expected."""


def parse_seat(word: str, players: int) -> int:
    m = _SEAT.match(word.strip())
    if not m or not 1 <= int(m.group(1)) <= players:
        raise ActionSyntaxError(f"`{word}` is not a player: use p1 to p{players}")
    return int(m.group(1)) - 1


def parse_color(rules: Ruleset, word: str) -> str | None:
    w = word.lower()
    for name in rules.colors:
        if w == name.lower() or w == rules.color_codes[name].lower():
            return name
    return None


def parse_card(rules: Ruleset, word: str) -> int:
    card = rules.codes.get(word.upper())
    if card is None:
        raise ActionSyntaxError(f"no card has the code `{word}`. " +
                                (suggest(word.upper(), rules.codes, "Did you mean") or "Codes look like " +
                                 ", ".join(rules.cards.code[i] for i in range(0, rules.size, max(1, rules.size // 6)))))
    return card


def answer_words(rules: Ruleset) -> set:
    """Verbs that answer a question of the rules (challenge, accept ...) or act in a window."""
    words = set(rules.window_verbs())
    if rules.composed is not None:
        for _, decl, _ in rules.composed.items:
            for node in A.walk(decl):
                if isinstance(node, A.Ask):
                    words |= {a.name for a in node.answers}
    return words


def parse_action(rules: Ruleset, seat: int | None, text: str, players: int, answers: set | None = None) -> Action:
    """Read one move as typed; raise ActionSyntaxError with a helpful message when it is not one."""
    words = text.strip().split()
    if not words:
        raise ActionSyntaxError("empty move: type for example `play R5`, `draw` or `help`")
    verb = words[0].lower()
    rest = words[1:]
    answers = answer_words(rules) if answers is None else answers
    if verb in ("play", "jump") or verb in rules.card_verbs():
        if not rest:
            raise ActionSyntaxError(f"`{verb}` needs a card: {verb} CODE [COLOR] [pN]")
        card = parse_card(rules, rest[0])
        color = target = call = None
        more = []
        calls = rules.call_verbs() if verb == "play" else ()
        for w in rest[1:]:
            if w.lower() in calls:
                call = w.lower()
            elif _SEAT.match(w):
                target = parse_seat(w, players)
            elif parse_color(rules, w) is not None:
                color = parse_color(rules, w)
            elif rules.runs is not None and w.upper() in rules.codes and color is None and target is None:
                more.append(rules.codes[w.upper()])     # a run: the cards after the first, in order
            else:
                what = [f"a {rules.color_word} ({', '.join(rules.colors)})", "a player"]
                what += [f"`{c}`" for c in calls]
                raise ActionSyntaxError(f"`{w}` is not " + ", ".join(what[:-1]) + " or " + what[-1])
        return Action(seat, verb, card, color, target, call=call, more=tuple(more))
    if verb in ("draw", "keep", "pass", "deal") or (verb in answers and not rest):
        if rest:
            raise ActionSyntaxError(f"`{verb}` takes nothing after it")
        return Action(seat, verb)
    if verb == "choose":
        if len(rest) != 1:
            raise ActionSyntaxError("`choose` takes one answer: a color, a player (pN) or a word")
        w = rest[0]
        if _SEAT.match(w):
            return Action(seat, "choose", target=parse_seat(w, players), answer=w.lower())
        if w.upper() in rules.codes and parse_color(rules, w) is None:
            return Action(seat, "choose", answer=w.upper())
        color = parse_color(rules, w)
        return Action(seat, "choose", answer=color if color is not None else w.lower(), color=color)
    if verb in answers:
        if len(rest) != 1:
            raise ActionSyntaxError(f"`{verb}` takes one player: {verb} pN")
        return Action(seat, verb, target=parse_seat(rest[0], players))
    known = sorted({"play", "draw", "keep", "choose"} | answers)
    raise ActionSyntaxError(f"unknown move `{verb}`. " + (suggest(verb, known, "Did you mean") or "Moves: " + ", ".join(known)))


def format_action(rules: Ruleset, a: Action) -> str:
    """The text form of an action, which parse_action reads back to the same action."""
    parts = [a.verb]
    if a.card is not None:
        parts.append(rules.code(a.card))
    parts += [rules.code(c) for c in a.more]
    if a.verb == "choose":
        if a.target is not None:
            parts.append(f"p{a.target + 1}")
        elif a.answer is not None:
            parts.append(a.answer)
        return " ".join(parts)
    if a.color is not None:
        parts.append(a.color)
    if a.target is not None:
        parts.append(f"p{a.target + 1}")
    if a.call is not None:
        parts.append(a.call)
    return " ".join(parts)
