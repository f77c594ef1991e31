"""Generated Python, lowered to Python that numba compiles: the native engine's code writer.

The native engine has no templates of its own. `codegen` writes a ruleset's turn loop as Python
that works on a `Game` (lists of card ids, `None`, texts, the Game's methods); this module reads
that source (Python's `ast`) and rewrites it, construct by construct, into the same program over
a `State` of typed arrays:

  g.color, g.idle_turns ...            a slot of `g.st` (layout.SLOT)
  g.skips, g.scores ...           the array of the same name
  g.hands[t], len(g.hands[t])     a view of hand t, `g.hlen[t]`; `.append`, `.remove`, `in`,
                                  truth: the runtime's hand functions
  g.reverse(), g.draw_cards(t, n) the runtime function of the same name: R.reverse(g) ...; where
                                  the rules have their own `when the stock runs out`, a draw
                                  is the module's: draw_cards(g, t, n), take_card(g)
  g.stock, g.pile('discard')      a pile: its size, top and bottom card, truth from its region;
                                  a pile named to a method, whether it is the stock
  g.face_name()                   FACE_NAMES[g[face]]: the face in play by its name
  None, 'red', 'challenge'        NONE, and each text a number (Strings), so == still compares
  x is None, isinstance(x, int)   x == NONE, x != NONE
  bool(x), if x:, (x or 0)        R.truth(x), R.nz(x): Python's truth of None, 0 and lists
  any/sum(... for v in xs if c)   a loop in a nested function (numba inlines it)
  tables (T_color, IDX3 ...)      NumPy arrays of those numbers; a table of rows of different
                                  lengths, one padded 2-D array and the rows' lengths (R.row)
  g.windows[('one', s)] = (W, c)  where the module keeps the out-of-turn windows (native.windows):
  g.windows.pop(key), g._held     a window's key is one number (its number times the players,
  g.decision = TURN[s]            plus the seat), opened and closed by the module's functions;
                                  the decision, the seat whose turn it is (NONE: another one)

so the meaning of each statement stays written once, in codegen's templates. Whatever it cannot
rewrite raises `Unsupported` with what it was, and the engine falls back to Python for that
ruleset, naming it: never a guess.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from ..compile.codegen.expressions import Unsupported
from .layout import NONE, SEAT_REGIONS, SLOT, STATS

# A string statement written before each rule's lines (NativeWriter.block): where the rule is
# in its file, so that a refusal can name it. Dropped by the lowering.
RULE_MARK = "@rule "


# Game methods the generated code calls, and the runtime function doing the same.
RUNTIME_CALLS = {
    "draw_cards": "draw_cards", "drew": "drew", "_take": "take", "reverse": "reverse",
    "pass_hands": "pass_hands", "swap_hands": "swap_hands", "redeal": "redeal", "reveal": "reveal",
    "set_color": "set_color", "set_counter": "set_counter", "add_score": "add_score",
    "eliminate": "eliminate", "end_game": "end_game", "end_round_now": "end_round_now",
    "next_unskipped": "next_unskipped", "next_seat": "next_seat", "clockwise": "clockwise",
    "others": "others", "everyone": "everyone", "opponents": "opponents",
    "run_length": "run_length", "hand_points": "hand_points", "put_back_starter": "put_back_starter",
    "starts": "starts", "plays_again": "plays_again", "swap_seats": "swap_seats",
    "discard_cards": "discard_cards", "cancel_top": "cancel_top", "has_gone_out": "has_gone_out",
    "discard_held": "discard_held", "flip": "flip", "put_card": "put_card", "turn_over": "turn_over",
    "shuffle_pile": "shuffle_pile", "move_cards": "move_cards", "pile": "pile",
    "_gone_out": "gone_out", "_finish_round": "finish_round", "_advance": "advance",
    "declare_stalemate": "declare_stalemate", "skip": "skip",
    "_after_turn_ends_round": "after_turn_ends_round", "out_of_turn_start": "out_of_turn_start",
}
# Game methods naming a pile ('stock' or 'discard'), and which of their arguments do: the
# runtime's twins take whether it is the stock.
PILE_ARGS = {"put_card": (2,), "turn_over": (0,), "shuffle_pile": (0,), "move_cards": (0, 1), "pile": (0,)}
# Game lists that are regions of the same name in the game's memory.
ARRAYS = {name for name in SEAT_REGIONS if name not in ("hlen", "perm")} | {"counters"}
# Helpers of codegen.runtime and the runtime functions standing for them.
# Game methods whose runtime twins return a new array of seats each time (tuple() need not copy it).
FRESH_SEATS = {"others", "everyone", "opponents"}
HELPERS = {"_seats": "seats_of", "_floordiv": "floordiv", "_mod": "mod", "_card_attr": "card_attr",
           "_run_search": "run_search", "_run_options": "run_options", "_run_take": "run_take",
           "_run_back": "run_back", "_run_found": "run_found"}
# Game methods of the out-of-turn windows, where the module keeps them (native.windows): the
# module's own function doing the same (RoundFlow.settle then only opens windows).
WINDOW_CALLS = {"_close_turn_windows": "close_turn_windows", "say_call": "say_call", "settle": "settle_windows",
                "offer_out_of_turn": "offer_turn"}
# Calls that give a bool, so a test need not ask for Python's truth of them.
BOOLEAN_CALLS = {"hand_has", "contains", "truth", "has_gone_out", "is_playable", "all_hands", "isinstance",
                 "run_take", "run_extend", "after_turn_ends_round", "window_holds", "window_card"}


# Tables the native writer adds itself (writer.NativeWriter.tables_source).
NATIVE_TABLES = {"DEALER_VALUES", "MATCH", "DECK", "POINTS", "COUNTERS0", "TAGS"} | {
    "O_" + name.upper() for name in ARRAYS | {"hlen", "buf"}}      # (buf: where playable_cards leaves a turn's cards)


class Strings:
    """Every text a ruleset's code compares, as a number: colors first (0 .. k-1, so a color is
    also an index into per-color tables), then whatever else turns up, in order."""

    def __init__(self, colors: tuple):
        self.ids: dict = {}
        for c in colors:
            self.id(c)

    def id(self, text: str) -> int:
        found = self.ids.get(text)
        if found is None:
            found = self.ids[text] = len(self.ids)
        return found


def encode(value, strings: Strings) -> int:
    """One value of the rules (a seat, card, number, yes/no, text or None) as an int64."""
    if value is None:
        return NONE
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        return strings.id(value)
    raise Unsupported(f"a value of type {type(value).__name__}")


@dataclass
class Tables:
    """The module-level arrays and numbers the lowered code reads, by name."""
    strings: Strings
    ns: dict                                   # the generated module's names (codegen's ns)
    counters: dict                             # counter name -> index
    arrays: dict = field(default_factory=dict)  # name -> list of int64 values (or rows)
    numbers: dict = field(default_factory=dict)
    tags: dict = field(default_factory=dict)   # tag -> column of TAGS
    seat_attrs: dict = field(default_factory=dict)  # id of a player attribute's getter -> its name
    rows: set = field(default_factory=set)     # tables of rows: NAME (padded) and NAME_LEN, the lengths
    windows: dict = field(default_factory=dict)  # the windows kept (native.windows): name -> number
    players: int = 0

    def use(self, name: str) -> None:
        """Make the generated module's global `name` available as an array or a number."""
        if name in self.arrays or name in self.numbers or name in NATIVE_TABLES:
            return
        if name not in self.ns:
            raise Unsupported(f"name {name}")
        value = self.ns[name]
        if isinstance(value, bool) or isinstance(value, int):
            self.numbers[name] = int(value)
        elif isinstance(value, tuple) and all(_scalar(v) for v in value):
            self.arrays[name] = [encode(v, self.strings) for v in value]
        elif value and all(isinstance(row, tuple) and all(_scalar(v) for v in row) for row in value):
            # rows of different lengths (the colors each card's play offers): one 2-D array, padded
            width = max(1, *map(len, value))
            self.arrays[name] = [[encode(v, self.strings) for v in row] + [NONE] * (width - len(row)) for row in value]
            self.arrays[name + "_LEN"] = [len(row) for row in value]
            self.rows.add(name)
        else:
            raise Unsupported(f"the table {name}")

    def tag_column(self, tag: str) -> int:
        if tag not in self.tags:
            self.tags[tag] = len(self.tags)
        return self.tags[tag]


