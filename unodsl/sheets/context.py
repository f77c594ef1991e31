"""The sheet's data: a rule book's sections made from a compiled ruleset, as plain dicts and lists.

The order is the order of a good rule book: who plays and what for, the contents, setup, a turn
in numbered steps, what each card does, what may be done out of turn, going out and scoring (with
a worked example), winning, variations; examples of play; and, apart, every rule's exact reading
(the appendix). Each rule is said once (`voice`); facts the engine itself decides (who starts, the
deal passing on, the reshuffle) are said here in words of their own.
"""
from __future__ import annotations

import re

from .. import __version__
from ..lang import ast as A
from .deck import contents, sel_picture, shared_side
from .describe import Describer, and_list, capital, sentence_case, with_article
from .describe.statements import answer_label
from .describe.scope import _Env
from .voice import Voice

PAPERS = {"a4": "A4", "letter": "Letter"}

GOING_OUT = "A round ends as soon as a player has played their last card (or only one player is left in it)."
STOCK = "When the stock runs out, shuffle the discard pile, all but its top card, to make a new stock."
FIRST_PLAYER = ("The player to the dealer’s left plays first, and play goes clockwise (to the left). "
                "The deal passes to the left after each round.")


def _groups(rules):
    """Composed declarations once each, with the keys each still holds and its unit."""
    seen: dict = {}
    order = []
    for key, decl, unit in rules.composed.items:
        if id(decl) not in seen:
            seen[id(decl)] = (decl, [], unit)
            order.append(id(decl))
        seen[id(decl)][1].append(key)
    return [seen[i] for i in order]


def anchor(*words) -> str:
    """An id for a section or a rule, for links ("What's different") and the appendix."""
    text = "-".join(str(w) for w in words if w)
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "rule"


def _title(rules, modules) -> str:
    added = [m["title"] for m in modules if m.get("added")]
    return rules.title + ("" if not added else " + " + " + ".join(added))


