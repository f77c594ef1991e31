"""Rules files at the edges: names, recovery from syntax errors, modules that use modules, and
rules that check clean but would crash or never end without the checker's and engine's limits.
"""
from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from unodsl import Action, Game, load
from unodsl.compile.loader import check
from unodsl.lang.diagnostics import Diagnostics
from unodsl.lang.parser import keywords, parse
from unodsl.lang.source import Source
from unodsl.sim.simulate import play_game

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = sorted((ROOT / "rulesets").glob("*.uno"))


def write(tmp_path, text: str, name: str = "rules.uno") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def classic_with(tmp_path, old: str, new: str) -> str:
    text = (ROOT / "rulesets" / "classic.uno").read_text(encoding="utf-8")
    assert old in text
    return write(tmp_path, text.replace(old, new, 1))


SKIP = 'on play skip "The next player loses their turn." { skip next }'


@pytest.mark.parametrize("generated", [True, False])
def test_names_that_differ_only_by_dash_or_underscore_stay_two_names(tmp_path, generated):
    """`a_b` and `a-b` are two variables in both engines (the generated code once made them one)."""
    path = classic_with(tmp_path, SKIP, 'on play skip { let a_b = 5; let a-b = 1; next draws a_b; player draws a-b; skip next }')
    rules = load(path)
    game = Game(rules, 2, seed=3, generated=generated)
    seat = game.decision.seat
    before = [len(h) for h in game.hands]
    skip = next(c for c in range(rules.size) if rules.cards.kind[c] == "skip" and rules.cards.color[c] == "red")
    game.hands[seat].append(skip)
    game.color = "red"
    game.apply(Action(seat, "play", skip))
    assert len(game.hands[1 - seat]) == before[1 - seat] + 5
    assert len(game.hands[seat]) == before[seat] + 1


def test_texts_that_look_like_code_are_left_alone(tmp_path):
    """The generated code renames `g.hands` to a local, but never inside a text of the rules."""
    question = "Did you count g.hands and g.skips?"
    path = classic_with(tmp_path, SKIP, f'on play skip {{ ask next "{question}" {{ counted {{ skip next }} guessed {{ }} }} }}')
    rules = load(path)
    game = Game(rules, 2, seed=5)
    seat = game.decision.seat
    skip = next(c for c in range(rules.size) if rules.cards.kind[c] == "skip" and rules.cards.color[c] == "red")
    game.hands[seat].append(skip)
    game.color = "red"
    game.apply(Action(seat, "play", skip))
    assert game.decision.kind == "answer" and game.decision.prompt == question


def test_a_module_can_use_another_module(tmp_path):
    """`uses` inside a module brings the used module in (it was silently ignored), and the
    module's own rules win over the ones it builds on, as a ruleset's do."""
    path = write(tmp_path, 'module stacked "Stacked" {\n  uses progressive\n'
                           '  on play skip "Skips and adds one." { skip next; add 1 to pending }\n}\n')
    diags, _ = check(path)
    assert [d for d in diags if d.severity == "error"] == []
    rules = load("classic", with_=[path])
    assert rules.counters == {"pending": 0}
    assert any(r is not None for r in rules.restrictions)        # progressive's `play only if`


def test_a_syntax_error_loses_no_other_declaration():
    """Deleting the first word of any declaration of a bundled file is one mistake: every other
    declaration still reaches the checker (a lost `option` used to bring false E201s)."""
    words = keywords()
    for path in BUNDLED:
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        base = parse(Source("x", text), Diagnostics())
        decls = {d.span.line for u in base.units for d in u.decls}
        for line in sorted(decls):
            m = re.match(r"(\s*)(\S+)\s+(\S+)", lines[line - 1])
            rest = re.match(r"[A-Za-z_]+", m.group(3))
            if rest and any(rest.group(0).startswith(w) for w in words):
                continue       # the next word starts with a keyword: the lexer reads it apart
            damaged = lines[line - 1][: m.start(2)] + lines[line - 1][m.end(2):]
            diags = Diagnostics()
            tree = parse(Source("x", "\n".join(lines[: line - 1] + [damaged] + lines[line:])), diags)
            assert diags.errors, (path.name, line)
            kept = {d.span.line for u in tree.units for d in u.decls}
            assert decls - kept <= {line}, f"{path.name}:{line}: losing `{m.group(2)}` also lost {sorted(decls - kept - {line})}"


