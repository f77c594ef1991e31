"""`unodsl play`: a game at the terminal, people in some seats and bots in the others.

The session is a thin loop around `Game`: it never decides what is legal. A person's line is read
with the same parser as scenario steps (`parse_action`) and handed to `Game.apply`, so a refused
move is refused by the rules with the engine's own message and leaves the game untouched. Bots get
exactly what the simulator gives them (`choose`, then `out_of_turn` after every move), so a game
played here behaves like a simulated one.

What a person sees comes only from `Game.view(seat)` and `Game.events_for(seat)`, told in the
sentences of `narration` (the web table says the same ones). Cards are drawn in their colors on
a terminal that has them (`palette`); the help is made from the ruleset, so every example it
gives is a move the game reads. Nothing here knows a card or a variant.
"""
from __future__ import annotations

import random
import re
import sys

from ..compile.decisions import Action, Refused
from ..engine.actions import (
    ActionSyntaxError,
    answer_words,
    format_action,
    parse_action,
)
from ..engine.bots import BasicBot, check_bot, make_bot
from ..engine.game import Game, seat_name
from ..lang.files import atomic_write, interrupts_held, printable
from .narration import Narrator, for_players, questions, words_of
from .palette import MARK, Ink, terminal_colors

WIDTH = 79
MAX_LINE = 10_000          # a typed line longer than this is not a move: the rest is skipped
DEAL = Action(None, "deal")
_ANSI = re.compile(r"\x1b\[[0-9;]*m|" + MARK.pattern)


def visible_len(text: str) -> int:
    return len(_ANSI.sub("", text))


def wrap(text: str, width: int = WIDTH, indent: str = "    ") -> list:
    """Wrap at spaces by the width a person sees (color codes take no room)."""
    body = text.lstrip(" ")
    lead = text[:len(text) - len(body)]
    lines, line = [], lead
    for word in body.split(" "):
        candidate = line + word if line == lead else line + " " + word
        if line.strip() and visible_len(candidate) > width:
            lines.append(line)
            line = indent + word
        else:
            line = candidate
    lines.append(line)
    return lines


class _Quit(Exception):
    """The person asked to stop, or input ended; carries the goodbye line to print."""


