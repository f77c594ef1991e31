"""Composed declarations -> Ruleset: cards and deck as tables, rules as closures and programs.

The compiler reports what it cannot make sense of (unknown names, impossible decks, duplicate
codes) into the shared diagnostics and carries on, so one run shows every mistake.
"""
from __future__ import annotations

import re

from ..lang import ast as A
from ..lang.compose import Composed, sel_key
from ..lang.diagnostics import Diagnostics, suggest
from ..lang.source import NO_SPAN
from . import index as I
from .effects import MAX_LOOP, StatementCompiler
from .expressions import ANY, BOOL, BUILTINS, CARDS, COLORS, INT, MEMBER, SEAT, SEATS, CardTable, Ctx, Resolver, names_in
from .faces import FacePairing
from .ruleset import OptionInfo, Ruleset, Trigger, WindowAction, WindowRule, _MatchView

# what a card property may not read: the players and the piles (E308)
_GAME_NAMES = {"player", "next", "previous", "dealer", "winner", "others", "everyone", "opponents", "top",
               "left", "right", "run", "stock", "discard", "idle_turns", "turns_without_play", "actor",
               "honest", "jumped"}
_PLACEHOLDERS = {"color", "Color", "suit", "Suit", "rank", "Rank", "kind", "points"}
MAX_PLAYERS = 100
MAX_DISTINCT_CARDS = 1000
MAX_DECK = 10_000
MAX_WORK = 10_000_000    # steps (statements and tests, loops counted in full) a rule may take for one move
# Names a match rule may read while still being a pure function of (card, top, color).
_STATIC_MATCH_NAMES = {"card", "top"}


def _seat_attrs():
    return {
        "cards": (INT, lambda g, s: len(g.hands[s])),
        "hand": (CARDS, lambda g, s: g.hands[s]),
        "points": (INT, lambda g, s: g.hand_points(s)),
        "score": (INT, lambda g, s: g.scores[s]),
        "team": (INT, lambda g, s: g.teams[s]),
    }