def test_a_byte_order_mark_is_not_a_mistake(tmp_path):
    text = (ROOT / "rulesets" / "classic.uno").read_text(encoding="utf-8")
    path = tmp_path / "bom.uno"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    diags, _ = check(str(path))
    assert diags == []


@pytest.mark.parametrize("where", ["deal 7", "option target = 500", "card number 0..9"])
def test_giant_numbers_are_one_diagnostic(tmp_path, where):
    """A 5000-digit number crashed the parser (Python's own integer limit); it is now E106, once."""
    giant = "9" * 5000
    path = classic_with(tmp_path, where, where.rsplit(" ", 1)[0] + (" 0.." if ".." in where else " ") + giant
                        if ".." not in where else "card number 0.." + giant)
    diags, _ = check(path)
    assert [d.code for d in diags].count("E106") == 1
    assert len(diags[0].render({}).splitlines()[0]) < 200


def test_a_long_else_if_chain_is_refused_and_a_shorter_one_plays(tmp_path):
    long_chain = "if players == 1 { skip next }" + "".join(f" else if players == {i} {{ skip next }}" for i in range(2, 502))
    diags, _ = check(classic_with(tmp_path, SKIP, f"on play skip {{ {long_chain} }}"))
    assert [d.code for d in diags] == ["E104"]
    chain = "if players == 1 { skip next }" + "".join(f" else if players == {i} {{ skip next }}" for i in range(2, 60))
    rules = load(classic_with(tmp_path, SKIP, f"on play skip {{ {chain} }}"))
    for generated in (True, False):
        game = play_game(rules, 3, seed=1, record=False, generated=generated)
        assert game.game_over


def test_rules_nested_deeper_than_python_allows_still_run(tmp_path):
    """Twenty nested `for each` (over the one other player of a two-player game): Python refuses
    code nested so deep ("too many statically nested blocks", after `check` had said ok), so the
    generated loop leaves such a rule to the generic closures."""
    nested = "".join(f"for each p{i} in others {{ " for i in range(20)) + "player draws 0" + " }" * 20
    text = (ROOT / "rulesets" / "classic.uno").read_text(encoding="utf-8")
    path = write(tmp_path, text.replace("players 2 to 10", "players 2 to 2").replace(SKIP, f"on play skip {{ skip next {nested} }}"))
    rules = load(path)
    game = play_game(rules, 2, seed=2, record=False)
    assert game.game_over
    assert Game(rules, 2, seed=2)._code.delegated          # the deep rule runs generically


@pytest.mark.parametrize("body", [
    "for each a in everyone { " * 14 + "player draws 0" + " }" * 14,
    "while player.cards < 100 { while player.cards < 200 { while player.cards < 300 { player draws 0 } } }",
    "if some a in everyone where (some b in everyone where (some c in everyone where (some d in everyone where "
    "(some e in everyone where (some f in everyone where (some h in everyone where (some i in everyone where "
    "a == b))))))) { player draws 0 }",
])
def test_loops_that_would_take_for_ever_are_refused_at_check_time(tmp_path, body):
    diags, _ = check(classic_with(tmp_path, SKIP, f"on play skip {{ skip next {body} }}"))
    assert [d.code for d in diags] == ["E391"]


def test_return_it_and_turn_another_outside_a_starter_is_refused(tmp_path):
    path = classic_with(tmp_path, "    player draws 1\n    if force_play_drawn",
                        "    player draws 1\n    return it and turn another\n    if force_play_drawn")
    diags, _ = check(path)
    assert [d.code for d in diags] == ["E390"]


