"""native.far: which calls of a native module become far calls, and how they are written.

The games themselves are held by tests/test_native.py (every module there is split, and its
games must be the Python engine's move for move); these tests hold the split's choices.
"""
from __future__ import annotations

import ast

from unodsl import load
from unodsl.native import far
from unodsl.native.writer import NativeWriter

from long_rules import OTHERS_DRAW, runs_each_acting, write_rules

BIG = "\n".join(f"    g[{i}] += s" for i in range(far.FAR_LINES + 5))     # a body longer than FAR_LINES

MODULE = f"""import unodsl.native.runtime as R

@njit(cache=True)
def big(g, s):
{BIG}

@njit(cache=True)
def big_on_an_array(g, cards):
    s = cards[0]
{BIG}

@njit(cache=True)
def hands_on(g, cards):
    big_on_an_array(g, cards)

@njit(cache=True)
def small(g, s):
    g[0] = s

@njit(cache=True, inline='always')
def inlined(g, s):
    big(g, s)

@njit(cache=True)
def plays_again(g, s, again):
{BIG}
    if again:
        plays_again(g, s, np.bool_(False))

@njit(cache=True)
def caller(g, s):
    plays_again(g, s, np.bool_(True))
    big(g, s)
    big(g, s=s)
    small(g, s)
    inlined(g, np.bool_(True))
    hands_on(g, g[0:3])
    R.cancel_top(g)
"""


def _far(tree) -> tuple:
    """The module's FAR: (name, number of parameters) of each far function, in slot order."""
    return ast.literal_eval(next(node.value for node in tree.body if isinstance(node, ast.Assign)
                                 and ast.unparse(node.targets[0]) == "FAR"))


def _calls(tree, name):
    fn = next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == name)
    return [ast.unparse(c) for c in ast.walk(fn) if isinstance(c, ast.Call)]


def test_big_functions_called_with_numbers_are_called_far():
    source = far.split(MODULE)
    tree = ast.parse(source)
    listed = _far(tree)
    names = [name for name, _ in listed]
    assert "big" in names and "R.cancel_top" in names
    # small code stays linked (LLVM inlines it); a parameter that is an array, here or in a
    # function it is handed to, keeps the function out (a far function takes numbers)
    assert not {"small", "big_on_an_array", "hands_on", "inlined", "caller"} & set(names)
    k = names.index("big")
    calls = _calls(tree, "caller")
    assert f"R.far(big, g[O_FAR + {k}], g, (s,))" in calls
    assert f"R.far(R.cancel_top, g[O_FAR + {names.index('R.cancel_top')}], g, ())" in calls
    assert "big(g, s=s)" in calls            # a call it cannot rewrite stays an ordinary one
    assert "small(g, s)" in calls
    assert f"R.far(big, g[O_FAR + {k}], g, (s,))" in _calls(tree, "inlined")
    assert dict(listed)["big"] == 2
    # a call round a circle back to its caller stays an ordinary one (numba types the recursion),
    # its numbers as the int64 a far call hands: one compilation of the function
    assert "plays_again" in names
    assert "plays_again(g, np.int64(s), np.int64(np.bool_(False)))" in _calls(tree, "plays_again")
    assert f"R.far(plays_again, g[O_FAR + {names.index('plays_again')}], g, (s, np.bool_(True)))" in calls


def test_a_module_without_big_functions_is_left_as_written():
    text = "@njit(cache=True)\ndef small(g, s):\n    g[0] = s\n\n@njit(cache=True)\ndef caller(g):\n    small(g, 1)\n"
    assert far.split(text) == text


def test_a_rulesets_module_calls_its_round_and_its_plays_far():
    """The functions that held most of a first compile (the round, a play, the offer out of
    turn) are called far in a real module, and every far call names a slot of the region."""
    source = NativeWriter(load("classic", ("jump-in",)), 4, bot="basic").module_source()
    tree = ast.parse(source)
    names = [name for name, _ in _far(tree)]
    assert {"play_round", "play", "offer_turn", "turn_starter"} <= set(names)
    slots = {int(ast.unparse(c.args[1].slice).split("+")[1]) for c in ast.walk(tree)
             if isinstance(c, ast.Call) and ast.unparse(c.func) == "R.far"}
    assert slots == set(range(len(names)))