class _Book:
    """Collects the sections while walking the declarations once."""

    def __init__(self, rules, modules):
        self.rules = rules
        self.d = Describer(rules)
        self.d.unit_titles = {m["name"]: m["title"] for m in modules}
        self.v = Voice(rules, self.d)
        self.appendix: list = []          # (section, title, sentence)
        self.where: dict = {}             # id(decl) -> anchor of the section that says it
        self.setup: list = []
        self.starter: list = []
        self.counters: list = []
        self.match: list = []
        self.turn_rules: list = []        # restrictions, honesty, drawing instead of playing
        self.draw = None
        self.after: list = []
        self.cards: list = []
        self.windows: list = []
        self.questions: list = []
        self.scoring = None
        self.round_start = None
        self.teams = None
        self.dealer = None
        self.table_rules: list = []       # two faces, what each player sees, groups and rank names
        self.anytime: list = []           # `whenever` rules
        self.stock = STOCK
        self.going_out = GOING_OUT

    def note(self, section: str, title: str, sentence: str) -> None:
        if sentence:
            self.appendix.append({"section": section, "title": title, "sentence": sentence})

    def walk(self):
        for decl, keys, unit in _groups(self.rules):
            method = getattr(self, "_" + type(decl).__name__, None)
            if method is not None:
                method(decl, tuple(keys), unit)

    # ---- setup -------------------------------------------------------------------------------

    def _Deal(self, decl, keys, unit):
        r = self.d.declaration(decl)[0]
        count = r.sentence.removeprefix("Each player is dealt ").rstrip(".")
        self.deal_text = f"Shuffle the deck. The dealer deals {count} to each player, one at a time."
        if isinstance(self.d.simplify(decl.count, _Env()), A.Cond):     # "7 cards each with two players, otherwise 5"
            self.deal_text = ("Shuffle the deck. The dealer deals "
                              f"{self.d._count(decl.count, _Env(), 'card', 'cards', each=' each')}, one at a time.")
        self.note("Setup", "The deal", r.sentence)
        self.where[id(decl)] = "setup"

    def _Players(self, decl, keys, unit):
        self.note("Setup", "Players", self.d.declaration(decl)[0].sentence)

    def _DealsFirst(self, decl, keys, unit):
        said = self.v.say(decl, keys, unit)
        self.dealer = said.text
        self.note("Setup", "The first dealer", said.exact)
        self.where[id(decl)] = "setup"

    def _Teams(self, decl, keys, unit):
        said = self.v.say(decl, keys, unit)
        if said is not None:
            self.teams = said.text
            self.note("Setup", "Teams", said.exact)
            self.where[id(decl)] = "setup"

    def _CounterDecl(self, decl, keys, unit):
        said = self.v.say(decl, keys, unit)
        if said is None:
            return                         # bookkeeping the rules keep to themselves
        start = decl.start.value
        text = said.text if not said.author else f"{said.text} It starts at {start} every round."
        self.counters.append({"title": said.title, "text": text})
        self.note("Setup", said.title, said.exact)
        self.where[id(decl)] = "setup"

    def _table_rule(self, decl, keys, unit):
        """Declarations about the cards and the table (two faces and how they pair, what each
        player sees, groups of colors, rank names): a step of the setup each."""
        said = self.v.say(decl, keys, unit)
        if said is not None:
            self.table_rules.append({"title": said.title, "text": said.text})
            self.note("Setup", said.title, said.exact)
            self.where[id(decl)] = "setup"

    _Faces = _PairFaces = _Sees = _Ranks = _table_rule

    def _Group(self, decl, keys, unit):
        """Groups of colors, by the names the rules call them: one step of the setup for all of
        them ("Groups of suits. Black: Clubs and Spades. Red: Diamonds and Hearts."), and one
        line of the exact rules."""
        said = self.v.say(decl, keys, unit)
        if said is None:
            return
        title = f"Groups of {self.rules.color_word}s"
        step = next((s for s in self.table_rules if s["title"] == title), None)
        if step is None:
            self.table_rules.append({"title": title, "text": said.text})
        else:
            step["text"] += " " + said.text
        noted = next((n for n in self.appendix if n["section"] == "Setup" and n["title"] == title), None)
        if noted is None:
            self.note("Setup", title, said.exact)
        else:
            noted["sentence"] += " " + said.exact
        self.where[id(decl)] = "setup"

    def _OnRoundStart(self, decl, keys, unit):
        said = self.v.say(decl, keys, unit)
        if said is not None:
            self.round_start = said.text
            self.note("Setup", said.title, said.exact)
            self.where[id(decl)] = "setup"

    def _Starter(self, decl, keys, unit):
        said = self.v.say(decl, keys, unit)
        if said is None:
            return
        pictures = [] if decl.cards is None else [sel_picture(self.rules, self.d, s) for s in self.d._sels(decl, keys)][:3]
        self.starter.append({"title": said.title, "text": said.text, "pictures": pictures, "other": decl.cards is None})
        self.note("The starter card", said.title, said.exact)
        self.where[id(decl)] = "setup"

    # ---- the turn ------------------------------------------------------------------------------

    def _Match(self, decl, keys, unit):
        said = self.v.say(decl, keys, unit, sentence=lambda r: r.sentence)
        if said is not None:
            self.match.append(said.text.rstrip("."))
            self.note("Your turn", "You may play", said.exact)
            self.where[id(decl)] = "turn"

    def _PlayOnly(self, decl, keys, unit):
        self._turn_rule(decl, keys, unit, "Which cards may be played")

    def _Honest(self, decl, keys, unit):
        said = self.v.say(decl, keys, unit)
        if said is not None:
            self.turn_rules.append({"title": said.title, "text": said.text})
            self.note("Your turn", f"Playing {said.title}", said.exact)
            self.where[id(decl)] = "turn"

    def _Renege(self, decl, keys, unit):
        self._turn_rule(decl, keys, unit, "Drawing instead of playing", into="renege")

    def _turn_rule(self, decl, keys, unit, title, into=None):
        said = self.v.say(decl, keys, unit)
        if said is None:
            return
        if into == "renege":
            self.renege = said.text
        else:
            self.turn_rules.append({"title": title, "text": said.text})
        self.note("Your turn", title, said.exact)
        self.where[id(decl)] = "turn"

    def _Runs(self, decl, keys, unit):
        self._turn_rule(decl, keys, unit, "Playing several cards")

    def _Whenever(self, decl, keys, unit):
        said = self.v.say(decl, keys, unit)
        if said is not None:
            self.anytime.append(said.text)
            self.note("Your turn", "At any moment", said.exact)
            self.where[id(decl)] = "turn"

    def _StockOut(self, decl, keys, unit):
        said = self.v.say(decl, keys, unit)
        if said is not None:
            self.stock = said.text if said.author else "When the stock runs out: " + said.text[:1].lower() + said.text[1:]
            self.note("Your turn", "When the stock runs out", said.exact)
            self.where[id(decl)] = "turn"

    def _Blocked(self, decl, keys, unit):
        said = self.v.say(decl, keys, unit)
        if said is not None:
            self.going_out = f"{GOING_OUT} {said.text}"
            self.note("Scoring and winning", "A blocked round", said.exact)
            self.where[id(decl)] = "scoring"

    def _OnDraw(self, decl, keys, unit):
        said = self.v.say(decl, keys, unit)
        if said is not None:
            self.draw = said.text
            self.note("Your turn", "Drawing", said.exact)
            self.where[id(decl)] = "turn"

    def _AfterPlay(self, decl, keys, unit):
        said = self.v.say(decl, keys, unit)
        if said is not None:
            self.after.append(said.text)
            self.note("Your turn", "After every play", said.exact)
            self.where[id(decl)] = "turn"

    # ---- cards, out of turn, scoring -----------------------------------------------------------

    def _OnPlay(self, decl, keys, unit):
        said = self.v.say(decl, keys, unit)
        if said is None:
            return
        sels = self.d._sels(decl, keys)
        pictures = [sel_picture(self.rules, self.d, s) for s in sels][:3]
        side = self._side(sels, said.title)
        same = next((c for c in self.cards if c["title"] == said.title and c["text"] == said.text), None)
        self.note("What each card does", f"{said.title} ({side.lower()} side)" if side else said.title, said.exact)
        if same is not None:      # the same words for a card of each side (a light and a dark Wild): said once
            same["pictures"] = (same["pictures"] + pictures)[:3]
            same["selectors"] = tuple(same["selectors"]) + tuple(sels)
            self.where[id(decl)] = same["id"]
        else:
            item = {"id": anchor("card", side, said.title), "title": said.title, "text": said.text,
                    "pictures": pictures, "selectors": sels, "decl": decl}
            if any(c["title"] == said.title for c in self.cards) and side:
                item["title"] = f"{said.title} ({side.lower()} side)"
            self.cards.append(item)
            self.where[id(decl)] = item["id"]
        said_id = self.where[id(decl)]
        for ask in self.d.asks(decl.body):
            self._question(ask, said.title, said_id)

    def _side(self, sels, title: str) -> str:
        """The side of two-sided cards a rule is about, when the other side has a card of its title."""
        return shared_side(self.rules, self.d, {s.kind for s in sels if isinstance(s, A.KindSel)}, title)

    def _question(self, ask, cards_title: str, card_id: str):
        env = self.d.asked.get(id(ask), _Env())
        who = self.d.np(ask.who, env)
        answers = []
        for i, a in enumerate(ask.answers):
            self.d.used = set()
            body = self.d.block(a.body, env)
            exact = sentence_case(body) if body else "Nothing more happens."
            holds = self.v.holds([body], lambda: [self.v.at_defaults.block(a.body, env)])
            label = capital(answer_label(a.name, i).strip("“”"))
            text = sentence_case(a.doc) if a.doc and holds else exact
            answers.append({"label": label, "text": text, "exact": exact})
            self.note("Out of turn", f"{ask.question or cards_title}: {label}", exact)
        question = ask.question or f"The {cards_title} question"
        q = {"id": anchor("ask", card_id, question), "title": question,
             "who": f"Asked of {who} after {with_article(cards_title)}.", "answers": answers,
             "cards": [cards_title], "asked": who}
        if not any(self._merge_question(old, q) for old in self.questions):
            self.questions.append(q)

    @staticmethod
    def _merge_question(old: dict, new: dict) -> bool:
        """Two cards asking the same question of the same player, with an answer in the same
        words ("Challenge the Wild Draw Two?" and "... Wild Draw Color?"), make one question, so
        the shared answer is said once: "Challenge the Wild Draw Two or Wild Draw Color?"."""
        shared = {(a["label"], a["text"]) for a in old["answers"]} & {(a["label"], a["text"]) for a in new["answers"]}
        card, mark = new["cards"][0], "\0"
        template = new["title"].replace(card, mark)
        if not shared or old["asked"] != new["asked"] or mark not in template \
                or old["title"] != template.replace(mark, and_list(old["cards"], "or")):
            return False
        cards = old["cards"] + [card]
        old["title"] = template.replace(mark, and_list(cards, "or"))
        old["cards"] = cards
        old["who"] = f"Asked of {old['asked']} after " + and_list([with_article(c) for c in cards], "or") + "."
        answers = []
        for a in old["answers"] + new["answers"]:
            if (a["label"], a["text"]) in shared:
                if all((b["label"], b["text"]) != (a["label"], a["text"]) for b in answers):
                    answers.append(a)
            elif a.get("after"):
                answers.append(a)             # already said after which card
            else:
                after = card if a in new["answers"] else and_list(old["cards"][:-1], "or")
                answers.append({**a, "label": f"{a['label']}, after {with_article(after)}", "after": True})
        old["answers"] = answers
        return True

    def _Window(self, decl, keys, unit):
        rs = self.d.declaration(decl, keys, unit)
        if not rs or rs[0].empty:
            return
        when, actions = rs[0], []
        items = [i for i in decl.items if isinstance(i, A.WindowAction)]
        for k, (item, r) in enumerate(zip(items, rs[1:])):
            if r.empty:
                continue
            doc_ok = bool(item.doc) and self.v.doc_holds(
                [r], lambda: self.v.at_defaults.declaration(decl, keys, unit)[1 + k:2 + k])
            actions.append(sentence_case(item.doc) if doc_ok else r.sentence)
            self.note("Out of turn", decl.title, r.sentence)
        wid = anchor("out-of-turn", decl.title)
        needs_when = any(not (i.doc) for i in decl.items if isinstance(i, A.WindowAction))
        self.windows.append({"id": wid, "title": decl.title, "when": when.sentence if needs_when else "",
                             "actions": actions})
        self.note("Out of turn", decl.title, when.sentence)
        self.where[id(decl)] = wid

    def _OnRoundEnd(self, decl, keys, unit):
        rs = self.d.declaration(decl, keys, unit)
        live = [r for r in rs if not r.empty]
        if not live:
            return
        for r in live:
            self.note("Scoring and winning", r.title, r.sentence)
        doc_ok = bool(decl.doc) and self.v.doc_holds(rs, lambda: self.v.at_defaults.declaration(decl, keys, unit))
        self.scoring = [sentence_case(decl.doc)] if doc_ok else [r.sentence for r in live]
        self.where[id(decl)] = "scoring"


