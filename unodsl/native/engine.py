"""Building, caching and running a ruleset's native module.

`native_engine(rules, players)` writes the ruleset's module (`writer.NativeWriter`), stores it in
the cache folder under a name made from a hash of its text, imports it and returns a
`NativeEngine`. numba compiles each function the first time it runs and keeps the machine code
next to the module (`cache=True`), so the next process that builds the same module loads it
instead of compiling: the module's text names every rule, option and table it was made from,
and so is the whole cache key (with the numba version and this package's runtime). Writing that
text takes a good part of a second, so a run also leaves a note (`known_*.txt`) naming the module
under a digest of what the text is written from (the ruleset's fingerprint, the table size and the
code that writes it): the next run with the same rules and code loads the module without writing it.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
from collections import Counter
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ..compile.codegen.expressions import Unsupported
from ..lang.cache import cache_dir as shared_cache_dir
from . import build
from .layout import NONE, SLOT, offsets
from .portable import MASK, SEED_SALT
from .writer import HIST_SIZE, NativeWriter


def cache_dir() -> Path:
    """Where native modules and their machine code live: the user's private cache folder
    (lang.cache), else a fresh private folder for this process (everything is compiled anew)."""
    global _FALLBACK
    folder = shared_cache_dir("native")
    if folder is not None:
        return folder
    if _FALLBACK is None:
        _FALLBACK = Path(tempfile.mkdtemp(prefix="unodsl-native-"))
    return _FALLBACK


_FALLBACK: Path | None = None


@lru_cache(maxsize=1)
def _runtime_code_checked() -> None:
    """Once a process, before the runtime's first call: `forget_stale_runtime` where numba keeps
    the runtime's machine code."""
    from . import runtime
    forget_stale_runtime(Path(runtime.next64._cache._cache_path), _runtime_stamp())


def forget_stale_runtime(folder: Path, stamp: str) -> bool:
    """numba keys the runtime's machine code on disk on runtime.py alone (the file's time and
    size, each function's bytecode), not on the layout and the generator it reads as constants.
    Were those to change without it (in a developer's checkout), the code kept would read the
    game's memory at the old places. A mark named after the runtime's `stamp` says the code kept
    in `folder` is this runtime's; without it, the runtime's machine code there is removed, to be
    compiled anew, and the mark made. Whether anything was removed."""
    mark = folder / f"runtime-{stamp}.mark"
    if mark.exists():
        return False
    try:
        _remove_machine_code(folder, "runtime")
        for old in folder.glob("runtime-*.mark"):
            old.unlink(missing_ok=True)
        mark.touch()
    except OSError:             # a folder no one may write in: numba keeps nothing there either
        return False
    return True


def _remove_machine_code(folder: Path, module: str) -> None:
    """Remove what numba keeps in `folder` of the functions of `module` (its index and data files)."""
    for old in [*folder.glob(f"{module}.*.nbi"), *folder.glob(f"{module}.*.nbc")]:
        old.unlink(missing_ok=True)


def _forget_machine_code(digest: str) -> None:
    """Remove the machine code numba keeps on disk for the module named `digest` and for the
    runtime: all of it is compiled anew."""
    from . import runtime
    for folder, module in ((_numba_folder(cache_dir()), f"ruleset_{digest}"),
                           (Path(runtime.next64._cache._cache_path), "runtime")):
        try:
            _remove_machine_code(folder, module)
        except OSError:
            pass


@lru_cache(maxsize=1)
def _runtime_stamp() -> str:
    import numba
    here = Path(__file__).parent
    text = "".join((here / name).read_text(encoding="utf-8") for name in ("runtime.py", "layout.py", "portable.py"))
    return numba.__version__ + hashlib.sha256(text.encode()).hexdigest()[:12]


@lru_cache(maxsize=1)
def _code_stamp() -> str:
    """A digest of the code that writes a native module from a ruleset (the packages it is
    written by and from) and of numba's version."""
    import numba
    root = Path(__file__).parent.parent
    h = hashlib.sha256(numba.__version__.encode())
    for package in ("lang", "compile", "engine", "native"):
        for path in sorted((root / package).rglob("*.py")):
            h.update(path.read_bytes())
    return h.hexdigest()


def _known_path(rules, players: int, bot: str = "random") -> Path:
    key = hashlib.sha256(f"{_code_stamp()} {rules.fingerprint()} {players} {bot}".encode()).hexdigest()[:24]
    return cache_dir() / f"known_{key}.txt"


