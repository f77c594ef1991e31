"""The compiled, immutable ruleset the engine runs.

Everything the rules fix before a game starts is computed once here: card attributes as tuples
indexed by card id, the deck as a tuple of ids, each card's effect program, and (when the match
rules read only the card, the top card and the color) a memo of which cards may follow which.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, NamedTuple, Optional

from .decisions import Action
from .effects import Program
from .expressions import CardTable, Ctx


@dataclass(frozen=True)
class OptionInfo:
    name: str
    default: object
    value: object
    choices: tuple
    doc: str
    low: Optional[int] = None          # the smallest and largest values a whole-number option may take
    high: Optional[int] = None


@dataclass(frozen=True)
class WindowAction:
    who: str                 # player, others, anyone
    verb: str
    doc: str
    program: Program
    card_test: Optional[Callable] = None   # the action names a card that must meet this
    card_static: bool = False    # the card test reads only the card, the top card and the color
    card_expr: object = None     # the card test as written, for generated code


@dataclass(frozen=True)
class WindowRule:
    name: str
    title: str
    opens: Optional[Callable]          # condition after a play, or None: always
    closes_on_turn: bool
    actions: tuple                     # WindowAction
    opens_expr: object = None          # the opening condition as written, for generated code
    turn_order: bool = False           # `in turn order`: seats wanting to act are offered it in order of play
    state: bool = False                # `opens when`: also whenever the condition becomes true

    @cached_property
    def own_calls(self) -> frozenset:
        """The verbs of the actions the window's own player may take: those a play may say as
        the card lands (Windows.say_call looks here after every play that says one)."""
        return frozenset(a.verb for a in self.actions if a.who == "player")


@dataclass(frozen=True)
class Trigger:
    """A `whenever` rule: its condition, or for `whenever some NAME in X where C` a finder of the
    first NAME that meets C, and the statements to run."""
    test: Optional[Callable]           # ctx -> bool
    find: Optional[Callable]           # ctx -> the first member that meets the condition, or None
    var: Optional[str]
    program: Program
    doc: str
    test_expr: object = None           # the condition as written (the `some` quantifier), for generated code


class SeatActions(NamedTuple):
    plays: tuple       # per card id: the play actions, or None when they depend on the game
    draw: Action
    keep: Action
    pass_: Action


class _MatchView:
    """A stand-in game for building the memos: a top card, a color, and counter values."""
    __slots__ = ("discard", "color", "counters")

    def __init__(self, top, color, counters=None):
        self.discard = [top]
        self.color = color
        self.counters = counters or {}


@dataclass
class Ruleset:
    name: str
    title: str
    about: str
    units: tuple                        # names: the ruleset, its parents, then modules
    options: dict                       # name -> OptionInfo
    players: tuple                      # (low, high)
    deal: Callable                      # ctx -> hand size
    colors: tuple                       # color names
    color_codes: dict                   # name -> code
    color_titles: dict
    cards: CardTable
    codes: dict                         # upper-case code -> card id
    deck: tuple                         # card ids, with repeats
    kinds: tuple                        # kind names in declaration order
    match: Callable                     # ctx -> bool, with ctx.card and the game's top/color
    match_static: bool
    honest: tuple                       # per card id: ctx -> bool, or None
    renege: Callable
    dealer_value: Optional[Callable]
    teams: Callable
    on_play: tuple                      # per card id: Program or None
    on_draw: Program
    starter: tuple                      # per card id: Program or None
    windows: tuple                      # WindowRule
    on_round_end: Optional[Program]
    on_round_start: Optional[Program] = None
    restrictions: tuple = ()            # ctx -> bool; every play must meet all of them
    restriction_docs: tuple = ()        # the author's words for each, for refusals
    after_play: tuple = ()              # Programs run after every play's own effect
    counters: dict = field(default_factory=dict)   # name -> start value
    renege_const: Optional[bool] = None            # the renege rule, when options alone decide it
    renege_expr: object = None          # the renege rule's condition as written, for generated code
    undoable: bool = False              # some rule cancels a play, so plays keep a journal
    restrict_static: bool = False       # the `play only if` rules read only card, top, color, counters
    composed: object = None             # the composed declarations, for rule sheets
    resolver: object = None             # names and types of the rules' expressions, for codegen
    honest_exprs: tuple = ()            # per card id: the honesty condition as written, or None
    dealer_values: Optional[tuple] = None   # per card id: its value when turned to choose the dealer
    color_word: str = "color"           # what the rules call their colors: "color", or "suit"
    groups: dict = field(default_factory=dict)      # group name -> its colors
    faces: tuple = ()                   # two-faced cards: the names of the faces, the first in play first
    face_titles: tuple = ()
    rank_words: dict = field(default_factory=dict)  # rank -> (name, code, title) from `ranks { }`
    hidden_counters: frozenset = frozenset()        # counters the sheets and the terminal never show
    sees: frozenset = frozenset()       # what every player sees: "other faces", "every hand", "stock top"
    same_face: tuple = ()               # two-faced cards: per id, the first id showing the same face
    runs: Optional[Callable] = None     # `play runs where`: ctx -> whether `card` may follow `top` in a run
    runs_each_acts: bool = False        # every card of a run acts (else only the last)
    runs_expr: object = None            # the run condition as written, for generated code
    on_stock_out: Optional[Program] = None  # `when the stock runs out`; None: the usual reshuffle
    ordered_stock: bool = False         # the rules put cards on the stock or read its order
    eliminates: bool = False            # some rule can put a player out
    blocked: Optional[Callable] = None  # ctx -> bool: the round is blocked; None: nobody moved for a lap
    blocked_doc: str = ""
    blocked_expr: object = None         # the blocked condition as written, for generated code
    triggers: tuple = ()                # Trigger: the `whenever` rules
    state_windows: tuple = ()           # the windows that open whenever their condition becomes true
    definitions: dict = field(default_factory=dict)  # name -> Define: the named statements, for codegen

    @property
    def settles(self) -> bool:
        """Whether the game must look at its state each time it comes to rest."""
        return bool(self.triggers or self.state_windows)
    generated: dict = field(default_factory=dict, repr=False)   # codegen's turn loops, per table size
    _memo: dict = field(default_factory=dict, repr=False)

    @property
    def size(self) -> int:
        return len(self.cards.kind)

    def distinct(self, cards) -> list:
        """The cards a player tells apart, in the order held: one per card id, or, for two-faced
        cards whose copies may have different backs, the first card showing each face."""
        if not self.faces:
            return [*dict.fromkeys(cards)]
        same, seen = self.same_face, {}
        for c in cards:
            seen.setdefault(same[c], c)
        return list(seen.values())

    def physical(self, card: int) -> int:
        """The same id for a card whatever face is in play (conservation counts these)."""
        return card & ~1 if self.faces else card

    def option(self, name: str):
        return self.options[name].value

    def fingerprint(self) -> str:
        """A digest of everything the ruleset was compiled from (its name and units, the
        composed declarations as written, every option's value): two rulesets with the same
        fingerprint were compiled from the same rules, so what is built from one (a native
        module) may be kept on disk under it. It does not cover the code that compiles them."""
        found = self._memo.get("fingerprint")
        if found is None:
            text = repr((self.name, self.title, self.units, sorted((k, repr(o.value)) for k, o in self.options.items()),
                         [(decl, unit) for _, decl, unit in self.composed.items] if self.composed is not None else None))
            found = self._memo["fingerprint"] = hashlib.sha256(text.encode()).hexdigest()
        return found

    def code(self, card: int) -> str:
        return self.cards.code[card]

    def playable_set(self, top: int, color) -> frozenset:
        """Card ids that may follow `top` under `color`, memoised: exact for static match rules;
        for rules that read counters, with every counter at its start value (as a round begins)."""
        found = self._memo.get((top, color))
        return found if found is not None else self._card_set((top, color), self.match, top, color)

    def window_card_set(self, action: WindowAction, top: int, color) -> frozenset:
        """Card ids that meet a window action's card test (one that reads only the card, the top
        card and the color: `card_static`) with `top` on the pile under `color`, memoised."""
        key = ("window cards", id(action), top, color)
        found = self._memo.get(key)
        return found if found is not None else self._card_set(key, action.card_test, top, color)

    def window_usable_set(self, action: WindowAction, top: int, color) -> frozenset:
        """`window_card_set` less the cards an action out of turn cannot be taken with (a card
        whose play asks for a color among none), memoised."""
        key = ("window usable cards", id(action), top, color)
        found = self._memo.get(key)
        if found is None:
            on_play = self.on_play
            found = self._memo[key] = frozenset(
                c for c in self.window_card_set(action, top, color)
                if on_play[c] is None or not on_play[c].asks_color or on_play[c].color_options)
        return found

    def _card_set(self, key, test, top: int, color) -> frozenset:
        """The card ids meeting `test` with `top` on the pile under `color` (counters at their
        start values), kept under `key`."""
        ctx = Ctx(_MatchView(top, color, dict(self.counters)))
        ok = []
        for card in range(self.size):
            ctx.card = card
            if test(ctx):
                ok.append(card)
        found = self._memo[key] = frozenset(ok)
        return found

    def fixed_actions(self, players: int) -> tuple:
        """Per seat, the actions that never change: each card's plays (one per color when its
        effect asks for one; None when it names a player, which depends on the game), `draw`,
        `keep` and `pass`. Built once per table size, so listing legal actions builds nothing."""
        key = ("fixed actions", players)
        found = self._memo.get(key)
        if found is None:
            seats = []
            for s in range(players):
                plays = []
                for card, program in enumerate(self.on_play):
                    if self.runs is not None:          # a card may start a run: listed each turn
                        plays.append(None)
                    elif program is None or not (program.asks_color or program.asks_target):
                        plays.append((Action(s, "play", card),))
                    elif program.asks_target:
                        plays.append(None)
                    else:
                        plays.append(tuple(Action(s, "play", card, c) for c in program.color_options))
                seats.append(SeatActions(tuple(plays), Action(s, "draw"), Action(s, "keep"), Action(s, "pass")))
            found = self._memo[key] = tuple(seats)
        return found

    def call_verbs(self) -> tuple:
        """Words a player may say with a play (`play R5 uno`): the verbs of `player may` actions,
        without a card, of windows that open after a play."""
        found = self._memo.get("call verbs")
        if found is None:
            found = self._memo["call verbs"] = tuple(dict.fromkeys(
                a.verb for w in self.windows for a in w.actions if a.who == "player" and a.card_test is None))
        return found

    def card_verbs(self) -> set:
        """Window verbs written with a card, like `jump R5`."""
        return {a.verb for w in self.windows for a in w.actions if a.card_test is not None}

    def allowed_set(self, top: int, color, counters: dict) -> frozenset:
        """Card ids that match and meet every `play only if` rule, for rules that read only the
        card, the top card, the color and counters: memoised by those values."""
        key = (top, color, tuple(counters.values()))
        found = self._memo.get(key)
        if found is None:
            ctx = Ctx(_MatchView(top, color, dict(counters)))
            ok = []
            for card in self.playable_set(top, color):
                ctx.card = card
                if all(test(ctx) for test in self.restrictions):
                    ok.append(card)
            found = self._memo[key] = frozenset(ok)
        return found

    def window_verbs(self) -> dict:
        """verb -> [(window, action)] for every out-of-turn action, computed once."""
        verbs = self._memo.get("window verbs")
        if verbs is None:
            verbs = self._memo["window verbs"] = {}
            for w in self.windows:
                for a in w.actions:
                    verbs.setdefault(a.verb, []).append((w, a))
        return verbs