def _functions_calling(tree, callee: str) -> set:
    return {f.name for f in tree.body if isinstance(f, ast.FunctionDef)
            and any(callee in call for call in _calls(tree, f.name))}


def test_a_long_rule_of_a_play_is_one_function_wherever_it_runs():
    """Speed's 7 (swap hands, which the target may block) is long: it is written once, as a
    function of its own, called far from `play` and from `turn_starter` (a 7 turned up to start
    acts as if the dealer's left played it), not written into both. Its 0 (pass the hands) is
    short and stays inline in both."""
    tree = ast.parse(NativeWriter(load("speed"), 4, bot="basic").module_source())
    swapping = _functions_calling(tree, "R.swap_hands(")
    assert len(swapping) == 1
    seven = swapping.pop()
    names = [name for name, _ in _far(tree)]
    assert seven in names
    slot = f"R.far({seven}, g[O_FAR + {names.index(seven)}], g, "
    assert _functions_calling(tree, slot) == {"play", "turn_starter"}
    assert {"play", "turn_starter"} <= _functions_calling(tree, "R.pass_hands(")
    # what the 7 sets of its caller's (the player named with the play, taken) comes back to it
    call = next(c for c in _calls(tree, "play") if c.startswith(slot))
    assert "target_arg" in call
    play = next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == "play")
    assert any(isinstance(n, ast.Assign) and ast.unparse(n.value).startswith(slot)
               and ast.unparse(n.targets[0]) == "target_arg" for n in ast.walk(play))


def test_a_long_rule_that_plays_a_card_stays_inline(tmp_path):
    """A rule that plays a card (here the card just drawn) calls `play`, which calls the rule:
    outlined, the two would call each other round a circle, so it stays written into `play`."""
    path = write_rules(tmp_path, "long", '  on play number 5 "Draw a card, which you may play; the others draw." {\n'
                       f"    player draws 1\n    player may play it\n{OTHERS_DRAW}\n  }}\n"
                       f'  on play number 6 "The others draw." {{\n{OTHERS_DRAW}\n  }}\n')
    writer = NativeWriter(load(path), 4, bot="basic")
    tree = ast.parse(writer.module_source())
    assert len(writer.outlined) == 1                     # the 6's rule, not the 5's
    outlined = writer.outlined[0][0][1].split("(")[0].split()[-1]
    assert "play" in _functions_calling(tree, f"R.far({outlined}, ")
    assert not any(c.startswith("play(") for c in _calls(tree, outlined))
    assert any(c.startswith("play(") for c in _calls(tree, "play"))     # the 5's, written into play


def test_basic_weighs_a_turn_and_a_drawn_card_in_one_far_function():
    """basic's weighing of a play is long, and handed an array it would be compiled again into
    every function that calls it: the turn's play and a drawn card's ask `basic_play` with the
    cards' place in the game's memory, a far function compiled once."""
    tree = ast.parse(NativeWriter(load("classic"), 4, bot="basic").module_source())
    names = [name for name, _ in _far(tree)]
    assert "basic_play" in names
    assert "basic_turn" not in {c.split("(")[0] for c in _calls(tree, "play_round")}
    assert any(c.startswith("R.far(basic_play, ") for c in _calls(tree, "play_round"))
    assert any(c.startswith("R.far(basic_play, ") for c in _calls(tree, "basic_drawn"))


def test_the_cards_of_a_run_keep_their_long_rules_inline(tmp_path):
    """Where each card of a run acts as it lands, its rules run before the play's own names are
    set (`it`, the card drawn, is set by the play): there they stay written inline, while `play`
    (and the first card's play, as if played) calls the same rule outlined."""
    writer = NativeWriter(load(runs_each_acting(tmp_path)), 4)
    tree = ast.parse(writer.module_source())
    assert len(writer.outlined) == 1
    outlined = writer.outlined[0][0][1].split("(")[0].split()[-1]
    assert _functions_calling(tree, f"R.far({outlined}, ") == {"play", "turn_starter"}
    assert "play_round" in _functions_calling(tree, "R.draw_cards")     # the run's cards', inline
