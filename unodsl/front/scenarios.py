"""Scenario files (docs/scenarios.md, the public format): positions, steps, expectations.

`load_file` reads a YAML file into Scenario objects, reporting unreadable YAML, unknown keys and
unknown card codes as ScenarioFileError with file:line:col. `run` plays one scenario and returns
the failures found (empty when it passes). Nothing here knows a card or a variant: codes, colors
and answers all come from the ruleset the file names.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..compile.decisions import Refused
from ..compile.loader import load
from ..engine.actions import (
    ActionSyntaxError,
    answer_words,
    parse_action,
    parse_card,
    parse_color,
    parse_seat,
)
from ..engine.game import Game, Position, seat_name
from ..lang.diagnostics import RulesError, suggest
from ..lang.files import InputError, read_text

FILE_KEYS = {"ruleset", "with", "options", "players", "seed", "scenarios"}
SCENARIO_KEYS = {"name", "ruleset", "with", "options", "players", "seed", "setup", "steps", "expect", "sheet"}
SETUP_KEYS = {"hands", "discard", "starter", "color", "stock", "direction", "turn", "dealer", "scores",
              "uno", "called", "teams", "deal", "face", "counters", "eliminated"}
EXPECT_KEYS = {"hands", "hand_sizes", "top", "color", "direction", "turn", "playable", "stock_size",
               "discard_size", "pending_draw", "round_over", "winner", "round_points", "scores",
               "game_over", "game_winner", "eliminated", "error", "face", "counters", "stock", "discard"}
MAX_SCENARIO_BYTES = 2_000_000


class ScenarioFileError(InputError):
    """The file cannot be run: unreadable YAML, an unknown key or card, a bad ruleset reference."""

    def __init__(self, path, line: int, col: int, message: str, hint: str = ""):
        self.path, self.line, self.col, self.hint = str(path), line, col, hint
        text = f"{path}:{line}:{col}: {message}" if line else f"{path}: {message}"
        super().__init__(text + (f"\n  hint: {hint}" if hint else ""))


class _Map(dict):
    line = col = 0


class _List(list):
    line = col = 0


MAX_ALIAS_VALUES = 100_000      # values that aliases (`*name`) may add to a file, all told


class _Refused(yaml.MarkedYAMLError):
    """A YAML construct scenario files refuse, at its place in the file."""

    def __init__(self, node, problem: str):
        super().__init__(problem=problem, problem_mark=node.start_mark)


class _LineLoader(yaml.SafeLoader):
    """SafeLoader that remembers where each mapping and list started, refuses a key given twice
    in one mapping and aliases that multiply the file, and keeps the text of every plain scalar
    YAML turns into something else (`+3` is the number 3), so card codes can be checked."""

    def construct_document(self, node):
        _check_aliases(node)
        return super().construct_document(node)

    def construct_mapping(self, node, deep=False):
        seen = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                first = seen.setdefault(key, key_node)
            except TypeError:            # an unhashable key: the constructor reports it
                continue
            if first is not key_node:
                raise _Refused(key_node, f"the key `{key}` is given twice in one mapping (first on line "
                                         f"{first.start_mark.line + 1}); YAML would keep only the last one")
        m = _Map(super().construct_mapping(node, deep=True))
        m.line, m.col = node.start_mark.line + 1, node.start_mark.column + 1
        m.key_lines = {k.value: (k.start_mark.line + 1, k.start_mark.column + 1) for k, _ in node.value
                       if isinstance(k, yaml.ScalarNode)}
        m.raw = {k.value: _raw(v) for k, v in node.value if isinstance(k, yaml.ScalarNode)}
        return m

    def construct_sequence(self, node, deep=False):
        seq = _List(super().construct_sequence(node, deep=True))
        seq.line, seq.col = node.start_mark.line + 1, node.start_mark.column + 1
        seq.item_lines = [(n.start_mark.line + 1, n.start_mark.column + 1) for n in node.value]
        seq.raw = [_raw(n) for n in node.value]
        return seq

    def construct_yaml_int(self, node):
        try:
            return super().construct_yaml_int(node)
        except ValueError:               # past Python's limit on the digits of a number
            raise _Refused(node, f"a number of {len(node.value):,} digits is too long to read") from None


def _raw(node):
    """The text of a plain scalar, or None."""
    return node.value if isinstance(node, yaml.ScalarNode) and not node.style else None


def _check_aliases(root) -> None:
    """Refuse a file whose aliases, expanded, would add more than MAX_ALIAS_VALUES values (the
    "billion laughs"): sizes are counted once per node, so the check costs one pass."""
    sizes: dict = {}

    def size(node) -> int:
        known = sizes.get(id(node))
        if known is not None:
            return known
        sizes[id(node)] = MAX_ALIAS_VALUES + 1          # a node that contains itself is endless
        if isinstance(node, yaml.SequenceNode):
            total = 1 + sum(size(n) for n in node.value)
        elif isinstance(node, yaml.MappingNode):
            total = 1 + sum(size(k) + size(v) for k, v in node.value)
        else:
            total = 1
        sizes[id(node)] = total = min(total, 10 * MAX_ALIAS_VALUES)
        return total

    if size(root) - len(sizes) > MAX_ALIAS_VALUES:
        raise _Refused(root, f"the aliases (`*name`) in this file repeat its values more than "
                             f"{MAX_ALIAS_VALUES:,} times; write the values out instead")


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _LineLoader.construct_mapping)
_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _LineLoader.construct_sequence)
_LineLoader.add_constructor("tag:yaml.org,2002:int", _LineLoader.construct_yaml_int)


@dataclass
class Scenario:
    name: str
    path: Path
    line: int
    data: dict
    defaults: dict = field(default_factory=dict)

    def get(self, key, default=None):
        if key in self.data:
            return self.data[key]
        return self.defaults.get(key, default)


def _where(obj, key=None):
    if key is not None and hasattr(obj, "key_lines") and key in obj.key_lines:
        return obj.key_lines[key]
    return getattr(obj, "line", 0), getattr(obj, "col", 0)


def load_file(path) -> list[Scenario]:
    path = Path(path)
    try:
        text = read_text(path, MAX_SCENARIO_BYTES, "scenario file")
    except InputError as err:
        raise ScenarioFileError(path, 0, 0, err.reason) from None
    try:
        doc = yaml.load(text, Loader=_LineLoader)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = getattr(err, "problem", None) or err
        raise ScenarioFileError(path, line, col, problem if isinstance(err, _Refused) else
                                f"not valid YAML: {problem}") from None
    except RecursionError:
        raise ScenarioFileError(path, 1, 1, "the YAML is nested too deeply") from None
    if not isinstance(doc, dict):
        raise ScenarioFileError(path, 1, 1, "a scenario file is a mapping with `ruleset:` and `scenarios:` (or one scenario)")
    _check_keys(path, doc, FILE_KEYS | SCENARIO_KEYS, "file")
    defaults = {k: doc[k] for k in ("ruleset", "with", "options", "players", "seed") if k in doc}
    if "scenarios" in doc:
        for key in ("name", "setup", "steps", "expect"):
            if key in doc:
                raise ScenarioFileError(path, *_where(doc, key), f"`{key}:` at the top of a file with `scenarios:` "
                                        "would be ignored", "move it into one of the scenarios")
        items = doc["scenarios"]
        if not isinstance(items, list):
            raise ScenarioFileError(path, *_where(doc, "scenarios"), "`scenarios:` must be a list")
        out = []
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                raise ScenarioFileError(path, *items.item_lines[i], "each scenario is a mapping with name, setup, steps, expect")
            _check_keys(path, item, SCENARIO_KEYS, "scenario")
            out.append(Scenario(str(item.get("name", f"scenario {i + 1}")), path, item.line, item, defaults))
        return out
    return [Scenario(str(doc.get("name", path.stem)), path, doc.line, doc, {})]


def _check_keys(path, mapping, allowed, what):
    for key in mapping:
        if key not in allowed:
            raise ScenarioFileError(path, *_where(mapping, key), f"unknown {what} key `{key}`",
                                    suggest(str(key), allowed) or "keys: " + ", ".join(sorted(allowed)))


# ---- running ---------------------------------------------------------------------------------

_RULES_CACHE: dict = {}


def _rules_for(sc: Scenario):
    ref = sc.get("ruleset")
    if not ref:
        raise ScenarioFileError(sc.path, sc.line, 1, "no `ruleset:` given", "add for example: ruleset: classic")
    mods = sc.get("with") or []
    if isinstance(mods, str):
        mods = [m.strip() for m in mods.split(",") if m.strip()]
    if not isinstance(mods, list) or not all(isinstance(m, str) for m in mods):
        raise ScenarioFileError(sc.path, sc.line, 1, "`with:` is a list of module names or paths")
    if not isinstance(ref, str):
        raise ScenarioFileError(sc.path, sc.line, 1, "`ruleset:` is a ruleset name or a path")
    file_options = sc.defaults.get("options") or {}
    own_options = sc.data.get("options") or {}
    if not isinstance(file_options, dict) or not isinstance(own_options, dict):
        raise ScenarioFileError(sc.path, sc.line, 1, "`options:` must be a mapping of option names to values")
    options = {**file_options, **own_options}       # a scenario's options add to the file's
    key = (str(ref), tuple(mods), tuple(sorted((str(k), repr(v)) for k, v in options.items())), str(sc.path.parent))
    if key not in _RULES_CACHE:
        try:
            _RULES_CACHE[key] = load(str(ref), tuple(mods), dict(options), base_dir=sc.path.parent)
        except RulesError as err:
            line, col = _where(sc.data if "options" in sc.data else sc.defaults, "options")
            raise ScenarioFileError(sc.path, line or sc.line, col or 1, "the ruleset cannot be loaded:\n" + err.render()) from None
        except OSError as err:
            raise ScenarioFileError(sc.path, sc.line, 1, f"cannot read {err.filename or ref}: {err.strerror}") from None
        except (LookupError, ValueError) as err:
            raise ScenarioFileError(sc.path, sc.line, 1, err.args[0] if err.args else str(err)) from None
    return _RULES_CACHE[key]


def scenario_rules(sc: Scenario):
    """The compiled rules a scenario plays (loaded once per ruleset, modules and options)."""
    return _rules_for(sc)


class _Refs:
    """Reads codes, seats and colors of one scenario, reporting mistakes with their line."""

    def __init__(self, sc: Scenario, rules, players: int):
        self.sc, self.rules, self.players = sc, rules, players

    def fail(self, obj, key, message, hint=""):
        line, col = _where(obj, key) if obj is not None else (self.sc.line, 1)
        raise ScenarioFileError(self.sc.path, line or self.sc.line, col or 1, message, hint)

    def card(self, code, obj=None, key=None, raw=None):
        if raw is None and isinstance(obj, _Map) and key in getattr(obj, "raw", {}):
            raw = obj.raw[key]
        if not isinstance(code, str) and raw is not None and raw != str(code):
            what = "a number" if isinstance(code, (int, float)) and not isinstance(code, bool) else \
                f"`{str(code).lower()}`" if isinstance(code, bool) else "something else"
            self.fail(obj, key, f"YAML reads `{raw}` as {what}, not as the card code `{raw}`",
                      f"put the code in quotes: '{raw}'")
        try:
            return parse_card(self.rules, str(code))
        except ActionSyntaxError as err:
            self.fail(obj, key, str(err))

    def cards(self, codes, obj=None, key=None):
        if codes is None:
            return []
        if not isinstance(codes, list):
            self.fail(obj, key, "a list of card codes is expected here, like [R5, W]")
        raws = getattr(codes, "raw", [None] * len(codes))
        return [self.card(c, obj, key, raw) for c, raw in zip(codes, raws)]

    def seat(self, word, obj=None, key=None):
        try:
            return parse_seat(str(word), self.players)
        except ActionSyntaxError as err:
            self.fail(obj, key, str(err))

    def mapping(self, value, obj, key) -> dict:
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.fail(obj, key, f"`{key}:` must be a mapping like {{p1: ...}}")
        return value

    def whole(self, value, obj, key) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(obj, key, f"`{key}` must be a whole number, not {value!r}")
        return value

    def color(self, word, obj=None, key=None):
        c = parse_color(self.rules, str(word))
        if c is None:
            self.fail(obj, key, f"`{word}` is not a color", "colors: " + ", ".join(self.rules.colors))
        return c


def _players(sc: Scenario, setup: dict) -> int:
    n = sc.get("players")
    if n is None:
        seats = [k for k in (setup.get("hands") or {})]
        nums = [int(str(s)[1:]) for s in seats if str(s)[1:].isdigit()]
        n = max(nums + [2])
    if not isinstance(n, int) or isinstance(n, bool):
        raise ScenarioFileError(sc.path, *_where(sc.data, "players"), "`players:` must be a whole number")
    return n


def _face(refs, setup, hands, discard, starter) -> int:
    """The face in play (`face:`, two-faced cards; the first face when not given), checked against
    the cards the setup lays out, which must all show it."""
    rules = refs.rules
    if not rules.faces:
        if "face" in setup:
            refs.fail(setup, "face", "`face:` is for two-faced cards, and these cards have one face")
        return 0
    word = setup.get("face", rules.faces[0])
    if word not in rules.faces:
        refs.fail(setup, "face", f"`{word}` is not a face of these cards", "faces: " + ", ".join(rules.faces))
    face = rules.faces.index(word)
    laid = [c for h in hands for c in h] + list(discard) + ([starter] if starter is not None else [])
    laid += refs.cards(setup.get("stock"), setup, "stock")
    wrong = [rules.code(c) for c in laid if rules.cards.face[c] != word]
    if wrong:
        refs.fail(setup, "face" if "face" in setup else None,
                  f"{', '.join(dict.fromkeys(wrong))} show the {rules.cards.face[rules.codes[wrong[0].upper()]]} face, "
                  f"but the {word} face is in play", "write the cards by the codes of the face in play")
    return face


def build_game(sc: Scenario):
    rules = _rules_for(sc)
    setup = sc.get("setup") or {}
    if not isinstance(setup, dict):
        raise ScenarioFileError(sc.path, sc.line, 1, "`setup:` must be a mapping")
    _check_keys(sc.path, setup, SETUP_KEYS, "setup")
    players = _players(sc, setup)
    low, high = rules.players
    if not low <= players <= high:
        raise ScenarioFileError(sc.path, *_where(sc.data, "players"), f"{rules.title} is for {low} to {high} players, not {players}")
    refs = _Refs(sc, rules, players)
    seed = sc.get("seed", 0)
    if not isinstance(seed, (int, str)) or isinstance(seed, bool):
        refs.fail(sc.data if "seed" in sc.data else sc.defaults, "seed", "`seed:` must be a whole number or a word")
    dealer = refs.seat(setup["dealer"], setup, "dealer") if "dealer" in setup else players - 1
    if setup.get("deal"):
        return rules, Game(rules, players, seed=seed, dealer=dealer, chance="ask"), refs
    hands = [[] for _ in range(players)]
    for seat, codes in refs.mapping(setup.get("hands"), setup, "hands").items():
        hands[refs.seat(seat, setup.get("hands"), seat)] = refs.cards(codes, setup.get("hands"), seat)
    discard = refs.cards(setup.get("discard"), setup, "discard")
    starter = refs.card(setup["starter"], setup, "starter") if "starter" in setup else None
    if starter is None and not discard:
        refs.fail(setup, None, "the setup needs a `discard:` pile (top card last) or a `starter:` card")
    if starter is not None and discard:
        refs.fail(setup, "starter", "give either `discard:` or `starter:`, not both")
    direction = setup.get("direction", "clockwise")
    if direction not in ("clockwise", "counterclockwise"):
        refs.fail(setup, "direction", f"direction is `clockwise` or `counterclockwise`, not `{direction}`")
    scores = None
    if "scores" in setup:
        scores = [0] * players
        for seat, value in refs.mapping(setup["scores"], setup, "scores").items():
            scores[refs.seat(seat, setup["scores"], seat)] = refs.whole(value, setup["scores"], seat)
    teams = None
    if "teams" in setup:
        groups = setup["teams"] or []
        teams = [len(groups) + s for s in range(players)] if isinstance(groups, list) else []
        if not isinstance(groups, list) or not all(isinstance(g, list) for g in groups):
            refs.fail(setup, "teams", "`teams:` is a list of lists of seats, like [[p1, p3], [p2, p4]]")
        for t, members in enumerate(groups):
            for m in members:
                teams[refs.seat(m, setup, "teams")] = t
    called_key = "called" if "called" in setup else "uno"      # `uno:` is the older name
    called = setup.get(called_key) or []
    if not isinstance(called, list):
        refs.fail(setup, called_key, f"`{called_key}:` is a list of seats, like [p2]")
    face = _face(refs, setup, hands, discard, starter)
    counters = {}
    for name, value in refs.mapping(setup.get("counters"), setup, "counters").items():
        if name not in rules.counters:
            refs.fail(setup.get("counters"), name, f"the rules have no counter `{name}`",
                      suggest(str(name), rules.counters) or "counters: " + (", ".join(rules.counters) or "none"))
        counters[name] = refs.whole(value, setup["counters"], name)
    out = setup.get("eliminated") or []
    if not isinstance(out, list):
        refs.fail(setup, "eliminated", "`eliminated:` is a list of seats, like [p3]")
    eliminated = tuple(refs.seat(s, setup, "eliminated") for s in out)
    if eliminated and not rules.eliminates:
        refs.fail(setup, "eliminated", f"{rules.title} never puts a player out, so no seat can be `eliminated:`")
    position = Position(
        hands=hands, discard=discard, starter=starter, face=face,
        color=refs.color(setup["color"], setup, "color") if "color" in setup else None,
        stock=refs.cards(setup.get("stock"), setup, "stock"),
        direction=1 if direction == "clockwise" else -1,
        turn=refs.seat(setup["turn"], setup, "turn") if "turn" in setup else None,
        dealer=dealer, scores=scores, teams=teams,
        called=tuple(refs.seat(s, setup, called_key) for s in called), counters=counters, eliminated=eliminated)
    game = Game(rules, players, seed=seed, dealer=dealer, position=position, chance="ask")
    return rules, game, refs


@dataclass
class Failure:
    scenario: Scenario
    line: int
    step: str
    message: str

    def render(self) -> str:
        return f"FAIL {self.scenario.path}:{self.line}: {self.scenario.name}\n  {self.step}\n  {self.message}"


def run(sc: Scenario) -> list[Failure]:
    """Play one scenario; return its failures (an empty list when it passes)."""
    rules, game, refs = build_game(sc)
    answers = answer_words(rules)
    last_error = None
    cards = _all_cards(game)          # the scenario's deck: only the cards its setup names
    rounds = game.round
    steps = sc.get("steps") or []
    if not isinstance(steps, list):
        refs.fail(sc.data, "steps", "`steps:` must be a list")
    for i, step in enumerate(steps):
        line = steps.item_lines[i][0] if hasattr(steps, "item_lines") else sc.line
        if not isinstance(step, dict):
            refs.fail(steps, None, f"step {i + 1} must be a mapping like `p1: play R5`")
        if "expect" in step:
            fails = _check(sc, game, rules, refs, step["expect"], last_error, line, f"step {i + 1}: expect")
            if fails:
                return fails
            continue
        rejected = bool(step.get("rejected", False))
        moves = [(k, v) for k, v in step.items() if k != "rejected"]
        if len(moves) != 1:
            refs.fail(step, None, f"step {i + 1} must name one seat and one action, like `p1: play R5`")
        seat_word, text = moves[0]
        seat = refs.seat(seat_word, step, seat_word)
        try:
            action = parse_action(rules, seat, str(text), game.n, answers)
        except ActionSyntaxError as err:
            refs.fail(step, seat_word, str(err))
        label = f"step {i + 1} (line {line}): {seat_word}: {text}"
        before = snapshot(game)
        try:
            game.apply(action)
        except Refused as err:
            last_error = str(err)
            if snapshot(game) != before:
                return [Failure(sc, line, label, f"the refused action changed the game: {err}")]
            if not rejected:
                return [Failure(sc, line, label, f"the rules refused it: {err}")]
            continue
        if rejected:
            return [Failure(sc, line, label, "expected the rules to refuse this action, but they allowed it")]
        if game.round != rounds:          # a `deal` step dealt a new round from the full deck
            rounds, cards = game.round, _all_cards(game)
        if _all_cards(game) != cards:
            lost = cards - _all_cards(game)
            made = _all_cards(game) - cards
            return [Failure(sc, line, label, "cards were not conserved: "
                            f"missing {sorted(rules.code(c) for c in lost.elements())}, "
                            f"extra {sorted(rules.code(c) for c in made.elements())}")]
    expect = sc.get("expect")
    if expect is not None:
        return _check(sc, game, rules, refs, expect, last_error, sc.line, "final expect")
    return []


def _all_cards(g: Game) -> Counter:
    """Every card on the table, whichever of its faces is in play."""
    return Counter(map(g.rules.physical, [c for h in g.hands for c in h] + g.stock + g.discard))


def snapshot(g: Game) -> tuple:
    """The observable state, for checking that refused actions change nothing."""
    return (tuple(tuple(h) for h in g.hands), tuple(g.stock), tuple(g.discard), g.color, g.direction, g.turn,
            tuple(g.scores), g.decision, tuple(sorted(g.windows)), g.round_over, tuple(g.skips))


def state_value(g: Game, rules, key: str):
    """The value an `expect:` key checks, in the form scenario files write it."""
    d = g.decision
    if key == "turn":
        seat = d.seat if d is not None and d.kind != "deal" else (None if g.round_over else g.turn)
        return seat_name(seat) if seat is not None else None
    if key == "top":
        return rules.code(g.discard[-1]) if g.discard else None
    if key == "color":
        return g.color
    if key == "direction":
        return "clockwise" if g.direction == 1 else "counterclockwise"
    if key == "stock_size":
        return len(g.stock)
    if key == "stock":
        return [rules.code(c) for c in reversed(g.stock)]
    if key == "discard":
        return [rules.code(c) for c in g.discard]
    if key == "discard_size":
        return len(g.discard)
    if key == "pending_draw":
        return g.counters.get("pending", 0)
    if key == "round_over":
        return g.round_over
    if key == "face":
        return g.face_name()
    if key == "winner":
        return seat_name(g.winner) if g.winner is not None else None
    if key == "game_over":
        return g.game_over
    if key == "eliminated":
        return sorted(seat_name(s) for s in range(g.n) if g.eliminated[s])
    if key == "playable":
        if d is not None and d.kind == "more":
            return sorted({rules.code(c) for c in d.options})
        if d is None or d.kind not in ("turn", "drawn"):
            return []
        return sorted({rules.code(c) for c in g.playable(d.seat)})
    raise KeyError(key)


def _check(sc, g: Game, rules, refs: _Refs, expect, last_error, line, label) -> list[Failure]:
    if not isinstance(expect, dict):
        refs.fail(None, None, "`expect:` must be a mapping")
    _check_keys(sc.path, expect, EXPECT_KEYS, "expect")
    problems = []

    def differ(what, want, got):
        problems.append(f"{what}: expected {want}, got {got}")

    for key, want in expect.items():
        if key in ("hands", "hand_sizes", "scores", "round_points", "counters"):
            want = refs.mapping(want, expect, key)
        if key == "hands":
            for seat_word, codes in want.items():
                s = refs.seat(seat_word, want, seat_word)
                w = Counter(rules.code(c) for c in refs.cards(codes, want, seat_word))
                got = Counter(rules.code(c) for c in g.hands[s])
                if w != got:
                    differ(f"hands.{seat_word}", sorted(w.elements()), sorted(got.elements()))
        elif key == "hand_sizes":
            for seat_word, n in want.items():
                s = refs.seat(seat_word, want, seat_word)
                if len(g.hands[s]) != n:
                    differ(f"hand_sizes.{seat_word}", n, len(g.hands[s]))
        elif key in ("scores", "round_points"):
            values = g.scores if key == "scores" else g.round_points
            for seat_word, n in want.items():
                s = refs.seat(seat_word, want, seat_word)
                if values[s] != n:
                    differ(f"{key}.{seat_word}", n, values[s])
        elif key == "top":
            got = state_value(g, rules, "top")
            if rules.code(refs.card(want, expect, "top")) != got:
                differ("top", want, got)
        elif key == "color":
            got = state_value(g, rules, "color")
            if (refs.color(want, expect, "color") if want is not None else None) != got:
                differ("color", want, got)
        elif key == "turn":
            got = state_value(g, rules, "turn")
            want_seat = seat_name(refs.seat(want, expect, "turn")) if want is not None else None
            if want_seat != got:
                differ("turn", want_seat, got)
        elif key == "playable":
            w = sorted({rules.code(c) for c in refs.cards(want, expect, "playable")})
            got = state_value(g, rules, "playable")
            if w != got:
                differ("playable", w, got)
        elif key in ("winner",):
            got = state_value(g, rules, "winner")
            w = seat_name(refs.seat(want, expect, key)) if want is not None else None
            if w != got:
                differ(key, w, got)
        elif key == "game_winner":
            wanted = want if isinstance(want, list) else [want]
            w = sorted(seat_name(refs.seat(x, expect, key)) for x in wanted if x is not None)
            got = sorted(seat_name(s) for s in g.game_winners)
            if w != got:
                differ(key, w, got)
        elif key == "eliminated":
            if not isinstance(want, list):
                refs.fail(expect, key, "`eliminated:` is a list of seats")
            w = sorted(seat_name(refs.seat(x, expect, key)) for x in want)
            got = state_value(g, rules, key)
            if w != got:
                differ(key, w, got)
        elif key == "counters":
            for name, n in want.items():
                if name not in g.counters:
                    refs.fail(want, name, f"the rules have no counter `{name}`",
                              suggest(str(name), g.counters) or "counters: " + (", ".join(g.counters) or "none"))
                if g.counters[name] != n:
                    differ(f"counters.{name}", n, g.counters[name])
        elif key in ("stock", "discard"):
            w = [rules.code(c) for c in refs.cards(want, expect, key)]
            got = state_value(g, rules, key)
            if [c.upper() for c in w] != [c.upper() for c in got]:
                differ(key, w, got)
        elif key == "error":
            if last_error is None or str(want).lower() not in last_error.lower():
                differ("error", f"a refusal containing {want!r}", repr(last_error))
        else:
            got = state_value(g, rules, key)
            if got != want:
                differ(key, want, got)
    if problems:
        return [Failure(sc, line, label, "\n  ".join(problems))]
    return []


def collect(paths) -> list[Path]:
    files = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            files.extend(sorted(x for x in p.rglob("*") if x.suffix in (".yaml", ".yml")))
        else:
            files.append(p)
    return files
