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
    among: Optional[str] = None     # `chooses a color in GROUP`: only the colors of that group
    optional: bool = False      # `WHO may choose a color`: they may decline, and the color stays


@dataclass(frozen=True)
class Picks(Node):
    who: Expr
    var: str
    among: Expr
    where: Optional[Expr] = None
    optional: bool = False      # `WHO may pick ...`: they may decline, and the name is `none`


@dataclass(frozen=True)
class SetColor(Node):
    """`set color to EXPR`: the current color becomes a value the rules work out."""
    value: Expr


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
    until: str = "turn"     # "turn": a look at the hand until a turn begins; "round": open until the round ends


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
    """Something decided by chance, named for the statements after it: a number from `low` to
    `high` (how many cards were cut), or one of a collection (a random color, player or card)."""
    var: str
    prompt: str
    low: Optional[Expr]
    high: Optional[Expr]
    among: Optional[Expr] = None
    where: Optional[Expr] = None


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
class Flip(Node):
    """`flip`: every card is turned over, so its other face is in play: hands, the stock (turned
    over as a pile, so its order reverses) and the discard pile (turned over as a pile, or with
    `keeping the pile order` each card where it lies)."""
    keep_order: bool = False


@dataclass(frozen=True)
class PutCard(Node):
    """`WHO puts CARD on top of PILE` / `at the bottom of PILE`: the card leaves WHO's hand."""
    who: Expr
    card: Expr
    pile: str               # "stock" or "discard"
    bottom: bool


@dataclass(frozen=True)
class TurnOver(Node):
    """`turn the stock over`: the pile's order is reversed, its bottom card now on top."""
    pile: str


@dataclass(frozen=True)
class ShufflePile(Node):
    """`shuffle the stock`, or `shuffle PILE into PILE [except the top card] [where C]`: the
    cards of the first pile that meet C (`card` is each) join the second, which is shuffled."""
    pile: str
    into: Optional[str] = None
    keep_top: bool = False
    where: Optional[Expr] = None


@dataclass(frozen=True)
class Call(Node):
    """`NAME(ARG, ...)`: the statements of `define NAME(...)`, with its parameters given these values."""
    name: str
    args: tuple


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
    """`as if WHO played it` (the card the rule is about) or `as if WHO played CARD`."""
    who: Expr
    card: Optional[Expr] = None     # None: the card the rule is about


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
             PlaysCard, Race, Chance, While, DiscardsCard, Redeal, SwapSeats, Cancel, Flip, SetColor,
             PutCard, TurnOver, ShufflePile, Call]


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
    """A number the game keeps (a pending draw, say), set back to its start value each round.
    A `hidden` counter is bookkeeping: sheets and the terminal never show it."""
    name: str
    start: Literal
    doc: str
    hidden: bool = False


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
class Define(Node):
    """`define NAME(PARAM, ...) { ... }`: statements written once and used by name."""
    name: str
    params: tuple[str, ...]
    doc: str
    body: tuple


@dataclass(frozen=True)
class Whenever(Node):
    """`whenever C { ... }`: run each time the game comes to rest with C true. When C is
    `some NAME in X where ...`, NAME is the first of X that meets it."""
    test: Expr
    doc: str
    body: tuple


@dataclass(frozen=True)
class Blocked(Node):
    """`blocked when EXPR`: checked after each turn; when it holds the round ends with no winner."""
    test: Expr
    doc: str


@dataclass(frozen=True)
class StockOut(Node):
    """`when the stock runs out { ... }`: run when a draw finds the stock empty (instead of
    shuffling the discard pile but its top card into a new stock)."""
    doc: str
    body: tuple


@dataclass(frozen=True)
class OnRoundStart(Node):
    doc: str
    body: tuple


@dataclass(frozen=True)
class Colors(Node):
    colors: tuple[ColorDef, ...]
    word: str = "color"      # what the rules call them: "color" (`colors { }`) or "suit" (`suits { }`)


@dataclass(frozen=True)
class Group(Node):
    """`group black = clubs, spades`: a named set of colors (or suits) that rules can test."""
    name: str
    members: tuple[str, ...]
    member_spans: tuple


@dataclass(frozen=True)
class RankDef(Node):
    name: str
    rank: int
    code: str               # in card codes ({rank}); the number when not given
    title: str              # in card names ({Rank})


@dataclass(frozen=True)
class Ranks(Node):
    """`ranks { ace 1 A "Ace", jack 11 J "Jack" }`: names, codes and titles of some ranks."""
    ranks: tuple[RankDef, ...]


@dataclass(frozen=True)
class FaceDef(Node):
    name: str
    title: str


@dataclass(frozen=True)
class Faces(Node):
    """`faces light "Light", dark "Dark"`: every card has two faces; the first is in play at first."""
    faces: tuple[FaceDef, ...]


@dataclass(frozen=True)
class PairFaces(Node):
    """How the cards of the two decks are printed back to back: `at random` (a pairing fixed once
    for the ruleset), `in order` (the deck lists side by side) or a table of codes."""
    how: str                 # "random", "order" or "table"
    pairs: tuple = ()        # ((code, code, span), ...) for a table


@dataclass(frozen=True)
class Sees(Node):
    """What every player sees besides their own hand: `other faces` (the faces not in play of the
    cards others hold and of the stock's top card), `every hand` (open hands), `stock top`."""
    what: str
    doc: str


@dataclass(frozen=True)
class Runs(Node):
    """`play runs where EXPR`: a turn's play may be several cards, each after the first meeting
    EXPR (`card` the card, `top` the one before it); only the last card acts unless each does."""
    test: "Expr"
    each_acts: bool
    doc: str


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
    group: Optional[str] = None      # `each color in GROUP`: only the colors of that group


@dataclass(frozen=True)
class Deck(Node):
    entries: tuple
    face: Optional[str] = None       # `deck FACE { }`: the cards of the second face


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
    after_play: bool = True     # False: `opens when C`, whenever C becomes true for a player


@dataclass(frozen=True)
class Closes(Node):
    pass


@dataclass(frozen=True)
class TurnOrder(Node):
    """`in turn order`: players who want to act in the window get the chance in order of play."""


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


def walk(node, defs: dict | None = None, _entered: frozenset = frozenset()):
    """Every node inside `node` (itself included), depth first; tuples of nodes are entered.

    Given the named statements (name -> Define), a call is followed into the statements it runs,
    once along each chain of calls, so that what a rule can do includes what its calls do."""
    if isinstance(node, tuple):
        for item in node:
            yield from walk(item, defs, _entered)
        return
    if not isinstance(node, Node):
        return
    yield node
    for name in node.__dataclass_fields__:
        if name != "span":
            value = getattr(node, name)
            if isinstance(value, (Node, tuple)):
                yield from walk(value, defs, _entered)
    if defs and isinstance(node, Call) and node.name in defs and node.name not in _entered:
        yield from walk(defs[node.name].body, defs, _entered | {node.name})