def test_option_ranges_are_enforced_everywhere(tmp_path):
    assert load("classic").options["target"].low == 1
    for options in ({"target": -5}, {"target": 0}, {"uno_penalty": -3}, {"target": "0"}):
        with pytest.raises(Exception) as err:
            load("classic", options=options)
        assert "E392" in str(err.value.diagnostics[0].code)
    assert load("classic", options={"target": 1}).options["target"].value == 1


def test_plays_inside_plays_stop_at_a_named_limit(tmp_path):
    """`after play { player may play a card where … }` offers a play after every play: each
    nested inside the last, until Python's recursion limit. The engine stops offering after a
    limit, with an event that names it, and the game goes on; in the generated loop too."""
    path = classic_with(tmp_path, "  on play skip", "  after play { player may play a card where card.color == top.color }\n  on play skip")
    rules = load(path)
    for generated in (False, True):
        game = Game(rules, 2, seed=1, generated=generated)
        assert (game._code.play_round is Game._play_round) != generated
        assert not generated or game._code.delegated == ()     # the rule written out, not left to closures
        seat = game.decision.seat
        reds = [c for c in range(rules.size) if rules.cards.color[c] == "red" and rules.cards.kind[c] == "number"]
        game.hands[seat] += reds * 6          # 60 red numbers: more plays in a row than the limit
        game.discard.append(reds[0])
        game.color = "red"
        game.apply(Action(seat, "play", reds[1]))
        plays = 1
        while game.decision is not None and game.decision.kind == "more":
            game.apply(Action(seat, "play", game.decision.options[0]))
            plays += 1
        assert plays == 51
        assert {"e": "loop_limit", "limit": 50} in game.events
        assert game.chained_plays == 0


DRAWS_AND_PLAYS = ('ruleset redraw "Redraw" extends classic {\n'
                   '  on play number 5 "Draw a card, which you may play." { player draws 1\n player may play it }\n'
                   '  on play number 6 "The next player plays a 6 they hold." {\n'
                   '    if some c in next.hand where c.rank == 6 {\n'
                   '      next picks x from next.hand where x.rank == 6\n      next plays x\n    }\n'
                   '  }\n}\n')


def test_plays_that_play_again_stop_at_the_limit_on_every_engine(tmp_path):
    """A 5 that draws a card and may play it: once the stock is down to a card, two 5s are drawn
    back from the pile and played after each other for ever (a crash at Python's recursion limit,
    before). A 6 that makes the next player play their 6 goes round the table the same way. The
    rules' plays inside one move stop at the limit, with an event that names it, and the game goes
    on; every engine's games end."""
    from unodsl.engine.bots import RandomBot
    from unodsl.native import native_engine
    from unodsl.sim.engines import simulate_native
    from unodsl.sim.simulate import simulate
    rules = load(write(tmp_path, DRAWS_AND_PLAYS))
    fives = [c for c in range(rules.size) if rules.cards.rank[c] == 5]
    for generated in (False, True):
        game = Game(rules, 2, seed=1, generated=generated)
        seat = game.decision.seat
        for five in fives[:3]:            # one of three 5s in the hand, two in the pile, no stock
            next(pile for pile in (*game.hands, game.stock, game.discard) if five in pile).remove(five)
        game.hands[1 - seat] += game.stock + game.discard
        game.stock[:], game.discard[:] = [], fives[1:3]
        game.hands[seat].append(fives[0])
        game.color = rules.cards.color[fives[2]]
        game.apply(Action(seat, "play", fives[0]))
        plays = 1
        while game.decision is not None and game.decision.kind == "drawn":
            game.apply(Action(seat, "play", game.decision.card))
            plays += 1
        assert {"e": "loop_limit", "limit": 50} in game.events, generated
        assert plays == 51 and game.chained_plays == 0
    for bot in ("random", "basic"):
        assert simulate(rules, 4, 60, 1, bot).games == 60
        assert simulate_native(rules, 4, 60, 1, bot=bot).games == 60


