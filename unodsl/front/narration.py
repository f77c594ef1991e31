"""What happened, told to one seat in plain English: the words both front ends print.

The terminal game and the web table say the same sentences, made here from the events a seat may
see (`Game.events_for(seat, start)`) and the words of the ruleset (card names, color titles, the
questions and answers an `ask` declares, the verbs and descriptions of out-of-turn actions). The
viewer is spoken to in the second person ("You draw Red 5", "p2 plays Blue Skip; you lose your
turn"); a spectator (viewer None) hears everyone in the third person.

Every kind of event in `unodsl.engine.events.EVENTS` has a sentence here (`SENTENCES`; a test
keeps the two in step). A few events only make sense with their neighbours, so one batch of events
is told as a whole: a play and the color it names are one sentence, a draw and the lost turn that
follows are one, an out-of-turn play names the card it was made with. Nothing here knows a card,
a color or a variant: every noun comes from the ruleset.
"""
from __future__ import annotations

import re

from ..lang import ast as A

__all__ = ["Narrator", "SENTENCES", "for_players", "questions", "third_person", "plural"]


def third_person(verb: str) -> str:
    """`catch` -> `catches`, `say` -> `says`: enough English for the verbs rules give to moves."""
    if verb.endswith(("ch", "sh", "s", "x", "z", "o")):
        return verb + "es"
    if verb.endswith("y") and len(verb) > 1 and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def words_of(name: str) -> str:
    """An answer or verb as the rules spell it, in words: `no_bet` -> `no bet`."""
    return name.replace("_", " ").replace("-", " ")


def questions(rules) -> dict:
    """Every question the rules ask (`ask ... "question" { answer "doc" ... }`): question -> {answer:
    its description}. Read from the composed declarations, so modules' questions are included."""
    found: dict = {}
    composed = getattr(rules, "composed", None)
    if composed is None:
        return found
    for _, decl, _ in composed.items:
        for node in A.walk(decl):
            if isinstance(node, A.Ask):
                found.setdefault(node.question, {}).update(
                    {a.name: for_players(rules, a.doc) for a in node.answers})
    return found


def for_players(rules, text: str) -> str:
    """An author's description as a player needs it during a game: the asides that tell a sheet's
    reader how an option would change the rule (`(with jump_in_effect = first-stands, ...)`) are
    left out, since the game plays the options it was given and an option's name is no English."""
    names = [n for n in rules.options]
    if not text or not names:
        return (text or "").strip()
    mentions = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
    text = re.sub(r"\s*\([^()]*\)", lambda m: "" if mentions.search(m.group(0)) else m.group(0), text)
    kept = [part for part in re.split(r"(?<=[.;!?])\s+", text.strip()) if not mentions.search(part)]
    return " ".join(kept).strip()


def _lower_first(text: str) -> str:
    """A sentence made a clause: only the words this module capitalises lose their capital."""
    for word in ("You ", "Your ", "The "):
        if text.startswith(word):
            return word.lower() + text[len(word):]
    return text


def _sentence(text: str) -> str:
    """A clause made a sentence: its full stop added (its first word is already as it should be:
    a name keeps its case, `You` and the fixed openings are written capitalised)."""
    text = text.strip()
    return text if not text or text.endswith((".", "!", "?", "”")) else text + "."


