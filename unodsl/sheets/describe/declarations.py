"""Declarations as the Rules a sheet shows: per-card effects, starter rules, drawing, windows,
scoring, options, and the declarations about the rules file itself.
"""
from __future__ import annotations

from ...lang import ast as A
from ...lang.compose import sel_key
from .scope import Rule, _Const, _Env
from .words import (
    _WHO,
    and_list,
    capital,
    fmt_value,
    humanize,
    plural,
    sentence_case,
    with_article,
)


class Declarations:
    """Mixed into Describer."""

    STARTER_ROLES = {"player": "the dealer", "next": "the player after the dealer",
                     "previous": "the player before the dealer", "card": "the starter card"}

    WINDOW_ROLES = {"actor": "the caller", "card": "the card they call with"}

    def declaration(self, decl, keys=(), unit: str = "", meta: bool = False) -> list:
        """The rules a declaration states, as Rules; `keys` are the composition keys it still holds.

        Declarations that are about the rules file rather than the game (`about`, `requires`,
        `remove card`, `uses`) give Rules only with meta=True (for "What's different")."""
        method = getattr(self, "_d_" + type(decl).__name__, None)
        if method is None:
            return [self.rule(humanize(type(decl).__name__), getattr(decl, "doc", ""), getattr(decl, "body", ()),
                              kind=type(decl).__name__, unit=unit)] if hasattr(decl, "body") else []
        rules = method(decl, tuple(keys), unit, meta)
        for r in rules:
            r.kind = r.kind or type(decl).__name__
            r.unit = r.unit or unit
        return rules

    def _sels(self, decl, keys):
        """The selectors of a per-card declaration that are still in force (by their keys)."""
        sels = decl.cards or ()
        if keys:
            live = {k[1] for k in keys if len(k) > 1}
            sels = tuple(s for s in sels if sel_key(s) in live) or sels
        return sels

    def _per_card(self, decl, keys, unit, roles=None):
        sels = self._sels(decl, keys)
        ids = tuple(i for s in sels for i in self.sel_cards(s))
        title = and_list(list(dict.fromkeys(self.sel_title(s) for s in sels)))   # one title once
        kinds = tuple(dict.fromkeys(s.kind if isinstance(s, A.KindSel) else self.rules.cards.kind[ids[0]]
                                    for s in sels if isinstance(s, A.KindSel) or ids))
        return self.rule(title, decl.doc, decl.body, cards=kinds, roles=roles, unit=unit, card_ids=ids or None)

    def _d_OnPlay(self, d, keys, unit, meta):
        return [self._per_card(d, keys, unit)]

    def _d_Starter(self, d, keys, unit, meta):
        if d.cards is None:
            return [self.rule("Any other card", d.doc, d.body, roles=self.STARTER_ROLES, unit=unit)]
        return [self._per_card(d, keys, unit, roles=self.STARTER_ROLES)]

    def _d_OnDraw(self, d, keys, unit, meta):
        return [self.rule("Drawing", d.doc, d.body, unit=unit)]

    def _d_AfterPlay(self, d, keys, unit, meta):
        return [self.rule("After every play", d.doc, d.body, unit=unit)]

    def _d_OnRoundStart(self, d, keys, unit, meta):
        return [self.rule("Start of each round", d.doc, d.body, roles={"player": "the dealer"}, unit=unit)]

    def _d_OnRoundEnd(self, d, keys, unit, meta):
        """Two rules: the scoring (with the author's words) and the winning (statements that end the game)."""
        roles = {"player": "the winner"}
        self.used = set()
        body = self.flatten(d.body, _Env(roles=dict(roles)))
        used = set(self.used)
        ending = [s for s in body if _contains(s, A.EndGame)]
        scoring = [s for s in body if not _contains(s, A.EndGame)]
        out = [self.rule("Scoring", d.doc, tuple(scoring), roles=roles, unit=unit)]
        out[0].options = tuple(sorted(set(out[0].options) | used))
        if ending:
            out.append(self.rule("Winning", "", tuple(ending), roles=roles, unit=unit, kind="Winning"))
        return out

    def _d_Match(self, d, keys, unit, meta):
        self.used = set()
        text = self._card_np(d.test, "card", _Env())
        return [Rule("Match", d.doc, text, tuple(sorted(self.used)))]

    def _d_PlayOnly(self, d, keys, unit, meta):
        self.used = set()
        text = sentence_case(f"a card may be played only if {self.cond(d.test, _Env())}")
        return [Rule("Every play", d.doc, text, tuple(sorted(self.used)))]

    def _d_Honest(self, d, keys, unit, meta):
        self.used = set()
        title = self.sel_title(d.card)
        text = sentence_case(f"playing {with_article(title)} is honest only if {self.cond(d.test, _Env())}")
        return [Rule(title, d.doc, text, tuple(sorted(self.used)),
                     cards=(d.card.kind,) if isinstance(d.card, A.KindSel) else ())]

    def _d_Renege(self, d, keys, unit, meta):
        self.used = set()
        test = self.simplify(d.test, _Env())
        if isinstance(test, _Const) and test.value:
            text = "A player may always draw instead of playing, even when they hold a card they could play."
        elif isinstance(test, _Const):
            text = "A player who holds a card they can play must play; only a player who cannot play draws."
        else:
            text = sentence_case("a player may draw instead of playing a card they could play when "
                                 + self.cond(test, _Env()))
        return [Rule("Drawing instead of playing", d.doc, text, tuple(sorted(self.used)))]

    def _d_DealsFirst(self, d, keys, unit, meta):
        self.used = set()
        env = _Env(roles={"card": "the turned card"})
        value = self.np(d.value, env)
        text = sentence_case("each player turns over a card; whoever turns the highest value deals, "
                             f"the value being {value}")
        return [Rule("The dealer", d.doc, text, tuple(sorted(self.used)))]

    def _d_Teams(self, d, keys, unit, meta):
        self.used = set()
        test = self.simplify(d.test, _Env())
        if isinstance(test, _Const):
            text = ("Players sitting across from each other are partners and share their score."
                    if test.value else "There are no teams.")
        else:
            text = sentence_case("players sitting across from each other are partners and share their score when "
                                 + self.cond(test, _Env()))
        empty = isinstance(test, _Const) and not test.value
        return [Rule("Teams", d.doc, text, tuple(sorted(self.used)), empty=empty)]

    def _d_Players(self, d, keys, unit, meta):
        text = f"For exactly {d.low} players." if d.low == d.high else f"For {d.low} to {d.high} players."
        return [Rule("Players", "", text)]

    def _d_Deal(self, d, keys, unit, meta):
        self.used = set()
        count = self._count(d.count, _Env(), "card", "cards")
        return [Rule("The deal", "", sentence_case(f"each player is dealt {count}"), tuple(sorted(self.used)))]

    def _d_Colors(self, d, keys, unit, meta):
        names = [f"{c.title} ({c.code})" for c in d.colors]
        word = self.rules.color_word
        return [Rule(capital(word) + "s", "", sentence_case(f"the {word}s are {and_list(names)}"))]

    def _d_Group(self, d, keys, unit, meta):
        names = [self.rules.color_titles.get(c, c) for c in self.rules.groups.get(d.name, ())]
        title = humanize(d.name).capitalize()
        return [Rule(title, "", f"{title}: {and_list(names)}.")]

    def _d_Ranks(self, d, keys, unit, meta):
        names = [f"{r.title} ({r.code}) is {r.rank}" for r in d.ranks]
        return [Rule("Ranks", "", sentence_case(f"{and_list(names)}"))]

    def _d_Faces(self, d, keys, unit, meta):
        first, second = (f.title.lower() for f in d.faces)
        flippers = list(dict.fromkeys(self.kind_title(self.rules.cards.kind[card])
                                      for card, program in enumerate(self.rules.on_play)
                                      if program is not None and _runs(program.body, A.Flip, self.rules.definitions)))
        how = (f"{with_article(and_list(flippers, 'or'))} turns every card over" if flippers
               else "the rules say when every card is turned over")
        return [Rule("Two-sided cards", "", f"Every card has a {first} side and a {second} side. Play starts "
                     f"with the {first} sides in play; {how}.")]

    def _d_PairFaces(self, d, keys, unit, meta):
        how = {"random": "which card is printed on the back of which was chosen at random, card by card, once: "
                         "it is the same in every game, and two copies of a card may have different backs",
               "order": "the two decks are printed back to back, card by card, in the order they are listed",
               "table": "the rules list which card is printed on the back of which"}[d.how]
        return [Rule("Backs", "", sentence_case(how))]

    def _d_Runs(self, d, keys, unit, meta):
        self.used = set()
        env = _Env(roles={"card": "each card after the first", "top": "the card before it"})
        acts = "every card takes effect as it lands" if d.each_acts else "only the last card takes effect"
        text = sentence_case(f"a player may play several cards in one turn, {self.cond(d.test, env)}; {acts}")
        return [Rule("Runs of cards", d.doc, text, tuple(sorted(self.used)))]

    def _d_Sees(self, d, keys, unit, meta):
        text = {"other faces": "everyone sees the other side of the cards in the other players' hands, and "
                               "of the top card of the draw pile",
                "every hand": "every hand is played face up: everyone sees every card",
                "stock top": "everyone sees the top card of the draw pile"}[d.what]
        return [Rule("What everyone sees", d.doc, sentence_case(text))]

    def _d_CardDecl(self, d, keys, unit, meta):
        c = self.rules.cards
        ids = [i for i in range(len(c.kind)) if c.kind[i] == d.name]
        codes = list(dict.fromkeys(c.code[i] for i in ids))
        shown = ", ".join(codes[:4]) + (" …" if len(codes) > 4 else "")
        points = sorted({c.points[i] for i in ids})
        pts = (f"{points[0]} points" if len(points) == 1 else f"{points[0]} to {points[-1]} points") if points else ""
        tags = sorted(set().union(*(c.tags[i] for i in ids))) if ids else []
        colored = any(c.colored[i] for i in ids)
        word = self.rules.color_word
        shades = {c.color[i] for i in ids if c.color[i] is not None}
        where = f"in every {word}" if shades == set(self.rules.colors) else \
            "in " + and_list([self.rules.color_titles.get(x, x) for x in self.rules.colors if x in shades])
        bits = [where if colored else f"without a {word}"] + [humanize(t) for t in tags] + ([pts] if pts else [])
        text = f"{d.title} ({shown}): {', '.join(bits)}." if ids else f"{d.title}."
        return [Rule(d.title, "", text, cards=(d.name,))]

    def _d_Deck(self, d, keys, unit, meta):
        c = self.rules.cards
        counts: dict = {}
        faces = self.rules.faces
        second = d.face is not None and len(faces) == 2 and d.face == faces[1]
        for i in self.rules.deck:
            shown = c.other[i] if second else i        # `deck FACE { }`: the backs of the deck's cards
            counts[c.kind[shown]] = counts.get(c.kind[shown], 0) + 1
        parts = [f"{n} {self.kind_title(k)}" for k, n in counts.items()]
        total = len(self.rules.deck)
        if faces:
            side = self.rules.face_titles[1 if second else 0].lower()
            return [Rule(f"The {side} side", "", f"The {side} sides of the {total} cards: {and_list(parts)}.")]
        return [Rule("The deck", "", f"The deck holds {total} {plural(total, 'card')}: {and_list(parts)}.")]

    def _d_OptionDecl(self, d, keys, unit, meta):
        """An option is a choice of the rules file, not a rule: the rules it decides say its value."""
        return []

    def _d_SetOption(self, d, keys, unit, meta):
        return []

    def _d_CounterDecl(self, d, keys, unit, meta):
        if d.hidden:               # bookkeeping: not for the table
            return []
        phrase = self.counter_phrase(d.name)
        text = f"Keep {phrase}; it starts at {fmt_value(d.start.value)} every round."
        return [Rule(capital(phrase.removeprefix("the ")), d.doc, text)]

    def _d_Window(self, d, keys, unit, meta):
        self.used = set()
        opens = next((i for i in d.items if isinstance(i, A.Opens)), None)
        closes = any(isinstance(i, A.Closes) for i in d.items)
        when, never = "after every play", False
        if opens is not None and opens.test is not None:
            test = self.simplify(opens.test, _Env())
            if isinstance(test, _Const):
                never = not test.value
            elif not opens.after_play:
                when = f"whenever {self.cond(test, _Env())}"
            else:
                when = f"after a play when {self.cond(test, _Env())}"
        text = (f"{capital(when)}" + (", until the next turn begins," if closes else ",")
                + " players may act out of turn; the first to act closes the chance.")
        out = [Rule(d.title, "", text, tuple(sorted(self.used)), kind="Window", empty=never)]
        for item in d.items:
            if not isinstance(item, A.WindowAction):
                continue
            out.append(self._window_action(item, unit))
        return out

    def _d_Whenever(self, d, keys, unit, meta):
        """`whenever C { ... }`: "Whenever C: ..."; for `some s in X where C` the statements are
        about "that player" (or card)."""
        self.used = set()
        test, roles = d.test, {}
        if isinstance(test, A.Quantifier) and test.kind == "some":
            group = self._group(test.collection, _Env())
            noun = group[4].split(" ", 1)[1] if group is not None else "card"
            roles[test.var] = "that " + noun
        when = self.cond(test, _Env())
        used = set(self.used)
        rule = self.rule("At any moment", d.doc, d.body, roles=roles, unit=unit)
        rule.sentence = sentence_case(f"whenever {when}: {rule.sentence[:1].lower()}{rule.sentence[1:].rstrip('.')}")
        rule.options = tuple(sorted(set(rule.options) | used))
        return [rule]

    def _d_Define(self, d, keys, unit, meta):
        return []           # not a rule of its own: read where a rule uses it

    def _d_Blocked(self, d, keys, unit, meta):
        self.used = set()
        text = sentence_case(f"the round ends with no winner when {self.cond(d.test, _Env())}")
        return [Rule("A blocked round", d.doc, text, tuple(sorted(self.used)))]

    def _d_StockOut(self, d, keys, unit, meta):
        if not d.body:          # an empty rule is a rule: the stock is not renewed
            return [self.rule("When the stock runs out", d.doc, unit=unit, sentence="The stock is not renewed: "
                              "a player who must draw from an empty stock draws nothing.")]
        return [self.rule("When the stock runs out", d.doc, d.body, unit=unit)]

    def _d_Uses(self, d, keys, unit, meta):
        if not meta:
            return []
        names = [self.unit_titles.get(m, m) for m in d.modules]
        return [Rule("House rules", "", sentence_case(f"uses the house rules {and_list(names)}"))]

    def _d_Requires(self, d, keys, unit, meta):
        if not meta:
            return []
        return [Rule("Cards needed", "", sentence_case("needs " + and_list([self.sel_title(s) for s in d.cards]) + " cards"))]

    def _d_RemoveCard(self, d, keys, unit, meta):
        if not meta:
            return []
        return [Rule(humanize(d.name), "", sentence_case(f"{humanize(d.name)} cards are taken out"))]

    def _d_About(self, d, keys, unit, meta):
        return [Rule("About", d.text, d.text)] if meta else []

    def _window_action(self, item, unit) -> Rule:
        self.used = set()
        env = _Env(roles=dict(self.WINDOW_ROLES))
        who = _WHO.get(item.who, humanize(item.who))
        with_card = ""
        if item.card_test is not None:
            with_card = " with " + self._card_np(item.card_test, "card", _Env())
        body = self._join(self._clauses(item.body, env.child(), 0), 0)
        text = f"{who} may call “{item.verb}”{with_card}" + (f": {body}" if body else "")
        return Rule(f"{capital(who)} may {humanize(item.verb)}", item.doc, sentence_case(text),
                    tuple(sorted(self.used)), kind="WindowAction", unit=unit)

    def asks(self, body) -> list:
        """The questions a block asks (after the options decide its branches), with their answers."""
        found = []

        def walk(stmts):
            for s in self.flatten(stmts):
                if isinstance(s, A.Ask):
                    found.append(s)
                    for a in s.answers:
                        walk(a.body)
                elif isinstance(s, A.If):
                    walk(s.then)
                    walk(s.other)
                elif isinstance(s, (A.ForEach, A.While, A.Race)):
                    walk(s.body)
        walk(body)
        return found


def _contains(node, kind) -> bool:
    return any(isinstance(n, kind) for n in A.walk(node))


def _runs(body, kind, definitions: dict, depth: int = 0) -> bool:
    """Whether a statement of this type is anywhere in `body`: its branches, blocks and the
    definitions it calls included (as deep as definitions may call one another)."""
    if depth > 50:
        return False
    for stmt in body:
        if isinstance(stmt, kind):
            return True
        inner = [v for v in (getattr(stmt, f) for f in stmt.__dataclass_fields__)
                 if isinstance(v, tuple) and v and isinstance(v[0], A.Node)]
        if isinstance(stmt, A.Ask):
            inner += [a.body for a in stmt.answers]
        if isinstance(stmt, A.Call) and stmt.name in definitions:
            inner.append(definitions[stmt.name].body)
        if any(_runs(b, kind, definitions, depth + 1) for b in inner):
            return True
    return False
