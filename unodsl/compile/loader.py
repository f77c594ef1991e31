"""Finding, parsing, composing and compiling rules files: the front door of the language.

`load("classic", with_=["progressive"], options={"uno_penalty": 4})` returns a Ruleset or raises
RulesError with every diagnostic found. A name is looked up among the bundled rulesets and
modules; anything with a path separator or a `.uno` suffix is read as a file.
"""
from __future__ import annotations

import os
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from ..lang import ast as A
from ..lang import kept_parses
from ..lang.compose import Composer
from ..lang.diagnostics import Diagnostics, RulesError, suggest, too_deep
from ..lang.files import InputError, UnknownName, read_text
from ..lang.parser import parse
from ..lang.resources import bundled_files
from ..lang.source import Source, Span
from . import index as I
from .compiler import Compiler
from .index import NameIndex
from .ruleset import Ruleset

MAX_FILE_BYTES = 1_000_000
# A module checked (or printed) on its own is composed onto this bundled ruleset: the base that
# every bundled module is written against.
MODULE_HOST = "classic"


@dataclass(frozen=True)
class UnitRef:
    unit: A.Unit
    source: Source


class Library:
    """The units (rulesets and modules) a load can see: the bundled ones and those of given files."""

    def __init__(self, diags: Diagnostics, files: dict | None = None):
        self.diags = diags
        self.files = files            # path -> text of rules files given in hand, not read from disk
        self.sources: dict[str, Source] = {}
        self.units: dict[str, UnitRef] = {}
        self.parse_errors: dict[str, list] = {}    # source name -> its syntax diagnostics
        self.bundled_paths: dict[str, Path] = {}   # display name of a bundled file -> its path

    def add_source(self, source: Source, report: bool = True) -> list[UnitRef]:
        """Parse a file and learn its units; its syntax errors are reported now, or (for bundled
        files) only once a load uses one of its units."""
        self.sources[source.name] = source
        local = Diagnostics()
        tree = _parse_cached(source.name, source.text, local)
        if report:
            self.diags.items.extend(local.items)
        else:
            self.parse_errors[source.name] = local.items
        refs = []
        for unit in tree.units:
            ref = UnitRef(unit, source)
            refs.append(ref)
            self.units.setdefault(unit.name, ref)
        return refs

    def add_bundled(self, texts: dict | None = None) -> None:
        """Learn the bundled units; `texts` (path -> text) stands in for files being edited."""
        sources = []
        for path in bundled_files():
            display = f"<bundled>/{path.name}"
            self.bundled_paths[display] = path
            text = (texts or {}).get(str(path))
            sources.append(Source(display, text) if text is not None else read_source(path, display=display))
        if not any(str(path) in (texts or {}) for path in self.bundled_paths.values()):
            _recall(sources, "bundled")
        for source in sources:
            self.add_source(source, report=False)

    def add_file(self, source: Source, report: bool = True) -> list[UnitRef]:
        """`add_source` for a file read from disk: its parse is kept there for the next run."""
        _recall([source], "file")
        return self.add_source(source, report)

    def report_parse_errors(self, refs) -> None:
        for ref in refs:
            self.diags.items.extend(self.parse_errors.pop(ref.source.name, []))


# Parsed files by (name, text), most recently used last; bounded, because an editor checks a new
# text at every keystroke.
_PARSE_CACHE: OrderedDict = OrderedDict()
_PARSE_CACHE_SIZE = 128


def _parse_cached(name: str, text: str, diags: Diagnostics) -> A.File:
    key = (name, text)
    if key not in _PARSE_CACHE:
        local = Diagnostics()
        _PARSE_CACHE[key] = (parse(Source(name, text), local), local.items)
        while len(_PARSE_CACHE) > _PARSE_CACHE_SIZE:
            _PARSE_CACHE.popitem(last=False)
    _PARSE_CACHE.move_to_end(key)
    tree, found = _PARSE_CACHE[key]
    diags.items.extend(found)
    return tree


