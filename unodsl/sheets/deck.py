"""The contents of the box: each card kind in the deck with its pictures, how many and its points;
and the picture of any one card, for the sections and examples that show cards.
"""
from __future__ import annotations

import re
from collections import Counter

from markupsafe import Markup

from ..lang import ast as A
from .describe import Describer, and_list, number_words, sentence_case
from .pictures import card_svg, color_hex, suit_sign


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


def symbol(decl, rank: str, sign: str = "") -> str:
    """What a card shows in its oval: its code without the color letter ("+2", "W+4", "7"), the
    suit letter given as the suit's sign ("Q♥")."""
    code = next((a.value for a in decl.attrs if a.key == "code"), decl.name[:2].upper())
    text = re.sub(r"\{\w+\}", lambda m: rank if m.group(0).lower() == "{rank}" else
                  sign if m.group(0).lower() == "{suit}" else "", code)
    return text.strip() or decl.title[:2]


def rank_label(rules, ranks) -> str:
    """The ranks a picture shows: "7", "1–9", or by the ranks' short names ("Q", "A–K")."""
    if not ranks:
        return ""
    short = lambda r: rules.rank_words[r][1] if r in rules.rank_words else str(r)
    return short(ranks[0]) if len(ranks) == 1 else f"{short(ranks[0])}–{short(ranks[-1])}"


def _ink(rules, color):
    return color_hex(color, rules.color_titles.get(color, ""))


def _sign(rules, color) -> str:
    return suit_sign(color, rules.color_titles.get(color, "")) if color is not None else ""


def _all_inks(rules, ids=None) -> list:
    """The inks of the ruleset's colors; for two-sided cards, of the colors on the side of `ids`."""
    if ids is None or not rules.faces:
        return [_ink(rules, n) for n in rules.colors]
    c = rules.cards
    faces = {c.face[i] for i in ids}
    used = {c.color[j] for j in range(len(c.kind)) if c.face[j] in faces}
    return [_ink(rules, n) for n in rules.colors if n in used]


def card_picture(rules, card_id: int, width: int = 24) -> Markup:
    """The picture of one card (its color, its number or symbol)."""
    c = rules.cards
    decl = _decl(rules, c.kind[card_id])
    label = "" if c.rank[card_id] is None else rank_label(rules, [c.rank[card_id]])
    col = c.color[card_id]
    sym = symbol(decl, label, _sign(rules, col)) if decl is not None else c.code[card_id]
    fill = _ink(rules, col) if col is not None else None
    return card_svg(sym, fill, _all_inks(rules, [card_id]), width=width, title=c.name[card_id])


def kind_picture(rules, kind: str, width: int = 24) -> Markup:
    """One small picture of a card kind (the first color for colored kinds)."""
    c = rules.cards
    ids = [i for i in range(len(c.kind)) if c.kind[i] == kind]
    if not ids:
        return Markup("")
    decl = _decl(rules, kind)
    ranks = sorted({c.rank[i] for i in ids if c.rank[i] is not None})
    sym = symbol(decl, rank_label(rules, ranks)) if decl is not None else kind[:2]
    title = decl.title if decl is not None else kind
    colors = [n for n in rules.colors if any(c.color[i] == n for i in ids)]
    if any(c.colored[i] for i in ids):           # the first color the kind comes in
        return card_svg(sym, _ink(rules, colors[0]) if colors else "#777777", width=width, title=title)
    in_deck = set(rules.deck) | ({c.other[i] for i in rules.deck} if rules.faces else set())
    return card_svg(sym, None, _all_inks(rules, [i for i in ids if i in in_deck] or ids), width=width, title=title)


def sel_picture(rules, d: Describer, sel) -> Markup:
    """A picture for a card selector: the kind, or its first card when ranks or a code narrow it."""
    if isinstance(sel, A.KindSel) and sel.ranks is None:
        return kind_picture(rules, sel.kind)
    ids = d.sel_cards(sel)
    return card_picture(rules, ids[0]) if ids else Markup("")


