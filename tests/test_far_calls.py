"""native.far: which calls of a native module become far calls, and how they are written.

The games themselves are held by tests/test_native.py (every module there is split, and its
games must be the Python engine's move for move); these tests hold the split's choices.
"""
from __future__ import annotations

import ast

from unodsl import load
from unodsl.native import far
from unodsl.native.writer import NativeWriter

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
