"""Words: small helpers of English, and the nouns of the language's built-in names.

Nothing here knows a card or a variant: the nouns name the language's own words (`next`,
`others`, `card.rank` ...); everything else comes from the rules being described.
"""
from __future__ import annotations

import re

# ---- the nouns of the built-in names ----------------------------------------------------------

_SEATS = {"player": "the player", "next": "the next player", "previous": "the previous player",
          "dealer": "the dealer", "winner": "the winner", "actor": "the caller",
          "left": "the player to the left", "right": "the player to the right"}
# collection name -> (every, any, each, plural, one of them, no one)
_GROUPS = {
    "others": ("every other player", "any other player", "each other player", "the other players",
               "another player", "no other player"),
    "everyone": ("every player", "any player", "each player", "all players", "a player", "no player"),
    "opponents": ("every opponent", "any opponent", "each opponent", "the opponents", "an opponent",
                  "no opponent"),
}
_CARDS = {"card": "the card", "top": "the top card"}
_CARD_FIELDS = {"kind": "kind", "rank": "number", "color": "color", "points": "points", "code": "code",
                "name": "name"}
_SEAT_FIELDS = {"cards", "hand", "points", "score", "team"}
_CMP = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
        ">=": "is at least"}
_NEG_CMP = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
_ARITH = {"+": "plus", "-": "minus", "*": "times", "/": "divided by", "%": "modulo"}
_WHO = {"player": "the player", "others": "any other player", "anyone": "anyone"}

NOTHING = "nothing happens"


def words(text: str) -> list:
    return re.findall(r"[a-z0-9+]+", text.lower())


def same_words(a: str, b: str) -> bool:
    return words(a) == words(b)


def capital(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def sentence_case(text: str) -> str:
    """Capital first letter and a full stop."""
    text = text.strip()
    if not text:
        return text
    text = capital(text)
    return text if text[-1] in ".!?" else text + "."


def and_list(items, word: str = "and") -> str:
    items = [i for i in items if i]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def humanize(name: str) -> str:
    return name.replace("_", " ").replace("-", " ")


def wordish(name: str) -> bool:
    """Whether a name of the rules reads as English once humanized (`no_bet`, `target`), so a
    sheet may use it as a word; `k`, `s2` or `x_1` do not, and get words derived from their use."""
    parts = humanize(name).split()
    return bool(parts) and all(p.isalpha() for p in parts) and len("".join(parts)) >= 3


def number_words(n) -> str:
    """Small whole numbers as words ("two"), others as digits: for sentences a person reads."""
    if isinstance(n, int) and not isinstance(n, bool) and 0 <= n < len(_NUMBER_WORDS):
        return _NUMBER_WORDS[n]
    return str(n)


_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                 "eleven", "twelve")


def fmt_value(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, str):
        return f"“{value}”"
    return str(value)


def plural(n, one: str, many: str | None = None) -> str:
    return one if n == 1 else (many or one + "s")


def with_article(text: str) -> str:
    """Indefinite article."""
    if not text:
        return text
    first = text.split(" ", 1)[0].lower()
    vowel = first[:1] in "aeiou" and not first.startswith(("uno", "one", "use", "eu"))
    return ("an " if vowel or first[:1] in "8" else "a ") + text
