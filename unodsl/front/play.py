"""`unodsl play`: a game at the terminal, people in some seats and bots in the others.

The session is a thin loop around `Game`: it never decides what is legal. A person's line is read
with the same parser as scenario steps (`parse_action`) and handed to `Game.apply`, so a refused
move is refused by the rules with the engine's own message and leaves the game untouched. Bots get
exactly what the simulator gives them (`choose`, then `out_of_turn` after every move), so a game
played here behaves like a simulated one.

What a person sees is built only from public facts (hand sizes, the top card, scores, the event
log) plus their own hand: another seat's drawn cards are never shown, and a hand revealed by the
rules is shown only to the seat it was revealed to. Nothing here knows a card or a variant; codes,
names, colors, answers and out-of-turn verbs all come from the ruleset.
"""
from __future__ import annotations

import random
import sys
import textwrap

from ..compile.decisions import Action, Refused
from ..engine.actions import (
    ActionSyntaxError,
    answer_words,
    format_action,
    parse_action,
)
from ..engine.bots import BOTS, BasicBot
from ..engine.game import Game, seat_name
from ..lang.files import atomic_write, interrupts_held, printable

WIDTH = 79
MAX_LINE = 10_000          # a typed line longer than this is not a move: the rest is skipped
DEAL = Action(None, "deal")


class _Quit(Exception):
    """The person asked to stop, or input ended; carries the goodbye line to print."""


def play_session(rules, players: int, human_seats, bot: str = "basic", seed=None,
                 stdin=None, stdout=None, log_path=None, ref=None, save_path=None, resume=None) -> int:
    """Play one whole game at the terminal and return the exit code.

    `human_seats` are 0-based seats typed in by people; every other seat is played by a `bot`
    (a name in BOTS). Quitting and end of input end the session normally (exit 0) with a goodbye
    line, Ctrl-C too but with exit code 130; a bad set-up (player count, seat, bot name) prints
    why and returns 2. A move (with the bots' answers out of turn and the save after it) is never
    cut by Ctrl-C: the interrupt waits until it is done, so a save or a log holds whole moves.
    With `log_path`, the game's event log is written there when the session ends, however it
    ends; `ref` is (ruleset, modules, options) as given, so that `unodsl replay` can rebuild it.
    With `save_path` the game is saved after every move; `resume` (a savegame.Saved) continues
    a saved game instead of starting one.
    """
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    try:
        if resume is not None:
            session = Session.resumed(resume, stdin, stdout, save_path)
        else:
            session = Session(rules, players, human_seats, bot, seed, stdin, stdout, save_path, ref)
    except ValueError as e:
        print(f"unodsl play: {e}", file=stdout)
        return 2
    code = 0
    try:
        session.run()
    except _Quit as q:
        session.say(str(q))
    except KeyboardInterrupt:
        session.say("\nInterrupted. Goodbye.")
        code = 130
    if log_path:
        from ..engine import eventlog
        name, modules, options = session.ref
        atomic_write(log_path, eventlog.text(name, modules, options, session.game))
        session.say(f"Event log written to {log_path}.")
    _flush(stdout)
    return code


def _flush(stream) -> None:
    flush = getattr(stream, "flush", None)
    if flush is not None:
        flush()


def _isatty(stream) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:          # a closed stream
        return False


def bot_rng(seed, seat: int) -> random.Random:
    """A bot's own random stream: reproducible from the game's seed, but different per seat so
    that bots with the same choices to make do not mirror each other."""
    return random.Random(f"unodsl-play:{seed}:{seat}") if seed is not None else random.Random()