class Compiler:
    def __init__(self, composed: Composed, diags: Diagnostics, overrides: dict, override_span=None,
                 unit_span=None, index=None):
        self.c = composed
        self.index = index              # a NameIndex to record definitions and uses in, or None
        self.unit_span = unit_span
        self._absent: set = set()       # selectors a module requires but the deck lacks
        self._reported: set = set()     # (code, span) already reported, for checks made per card
        self.diags = diags
        self.overrides = overrides
        self.override_span = override_span or NO_SPAN
        self.defs: dict = {}            # name -> A.Define: the named statements

    # -- helpers ------------------------------------------------------------------------------
    def _one(self, kind):
        found = self.c.decls(kind)
        return found[-1] if found else None

    def _define(self, kind: str, name: str, node, where=None) -> None:
        if self.index is not None:
            self.index.define(kind, name, node, where)

    def _use(self, kind: str, name: str, span, how: str) -> None:
        if self.index is not None:
            self.index.use(kind, name, span, how)

    def _use_sel(self, sel) -> None:
        if isinstance(sel, A.KindSel):
            self._use(I.CARD_KIND, sel.kind, sel.span, "start")

    def _missing(self, what: str, example: str, span) -> None:
        self.diags.error("E301", f"the ruleset has no `{what}` declaration", span, f"add for example: {example}")

    # -- options ------------------------------------------------------------------------------
    def options(self) -> dict:
        opts: dict = {}
        for decl in self.c.decls(A.OptionDecl):
            self._define(I.OPTION, decl.name, decl)
            default = decl.default.value
            choices = tuple(ch.value for ch in decl.choices)
            if choices and default not in choices:
                self.diags.error("E310", f"the default of `{decl.name}` is not one of its choices", decl.default.span)
            low, high = self._range(decl)
            opts[decl.name] = OptionInfo(decl.name, default, default, choices, decl.doc, low, high)
            if not self._in_range(opts[decl.name], default):
                self.diags.error("E392", f"the default of `{decl.name}` is {default}, outside its range "
                                 f"({_range_text(low, high)})", decl.default.span)
        for decl in self.c.decls(A.SetOption):
            if decl.name in opts:
                self._use(I.OPTION, decl.name, decl.span, "after")
            self._set(opts, decl.name, decl.value.value, decl.span)
        for name, value in self.overrides.items():
            self._set(opts, name, value, self.override_span)
        return opts

    def _set(self, opts, name, value, span) -> None:
        info = opts.get(name)
        if info is None:
            self.diags.error("E311", f"unknown option `{name}`", span,
                             suggest(name, opts) or "options: " + ", ".join(sorted(opts)))
            return
        if type(value) is not type(info.default):
            kinds = {bool: "yes or no", int: "a whole number", str: "a quoted text"}
            value = _coerce(value, info.default)
            if value is None:
                self.diags.error("E312", f"option `{name}` takes {kinds[type(info.default)]}", span)
                return
        if info.choices and value not in info.choices:
            self.diags.error("E313", f"option `{name}` cannot be {value!r}", span,
                             "choose one of " + ", ".join(repr(c) for c in info.choices))
            return
        if not self._in_range(info, value):
            self.diags.error("E392", f"option `{name}` cannot be {value}: it is {_range_text(info.low, info.high)}", span)
            return
        opts[name] = OptionInfo(name, info.default, value, info.choices, info.doc, info.low, info.high)

    def _range(self, decl) -> tuple:
        """The declared `from LOW to HIGH` of a whole-number option, checked."""
        if decl.low is None:
            return None, None
        bounds = [b for b in (decl.low, decl.high) if b is not None]
        whole = isinstance(decl.default.value, int) and not isinstance(decl.default.value, bool)
        if not whole or any(not isinstance(b.value, int) or isinstance(b.value, bool) for b in bounds):
            self.diags.error("E393", f"`from … to …` gives the range of a whole-number option; `{decl.name}` "
                             "is not one, or its range is not made of whole numbers", decl.low.span,
                             "for a choice among texts write: one of \"a\", \"b\"")
            return None, None
        low = decl.low.value
        high = decl.high.value if decl.high is not None else None
        if high is not None and high < low:
            self.diags.error("E393", f"the range of `{decl.name}` is empty: {low} is more than {high}",
                             decl.low.span, f"write the smaller number first: from {high} to {low}")
            return None, None
        return low, high

    @staticmethod
    def _in_range(info, value) -> bool:
        if not isinstance(value, int) or isinstance(value, bool):
            return True
        return (info.low is None or value >= info.low) and (info.high is None or value <= info.high)

    # -- cards and deck -----------------------------------------------------------------------
    def colors(self):
        decl = self._one(A.Colors)
        self.color_word = decl.word if decl is not None else "color"
        if decl is None:
            self._missing("colors", 'colors { red R "Red", blue B "Blue" }', self._unit_span())
            return (), {}, {}
        names, codes, titles = [], {}, {}
        for cd in decl.colors:
            if cd.name in codes:
                self.diags.error("E302", f"the color `{cd.name}` is defined twice", cd.span)
                continue
            if cd.code in codes.values():
                self.diags.error("E302", f"two colors share the code `{cd.code}`", cd.span)
            self._define(I.COLOR, cd.name, cd, type(cd.span)(cd.span.file, cd.span.line, cd.span.col,
                                                             cd.span.line, cd.span.col + len(cd.name)))
            names.append(cd.name)
            codes[cd.name] = cd.code
            titles[cd.name] = cd.title
        return tuple(names), codes, titles

    def groups(self, colors, taken) -> dict:
        """`group NAME = COLOR, ...`: name -> the colors in it, in the order of `colors`."""
        word = self.color_word
        out = {}
        for decl in self.c.decls(A.Group):
            if decl.name in taken or decl.name in colors:
                self.diags.error("E350", f"the group `{decl.name}` has the name of a {word}, option, counter or card kind",
                                 decl.span)
                continue
            members = []
            for name, span in zip(decl.members, decl.member_spans):
                if name not in colors:
                    self.diags.error("E350", f"`{name}` is not a {word}, so it cannot be in the group `{decl.name}`",
                                     span, suggest(name, colors) or f"{word}s: " + ", ".join(colors))
                elif name not in members:
                    members.append(name)
            out[decl.name] = tuple(c for c in colors if c in members)
        return out

    def group_of(self, name, groups, colors, span) -> tuple:
        """The colors of `each color in NAME` or `chooses a color in NAME`."""
        if name is None:
            return colors
        if name not in groups:
            self.diags.error("E351", f"there is no group `{name}`", span,
                             suggest(name, groups) or f"declare it: group {name} = {', '.join(colors[:2])}")
            return ()
        return groups[name]

    def rank_words(self) -> dict:
        """rank -> (name, code, title) from `ranks { }`; names are values rules can read."""
        out: dict = {}
        names: set = set()
        for decl in self.c.decls(A.Ranks):
            for r in decl.ranks:
                if r.rank in out or r.name in names:
                    self.diags.error("E352", f"the rank {r.rank} is named twice" if r.rank in out else
                                     f"the name `{r.name}` is given to two ranks", r.span)
                    continue
                out[r.rank] = (r.name, r.code, r.title)
                names.add(r.name)
        return out

    def _unit_span(self):
        """Where to point when something is missing: the `ruleset NAME` header."""
        if self.unit_span is not None:
            sp = self.unit_span
            return type(sp)(sp.file, sp.line, sp.col, sp.line, sp.col + len("ruleset"))
        return self.c.items[0][1].span if self.c.items else NO_SPAN

    def cards(self, colors, codes, titles, params, rank_words=None, groups=None):
        rank_words = rank_words or {}
        table = {k: [] for k in ("kind", "rank", "color", "points", "code", "name", "colored", "tags")}
        props: dict = {}
        by_code: dict = {}
        kinds: list = []
        tags: set = set()
        code_spans: dict = {}
        card_decls = self.c.decls(A.CardDecl)
        if not card_decls:
            self._missing("card", 'card skip "Skip" { colored; code "{color}S"; points 20 }' if self.color_word == "color"
                          else 'card pip 1..13 "Card" { code "{rank}{suit}"; points rank }', self._unit_span())
        prop_names = {a.value[0] for d in card_decls for a in d.attrs if a.key == "let"}
        counter_names = {d.name for d in self.c.decls(A.CounterDecl)}
        computed: dict = {}          # property -> per card id, the expression worked out in play
        for decl in card_decls:
            kinds.append(decl.name)
            self._define(I.CARD_KIND, decl.name, decl)
            attrs = {}
            for a in decl.attrs:
                if a.key == "tags":
                    for tag in a.value:
                        self._define(I.TAG, tag, a)
                elif a.key == "let":
                    self._define(I.PROPERTY, a.value[0], a)
                if a.key == "let":
                    attrs.setdefault("let", []).append(a)
                elif a.key in attrs and a.key != "let":
                    self.diags.error("E303", f"`{a.key}` is given twice for `{decl.name}`", a.span)
                else:
                    attrs[a.key] = a
            colored = attrs["colored"].value if "colored" in attrs else True
            kind_colors = colors
            if isinstance(colored, str):             # `colored in GROUP`: only that group's colors
                kind_colors = self.group_of(colored, groups or {}, colors, attrs["colored"].span)
                colored = True
            if "code" not in attrs:
                colored_kind = attrs["colored"].value if "colored" in attrs else True
                example = 'code "{color}S"' if colored_kind else f'code "{decl.name[:2].upper()}"'
                self.diags.error("E304", f"the card kind `{decl.name}` has no `code`", decl.span,
                                 f"add for example: {example}")
                continue
            word = self.color_word
            code_t = attrs["code"].value.replace("{suit}", "{color}").replace("{Suit}", "{Color}")
            name_t = (attrs["name"].value.replace("{suit}", "{color}").replace("{Suit}", "{Color}") if "name" in attrs
                      else ("{Color} " + decl.title if colored else decl.title))
            own_props = [a.value[0] for a in attrs.get("let", [])]
            allowed = _PLACEHOLDERS | set(own_props)
            for key in ("code", "name"):
                if key in attrs:
                    for ph in re.findall(r"\{([^}]*)\}", attrs[key].value):
                        if ph not in allowed:
                            self.diags.error("E305", f"unknown placeholder `{{{ph}}}` in the card {key}", attrs[key].span,
                                             suggest(ph, allowed) or
                                             f"placeholders: {{{word}}}, {{{word.title()}}}, {{rank}}, {{Rank}}, {{kind}}, "
                                             "{points} and the kind's `let` properties")
            if colored and "{color}" not in code_t and colors:
                adjective = "colored" if word == "color" else "suited"
                self.diags.error("E306", f"the code of the {adjective} kind `{decl.name}` must contain {{{word}}}",
                                 attrs["code"].span, f'for example "{{{word}}}{code_t}"')
                code_t = "{color}" + code_t       # carry on as if it did, so no duplicate codes follow
            tag_set = frozenset(attrs["tags"].value) if "tags" in attrs else frozenset()
            tags |= tag_set
            points_fn = self._card_expr(attrs.get("points"), params, colors, kinds, number=True)
            let_fns, computed_lets = [], {}
            for a in attrs.get("let", []):
                reads = self._card_property_reads(a.value[1], counter_names)
                if reads != "rank":             # worked out in play, or refused
                    if reads == "play":
                        computed_lets[a.value[0]] = a.value[1]
                    let_fns.append((a.value[0], None))
                else:
                    let_fns.append((a.value[0], self._card_expr(a, params, colors, kinds, a.value[1])))
            ranks = range(decl.ranks[0], decl.ranks[1] + 1) if decl.ranks else [None]
            if len(ranks) * (len(kind_colors) if colored else 1) + len(table["kind"]) > MAX_DISTINCT_CARDS:
                self.diags.error("E324", f"the card kinds make more than {MAX_DISTINCT_CARDS} different cards",
                                 decl.span, "use a smaller range of ranks")
                continue
            for color in (kind_colors if colored else [None]):
                for rank in ranks:
                    named = rank_words.get(rank)
                    points = points_fn(rank) if points_fn else 0
                    lets = {pname: fn(rank) if fn else None for pname, fn in let_fns}
                    fill = {"color": codes.get(color, ""), "Color": titles.get(color, ""),
                            "rank": "" if rank is None else named[1] if named else str(rank),
                            "Rank": "" if rank is None else named[2] if named else str(rank),
                            "kind": decl.title, "points": str(points),
                            **{k: "" if v is None else fmt_prop(v) for k, v in lets.items()}}
                    code = _fill(code_t, fill)
                    card = len(table["kind"])
                    if code.upper() in by_code:
                        other = code_spans[code.upper()]
                        self.diags.error("E307", f"two cards have the code `{code}`", attrs["code"].span,
                                         "make the codes differ, for example by a letter for each kind",
                                         related=[(other, "the other card's code is made here")])
                        continue
                    by_code[code.upper()] = card
                    code_spans[code.upper()] = attrs["code"].span
                    table["kind"].append(decl.name)
                    table["rank"].append(rank)
                    table["color"].append(color)
                    table["code"].append(code)
                    table["name"].append(_fill(name_t, fill))
                    table["colored"].append(colored)
                    table["tags"].append(tag_set)
                    table["points"].append(points)
                    for pname in prop_names:
                        props.setdefault(pname, []).append(None)
                    for pname, value in lets.items():
                        props[pname][card] = value
                    for pname, node in computed_lets.items():
                        computed.setdefault(pname, [None] * card).append(node)
                    for column in computed.values():
                        column.extend([None] * (card + 1 - len(column)))
        ct = CardTable(**{k: tuple(v) for k, v in table.items()}, props={k: tuple(v) for k, v in props.items()},
                       computed={k: tuple(v) for k, v in computed.items()})
        return ct, by_code, tuple(kinds), tags

    def _computed_properties(self, cards: CardTable, res: Resolver) -> dict:
        """The card properties worked out in play, compiled once per kind's expression."""
        self._check_property_cycles(cards.computed)
        out = {}
        for name, column in cards.computed.items():
            fns: dict = {}
            for node in column:
                if node is not None and id(node) not in fns:
                    fns[id(node)], _ = res.compile(node, {"rank": INT})
            out[name] = tuple(fns[id(n)] if n is not None else None for n in column)
        return out

    def _check_draining(self, res: Resolver, cards: CardTable, colors, deck, constants: set) -> None:
        """`WHO draws until CONDITION` where, for some current color, no card of the deck meets the
        condition: the player would draw the whole stock (W306). Checked for conditions that read
        only the card drawn (`it`), the current color and names the options fix."""
        if self.diags.errors or not deck:
            return
        ids = sorted(set(deck) | ({cards.other[i] for i in deck} if cards.other else set()))   # both faces
        for _, decl, _ in self.c.items:
            for node in A.walk(decl):
                if not isinstance(node, A.DrawsUntil) or node.span in self._reported:
                    continue
                names = names_in(node.test)
                if not names <= constants | {"<it>"} or any(isinstance(n, A.Is) and n.tag == "playable"
                                                                 for n in A.walk(node.test)):
                    continue
                self._reported.add(node.span)
                test = res.expect(node.test, BOOL, {}, "the condition of `draws until`")
                ctx = Ctx(None)
                reads_color = any(isinstance(n, A.Builtin) and n.id == "color" for n in A.walk(node.test))
                for color in ((*colors, None) if reads_color else (None,)):
                    ctx.g = _MatchView(ids[0], color)
                    met = False
                    for card in ids:
                        ctx.drawn = card
                        try:
                            met = bool(test(ctx))
                        except Exception:
                            met = True          # reads something this check does not follow
                        if met:
                            break
                    if not met:
                        when = "" if not reads_color else f" while the current {self.color_word} is {color}" \
                            if color is not None else f" while there is no current {self.color_word}"
                        self.diags.warning("W306", f"no card of the deck meets this condition{when}, so the "
                                           "player would draw the whole stock", node.test.span,
                                           "make sure some card meets it, or draw a fixed number of cards")
                        break

    def _check_unread_options(self, top: str) -> None:
        """An option of the ruleset being built that no rule, card or deck count reads changes
        nothing: a warning (W305), most often a misspelt name in the rule meant to read it. (Its
        parents' and modules' options are their authors' business: a child may rightly replace
        the rule that read one; so are those of a bundled ruleset that hosts a module checked.)"""
        mine = {id(decl) for _, decl, unit in self.c.items
                if unit == top and not decl.span.file.startswith("<bundled>/")}
        read = {n.id for _, decl, _ in self.c.items for n in A.walk(decl) if isinstance(n, A.Name)}
        read |= {n.count for _, decl, _ in self.c.items for n in A.walk(decl)
                 if isinstance(n, A.DeckCount) and isinstance(n.count, str)}
        for decl in self.c.decls(A.OptionDecl):
            if decl.name not in read and id(decl) in mine:
                self.diags.warning("W305", f"the option `{decl.name}` is read by no rule, so it changes nothing",
                                   decl.span, f"read it in a rule (`if {decl.name} ...`), or remove it")

    def _check_property_cycles(self, computed: dict) -> None:
        """Card properties worked out in play that read each other (`let a = card.b`, `let b =
        card.a`), or themselves, would never come out: each is reported once."""
        reads = {}
        for name, column in computed.items():
            for node in column:
                if node is not None:
                    for n in A.walk(node):
                        if isinstance(n, A.Attr) and isinstance(n.obj, A.Name) and n.obj.id == "card" \
                                and n.name in computed:
                            reads.setdefault(name, {}).setdefault(n.name, n.span)

        def chain(start, here, path):
            for other in reads.get(here, {}):
                if other == start:
                    return path + [other]
                if other not in path:
                    found = chain(start, other, path + [other])
                    if found:
                        return found
            return None
        for name in reads:
            path = chain(name, name, [name])
            if path and min(path) == name:         # one report per cycle
                span = reads[name][path[1]]
                self.diags.error("E345", "these card properties read each other, so they would never come out ("
                                 + " -> ".join(path) + ")", span,
                                 "work one of them out from the card's other attributes, `rank`, counters or options")

    def _card_property_reads(self, node, counters) -> str:
        """What a card's `let` reads: "rank" (numbers, options and the rank: worked out once per
        card), "play" (also the card's own attributes, the face in play, the current color or a
        counter: worked out each time it is read), or "game" (the players or the piles: refused,
        E308)."""
        names = names_in(node)
        game = (names & _GAME_NAMES) | {n for n in names if n in ("<it>", "<played>", "<players>", "<round>")}
        if game:
            if ("E308", node.span) not in self._reported:
                self._reported.add(("E308", node.span))
                word = sorted(game)[0].strip("<>")
                self.diags.error("E308", f"a card property cannot read `{word}`: it can use numbers, options, "
                                 f"`rank`, the card itself (`card.{self.color_word}`), the face in play, "
                                 f"the current {self.color_word} and counters", node.span,
                                 "read the players and the piles in the rule that uses the property")
            return "game"
        play = bool(names & ({"card", "<face>"} | set(counters))) or any(
            isinstance(n, A.Builtin) and n.id == "color" for n in A.walk(node))
        return "play" if play else "rank"

    def _card_expr(self, attr, params, colors, kinds, node=None, number=False):
        """A card attribute that may use `rank`; evaluated once per card at compile time."""
        if attr is None:
            return None
        node = node if node is not None else attr.value
        res = Resolver(self.diags, CardTable(), params, colors, kinds, set(), {}, index=self.index)
        if number:
            fn = res.expect(node, INT, {"rank": INT}, "a card's points")
        else:
            fn, _ = res.compile(node, {"rank": INT})
        reported = self._reported

        def value(rank):
            ctx = Ctx(None)
            ctx.vars["rank"] = rank
            try:
                result = fn(ctx)
            except Exception:      # the expression reads the game, which a card attribute cannot
                if ("E308", node.span) not in reported:
                    reported.add(("E308", node.span))
                    self.diags.error("E308", "a card attribute can only use numbers, options and `rank`", node.span)
                return 0
            if number and not isinstance(result, int):
                if ("E318", node.span) not in reported:
                    reported.add(("E318", node.span))
                    self.diags.error("E318", "the points of this card kind do not come out as a number", node.span,
                                     "a kind without ranks has no `rank`: give its points as a number")
                return 0
            return result
        return value

    def _count(self, dc, params) -> int:
        """A deck count: a whole number, or the name of a whole-number option."""
        if isinstance(dc.count, int):
            return dc.count
        if dc.count in params:
            self._use(I.OPTION, dc.count, dc.span, "start")
        value = params.get(dc.count)
        if not isinstance(value, int) or isinstance(value, bool):
            self.diags.error("E316", f"`{dc.count}` is not a whole-number option, so it cannot count cards", dc.span,
                             suggest(dc.count, [k for k, v in params.items() if isinstance(v, int) and not isinstance(v, bool)]))
            return 0
        if value < 0:
            self.diags.error("E316", f"the option `{dc.count}` is {value}; a deck cannot hold fewer than 0 cards", dc.span)
            return 0
        return value

    def _capped(self, ids: list, count: int, span) -> int:
        if len(ids) + count > MAX_DECK:
            if not getattr(self, "_deck_capped", False):
                self.diags.error("E325", f"the deck would hold more than {MAX_DECK} cards", span)
            self._deck_capped = True
            return max(0, MAX_DECK - len(ids))
        return count

    def deck(self, cards: CardTable, by_code, kinds, colors, players, deal_n, params=None, decl=None, groups=None):
        """The deck as card ids with repeats; `decl` is a face's own deck (else the first one)."""
        first = decl is None
        if first:
            decl = next((d for d in reversed(self.c.decls(A.Deck)) if d.face is None), None)
        if decl is None:
            self._missing("deck", "deck { each color { 2 skip }, 4 wild }", self._unit_span())
            return ()
        word = self.color_word
        ids: list = []
        reported: set = set()

        def select(sel, color):
            before = len(self.diags.items)
            found = _select(sel, color)
            if len(self.diags.items) > before:
                if sel.span in reported:
                    del self.diags.items[before:]
                reported.add(sel.span)
            return found

        def _select(sel, color):
            self._use_sel(sel)
            if isinstance(sel, A.CodeSel):
                card = by_code.get(sel.code.upper())
                if card is None:
                    self.diags.error("E204", f"no card has the code `{sel.code}`", sel.span,
                                     suggest(sel.code, [cards.code[i] for i in range(len(cards.code))]))
                    return []
                return [card]
            if sel.kind not in kinds:
                self.diags.error("E204", f"unknown card kind `{sel.kind}`", sel.span, suggest(sel.kind, kinds))
                return []
            found = [i for i in range(len(cards.kind)) if cards.kind[i] == sel.kind
                     and (sel.ranks is None or (cards.rank[i] is not None and sel.ranks[0] <= cards.rank[i] <= sel.ranks[1]))
                     and cards.color[i] == color]
            if not found:
                if color is None and any(cards.kind[i] == sel.kind and cards.colored[i] for i in range(len(cards.kind))):
                    self.diags.error("E309", f"`{sel.kind}` cards have a {word}", sel.span,
                                     f"list them inside `each {word} {{ ... }}`")
                elif color is not None and any(cards.kind[i] == sel.kind and not cards.colored[i] for i in range(len(cards.kind))):
                    self.diags.error("E309", f"`{sel.kind}` cards have no {word}", sel.span,
                                     f"list them outside `each {word} {{ ... }}`")
                else:
                    self.diags.error("E309", f"no `{sel_key(sel)}` card exists", sel.span, "check the ranks of the card kind")
            return found

        for entry in decl.entries:
            if isinstance(entry, A.DeckEach):
                for color in self.group_of(entry.group, groups or {}, colors, entry.span):
                    for dc in entry.counts:
                        for card in select(dc.card, color):
                            ids.extend([card] * self._capped(ids, self._count(dc, params or {}), dc.span))
            else:
                for card in select(entry.card, None):
                    ids.extend([card] * self._capped(ids, self._count(entry, params or {}), entry.span))
        need = players[1] * deal_n + 1
        if not first:
            return tuple(ids)
        if not ids:
            self.diags.error("E320", "the deck is empty", decl.span)
        elif len(ids) < need:
            self.diags.error("E320", f"the deck holds {len(ids)} cards, but dealing {deal_n} to {players[1]} players "
                             f"and turning a starter card needs {need}", decl.span,
                             "add cards, deal fewer, or lower the most players")
        return tuple(ids)

    # -- everything ---------------------------------------------------------------------------
    def compile(self, name: str, units: tuple) -> Ruleset | None:
        opts = self.options()
        params = {k: v.value for k, v in opts.items()}
        colors, codes, titles = self.colors()
        rank_words = self.rank_words()
        groups = self.groups(colors, set(params))
        cards, by_code, kinds, tags = self.cards(colors, codes, titles, params, rank_words, groups)
        for n in params:
            if n in colors or n in kinds:
                decl = next(d for d in self.c.decls(A.OptionDecl) if d.name == n)
                self.diags.error("E317", f"the option `{n}` has the name of a {self.color_word} or card kind", decl.span)
        counters = self.counters(params, colors, kinds)
        for decl in self.c.decls(A.Group):
            if decl.name in kinds or decl.name in counters:
                self.diags.error("E350", f"the group `{decl.name}` has the name of a card kind or counter", decl.span)
        faces_decl = self._one(A.Faces)
        faces = tuple(f.name for f in faces_decl.faces) if faces_decl is not None else ()
        res = Resolver(self.diags, cards, params, colors, kinds, tags, _seat_attrs(), counters, index=self.index)
        res.groups = groups
        res.rank_names = {name: rank for rank, (name, _, _) in rank_words.items()}
        res.faces = faces
        res.color_word = self.color_word
        self.defs = self._definitions(params, colors, kinds, counters, groups)
        stmts = StatementCompiler(res, settles=self._settles(), defs=self.defs)
        for d in self._unused:          # checked all the same, as no call will check them
            stmts.program(d.body, {p: ANY for p in d.params})
        self._check_requires(cards, by_code, kinds)

        players_decl = self._one(A.Players)
        players = (players_decl.low, players_decl.high) if players_decl else (2, 10)
        if players_decl and not 2 <= players_decl.low <= players_decl.high:
            self.diags.error("E321", f"players {players_decl.low} to {players_decl.high} is not a range of 2 or more",
                             players_decl.span, "for example: players 2 to 10")
        elif players_decl and players_decl.high > MAX_PLAYERS:
            self.diags.error("E323", f"at most {MAX_PLAYERS} players can sit at one table", players_decl.span)
            players = (players[0], MAX_PLAYERS)
        deal_decl = self._one(A.Deal)
        deal_fn = (lambda c: 7)
        deal_n = 7
        if deal_decl is None:
            self._missing("deal", "deal 7", self._unit_span())
        else:
            deal_fn = res.expect(deal_decl.count, INT, {}, "the number of cards dealt")
            try:
                deal_n = int(deal_fn(Ctx(_NoGame(players[1]))) or 0)
            except Exception:
                deal_n = 7
            if deal_n < 1:
                self.diags.error("E322", "each player must be dealt at least one card", deal_decl.span)
        deck = self.deck(cards, by_code, kinds, colors, players, deal_n, params, groups=groups)
        second = [d for d in self.c.decls(A.Deck) if d.face is not None]
        if faces_decl is None and second:
            self.diags.error("E353", f"`deck {second[-1].face}` gives the cards of a second face, but the cards "
                             "have one face", second[-1].span, "declare the faces first: faces light, dark")
        elif faces_decl is not None:
            pairing = FacePairing(self.diags, faces_decl, self._one(A.PairFaces), second[-1] if second else None,
                                  self._unit_span())
            if pairing.check_declarations() and deck:
                other = self.deck(cards, by_code, kinds, colors, players, deal_n, params, second[-1], groups)
                built = pairing.build(cards, deck, other) if other and not self.diags.errors else None
                if built is not None:
                    cards, by_code, deck = built
                    res.cards = cards

        res.computed = self._computed_properties(cards, res)
        matches = self.c.decls(A.Match)
        if not matches:
            self._missing("match", "match card.color == color", self._unit_span())
        match_fns = [res.expect(m.test, BOOL, {}, "a match rule") for m in matches]
        match_fn = _any_of(match_fns)
        names = set().union(*(names_in(m.test) for m in matches)) if matches else set()
        match_static = names <= (_STATIC_MATCH_NAMES | set(params) | set(colors) | set(kinds))

        size = len(cards.kind)
        honest = [None] * size
        honest_exprs = [None] * size
        for key, decl in self.c.keyed(A.Honest):
            fn = res.expect(decl.test, BOOL, {}, "the honesty condition")
            for card in self._cards_of(decl.card, cards, by_code, kinds):
                honest[card] = fn
                honest_exprs[card] = decl.test

        renege_decl = self._one(A.Renege)
        renege = res.expect(renege_decl.test, BOOL) if renege_decl else (lambda c: True)
        renege_const = True
        if renege_decl is not None:
            renege_const = None
            if names_in(renege_decl.test) <= set(params):
                try:
                    renege_const = bool(renege(Ctx(None)))
                except Exception:
                    renege_const = None
        dealer_decl = self._one(A.DealsFirst)
        dealer_value = res.expect(dealer_decl.value, INT, {}, "the dealer value") if dealer_decl else None
        dealer_values = None         # per card id, when the value reads only the card turned
        if dealer_decl is not None and names_in(dealer_decl.value) <= {"card"} | set(params) | set(colors) | set(kinds):
            dealer_values = tuple(dealer_value(Ctx(None, card=c)) or 0 for c in range(len(cards.kind)))
        teams_decl = self._one(A.Teams)
        teams = res.expect(teams_decl.test, BOOL) if teams_decl else (lambda c: False)

        only = self.c.decls(A.PlayOnly)
        restrictions = tuple(res.expect(d.test, BOOL, {}, "a `play only if` condition") for d in only)
        restriction_docs = tuple(d.doc for d in only)
        static_names = _STATIC_MATCH_NAMES | set(params) | set(colors) | set(kinds) | set(counters)
        restrict_static = all(names_in(d.test) <= static_names for d in only)
        after_play = tuple(stmts.program(d.body) for d in self.c.decls(A.AfterPlay))
        runs_decl = self._one(A.Runs)
        runs = res.expect(runs_decl.test, BOOL, {}, "the condition of a run") if runs_decl is not None else None
        start_decl = self._one(A.OnRoundStart)
        on_round_start = stmts.program(start_decl.body) if start_decl else None
        self._check_endless(res)
        on_play = self._per_card(A.OnPlay, stmts, cards, by_code, kinds)
        starter = self._per_card(A.Starter, stmts, cards, by_code, kinds)
        draw_decl = self._one(A.OnDraw)
        if draw_decl is None:
            self._missing("on draw", "on draw { player draws 1; player may play it }", self._unit_span())
            on_draw = stmts.program(())
        else:
            on_draw = stmts.program(draw_decl.body)
        end_decl = self._one(A.OnRoundEnd)
        on_round_end = stmts.program(end_decl.body) if end_decl else None
        if end_decl is None:
            self.diags.warning("W301", "the ruleset has no `on round end`: rounds are not scored and the game never ends by points",
                               self._unit_span(), "add for example: on round end { winner scores total s.points for s in others }")
        for w in self.c.decls(A.Window):
            self._define(I.WINDOW, w.name, w)
        static_names = _STATIC_MATCH_NAMES | set(params) | set(colors) | set(kinds)
        windows = tuple(self._window(w, res, stmts, static_names) for w in self.c.decls(A.Window))
        triggers = tuple(self._trigger(d, res, stmts) for d in self.c.decls(A.Whenever))
        blocked_decl = self._one(A.Blocked)
        blocked = res.expect(blocked_decl.test, BOOL, {}, "the blocked condition") if blocked_decl else None
        stock_out_decl = self._one(A.StockOut)
        on_stock_out = None
        if stock_out_decl is not None:
            on_stock_out = stmts.program(stock_out_decl.body)
            self._between_moves(stock_out_decl.body, "when the stock runs out")
        self._check_work(res, players[1], len(deck))
        self._check_unread_options(name)
        about = self._one(A.About)
        self._check_unplayable(cards, colors, match_fn, match_static, deck)
        self._check_draining(res, cards, colors, deck, set(params) | set(colors) | set(kinds) | set(res.rank_names))
        if self.diags.errors:
            return None
        rs = Ruleset(
            name=name, title=(units[0][1] if units else "") or name, about=about.text if about else "",
            units=tuple(u for u, _ in units), options=opts, players=players, deal=deal_fn, colors=colors,
            color_codes=codes, color_titles=titles, cards=cards, codes=by_code, deck=deck, kinds=kinds,
            match=match_fn, match_static=match_static, honest=tuple(honest), renege=renege,
            dealer_value=dealer_value, teams=teams, on_play=on_play, on_draw=on_draw, starter=starter,
            windows=windows, on_round_end=on_round_end, composed=self.c, on_round_start=on_round_start,
            restrictions=restrictions, restriction_docs=restriction_docs, after_play=after_play,
            counters=counters, renege_const=renege_const, renege_expr=renege_decl.test if renege_decl else None,
            undoable=self._uses(A.Cancel),
            restrict_static=restrict_static, resolver=res, honest_exprs=tuple(honest_exprs),
            dealer_values=dealer_values, color_word=self.color_word, groups=groups, faces=faces,
            face_titles=tuple(f.title for f in faces_decl.faces) if faces_decl is not None else (),
            rank_words=rank_words, hidden_counters=self.hidden_counters(),
            sees=frozenset(d.what for d in self.c.decls(A.Sees)),
            same_face=tuple(by_code[c.upper()] for c in cards.code) if faces else (),
            runs=runs, runs_each_acts=bool(runs_decl is not None and runs_decl.each_acts),
            runs_expr=runs_decl.test if runs_decl is not None else None,
            on_stock_out=on_stock_out,
            # two-faced cards turn the stock over, and a seen top card must be the one drawn next
            ordered_stock=self._ordered_stock() or bool(faces) or any(d.what == "stock top" for d in self.c.decls(A.Sees)),
            eliminates=self._can_run(A.Eliminate, res), blocked=blocked,
            blocked_doc=blocked_decl.doc if blocked_decl else "",
            blocked_expr=blocked_decl.test if blocked_decl else None, triggers=triggers,
            state_windows=tuple(w for w in windows if w.state), definitions=dict(self.defs))
        return rs

    def hidden_counters(self) -> frozenset:
        """Counters marked `hidden`: bookkeeping that sheets and the terminal never show."""
        return frozenset(d.name for d in self.c.decls(A.CounterDecl) if d.hidden)

    def _check_endless(self, res: Resolver) -> None:
        """Effects that would run forever: a card's effect that plays the card's effect again, and
        a `while` whose condition the options alone make always true."""
        for _, decl, _ in self.c.items:
            if not isinstance(decl, A.Starter):
                for node in A.walk(decl):
                    if isinstance(node, A.ReturnStarter) and node.span not in self._reported:
                        self._reported.add(node.span)
                        self.diags.error("E390", "`return it and turn another` is only for the starter card",
                                         node.span, "use it in a `starter` rule, about the card turned up to start")
            if isinstance(decl, (A.OnPlay, A.AfterPlay)):
                for node in A.walk(decl.body):
                    itself = node.card is None or (isinstance(node.card, A.Name) and node.card.id in ("card", "top")) \
                        if isinstance(node, A.AsIfPlayed) else False
                    if itself and node.span not in self._reported:
                        self._reported.add(node.span)
                        self.diags.error("E340", "this effect plays a card's effect again, which plays it "
                                         "again, without end", node.span,
                                         "apply another card's effect (`as if player played c`), or use it in a `starter` rule")
            for node in A.walk(decl):
                if isinstance(node, A.While) and node.span not in self._reported:
                    fixed, value = res.constant(node.test)
                    if fixed and value:
                        self._reported.add(node.span)
                        self.diags.error("E341", "this `while` loop never ends: its condition is always true",
                                         node.test.span, "make the condition depend on the game, e.g. `next.cards < 7`")

    def _definitions(self, params, colors, kinds, counters, groups) -> dict:
        """The named statements, by name. A parameter listed twice, or one that would hide a name
        the rules already give a meaning (`player`, an option, a color ...), is an error; one that
        no rule uses is a warning."""
        taken = (("a built-in name", BUILTINS), ("an option", params), ("a counter", counters),
                 (f"a {self.color_word}", colors), ("a card kind", kinds), ("a group", groups))
        defs = {}
        for d in self.c.decls(A.Define):
            seen = set()
            for p in d.params:
                if p in seen:
                    self.diags.error("E223", f"the parameter `{p}` of `{d.name}` is listed twice", d.span,
                                     "give each parameter its own name")
                seen.add(p)
                what = next((w for w, names in taken if p in names), None)
                if what is not None:
                    self.diags.error("E224", f"the parameter `{p}` of `{d.name}` is already {what}, "
                                     "which it would hide inside the statements", d.span,
                                     f"give the parameter another name, e.g. `{p}_given`")
            defs[d.name] = d
            self._define(I.NAMED, d.name, d)
        called = {n.name for _, decl, _ in self.c.items for n in A.walk(decl)
                  if isinstance(n, A.Call) and not (isinstance(decl, A.Define) and decl.name == n.name)}
        self._unused = [d for name, d in defs.items() if name not in called]
        for d in self._unused:
            self.diags.warning("W304", f"`{d.name}` is defined but no rule uses it", d.span,
                               f"use it in a rule, as {d.name}({', '.join(d.params)}), or remove it")
        return defs

    def _settles(self) -> bool:
        """Whether the rules have `whenever` rules or windows that open whenever a state arises."""
        return bool(self.c.decls(A.Whenever)) or any(
            isinstance(i, A.Opens) and not i.after_play for w in self.c.decls(A.Window) for i in w.items)

    def _trigger(self, decl: A.Whenever, res: Resolver, stmts: StatementCompiler) -> Trigger:
        """A `whenever` rule; `whenever some NAME in X where C` names the first NAME meeting C."""
        test = decl.test
        self._between_moves(decl.body, "whenever")
        if isinstance(test, A.Quantifier) and test.kind == "some":
            coll, ctype = res.compile(test.collection, {})
            if ctype not in (CARDS, SEATS, COLORS, ANY):
                self.diags.error("E210", f"`some` goes over cards, players or colors, not a {ctype}",
                                 test.collection.span)
            member = MEMBER.get(ctype, ANY)
            where = res.expect(test.where, BOOL, {test.var: member}, "the `where` condition") \
                if test.where is not None else None
            var = test.var
            find = _finder(coll, where, var)
            program = stmts.program(decl.body, {var: member})
            self._check_refires(decl, res, program)
            return Trigger(None, find, var, program, decl.doc, test)
        before = len(self.diags.errors)
        fn = res.expect(test, BOOL, {}, "the condition of `whenever`")
        program = stmts.program(decl.body)
        if len(self.diags.errors) == before:
            self._check_refires(decl, res, program)
        return Trigger(fn, None, None, program, decl.doc, test)

    def _check_refires(self, decl: A.Whenever, res: Resolver, program) -> None:
        """A `whenever` rule whose statements change nothing its condition reads fires again as soon
        as it has fired, for ever (the engine stops it after a while, but it is surely a mistake)."""
        fixed, value = res.constant(decl.test)
        reads = set() if fixed else _reads(decl.test, res)
        if fixed and not value:
            return
        if "?" in reads:
            return
        writes = _writes(decl.body, self.defs)
        if "stops" in writes or reads & writes:
            return
        words = {"hands": "the players' hands", "piles": "the piles", "seats": "who plays and in which order",
                 "scores": "the scores", "color": "the current color"}
        read = [words.get(r, f"the counter `{r[8:]}`") for r in sorted(reads)]
        what = ("its condition is always true" if fixed else
                "its statements change nothing its condition reads (" + ", ".join(read) + ")")
        self.diags.error("E343", "this `whenever` rule would fire again and again, for ever: " + what, decl.test.span,
                         "make the statements change what the condition tests, e.g. `eliminate s` for "
                         "`whenever some s in everyone where s.cards >= 25`")

    def _between_moves(self, body, what: str) -> None:
        """Rules that run between moves (in the middle of a draw, or whenever a state arises)
        cannot stop to ask anyone anything: each statement that would ask is an error."""
        asking = (A.ChooseColor, A.Picks, A.Ask, A.PlayDrawn, A.MayPlayCard, A.PlaysCard, A.Race,
                  A.Chance, A.AsIfPlayed)
        for node in A.walk(body, self.defs):
            if isinstance(node, asking):
                self.diags.error("E342", f"`{what}` runs between moves, so it cannot ask anyone or leave "
                                 "anything to chance", node.span,
                                 "move the question into a card's effect, `on draw` or another rule played in a turn")

    def _ordered_stock(self) -> bool:
        """Whether the rules put cards on the stock or read its order, so that a dealt stock must
        be shuffled and drawn from the top rather than drawn from at random."""
        for _, decl, _ in self.c.items:
            for n in A.walk(decl):
                if isinstance(n, A.PutCard) and n.pile == "stock" or isinstance(n, A.TurnOver) and n.pile == "stock":
                    return True
                if isinstance(n, A.Attr) and n.name in ("top", "bottom") and isinstance(n.obj, A.Name) \
                        and n.obj.id == "stock":
                    return True
        return False

    def _can_run(self, node_type, res: Resolver) -> bool:
        """Whether a statement of this type can run with these options (branches the options rule
        out do not count)."""
        def runs(body) -> bool:
            for stmt in body:
                if isinstance(stmt, node_type):
                    return True
                if isinstance(stmt, A.If):
                    fixed, value = res.constant(stmt.test)
                    branches = ((stmt.then if value else stmt.other),) if fixed else (stmt.then, stmt.other)
                elif isinstance(stmt, A.Ask):
                    branches = tuple(a.body for a in stmt.answers)
                else:
                    branches = tuple(v for v in (getattr(stmt, f) for f in stmt.__dataclass_fields__)
                                     if isinstance(v, tuple) and v and isinstance(v[0], A.Node))
                if any(runs(b) for b in branches):
                    return True
            return False
        bodies = [getattr(decl, "body", ()) for _, decl, _ in self.c.items]
        bodies += [item.body for w in self.c.decls(A.Window) for item in w.items if isinstance(item, A.WindowAction)]
        return any(runs(b) for b in bodies)

    def _check_work(self, res: Resolver, players: int, deck: int) -> None:
        """Rules whose loops inside loops could take longer than a move may (for each over
        players or cards, `while`, `some`/`count`/`total`, `picks`, `discards every`): each loop
        multiplies what it holds by how many times it can go round. Reported once per rule, at
        the outermost loop past the limit."""
        rounds = {SEATS: players, SEAT: players, CARDS: deck, "while": MAX_LOOP}

        def cost(node) -> int:
            if isinstance(node, tuple):
                return sum(cost(x) for x in node)
            if not isinstance(node, A.Node):
                return 0
            inner = sum(cost(getattr(node, f)) for f in node.__dataclass_fields__ if f != "span")
            kind = res.loops.get(id(node))
            work = 1 + inner if kind is None else rounds.get(kind, max(players, deck)) * (1 + inner)
            costs[id(node)] = work
            return work

        for _, decl, _ in self.c.items:
            costs: dict = {}
            if cost(decl) <= MAX_WORK:
                continue
            for node in A.walk(decl):          # outermost first
                if id(node) in res.loops and costs.get(id(node), 0) > MAX_WORK and node.span not in self._reported:
                    self._reported.add(node.span)
                    self.diags.error("E391", f"this rule can take more than {MAX_WORK:,} steps for one move: "
                                     "its loops inside loops multiply", node.span,
                                     "each `for each`, `while`, `some`, `count` or `total` inside another repeats "
                                     "everything it holds; nest fewer of them")
                    break

    def _uses(self, node_type) -> bool:
        """Whether any rule of the composed ruleset contains a statement of this type."""
        return any(isinstance(n, node_type) for _, decl, _ in self.c.items for n in A.walk(decl))

    def counters(self, params, colors, kinds) -> dict:
        out = {}
        for decl in self.c.decls(A.CounterDecl):
            if not isinstance(decl.start.value, int) or isinstance(decl.start.value, bool):
                self.diags.error("E314", f"the counter `{decl.name}` must start at a whole number", decl.start.span)
                continue
            if decl.name in params or decl.name in colors or decl.name in kinds:
                self.diags.error("E315", f"the counter `{decl.name}` has the name of an option, color or card kind",
                                 decl.span)
                continue
            self._define(I.COUNTER, decl.name, decl)
            out[decl.name] = decl.start.value
        return out

    def _check_requires(self, cards, by_code, kinds) -> None:
        """A module that names cards the deck lacks does not fit this ruleset: say so."""
        for _, decl, unit in self.c.items:
            if not isinstance(decl, A.Requires):
                continue
            for sel in decl.cards:
                self._use_sel(sel)
                if isinstance(sel, A.CodeSel):
                    present = sel.code.upper() in by_code
                else:
                    present = any(cards.kind[i] == sel.kind and (sel.ranks is None or (
                        cards.rank[i] is not None and sel.ranks[0] <= cards.rank[i] <= sel.ranks[1]))
                        for i in range(len(cards.kind)))
                if not present:
                    self._absent.add(sel_key(sel))
                    self.diags.error("E407", f"`{unit}` needs `{sel_key(sel)}` cards, which this deck does not have",
                                     sel.span, "use the module with a ruleset whose deck has them",
                                     related=[(self._unit_span(), "the ruleset is declared here")])

    def _cards_of(self, sel, cards: CardTable, by_code, kinds) -> list:
        self._use_sel(sel)
        if isinstance(sel, A.CodeSel):
            card = by_code.get(sel.code.upper())
            if card is None:
                self.diags.error("E204", f"no card has the code `{sel.code}`", sel.span, suggest(sel.code, cards.code))
                return []
            return [card]
        if sel.kind not in kinds:
            self.diags.error("E204", f"unknown card kind `{sel.kind}`", sel.span, suggest(sel.kind, kinds))
            return []
        found = [i for i in range(len(cards.kind)) if cards.kind[i] == sel.kind and
                 (sel.ranks is None or (cards.rank[i] is not None and sel.ranks[0] <= cards.rank[i] <= sel.ranks[1]))]
        if not found and sel_key(sel) not in self._absent:
            self.diags.error("E309", f"no `{sel_key(sel)}` card exists", sel.span)
        return found

    def _per_card(self, kind, stmts, cards, by_code, kinds) -> tuple:
        """Programs per card id; a code beats a kind with ranks, which beats a bare kind."""
        size = len(cards.kind)
        out = [None] * size
        rank_of = [None] * size
        otherwise = None
        for key, decl in self.c.keyed(kind):
            if key[1] == "otherwise":
                otherwise = stmts.program(decl.body)
                continue
            sel = next(s for s in decl.cards if sel_key(s) == key[1])
            program = stmts.program(decl.body, play=kind is A.OnPlay)
            specificity = 2 if isinstance(sel, A.CodeSel) else 1 if sel.ranks else 0
            for card in self._cards_of(sel, cards, by_code, kinds):
                if rank_of[card] is None or specificity >= rank_of[card]:
                    out[card] = program
                    rank_of[card] = specificity
        if otherwise is not None:
            out = [p if p is not None else otherwise for p in out]
        return tuple(out)

    def _window(self, decl: A.Window, res: Resolver, stmts: StatementCompiler, static_names: set) -> WindowRule:
        opens = opens_expr = None
        closes = turn_order = False
        actions = []
        for item in decl.items:
            if isinstance(item, A.Opens):
                opens = res.expect(item.test, BOOL, {}, "the opening condition") if item.test is not None else None
                opens_expr = item.test
            elif isinstance(item, A.Closes):
                closes = True
            elif isinstance(item, A.TurnOrder):
                turn_order = True
            else:
                if item.who not in ("player", "others", "anyone"):
                    self.diags.error("E330", f"`{item.who} may`: a window lets `player`, `others` or `anyone` act",
                                     item.span, suggest(item.who, ("player", "others", "anyone")))
                program = stmts.program(item.body)
                test = res.expect(item.card_test, BOOL, {}, "the card condition") if item.card_test is not None else None
                static = test is not None and names_in(item.card_test) <= static_names
                actions.append(WindowAction(item.who, item.verb, item.doc, program, test, static, item.card_test))
        if not actions:
            self.diags.error("E331", f"the window `{decl.name}` lets nobody do anything", decl.span,
                             "add for example: player may uno { }")
        state = any(isinstance(i, A.Opens) and not i.after_play for i in decl.items)
        return WindowRule(decl.name, decl.title, opens, closes, tuple(actions), opens_expr,
                          turn_order=turn_order, state=state)

    def _check_unplayable(self, cards, colors, match_fn, static, deck) -> None:
        if not static or not deck or self.diags.errors:
            return
        in_deck = sorted(set(deck))
        playable = set()
        from .ruleset import _MatchView
        for top in in_deck:
            for color in colors:
                ctx = Ctx(_MatchView(top, color))
                for card in in_deck:
                    if card not in playable:
                        ctx.card = card
                        if match_fn(ctx):
                            playable.add(card)
        never = [cards.code[c] for c in in_deck if c not in playable]
        if never:
            decl = self._one(A.Deck)
            self.diags.warning("W302", "no match rule lets anyone play " + ", ".join(never[:8]) +
                               (" ..." if len(never) > 8 else ""), decl.span if decl else NO_SPAN,
                               "add a `match` rule for these cards, or take them out of the deck")