def _known_module(rules, players: int, bot: str = "random") -> str | None:
    """The name (digest) of the module an earlier run wrote for these rules, table size and code,
    when it and its machine code are still on disk: a run then need not write it again."""
    try:
        digest = _known_path(rules, players, bot).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    if len(digest) != 24 or any(c not in "0123456789abcdef" for c in digest):
        return None
    if not _intact(cache_dir() / f"ruleset_{digest}.py", digest) or not _compiled(digest):
        return None
    return digest


def _remember(rules, players: int, digest: str, bot: str = "random") -> None:
    path = _known_path(rules, players, bot)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(digest, encoding="ascii")
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)


def _compiled(digest: str) -> bool:
    """Whether numba kept the module's machine code on disk: that of `run_games`, whose caching
    stands for the module's (numba keeps none for a function it cannot cache)."""
    folder = _numba_folder(cache_dir())
    return folder.is_dir() and any(folder.glob(f"ruleset_{digest}.run_games-*.nbi"))


def _numba_folder(modules: Path) -> Path:
    """Where numba keeps the machine code of the modules in `modules`: beside them, in
    `__pycache__`, unless NUMBA_CACHE_DIR names a folder of its own, in which numba keeps each
    source folder's in a subfolder named by the folder's name and the SHA-1 of its path."""
    own = os.environ.get("NUMBA_CACHE_DIR")
    if not own:
        return modules / "__pycache__"
    where = os.path.abspath(modules)
    return Path(own) / f"{os.path.basename(where)}_{hashlib.sha1(where.encode()).hexdigest()}"


def _load(source: str | None, key: str):
    """The module named `key`, written from `source` unless it is on disk already, whole."""
    folder = cache_dir()
    path = folder / f"ruleset_{key}.py"
    if not _intact(path, key):
        tmp = folder / f".{path.name}.{os.getpid()}.tmp"
        tmp.write_text(source, encoding="utf-8")
        os.replace(tmp, path)          # written once, never changed: numba's cache stays valid
    return import_module(path, f"unodsl_native_{key}")


def _digest(source: str) -> str:
    """The name of the module whose text is `source`: a digest of it and of the runtime."""
    return hashlib.sha256((_runtime_stamp() + source).encode()).hexdigest()[:24]


def _intact(path: Path, key: str) -> bool:
    """Whether the module on disk at `path` is the one named `key`: its text still hashes to its
    name. A file cut short, changed by hand or damaged on the disk is not believed (importing it
    would fail, or run other rules, in every later run): the module is written again (numba keys
    its machine code on the file's text, so what it kept for that text is found again)."""
    try:
        return _digest(path.read_text(encoding="utf-8")) == key
    except (OSError, UnicodeDecodeError):
        return False


def import_module(path: Path, name: str):
    """The module written at `path`, imported as `name` (once a process): numba's cache knows a
    module's functions by its file and their names."""
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module


def module_function(module, name: str):
    """A compiled function a module calls: its own, or the runtime's ("R.name")."""
    owner, _, attr = name.rpartition(".")
    return getattr(module if not owner else getattr(module, owner), attr)


