"""What a variant changes from its parent: a short list of links to the sections that say it.

Declarations are compared by content (source positions aside) under their composition keys, so
what is listed is exactly what composing the variant changed; an option the variant sets (Speed
scores by tally) marks the rules that read it. Nothing is said again here: each item is a name
and a link.
"""
from __future__ import annotations

from ..lang import ast as A
from .deck import shared_side
from .describe import Describer

_SKIP = (A.About, A.Uses, A.Requires, A.OptionDecl, A.SetOption, A.Colors, A.Players,
         A.Define)               # (named statements are no rules: the rules that use them say them)
_TITLES = {"OnDraw": "Drawing", "Renege": "Drawing instead of playing", "PlayOnly": "Which cards may be played",
           "AfterPlay": "After every play", "OnRoundEnd": "Scoring and winning", "OnRoundStart": "Start of each round",
           "DealsFirst": "The first dealer", "Teams": "Teams", "Match": "Matching", "Deal": "The deal",
           "Deck": "The deck", "StockOut": "When the stock runs out", "Blocked": "A blocked round",
           "Whenever": "At any moment", "Runs": "Playing several cards", "Faces": "Two-sided cards",
           "PairFaces": "Two-sided cards", "Sees": "What each player sees", "Ranks": "Rank names"}
CHANGES = ("New", "Changed", "Gone")


def signature(node):
    """A declaration's content without source positions, for comparing two rulesets."""
    if isinstance(node, A.Node):
        return (type(node).__name__,) + tuple(signature(getattr(node, f)) for f in node.__dataclass_fields__
                                              if f not in ("span", "spans", "extends_span"))
    if isinstance(node, (tuple, list)):
        return tuple(signature(x) for x in node)
    return node


def _index(rules) -> dict:
    """Normalized key -> (original key, declaration, unit); accumulating declarations are keyed by content."""
    out = {}
    for key, decl, unit in rules.composed.items:
        k = (key[0], signature(decl)) if len(key) > 1 and isinstance(key[1], int) else key
        out[k] = (key, decl, unit)
    return out


def _plain_title(d: Describer, decl, keys) -> str:
    name = type(decl).__name__
    if isinstance(decl, A.OnPlay):
        return " and ".join(_side_title(d, s.kind) if isinstance(s, A.KindSel) and s.ranks is None else d.sel_title(s)
                            for s in d._sels(decl, keys))
    if isinstance(decl, A.Starter):
        what = "Any other card" if decl.cards is None else " and ".join(d.sel_title(s) for s in d._sels(decl, keys))
        return f"Starting with a {what}" if decl.cards is not None else "Any other starter card"
    if isinstance(decl, A.Honest):
        return f"When a {d.sel_title(decl.card)} may be played"
    if isinstance(decl, A.Window):
        return decl.title
    if isinstance(decl, A.CounterDecl):
        return d.declaration(decl)[0].title
    if isinstance(decl, (A.CardDecl, A.RemoveCard)):
        return _side_title(d, decl.name)
    if isinstance(decl, A.Deck) and decl.face and d.rules.faces:
        titles = dict(zip(d.rules.faces, d.rules.face_titles or d.rules.faces))
        return f"The {titles.get(decl.face, decl.face).lower()} side"
    return _TITLES.get(name, "")


def _side_title(d: Describer, kind: str) -> str:
    """A kind's title, with its side when the other side of two-sided cards has a card of that
    title ("Reverse (dark side)")."""
    title = d.kind_title(kind)
    side = shared_side(d.rules, d, {kind}, title)
    return f"{title} ({side.lower()} side)" if side else title


def diff(parent, rules, book, modules=()) -> dict:
    """{"parent", "items": [{"change", "links": [{"title", "href"}]}]}: what `rules` adds, changes
    or takes away from `parent`, each thing linked to the section of the sheet that says it."""
    mine, theirs = _index(rules), _index(parent)
    d, dp = book.d, Describer(parent)
    found = {c: [] for c in CHANGES}
    seen: set = set()

    def add(change, title, href):
        if title and (change, title) not in seen:
            seen.add((change, title))
            found[change].append({"title": title, "href": href})

    live = {id(decl) for _, decl, _ in rules.composed.items}
    for k, (key, decl, unit) in mine.items():
        if isinstance(decl, _SKIP):
            continue
        old = theirs.get(k)
        if old is not None and signature(old[1]) == signature(decl):
            continue
        href = book.where.get(id(decl))
        if isinstance(decl, (A.CardDecl, A.Deck)):
            href = "contents"
        if href is None:
            continue                     # not in force with these options: nothing on the sheet to see
        add("New" if old is None else "Changed", _plain_title(d, decl, [key]), "#" + href)
    # options set to other values than the parent's: the rules that read them read differently
    changed_options = {n for n, info in rules.options.items()
                       if n in parent.options and parent.options[n].value != info.value}
    if changed_options:
        for key, decl, unit in rules.composed.items:
            href = book.where.get(id(decl))
            if href is None or id(decl) not in live:
                continue
            used = set().union(*(set(r.options) for r in d.declaration(decl, [key], unit)))
            if used & changed_options:
                add("Changed", _plain_title(d, decl, [key]), "#" + href)
    for k, (key, decl, unit) in theirs.items():
        if k in mine or isinstance(decl, _SKIP):
            continue
        add("Gone", _plain_title(dp, decl, [key]), "")
    new_variations = [n for n, info in rules.options.items()
                      if n not in parent.options and isinstance(info.value, bool) and not info.value and info.doc]
    if new_variations:
        add("New", "Variations", "#variations")
    items = [{"change": c, "links": found[c]} for c in CHANGES if found[c]]
    return {"parent": parent.title, "parent_name": parent.name, "items": items}