class Narrator:
    """Tells one viewer what happened, one batch of events at a time (see `tell`).

    `names` gives each seat a name (default p1, p2 ...); `paint_card(card, text)` and
    `paint_color(color, text)` dress a card's or a color's name (the terminal colors them, the
    web page keeps them plain). A narrator remembers what it needs across batches: the last cards
    played (a cancelled play names the card it cancels) and which out-of-turn rules it has
    already explained, so each is explained once.
    """

    def __init__(self, rules, players: int, viewer: int | None = None, names=None,
                 paint_card=None, paint_color=None):
        self.rules = rules
        self.n = players
        self.viewer = viewer
        self.names = list(names) if names else [f"p{s + 1}" for s in range(players)]
        self.paint_card = paint_card or (lambda card, text: text)
        self.paint_color = paint_color or (lambda color, text: text)
        self.questions = questions(rules)
        self.window_acts = {verb: act for verb, entries in rules.window_verbs().items() for _, act in entries}
        self.plays: list = []          # (seat, card) of recent plays, newest last
        self.explained: set = set()    # out-of-turn verbs whose rule was already quoted
        self._describer = None         # the rule sheet's English, for honesty rules (made when needed)

    # ---- words ---------------------------------------------------------------------------------
    def you(self, seat) -> bool:
        return seat is not None and seat == self.viewer

    def subj(self, seat) -> str:
        """The seat as the subject of a sentence: `You` or its name."""
        return "nobody" if seat is None else "You" if self.you(seat) else self.names[seat]

    def obj(self, seat) -> str:
        return "nobody" if seat is None else "you" if self.you(seat) else self.names[seat]

    def poss(self, seat) -> str:
        return "your" if self.you(seat) else f"{self.names[seat]}'s"

    def Poss(self, seat) -> str:
        """The possessive opening a sentence: `Your` or `p2's` (a name keeps its case)."""
        return "Your" if self.you(seat) else f"{self.names[seat]}'s"

    def their(self, seat) -> str:
        return "your" if self.you(seat) else "their"

    def does(self, seat, verb: str, third: str | None = None) -> str:
        """`You draw` / `p2 draws`."""
        return f"{self.subj(seat)} {verb if self.you(seat) else (third or third_person(verb))}"

    def is_(self, seat) -> str:
        return f"{self.subj(seat)} {'are' if self.you(seat) else 'is'}"

    def card(self, card: int) -> str:
        return self.paint_card(card, self.rules.cards.name[card])

    def cards(self, cards) -> str:
        names = [self.card(c) for c in cards]
        if len(names) <= 1:
            return "".join(names)
        return ", ".join(names[:-1]) + " and " + names[-1]

    def color(self, color) -> str:
        title = self.rules.color_titles.get(color, color) or str(color)
        return self.paint_color(color, title[:1].lower() + title[1:] if title[1:2].islower() else title)

    def seat_list(self, seats) -> str:
        names = [self.obj(s) for s in seats]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    # ---- what is asked, and why a move was refused ----------------------------------------------
    def asked(self, decision, playable: bool = True) -> str:
        """What the game waits for, said to the viewer: their own question in the second person
        ("Your turn: play a card or draw."), anyone else's as what the table waits for."""
        d = decision
        if d is None:
            return "The game is over."
        if d.kind == "deal":
            return "The round is over: deal the next one when everyone is ready."
        if d.seat is None:
            return d.prompt or "The table decides."
        if not self.you(d.seat):
            name = self.names[d.seat]
            return {"turn": f"Waiting for {name} to play.", "drawn": f"{name} is deciding about the card they drew.",
                    "more": f"{name} may play another card.", "color": f"{name} is choosing a color.",
                    "seat": f"{name} is choosing a player.", "card": f"{name} is choosing a card.",
                    "answer": f"{name} is asked: {d.prompt}"}.get(d.kind, f"Waiting for {name}.")
        if d.kind == "turn":
            return "Your turn: play a card or draw." if playable else \
                "Your turn: nothing you hold can be played, so draw."
        if d.kind == "drawn":
            drawn = self.card(d.card) if d.card is not None else "a card"
            return f"You drew {drawn}: it must be played." if d.must else f"You drew {drawn}: play it or keep it."
        return {"more": "You may play another card, or pass.", "color": "Choose a color.",
                "seat": "Choose a player.", "card": "Choose a card."}.get(d.kind, d.prompt or "Your move.")

    def refusal(self, text: str, card_names: bool = False) -> str:
        """Why a move was refused, as the engine says it, said to the viewer: "you hold no R9"
        rather than "p1 holds no R9"; with `card_names`, codes become names (for a page where
        cards are tapped, not typed)."""
        text = for_players(self.rules, str(text))
        if self.viewer is not None:
            me = f"p{self.viewer + 1}"
            text = re.sub(rf"\b{me} holds\b", "you hold", text)
            text = re.sub(rf"\b{me} may\b", "you may", text)
            text = re.sub(rf"\b{me} is\b", "you are", text)
            text = re.sub(rf"\b{me}\b", "you", text)
        if card_names:
            codes = self.rules.codes
            text = re.sub(r"(?<![\w+])[A-Z0-9+]+(?![\w+])",
                          lambda m: self.rules.cards.name[codes[m.group(0)]] if m.group(0) in codes else m.group(0), text)
        for seat in range(self.n):
            text = re.sub(rf"\bp{seat + 1}\b", self.names[seat], text) if self.names[seat] != f"p{seat + 1}" else text
        return text

    # ---- telling --------------------------------------------------------------------------------
    def tell(self, events) -> list:
        """Sentences for one batch of events (as `Game.events_for(viewer, start)` gives them)."""
        out = []
        i = 0
        while i < len(events):
            ev = events[i]
            say = SENTENCES.get(ev.get("e"))
            if say is None:
                text, used = self.unknown(ev), 1
            else:
                text, used = say(self, events, i)
            if text:
                out.append(_sentence(text))
            i += max(1, used)
        return out

    def unknown(self, ev: dict) -> str:
        """An event this module has no sentence for yet (a test makes sure there is none)."""
        seat = ev.get("seat")
        return f"Something happened to {self.obj(seat)}" if isinstance(seat, int) else "Something happened"

    def _next(self, events, i, kind, seat=None):
        """The event after `i` if it is of `kind` (and about `seat`, when given)."""
        if i + 1 < len(events):
            ev = events[i + 1]
            if ev.get("e") == kind and (seat is None or ev.get("seat") == seat):
                return ev
        return None

    # ---- one sentence per kind of event ---------------------------------------------------------
    def s_action(self, events, i):
        ev = events[i]
        seat, text = ev.get("seat"), str(ev.get("action", ""))
        words = text.split()
        if not words:
            return None, 1
        verb, rest = words[0], words[1:]
        if "question" in ev:
            return self._answer(seat, ev["question"], verb if verb != "choose" else " ".join(rest)), 1
        if verb in ("play", "draw", "deal") or verb in self.window_acts:
            return None, 1                      # told by the play, draw, deal or window that follows
        if verb == "keep":
            return f"{self.does(seat, 'keep')} the card", 1
        if verb == "pass":
            return f"{self.does(seat, 'play')} no more cards", 1
        if verb == "choose" and rest:
            return self._choice(events, i, seat, rest[0]), 1
        return f"{self.does(seat, words_of(verb))}", 1

    def _answer(self, seat, question: str, answer: str) -> str:
        doc = self.questions.get(question, {}).get(answer, "").strip()
        if answer.isalpha():                    # an answer that is a verb: "p2 challenges", "p3 accepts"
            return self.does(seat, answer.lower())
        reply = doc or f"“{words_of(answer)}”."
        if self.you(seat):
            return f"You answer: {reply}"
        return f"Asked “{question}”, {self.names[seat]} answers: {reply}"

    def _choice(self, events, i, seat, word: str) -> str | None:
        rules = self.rules
        if word.lower().startswith("p") and word[1:].isdigit():
            target = int(word[1:]) - 1
            later = events[i + 1:i + 3]
            if any(target in (e.get("seats") or ()) for e in later):
                return None                     # the swap that follows names both
            return f"{self.does(seat, 'pick')} {self.obj(target)}"
        if word in rules.colors:
            return None                         # the color event says it
        card = rules.codes.get(word.upper())
        if card is not None:
            shown = self.card(card) if self.you(seat) else "a card"
            return f"{self.does(seat, 'choose')} {shown}"
        return None                             # a number or a race: its own event says it

    def s_dealer(self, events, i):
        return f"{self.subj(events[i]['seat'])} will deal first", 1

    def s_deal(self, events, i):
        ev = events[i]
        return f"{self.does(ev['dealer'], 'deal')} {plural(ev['cards'], 'card')} to each player", 1

    def s_starter(self, events, i):
        card = events[i]["card"]
        self.plays.append((None, card))
        return f"The first card turned up is {self.card(card)}", 1

    def s_starter_returned(self, events, i):
        return f"{self.card(events[i]['card'])} goes back into the deck and another card is turned up", 1

    def s_play(self, events, i):
        ev = events[i]
        seat, card = ev["seat"], ev["card"]
        self.plays = self.plays[-3:] + [(seat, card)]
        text = f"{self.does(seat, 'play')} {self.card(card)}"
        used = 1
        call = self._next(events, i, "window", seat)             # `play X uno`: the call goes with it
        if call is not None and call.get("subject") == seat and not self._card_verb(call["verb"]):
            used += 1
        else:
            call = None
        color = self._next(events, i + used - 1, "color", seat)
        if color is not None:
            text += f" and {'choose' if self.you(seat) else 'chooses'} {self.color(color['color'])}"
            used += 1
        if call is not None:
            text += f", saying {words_of(call['verb']).upper()}!"
        return text, used

    def _card_verb(self, verb: str) -> bool:
        act = self.window_acts.get(verb)
        return act is not None and act.card_test is not None

    def s_draw_turn(self, events, i):
        seat = events[i]["seat"]
        if self._next(events, i, "draw", seat) is not None:
            return None, 1                      # the draw says it
        out = self._next(events, i, "eliminated", seat)
        if out is not None:
            gone, _ = self.s_eliminated(events, i + 1)
            verb = "are" if self.you(seat) else "is"
            return f"{self.does(seat, 'play')} no card and {verb} {gone.split(f' {verb} ', 1)[1]}", 2
        return f"{self.does(seat, 'play')} no card", 1

    def s_draw(self, events, i):
        ev = events[i]
        seat, count = ev["seat"], ev["count"]
        if count == 0:
            return f"{self.subj(seat)} cannot draw: the stock is empty", 1
        cards = ev.get("cards")
        got = self.cards(cards) if cards is not None and self.you(seat) else (
            "a card" if count == 1 else f"{count} cards")
        text = f"{self.does(seat, 'draw')} {got}"
        if cards is not None and self.you(seat) and count > 1:
            text = f"{self.does(seat, 'draw')} {count} cards: {got}"
        skipped = self._next(events, i, "skipped", seat)
        if skipped is not None:
            return f"{text} and {'lose' if self.you(seat) else 'loses'} {self.their(seat)} turn", 2
        return text, 1

    def s_reshuffle(self, events, i):
        n = events[i]["cards"]
        return (f"The stock has run out: {plural(n, 'card')} from the discard pile "
                f"{'is' if n == 1 else 'are'} shuffled into a new stock"), 1

    def s_skipped(self, events, i):
        seat = events[i]["seat"]
        return f"{self.does(seat, 'lose')} {self.their(seat)} turn", 1

    def s_direction(self, events, i):
        way = "clockwise" if events[i].get("direction", 1) == 1 else "counterclockwise"
        return f"Play now goes {way}", 1

    def s_color(self, events, i):
        ev = events[i]
        return f"{self.does(ev['seat'], 'choose')} {self.color(ev['color'])}", 1

    def s_color_set(self, events, i):
        color = events[i].get("color")
        word = self.rules.color_word
        return (f"The {word} is now {self.color(color)}" if color is not None else f"No {word} is in play now"), 1

    def s_chance(self, events, i):
        ev = events[i]
        prompt = (ev.get("prompt") or "").strip()
        of, outcome = ev.get("of"), ev.get("outcome")
        if of == "card":
            picked = "A card is picked at random"
        elif of == "race" and isinstance(outcome, int):
            picked = f"Chance picks {self.obj(outcome)}"
        elif of == "color":
            picked = f"Chance picks {self.color(outcome)}"
        else:
            picked = f"Chance picks {outcome}"
        return (f"{prompt} {_lower_first(picked)}" if prompt else picked), 1

    def s_put(self, events, i):
        ev = events[i]
        pile = _PILES.get(ev.get("pile"), "a pile")
        where = "at the bottom of" if ev.get("where") == "bottom" else "on top of"
        card = ev.get("card")                  # for a card put on the stock, only its player sees it
        what = self.card(card) if isinstance(card, int) else "a card"
        return f"{self.does(ev['seat'], 'put')} {what} {where} {pile}", 1

    def s_turn_over(self, events, i):
        pile = _PILES.get(events[i].get("pile"), "a pile")
        return f"{pile[:1].upper()}{pile[1:]} is turned over", 1

    def s_shuffle(self, events, i):
        ev = events[i]
        pile = _PILES.get(ev.get("pile"), "a pile")
        if ev.get("into") is None:
            return f"{pile[:1].upper()}{pile[1:]} is shuffled", 1
        n = ev.get("cards", 0)
        return (f"{plural(n, 'card')} of {pile} {'is' if n == 1 else 'are'} shuffled into "
                f"{_PILES.get(ev['into'], 'a pile')}"), 1

    def s_flip(self, events, i):
        ev = events[i]
        rules = self.rules
        face = ev.get("face")
        side = rules.face_titles[rules.faces.index(face)] if face in rules.faces else str(face)
        top = f"; the top card is now {self.card(ev['top'])}" if ev.get("top") is not None else ""
        return f"Every card is turned over: the {side[:1].lower() + side[1:]} side is in play{top}", 1

    def s_trigger_limit(self, events, i):
        return f"A rule that fires by itself stopped after {events[i].get('limit')} times in a row", 1

    def s_swap(self, events, i):
        a, b = events[i]["seats"]
        if self.you(b):
            a, b = b, a
        return f"{self.subj(a)} and {self.obj(b)} swap hands", 1

    def s_pass_hands(self, events, i):
        return "Everyone passes their hand to the next player in the direction of play", 1

    def s_redeal(self, events, i):
        start = events[i].get("start")
        first = f", starting with {self.obj(start)}" if isinstance(start, int) else ""
        return f"Every hand is gathered, shuffled and dealt out again{first}", 1

    def s_swap_seats(self, events, i):
        a, b = events[i]["seats"]
        if self.you(b):
            a, b = b, a
        return f"{self.subj(a)} and {self.obj(b)} change places at the table", 1

    def s_discard(self, events, i):
        ev = events[i]
        return f"{self.does(ev['seat'], 'discard')} {plural(ev['count'], 'card')}", 1

    def s_reveal(self, events, i):
        ev = events[i]
        seat, to = ev["seat"], list(ev.get("to") or ())
        if self.viewer is not None and self.viewer in to and not self.you(seat):
            cards = ev.get("cards")
            shown = self.cards(cards) if cards else "no cards"
            return f"{self.subj(seat)} shows you their hand: {shown}", 1
        return f"{self.does(seat, 'show')} {self.their(seat)} hand to {self.seat_list(to)}", 1

    def s_honesty(self, events, i):
        ev = events[i]
        seat, card = ev.get("seat"), ev.get("card")
        if card is None or seat is None:
            return ("The play met its rule" if ev.get("honest") else "The play broke its rule"), 1
        whose = self.Poss(seat)
        rule = self.honesty_rule(card, seat)
        if ev.get("honest"):
            return f"{whose} {self.card(card)} was played fairly" + (f": {rule}" if rule else ""), 1
        return f"{whose} {self.card(card)} was a bluff" + (f": it may only be played when {rule}" if rule else ""), 1

    def honesty_rule(self, card: int, seat: int) -> str:
        """The honesty condition of a card in words, about its player (from the rule sheet's
        English for the condition)."""
        exprs = getattr(self.rules, "honest_exprs", ())
        if card >= len(exprs) or exprs[card] is None:
            return ""
        if self._describer is None:
            from ..sheets.describe import Describer
            self._describer = Describer(self.rules)
        try:
            text = self._describer.condition(exprs[card])
        except Exception:          # the sheet's English is a courtesy here: never let it stop a game
            return ""
        if not self.you(seat):
            text = re.sub(r"\bthe player\b", self.names[seat], text)
        return text

    def s_cancel(self, events, i):
        # the play cancelled is the one before the top card (the out-of-turn card lands after this)
        if self.plays:
            seat, card = self.plays[-1]
            whose = "The" if seat is None else self.Poss(seat)
            return f"{whose} {self.card(card)} loses its effect", 1
        return "The card underneath loses its effect", 1

    def s_window(self, events, i):
        ev = events[i]
        actor, verb, subject = ev["seat"], ev["verb"], ev.get("subject")
        act = self.window_acts.get(verb)
        if act is not None and act.card_test is not None:
            return self._out_of_turn_play(events, i, actor, verb, subject, act)
        if subject == actor or subject is None:
            text = f"{self.does(actor, 'say', 'says')} {words_of(verb).upper()}!"
            return text, 1
        text = f"{self.does(actor, verb)} {self.obj(subject)}"
        used = 1
        if self._next(events, i, "reshuffle") is not None and self._next(events, i + 1, "draw", subject):
            shuffled, _ = self.s_reshuffle(events, i + 1)   # the stock ran out on the way: say so after
            drew, _ = self.s_draw(events, i + 2)
            return f"{text}: {_lower_first(drew)}. {_sentence(shuffled)}", 3
        follow = self._next(events, i, "draw", subject)
        if follow is not None:
            drew, used = self.s_draw(events, i + 1)
            text += f": {_lower_first(drew)}"
            used += 1
        text = _sentence(text)
        doc = for_players(self.rules, act.doc) if act is not None else ""
        if doc and verb not in self.explained:
            self.explained.add(verb)
            text += f" The rule: “{doc}”"
        return text, used

    def _out_of_turn_play(self, events, i, actor, verb, subject, act):
        """`jump R5`: the window, then perhaps a cancel, then the actor's play, told as one."""
        j = i + 1
        cancelled = None
        if j < len(events) and events[j].get("e") == "cancel":
            cancelled, _ = self.s_cancel(events, j)
            j += 1
        play = events[j] if j < len(events) and events[j].get("e") == "play" and events[j].get("seat") == actor else None
        if play is None:
            text = f"{self.does(actor, verb)} out of turn"
            return (f"{text}; {_lower_first(cancelled)}" if cancelled else text), j - i
        played, used = self.s_play(events, j)
        text = f"Out of turn, {_lower_first(played)}"
        if cancelled:
            text += f"; {_lower_first(cancelled)}"
        return text, j - i + used

    def s_race(self, events, i):
        ev = events[i]
        prompt = (ev.get("prompt") or "Who lost the race?").strip()
        loser = ev.get("outcome")
        who = self.subj(loser) if isinstance(loser, int) else str(loser)
        return f"{prompt} {who}", 1

    def s_number(self, events, i):
        ev = events[i]
        prompt = (ev.get("prompt") or "The number decided by chance:").strip()
        return f"{prompt} {ev.get('outcome')}", 1

    def s_score(self, events, i):
        ev = events[i]
        j = i
        while j < len(events) and events[j].get("e") == "score":
            j += 1
        if j < len(events) and events[j].get("e") == "round_end":
            return None, 1                      # the round's end and its summary say it
        points = ev["points"]
        gained = f"{'score' if self.you(ev['seat']) else 'scores'} {plural(points, 'point')}" if points > 0 else \
            f"{'lose' if self.you(ev['seat']) else 'loses'} {plural(-points, 'point')}"
        return f"{self.subj(ev['seat'])} {gained}", 1

    def s_eliminated(self, events, i):
        ev = events[i]
        span = "the round" if ev.get("round_only") else "the game"
        return f"{self.is_(ev['seat'])} out of {span}", 1

    def s_loop_limit(self, events, i):
        return f"A rule that repeats stopped after {events[i].get('limit')} times", 1

    def s_stalemate(self, events, i):
        return f"The round cannot go on: {events[i].get('reason', 'nobody can move')}", 1

    def s_round_end(self, events, i):
        ev = events[i]
        winner = ev.get("winner")
        if winner is None:
            return "The round ends with no winner", 1
        points = (ev.get("points") or [0] * self.n)[winner]
        scored = f", scoring {plural(points, 'point')}" if points > 0 else ""
        return f"{self.does(winner, 'go', 'goes')} out and {'win' if self.you(winner) else 'wins'} the round{scored}", 1

    def s_game_end(self, events, i):
        winners = list(events[i].get("winners") or ())
        if not winners:
            return "The game is over, and nobody won", 1
        if len(winners) == 1:
            w = winners[0]
            return ("The game is over: you win!" if self.you(w) else f"The game is over: {self.names[w]} wins"), 1
        return f"The game is over: {self.seat_list(winners)} share the win", 1


_PILES = {"stock": "the stock", "discard": "the discard pile"}

SENTENCES = {kind[2:]: fn for kind, fn in vars(Narrator).items() if kind.startswith("s_")}
"""Event kind -> the method that tells it: (narrator, batch, index) -> (sentence or None, events used)."""