def _scalar(value) -> bool:
    return value is None or isinstance(value, (bool, int, str))


def _is_g(node) -> bool:
    return isinstance(node, ast.Name) and node.id == "g"


def _g_attr(node, name: str | None = None) -> bool:
    return isinstance(node, ast.Attribute) and _is_g(node.value) and (name is None or node.attr == name)


def int64_cast(value: ast.expr) -> ast.Call:
    """np.int64(value): numba's cast, written in place (native.far casts with it too)."""
    return ast.Call(ast.Attribute(ast.Name("np", ast.Load()), "int64", ast.Load()), [value], [])


def _call(func: str, *args) -> ast.Call:
    """R.func(*args) when func is dotted as `R.x`, else func(*args); a whole number given as
    itself is passed as an int64 (`_unliteral`)."""
    if "." in func:
        mod, attr = func.split(".")
        target = ast.Attribute(ast.Name(mod, ast.Load()), attr, ast.Load())
    else:
        target = ast.Name(func, ast.Load())
    return ast.Call(target, [_unliteral(a) for a in args], [])


def _unliteral(node):
    """A compiled function's argument: numba compiles a function once more for each number it is
    called with as a constant (draw_cards with 1, 2, 4 and 6 cards: four copies), so a whole
    number goes as np.int64(n), one type for all of them (the same machine code once optimised);
    a yes or no, as np.bool_(b); a negative whole number too (numba folds -50 into a constant).
    (Two compilations of one function, kept on disk side by side, are also what two processes
    compiling the same module at once may overwrite each other's files of.)"""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)) \
            and isinstance(node.operand, ast.Constant) and type(node.operand.value) is int:
        return ast.Call(ast.Attribute(ast.Name("np", ast.Load()), "int64", ast.Load()), [node], [])
    if isinstance(node, ast.Constant) and type(node.value) in (int, bool):
        kind = "int64" if type(node.value) is int else "bool_"
        return ast.Call(ast.Attribute(ast.Name("np", ast.Load()), kind, ast.Load()), [node], [])
    return node


def _g() -> ast.Name:
    return ast.Name("g", ast.Load())


