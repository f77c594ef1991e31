"""What a sheet is about: a ruleset (or a module shown on a ruleset), its parent and its house rules.

A module given alone is shown on the first bundled ruleset it fits (`classic` first, as `unodsl
check` does; another when the module needs cards classic lacks), so every module has a sheet.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..compile.loader import MODULE_HOST, Library, bundled_names, is_path, load, read_source
from ..lang import ast as A
from ..lang.diagnostics import Diagnostics, RulesError, suggest
from ..lang.files import UnknownName


@dataclass
class SheetRules:
    rules: object                      # the Ruleset the sheet is about
    parent: object = None              # the Ruleset it builds on, if any
    modules: list = field(default_factory=list)    # [{"name", "title", "about", "added"}] of house rules
    path: Path | None = None           # the rules file, for a sheet of a file (its examples sit beside it)


def _library(ref: str):
    diags = Diagnostics()
    lib = Library(diags)
    lib.add_bundled()
    refs = []
    if is_path(ref):
        refs = lib.add_file(read_source(ref), report=False)
    return lib, refs


def _unit_info(lib, refs, name):
    for r in refs:
        if r.unit.name == name:
            return r.unit
    found = lib.units.get(name)
    return found.unit if found is not None else None


def _about(unit) -> str:
    return next((d.text for d in unit.decls if isinstance(d, A.About)), "") if unit is not None else ""


def _base_for(module_ref: str, with_: list, options: dict) -> str:
    """The bundled ruleset a module is shown on: the host every bundled module is written for, or
    the first other bundled ruleset it loads on (a module needing cards the host lacks)."""
    candidates = [MODULE_HOST] + [n for n, kind, _ in bundled_names() if kind == "ruleset" and n != MODULE_HOST]
    first_error = None
    for base in candidates:
        try:
            load(base, tuple(with_), options)
            return base
        except RulesError as err:
            first_error = first_error or err
    raise first_error


def load_rules(ref: str, with_=(), options: dict | None = None) -> SheetRules:
    """Load what a sheet is about: a ruleset with modules, or a module shown on a base ruleset.

    Raises RulesError for broken rules, LookupError for unknown names, OSError/ValueError for
    unreadable files (the command line turns these into exit codes 1 and 2)."""
    options = dict(options or {})
    with_ = list(with_)
    lib, refs = _library(ref)
    top = None
    path = Path(ref) if is_path(ref) else None
    if is_path(ref):
        top = next((r.unit for r in refs if r.unit.kind == "ruleset"), None)
        if top is None and any(r.unit.kind == "module" for r in refs):
            with_.insert(0, ref)
            ref = _base_for(ref, with_, options)
    else:
        unit = lib.units.get(ref)
        if unit is None:
            raise UnknownName(f"no bundled ruleset or module named `{ref}`. " +
                              (suggest(ref, lib.units, "Did you mean") or "Bundled: " + ", ".join(sorted(lib.units))))
        if unit.unit.kind == "module":
            with_.insert(0, ref)
            ref = _base_for(ref, with_, options)
    rules = load(ref, tuple(with_), options)
    if top is None:
        top = _unit_info(lib, refs, rules.name)

    modules = []
    for name in _uses(top) + with_:
        unit = _unit_info(lib, refs, name) if not is_path(name) else None
        if unit is None and is_path(name):
            _, mrefs = _library(name)
            unit = next((r.unit for r in mrefs if r.unit.kind == "module"), None)
        if unit is not None:
            modules.append({"name": unit.name, "title": unit.title or unit.name, "about": _about(unit),
                            "added": name in with_})

    parent = None
    if with_:
        parent = _quiet_load(lambda: load(ref, (), _known(options, lambda: load(ref))))
    elif top is not None and top.extends:
        pname = top.extends
        local = next((r for r in refs if r.unit.name == pname and r.unit.kind == "ruleset"), None)
        if local is None:
            parent = _quiet_load(lambda: load(pname, (), _known(options, lambda: load(pname))))
        else:
            parent = _quiet_load(lambda: _load_local(lib, local))
    return SheetRules(rules, parent, modules, path)


def _uses(unit) -> list:
    if unit is None:
        return []
    return [m for d in unit.decls if isinstance(d, A.Uses) for m in d.modules]


def _known(options: dict, loader) -> dict:
    """The options a parent ruleset also has (a variant's own options would be unknown to it)."""
    if not options:
        return {}
    try:
        names = set(loader().options)
    except Exception:
        return {}
    return {k: v for k, v in options.items() if k in names}


def _quiet_load(fn):
    try:
        return fn()
    except (RulesError, LookupError, OSError, ValueError):
        return None


def _load_local(lib, ref):
    from ..compile.loader import _build
    diags = Diagnostics()
    rs = _build(lib, ref, [], {}, diags)
    if diags.errors:
        return None
    return rs