def _recall(sources: list, kind: str) -> None:
    """The files' parses, from the disk (kept_parses) into this process's cache, or parsed now
    and kept there for the next run. Only files read from disk come here: an editor's text,
    kept, would write a file at every keystroke."""
    if all((s.name, s.text) in _PARSE_CACHE for s in sources):
        return
    stored = kept_parses.load(sources, kind)
    if stored is not None:
        for s in sources:
            _PARSE_CACHE[(s.name, s.text)] = stored[s.name]
        while len(_PARSE_CACHE) > _PARSE_CACHE_SIZE:
            _PARSE_CACHE.popitem(last=False)
        return
    parsed = {}
    for s in sources:
        _parse_cached(s.name, s.text, Diagnostics())
        parsed[s.name] = _PARSE_CACHE[(s.name, s.text)]
    kept_parses.store(sources, parsed, kind)


def read_source(path, display: str | None = None) -> Source:
    """Read a rules file as text (at most MAX_FILE_BYTES of a regular file, UTF-8), or raise
    InputError with a plain message."""
    try:
        text = read_text(path, MAX_FILE_BYTES, "rules file")
    except InputError as err:
        raise InputError(display or err.where, err.reason) from None
    return Source(display or str(path), text)


def is_path(ref: str) -> bool:
    return ref.endswith(".uno") or os.sep in ref or "/" in ref


def bundled_names() -> list[tuple[str, str, str]]:
    """(name, 'ruleset' or 'module', one-line description) of every bundled unit."""
    diags = Diagnostics()
    lib = Library(diags)
    lib.add_bundled()
    out = []
    for name, ref in sorted(lib.units.items()):
        about = next((d.text for d in ref.unit.decls if isinstance(d, A.About)), ref.unit.title)
        out.append((name, ref.unit.kind, ref.unit.title or about))
    return out


def _guarded(fn):
    """Whatever a rules file holds, reading it ends in diagnostics, never in a deep recursion."""
    def wrapper(ref, *args, **kwargs):
        try:
            return fn(ref, *args, **kwargs)
        except RecursionError:
            src = Source(str(ref), "")
            if is_path(str(ref)):
                try:
                    src = read_source(ref)
                except (OSError, ValueError):
                    pass
            raise RulesError([too_deep(src)], {src.name: src}) from None
    wrapper.__doc__, wrapper.__name__ = fn.__doc__, fn.__name__
    return wrapper


@_guarded
def load(ref: str, with_=(), options: dict | None = None, base_dir: Path | None = None,
         files: dict | None = None) -> Ruleset:
    """Load and compile a ruleset with modules and option overrides, or raise RulesError.

    `files` maps paths to the texts of rules files already in hand: a path found there is not
    read from disk (standard input given as `-`, or the rules a cluster worker was sent)."""
    diags = Diagnostics()
    lib = Library(diags, files)
    lib.add_bundled()
    ruleset_ref = _resolve(lib, ref, "ruleset", base_dir, diags)
    module_refs = [_resolve(lib, m, "module", base_dir, diags) for m in with_]
    rs = None
    if ruleset_ref is not None and None not in module_refs and not diags.errors:
        rs = _build(lib, ruleset_ref, module_refs, options or {}, diags)
    if diags.errors or rs is None:
        raise RulesError(diags.sorted(), lib.sources)
    return rs


def check(ref: str, with_=(), options: dict | None = None, files: dict | None = None) -> tuple[list, dict]:
    try:
        return _check(ref, with_, options, files)
    except RulesError as err:              # only the recursion guard raises here
        return err.diagnostics, err.sources


@_guarded
def _check(ref: str, with_=(), options: dict | None = None, files: dict | None = None) -> tuple[list, dict]:
    """Every diagnostic for a ruleset (or a file of modules), for `unodsl check`."""
    diags = Diagnostics()
    lib = Library(diags, files)
    lib.add_bundled()
    target = _resolve(lib, ref, None, None, diags)
    targets = [target] if target is not None else []
    if target is not None and (is_path(ref) or ref in (files or {})):   # every unit the file holds
        targets = [UnitRef(u, target.source) for u in _units_of(target.source)] or targets
    modules = [_resolve(lib, m, "module", None, diags) for m in with_]
    _check_units(lib, targets, modules, options or {}, diags)
    return diags.sorted(), lib.sources