def _finder(coll, where, var):
    def find(c: Ctx):
        for x in tuple(coll(c) or ()):
            if where is None:
                return x
            c.vars[var] = x
            if where(c):
                return x
        return None
    return find


# What a rule's condition can read and its statements change, for `whenever` rules that would
# fire for ever: hands (and the cards in them), piles, seats (who plays, and in which order),
# scores, the color, and each counter by name. "?" is something this does not follow.
_SEAT_NAMES = {"next", "previous", "others", "everyone", "opponents", "left", "right", "dealer", "winner"}
_PILE_NAMES = {"top", "run", "stock", "discard"}


def _reads(node, res) -> set:
    out = set()
    for n in A.walk(node):
        if isinstance(n, A.Name):
            if n.id in res.counters:
                out.add("counter " + n.id)
            elif n.id in _SEAT_NAMES:
                out.add("seats")
            elif n.id in _PILE_NAMES:
                out.add("piles")
            elif n.id in ("idle_turns", "turns_without_play", "honest", "jumped", "actor", "card"):
                out.add("?")
        elif isinstance(n, A.Builtin):
            if n.id == "color":
                out.add("color")
            elif n.id == "players":
                out.add("seats")
            elif n.id in ("it", "round"):
                out.add("?")
        elif isinstance(n, A.Attr):
            out |= {"cards": {"hands"}, "hand": {"hands"}, "points": {"hands"}, "score": {"scores"},
                    "size": {"piles"}, "top": {"piles"}, "bottom": {"piles"}}.get(n.name, set())
            if n.name not in ("cards", "hand", "points", "score", "team", "size", "top", "bottom", "kind",
                              "rank", "color", "code", "name", "colored", "cards") and n.name in res.cards.props:
                out.add("?")
        elif isinstance(n, A.Is) and n.tag == "playable":
            out |= {"hands", "piles", "color"}
    return out