def play_session(rules, players: int, human_seats, bot: str = "basic", seed=None,
                 stdin=None, stdout=None, log_path=None, ref=None, save_path=None, resume=None) -> int:
    """Play one whole game at the terminal and return the exit code.

    `human_seats` are 0-based seats typed in by people; every other seat is played by a `bot`
    (any bot spec `engine.bots.make_bot` builds: bundled, entry point or import path). Quitting and end of input end the session normally (exit 0) with a goodbye
    line that says where the game is saved and how to resume it; Ctrl-C too, but with exit code
    130; a bad set-up (player count, seat, bot name) prints why and returns 2. A move (with the
    bots' answers out of turn and the save after it) is never cut by Ctrl-C: the interrupt waits
    until it is done, so a save or a log holds whole moves. With `log_path`, the game's event log
    is written there when the session ends, however it ends; `ref` is (ruleset, modules, options)
    as given, so that `unodsl replay` can rebuild it. With `save_path` the game is saved after
    every move; `resume` (a savegame.Saved) continues a saved game instead of starting one.
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
        session.say(session.where_saved(finished=True))
    except _Quit as q:
        session.say(str(q))
        session.say(session.where_saved())
    except KeyboardInterrupt:
        session.say("\nInterrupted. Goodbye.")
        session.say(session.where_saved())
        code = 130
    if log_path:
        from ..engine import eventlog
        name, modules, options = session.ref
        atomic_write(log_path, eventlog.text(name, modules, options, session.game))
        session.say(f"The event log is in {log_path}: `unodsl replay {log_path}` checks it.")
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
        check_bot(bot)                                  # a BotError is a ValueError: exit 2
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
        self.bots = {s: make_bot(bot, bot_rng(seed, s)) for s in range(players) if s not in humans}
        self.advisor = BasicBot(bot_rng(seed, -1))      # for hints; its own stream, so hints never
        self.answers = answer_words(rules)              # change what the bots would do
        self.questions = questions(rules)
        self.stdin, self.stdout = stdin, stdout
        self.echo = not _isatty(stdin)                  # scripted input: show it in the transcript
        self.ink = Ink(rules, terminal_colors(stdout))
        paint = dict(paint_card=self.ink.card, paint_color=self.ink.color)
        self.narrators = {s: Narrator(rules, players, s, **paint) for s in humans}
        self.watcher = Narrator(rules, players, None, **paint)   # several people at one screen
        self.seen = {s: 0 for s in humans}              # per person: events already narrated
        self.shown = 0                                  # events narrated to anyone
        self.readline = _line_editing(stdin, self)

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
        moves = len(game.log)
        session.say(f"Resumed the saved game: round {game.round}, {moves} move{'s' * (moves != 1)} so far.")
        return session

    def _streams(self) -> dict:
        """Every random stream the session draws on, by a stable name (saved with the game)."""
        streams = {f"p{s + 1}": bot.rng for s, bot in self.bots.items()
                   if isinstance(getattr(bot, "rng", None), random.Random)}
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

    def where_saved(self, finished: bool = False) -> str:
        """Where the game is kept and how to go on with it."""
        path = self.save_path
        if path and finished:
            return f"The whole game is saved in {path}; `unodsl play --resume {path}` shows how it ended."
        if path:
            return f"The game is saved in {path}: continue it with `unodsl play --resume {path}`."
        if finished:
            return ""
        return "This game was not saved: start one with `--save FILE` to be able to continue it later."

    # ---- output -------------------------------------------------------------------------------
    def printed(self, text: str) -> str:
        """Text as it reaches the terminal. Titles, names and texts come from rules files: their
        control characters are shown, never obeyed; only the session's own colors are painted."""
        return self.ink.finish(printable(text))

    def say(self, text: str = "", indent: str = "    ") -> None:
        """Write text wrapped to the terminal width (each paragraph separately)."""
        if text is None:
            return
        for line in text.split("\n"):
            for piece in wrap(line, WIDTH, indent):
                print(self.printed(piece), file=self.stdout)

    def say_items(self, label: str, items, sep: str = " ") -> None:
        """`label` then the items, wrapped between items (never inside one) under the first."""
        pad = " " * min(len(label), 24)
        line = printable(label)
        for i, item in enumerate(map(printable, items)):
            piece = item if i == 0 else sep + item
            if i and visible_len(line) + visible_len(piece) > WIDTH:
                print(self.ink.finish(line.rstrip()), file=self.stdout)
                line, piece = pad, item
            line += piece
        print(self.ink.finish(line), file=self.stdout)

    def card(self, code: str) -> str:
        """A card code as typed, drawn in its card's color."""
        card = self.rules.codes.get(code.upper())
        return self.ink.card(card, code) if card is not None else code

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
        if self.readline:
            try:
                return input(prompt).strip()
            except EOFError:
                raise _Quit("\nEnd of input. Goodbye.") from None
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

    def parse(self, seat: int, text: str) -> Action:
        """A typed move as an action. An answer the rules spell with `_` or `-` (`no_bet`) may
        be typed in words (`no bet`), the way it is shown."""
        words = text.split()
        for answer in self.answers:
            if len(words) > 1 and words_of(answer).split() == [w.lower() for w in words]:
                text = answer
        return parse_action(self.rules, seat, text, self.game.n, self.answers)

    def try_move(self, seat: int, text: str) -> bool:
        """Try a typed move; say why when it is not one or not allowed. True if it was applied."""
        try:
            action = self.parse(seat, text)
        except ActionSyntaxError as e:
            self.say(f"Not a move: {e}")
            return False
        try:
            self._apply(action)
        except Refused as e:
            self.say(f"Not allowed: {self.narrators.get(seat, self.watcher).refusal(str(e))}")
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
        self.say("Hint: " + (", then ".join(f"{m}" for m in moves) if moves else "nothing to do now") + ".")
        fits = self._playable(seat)
        if fits:
            self.say_items("Cards you can play: ", [self.card(self.rules.code(c)) for c in self._sorted(fits)])

    # ---- what a person sees -------------------------------------------------------------------
    def _show(self, seat: int, narrate: bool) -> None:
        g = self.game
        v = g.view(seat)
        self.say("")
        self.say(f"--- Round {v['round']}: you are {seat_name(seat)} ".ljust(WIDTH, "-"))
        if narrate:
            self._tell(seat)
        if v["top"] is None:
            self.say("No card has been turned up yet.")
        else:
            top = self.rules.codes.get(v["top"].upper())
            word = self.rules.color_word.capitalize()
            color = f"   {word}: {self.ink.color(v['color'], self._color_word(v['color']))}" if v["color"] else ""
            side = (f"   Side: {self.rules.face_titles[self.rules.faces.index(v['face'])]}"
                    if v.get("face") else "")
            self.say(f"Top card: {self.ink.card(top, self.rules.cards.name[top])}{color}{side}")
        self.say(f"Play goes {v['direction']}.   Stock: {v['stock_size']} card{'s' * (v['stock_size'] != 1)}")
        self.say_items("Players: ", [self._seat_summary(s, seat, v) for s in range(g.n)], " | ")
        for owner, codes in v["revealed"].items():
            self.say_items(f"{owner} showed you: ", [self.card(c) for c in codes] or ["no cards"])
        for owner, codes in v.get("other_faces", {}).items():
            self.say_items(f"The other side of {owner}'s cards: ", [self.card(c) for c in codes] or ["none"])
        if v.get("stock_top_other_face") is not None:
            self.say(f"The other side of the stock's top card: {self.card(v['stock_top_other_face'])}")
        hand = self._hand_codes(seat, v)
        self.say_items(f"Your hand ({len(v['hand'])}): ", hand)
        if any(c.startswith("*") for c in map(lambda h: _ANSI.sub("", h), hand)):
            self.say("  * marks the cards you can play now.")
        self.say(self._question(seat))

    def _color_word(self, color) -> str:
        title = self.rules.color_titles.get(color, color) or ""
        return title[:1].lower() + title[1:]

    def _seat_summary(self, s: int, viewer: int, v: dict) -> str:
        name = seat_name(s)
        n = v["hand_sizes"][name]
        who = "you" if s == viewer else name
        return f"{who} {n} card{'s' if n != 1 else ''}, {v['scores'][name]} pts"

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

    def _sorted(self, cards) -> list:
        return sorted(cards, key=self._sort_key)

    def _hand_codes(self, seat: int, v: dict) -> list:
        """The hand by color then code; `*` marks the cards that may be played now."""
        codes = self.rules.codes
        fits = set(self._playable(seat))
        hand = self._sorted(codes[c.upper()] for c in v["hand"])
        return [("*" if c in fits else "") + self.card(self.rules.code(c)) for c in hand] or ["no cards"]

    def _question(self, seat: int) -> str:
        """What the current decision asks of this seat (the narration's words), then what to type."""
        g = self.game
        d = g.decision
        r = self.rules
        extra = self._out_of_turn_moves(seat)
        if d is not None and d.seat is None and d.kind != "deal":
            names = [format_action(r, a).split(" ", 1)[-1] for a in g.legal_actions()]
            return f"{d.prompt} Answer for the table with `choose ...`: " + ", ".join(names[:12]) + "."
        narrator = self.narrators.get(seat, self.watcher)
        if d is None or d.seat != seat:
            return narrator.asked(d) + extra
        legal = g.legal_actions()
        plays = sorted((a for a in legal if a.verb == "play"), key=lambda a: self._sort_key(a.card))
        said = narrator.asked(d, playable=bool(plays))
        typed = []
        if plays:
            typed.append(format_action(r, plays[0]))
        if d.kind == "turn":
            typed += ["draw"] if any(a.verb == "draw" for a in legal) else []
            return f"{said} Type {' or '.join(f'`{t}`' for t in typed)}.{self._call_hint(seat, plays)}" + extra
        if d.kind in ("drawn", "more"):
            typed += [a.verb for a in legal if a.verb in ("keep", "pass")][:1]
            return f"{said} Type {' or '.join(f'`{t}`' for t in typed)}." + extra
        if d.kind in ("color", "seat", "card"):
            return said + " Type " + ", ".join(f"`{format_action(r, a)}`" for a in legal) + "." + extra
        if d.kind == "answer":
            docs = self.questions.get(d.prompt, {})
            lines = [d.prompt] + [f"  `{words_of(o)}`" + (f": {docs[o]}" if docs.get(o) else "") for o in d.options]
            return "\n".join(lines) + extra
        return said + extra

    def _call_hint(self, seat: int, plays) -> str:
        """With two cards left, remind the player that their call can go with the play."""
        calls = self.rules.call_verbs()
        if plays and calls and len(self.game.view(seat)["hand"]) == 2:
            call = calls[0]
            return (f" Add `{call}` to say it with your next-to-last card: "
                    f"`{format_action(self.rules, plays[0]._replace(call=call))}`.")
        return ""

    def _out_of_turn_moves(self, seat: int) -> str:
        moves = sorted({format_action(self.rules, a) for a in self.game.window_actions(seat)})
        if not moves:
            return ""
        return "\nYou may also, out of turn: " + ", ".join(f"`{m}`" for m in moves[:8]) + "."

    def _tell(self, seat: int) -> None:
        """Narrate what happened since this person's last look."""
        events = self.game.events_for(seat, self.seen[seat])
        self.seen[seat] = len(self.game.events)
        self.shown = len(self.game.events)
        for line in self.narrators[seat].tell(events):
            self.say("  " + line)

    def describe(self, event: dict, viewer) -> str | None:
        """One event as `viewer` may know it (None: someone watching), for tests and tools."""
        narrator = Narrator(self.rules, self.game.n, viewer)
        private = event.get("private") or {}
        seen = {k: v for k, v in event.items() if k != "private"}
        seen.update(private.get(viewer, {}))
        lines = narrator.tell([seen])
        return lines[0] if lines else None

    # ---- rounds and the end -------------------------------------------------------------------
    def _round_over(self) -> None:
        """Finish telling the round, show its result, and wait for a person before dealing on."""
        g = self.game
        viewer = self.humans[0] if len(self.humans) == 1 else None
        narrator = self.narrators[viewer] if viewer is not None else self.watcher
        if not self.humans:                 # a spectator sees each round told in one piece
            self.say("")
            self.say(f"--- Round {g.round} ".ljust(WIDTH, "-"))
        for line in narrator.tell(g.events_for(viewer, self.shown)):
            self.say("  " + line)
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

    def _name(self, seat, viewer) -> str:
        return "you" if seat == viewer else seat_name(seat)

    def _round_result(self, viewer) -> None:
        g = self.game
        v = g.view(viewer if viewer is not None else 0)
        self.say("")
        if g.winner is None:
            self.say(f"*** Round {g.round} ends with no winner.")
        else:
            self.say(f"*** Round {g.round} is over: {self._name(g.winner, viewer)} went out.")
        gained = [f"{self._name(s, viewer)} {g.round_points[s]:+d}" for s in range(g.n) if g.round_points[s]]
        self.say_items("Points this round: ", gained or ["nobody scored"], ", ")
        left = [f"{self._name(s, viewer)} {n}" for s, n in enumerate(v["hand_sizes"].values()) if n]
        if left:
            self.say_items("Cards left in hand: ", left, ", ")
        self.say_items("Scores: ", self._scores(viewer), ", ")

    def _scores(self, viewer=None) -> list:
        g = self.game
        return [f"{self._name(s, viewer)} {g.scores[s]}" + (" (out of the game)" if g.eliminated[s] else "") for s in range(g.n)]

    def _final(self, viewer) -> None:
        g = self.game
        self.say("")
        self.say(f"=== Game over after {g.round} round{'s' if g.round != 1 else ''}.")
        if g.stalemate:
            self.say(f"The game stopped: {g.stalemate}.")
        self.say_items("Final scores: ", self._scores(viewer), ", ")
        winners = list(g.game_winners)
        if not winners:
            self.say("Nobody won.")
        elif len(winners) == 1:
            self.say("You won the game." if winners[0] == viewer else f"Winner: {seat_name(winners[0])}")
        else:
            self.say("Winners, tied: " + ", ".join(seat_name(s) for s in winners))
        if any(s in self.humans for s in winners):
            self.say("Well played!")

    # ---- help ---------------------------------------------------------------------------------
    def help_lines(self, seat: int) -> list:
        """The moves this ruleset understands, each with an example made by the move formatter
        itself (so the game reads every one of them back), and the codes of its cards."""
        r = self.rules
        g = self.game
        other = (seat + 1) % g.n
        cards = self._sorted(set(r.deck))
        lines = ["Moves (what you type):"]

        def move(example: Action, what: str) -> None:
            typed = format_action(r, example)
            typed = words_of(typed) if example.verb in self.answers and typed == example.verb else typed
            lines.append(f"  {('`' + typed + '`').ljust(22)} {what}")

        plain = [c for c in cards if r.on_play[c] is None or not (r.on_play[c].asks_color or r.on_play[c].asks_target)]
        if plain:
            move(Action(seat, "play", plain[0]), f"play a card by its code ({r.cards.name[plain[0]]})")
        for c in cards:
            program = r.on_play[c]
            if program is not None and program.asks_color and not program.asks_target:
                move(Action(seat, "play", c, r.colors[0]), f"a card that names a color: add the color ({r.cards.name[c]})")
                break
        for c in cards:
            program = r.on_play[c]
            if program is not None and program.asks_target:
                move(Action(seat, "play", c, r.colors[0] if program.asks_color else None, other),
                     f"a card that names a player: add the player ({r.cards.name[c]})")
                break
        for call in r.call_verbs():
            if plain:
                move(Action(seat, "play", plain[0], call=call),
                     f"say “{words_of(call)}” as your next-to-last card lands")
        move(Action(seat, "draw"), "draw instead of playing")
        move(Action(seat, "keep"), "keep the card you just drew")
        move(Action(seat, "choose", answer=r.colors[0], color=r.colors[0]), "answer with a color")
        move(Action(seat, "choose", target=other, answer=seat_name(other)), "answer with a player")
        for question, answers in self.questions.items():
            lines.append(f"  When asked “{question}”:")
            for name, doc in answers.items():
                move(Action(seat, name), doc.rstrip(".") or "answer so")
        if self._window_moves():
            lines.append("  At any prompt, out of turn:")
        for verb, act in self._window_moves():
            if act.card_test is not None:
                example = Action(seat, verb, next(iter(plain or cards)))
            elif act.who == "player":
                example = Action(seat, verb)
            else:
                example = Action(seat, verb, target=other)
            move(example, for_players(r, act.doc).rstrip(".") or verb)
        lines.append("  `hint` `hand` `help`   suggest a move, show the table again, this list")
        lines.append("  `quit`                 leave the game")
        lines.append("Colors: " + ", ".join(f"{self.ink.color(c, c)} ({r.color_codes[c]})" for c in r.colors))
        lines.append("Cards:")
        for title, codes in self._codes_by_color():
            lines.append(f"  {title}: " + " ".join(codes))
        return lines

    def _help(self, seat: int) -> None:
        for line in self.help_lines(seat):
            self.say(line, indent=" " * 25)
        self.say_items("For example: ", self._kind_examples(), ", ")
        self.say(self._question(seat))

    def _window_moves(self) -> list:
        seen, out = set(), []
        for verb, entries in self.rules.window_verbs().items():
            for _, act in entries:
                if verb not in seen:
                    seen.add(verb)
                    out.append((verb, act))
        return out

    def _codes_by_color(self) -> list:
        """Every distinct card code, one line per color (colorless cards last)."""
        r = self.rules
        groups: dict = {}
        for card in self._sorted(set(r.deck)):
            color = r.cards.color[card]
            title = r.color_titles.get(color, color) if color is not None else f"No {r.color_word}"
            groups.setdefault(title, []).append(self.card(r.code(card)))
        return list(groups.items())

    def _kind_examples(self) -> list:
        """One card of each kind, named, so the code pattern of each kind is clear."""
        r = self.rules
        first: dict = {}
        for card in self._sorted(set(r.deck)):
            first.setdefault(r.cards.kind[card], card)
        return [f"{self.card(r.code(c))} = {r.cards.name[c]}" for c in first.values()]

    def completions(self, seat: int) -> list:
        """Moves worth offering at the prompt (Tab): the legal ones and the out-of-turn ones."""
        g = self.game
        moves = {format_action(self.rules, a) for a in self.game.window_actions(seat)}
        if g.decision is not None and g.decision.seat == seat:
            moves |= {format_action(self.rules, a) for a in g.legal_actions()}
        return sorted(moves | {"help", "hint", "hand", "quit"})


def _line_editing(stdin, session) -> bool:
    """Use readline (arrow keys, history, Tab to complete a move) when a person types at a real
    terminal; scripted input is read as it comes."""
    if stdin is not sys.stdin or not _isatty(stdin) or not _isatty(sys.stdout):
        return False
    try:
        import readline
    except ImportError:                  # not on every platform: plain input() still works
        return True

    def complete(text, state):
        g = session.game
        seat = g.decision.seat if g.decision is not None and g.decision.seat in session.humans else session.humans[0]
        line = readline.get_line_buffer()
        found = [m for m in session.completions(seat) if m.startswith(line)]
        start = len(line) - len(text)
        found = [m[start:] for m in found]
        return found[state] if state < len(found) else None

    readline.set_completer(complete)
    readline.set_completer_delims(" ")
    readline.parse_and_bind("tab: complete")
    return True
