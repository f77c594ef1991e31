"""Statements as clauses, joined so that consecutive statements about one player share the
subject ("the next player draws 2 cards and loses their turn").
"""
from __future__ import annotations

import re
from dataclasses import fields, replace

from ...lang import ast as A
from .scope import _Bind, _Const, _Env
from .words import (
    _GROUPS,
    NOTHING,
    and_list,
    fmt_value,
    humanize,
    number_words,
    plural,
    with_article,
    wordish,
)

_SEATS_PLAYER = "the player"


class Statements:
    """Mixed into Describer."""

    def _s_unknown(self, s, env) -> str:
        args = []
        for f in s.__dataclass_fields__:
            if f == "span":
                continue
            v = getattr(s, f)
            if isinstance(v, A.Node):
                args.append(self.np(v, env))
            elif isinstance(v, (str, int)) and not isinstance(v, bool):
                args.append(str(v))
        name = re.sub(r"(?<!^)([A-Z])", r" \1", type(s).__name__).lower()
        return f"{name} {' '.join(args)}".strip()

    def _s_Draws(self, s, env, depth):
        who = self._subject(s.who, env)
        return [(who, self._with_subject(who, lambda: "draws " + self._count(s.count, env, "card", "cards")))]

    def _s_DrawsUntil(self, s, env, depth):
        who = self._subject(s.who, env)
        what = self._with_subject(who, lambda: self._card_np(s.test, "it", env))
        return [(who, f"draws cards one at a time until they draw {what}")]

    def _s_Skip(self, s, env, depth):
        return [(self._subject(s.who, env), "loses their turn")]

    def _s_Reverse(self, s, env, depth):
        return [(None, "play changes direction")]

    def _s_ChooseColor(self, s, env, depth):
        word = self.rules.color_word
        if s.optional:
            return [(self._subject(s.who, env), f"may choose a new {word}")]
        if s.among is not None and s.among in self.rules.groups:
            names = [self.rules.color_titles.get(c, c) for c in self.rules.groups[s.among]]
            return [(self._subject(s.who, env), f"chooses a {word}: " + " or ".join([", ".join(names[:-1]), names[-1]]
                                                                                 if len(names) > 1 else names))]
        return [(self._subject(s.who, env), f"chooses a {word}")]

    def _s_SetColor(self, s, env, depth):
        return [(None, f"the current {self.rules.color_word} becomes {self.np(s.value, env)}")]

    def _s_Picks(self, s, env, depth):
        who = self._subject(s.who, env)
        group = self._group(s.among, env)
        among_type = self._type(s.among, env)
        if group is not None:
            one, kind = group[4], "seat"
        elif among_type == "cards":
            owner = self._with_subject(who, lambda: self.np(s.among, env))
            one, kind = f"{self._card_np(s.where, s.var, env)} from {owner}", "card"
            s = type(s)(s.span, s.who, s.var, s.among, None, s.optional)     # the condition is said
        elif among_type == "colors":
            one, kind = f"a {self.rules.color_word}", "color"
        else:
            one, kind = f"one of {self.np(s.among, env)}", "seat"
        name = self.var_phrase(s.var, env, {"seat": "the chosen player", "card": "the chosen card"}.get(
            kind, f"the chosen {self.rules.color_word}"))
        where = ""
        if s.where is not None:
            w = s.where
            if isinstance(w, A.Binary) and w.op == "!=" and self._is_var(w.left, s.var) and not self._mentions(w.right, s.var):
                other = self.np(w.right, env)
                where = f" other than {'themselves' if other == who else other}"
                if group is not None and group is _GROUPS["others"] and who != _SEATS_PLAYER:
                    one = "a player"
                    where += " and the player"
            else:
                inner = env.child()
                inner.vars[s.var] = _Bind("the " + ("player" if kind == "seat" else "card"), kind)
                where = f" such that {self.cond(w, inner)}"
        env.vars[s.var] = _Bind(name, kind)
        named = f" as {name}" if wordish(s.var) else ""
        if s.optional:
            return [(who, f"may pick {one}{where}{named}, or decline")]
        return [(who, f"picks {one}{where}{named}")]

    def _s_SwapHands(self, s, env, depth):
        return [(self._subject(s.who, env), f"swaps hands with {self.np(s.other, env)}")]

    def _s_PassHands(self, s, env, depth):
        return [(_GROUPS["everyone"][0], "passes their hand to the next player in the direction of play")]

    def _s_If(self, s, env, depth):
        test = self.simplify(s.test, env)
        if isinstance(test, _Const):
            return self._clauses(s.then if test.value else s.other, env.child(), depth)
        inner = self.flatten(s.then, env)
        if not self.flatten(s.other, env) and len(inner) == 1 and isinstance(inner[0], A.If) \
                and not self.flatten(inner[0].other, env):
            # `if A { if B { X } }`: "if A and B, X"
            return self._s_If(A.If(s.span, A.Binary(s.span, "and", s.test, inner[0].test), inner[0].then, ()),
                              env, depth)
        then = self._join(self._clauses(s.then, env.child(), depth + 1), depth + 1)
        other = self._join(self._clauses(s.other, env.child(), depth + 1), depth + 1)
        if not then and not other:
            return []
        if not then:
            return [(None, f"if {self.neg(test, env)}, {other}")]
        text = f"if {self.cond(test, env)}, {then}"
        if other:
            text += ("; otherwise " if depth == 0 else ", otherwise ") + other
        return [(None, text)]

    def _s_Ask(self, s, env, depth):
        self.asked[id(s)] = env.child()          # the names bound where it is asked, for the sheet
        who = self._subject(s.who, env)
        answers = []
        for i, a in enumerate(s.answers):
            body = self._join(self._clauses(a.body, env.child(), depth + 1), depth + 1)
            answers.append(f"{answer_label(a.name, i)}: {body or 'nothing more happens'}")
        question = f" “{s.question}”" if s.question else " a question"
        return [(who, f"is asked{question}, with the answers " + "; ".join(answers))]

    def _s_Reveal(self, s, env, depth):
        until = " until the round ends" if s.until == "round" else ""
        return [(self._subject(s.who, env), f"shows their hand to {self.np(s.to, env)}{until}")]

    def _s_Flip(self, s, env, depth):
        pile = ("each card of the discard pile is turned where it lies" if s.keep_order else
                "the discard pile is turned over, so its bottom card comes on top")
        return [(None, "every card is turned over to its other side: the hands, the draw pile (its order "
                       f"reversed) and the discard pile ({pile})")]

    def _s_Scores(self, s, env, depth):
        who = self._subject(s.who, env)

        def amount():
            e = s.amount
            simple = self.simplify(e, env) if not isinstance(e, A.Name) else e
            if isinstance(simple, (A.Literal, _Const)) or (isinstance(simple, A.Name) and self._is_option(simple.id, env)):
                return self._count(e, env, "point", "points")
            text = self.np(e, env)
            return text if "point" in text else text + " points"
        return [(who, "scores " + self._with_subject(who, amount))]

    def _s_Eliminate(self, s, env, depth):
        return [(self._subject(s.who, env), "is out of the round" if s.round_only else "is out of the game")]

    def _s_SetCounter(self, s, env, depth):
        value = self.np(s.value, env)
        if fmt_value(self.counters.get(s.name)) == value:
            return [(None, f"{self.counter_phrase(s.name)} goes back to {value}")]
        return [(None, f"{self.counter_phrase(s.name)} becomes {value}")]

    def _s_AddCounter(self, s, env, depth):
        amount = self.simplify(s.value, env)
        if isinstance(amount, (A.Literal, _Const)) and isinstance(amount.value, int) and amount.value < 0:
            return [(None, f"{self.counter_phrase(s.name)} goes down by {-amount.value}")]
        return [(None, f"{self.counter_phrase(s.name)} goes up by {self.np(s.value, env)}")]

    def _s_MayPlayCard(self, s, env, depth):
        who = self._subject(s.who, env)
        what = self._with_subject(who, lambda: self._card_np(s.test, "card", env, "another"))
        return [(who, f"may play {what}, or pass")]

    def _s_PlaysCard(self, s, env, depth):
        return [(self._subject(s.who, env), f"plays {self.np(s.card, env)}")]

    def _s_Race(self, s, env, depth):
        group = self._group(s.among, env)
        among = group[3] if group is not None else self.np(s.among, env)
        inner = env.child()
        inner.vars[s.var] = _Bind(self.var_phrase(s.var, env, "the slowest player"), "seat")
        body = self._join(self._clauses(s.body, inner, depth + 1), depth + 1) or NOTHING
        prompt = f" (“{s.prompt}”)" if s.prompt else ""
        return [(None, f"{among} race{prompt}, and {body}")]

    def _s_Chance(self, s, env, depth):
        name = self.var_phrase(s.var, env, "the number drawn")
        if s.among is not None:
            return self._chance_pick(s, env)
        env.vars[s.var] = _Bind(name, "int")
        span = self._within(s.low, s.high, env)
        if span is not None:
            what = f"a random number within {span[1]} of {span[0]}"
        else:
            what = f"a random number from {self.np(s.low, env)} to {self.np(s.high, env)}"
        prompt = f" (“{s.prompt}”)" if s.prompt else ""
        if wordish(s.var):
            return [(None, f"{name} is {what}{prompt}")]
        return [(None, f"{what} is drawn{prompt}")]

    def _within(self, low, high, env):
        """(centre, spread) when a range is written `x - k` to `x + k`."""
        lo, hi = self.simplify(low, env), self.simplify(high, env)
        if isinstance(lo, A.Binary) and isinstance(hi, A.Binary) and lo.op == "-" and hi.op == "+":
            a, b = self.simplify(lo.right, env), self.simplify(hi.right, env)
            if isinstance(a, (A.Literal, _Const)) and isinstance(b, (A.Literal, _Const)) and a.value == b.value \
                    and self.np(lo.left, env) == self.np(hi.left, env):
                return self.np(lo.left, env), a.value
        return None

    def _chance_pick(self, s, env):
        """`chance NAME from COLLECTION`: one of them at random."""
        group = self._group(s.among, env)
        kind = self._type(s.among, env)
        if group is not None:
            one, kind = group[4], "seat"
        elif kind == "colors":
            one, kind = f"a {self.rules.color_word}", "color"
        elif kind == "cards":
            one, kind = f"{self._card_np(s.where, s.var, env)} from {self.np(s.among, env)}", "card"
            s = type(s)(s.span, s.var, s.prompt, None, None, s.among, None)     # the condition is said
        else:
            one, kind = f"one of {self.np(s.among, env)}", "seat"
        name = self.var_phrase(s.var, env, {"seat": "the player picked", "card": "the card picked"}.get(
            kind, f"the {self.rules.color_word} picked"))
        bind = _Bind(name, kind)
        where = ""
        if s.where is not None:
            inner = env.child()
            inner.vars[s.var] = bind
            w = s.where
            if isinstance(w, A.Binary) and w.op == "!=" and self._is_var(w.left, s.var) and not self._mentions(w.right, s.var):
                where = f" other than {self.np(w.right, env)}"
            else:
                where = f" such that {self.cond(w, inner)}"
        env.vars[s.var] = bind
        named = f" as {name}" if wordish(s.var) else ""
        return [(None, f"{one}{where} is picked at random{named}")]

    def _s_While(self, s, env, depth):
        body = self._join(self._clauses(s.body, env.child(), depth + 1), depth + 1) or NOTHING
        return [(None, f"as long as {self.cond(s.test, env)}, again and again: {body}")]

    def _s_DiscardsCard(self, s, env, depth):
        return [(self._subject(s.who, env), f"discards {self.np(s.card, env)}")]

    def _s_Redeal(self, s, env, depth):
        return [(None, "every hand is gathered, shuffled and dealt out again one card at a time, "
                       f"starting with {self.np(s.start, env)}")]

    def _s_Cancel(self, s, env, depth):
        return [(None, "the top card’s effect is undone")]

    _PILES = {"stock": "the stock", "discard": "the discard pile"}

    def _s_PutCard(self, s, env, depth):
        where = "at the bottom of" if s.bottom else "on top of"
        return [(self._subject(s.who, env), f"puts {self.np(s.card, env)} {where} {self._PILES[s.pile]}")]

    def _s_TurnOver(self, s, env, depth):
        return [(None, f"{self._PILES[s.pile]} is turned over, its bottom card now on top")]

    def _s_ShufflePile(self, s, env, depth):
        if s.into is None:
            return [(None, f"{self._PILES[s.pile]} is shuffled")]
        what = self._PILES[s.pile]
        if s.where is not None:
            what = self._card_np(s.where, "card", env, "every") + f" of {what}"
        but = ", except its top card," if s.keep_top else ""
        return [(None, f"{what}{but} is shuffled into {self._PILES[s.into]}")]

    def _s_SwapSeats(self, s, env, depth):
        return [(self._subject(s.who, env), f"swaps seats with {self.np(s.other, env)}")]

    def _s_Starts(self, s, env, depth):
        return [(self._subject(s.who, env), "plays first")]

    def _s_PlaysAgain(self, s, env, depth):
        return [(self._subject(s.who, env), "plays again")]

    def _s_ReturnStarter(self, s, env, depth):
        return [(None, "the card goes back into the deck, the deck is shuffled and another card is turned up")]

    def _s_AsIfPlayed(self, s, env, depth):
        if s.card is not None:
            return [(None, f"{self.np(s.card, env)} takes effect again, as if {self.np(s.who, env)} had played it")]
        return [(None, f"it takes effect as if {self.np(s.who, env)} had played it")]

    def _s_PlayDrawn(self, s, env, depth):
        verb = "must" if s.must else "may"
        return [(self._subject(s.who, env), f"{verb} play the drawn card if it can be played")]

    def _s_ForEach(self, s, env, depth):
        group = self._group(s.collection, env)
        if group is not None:
            each, that, kind = group[2], "that player", "seat"
            noun = group[2].split(" ", 1)[1]          # "other player", "player", "opponent"
        else:
            each, that, kind = "each card", "that card", "card"
            noun = f"card in {self.np(s.collection, env)}"
        # "each player draws 2 cards" when every statement is about the loop's player; tried only
        # when the statements say so, so that nested loops are described once, not twice per level
        if _all_about(s.body, s.var):
            inner = env.child()
            inner.vars[s.var] = _Bind(each, kind)
            saved = self.used.copy()
            clauses = self._clauses(s.body, inner, depth + 1)
            if clauses and all(subj == each for subj, _ in clauses):
                return clauses
            self.used = saved
        # `for each s in G { if TEST { ... } }`: "each player whose score is at least 500 ..."
        body = self.flatten(s.body, env)
        if len(body) == 1 and isinstance(body[0], A.If) and not body[0].other and _all_about(body[0].then, s.var):
            saved = self.used.copy()
            inner = env.child()
            inner.vars[s.var] = _Bind(that, kind)
            test = self.cond(body[0].test, inner)
            lead = that + "’s "
            who = f"{each} whose {test[len(lead):]}" if test.startswith(lead) else f"{each} for whom {test}"
            inner = env.child()
            inner.vars[s.var] = _Bind(who, kind)
            then = self._clauses(body[0].then, inner, depth + 1)
            if then and all(subj == who for subj, _ in then):
                return then
            self.used = saved
        inner = env.child()
        inner.vars[s.var] = _Bind(that, kind)
        text = self._join(self._clauses(s.body, inner, depth + 1), depth + 1) or NOTHING
        return [(None, f"for each {noun}: {text}")]

    def _s_Let(self, s, env, depth):
        env.vars[s.name] = _Bind(self.np(s.value, env), self._type(s.value, env))
        return []

    def _s_Call(self, s, env, depth):
        """A named statement: its author's words when the `define` has them, else its statements'
        English with the values given in place of the parameters."""
        d = getattr(self.rules, "definitions", {}).get(s.name)
        if d is None:
            return [(None, self._s_unknown(s, env))]
        if d.doc:
            return [(None, d.doc[:1].lower() + d.doc[1:].rstrip("."))]
        body = _substitute(d.body, dict(zip(d.params, s.args)))
        return self._clauses(body, env.child(), depth)

    def _s_EndGame(self, s, env, depth):
        return [(None, f"the game ends and the {s.best} score wins")]

    def _s_EndRound(self, s, env, depth):
        return [(None, "the round ends at once")]

    def _s_DiscardMatching(self, s, env, depth):
        who = self._subject(s.who, env)
        what = self._with_subject(who, lambda: self._card_np(s.test, s.var, env, "every"))
        return [(who, f"discards {what} from {self._with_subject(who, lambda: self.np(s.collection, env))}")]

    def _join(self, clauses: list, depth: int) -> str:
        groups: list = []
        for subj, pred in _repeats(clauses):
            if groups and subj is not None and groups[-1][0] == subj:
                groups[-1][1].append(pred)
            else:
                groups.append((subj, [pred]))
        parts = [(f"{s} " if s else "") + and_list(preds) for s, preds in groups]
        if depth == 0:
            return "; ".join(parts)
        return and_list(parts)

    def _clauses(self, body, env: _Env, depth: int) -> list:
        out = []
        for s in body:
            method = getattr(self, "_s_" + type(s).__name__, None)
            if method is None:
                out.append((None, self._s_unknown(s, env)))
                continue
            got = method(s, env, depth)
            out.extend(got)
        return out

    def _subject(self, who, env) -> str:
        return self.np(who, env)

    def _with_subject(self, subject: str, fn):
        saved = self.subject
        self.subject = subject
        try:
            return fn()
        finally:
            self.subject = saved

    def _count(self, e, env, one: str, many: str, each: str = "") -> str:
        """A number of things: "2 cards", "the pending cards", "7 cards with two players,
        otherwise 5" (`each` goes after the first number: "7 cards each with two players")."""
        e2 = self.simplify(e, env) if not isinstance(e, A.Name) else e
        if isinstance(e2, A.Cond):
            first = self._count(e2.then, env, one, many)
            rest = self._count(e2.other, env, one, many)
            rest = rest.removesuffix(" " + many).removesuffix(" " + one) if rest[:1].isdigit() else rest
            return f"{first}{each} {self._count_when(e2.test, env)}, otherwise {rest}"
        if isinstance(e2, (A.Literal, _Const)) and isinstance(e2.value, int):
            return f"{e2.value} {plural(e2.value, one, many)}"
        if isinstance(e2, A.Name) and self._is_option(e2.id, env) and isinstance(self.options[e2.id], int):
            self.used.add(e2.id)
            v = self.options[e2.id]
            return f"{v} {plural(v, one, many)}"
        if isinstance(e2, A.Name) and e2.id in self.counters and e2.id not in env.vars:
            if wordish(e2.id):
                return f"the {humanize(e2.id)} {many}"
            return f"as many {many} as {self.counter_phrase(e2.id)}"
        if isinstance(e2, A.Attr):
            values = self._card_values(e2, env)
            if values is not None and len(values) == 1:
                v = next(iter(values))
                return f"{v} {plural(v, one, many)}"
            if values is not None and all(isinstance(v, int) for v in values):
                return " or ".join(
                    f"{v} {plural(v, one, many)} for "
                    + and_list(sorted({with_article(self.kind_title(self.rules.cards.kind[i])) for i in ids}))
                    for v, ids in sorted(values.items()))
        return f"as many {many} as {self.np(e2, env)}"


    def _count_when(self, test, env) -> str:
        """When a number applies: "with two players", or "if ..."."""
        if isinstance(test, A.Binary) and test.op == "==" and isinstance(test.left, A.Builtin) \
                and test.left.id == "players" and "players" not in env.roles \
                and isinstance(test.right, A.Literal) and isinstance(test.right.value, int):
            return f"with {number_words(test.right.value)} players"
        return "if " + self.cond(test, env)


