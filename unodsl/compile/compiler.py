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
from .expressions import BOOL, CARDS, INT, SEAT, SEATS, CardTable, Ctx, Resolver, names_in
from .ruleset import OptionInfo, Ruleset, WindowAction, WindowRule

_PLACEHOLDERS = {"color", "Color", "rank", "kind"}
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

    def _unit_span(self):
        """Where to point when something is missing: the `ruleset NAME` header."""
        if self.unit_span is not None:
            sp = self.unit_span
            return type(sp)(sp.file, sp.line, sp.col, sp.line, sp.col + len("ruleset"))
        return self.c.items[0][1].span if self.c.items else NO_SPAN

    def cards(self, colors, codes, titles, params):
        table = {k: [] for k in ("kind", "rank", "color", "points", "code", "name", "colored", "tags")}
        props: dict = {}
        by_code: dict = {}
        kinds: list = []
        tags: set = set()
        code_spans: dict = {}
        card_decls = self.c.decls(A.CardDecl)
        if not card_decls:
            self._missing("card", 'card skip "Skip" { colored; code "{color}S"; points 20 }', self._unit_span())
        prop_names = {a.value[0] for d in card_decls for a in d.attrs if a.key == "let"}
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
            if "code" not in attrs:
                colored_kind = attrs["colored"].value if "colored" in attrs else True
                example = 'code "{color}S"' if colored_kind else f'code "{decl.name[:2].upper()}"'
                self.diags.error("E304", f"the card kind `{decl.name}` has no `code`", decl.span,
                                 f"add for example: {example}")
                continue
            code_t = attrs["code"].value
            name_t = attrs["name"].value if "name" in attrs else ("{Color} " + decl.title if colored else decl.title)
            for key in ("code", "name"):
                if key in attrs:
                    for ph in re.findall(r"\{([^}]*)\}", attrs[key].value):
                        if ph not in _PLACEHOLDERS:
                            self.diags.error("E305", f"unknown placeholder `{{{ph}}}` in the card {key}", attrs[key].span,
                                             suggest(ph, _PLACEHOLDERS) or "placeholders: {color}, {Color}, {rank}, {kind}")
            if colored and "{color}" not in code_t and colors:
                self.diags.error("E306", f"the code of the colored kind `{decl.name}` must contain {{color}}",
                                 attrs["code"].span, f'for example "{{color}}{code_t}"')
                code_t = "{color}" + code_t       # carry on as if it did, so no duplicate codes follow
            tag_set = frozenset(attrs["tags"].value) if "tags" in attrs else frozenset()
            tags |= tag_set
            points_fn = self._card_expr(attrs.get("points"), params, colors, kinds, number=True)
            let_fns = [(a.value[0], self._card_expr(a, params, colors, kinds, a.value[1])) for a in attrs.get("let", [])]
            ranks = range(decl.ranks[0], decl.ranks[1] + 1) if decl.ranks else [None]
            if len(ranks) * (len(colors) if colored else 1) + len(table["kind"]) > MAX_DISTINCT_CARDS:
                self.diags.error("E324", f"the card kinds make more than {MAX_DISTINCT_CARDS} different cards",
                                 decl.span, "use a smaller range of ranks")
                continue
            for color in (colors if colored else [None]):
                for rank in ranks:
                    fill = {"color": codes.get(color, ""), "Color": titles.get(color, ""),
                            "rank": "" if rank is None else str(rank), "kind": decl.title}
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
                    table["points"].append(points_fn(rank) if points_fn else 0)
                    for pname in prop_names:
                        props.setdefault(pname, []).append(None)
                    for pname, fn in let_fns:
                        props[pname][card] = fn(rank) if fn else None
        ct = CardTable(**{k: tuple(v) for k, v in table.items()}, props={k: tuple(v) for k, v in props.items()})
        return ct, by_code, tuple(kinds), tags

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

    def deck(self, cards: CardTable, by_code, kinds, colors, players, deal_n, params=None):
        decl = self._one(A.Deck)
        if decl is None:
            self._missing("deck", "deck { each color { 2 skip }, 4 wild }", self._unit_span())
            return ()
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
                    self.diags.error("E309", f"`{sel.kind}` cards have a color", sel.span,
                                     "list them inside `each color { ... }`")
                elif color is not None and any(cards.kind[i] == sel.kind and not cards.colored[i] for i in range(len(cards.kind))):
                    self.diags.error("E309", f"`{sel.kind}` cards have no color", sel.span,
                                     "list them outside `each color { ... }`")
                else:
                    self.diags.error("E309", f"no `{sel_key(sel)}` card exists", sel.span, "check the ranks of the card kind")
            return found

        for entry in decl.entries:
            if isinstance(entry, A.DeckEach):
                for color in colors:
                    for dc in entry.counts:
                        for card in select(dc.card, color):
                            ids.extend([card] * self._capped(ids, self._count(dc, params or {}), dc.span))
            else:
                for card in select(entry.card, None):
                    ids.extend([card] * self._capped(ids, self._count(entry, params or {}), entry.span))
        need = players[1] * deal_n + 1
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
        cards, by_code, kinds, tags = self.cards(colors, codes, titles, params)
        for n in params:
            if n in colors or n in kinds:
                decl = next(d for d in self.c.decls(A.OptionDecl) if d.name == n)
                self.diags.error("E317", f"the option `{n}` has the name of a color or card kind", decl.span)
        counters = self.counters(params, colors, kinds)
        res = Resolver(self.diags, cards, params, colors, kinds, tags, _seat_attrs(), counters, index=self.index)
        stmts = StatementCompiler(res)
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
        deck = self.deck(cards, by_code, kinds, colors, players, deal_n, params)

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
        windows = tuple(self._window(w, res, stmts) for w in self.c.decls(A.Window))
        self._check_work(res, players[1], len(deck))
        about = self._one(A.About)
        self._check_unplayable(cards, colors, match_fn, match_static, deck)
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
            counters=counters, renege_const=renege_const, undoable=self._uses(A.Cancel),
            restrict_static=restrict_static, resolver=res, honest_exprs=tuple(honest_exprs),
            dealer_values=dealer_values)
        return rs

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
                    if isinstance(node, A.AsIfPlayed) and node.span not in self._reported:
                        self._reported.add(node.span)
                        self.diags.error("E340", "this effect plays a card's effect again, which plays it "
                                         "again, without end", node.span,
                                         "`as if ... played it` belongs in a `starter` rule")
            for node in A.walk(decl):
                if isinstance(node, A.While) and node.span not in self._reported:
                    fixed, value = res.constant(node.test)
                    if fixed and value:
                        self._reported.add(node.span)
                        self.diags.error("E341", "this `while` loop never ends: its condition is always true",
                                         node.test.span, "make the condition depend on the game, e.g. `next.cards < 7`")

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
            program = stmts.program(decl.body)
            specificity = 2 if isinstance(sel, A.CodeSel) else 1 if sel.ranks else 0
            for card in self._cards_of(sel, cards, by_code, kinds):
                if rank_of[card] is None or specificity >= rank_of[card]:
                    out[card] = program
                    rank_of[card] = specificity
        if otherwise is not None:
            out = [p if p is not None else otherwise for p in out]
        return tuple(out)

    def _window(self, decl: A.Window, res: Resolver, stmts: StatementCompiler) -> WindowRule:
        opens = opens_expr = None
        closes = False
        actions = []
        for item in decl.items:
            if isinstance(item, A.Opens):
                opens = res.expect(item.test, BOOL, {}, "the opening condition") if item.test is not None else None
                opens_expr = item.test
            elif isinstance(item, A.Closes):
                closes = True
            else:
                if item.who not in ("player", "others", "anyone"):
                    self.diags.error("E330", f"`{item.who} may`: a window lets `player`, `others` or `anyone` act",
                                     item.span, suggest(item.who, ("player", "others", "anyone")))
                program = stmts.program(item.body)
                test = res.expect(item.card_test, BOOL, {}, "the card condition") if item.card_test is not None else None
                actions.append(WindowAction(item.who, item.verb, item.doc, program, test))
        if not actions:
            self.diags.error("E331", f"the window `{decl.name}` lets nobody do anything", decl.span,
                             "add for example: player may uno { }")
        return WindowRule(decl.name, decl.title, opens, closes, tuple(actions), opens_expr)

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
