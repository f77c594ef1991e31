"""The syntax tree of a rules file: frozen dataclasses, each with the span it was parsed from.

The tree says what the author wrote and nothing more; names are resolved by the checker and
turned into fast tables and closures by the compiler.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

from .source import Span


@dataclass(frozen=True)
class Node:
    span: Span


# ---- expressions ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Literal(Node):
    value: object           # int, str, bool or None


@dataclass(frozen=True)
class Name(Node):
    id: str


@dataclass(frozen=True)
class Builtin(Node):
    """A keyword that reads a value of the game: `color`, `players`, `it`."""
    id: str


@dataclass(frozen=True)
class Attr(Node):
    obj: "Expr"
    name: str


@dataclass(frozen=True)
class Unary(Node):
    op: str                 # "not" or "-"
    operand: "Expr"


@dataclass(frozen=True)
class Binary(Node):
    op: str                 # and or == != < <= > >= + - * / % in
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True)
class Is(Node):
    obj: "Expr"
    tag: str
    negate: bool


@dataclass(frozen=True)
class Cond(Node):
    then: "Expr"
    test: "Expr"
    other: "Expr"


@dataclass(frozen=True)
class Quantifier(Node):
    """`some x in C where P`, `count x in C where P`, `total E for x in C where P`."""
    kind: str               # "some", "count", "total"
    var: str
    collection: "Expr"
    where: Optional["Expr"]
    value: Optional["Expr"] = None     # for "total"


Expr = Union[Literal, Name, Builtin, Attr, Unary, Binary, Is, Cond, Quantifier]


# ---- card selectors --------------------------------------------------------------------------

@dataclass(frozen=True)
class KindSel(Node):
    kind: str
    ranks: Optional[tuple[int, int]]


@dataclass(frozen=True)
class CodeSel(Node):
    code: str


CardSel = Union[KindSel, CodeSel]


# ---- statements ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Draws(Node):
    who: Expr
    count: Expr


@dataclass(frozen=True)
class DrawsUntil(Node):
    who: Expr
    test: Expr


@dataclass(frozen=True)
class Skip(Node):
    who: Expr


@dataclass(frozen=True)
class Reverse(Node):
    pass


@dataclass(frozen=True)
class ChooseColor(Node):
    who: Expr


@dataclass(frozen=True)
class Picks(Node):
    who: Expr
    var: str
    among: Expr
    where: Optional[Expr] = None


@dataclass(frozen=True)
class SwapHands(Node):
    who: Expr
    other: Expr


@dataclass(frozen=True)
class PassHands(Node):
    pass


@dataclass(frozen=True)
class If(Node):
    test: Expr
    then: tuple
    other: tuple


@dataclass(frozen=True)
class Answer(Node):
    name: str
    doc: str
    body: tuple


@dataclass(frozen=True)
class Ask(Node):
    who: Expr
    question: str
    answers: tuple[Answer, ...]


@dataclass(frozen=True)
class Reveal(Node):
    who: Expr
    to: Expr


@dataclass(frozen=True)
class Scores(Node):
    who: Expr
    amount: Expr


@dataclass(frozen=True)
class Eliminate(Node):
    who: Expr
    round_only: bool = False


@dataclass(frozen=True)
class SetCounter(Node):
    name: str
    value: Expr


@dataclass(frozen=True)
class AddCounter(Node):
    name: str
    value: Expr


@dataclass(frozen=True)
class MayPlayCard(Node):
    """`X may play a card where C`: X may play one more card meeting C, or pass."""
    who: Expr
    test: Expr


@dataclass(frozen=True)
class PlaysCard(Node):
    """`X plays C`: the card C goes from X's hand to the pile as X's play; play goes on from X."""
    who: Expr
    card: Expr


@dataclass(frozen=True)
class Race(Node):
    """A real-world race among players (first to slap, first to make a sound): the loser is named."""
    among: Expr
    prompt: str
    var: str
    body: tuple


@dataclass(frozen=True)
class Chance(Node):
    """A number decided by chance (how many cards were cut), named for the statements after it."""
    var: str
    prompt: str
    low: Expr
    high: Expr


@dataclass(frozen=True)
class While(Node):
    test: Expr
    body: tuple


@dataclass(frozen=True)
class DiscardsCard(Node):
    who: Expr
    card: Expr


@dataclass(frozen=True)
class Redeal(Node):
    """Gather every hand, shuffle, and deal them out one at a time clockwise from a seat."""
    start: Expr


@dataclass(frozen=True)
class Cancel(Node):
    """`cancel top`: undo what the top card's play did (draws, reversals, counters, swaps)."""


@dataclass(frozen=True)
class SwapSeats(Node):
    who: Expr
    other: Expr


@dataclass(frozen=True)
class Starts(Node):
    who: Expr


@dataclass(frozen=True)
class PlaysAgain(Node):
    who: Expr


@dataclass(frozen=True)
class ReturnStarter(Node):
    pass


@dataclass(frozen=True)
class AsIfPlayed(Node):
    who: Expr


@dataclass(frozen=True)
class PlayDrawn(Node):
    who: Expr
    must: bool


@dataclass(frozen=True)
class ForEach(Node):
    var: str
    collection: Expr
    body: tuple


@dataclass(frozen=True)
class Let(Node):
    name: str
    value: Expr


@dataclass(frozen=True)
class EndGame(Node):
    best: str               # "highest" or "lowest"


@dataclass(frozen=True)
class EndRound(Node):
    pass