def kind_faces(rules) -> dict:
    """For two-sided cards, the faces each kind of card is on ({"wild": ("light",), ...}); {} for
    one-sided cards."""
    if not rules.faces:
        return {}
    c = rules.cards
    ids = set(rules.deck) | {c.other[i] for i in rules.deck}
    out: dict = {}
    for i in sorted(ids):
        if c.face[i] not in out.setdefault(c.kind[i], ()):
            out[c.kind[i]] += (c.face[i],)
    return out


def shared_side(rules, d: Describer, kinds, title: str) -> str:
    """The side ("Dark") that cards of `kinds` are on, when they are all on one side and a kind
    of the other side has the same title (a light and a dark Wild); else ""."""
    sides = kind_faces(rules)
    faces = {f for k in kinds for f in sides.get(k, ())}
    if len(faces) != 1 or not any(d.kind_title(k) == title and sides.get(k, ()) != tuple(faces)
                                  for k in rules.kinds if k not in kinds):
        return ""
    face = next(iter(faces))
    return dict(zip(rules.faces, rules.face_titles or rules.faces)).get(face, face)


def _rank_ranges(nums, rank_words) -> str:
    """Ranks as a reader counts them: runs of numbers, and named ranks by their names
    ("Ace, 2–10, Jack, Queen, King")."""
    out, run = [], []
    for n in sorted(nums):
        if n in rank_words:
            if run:
                out.append(_ranges(run))
                run = []
            out.append(rank_words[n][2])
        else:
            run.append(n)
    if run:
        out.append(_ranges(run))
    return ", ".join(out)


def _per_color(c, ids, in_deck, colors, word: str = "color", rank_words=None, titles=None) -> str:
    """ "19 per color: one 0 and two of each 1–9", when every color of the kind holds the same
    cards; "2 in each of Red and Blue" for a kind that comes in some of the colors only."""
    per_color: dict = {}
    for i in ids:
        if in_deck[i]:
            per_color.setdefault(c.color[i], Counter())[c.rank[i]] += in_deck[i]
    shapes = {tuple(sorted(v.items(), key=lambda kv: (kv[0] is None, kv[0] or 0))) for v in per_color.values()}
    if len(shapes) != 1 or not set(per_color) <= set(colors):
        return ""
    shape = per_color[next(iter(per_color))]
    n = sum(shape.values())
    head = f"{n} per {word}" if len(per_color) == len(colors) else \
        f"{n} in each of " + and_list([(titles or {}).get(col, col) for col in colors if col in per_color])
    ranks = [r for r in shape if r is not None]
    if not ranks:
        return head
    by_count: dict = {}
    for rank, k in shape.items():
        if k:
            by_count.setdefault(k, []).append(rank)
    bits = []
    for k, rs in sorted(by_count.items()):
        what = _rank_ranges(rs, rank_words or {})
        if len(rs) == 1:
            bits.append(f"{number_words(k)} {what}" + ("s" if k > 1 else ""))
        else:
            bits.append(f"{number_words(k)} of each {what}")
    return f"{head}: " + and_list(bits)