class NativeEngine:
    """A ruleset compiled for one table size: plays games and returns their statistics."""

    def __init__(self, rules, players: int, module, trace: int = 0, bot: str = "random"):
        self.rules = rules
        self.players = players
        self.bot = bot
        self.module = module
        self.trace = trace
        self.windows = getattr(module, "KEPT_WINDOWS", 0)      # windows the module keeps (native.windows)
        self.far = getattr(module, "FAR", ())                 # functions it calls far (native.far)
        self.offsets, self.memory = offsets(players, len(rules.deck), rules.size, len(rules.counters), trace,
                                            self.windows, len(self.far))
        self._addresses = None

    def new_state(self) -> np.ndarray:
        """A game's memory (layout), with its shape filled in."""
        r = self.rules
        g = np.zeros(self.memory, np.int64)
        g[SLOT["n"]], g[SLOT["cap"]], g[SLOT["cards"]] = self.players, len(r.deck) + 1, r.size
        g[SLOT["trace_size"]] = self.trace
        g[SLOT["win_size"]] = self.windows * self.players
        for name, at in self.offsets.items():
            g[SLOT["o_" + name]] = at
        points = self.offsets["points"]
        g[points:points + r.size] = [p if isinstance(p, int) else 0 for p in r.cards.points]
        colors = self.offsets["colors"]      # a color is its place among the rules' colors (lower.Strings)
        g[colors:colors + r.size] = [NONE if c is None else r.colors.index(c) for c in r.cards.color]
        alike = self.offsets["alike"]        # the card a player tells each one as (Ruleset.distinct)
        g[alike:alike + r.size] = r.same_face or range(r.size)
        if self.far:
            if self._addresses is None:
                self._addresses = [far_address(module_function(self.module, name), count)
                                   for name, count in self.far]
            at = self.offsets["far"]
            g[at:at + len(self.far)] = self._addresses
        return g

    def run(self, games: int, seed: int, first: int = 0, unit: int = 2520, state=None, direct: bool = False) -> "Totals":
        """Raw totals of games first .. first+games-1 of the run seeded `seed`."""
        g = state if state is not None else self.new_state()
        n = self.players
        out = Totals(np.zeros(HIST_SIZE, np.int64), np.zeros(12, np.int64),
                     np.zeros(len(self.rules.counters), np.int64), np.zeros(n, np.int64),
                     np.zeros(n, np.int64), np.zeros(n, np.int64), [])
        salted = np.uint64((seed if direct else seed ^ SEED_SALT) & MASK)
        self.module.run_games(g, salted, first, games, out.hist, out.totals, out.peaks, out.wins, out.won,
                              out.team_won, unit, direct)
        at = self.offsets["teams"]
        out.teams.extend(int(t) for t in g[at:at + n])
        return out

    def play(self, game_seed: int) -> "GameView":
        """One game whose generator starts at `game_seed` (as PortableRandom(game_seed)), for tests."""
        g = self.new_state()
        self.run(1, game_seed, state=g, direct=True)
        return GameView(self, g)

    def warm(self, first: bool = False) -> None:
        """Compile (or load from the cache) everything a run needs, by playing one game. A first
        compile shares the module's far functions with a helper process (native.build)."""
        with compiler_settings():
            if first and self.far and build.helpers():
                self._compile_shared()
            self.run(1, 0)

    def _compile_shared(self) -> None:
        path = Path(self.module.__file__)
        folder = Path(tempfile.mkdtemp(prefix=".build-", dir=path.parent))
        helper = build.start_helper(path, self.module.__name__, folder)
        alive = build.patient(helper)
        functions = build.plan(path.read_text(encoding="utf-8"), self.far)
        try:
            build.share(functions, folder,
                        lambda name, count: far_address(module_function(self.module, name), count), alive)
            build.wait_for(functions, folder, alive)
        finally:
            build.finish(helper, folder)


@contextmanager
def compiler_settings():
    """numba's settings while a module and the runtime compile: LLVM's loop vectorizer off. A
    game's loops run over a few seats, a hand or a deck, and stop early; vectorized, each became a
    vector loop with a scalar loop for what is left, which LLVM optimised and emitted twice over.
    Off, classic with jump-in and basic bots compiled in 13.9 s where it took 16.4 s (after
    another ruleset, bench_native --start), and the bundled rulesets' games took 1 to 7% less
    time. numba reads the setting each time it builds LLVM's passes; its compiler lock keeps other
    threads' compiles out while it is changed, and the user's own setting is restored after."""
    from numba.core import config
    from numba.core.compiler_lock import global_compiler_lock
    with global_compiler_lock:
        kept = config.LOOP_VECTORIZE
        config.LOOP_VECTORIZE = 0
        try:
            yield
        finally:
            config.LOOP_VECTORIZE = kept


def far_address(function, parameters: int) -> int:
    """The address of `function`'s machine code for the game's memory and int64 numbers, as
    runtime.far calls it: compiled now, or loaded from the cache."""
    from numba import types
    signature = (types.Array(types.int64, 1, "C"),) + (types.int64,) * (parameters - 1)
    function.compile(signature)
    compiled = function.overloads[signature]
    return compiled.library.get_pointer_to_function(compiled.fndesc.llvm_func_name)


class Totals(NamedTuple):
    """What `NativeEngine.run` adds up (sim.simulate.Stats reads them): the histogram of game
    lengths; turns squared, rounds, cards drawn, reshuffles, stock ran dry, eliminations,
    stalemates, points, cards drawn squared, reshuffles squared; counter peaks; win shares; games
    won by seat and by team id; the teams (team id of each seat) of the last game."""
    hist: np.ndarray
    totals: np.ndarray
    peaks: np.ndarray
    wins: np.ndarray
    won: np.ndarray
    team_won: np.ndarray
    teams: list