def turn_steps(book: _Book) -> list:
    """A turn in numbered steps: play a card that matches, or draw; then what follows a play."""
    steps = []
    if book.match:
        steps.append({"title": "Play a card", "text": "Put one card from your hand on the discard pile. You may play:",
                      "choices": book.match, "rules": book.turn_rules})
    else:
        steps.append({"title": "Play a card", "text": "Put any card from your hand on the discard pile.",
                      "choices": [], "rules": book.turn_rules})
    draw = []
    renege = getattr(book, "renege", None)
    if renege:
        draw.append(renege)
    if book.draw:
        draw.append(book.draw)
    if draw:
        steps.append({"title": "Or draw", "text": " ".join(draw), "choices": [], "rules": []})
    if book.after:
        steps.append({"title": "After every play", "text": " ".join(book.after), "choices": [], "rules": []})
    if book.anytime:
        steps.append({"title": "At any moment", "text": " ".join(book.anytime), "choices": [], "rules": []})
    return steps


def setup_steps(book: _Book) -> list:
    steps = []
    if book.dealer:
        steps.append({"title": "The first dealer", "text": book.dealer})
    if book.teams:
        steps.append({"title": "Teams", "text": book.teams})
    steps.append({"title": "The deal", "text": getattr(book, "deal_text", "Shuffle the deck and deal.")})
    steps.append({"title": "The starter card", "text": "Put the rest of the deck face down as the stock, and turn "
                  "its top card face up to start the discard pile." + (" If it is:" if book.starter else "")})
    if book.round_start:
        steps.append({"title": "Each round, before the first turn", "text": book.round_start})
    for c in book.table_rules + book.counters:
        steps.append(c)
    steps.append({"title": "Who starts", "text": FIRST_PLAYER})
    return steps