def _writes(body, defs=None) -> set:
    out = set()
    for n in A.walk(body, defs):
        if isinstance(n, (A.Draws, A.DrawsUntil, A.DiscardsCard, A.DiscardMatching, A.PutCard, A.PlaysCard)):
            out |= {"hands", "piles"}
        elif isinstance(n, (A.SwapHands, A.PassHands, A.Redeal)):
            out.add("hands")
        elif isinstance(n, A.Eliminate):
            out |= {"hands", "piles", "seats"}
        elif isinstance(n, (A.SetCounter, A.AddCounter)):
            out.add("counter " + n.name)
        elif isinstance(n, (A.SetColor, A.ChooseColor)):
            out.add("color")
        elif isinstance(n, A.Scores):
            out.add("scores")
        elif isinstance(n, (A.Skip, A.Reverse, A.SwapSeats, A.Starts, A.PlaysAgain)):
            out.add("seats")
        elif isinstance(n, (A.TurnOver, A.ShufflePile)):
            out.add("piles")
        elif isinstance(n, (A.EndRound, A.EndGame)):
            out.add("stops")
    return out


class _NoGame:
    """What a constant expression may read at compile time: the number of players, nothing else."""
    def __init__(self, players):
        self._players = players

    def active_count(self):
        return self._players


def _coerce(value, like):
    """Turn text from the command line or YAML into the type of an option's default."""
    if isinstance(like, bool):
        if isinstance(value, str) and value.lower() in ("yes", "true", "on", "1"):
            return True
        if isinstance(value, str) and value.lower() in ("no", "false", "off", "0"):
            return False
        return None
    if isinstance(like, int):
        if isinstance(value, str) and re.fullmatch(r"-?\d+", value.strip()):
            return int(value)
        return None
    if isinstance(like, str) and isinstance(value, (int, float)) and not isinstance(value, bool):
        return None
    return str(value) if isinstance(value, str) else None


def fmt_prop(value) -> str:
    """A card property's value as it reads in a code or name: yes/no as words, numbers as digits."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _range_text(low, high) -> str:
    if high is None:
        return f"at least {low}"
    return f"from {low} to {high}"


def _fill(template: str, values: dict) -> str:
    return re.sub(r"\{([^}]*)\}", lambda m: values.get(m.group(1), m.group(0)), template)


def _any_of(fns):
    if not fns:
        return lambda c: False
    if len(fns) == 1:
        return fns[0]
    fns = tuple(fns)
    return lambda c: any(f(c) for f in fns)