def test_a_play_that_makes_another_player_play_stops_at_the_limit(tmp_path):
    """A 6 that makes the next player play a 6 they hold: with 6s enough in both hands, the plays
    go back and forth inside one move. Both Python paths stop at the limit, with an event that
    names it, and the game goes on to the next turn."""
    rules = load(write(tmp_path, DRAWS_AND_PLAYS))
    sixes = [c for c in range(rules.size) if rules.cards.rank[c] == 6]
    for generated in (False, True):
        game = Game(rules, 2, seed=1, generated=generated)
        seat = game.decision.seat
        for hand in game.hands:
            hand += sixes * 15            # 60 sixes each: more plays than the limit
        game.discard.append(sixes[0])
        game.color = rules.cards.color[sixes[0]]
        game.apply(Action(seat, "play", sixes[1]))
        while game.decision is not None and game.decision.kind == "card":     # which 6 to play
            game.apply(Action(game.decision.seat, "card", game.decision.options[0]))
        plays = [e for e in game.events if e["e"] == "play"]
        assert len(plays) == 51 and {p["seat"] for p in plays} == {0, 1}, generated
        assert {"e": "loop_limit", "limit": 50} in game.events
        assert game.chained_plays == 0 and game.decision.kind == "turn"


def test_a_window_that_feeds_itself_stops_in_seconds(tmp_path):
    """A window whose answer makes the player draw, with jump-in: bots answer after every play
    and every jump, and a game ran for over ten minutes. Moves out of turn are now bounded per
    round and turns per game, and the game stops with the limit named."""
    window = ('  window ouch "Ouch" {\n    opens after play\n    closes when a turn begins\n'
              '    others may ouch { player draws 1 }\n  }\n')
    rules = load(classic_with(tmp_path, "  window uno", window + "  window uno"), with_=["jump-in"])
    start = time.monotonic()
    game = play_game(rules, 4, seed=0, record=False)
    assert game.game_over and game.stalemate
    assert time.monotonic() - start < 60          # a bound that a hang cannot meet, not a timing


def test_a_game_halted_inside_a_seat_bots_loop_ends_as_through_the_step_api(tmp_path):
    """Two windows after every play, whose actions make the player draw: basic seats act in both
    every time, past the limit of moves out of turn in a round. Inside the generated loop (basic
    seats asked every choice there) the halt stops the loop where it is; the game ends with the
    limit named, the same game the step API plays."""
    windows = "".join(f'  window {w} "{w}" {{\n    opens after play\n    closes when a turn begins\n'
                      f'    others may {w} {{ player draws 2 }}\n  }}\n' for w in ("poke", "prod"))
    rules = load(classic_with(tmp_path, "  window uno", windows + "  window uno"))
    stepped = play_game(rules, 3, seed=1, bot="basic", record=False, inline=False)
    looped = play_game(rules, 3, seed=1, bot="basic", record=False)
    assert looped._seat_bot is not None and stepped._seat_bot is None
    assert stepped.stalemate == looped.stalemate == "more than 5,000 moves were made out of turn in one round"
    assert looped.game_over and looped.decision is None
    assert (looped.hands, looped.turns, looped.scores) == (stepped.hands, stepped.turns, stepped.scores)


def test_scores_stay_within_what_statistics_can_hold(tmp_path):
    rules = load(classic_with(tmp_path, "if scoring == \"sum\" { winner scores total s.points for s in opponents }",
                              "if scoring == \"sum\" { winner scores 999999999 * 999999999 * 999999999 * 999999999 }"))
    game = play_game(rules, 2, seed=1, record=False)
    assert game.game_over and max(game.scores) == 10 ** 15
