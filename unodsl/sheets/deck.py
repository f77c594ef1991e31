"""The contents of the box: each card kind in the deck with its pictures, how many and its points;
and the picture of any one card, for the sections and examples that show cards.
"""
from __future__ import annotations

from collections import Counter

from markupsafe import Markup

from ..lang import ast as A
from .describe import Describer, and_list, number_words
from .pictures import card_svg, color_hex


def _ranges(nums) -> str:
    nums = sorted(nums)
    out, start, prev = [], None, None
    for n in nums:
        if start is None:
            start = prev = n
        elif n == prev + 1:
            prev = n
        else:
            out.append(str(start) if start == prev else f"{start}–{prev}")
            start = prev = n
    if start is not None:
        out.append(str(start) if start == prev else f"{start}–{prev}")
    return ", ".join(out)


def _decl(rules, kind: str):
    return next((x for x in rules.composed.decls(A.CardDecl) if x.name == kind), None)


def symbol(decl, rank_label: str) -> str:
    """What a card shows in its oval: its code without the color letter ("+2", "W+4", "7")."""
    code = next((a.value for a in decl.attrs if a.key == "code"), decl.name[:2].upper())
    text = code.replace("{color}", "").replace("{Color}", "").replace("{kind}", "").replace("{rank}", rank_label)
    return text.strip() or decl.title[:2]


def _ink(rules, color):
    return color_hex(color, rules.color_titles.get(color, ""))


def _all_inks(rules) -> list:
    return [_ink(rules, n) for n in rules.colors]


def card_picture(rules, card_id: int, width: int = 24) -> Markup:
    """The picture of one card (its color, its number or symbol)."""
    c = rules.cards
    decl = _decl(rules, c.kind[card_id])
    label = "" if c.rank[card_id] is None else str(c.rank[card_id])
    sym = symbol(decl, label) if decl is not None else c.code[card_id]
    col = c.color[card_id]
    fill = _ink(rules, col) if col is not None else None
    return card_svg(sym, fill, _all_inks(rules), width=width, title=c.name[card_id])


def kind_picture(rules, kind: str, width: int = 24) -> Markup:
    """One small picture of a card kind (the first color for colored kinds)."""
    c = rules.cards
    ids = [i for i in range(len(c.kind)) if c.kind[i] == kind]
    if not ids:
        return Markup("")
    decl = _decl(rules, kind)
    ranks = sorted({c.rank[i] for i in ids if c.rank[i] is not None})
    label = "" if not ranks else (str(ranks[0]) if len(ranks) == 1 else f"{ranks[0]}–{ranks[-1]}")
    sym = symbol(decl, label) if decl is not None else kind[:2]
    inks = _all_inks(rules)
    title = decl.title if decl is not None else kind
    if any(c.colored[i] for i in ids):
        return card_svg(sym, inks[0] if inks else "#777777", width=width, title=title)
    return card_svg(sym, None, inks, width=width, title=title)


def sel_picture(rules, d: Describer, sel) -> Markup:
    """A picture for a card selector: the kind, or its first card when ranks or a code narrow it."""
    if isinstance(sel, A.KindSel) and sel.ranks is None:
        return kind_picture(rules, sel.kind)
    ids = d.sel_cards(sel)
    return card_picture(rules, ids[0]) if ids else Markup("")


def _per_color(c, ids, in_deck, colors, word: str = "color") -> str:
    """ "19 of each color: one 0 and two of each 1–9", when every color holds the same cards."""
    per_color: dict = {}
    for i in ids:
        per_color.setdefault(c.color[i], Counter())[c.rank[i]] += in_deck[i]
    shapes = {tuple(sorted(v.items(), key=lambda kv: (kv[0] is None, kv[0] or 0))) for v in per_color.values()}
    if len(shapes) != 1 or len(per_color) != len(colors):
        return ""
    shape = per_color[next(iter(per_color))]
    n = sum(shape.values())
    ranks = [r for r in shape if r is not None]
    if not ranks:
        return f"{n} per {word}"
    by_count: dict = {}
    for rank, k in shape.items():
        if k:
            by_count.setdefault(k, []).append(rank)
    bits = []
    for k, rs in sorted(by_count.items()):
        what = _ranges(rs)
        if len(rs) == 1:
            bits.append(f"{number_words(k)} {what}" + ("s" if k > 1 else ""))
        else:
            bits.append(f"{number_words(k)} of each {what}")
    return f"{n} per {word}: " + and_list(bits)


def contents(rules, d: Describer) -> dict:
    c = rules.cards
    in_deck = Counter(rules.deck)
    if rules.faces:              # two-sided cards: each card of the deck shows both of its faces
        in_deck += Counter(c.other[i] for i in rules.deck)
    colors = [(name, rules.color_titles.get(name, name), _ink(rules, name)) for name in rules.colors]
    rows, missing = [], []
    for kind in rules.kinds:
        decl = _decl(rules, kind)
        ids = [i for i in range(len(c.kind)) if c.kind[i] == kind]
        count = sum(in_deck[i] for i in ids)
        title = d.kind_title(kind)
        if not count:
            missing.append(title)
            continue
        ranks = sorted({c.rank[i] for i in ids if c.rank[i] is not None})
        rank_label = "" if not ranks else (str(ranks[0]) if len(ranks) == 1 else f"{ranks[0]}–{ranks[-1]}")
        sym = symbol(decl, rank_label) if decl is not None else title[:2]
        colored = any(c.colored[i] for i in ids)
        detail = _per_color(c, ids, in_deck, rules.colors, rules.color_word) if colored else ""
        points = sorted({c.points[i] for i in ids if in_deck[i]})
        if ranks and all(c.points[i] == c.rank[i] for i in ids):
            points_text = "face value"
        elif len(points) == 1:
            points_text = str(points[0])
        else:
            points_text = f"{points[0]}–{points[-1]}"
        if colored:
            pics = [card_svg(sym, hx, title=f"{ctitle} {title}") for col, ctitle, hx in colors
                    if any(c.color[i] == col and in_deck[i] for i in ids)]
        else:
            pics = [card_svg(sym, None, [hx for _, _, hx in colors], title=title)]
        codes = list(dict.fromkeys(c.code[i] for i in ids if in_deck[i]))
        rows.append({"kind": kind, "id": "card-" + kind.replace("_", "-"), "title": title, "count": count,
                     "detail": detail, "points": points_text, "colored": colored, "symbol": sym,
                     "pictures": pics, "picture": pics[0], "codes": codes,
                     "codes_text": ", ".join(codes) if len(codes) <= 4 else f"{codes[0]} … {codes[-1]}",
                     "tags": sorted(set().union(*(c.tags[i] for i in ids)))})
    names = [t for _, t, _ in colors]
    return {"total": len(rules.deck), "rows": rows, "missing": missing,
            "colors": [{"name": n, "title": t, "ink": hx} for n, t, hx in colors],
            "colors_text": (f"The {number_words(len(names))} colors are {and_list(names)}." if len(names) > 1
                            else f"The color is {names[0]}." if names else "")}
