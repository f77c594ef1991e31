"""Renaming a ruleset's words changes nothing: the same seeds give the same games.

Every bundled ruleset is rebuilt with its call at one card, its other window verbs, the answers of
its questions, its counters and its card kinds given other names (in the syntax tree, so the rules
are otherwise untouched), and the renamed rules must play exactly the same whole games as the
originals with the basic bots: same turns, rounds, scores, winners and draws. A bot or an engine
path that reads a word (`uno`, `challenge`, `wild`) instead of the rules' meaning fails here.
"""
from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unodsl.compile.loader import Library, UnitRef, _build, bundled_names
from unodsl.lang import ast as A
from unodsl.lang.diagnostics import Diagnostics
from unodsl.sim.simulate import play_game

RULESETS = [name for name, kind, _ in bundled_names() if kind == "ruleset"]


def _words(units) -> dict:
    """The words to rename: card kinds and tags, counters, answers and window verbs, each to a new
    name (a tag and a kind of the same name, like `wild`, stay one word: `card is wild` reads both)."""
    found = set()
    for unit in units:
        for node in A.walk(unit.decls):
            if isinstance(node, A.CardDecl):
                found.add(node.name)
                found |= {t for a in node.attrs if a.key == "tags" for t in a.value}
            elif isinstance(node, A.CounterDecl):
                found.add(node.name)
            elif isinstance(node, A.Answer):
                found.add(node.name)
            elif isinstance(node, A.WindowAction):
                found.add(node.verb)
    return {w: f"zq{i}" for i, w in enumerate(sorted(found))}


# (node type, field) pairs that hold one of the renamed words
_FIELDS = {(A.CardDecl, "name"), (A.KindSel, "kind"), (A.RemoveCard, "name"), (A.Is, "tag"),
           (A.Name, "id"), (A.CounterDecl, "name"), (A.SetCounter, "name"), (A.AddCounter, "name"),
           (A.Answer, "name"), (A.WindowAction, "verb")}


def _rename(node, words: dict):
    if isinstance(node, tuple):
        return tuple(_rename(x, words) for x in node)
    if not isinstance(node, A.Node):
        return node
    changes = {}
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        if isinstance(value, str) and (type(node), f.name) in _FIELDS:
            changes[f.name] = words.get(value, value)
        elif isinstance(node, A.CardAttr) and node.key == "tags" and f.name == "value":
            changes[f.name] = tuple(words.get(t, t) for t in value)
        elif isinstance(value, (A.Node, tuple)):
            changes[f.name] = _rename(value, words)
    return dataclasses.replace(node, **changes)


_CACHE: dict = {}


def _load_pair(name: str):
    if name not in _CACHE:
        diags = Diagnostics()
        lib = Library(diags)
        lib.add_bundled()
        words = _words(ref.unit for ref in lib.units.values())
        original = _build(lib, lib.units[name], [], {}, diags)
        for unit_name, ref in list(lib.units.items()):
            lib.units[unit_name] = UnitRef(_rename(ref.unit, words), ref.source)
        renamed = _build(lib, lib.units[name], [], {}, diags)
        assert not diags.errors, [d.message for d in diags.errors]
        assert renamed.kinds != original.kinds or not original.kinds
        _CACHE[name] = (original, renamed)
    return _CACHE[name]


def _outcome(game) -> tuple:
    return (game.turns, game.round, tuple(game.scores), tuple(game.game_winners), game.stats["drawn"],
            game.stats["reshuffles"], tuple(sorted(game.counter_peaks.values())), bool(game.stalemate))


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 7), seed=st.integers(0, 2**32), record=st.booleans())
def test_renaming_words_changes_no_game(ruleset, players, seed, record):
    """Three rounds of a game (the fast path or the step API with its event log) play the same."""
    original, renamed = _load_pair(ruleset)
    players = max(original.players[0], min(players, original.players[1]))
    a = play_game(original, players, seed, "basic", record=record, rounds=3)
    b = play_game(renamed, players, seed, "basic", record=record, rounds=3)
    assert _outcome(a) == _outcome(b)