def _all_about(body, var: str) -> bool:
    """Whether every statement of a block (its `let`s aside) has the loop's player as subject."""
    acts = [x for x in body if not isinstance(x, A.Let)]
    return bool(acts) and all(isinstance(getattr(x, "who", None), A.Name) and x.who.id == var for x in acts)


def answer_label(name: str, index: int) -> str:
    """An answer of a question as the sheet quotes it: its word when it reads as one."""
    ordinals = ("first", "second", "third", "fourth", "fifth", "sixth")
    if wordish(name):
        return f"“{humanize(name)}”"
    return f"the {ordinals[index]} answer" if index < len(ordinals) else f"answer {index + 1}"


_REPEATED = {"loses their turn": lambda n: f"loses their next {number_words(n)} turns"}


def _repeats(clauses: list) -> list:
    """Runs of one clause said again and again, said once: "loses their next two turns", "… twice"."""
    out: list = []
    for clause in clauses:
        if out and out[-1][0] == clause:
            out[-1][1] += 1
        else:
            out.append([clause, 1])
    merged = []
    for (subj, pred), n in out:
        if n > 1:
            pred = _REPEATED[pred](n) if pred in _REPEATED else pred + (" twice" if n == 2 else f" {number_words(n)} times")
        merged.append((subj, pred))
    return merged


def _substitute(node, values: dict):
    """A copy of statements with each name in `values` replaced by the expression given for it
    (so that a named statement reads with its arguments in place)."""
    if isinstance(node, tuple):
        return tuple(_substitute(x, values) for x in node)
    if isinstance(node, A.Name) and node.id in values:
        return values[node.id]
    if not isinstance(node, A.Node):
        return node
    changes = {f.name: _substitute(getattr(node, f.name), values) for f in fields(node)
               if f.name != "span" and isinstance(getattr(node, f.name), (A.Node, tuple))}
    return replace(node, **changes) if changes else node