def _slot(name: str, ctx=None) -> ast.Subscript:
    """g[k]: a scalar of the game."""
    return ast.Subscript(_g(), ast.Constant(SLOT[name]), ctx or ast.Load())


def _region(name: str, index, ctx=None) -> ast.Subscript:
    """g[O_NAME + index]: an element of one of the game's lists (offsets: module constants)."""
    return ast.Subscript(_g(), ast.BinOp(ast.Name("O_" + name.upper(), ast.Load()), ast.Add(), index), ctx or ast.Load())


def _hlen(seat) -> ast.Subscript:
    return _region("hlen", seat)


def _none() -> ast.Constant:
    return ast.Constant(NONE)


def _is_constant(node, value) -> bool:
    return isinstance(node, ast.Constant) and node.value == value and type(node.value) is type(value)


def _or_empty(node):
    """`x or ()` / `x or 0` -> x (a collection is never None here; numbers go through nz)."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and len(node.values) == 2:
        last = node.values[1]
        if isinstance(last, ast.Tuple) and not last.elts:
            return node.values[0], "seq"
        if isinstance(last, ast.List) and not last.elts:
            return node.values[0], "seq"
        if _is_constant(last, 0):
            return node.values[0], "num"
    return None, None


class Lowering(ast.NodeTransformer):
    """Rewrites one generated function; see the module's docstring for what becomes what."""

    def __init__(self, tables: Tables, local_functions: set):
        self.t = tables
        self.local_functions = local_functions
        self.hand_aliases: set = set()       # names bound to a hand (`h = g.hands[t]`): they hold t
        self.hands_aliases: set = set()      # names bound to the list of hands (`hands = g.hands`)
        self.region_aliases: dict = {}       # names bound to another list (`skips = g.skips`)
        self.window_aliases: dict = {}       # names bound to the windows or what they held (`held = g._held`)
        self.window_keys: set = set()        # names bound to a window's key (`key = ('one', s)`)
        self.quantifiers = 0
        self.pending: list = []               # nested functions to define before the statement

    # ---- helpers --------------------------------------------------------------------------------
    def fresh(self, stem: str) -> str:
        """A new local name (numbered, so that the same rules always give the same text)."""
        self.quantifiers += 1
        return f"{stem}{self.quantifiers}"

    def hand_seat(self, node):
        """The seat whose hand `node` is (`g.hands[E]` or an alias), lowered; else None."""
        if isinstance(node, ast.Subscript) and (_g_attr(node.value, "hands") or self.is_hands(node.value)):
            return self.visit(node.slice)
        if isinstance(node, ast.Name) and node.id in self.hand_aliases:
            return ast.Name(node.id, ast.Load())
        return None

    def is_hands(self, node) -> bool:
        return isinstance(node, ast.Name) and node.id in self.hands_aliases or _g_attr(node, "hands")

    @staticmethod
    def pile_of(node):
        """'stock' or 'discard' when `node` is that pile (`g.stock`, `g.pile('discard')`), else None."""
        if _g_attr(node, "stock") or _g_attr(node, "discard"):
            return node.attr
        if (isinstance(node, ast.Call) and _g_attr(node.func, "pile") and len(node.args) == 1
                and isinstance(node.args[0], ast.Constant) and node.args[0].value in ("stock", "discard")):
            return node.args[0].value
        return None

    def test(self, node):
        """A condition: Python's truth of the lowered value, unless it is a bool already."""
        seat = self.hand_seat(node)
        if seat is not None:
            return ast.Compare(_hlen(seat), [ast.Gt()], [ast.Constant(0)])
        pile = self.pile_of(node)
        if pile is not None:
            return ast.Compare(_slot(pile + "_len"), [ast.Gt()], [ast.Constant(0)])
        if isinstance(node, ast.BoolOp) and _or_empty(node)[0] is None:
            # `a and xs` as a condition: each operand's truth (what `if` makes of the value)
            return ast.BoolOp(node.op, [self.test(v) for v in node.values])
        low = self.visit(node)
        if self.boolean(low):
            return low
        if self.never_none(low):
            return ast.Compare(low, [ast.NotEq()], [ast.Constant(0)])
        return _call("R.truth", low)

    @staticmethod
    def never_none(node) -> bool:
        """A number that is never None: an element of the state's arrays or of a dispatch table."""
        if isinstance(node, ast.Subscript):
            v, i = node.value, node.slice
            if _is_g(v) and isinstance(i, ast.BinOp) and isinstance(i.left, ast.Name) and i.left.id.startswith("O_"):
                return True
            if isinstance(v, ast.Name) and (v.id.startswith("IDX") or v.id == "ASKS"):
                return True
        return False

    def boolean(self, node) -> bool:
        if isinstance(node, (ast.Compare,)) or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
            return True
        if isinstance(node, ast.Constant) and isinstance(node.value, bool):
            return True
        if isinstance(node, ast.BoolOp):
            return all(self.boolean(v) for v in node.values)
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            return name in BOOLEAN_CALLS or name.startswith("_any")
        if isinstance(node, ast.Name) and node.id in ("honest", "jumped", "playing", "redo"):
            return True
        return False

    def collection(self, node):
        """A collection read whole (to loop over it, copy it, test membership)."""
        inner, kind = _or_empty(node)
        if inner is not None and kind == "seq":
            node = inner
        seat = self.hand_seat(node)
        if seat is not None:
            return _call("R.hand", _g(), seat)
        return self.visit(node)

    # ---- statements -----------------------------------------------------------------------------
    def lower_body(self, body: list) -> list:
        out = []
        for stmt in body:
            saved, self.pending = self.pending, []
            new = self.visit(stmt)
            new = [] if new is None else new if isinstance(new, list) else [new]
            out += self.pending + new
            self.pending = saved
        return out or [ast.Pass()]

    def visit_FunctionDef(self, node):
        node.body = self.lower_body(node.body)
        # a generator in codegen's own terms (`return` then an unreachable `yield`): a plain function
        node.decorator_list = []
        return node

    def generic_visit_body(self, node):
        for name in ("body", "orelse"):
            if hasattr(node, name):
                setattr(node, name, self.lower_body(getattr(node, name)) if getattr(node, name) or name == "body" else [])
        return node

    def visit_If(self, node):
        fast = self.lazy_draw(node)
        if fast is not None:
            return fast
        node.test = self.test(node.test)
        return self.generic_visit_body(node)

    def lazy_draw(self, node):
        """`if stock and g._lazy: <one card taken inline> else: <g.draw_cards>`: codegen's fast case of
        Game._take; the native draw_cards is as fast, so only the general branch is kept."""
        t = node.test
        if (isinstance(t, ast.BoolOp) and isinstance(t.op, ast.And) and len(t.values) == 2
                and isinstance(t.values[0], ast.Name) and t.values[0].id == "stock" and _g_attr(t.values[1], "_lazy")):
            return self.lower_body(node.orelse)
        return None

    def visit_While(self, node):
        node.test = self.test(node.test)
        return self.generic_visit_body(node)

    def visit_For(self, node):
        node.iter = self.iterable(node.iter)
        node.target = self.visit(node.target)
        return self.generic_visit_body(node)

    def iterable(self, node):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "tuple" and len(node.args) == 1:
            return self.copied(node.args[0])
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range":
            return self.visit(node)
        return self.collection(node)

    def copied(self, node):
        """tuple(x): a snapshot of x, which the loop's body may change."""
        inner, kind = _or_empty(node)
        if inner is not None and kind == "seq":
            node = inner
        if isinstance(node, ast.GeneratorExp):
            return self.filtered(node)
        seat = self.hand_seat(node)
        if seat is not None:
            return _call("R.hand_copy", _g(), seat)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range" and len(node.args) == 2:
            return _call("R.numbers", *[self.visit(a) for a in node.args])      # tuple(range(a, b))
        low = self.visit(node)
        if isinstance(node, ast.Call) and _g_attr(node.func) and node.func.attr in FRESH_SEATS:
            return low          # a new array already: nothing else holds it
        return ast.Call(ast.Attribute(_call("R.seats_of", low), "copy", ast.Load()), [], [])

    def visit(self, node):
        """Each refusal keeps the line of the generated source it was met on (the innermost)."""
        try:
            return super().visit(node)
        except Unsupported as missing:
            if getattr(missing, "line", None) is None and getattr(node, "lineno", None) is not None:
                missing.line = node.lineno
            raise

    def visit_Expr(self, node):
        v = node.value
        if isinstance(v, ast.Constant) and isinstance(v.value, str) and v.value.startswith(RULE_MARK):
            return None
        if isinstance(v, (ast.Yield, ast.YieldFrom)):
            if isinstance(v, ast.Yield) and v.value is None:
                return None          # the unreachable `yield` that makes a codegen function a generator
            raise Unsupported("a decision left to the Python engine")
        node.value = self.visit(v)
        return node

    def visit_Return(self, node):
        if node.value is not None:
            node.value = self.visit(node.value)
        return node

    def visit_Assign(self, node):
        value = node.value
        targets = node.targets
        windows = self.window_assign(targets, value)
        if windows is not False:
            return windows
        # state the Python engine keeps and the native one has no use for
        if len(targets) == 1 and isinstance(targets[0], ast.Name):
            name = targets[0].id
            if name == "rand" and _g_attr(value, "_seat_rand"):
                return None
            if name == "stock" and _g_attr(value, "stock"):
                return None
            if _g_attr(value, "hands"):
                self.hands_aliases.add(name)
                return None
            if isinstance(value, ast.Attribute) and _is_g(value.value) and value.attr in ARRAYS:
                self.region_aliases[name] = value.attr
                return None
            if name == "outer" and _g_attr(value, "_journal"):        # a play opens its journal
                return ast.Assign([ast.Name("outer", ast.Store())], _call("R.journal_open", _g()))
            seat = self.hand_seat(value)
            if seat is not None:                                      # h = g.hands[t]: h stands for t
                self.hand_aliases.add(name)
                return ast.Assign([ast.Name(name, ast.Store())], seat)
        if any(_g_attr(t, "decision") or _g_attr(t, "last_journal") for t in targets):
            return None
        if any(_g_attr(t, "_journal") for t in targets):
            if _is_g(value) or (isinstance(value, ast.List) and not value.elts):
                return None                                           # journal = g._journal = []
            if isinstance(value, ast.Name) and value.id == "outer":    # the play's journal closes
                return ast.Expr(_call("R.journal_close", _g(), ast.Name("outer", ast.Load())))
            raise Unsupported("a journal of plays")
        low = self.visit(value)
        if len(targets) == 1:
            if isinstance(targets[0], ast.Name):      # (a local holding a number passed on: _unliteral)
                low = _unliteral(low)
            return ast.Assign([self.store(targets[0])], low)
        # a = b = v: v once, then each target from left to right, as Python assigns them
        temp = self.fresh("_v")
        out = [ast.Assign([ast.Name(temp, ast.Store())], low)]
        for t in targets:
            out.append(ast.Assign([self.store(t)], ast.Name(temp, ast.Load())))
        return out

    # ---- the out-of-turn windows (native.windows): a window's key is one number, w * n + seat ----
    def window_key(self, node):
        """The lowered key of a window (`('one', s)`, or a name bound to one), else None."""
        if isinstance(node, ast.Name) and node.id in self.window_keys:
            return ast.Name(node.id, ast.Load())
        if (isinstance(node, ast.Tuple) and len(node.elts) == 2 and isinstance(node.elts[0], ast.Constant)
                and node.elts[0].value in self.t.windows):
            number = ast.Constant(self.t.windows[node.elts[0].value] * self.t.players)
            return ast.BinOp(number, ast.Add(), self.visit(node.elts[1]))
        return None

    def window_map(self, node):
        """'windows' or 'held' when `node` is the game's open windows or what held (or a name
        bound to either), else None."""
        if _g_attr(node, "windows") or _g_attr(node, "_held"):
            return node.attr.lstrip("_")
        if isinstance(node, ast.Name):
            return self.window_aliases.get(node.id)
        return None

    def window_assign(self, targets, value):
        """The statements of an assignment to the windows or to the decision, or False when it is
        none of those: `held = g._held` (an alias), `key = ('one', s)`, `windows[key] = (WIN,
        card)` (the window opens, last: native window_open), `held[key] = v`, and
        `g.decision = TURN[s]` (the seat whose turn is being decided; any other decision, NONE)."""
        if len(targets) != 1:
            return False
        target = targets[0]
        if isinstance(target, ast.Name):
            kind = self.window_map(value) if isinstance(value, ast.Attribute) else None
            if kind is not None:
                self.window_aliases[target.id] = kind
                return None
            key = self.window_key(value) if isinstance(value, ast.Tuple) else None
            if key is not None:         # an int64, not a constant: window_open is compiled once
                self.window_keys.add(target.id)
                return ast.Assign([ast.Name(target.id, ast.Store())], int64_cast(key))
            return False
        if isinstance(target, ast.Subscript) and self.window_map(target.value) is not None:
            key = self.window_key(target.slice)
            if key is None:
                raise Unsupported("a window named at run time")
            if self.window_map(target.value) == "held":
                return ast.Assign([_region("held", key, ast.Store())], self.visit(value))
            if not (isinstance(value, ast.Tuple) and len(value.elts) == 2):
                raise Unsupported("a window opened on something other than a card")
            return ast.Expr(_call("window_open", _g(), key, self.visit(value.elts[1])))
        pairs = list(zip(target.elts, value.elts)) if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) \
            else [(target, value)]
        if not any(_g_attr(t, "decision") for t, _ in pairs):
            return False
        out = []
        for t, v in pairs:
            if _g_attr(t, "decision"):
                turn = (isinstance(v, ast.Subscript) and isinstance(v.value, ast.Name) and v.value.id == "TURN")
                seat = self.visit(v.slice) if turn else _none()
                out.append(ast.Assign([_slot("decision_turn", ast.Store())], seat))
            elif not _g_attr(t, "_legal"):
                raise Unsupported("an assignment to " + ast.unparse(t))
        return out

    def visit_AugAssign(self, node):
        node.target = self.store(node.target)
        node.value = self.visit(node.value)
        return node

    def store(self, target):
        if isinstance(target, ast.Tuple):
            return ast.Tuple([self.store(e) for e in target.elts], ast.Store())
        if isinstance(target, ast.Name):
            return target
        if isinstance(target, ast.Attribute) and _is_g(target.value):
            return self.g_field(target.attr, ast.Store())
        if isinstance(target, ast.Subscript):
            low = self.visit(ast.Subscript(target.value, target.slice, ast.Load()))
            low.ctx = ast.Store()
            return low
        raise Unsupported("an assignment to " + ast.unparse(target))

    # ---- expressions ----------------------------------------------------------------------------
    def g_field(self, attr: str, ctx=None):
        name = attr.lstrip("_")
        if name in SLOT and not name.startswith("o_"):
            return _slot(name, ctx)
        raise Unsupported(f"the game's `{attr}`")

    def visit_Attribute(self, node):
        if _is_g(node.value):
            return self.g_field(node.attr)
        raise Unsupported("the attribute " + ast.unparse(node))

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id not in ("g",) and node.id[:1].isupper():
            self.t.use(node.id)
        return node

    def visit_Constant(self, node):
        v = node.value
        if v is None or isinstance(v, str):
            return ast.Constant(encode(v, self.t.strings))
        return node

    def visit_ListComp(self, node):
        return self.filtered(node)

    def visit_Slice(self, node):
        return ast.Slice(*(None if p is None else self.visit(p) for p in (node.lower, node.upper, node.step)))

    def visit_Tuple(self, node):
        node.elts = [self.visit(e) for e in node.elts]
        return node

    def visit_Subscript(self, node):
        v = node.value
        pile = self.pile_of(v)
        if pile is not None:               # its top card (the last) or its bottom card
            i = node.slice
            if isinstance(i, ast.UnaryOp) and isinstance(i.op, ast.USub) and _is_constant(i.operand, 1):
                if pile == "discard":
                    return _call("R.top", _g())
                return _region(pile, ast.BinOp(_slot(pile + "_len"), ast.Sub(), ast.Constant(1)))
            if _is_constant(i, 0):
                return _region(pile, ast.Constant(0))
            raise Unsupported(f"a card of the {pile} pile other than its top or bottom card")
        if _g_attr(v, "counters") and isinstance(node.slice, ast.Constant):
            return _region("counters", ast.Constant(self.counter(node.slice.value)))
        if isinstance(v, ast.Attribute) and _is_g(v.value) and v.attr in ARRAYS:
            return _region(v.attr, self.visit(node.slice))
        if isinstance(v, ast.Name) and v.id in self.region_aliases:
            return _region(self.region_aliases[v.id], self.visit(node.slice))
        if _g_attr(v, "stats") and isinstance(node.slice, ast.Constant) and node.slice.value in STATS:
            return _slot(node.slice.value)
        seat = self.hand_seat(node)
        if seat is not None:
            return _call("R.hand", _g(), seat)
        if (isinstance(v, ast.Name) and v.id == "T_tags"):
            raise Unsupported("the tags of a card, other than testing one")
        if isinstance(v, ast.Name) and v.id[:1].isupper():
            self.t.use(v.id)
            if v.id in self.t.rows:            # TABLE[i]: row i, as long as it is
                return _call("R.row", ast.Name(v.id, ast.Load()), ast.Name(v.id + "_LEN", ast.Load()),
                             self.visit(node.slice))
        node.value = self.visit(v)
        node.slice = self.visit(node.slice)
        return node

    def counter(self, name) -> int:
        if name not in self.t.counters:
            raise Unsupported(f"the counter {name}")
        return self.t.counters[name]

    def visit_Compare(self, node):
        if len(node.ops) != 1:
            raise Unsupported("a chained comparison")
        op, left, right = node.ops[0], node.left, node.comparators[0]
        if isinstance(op, (ast.Is, ast.IsNot)):
            if not _is_constant(right, None):
                raise Unsupported("`is` between two values")
            return ast.Compare(self.visit(left), [ast.Eq() if isinstance(op, ast.Is) else ast.NotEq()], [_none()])
        if isinstance(op, (ast.In, ast.NotIn)):
            found = self.membership(left, right)
            return ast.UnaryOp(ast.Not(), found) if isinstance(op, ast.NotIn) else found
        return ast.Compare(self.visit(left), [op], [self.visit(right)])

    def membership(self, item, coll):
        if isinstance(coll, ast.Subscript) and isinstance(coll.value, ast.Name) and coll.value.id == "T_tags":
            if not (isinstance(item, ast.Constant) and isinstance(item.value, str)):
                raise Unsupported("a tag that is not written out")
            return ast.Compare(ast.Subscript(ast.Name("TAGS", ast.Load()),
                                             ast.Tuple([self.visit(coll.slice), ast.Constant(self.t.tag_column(item.value))], ast.Load()),
                                             ast.Load()), [ast.NotEq()], [ast.Constant(0)])
        seat = self.hand_seat(coll)
        if seat is not None:
            return _call("R.hand_has", _g(), seat, self.visit(item))
        return _call("R.contains", self.collection(coll), self.visit(item))

    def visit_BoolOp(self, node):
        inner, kind = _or_empty(node)
        if kind == "num":
            return _call("R.nz", self.visit(inner))
        if kind == "seq":
            return self.collection(inner)
        node.values = [self.visit(v) for v in node.values]
        return node

    def visit_UnaryOp(self, node):
        if isinstance(node.op, ast.Not):
            return ast.UnaryOp(ast.Not(), self.test(node.operand))
        node.operand = self.visit(node.operand)
        return node

    def visit_IfExp(self, node):
        return ast.IfExp(self.test(node.test), self.visit(node.body), self.visit(node.orelse))

    def visit_BinOp(self, node):
        node.left, node.right = self.visit(node.left), self.visit(node.right)
        return node

    def visit_Call(self, node):
        f = node.func
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            raise Unsupported("the call " + ast.unparse(node))
        args = node.args
        if isinstance(f, ast.Attribute):
            obj = f.value
            seat = self.hand_seat(obj)
            if seat is not None and f.attr in ("append", "remove"):
                return _call("R.hand_add" if f.attr == "append" else "R.hand_remove", _g(), seat, self.visit(args[0]))
            if _g_attr(obj, "discard") and f.attr == "append":
                return _call("R.discard_push", _g(), self.visit(args[0]))
            kind = self.window_map(obj)
            if kind == "windows" and f.attr == "pop":
                return _call("window_close", _g(), self.window_key_of(args[0]))
            if kind == "held" and f.attr == "get":
                return _region("held", self.window_key_of(args[0]))
            if _g_attr(obj, "counters") and f.attr == "get" and isinstance(args[0], ast.Constant):
                return _region("counters", ast.Constant(self.counter(args[0].value)))   # every counter exists
            if isinstance(obj, ast.Name) and obj.id == "dict" and f.attr == "fromkeys":
                return _call("R.distinct", _g(), self.collection(args[0]))
            if _is_g(obj):
                return self.game_call(f.attr, args)
            raise Unsupported("the call " + ast.unparse(node))
        if not isinstance(f, ast.Name):
            raise Unsupported("the call " + ast.unparse(node))
        name = f.id
        if name == "rand" and not args:
            return _call("R.rand", _g())
        if name == "len":
            seat = self.hand_seat(args[0])
            if seat is not None:
                return _hlen(seat)
            pile = self.pile_of(args[0])
            if pile is not None:
                return _slot(pile + "_len")
            return ast.Call(f, [self.collection(args[0])], [])
        if name == "all" and len(args) == 1 and self.is_hands(args[0]):
            return _call("R.all_hands", _g())
        if name == "isinstance":
            if not (isinstance(args[1], ast.Name) and args[1].id == "int"):
                raise Unsupported("a type test")
            return ast.Compare(self.visit(args[0]), [ast.NotEq()], [_none()])
        if name == "bool":
            return self.test(args[0])
        if name in ("tuple", "list"):
            return self.copied(args[0])
        if name in ("any", "sum") and len(args) == 1 and isinstance(args[0], ast.GeneratorExp):
            return self.quantifier(name, args[0])
        if name in HELPERS:
            return _call("R." + HELPERS[name], *[self.visit(a) for a in args])
        if name == "drive":
            return self.drive(args)
        if name == "_seat_attr":
            return self.seat_attr(args)
        if name == "int" and len(args) == 1:
            # numba's cast, not its int(): numba compiles its own functions afresh in every
            # process (runtime.new_ints), a cast it writes in place
            return int64_cast(self.visit(args[0]))
        if name in ("min", "max") and len(args) == 2:        # the runtime's, for the same reason
            return _call("R.least" if name == "min" else "R.most", *[int64_cast(self.visit(a)) for a in args])
        if name in ("int", "min", "max", "range", "abs"):
            return ast.Call(f, [self.visit(a) for a in args], [])
        if name in self.local_functions:
            return ast.Call(f, [_unliteral(self.visit(a)) for a in args], [])
        raise Unsupported(f"the call {name}(...)")

    def window_key_of(self, node):
        key = self.window_key(node)
        if key is None:
            raise Unsupported("a window named at run time")
        return key

    def game_call(self, method: str, args):
        if WINDOW_CALLS.get(method) in self.local_functions:
            return _call(WINDOW_CALLS[method], _g(), *[self.visit(a) for a in args])
        if method in self.local_functions:
            return _call(method, _g(), *[self.visit(a) for a in args])
        if method in ("_rand",):
            return _call("R.rand", _g())
        if method == "face_name":             # the face in play by its name (a text), or None
            faces = self.t.ns["rules"].faces
            if not faces:
                return _none()
            self.t.arrays["FACE_NAMES"] = [encode(f, self.t.strings) for f in faces]
            return ast.Subscript(ast.Name("FACE_NAMES", ast.Load()), _slot("face"), ast.Load())
        if method == "settle" and not args:
            # the Game's settle is only called without `whenever` rules (codegen writes their own
            # `settle`): it only opens windows, which random seats never use
            return ast.Constant(None)
        target = RUNTIME_CALLS.get(method)
        if target is None:
            raise Unsupported(f"the game's {method}()")
        low = [self.card_list(a) if isinstance(a, ast.List) else self.visit(a) for a in args]
        for i in PILE_ARGS.get(method, ()):
            if not (isinstance(args[i], ast.Constant) and args[i].value in ("stock", "discard")):
                raise Unsupported("a pile named at run time")
            low[i] = ast.Constant(args[i].value == "stock")
        if method == "set_counter":
            name = args[0]
            if not isinstance(name, ast.Constant):
                raise Unsupported("a counter named at run time")
            low[0] = ast.Constant(self.counter(name.value))
        elif method == "end_game":
            low = [ast.Constant(args[0].value == "highest")]
        elif method == "drew":                 # (seat, hand, count): the hand is the seat's own
            low[1] = self.visit(args[0])
        elif method in ("next_seat", "clockwise") and len(low) == 1:
            low.append(ast.Constant(1))
        elif method == "reveal":               # how long it stays shown changes no bot's play
            low = low[:2]
        elif method == "eliminate" and len(low) == 1:
            low.append(ast.Constant(False))
        elif method in ("draw_cards", "_take") and self.t.ns["rules"].on_stock_out is not None:
            # the rules' own `when the stock runs out`: the module's draws run it (writer.REFILL)
            return _call("take_card" if method == "_take" else "draw_cards", _g(), *low)
        elif method == "_take":
            low.append(ast.Constant(False))
        elif method == "discard_cards" and not isinstance(args[1], ast.List):
            low[1] = self.collection(args[1])
        return _call("R." + target, _g(), *low)

    def card_list(self, node):
        """[x] as an array."""
        if len(node.elts) != 1:
            raise Unsupported("a list of cards written out")
        return _call("R.seats_of", self.visit(node.elts[0]))

    def drive(self, args):
        """drive(g, g.chance_gen(options, ...)): chance decided at random."""
        inner = args[1] if len(args) == 2 else None
        if (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and _is_g(inner.func.value)
                and inner.func.attr == "chance_gen"):
            return _call("R.chance_pick", _g(), self.collection(inner.args[0]))
        raise Unsupported("a rule run by the Python engine's closures")

    def seat_attr(self, args):
        """_seat_attr(getter, g, seat): a player attribute of a seat that may be None."""
        getter = self.t.ns.get(args[0].id) if isinstance(args[0], ast.Name) else None
        name = self.t.seat_attrs.get(id(getter))
        seat = self.visit(args[2])
        forms = {"cards": _hlen, "score": lambda s: _region("scores", s), "team": lambda s: _region("teams", s),
                 "points": lambda s: _call("R.hand_points", _g(), s)}
        if name == "hand":                       # no seat: no cards
            return _call("R.hand_or_none", _g(), seat)
        if name not in forms:
            raise Unsupported(f"the player attribute {name}")
        temp = self.fresh("_sa")
        self.pending.append(ast.Assign([ast.Name(temp, ast.Store())], seat))
        return ast.IfExp(ast.Compare(ast.Name(temp, ast.Load()), [ast.Eq()], [_none()]), _none(),
                         forms[name](ast.Name(temp, ast.Load())))

    # ---- quantifiers and filters: loops in nested functions --------------------------------------
    def comprehension(self, gen: ast.GeneratorExp):
        if len(gen.generators) != 1 or gen.generators[0].is_async:
            raise Unsupported("a nested comprehension")
        comp = gen.generators[0]
        if not isinstance(comp.target, ast.Name):
            raise Unsupported("a comprehension over pairs")
        source = self.iterable(comp.iter)
        conds = [self.test(c) for c in comp.ifs]
        return comp.target.id, source, conds

    def nested(self, body: list, stem: str) -> str:
        name = self.fresh("_" + stem)
        self.pending.append(ast.FunctionDef(name, ast.arguments([], [], None, [], [], None, []), body, [], None))
        return name

    def quantifier(self, kind: str, gen: ast.GeneratorExp):
        var, source, conds = self.comprehension(gen)
        if kind == "any":
            hit = [ast.Return(ast.Constant(True))]
            loop_body = [ast.If(self.all_of(conds), hit, [])] if conds else hit
            body = [ast.For(ast.Name(var, ast.Store()), source, loop_body, []), ast.Return(ast.Constant(False))]
        else:
            value = self.visit(gen.elt)
            acc = f"_acc{self.quantifiers}"
            add = [ast.AugAssign(ast.Name(acc, ast.Store()), ast.Add(), value)]
            loop_body = [ast.If(self.all_of(conds), add, [])] if conds else add
            body = [ast.Assign([ast.Name(acc, ast.Store())], _unliteral(ast.Constant(0))),     # (see _unliteral)
                    ast.For(ast.Name(var, ast.Store()), source, loop_body, []),
                    ast.Return(ast.Name(acc, ast.Load()))]
        return _call(self.nested(body, kind))

    def filtered(self, gen):
        """tuple(v for v in xs if c), [v for v in xs if c]: the members of xs meeting c, as an array."""
        var, source, conds = self.comprehension(gen)
        if not (isinstance(gen.elt, ast.Name) and gen.elt.id == var):
            raise Unsupported("a comprehension that computes its values")
        src, out, k = f"_src{self.quantifiers}", f"_out{self.quantifiers}", f"_k{self.quantifiers}"
        keep = [ast.Assign([ast.Subscript(ast.Name(out, ast.Load()), ast.Name(k, ast.Load()), ast.Store())],
                           ast.Name(var, ast.Load())),
                ast.AugAssign(ast.Name(k, ast.Store()), ast.Add(), ast.Constant(1))]
        body = [ast.Assign([ast.Name(src, ast.Store())], source),
                ast.Assign([ast.Name(out, ast.Store())],
                           ast.Call(ast.Attribute(ast.Name("R", ast.Load()), "new_ints", ast.Load()),
                                    [ast.Call(ast.Name("len", ast.Load()), [ast.Name(src, ast.Load())], [])], [])),
                ast.Assign([ast.Name(k, ast.Store())], _unliteral(ast.Constant(0))),
                ast.For(ast.Name(var, ast.Store()), ast.Name(src, ast.Load()),
                        [ast.If(self.all_of(conds), keep, [])] if conds else keep, []),
                ast.Return(ast.Subscript(ast.Name(out, ast.Load()),
                                         ast.Slice(None, ast.Name(k, ast.Load()), None), ast.Load()))]
        return _call(self.nested(body, "sel"))

    @staticmethod
    def all_of(conds):
        return conds[0] if len(conds) == 1 else ast.BoolOp(ast.And(), conds)

    # ---- whatever else ------------------------------------------------------------------------
    def generic_visit(self, node):
        if isinstance(node, (ast.expr, ast.stmt)) and not isinstance(
                node, (ast.Pass, ast.Break, ast.Continue, ast.Load, ast.Store)):
            raise Unsupported(f"the Python construct {type(node).__name__}")
        return super().generic_visit(node)


def lower_functions(source: str, tables: Tables, local_functions: set) -> list:
    """The generated module's functions, lowered: a list of ast.FunctionDef."""
    out = []
    for fn in ast.parse(source).body:
        if not isinstance(fn, ast.FunctionDef):
            raise Unsupported(f"the Python construct {type(fn).__name__}")
        out.append(Lowering(tables, local_functions).visit(fn))
    return out