def variations(rules, d: Describer, parent=None) -> list:
    """House rules the options leave out: the text of every yes-or-no option that is off and that
    some rule reads. An option written for the parent about one of its cards that this ruleset
    removed ("A Wild Draw Four played as the last card ...") is said of the cards whose rules now
    read it ("A Wild Draw Two or Wild Draw Color played ...")."""
    readers: dict = {}
    for _, decl, _ in rules.composed.items:
        for node in A.walk(decl):
            if isinstance(node, A.Name) and node.id in rules.options:
                readers.setdefault(node.id, []).append(decl)
    here = {d.kind_title(k) for k in rules.kinds}
    gone = [] if parent is None else [x.title for x in parent.composed.decls(A.CardDecl) if x.title not in here]
    out = []
    for name, info in rules.options.items():
        if not (isinstance(info.value, bool) and not info.value and info.doc and name in readers):
            continue
        text = info.doc
        named_gone = [t for t in gone if re.search(r"\b" + re.escape(t) + r"\b", text)]
        if named_gone:
            now = list(dict.fromkeys(d.sel_title(s) for decl in dict.fromkeys(readers[name])
                                     if isinstance(decl, A.OnPlay) for s in decl.cards or ()))
            if len(named_gone) != 1 or not now:
                continue                       # about cards this ruleset does not have
            text = re.sub(r"\b" + re.escape(named_gone[0]) + r"\b", and_list(now, "or"), text)
        out.append(sentence_case(text))
    return out