def _check_units(lib: Library, targets, modules, options: dict, diags: Diagnostics, index=None) -> dict:
    """Build each unit of a file (a module on top of MODULE_HOST); unit name -> Ruleset or None."""
    built = {}
    for unit in targets:
        if None in modules:
            break
        if unit.unit.kind == "ruleset":
            built[unit.unit.name] = _build(lib, unit, modules, options, diags, index)
        else:
            base = lib.units.get(MODULE_HOST)
            if base is not None:
                built[unit.unit.name] = _build(lib, base, modules + [unit], options, diags, index)
    unique = {(d.code, d.span, d.message): d for d in diags.items}
    diags.items = list(unique.values())
    return built


@dataclass
class Analysis:
    """What checking one rules file taught the checker, for editors: the same diagnostics as
    `unodsl check`, the compiled rulesets, and where every name is defined and used."""

    source: Source
    diagnostics: list
    sources: dict                     # source name -> Source, the bundled files included
    units: tuple                      # the units (A.Unit) the file defines
    rulesets: dict                    # unit name -> Ruleset, for each unit that compiled
    index: NameIndex
    bundled_paths: dict = field(default_factory=dict)   # "<bundled>/x.uno" -> its path
    built_from: frozenset = frozenset()                 # the source names its units were built from
    readable: dict = field(default_factory=dict)        # unit name -> Ruleset of the declarations that
                                                        # parse, when syntax errors are the only errors


def analyze(source: Source, bundled_texts: dict | None = None) -> Analysis:
    """Check the text of one rules file as `unodsl check FILE` would; `bundled_texts` maps the
    path of a bundled file to the text an editor holds for it. Never raises for bad rules."""
    diags = Diagnostics()
    lib = Library(diags)
    lib.add_bundled(bundled_texts)
    index = NameIndex()
    built: dict = {}
    readable: dict = {}
    units: tuple = ()
    try:
        refs = lib.add_source(source)
        units = tuple(r.unit for r in refs)
        if not refs and not diags.errors:
            diags.error("E402", f"{source.name} defines no ruleset or module", source.span(1, 1))
        built = _check_units(lib, refs, [], {}, diags, index)
        if None in built.values() and all(d.code.startswith("E1") for d in diags.errors):
            # only syntax errors: the declarations that parse still make rules an editor can describe
            partial = _check_units(lib, refs, [], {}, Diagnostics())
            readable = {name: rs for name, rs in partial.items() if rs is not None and built.get(name) is None}
    except RecursionError:
        from ..lang.diagnostics import too_deep
        diags.items = [too_deep(source)]
    index.locate(lib.sources)
    used = {s.file for spans in index.references.values() for s in spans}
    used |= {d.span.file for defs in index.definitions.values() for d in defs}
    return Analysis(source, diags.sorted(), lib.sources, units,
                    {name: rs for name, rs in built.items() if rs is not None}, index,
                    dict(lib.bundled_paths), frozenset(used | {source.name}), readable)


def _units_of(source: Source) -> list:
    tree, _ = _PARSE_CACHE.get((source.name, source.text), (None, None))
    return list(tree.units) if tree is not None else []


def _resolve(lib: Library, ref: str, kind: str | None, base_dir, diags: Diagnostics) -> UnitRef | None:
    in_hand = lib.files or {}
    if ref in in_hand or is_path(ref):
        path = Path(ref)
        if ref in in_hand:
            source = Source(ref, in_hand[ref])
        else:
            if base_dir is not None and not path.is_absolute():
                path = base_dir / path
            source = read_source(path)
        refs = lib.add_source(source) if ref in in_hand else lib.add_file(source)
        wanted = [r for r in refs if kind is None or r.unit.kind == kind]
        if not wanted:
            if not refs:
                if not diags.errors:
                    diags.error("E402", f"{path} defines no ruleset or module", source.span(1, 1))
                return None
            diags.error("E403", f"{path} defines no {kind}", refs[0].unit.span,
                        f"it defines the {refs[0].unit.kind} `{refs[0].unit.name}`")
            return None
        return wanted[0]
    found = lib.units.get(ref)
    if found is None or (kind is not None and found.unit.kind != kind):
        pool = [n for n, r in lib.units.items() if kind is None or r.unit.kind == kind]
        if found is None and os.path.isdir(ref):
            raise InputError(ref, "a directory, not a rules file")
        if found is None and os.path.isfile(ref):
            raise UnknownName(f"no bundled {kind or 'ruleset or module'} named `{ref}`; to read the file of "
                              f"that name, give it as a path: ./{ref}")
        if found is not None and kind is not None:
            raise UnknownName(f"`{ref}` is a {found.unit.kind}, not a {kind}" + (
                ": play it as the ruleset, and add modules with --with" if kind == "module" else
                f": add it with --with {ref}, on a ruleset such as {MODULE_HOST}"))
        raise UnknownName(f"no bundled {kind or 'ruleset or module'} named `{ref}`. " +
                          (suggest(ref, pool, "Did you mean") or "Bundled: " + ", ".join(sorted(pool))))
    return found


