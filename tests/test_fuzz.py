"""Fuzzing: mutated rules files, scenario files and typed moves never crash unodsl or hang it.

Every bundled rules file and a sample of scenario files are mutated (tokens deleted, repeated or
swapped; the file cut anywhere; random bytes, non-UTF-8, very long lines, deep nesting, huge
numbers). The answer must be diagnostics or one of the documented clean errors, in bounded time.
UNODSL_FUZZ_EXAMPLES raises the number of examples for a longer local campaign.
"""
from __future__ import annotations

import io
import os
import random
import re
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unodsl.compile.loader import check
from unodsl.front.scenarios import ScenarioFileError, load_file, run
from unodsl.lang.diagnostics import RulesError
from unodsl.lang.resources import bundled_files

ROOT = Path(__file__).resolve().parent.parent
RULES_FILES = bundled_files() + sorted((ROOT / "examples").rglob("*.uno"))
SCENARIO_FILES = sorted((ROOT / "tests" / "scenarios").rglob("*.yaml"))[::3]
EXAMPLES = int(os.environ.get("UNODSL_FUZZ_EXAMPLES", "30"))
CLEAN_ERRORS = (ValueError, LookupError, OSError)      # what the command line turns into exit 2
TIME_LIMIT = 10.0

FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=not os.environ.get("UNODSL_FUZZ_RANDOM"),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@st.composite
def mutations(draw, text: str) -> bytes:
    """A damaged copy of a file, as bytes."""
    tokens = re.split(r"(\s+)", text)
    kind = draw(st.sampled_from(["delete", "repeat", "swap", "cut", "bytes", "latin1", "long", "deep", "huge"]))
    pick = lambda: draw(st.integers(0, max(0, len(tokens) - 1)))
    if kind == "delete" and tokens:
        for _ in range(draw(st.integers(1, 5))):
            if tokens:
                del tokens[pick() % len(tokens)]
    elif kind == "repeat" and tokens:
        i = pick()
        tokens[i:i] = [tokens[i]] * draw(st.integers(1, 4))
    elif kind == "swap" and len(tokens) > 1:
        i, j = pick(), pick()
        tokens[i], tokens[j] = tokens[j], tokens[i]
    out = "".join(tokens)
    if kind == "cut":
        out = out[: draw(st.integers(0, len(out)))]
    data = out.encode("utf-8")
    at = draw(st.integers(0, len(data)))
    if kind == "bytes":
        data = data[:at] + draw(st.binary(min_size=1, max_size=40)) + data[at:]
    elif kind == "latin1":
        data = data[:at] + "é ñ ü".encode("latin-1") + data[at:]
    elif kind == "long":
        data = data[:at] + b"x" * draw(st.integers(1000, 200_000)) + data[at:]
    elif kind == "deep":
        depth = draw(st.integers(50, 5000))
        data = data[:at] + b"(" * depth + b"1" + b")" * depth + data[at:]
    elif kind == "huge":
        data = re.sub(rb"\b\d+\b", str(10 ** draw(st.integers(10, 400))).encode(), data, count=draw(st.integers(1, 5)))
    return data


@pytest.mark.parametrize("path", RULES_FILES, ids=[p.name for p in RULES_FILES])
@FUZZ
@given(data=st.data())
def test_damaged_rules_files_get_diagnostics(tmp_path, path, data):
    damaged = data.draw(mutations(path.read_text(encoding="utf-8")))
    target = tmp_path / "damaged.uno"
    target.write_bytes(damaged)
    start = time.perf_counter()
    try:
        diags, _ = check(str(target))
    except CLEAN_ERRORS:
        return
    assert time.perf_counter() - start < TIME_LIMIT
    for d in diags:
        assert d.code and d.message and d.span.line >= 0


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=[p.name for p in SCENARIO_FILES])
@FUZZ
@given(data=st.data())
def test_damaged_scenario_files_are_reported_not_crashed_on(tmp_path, path, data):
    damaged = data.draw(mutations(path.read_text(encoding="utf-8")))
    target = tmp_path / path.name
    target.write_bytes(damaged)
    start = time.perf_counter()
    try:
        for sc in load_file(target):
            run(sc)
    except (ScenarioFileError, RulesError):
        pass
    assert time.perf_counter() - start < TIME_LIMIT * 3


MOVES = st.one_of(
    st.text(max_size=60),
    st.lists(st.sampled_from(["play", "draw", "keep", "uno", "catch", "challenge", "accept", "choose", "jump",
                              "pass", "R5", "W+4", "W", "blue", "red", "p1", "p2", "p9", "p0", "uno", "RS",
                              "G+2", "", "-1", "9" * 30, "é", "\x00"]), max_size=5).map(" ".join),
)


@FUZZ
@given(moves=st.lists(MOVES, min_size=1, max_size=12), seed=st.integers(0, 1000))
def test_typed_moves_never_crash_the_prompt(moves, seed):
    from unodsl.compile.loader import load
    from unodsl.front.play import Session
    rules = load("classic", ["jump-in", "seven-o"])
    session = Session(rules, 3, [0, 1, 2], "basic", seed, io.StringIO(), io.StringIO())
    for text in moves:
        d = session.game.decision
        if d is None:
            break
        session.try_move(d.seat if d.seat is not None else 0, text)
        session.try_move(random.Random(seed).randrange(3), text)