@dataclass(frozen=True)
class DiscardMatching(Node):
    who: Expr
    var: str
    collection: Expr
    test: Expr


Stmt = Union[Draws, DrawsUntil, Skip, Reverse, ChooseColor, Picks, SwapHands, PassHands, If, Ask,
             Reveal, Scores, Eliminate, Starts, PlaysAgain, ReturnStarter, AsIfPlayed, PlayDrawn,
             ForEach, Let, EndGame, EndRound, DiscardMatching, SetCounter, AddCounter, MayPlayCard,
             PlaysCard, Race, Chance, While, DiscardsCard, Redeal, SwapSeats, Cancel]


# ---- declarations ----------------------------------------------------------------------------

@dataclass(frozen=True)
class About(Node):
    text: str


@dataclass(frozen=True)
class Players(Node):
    low: int
    high: int


@dataclass(frozen=True)
class Deal(Node):
    count: Expr


@dataclass(frozen=True)
class OptionDecl(Node):
    name: str
    default: Literal
    choices: tuple[Literal, ...]
    doc: str
    low: Optional[Literal] = None       # `from LOW [to HIGH]`: the values a whole-number option may take
    high: Optional[Literal] = None


@dataclass(frozen=True)
class SetOption(Node):
    name: str
    value: Literal


@dataclass(frozen=True)
class Requires(Node):
    cards: tuple[CardSel, ...]


@dataclass(frozen=True)
class ColorDef(Node):
    name: str
    code: str
    title: str


@dataclass(frozen=True)
class CounterDecl(Node):
    """A number the game keeps (a pending draw, say), set back to its start value each round."""
    name: str
    start: Literal
    doc: str


@dataclass(frozen=True)
class PlayOnly(Node):
    """A condition every play must meet besides matching (all such conditions must hold)."""
    test: Expr
    doc: str


@dataclass(frozen=True)
class AfterPlay(Node):
    """Statements run after every play's own effect; these add up across modules."""
    doc: str
    body: tuple


@dataclass(frozen=True)
class OnRoundStart(Node):
    doc: str
    body: tuple


@dataclass(frozen=True)
class Colors(Node):
    colors: tuple[ColorDef, ...]


@dataclass(frozen=True)
class CardAttr(Node):
    """One line of a card block: colored, colorless, code, points, name, tags or a `let` property."""
    key: str
    value: object           # str template, Expr, tuple of tags, or (name, Expr)


@dataclass(frozen=True)
class CardDecl(Node):
    name: str
    ranks: Optional[tuple[int, int]]
    title: str
    attrs: tuple[CardAttr, ...]


@dataclass(frozen=True)
class RemoveCard(Node):
    name: str


@dataclass(frozen=True)
class DeckCount(Node):
    count: object            # a whole number, or the name of a whole-number option
    card: CardSel


@dataclass(frozen=True)
class Uses(Node):
    """`uses progressive, jump-in`: a ruleset built from house-rule modules."""
    modules: tuple[str, ...]
    spans: tuple


@dataclass(frozen=True)
class DeckEach(Node):
    counts: tuple[DeckCount, ...]


@dataclass(frozen=True)
class Deck(Node):
    entries: tuple


@dataclass(frozen=True)
class Match(Node):
    test: Expr
    doc: str


@dataclass(frozen=True)
class Honest(Node):
    card: CardSel
    test: Expr
    doc: str


@dataclass(frozen=True)
class Renege(Node):
    test: Expr
    doc: str


@dataclass(frozen=True)
class DealsFirst(Node):
    value: Expr
    doc: str


@dataclass(frozen=True)
class Teams(Node):
    test: Expr
    doc: str


@dataclass(frozen=True)
class OnPlay(Node):
    cards: tuple[CardSel, ...]
    doc: str
    body: tuple


@dataclass(frozen=True)
class OnDraw(Node):
    doc: str
    body: tuple


@dataclass(frozen=True)
class OnRoundEnd(Node):
    doc: str
    body: tuple


@dataclass(frozen=True)
class Starter(Node):
    cards: Optional[tuple[CardSel, ...]]     # None: "otherwise"
    doc: str
    body: tuple


@dataclass(frozen=True)
class Opens(Node):
    test: Optional[Expr]


@dataclass(frozen=True)
class Closes(Node):
    pass


@dataclass(frozen=True)
class WindowAction(Node):
    who: str                # player, others, anyone
    verb: str
    doc: str
    body: tuple
    card_test: Optional[Expr] = None   # `with a card where ...`: the action names a card


@dataclass(frozen=True)
class Window(Node):
    name: str
    title: str
    items: tuple


@dataclass(frozen=True)
class Unit(Node):
    """A `ruleset` or a `module`: a named list of declarations."""
    kind: str
    name: str
    title: str
    extends: Optional[str]
    extends_span: Optional[Span]
    decls: tuple


@dataclass(frozen=True)
class File(Node):
    units: tuple[Unit, ...]


def reads_honesty(node) -> bool:
    """Whether an expression reads `honest` (whether the play met its honesty condition): the
    engine tells the table the verdict when a rule tests it, as a challenge does."""
    return any(isinstance(n, Name) and n.id == "honest" for n in walk(node))


def walk(node):
    """Every node inside `node` (itself included), depth first; tuples of nodes are entered."""
    if isinstance(node, tuple):
        for item in node:
            yield from walk(item)
        return
    if not isinstance(node, Node):
        return
    yield node
    for name in node.__dataclass_fields__:
        if name != "span":
            value = getattr(node, name)
            if isinstance(value, (Node, tuple)):
                yield from walk(value)