def _rows(rules, d: Describer, in_deck, face=None) -> list:
    """A row of the contents for each card kind with cards in the deck (on one face, for
    two-sided cards): its pictures in the colors of that face, how many, and its points."""
    c = rules.cards
    on_face = [i for i in range(len(c.kind)) if in_deck[i] and (face is None or c.face[i] == face)]
    side_colors = [n for n in rules.colors if any(c.color[i] == n for i in on_face)] if face else list(rules.colors)
    inks = [_ink(rules, n) for n in side_colors]
    rows = []
    for kind in rules.kinds:
        decl = _decl(rules, kind)
        ids = [i for i in on_face if c.kind[i] == kind]
        count = sum(in_deck[i] for i in ids)
        if not count:
            continue
        title = d.kind_title(kind)
        ranks = sorted({c.rank[i] for i in ids if c.rank[i] is not None})
        sym = symbol(decl, rank_label(rules, ranks)) if decl is not None else title[:2]
        colored = any(c.colored[i] for i in ids)
        detail = _per_color(c, ids, in_deck, side_colors, rules.color_word, rules.rank_words,
                            rules.color_titles) if colored else ""
        points = sorted({c.points[i] for i in ids})
        if ranks and all(c.points[i] == c.rank[i] for i in ids):
            points_text = "face value"
        elif len(points) == 1:
            points_text = str(points[0])
        else:
            points_text = f"{points[0]}–{points[-1]}"
        if colored:
            pics = [card_svg(symbol(decl, rank_label(rules, ranks), _sign(rules, col)) if decl is not None else sym,
                             _ink(rules, col), title=f"{rules.color_titles.get(col, col)} {title}")
                    for col in side_colors if any(c.color[i] == col for i in ids)]
        else:
            pics = [card_svg(sym, None, inks, title=title)]
        codes = list(dict.fromkeys(c.code[i] for i in ids))
        rows.append({"kind": kind, "id": "-".join(["deck", *([face] if face else []), kind.replace("_", "-")]),
                     "title": title, "count": count,
                     "detail": detail, "points": points_text, "colored": colored, "symbol": sym,
                     "pictures": pics, "picture": pics[0], "codes": codes,
                     "codes_text": ", ".join(codes) if len(codes) <= 4 else f"{codes[0]} … {codes[-1]}",
                     "tags": sorted(set().union(*(c.tags[i] for i in ids)))})
    return rows


def _colors_text(rules, names: list) -> str:
    word = rules.color_word
    if len(names) > 1:
        return f"{number_words(len(names))} {word}s, {and_list(names)}"
    return f"one {word}, {names[0]}" if names else ""


def contents(rules, d: Describer) -> dict:
    """The contents table: `rows` for every kind in the deck; `sides`, the rows of each face
    ("Light side", "Dark side") for two-sided cards, or one untitled side."""
    c = rules.cards
    in_deck = Counter(rules.deck)
    if rules.faces:              # two-sided cards: each card of the deck shows both of its faces
        in_deck += Counter(c.other[i] for i in rules.deck)
    colors = [(name, rules.color_titles.get(name, name), _ink(rules, name)) for name in rules.colors]
    if rules.faces:
        sides = []
        for face, face_title in zip(rules.faces, rules.face_titles or rules.faces):
            rows = _rows(rules, d, in_deck, face)
            names = [rules.color_titles.get(n, n) for n in rules.colors
                     if any(c.color[i] == n and c.face[i] == face and in_deck[i] for i in range(len(c.kind)))]
            sides.append({"title": f"{face_title} side", "rows": rows, "colors": names})
        bits = [f"the {s['title'].lower()} has {_colors_text(rules, s['colors'])}" for s in sides if s["colors"]]
        colors_text = sentence_case("; ".join(bits) + ".") if bits else ""
        all_rows = [r for s in sides for r in s["rows"]]
    else:
        all_rows = _rows(rules, d, in_deck)
        sides = [{"title": "", "rows": all_rows, "colors": [t for _, t, _ in colors]}]
        names = [t for _, t, _ in colors]
        word = rules.color_word
        colors_text = (f"The {number_words(len(names))} {word}s are {and_list(names)}." if len(names) > 1
                       else f"The {word} is {names[0]}." if names else "")
    present = {r["kind"] for r in all_rows}
    missing = [d.kind_title(k) for k in rules.kinds if k not in present]
    return {"total": len(rules.deck), "rows": all_rows, "sides": sides, "missing": missing,
            "no_color": f"no {rules.color_word}",
            "colors": [{"name": n, "title": t, "ink": hx} for n, t, hx in colors],
            "colors_text": colors_text}