class Session:
    """One game in progress, plus what each person has already been told."""

    def __init__(self, rules, players: int, human_seats, bot: str, seed, stdin, stdout,
                 save_path=None, ref=None, game=None):
        if bot not in BOTS:
            raise ValueError(f"no bot called `{bot}`: use one of {', '.join(sorted(BOTS))}")
        humans = sorted(set(human_seats))
        bad = [s for s in humans if not 0 <= s < players]
        if bad:
            raise ValueError(f"there is no seat p{bad[0] + 1}: seats are p1 to p{players}")
        self.game = game if game is not None else Game(rules, players, seed=seed)
        self.rules = rules
        self.seed, self.bot = seed, bot
        self.ref = ref or (rules.name, [], {})
        self.save_path = save_path
        self.table = random.Random(f"unodsl-play:{seed}:table") if seed is not None else random.Random()
        self.humans = humans
        self.bots = {s: BOTS[bot](bot_rng(seed, s)) for s in range(players) if s not in humans}
        self.advisor = BasicBot(bot_rng(seed, -1))      # for hints; its own stream, so hints never
        self.answers = answer_words(rules)              # change what the bots would do
        self.stdin, self.stdout = stdin, stdout
        self.echo = not _isatty(stdin)                  # scripted input: show it in the transcript
        self.seen = {s: 0 for s in humans}              # per person: events already narrated
        self.shown = 0                                  # events narrated to anyone

    @classmethod
    def resumed(cls, saved, stdin, stdout, save_path=None) -> "Session":
        """Continue a saved game: replayed, checked, and the bots given their saved streams."""
        from ..engine.savegame import rebuild
        game = rebuild(saved)
        session = cls(game.rules, saved.players, saved.humans, saved.bot, saved.seed, stdin, stdout,
                      save_path, (saved.ref, saved.with_, saved.options), game=game)
        for name, state in saved.rng_states.items():
            session._streams().get(name, random.Random()).setstate(state)
        session.seen = {s: len(game.events) for s in session.humans}
        session.shown = len(game.events)
        session.say(f"Resumed the saved game: round {game.round}, {len(game.log)} moves so far.")
        return session

    def _streams(self) -> dict:
        """Every random stream the session draws on, by a stable name (saved with the game)."""
        streams = {f"p{s + 1}": bot.rng for s, bot in self.bots.items()}
        streams["advisor"] = self.advisor.rng
        streams["table"] = self.table
        return streams

    def save(self) -> None:
        if not self.save_path:
            return
        from ..engine.eventlog import digest
        from ..engine.savegame import Saved, actions_of, write
        name, modules, options = self.ref
        write(self.save_path, Saved(name, list(modules), dict(options), self.game.n, self.seed,
                                    self.humans, self.bot, actions_of(self.game),
                                    {k: r.getstate() for k, r in self._streams().items()},
                                    digest(self.game)))

    # ---- output -------------------------------------------------------------------------------
    def say(self, text: str = "", indent: str = "") -> None:
        """Write text wrapped to the terminal width (each paragraph separately). Titles, names
        and texts come from rules files: their control characters are shown, never obeyed."""
        for line in printable(text).split("\n"):
            if len(line) <= WIDTH:
                print(line, file=self.stdout)
            else:
                print(textwrap.fill(line, WIDTH, subsequent_indent=indent or "    "), file=self.stdout)

    def say_items(self, label: str, items, sep: str = " ") -> None:
        """`label` then the items, wrapped between items (never inside one) under the first."""
        pad = " " * min(len(label), 24)
        line = printable(label)
        for i, item in enumerate(map(printable, items)):
            piece = item if i == 0 else sep + item
            if i and len(line) + len(piece) > WIDTH:
                print(line.rstrip(), file=self.stdout)
                line, piece = pad, item
            line += piece
        print(line, file=self.stdout)

    def name(self, seat, viewer=None) -> str:
        return seat_name(seat) + (" (you)" if seat is not None and seat == viewer else "")

    def card(self, card: int) -> str:
        return f"{self.rules.cards.name[card]} ({self.rules.code(card)})"

    # ---- driving ------------------------------------------------------------------------------
    def run(self) -> None:
        g = self.game
        self.say(f"{self.rules.title}: {g.n} players; " + self._who_plays() + ".")
        if self.humans:
            self.say("Type `help` for the moves and card codes, `quit` to stop.")
        while not g.game_over and g.decision is not None:
            d = g.decision
            if d.kind == "deal":
                self._round_over()
                self._apply(DEAL)
            elif d.seat is None:                  # a race or chance for the table
                if self.humans:
                    self._ask(self.humans[0])
                else:
                    options = g.legal_actions()
                    self._apply(options[int(self.table.random() * len(options))])
            elif d.seat in self.bots:
                self._apply(self.bots[d.seat].choose(g, g.legal_actions()))
            else:
                self._ask(d.seat)
        self._round_over()

    def _who_plays(self) -> str:
        if not self.humans:
            return "all seats are bots"
        people = ", ".join(seat_name(s) for s in self.humans)
        return f"you play {people}" + (", bots play the others" if self.bots else "")

    def _apply(self, action: Action) -> None:
        """Apply a move, then let every bot act out of turn (say UNO, catch someone); save.
        All of it or nothing: Ctrl-C is held back until the save is written."""
        with interrupts_held():
            self.game.apply(action)
            self._bots_out_of_turn()
            self.save()

    def _bots_out_of_turn(self) -> None:
        g = self.game
        if not g.windows:
            return
        wanting = [seat for seat, bot in self.bots.items() if bot.out_of_turn(g, seat) is not None]
        for seat in g.out_of_turn_order(wanting, self.table):
            act = self.bots[seat].out_of_turn(g, seat)     # asked again: an earlier move may have changed it
            if act is not None:
                try:
                    g.apply(act)
                except Refused:
                    pass

    def _read(self, prompt: str) -> str:
        """One line from the person; end of input ends the session."""
        self.stdout.write(prompt)
        _flush(self.stdout)
        line = self.stdin.readline(MAX_LINE + 1)
        if not line:
            raise _Quit("\nEnd of input. Goodbye.")
        if len(line) > MAX_LINE and not line.endswith("\n"):        # skip the rest of a huge line
            while True:
                rest = self.stdin.readline(MAX_LINE)
                if not rest or rest.endswith("\n"):
                    break
            line = line[:80] + "..."
        if self.echo:
            self.stdout.write(printable(line.rstrip("\n")) + "\n")
        return line.strip()

    # ---- a person's decision ------------------------------------------------------------------
    def _ask(self, seat: int) -> None:
        """Show the state to `seat` and read lines until one of them moves the game on."""
        g = self.game
        d = g.decision
        self._show(seat, narrate=True)
        while True:
            text = self._read(f"{seat_name(seat)}> ")
            word = text.lower()
            if not text:
                self.say("Type a move (for example `draw`), or `help`.")
            elif word in ("quit", "exit"):
                raise _Quit("You left the game. Goodbye.")
            elif word == "help":
                self._help(seat)
            elif word == "hint":
                self._hint(seat)
            elif word == "hand":
                self._show(seat, narrate=False)
            elif self.try_move(seat, text):
                if g.decision is not d:
                    return
                self._tell(seat)                # an out-of-turn move: same question again
                self.say(self._question(seat))

    def try_move(self, seat: int, text: str) -> bool:
        """Try a typed move; say why when it is not one or not allowed. True if it was applied."""
        try:
            action = parse_action(self.rules, seat, text, self.game.n, self.answers)
        except ActionSyntaxError as e:
            self.say(f"Not a move: {e}")
            return False
        try:
            self._apply(action)
        except Refused as e:
            self.say(f"Not allowed: {e}")
            return False
        return True

    def _hint(self, seat: int) -> None:
        """What the basic bot would do in this seat; nothing is played."""
        g = self.game
        moves = []
        extra = self.advisor.out_of_turn(g, seat)
        if extra is not None:
            moves.append(format_action(self.rules, extra))
        if g.decision is not None and g.decision.seat == seat:
            moves.append(format_action(self.rules, self.advisor.choose(g, g.legal_actions())))
        self.say("Hint: " + (", then ".join(moves) if moves else "nothing to do now") + ".")
        fits = self._playable(seat)
        if fits:
            self.say_items("Cards you can play: ", self._sorted_codes(fits))

    # ---- what a person sees -------------------------------------------------------------------
    def _show(self, seat: int, narrate: bool) -> None:
        g = self.game
        self.say("")
        self.say(f"--- Round {g.round}: {self.name(seat, seat)} ".ljust(WIDTH, "-"))
        if narrate:
            self._tell(seat)
        top = self.card(g.discard[-1]) if g.discard else "none"
        color = g.color or "none"
        way = "clockwise" if g.direction == 1 else "counter-clockwise"
        view = g.view(seat)
        side = f"   Side: {self.rules.face_titles[self.rules.faces.index(view['face'])]}" if view["face"] else ""
        self.say(f"Top card: {top}   {self.rules.color_word.capitalize()}: {color}{side}")
        self.say(f"Direction: {way} (next after you: {seat_name(g.next_seat(seat))})   "
                 f"Stock: {len(g.stock)} cards")
        self.say_items("Players: ", [self._seat_summary(s, seat) for s in range(g.n)], " | ")
        for who, codes in view["revealed"].items():
            self.say_items(f"{who}'s hand (you see it): ", codes or ["(empty)"])
        for who, codes in view["other_faces"].items():
            self.say_items(f"The other side of {who}'s cards: ", codes or ["(none)"])
        if view["stock_top_other_face"] is not None:
            self.say(f"The other side of the stock's top card: {view['stock_top_other_face']}")
        self.say_items(f"Your hand ({len(g.hands[seat])}): ", self._hand_codes(seat))
        self.say(self._question(seat))

    def _seat_summary(self, s: int, viewer: int) -> str:
        g = self.game
        if g.eliminated[s]:
            return f"{seat_name(s)} out"
        n = len(g.hands[s])
        who = "you" if s == viewer else seat_name(s)
        return f"{who} {n} card{'s' if n != 1 else ''}, {g.scores[s]} pts"

    def _playable(self, seat: int) -> list:
        d = self.game.decision
        if d is None or d.seat != seat or d.kind not in ("turn", "drawn"):
            return []
        return self.game.playable(seat)

    def _sort_key(self, card: int):
        c = self.rules.cards
        colors = self.rules.colors
        color = colors.index(c.color[card]) if c.color[card] in colors else len(colors)
        kind = self.rules.kinds.index(c.kind[card]) if c.kind[card] in self.rules.kinds else 0
        rank = c.rank[card]
        return (color, kind, rank is None, rank if isinstance(rank, (int, float)) else 0, c.code[card])

    def _sorted_codes(self, cards) -> list:
        return [self.rules.code(c) for c in sorted(cards, key=self._sort_key)]

    def _hand_codes(self, seat: int) -> list:
        """The hand by color then code; `*` marks the cards that may be played now."""
        fits = set(self._playable(seat))
        hand = sorted(self.game.hands[seat], key=self._sort_key)
        return [("*" if c in fits else "") + self.rules.code(c) for c in hand] or ["(empty)"]

    def _question(self, seat: int) -> str:
        """What the current decision asks of this seat, with an example of the answer."""
        g = self.game
        d = g.decision
        if d is not None and d.seat is None and d.kind != "deal":
            names = [format_action(self.rules, a).split(" ", 1)[-1] for a in g.legal_actions()]
            return f"{d.prompt} Answer for the table with `choose ...`: " + ", ".join(names[:12]) + "."
        if d is None or d.seat != seat:
            return "Nothing to decide now."
        legal = g.legal_actions()
        plays = sorted((a for a in legal if a.verb == "play"), key=lambda a: self._sort_key(a.card))
        example = f" (e.g. `{format_action(self.rules, plays[0])}`)" if plays else ""
        if d.kind == "turn":
            if not plays:
                return "Your turn: nothing fits, so `draw`."
            draw = " or `draw`" if any(a.verb == "draw" for a in legal) else ""
            return f"Your turn: play a card{example}{draw}."
        if d.kind == "drawn":
            if d.must:
                return f"You drew {self.card(d.card)}; it must be played{example}."
            return f"You drew {self.card(d.card)}: play it{example} or `keep` it."
        decline = ", or `pass` to decline" if d.optional else ""
        if d.kind == "color":
            return f"Choose a {self.rules.color_word}: " + ", ".join(f"`choose {c}`" for c in d.options) + decline + "."
        if d.kind == "seat":
            return "Choose a player: " + ", ".join(f"`choose {seat_name(s)}`" for s in d.options) + decline + "."
        if d.kind == "answer":
            return f"{d.prompt} Answer " + " or ".join(f"`{o}`" for o in d.options) + "."
        return d.prompt or f"Decide ({d.kind})."

    def _tell(self, seat: int) -> None:
        """Narrate what happened since this person's last look."""
        events = self.game.events
        lines = self._narrate(events[self.seen[seat]:], seat)
        self.seen[seat] = len(events)
        self.shown = len(events)
        for line in lines:
            self.say("  " + line, indent="    ")

    # ---- narration ----------------------------------------------------------------------------
    def _narrate(self, events, viewer) -> list:
        return [line for line in (self.describe(e, viewer) for e in events) if line]

    def describe(self, e: dict, viewer) -> str | None:
        """One event in plain English, as `viewer` may know it (None: a spectator)."""
        kind = e.get("e")
        who = self.name(e.get("seat"), viewer)
        if kind == "play":
            return f"{who} plays {self.card(e['card'])}."
        if kind == "draw":
            n = e["count"]
            return f"{who} draws {n} card{'s' if n != 1 else ''}." if n else \
                f"{who} cannot draw: the stock is empty."
        if kind == "color":
            return f"{who} chooses {e['color']}."
        if kind == "color_set":
            return f"The color is now {e['color']}." if e.get("color") else "No color is in play now."
        if kind == "chance":
            return self._describe_chance(e, viewer)
        if kind in ("put", "turn_over", "shuffle"):
            return self._describe_pile(e, viewer)
        if kind == "skipped":
            return f"{who} is skipped."
        if kind == "direction":
            way = "clockwise" if e.get("direction", 1) == 1 else "counterclockwise"
            return f"The direction of play changes: now {way}."
        if kind == "window":
            return self._describe_window(e, viewer)
        if kind == "reveal":
            return self._describe_reveal(e, viewer)
        if kind == "starter":
            return f"The starter card is {self.card(e['card'])}."
        if kind == "starter_returned":
            return f"The starter {self.card(e['card'])} goes back into the deck."
        if kind == "deal":
            return f"{self.name(e['dealer'], viewer)} deals {e['cards']} cards to each player."
        if kind == "dealer":
            return f"{who} is the first dealer."
        if kind == "reshuffle":
            return f"The discard pile ({e['cards']} cards) is shuffled into a new stock."
        if kind == "stalemate":
            return f"The round is stuck: {e['reason']}."
        if kind == "eliminated":
            return f"{who} is out of the game."
        if kind == "swap":
            a, b = e["seats"]
            return f"{self.name(a, viewer)} and {self.name(b, viewer)} swap hands."
        if kind == "pass_hands":
            return "Everyone passes their hand to the next player."
        if kind == "flip":
            side = self.rules.face_titles[self.rules.faces.index(e["face"])]
            top = f"; the top card is now {self.card(e['top'])}" if e.get("top") is not None else ""
            return f"Every card is turned over: the {side.lower()} side is in play{top}."
        if kind == "discard":
            n = e["count"]
            return f"{who} discards {n} card{'s' if n != 1 else ''}."
        if kind == "action":
            return self._describe_action(e, viewer)
        if kind in ("draw_turn", "round_end", "game_end"):
            return None          # told by the draw that follows, or by the round summary
        return f"{who}: {kind}." if e.get("seat") is not None else f"({kind})"

    def _describe_action(self, e: dict, viewer) -> str | None:
        """A move as recorded; only those no other event tells (keeping, answering, a seat
        choice) are worth a line, the rest are narrated by their consequences."""
        words = str(e.get("action", "")).split()
        if not words or words[0] in ("play", "draw", "deal") or words[0] in self.rules.window_verbs():
            return None
        who = self.name(e.get("seat"), viewer)
        verb, rest = words[0], " ".join(words[1:])
        if verb == "choose":
            return None if rest in self.rules.colors else f"{who} chooses {rest}."
        if verb == "keep":
            return f"{who} keeps the drawn card."
        return f"{who} answers: {' '.join(words)}."

    def _describe_chance(self, e: dict, viewer) -> str:
        if e.get("of") == "card":
            return "A card is picked at random."
        if e.get("of") == "race":
            return f"Chance picks {self.name(e['outcome'], viewer)}."
        return f"Chance picks {e['outcome']}."

    def _describe_pile(self, e: dict, viewer) -> str:
        piles = {"stock": "the stock", "discard": "the discard pile"}
        pile = piles[e["pile"]]
        if e["e"] == "turn_over":
            return f"{pile[:1].upper()}{pile[1:]} is turned over."
        if e["e"] == "shuffle":
            if e.get("into") is None:
                return f"{pile[:1].upper()}{pile[1:]} is shuffled."
            n = e.get("cards", 0)
            return f"{n} card{'s' if n != 1 else ''} of {pile} {'are' if n != 1 else 'is'} shuffled into {piles[e['into']]}."
        where = "at the bottom of" if e["where"] == "bottom" else "on top of"
        what = self.card(e["card"]) if e.get("card") is not None else "a card"
        return f"{self.name(e['seat'], viewer)} puts {what} {where} {pile}."

    def _describe_window(self, e: dict, viewer) -> str:
        who, verb, subject = self.name(e["seat"], viewer), e["verb"], e["subject"]
        if subject == e["seat"]:
            return f"{who} says {verb.upper()}."
        return f"{who} {_third_person(verb)} {self.name(subject, viewer)}."

    def _describe_reveal(self, e: dict, viewer) -> str:
        shower, to = e["seat"], e["to"]
        if viewer is not None and viewer in to:
            private = e.get("private", {}).get(viewer)
            cards = private["cards"] if private else self.game.revealed.get(viewer, {}).get(shower, [])
            shown = " ".join(self._sorted_codes(cards)) or "(empty)"
            return f"{self.name(shower, viewer)} shows you their hand: {shown}"
        return f"{self.name(shower, viewer)} shows their hand to " + \
            ", ".join(self.name(s, viewer) for s in to) + "."

    # ---- rounds and the end -------------------------------------------------------------------
    def _round_over(self) -> None:
        """Finish telling the round, show its result, and wait for a person before dealing on."""
        g = self.game
        viewer = self.humans[0] if len(self.humans) == 1 else None
        if not self.humans:                 # a spectator sees each round told in one piece
            self.say("")
            self.say(f"--- Round {g.round} ".ljust(WIDTH, "-"))
        for line in self._narrate(g.events[self.shown:], viewer):
            self.say("  " + line, indent="    ")
        self.shown = len(g.events)
        for s in self.seen:
            self.seen[s] = self.shown
        if g.round_over:
            self._round_result(viewer)
        if g.game_over or g.decision is None:
            self._final(viewer)
        elif self.humans:
            line = self._read(f"Press Enter to deal round {g.round + 1} (or type quit): ")
            if line.lower() in ("quit", "exit"):          # any other line deals
                raise _Quit("You left the game. Goodbye.")

    def _round_result(self, viewer) -> None:
        g = self.game
        self.say("")
        if g.winner is None:
            reason = f": {g.stalemate}" if g.stalemate else ""
            self.say(f"*** Round {g.round} ends with no winner{reason}.")
        else:
            self.say(f"*** Round {g.round}: {self.name(g.winner, viewer)} goes out and wins the round.")
        gained = [f"{self.name(s, viewer)} {g.round_points[s]:+d}" for s in range(g.n) if g.round_points[s]]
        self.say_items("Round points: ", gained or ["none"], ", ")
        left = [f"{seat_name(s)} {len(g.hands[s])} ({g.hand_points(s)} pts)"
                for s in range(g.n) if g.hands[s]]
        if left:
            self.say_items("Cards left: ", left, ", ")
        self.say_items("Scores: ", self._scores(), ", ")

    def _scores(self) -> list:
        g = self.game
        return [f"{seat_name(s)} {g.scores[s]}" + (" (out)" if g.eliminated[s] else "") for s in range(g.n)]

    def _final(self, viewer) -> None:
        g = self.game
        self.say("")
        self.say(f"=== Game over after {g.round} round{'s' if g.round != 1 else ''}.")
        if g.stalemate:
            self.say(f"(The game stopped: {g.stalemate}.)")
        self.say_items("Final scores: ", self._scores(), ", ")
        winners = list(g.game_winners)
        if not winners:
            self.say("Nobody won.")
        elif len(winners) == 1:
            self.say(f"Winner: {self.name(winners[0], viewer)}")
        else:
            self.say("Winners (tied): " + ", ".join(self.name(s, viewer) for s in winners))
        if any(s in self.humans for s in winners):
            self.say("Well played!")

    # ---- help ---------------------------------------------------------------------------------
    def _help(self, seat: int) -> None:
        """The moves this ruleset understands and the codes of its cards."""
        r = self.rules
        word = r.color_word
        cards = sorted(set(r.deck), key=self._sort_key)
        lines = ["Moves:", f"  play CODE            play a card, e.g. `play {r.code(cards[0])}`"]
        colored = [c for c in cards if r.on_play[c] is not None and r.on_play[c].asks_color]
        if colored:
            lines.append(f"  {'play CODE ' + word.upper():<20} a card that asks for a {word}, e.g. "
                         f"`play {r.code(colored[0])} {r.on_play[colored[0]].color_options[0]}`")
        aimed = [c for c in cards if r.on_play[c] is not None and r.on_play[c].asks_target]
        if aimed:
            lines.append(f"  play CODE pN         a card that asks for a player, e.g. "
                         f"`play {r.code(aimed[0])} p2`")
        lines += [f"  {'play CODE ' + call:<20} add `{call}` to say it as the card lands" for call in r.call_verbs()]
        lines += ["  draw / keep          draw instead of playing / keep the card just drawn",
                  f"  choose X             answer with a {word}, a player (pN) or a word"]
        questions = sorted(self.answers - set(r.window_verbs()))
        if questions:
            lines.append("  " + " / ".join(questions).ljust(20) + " answer a question of the rules")
        for verb, doc, needs in self._window_moves():
            lines.append(f"  {(verb + ' pN') if needs else verb:<20} {doc} (at any prompt)")
        lines.append("  hint / hand / help   suggest a move / show the table again / this list")
        lines.append("  quit                 leave the game")
        lines.append(f"{word.capitalize()}s: " + ", ".join(f"{c} ({r.color_codes[c]})" for c in r.colors))
        lines.append("Cards:")
        for title, codes in self._codes_by_color():
            lines.append(f"  {title}: " + " ".join(codes))
        for line in lines:
            self.say(line, indent=" " * 23 if line.startswith("  ") else "  ")
        self.say_items("For example: ", self._kind_examples(), ", ")
        self.say(self._question(seat))

    def _window_moves(self) -> list:
        seen, out = set(), []
        for verb, entries in self.rules.window_verbs().items():
            for _, act in entries:
                if verb not in seen:
                    seen.add(verb)
                    out.append((verb, act.doc.rstrip("."), act.who != "player"))
        return out

    def _codes_by_color(self) -> list:
        """Every distinct card code, one line per color (colorless cards last)."""
        r = self.rules
        groups: dict = {}
        for card in sorted(set(r.deck), key=self._sort_key):
            color = r.cards.color[card]
            title = r.color_titles.get(color, color) if color is not None else f"No {r.color_word}"
            groups.setdefault(title, []).append(r.code(card))
        return list(groups.items())

    def _kind_examples(self) -> list:
        """One card of each kind, named, so the code pattern of each kind is clear."""
        r = self.rules
        first: dict = {}
        for card in sorted(set(r.deck), key=self._sort_key):
            first.setdefault(r.cards.kind[card], card)
        return [f"{r.code(c)} = {r.cards.name[c]}" for c in first.values()]


def _third_person(verb: str) -> str:
    """`catch` -> `catches`: enough English for the verbs rules give to out-of-turn moves."""
    if verb.endswith(("ch", "sh", "s", "x", "z")):
        return verb + "es"
    if verb.endswith("y") and len(verb) > 1 and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"