def _used_modules(lib: Library, unit: A.Unit, diags: Diagnostics, path: tuple = (), index=None) -> list:
    """The modules a unit declares with `uses`, in order, each preceded by the modules it uses
    itself; unknown names and modules that use themselves are reported."""
    out = []
    for decl in unit.decls:
        if not isinstance(decl, A.Uses):
            continue
        for name, span in zip(decl.modules, decl.spans):
            ref = lib.units.get(name)
            if ref is None or ref.unit.kind != "module":
                pool = [n for n, r in lib.units.items() if r.unit.kind == "module"]
                diags.error("E408", f"`uses {name}`: there is no module `{name}`", span, suggest(name, pool))
                continue
            if name in path or name == unit.name:
                diags.error("E409", f"`{unit.name}` uses `{name}`, which uses `{unit.name}` in turn", span,
                            "a module cannot build on itself: remove one of the two `uses`")
                continue
            if index is not None:
                index.use(I.MODULE, name, span)
                index.define(I.MODULE, name, ref.unit)
            out += _used_modules(lib, ref.unit, diags, path + (unit.name,), index) + [ref.unit]
    return out


def _with_their_uses(lib: Library, modules: list, diags: Diagnostics, index=None) -> tuple[list, dict]:
    """Modules given to a load, each preceded by the modules it uses, each module once; and
    for each, the names of the modules it builds on."""
    out, seen, builds_on = [], set(), {}
    for m in modules:
        used = _used_modules(lib, m, diags, index=index)
        builds_on[m.name] = {u.name for u in used}
        for unit in used + [m]:
            if unit.name not in seen:
                seen.add(unit.name)
                out.append(unit)
    return out, builds_on


def _build(lib: Library, top: UnitRef, modules: list[UnitRef], options: dict, diags: Diagnostics,
           index: NameIndex | None = None) -> Ruleset | None:
    chain = []
    seen = set()
    ref = top
    while ref is not None:
        if ref.unit.name in seen:
            diags.error("E405", f"`{ref.unit.name}` extends itself through its parents", ref.unit.span)
            return None
        seen.add(ref.unit.name)
        chain.append(ref)
        if index is not None:
            index.define(I.RULESET, ref.unit.name, ref.unit)
        parent = ref.unit.extends
        if parent is None:
            break
        nxt = lib.units.get(parent)
        if index is not None and nxt is not None and ref.unit.extends_span is not None:
            index.use(I.RULESET, parent, ref.unit.extends_span)
        if nxt is None or nxt.unit.kind != "ruleset":
            diags.error("E406", f"`{ref.unit.name}` extends `{parent}`, which is not a known ruleset",
                        ref.unit.extends_span or ref.unit.span, suggest(parent, lib.units))
            return None
        ref = nxt
    lib.report_parse_errors(chain + list(modules))
    composer = Composer(diags)
    for r in reversed(chain):
        used = _used_modules(lib, r.unit, diags, index=index)
        if used:
            composer.add_modules(used)
        composer.add_unit(r.unit)
    if index is not None:
        for m in modules:
            index.define(I.MODULE, m.unit.name, m.unit)
    composer.add_modules(*_with_their_uses(lib, [m.unit for m in modules], diags, index))
    span = Span("<options>", 0, 0, 0, 0)
    units = tuple((r.unit.name, r.unit.title) for r in chain) + tuple((m.unit.name, m.unit.title) for m in modules)
    return Compiler(composer.result(), diags, options, span, top.unit.span, index).compile(top.unit.name, units)
