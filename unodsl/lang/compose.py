"""Composition: a ruleset that extends another, plus house-rule modules, becomes one rule list.

Each declaration has a key (`card skip`, `on play number 7`, `window uno` ...). A child ruleset
replaces its parent's declaration of the same key; modules are applied in the order given, and two
modules that both replace the same key conflict: that is reported with both places named, never
resolved silently. `match` rules add up instead of replacing.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import ast as A
from .diagnostics import Diagnostics


def sel_key(sel) -> str:
    if isinstance(sel, A.CodeSel):
        return f'"{sel.code}"'
    if sel.ranks is None:
        return sel.kind
    lo, hi = sel.ranks
    return f"{sel.kind} {lo}" if lo == hi else f"{sel.kind} {lo}..{hi}"


def decl_keys(decl) -> list:
    """The keys a declaration defines; a declaration with several selectors defines several."""
    if isinstance(decl, A.OnPlay):
        return [("on play", sel_key(s)) for s in decl.cards]
    if isinstance(decl, A.Starter):
        if decl.cards is None:
            return [("starter", "otherwise")]
        return [("starter", sel_key(s)) for s in decl.cards]
    if isinstance(decl, A.Honest):
        return [("honest", sel_key(decl.card))]
    if isinstance(decl, (A.OptionDecl, A.SetOption)):
        return [(type(decl).__name__, decl.name)]
    if isinstance(decl, A.CardDecl):
        return [("card", decl.name)]
    if isinstance(decl, A.Window):
        return [("window", decl.name)]
    if isinstance(decl, (A.Match, A.Requires, A.RemoveCard, A.PlayOnly, A.AfterPlay, A.Uses, A.Whenever)):
        return [(type(decl).__name__, id(decl))]     # these accumulate
    if isinstance(decl, A.CounterDecl):
        return [("counter", decl.name)]
    if isinstance(decl, A.Group):
        return [("group", decl.name)]
    if isinstance(decl, A.Deck) and decl.face is not None:
        return [("Deck", decl.face)]
    if isinstance(decl, A.Sees):
        return [("Sees", decl.what)]
    if isinstance(decl, A.Define):
        return [("define", decl.name)]
    return [(type(decl).__name__,)]


def _about_kind(key, kind: str) -> bool:
    """Whether a key is a per-card rule (on play, starter, honest) for this card kind."""
    return (key[0] in ("on play", "starter", "honest") and isinstance(key[1], str)
            and (key[1] == kind or key[1].startswith(kind + " ")))


def describe_key(key) -> str:
    kind = key[0]
    names = {"OptionDecl": "option", "SetOption": "set", "About": "about", "Players": "players",
             "Deal": "deal", "Colors": "colors", "Deck": "deck", "Renege": "renege",
             "DealsFirst": "dealer rule", "Teams": "teams", "OnDraw": "on draw",
             "OnRoundEnd": "on round end", "Ranks": "ranks", "Faces": "faces", "PairFaces": "pair faces",
             "Sees": "players see", "Runs": "play runs", "StockOut": "when the stock runs out",
             "Blocked": "blocked when"}
    head = names.get(kind, kind)
    return " ".join([head] + [str(k) for k in key[1:]])


@dataclass
class Composed:
    """The effective declarations in order: (key, declaration, name of the unit it came from)."""
    items: list

    def decls(self, kind) -> list:
        """Each declaration of a type once, in order (a declaration may hold several keys)."""
        seen, out = set(), []
        for _, decl, _ in self.items:
            if isinstance(decl, kind) and id(decl) not in seen:
                seen.add(id(decl))
                out.append(decl)
        return out

    def keyed(self, kind) -> list:
        """(key, declaration) for every key whose declaration is of this type."""
        return [(key, decl) for key, decl, _ in self.items if isinstance(decl, kind)]


class Composer:
    def __init__(self, diags: Diagnostics):
        self.diags = diags
        self.entries: dict = {}     # key -> (decl, unit name)
        self.order: list = []

    def add_unit(self, unit: A.Unit) -> None:
        seen: dict = {}
        for decl in unit.decls:
            if unit.kind == "module" and isinstance(decl, A.About):
                continue        # a module's `about` describes the module, not the game it joins
            for key in decl_keys(decl):
                if key in seen and not isinstance(decl, A.RemoveCard):
                    self.diags.warning("W303", f"`{describe_key(key)}` is declared twice in `{unit.name}`; "
                                       "the later one counts", decl.span, "remove one of the two",
                                       related=[(seen[key].span, "the first one is here")])
                seen[key] = decl
            if isinstance(decl, A.RemoveCard):
                self._remove_card(decl)
            for key in decl_keys(decl):
                if key not in self.entries:
                    self.order.append(key)
                self.entries[key] = (decl, unit.name)

    def _remove_card(self, decl: A.RemoveCard) -> None:
        key = ("card", decl.name)
        if key not in self.entries:
            self.diags.error("E404", f"`remove card {decl.name}`: there is no card kind `{decl.name}` to remove", decl.span)
            return
        for k in [k for k in self.order if k == key or _about_kind(k, decl.name)]:
            del self.entries[k]
            self.order.remove(k)

    def add_modules(self, modules: list[A.Unit], builds_on: dict | None = None) -> None:
        """Apply modules in order; keys that two modules both define are reported as conflicts,
        unless one builds on the other (`uses` it, directly or not): then the later one wins,
        as a ruleset's own rules win over its modules'."""
        claimed: dict = {}
        builds_on = builds_on or {}
        for module in modules:
            for decl in module.decls:
                if isinstance(decl, A.About):
                    continue
                for key in decl_keys(decl):
                    if key[0] in ("Match", "Requires", "RemoveCard", "PlayOnly", "AfterPlay", "Uses"):
                        continue
                    if key in claimed and claimed[key][1] != module.name \
                            and claimed[key][1] not in builds_on.get(module.name, ()):
                        other_decl, other_name = claimed[key]
                        if not (isinstance(decl, A.SetOption) and decl.value.value == other_decl.value.value):
                            self.diags.error(
                                "E401", f"modules `{other_name}` and `{module.name}` both define `{describe_key(key)}`",
                                decl.span, "use one of the two modules, or write a module that combines them",
                                related=[(other_decl.span, f"`{other_name}` defines it here")])
                    claimed[key] = (decl, module.name)
            self.add_unit(module)

    def result(self) -> Composed:
        return Composed([(key, *self.entries[key]) for key in self.order])