class GameView:
    """A finished native game read back as the Python Game's attributes (for tests)."""

    def __init__(self, engine: NativeEngine, g: np.ndarray):
        self.g, self.o, self.n = g, engine.offsets, engine.players
        self.rules = engine.rules

    def slot(self, name: str) -> int:
        return int(self.g[SLOT[name]])

    def region(self, name: str, length: int) -> list:
        at = self.o[name]
        return [int(x) for x in self.g[at:at + length]]

    @property
    def hands(self) -> list:
        cap = len(self.rules.deck) + 1
        lens = self.region("hlen", self.n)
        return [self.region("hands", s * cap + lens[s])[s * cap:] for s in range(self.n)]

    @property
    def copies(self) -> list:
        """How many copies of each card each seat holds, as the runtime keeps them (layout)."""
        size = self.rules.size
        return [self.region("copies", (s + 1) * size)[s * size:] for s in range(self.n)]

    @property
    def turns(self) -> int:
        return self.slot("turns_before") + self.slot("round_turns")

    @property
    def scores(self) -> list:
        return self.region("scores", self.n)

    @property
    def winners(self) -> list:
        return self.region("winners", self.slot("n_winners"))

    @property
    def stock(self) -> list:
        return self.region("stock", self.slot("stock_len"))

    @property
    def discard(self) -> list:
        return self.region("discard", self.slot("discard_len"))

    @property
    def rng_state(self) -> int:
        return self.slot("rng") & MASK

    @property
    def trace(self) -> list:
        return [tuple(self.region("trace", 5 * (i + 1))[5 * i:]) for i in range(self.slot("trace_len"))]

    def none(self, value: int):
        return None if value == NONE else value


def _written(rules, players: int, bot: str = "random"):
    """(writer, module text, cache key) of the ruleset's native module with `bot` in every seat,
    once per process; raises Unsupported (saying what) when the native engine cannot play the
    ruleset, or BotUnsupported when it cannot play that bot's choices in it."""
    key = ("native-source", players, bot)
    found = rules.generated.get(key)
    if found is None:
        try:
            writer = NativeWriter(rules, players, bot)
            source = writer.module_source()
            if writer.delegated:
                raise Unsupported(writer.delegated[0][1])
            digest = _digest(source)
            found = (writer, source, digest)
        except Unsupported as missing:
            found = missing
        rules.generated[key] = found
    if isinstance(found, Unsupported):
        raise type(found)(str(found))
    return found


def is_cached(rules, players: int, bot: str = "random") -> bool:
    """Whether machine code for this ruleset, table size and bot is on disk (a run starts at
    once); raises Unsupported as native_engine does."""
    if _known_module(rules, players, bot) is not None:
        return True
    _, _, digest = _written(rules, players, bot)
    return _compiled(digest)


def native_engine(rules, players: int, trace: int = 0, bot: str = "random") -> NativeEngine:
    """The ruleset's native engine for this table size with `bot` (random or basic) in every
    seat, built once per process; raises Unsupported (saying what) when the native engine cannot
    play the ruleset, BotUnsupported when it cannot play the bot's choices in it. Its games keep
    their first `trace` moves (tests): the module, compiled once, is the same for any trace."""
    key = ("native", players, trace, bot)
    found = rules.generated.get(key)
    if found is None:
        from numba.core.errors import NumbaError
        _runtime_code_checked()
        digest = _known_module(rules, players, bot)
        if digest is not None:
            module = _load(None, digest)
        else:
            _, source, digest = _written(rules, players, bot)
            module = _load(source, digest)
        engine = NativeEngine(rules, players, module, trace, bot)
        try:
            _warmed(engine, digest)         # numba compiles (or loads) here, not mid-run
        except NumbaError as err:       # a gap of the lowering: refused, like any other
            text = str(err).strip()
            rules.generated[("native-source", players, bot)] = missing = Unsupported(
                "a construct numba could not compile: " + (text.splitlines()[0] if text else type(err).__name__))
            raise Unsupported(str(missing)) from None
        _remember(rules, players, digest, bot)
        found = rules.generated[key] = engine
    return found


def _warmed(engine: NativeEngine, digest: str) -> None:
    """`engine.warm`: compiled, or loaded from numba's cache. numba reads its files on disk
    without checking them, so one cut short or damaged (a full disk, a copy gone wrong) makes
    loading fail, in every later run too: the module's machine code and the runtime's are then
    removed and compiled anew, once. A failure that is not the files' fails again, and is raised."""
    from numba.core.errors import NumbaError
    try:
        engine.warm(first=not _compiled(digest))
    except NumbaError:
        raise
    except Exception:
        _forget_machine_code(digest)
        engine.warm(first=True)


def stats_counter(hist) -> Counter:
    """The histogram of game lengths as sim.simulate.Stats keeps it."""
    nonzero = np.nonzero(hist)[0]
    return Counter({int(t): int(hist[t]) for t in nonzero})