def build_context(rules, *, parent=None, modules=(), paper: str = "a4", stats: int = 0,
                  title: str | None = None, stats_players: int | None = None, examples=()) -> dict:
    """Everything a sheet template needs, as plain data."""
    from .changes import diff
    from .examples import example_context
    from .facts import play_facts
    from .scoring import worked_example
    book = _Book(rules, modules)
    book.walk()
    low, high = rules.players
    ctx: dict = {
        "title": title or _title(rules, modules),
        "name": rules.name,
        "about": rules.about,
        "players": {"low": low, "high": high,
                    "text": f"{low} players" if low == high else f"{low} to {high} players"},
        "house_rules": [dict(m) for m in modules],
        "paper": paper, "page_size": PAPERS.get(paper, "A4"),
        "generator": f"unodsl {__version__}",
    }
    ctx["contents"] = contents(rules, book.d)
    ctx["setup"] = {"steps": setup_steps(book), "starter": book.starter}
    ctx["turn"] = {"steps": turn_steps(book), "stock": book.stock}
    ctx["cards"] = [{k: v for k, v in c.items() if k not in ("selectors", "decl")} for c in book.cards]
    ctx["out_of_turn"] = {"windows": book.windows, "questions": book.questions}
    ctx["scoring"] = {"going_out": book.going_out, "rules": book.scoring or [],
                      "example": worked_example(rules, book.d)}
    ctx["variations"] = variations(rules, book.d, parent)
    ctx["examples"] = [example_context(rules, x, i) for i, x in enumerate(examples)]
    ctx["appendix"] = _appendix(book.appendix)
    ctx["aid"] = player_aid(rules, book, ctx)
    ctx["diff"] = diff(parent, rules, book, modules) if parent is not None else None
    ctx["stats"] = play_facts(rules, stats, stats_players) if stats else None
    return ctx


def first_sentence(text: str) -> str:
    """The first sentence of a text, for the one line of the player aid."""
    m = re.match(r"(.+?[.!?])(\s|$)", text or "")
    return m.group(1) if m else sentence_case(text or "")


def player_aid(rules, book: _Book, ctx: dict) -> dict:
    """The one-page aid: each card with one line of what it does, the turn in three lines, and
    what may be done out of turn."""
    cards = []
    said_kinds = set()
    for c in book.cards:
        cards.append({"pictures": c["pictures"][:1], "title": c["title"], "text": first_sentence(c["text"])})
        said_kinds |= {s.kind for s in c["selectors"] if isinstance(s, A.KindSel) and s.ranks is None}
    plain: dict = {}                  # title -> pictures: a kind on both sides of the cards is one line
    for row in ctx["contents"]["rows"]:
        if row["kind"] not in said_kinds:
            plain.setdefault(row["title"], []).append(row["picture"])
    cards[:0] = [{"pictures": pics[:2], "title": title, "text": "No effect of its own."} for title, pics in plain.items()]
    turn = []
    if book.match:
        turn.append({"title": "Play", "text": "one card that is " + and_list(book.match, "or") + "."})
    draw = [t for t in (getattr(book, "renege", None), book.draw) if t]
    if draw:
        turn.append({"title": "Or draw", "text": " ".join(first_sentence(t) for t in draw)})
    turn.append({"title": "Go out", "text": first_sentence(book.going_out)})
    answers = []
    for w in book.windows:
        for a in w["actions"]:
            answers.append({"title": w["title"], "text": first_sentence(a)})
    for q in book.questions:
        answers.append({"title": q["title"],
                        "text": " ".join(f"{a['label']}: {first_sentence(a['text'])}" for a in q["answers"])})
    return {"cards": cards, "turn": turn, "answers": answers}


SECTIONS = ("Setup", "The starter card", "Your turn", "What each card does", "Out of turn", "Scoring and winning")


def _appendix(notes: list) -> list:
    """The exact readings, grouped by section in the sheet's order, each said once."""
    out: list = []
    seen = set()
    order = {name: i for i, name in enumerate(SECTIONS)}
    for n in sorted(notes, key=lambda n: order.get(n["section"], len(order))):
        key = (n["section"], n["sentence"])
        if key in seen:
            continue
        seen.add(key)
        if not out or out[-1]["section"] != n["section"]:
            out.append({"section": n["section"], "rules": []})
        out[-1]["rules"].append({"title": n["title"], "sentence": n["sentence"]})
    return out


__all__ = ["build_context", "anchor", "PAPERS"]
