"""Games in progress at the web table: moves in, what each seat may see out.

A `LiveTable` is one table's game, rebuilt from its stored moves, with a narrator per seat. A
person's move arrives as text (the same words as at the terminal: `play R5`, `catch p2`), is
read for the seat their token holds (never a seat the message names) and handed to
`Game.apply`; the engine refuses what the rules do not allow. What a seat is sent (`state`) is
built only from `Game.view(seat)`, `Game.events_for(seat)` and the moves open to that seat, so a
page can never show what its seat may not see. Bots play their seats with the bots of the
engine; their random streams are seeded from the table's seed and the move number, so replaying
the moves after a restart gives the same game and the same bots.
"""
from __future__ import annotations

import random
import threading
from collections import deque

from ..compile.decisions import Action, Refused
from ..engine.actions import ActionSyntaxError, answer_words, format_action, parse_action
from ..engine.bots import make_bot
from ..engine.game import Game, seat_name
from ..front.narration import Narrator, for_players, questions, words_of
from ..front.palette import css_color

LOG_LINES = 60            # sentences of what happened kept per seat for its page
MAX_MOVE_TEXT = 200       # characters in a move as sent by a page


class MoveError(Exception):
    """A move a seat may not make now; the message is for that seat's page."""


class LiveTable:
    """One table's game and what each of its seats has been told."""

    def __init__(self, record, rules):
        self.record = record
        self.id = record.id
        self.rules = rules
        self.n = record.players
        self.names = [seat.name for seat in record.seats]
        self.lock = threading.Lock()                 # one move at a time, whatever the thread
        self.game = Game(rules, self.n, seed=record.seed)
        self.answers = answer_words(rules)
        self.questions = questions(rules)
        self.bots = {s: make_bot(seat.kind, random.Random()) for s, seat in enumerate(record.seats) if not seat.human}
        for seat, text in record.moves:                   # replay: the same game, move for move
            self.game.apply(parse_action(rules, seat, text, self.n, self.answers))
        self.saved = len(self.game.log)
        if self.saved != len(record.moves):
            raise ValueError("the stored moves do not replay to the same game")
        self.narrators = {s: Narrator(rules, self.n, s, names=self.names) for s in range(self.n)}
        self.logs = {s: deque(maxlen=LOG_LINES) for s in range(self.n)}
        self.seen = {s: 0 for s in range(self.n)}
        self.tell_all()

    # ---- moves --------------------------------------------------------------------------------
    @property
    def version(self) -> int:
        return len(self.game.log)

    def move(self, seat: int, text: str, version: int | None = None) -> None:
        """A person's move for their seat, or MoveError saying why not (the game is unchanged)."""
        g = self.game
        text = str(text or "").strip()
        if not text or len(text) > MAX_MOVE_TEXT or any(ord(c) < 32 for c in text):
            raise MoveError("That is not a move.")
        try:
            action = parse_action(self.rules, seat, text, self.n, self.answers)
        except ActionSyntaxError as err:
            raise MoveError(f"That is not a move: {err}") from None
        if action.verb == "deal":
            if g.decision is None or g.decision.kind != "deal":
                raise MoveError("There is no round to deal now.")
            action = Action(None, "deal")
        elif action.seat != seat:
            raise MoveError("You can only move for your own seat.")
        mine = g.decision is not None and (g.decision.seat == seat or g.decision.kind == "deal")
        out_of_turn = action.verb in self.rules.window_verbs() and not (
            mine and g.decision.kind == "answer" and action.verb in g.decision.options)
        if version is not None and version != self.version and not out_of_turn:
            raise MoveError("The table moved on before your move arrived: look again and choose.")
        try:
            g.apply(action)
        except Refused as err:
            raise MoveError(self.narrators[seat].refusal(str(err), card_names=True)) from None

    def bot_to_move(self) -> bool:
        """Whether the game waits for a bot (or, with only bots left to act, for the next deal)."""
        g = self.game
        d = g.decision
        if g.game_over or d is None:
            return False
        if d.kind == "deal":
            return not any(seat.human for seat in self.record.seats)
        return d.seat is None or d.seat in self.bots

    def bot_move(self) -> bool:
        """Let the bot whose decision it is make one move; True if one was made."""
        g = self.game
        if not self.bot_to_move():
            return False
        d = g.decision
        if d.kind == "deal" or d.seat is None:
            options = g.legal_actions()
            rng = self._stream("table")
            g.apply(options[int(rng.random() * len(options))])
        else:
            bot = self.bots[d.seat]
            bot.rng = self._stream(d.seat)
            g.apply(bot.choose(g, g.legal_actions()))
        return True

    def bots_out_of_turn(self) -> None:
        """Bots answer in any open window (say UNO, catch someone), as they do at the terminal."""
        g = self.game
        if not g.windows or g.game_over:
            return
        for seat, bot in self.bots.items():
            bot.rng = self._stream(seat)
            act = bot.out_of_turn(g, seat)
            if act is not None:
                try:
                    g.apply(act)
                except Refused:
                    pass

    def _stream(self, who) -> random.Random:
        """A bot's random stream for this move: the same after any restart."""
        return random.Random(f"unodsl-web:{self.record.seed}:{who}:{len(self.game.log)}")

    def unsaved(self) -> tuple[int, list]:
        """The moves not yet stored (from which number), and marks them stored."""
        first, moves = self.saved, self.game.log[self.saved:]
        self.saved = len(self.game.log)
        return first, list(moves)

    # ---- what each seat is told ---------------------------------------------------------------
    def tell_all(self) -> None:
        """Add the sentences for every new event to each seat's log."""
        end = len(self.game.events)
        for s in range(self.n):
            if self.seen[s] < end:
                self.logs[s].extend(self.narrators[s].tell(self.game.events_for(s, self.seen[s])))
                self.seen[s] = end

    def card(self, code: str | None):
        if code is None:
            return None
        rules = self.rules
        card = rules.codes.get(code.upper())
        if card is None:
            return {"code": code, "name": code, "face": code, "css": css_color(rules, None)}
        color = rules.cards.color[card]
        face = code
        prefix = rules.color_codes.get(color, "") if color is not None else ""
        if prefix and code.startswith(prefix) and len(code) > len(prefix):
            face = code[len(prefix):]
        name = rules.cards.name[card]
        title = rules.color_titles.get(color, "") if color is not None else ""
        kind = name[len(title):].strip() if title and name.startswith(title) else name
        return {"code": code, "name": name, "face": face, "kind": kind, "css": css_color(rules, color),
                "wild": color is None}

    def state(self, seat: int, online=()) -> dict:
        """Everything the page of `seat` shows, from what that seat may see and do."""
        g = self.game
        v = g.view(seat)
        r = self.rules
        d = g.decision
        mine = d is not None and d.seat == seat
        moves = self.moves_for(seat, len(v["hand"]))
        playable = {m["card"] for m in moves if m["kind"] == "play"}
        hand = sorted(v["hand"], key=self._order)
        players = []
        for s in range(self.n):
            key = seat_name(s)
            players.append({"seat": s, "name": self.names[s], "bot": s in self.bots, "you": s == seat,
                            "cards": v["hand_sizes"][key], "score": v["scores"][key],
                            "turn": d is not None and d.seat == s and not v["round_over"],
                            "online": s in online or s in self.bots})
        color = v["color"]
        return {
            "type": "state", "v": self.version, "table": self.id, "seat": seat, "title": r.title,
            "players": players, "round": v["round"], "direction": v["direction"], "stock": v["stock_size"],
            "top": self.card(v["top"]),
            "color": None if color is None else {"name": color, "title": r.color_titles.get(color, color),
                                                  "css": css_color(r, color)},
            "hand": [dict(self.card(c), playable=c in playable) for c in hand],
            "revealed": self._seen(v),
            "prompt": self.narrators[seat].asked(d, playable=bool(playable)) if (mine or d is None or d.kind == "deal")
            else self.narrators[seat].asked(d),
            "question": self._question(d) if mine and d.kind == "answer" else None,
            "moves": moves, "log": list(self.logs[seat]),
            "round_over": v["round_over"], "game_over": v["game_over"],
            "result": self._result(seat) if v["round_over"] or v["game_over"] else None,
        }

    def _seen(self, v: dict) -> list:
        """Cards of others this seat may see, each group with its sentence: hands shown to it, the
        other sides of the others' cards and of the stock's top card (two-sided decks)."""
        def name(who: str) -> str:                                # "p3" -> that seat's name
            return self.names[int(who[1:]) - 1]
        seen = [{"text": f"{name(who)} showed you:", "cards": [self.card(c) for c in codes]}
                for who, codes in v["revealed"].items()]
        seen += [{"text": f"The other side of {name(who)}'s cards:", "cards": [self.card(c) for c in codes]}
                 for who, codes in v.get("other_faces", {}).items() if codes]
        if v.get("stock_top_other_face") is not None:
            seen.append({"text": "The other side of the stock's top card:",
                         "cards": [self.card(v["stock_top_other_face"])]})
        return seen

    def _order(self, code: str):
        r = self.rules
        card = r.codes.get(code.upper())
        if card is None:
            return (99, 0, code)
        color = r.cards.color[card]
        kind = r.kinds.index(r.cards.kind[card]) if r.cards.kind[card] in r.kinds else 0
        rank = r.cards.rank[card]
        return (r.colors.index(color) if color in r.colors else len(r.colors), kind,
                rank if isinstance(rank, (int, float)) else 99, code)

    def _question(self, d) -> dict:
        docs = self.questions.get(d.prompt, {})
        return {"text": d.prompt, "answers": [{"move": o, "label": words_of(o).capitalize(), "doc": docs.get(o, "")}
                                              for o in d.options]}

    def _result(self, seat: int) -> dict:
        g = self.game
        return {"winner": None if g.winner is None else self.names[g.winner],
                "points": [{"name": self.names[s], "points": g.round_points[s]} for s in range(self.n)],
                "game_winners": [self.names[s] for s in g.game_winners]}

    def moves_for(self, seat: int, hand_size: int) -> list:
        """Every move open to the seat now, each with the words its button shows."""
        g = self.game
        r = self.rules
        d = g.decision
        out = []
        if d is not None and d.kind == "deal" and not g.game_over:
            out.append({"move": "deal", "kind": "deal", "label": f"Deal round {g.round + 1}"})
        elif d is not None and d.seat == seat:
            calls = r.call_verbs() if hand_size == 2 else ()
            for a in g.legal_actions():
                out.append(self._move(a))
                if a.verb == "play" and a.call is None:
                    out.extend(self._move(a._replace(call=call)) for call in calls)
        for a in g.window_actions(seat):
            out.append(self._move(a, window=True))
        return out

    def _move(self, a: Action, window: bool = False) -> dict:
        r = self.rules
        text = format_action(r, a)
        move = {"move": text, "kind": a.verb}
        if a.verb == "play" or (window and a.card is not None):
            move.update(kind="play" if a.verb == "play" else "window", card=r.code(a.card),
                        label=r.cards.name[a.card])
            if a.color is not None:
                move["color"] = {"name": a.color, "title": r.color_titles.get(a.color, a.color),
                                 "css": css_color(r, a.color)}
            if a.target is not None and (a.verb == "play" or window):
                move["target"] = self.names[a.target]
            if a.call is not None:
                move["call"] = words_of(a.call)
            if window:
                move["label"] = f"{words_of(a.verb).capitalize()} with {r.cards.name[a.card]}"
                move["doc"] = self._window_doc(a.verb)
            return move
        if window:
            move["kind"] = "window"
            if a.target is None or a.target == a.seat:
                move["label"] = f"{words_of(a.verb).upper()}!"
            else:
                move["label"] = f"{words_of(a.verb).capitalize()} {self.names[a.target]}"
            move["doc"] = self._window_doc(a.verb)
            return move
        if a.verb == "choose":
            if a.target is not None:
                move.update(kind="seat", label=self.names[a.target])
            elif a.answer in r.colors:
                move.update(kind="color", label=r.color_titles.get(a.answer, a.answer),
                            color={"name": a.answer, "css": css_color(r, a.answer)})
            elif a.answer and a.answer.upper() in r.codes:
                move.update(kind="card", label=r.cards.name[r.codes[a.answer.upper()]], card=a.answer.upper())
            else:
                move.update(kind="number", label=str(a.answer))
            return move
        labels = {"draw": "Draw", "keep": "Keep it", "pass": "Play no more"}
        if a.verb in labels:
            move["label"] = labels[a.verb]
            return move
        move.update(kind="answer", label=words_of(a.verb).capitalize())
        return move

    def _window_doc(self, verb: str) -> str:
        for _, act in self.rules.window_verbs().get(verb, ()):
            return for_players(self.rules, act.doc)
        return ""
