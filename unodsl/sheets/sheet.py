"""Printable rule sheets, made from the rules themselves so the sheet and the game never disagree.

`build_context(rules)` turns a compiled Ruleset into plain data (dicts, lists, strings): the deck
with a small SVG picture of each card kind, every rule in the author's words and as a precise
sentence (see describe/), options, and for a variant what differs from its parent. Jinja
templates in the package (`templates/`) render that data as one self-contained HTML file (which
WeasyPrint can page into a PDF) or as Markdown; `--template FILE` renders a user's own template
in Jinja's sandbox with the same data.
"""
from __future__ import annotations

import colorsys
import hashlib
import html
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup

from .. import __version__
from ..compile.loader import MODULE_HOST, Library, is_path, load, read_source
from ..lang import ast as A
from ..lang.diagnostics import Diagnostics, RulesError
from ..lang.files import InputError, UnknownName, printable
from .describe import Describer, and_list, fmt_value, humanize, plural, same_words

TEMPLATES = Path(__file__).resolve().parent / "templates"
FORMATS = ("html", "md", "pdf")
PAPERS = {"a4": "A4", "letter": "Letter"}
# A module given alone is shown on top of this ruleset, as `unodsl check` does.
MODULE_BASE = MODULE_HOST
STATS_PLAYERS = 4


class SheetError(InputError):
    """A problem with a sheet request (a template, a format, a missing extra): exit code 2."""


# ---- finding the rules, their parent and their house rules ---------------------------------------

@dataclass
class SheetRules:
    rules: object                      # the Ruleset the sheet is about
    parent: object = None              # the Ruleset it builds on, if any
    modules: list = field(default_factory=list)    # [{"name", "title", "about"}] of house rules


def _library(ref: str):
    diags = Diagnostics()
    lib = Library(diags)
    lib.add_bundled()
    refs = []
    if is_path(ref):
        refs = lib.add_source(read_source(ref), report=False)
    return lib, refs


def _unit_info(lib, refs, name):
    for r in refs:
        if r.unit.name == name:
            return r.unit
    found = lib.units.get(name)
    return found.unit if found is not None else None


def _about(unit) -> str:
    return next((d.text for d in unit.decls if isinstance(d, A.About)), "") if unit is not None else ""


def load_rules(ref: str, with_=(), options: dict | None = None) -> SheetRules:
    """Load what a sheet is about: a ruleset with modules, or a module shown on the base ruleset.

    Raises RulesError for broken rules, LookupError for unknown names, OSError/ValueError for
    unreadable files (the command line turns these into exit codes 1 and 2)."""
    options = dict(options or {})
    with_ = list(with_)
    lib, refs = _library(ref)
    top = None
    if is_path(ref):
        top = next((r.unit for r in refs if r.unit.kind == "ruleset"), None)
        if top is None and any(r.unit.kind == "module" for r in refs):
            with_.insert(0, ref)
            ref = MODULE_BASE
    else:
        unit = lib.units.get(ref)
        if unit is None:
            from ..lang.diagnostics import suggest
            raise UnknownName(f"no bundled ruleset or module named `{ref}`. " +
                              (suggest(ref, lib.units) or "Bundled: " + ", ".join(sorted(lib.units))))
        if unit.unit.kind == "module":
            with_.insert(0, ref)
            ref = MODULE_BASE
    rules = load(ref, tuple(with_), options)
    if top is None:
        top = _unit_info(lib, refs, rules.name)

    modules = []
    for name in [n for n in _uses(top)] + [m for m in with_]:
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
    return SheetRules(rules, parent, modules)


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


# ---- card pictures -----------------------------------------------------------------------------

PRINT_COLORS = {
    "red": "#d62b1f", "yellow": "#f2bf0f", "green": "#2f9a3e", "blue": "#1e5bbf", "orange": "#ef7d16",
    "purple": "#7a3b9e", "violet": "#7a3b9e", "pink": "#e2588f", "magenta": "#c2247f", "black": "#222222",
    "white": "#f4f4f4", "gray": "#8a8a8a", "grey": "#8a8a8a", "silver": "#a9adb3", "gold": "#c9a227",
    "brown": "#8b5a2b", "cyan": "#1aa3b8", "teal": "#168f86", "turquoise": "#22a59a", "lime": "#7cbf2a",
    "navy": "#23366f", "maroon": "#7d1f2a", "olive": "#7a7a1f", "indigo": "#4b3aa0", "coral": "#ec6a5c",
    "crimson": "#c0203a", "aqua": "#25b4c9", "beige": "#d9c9a3", "tan": "#c49a6c", "salmon": "#ee8472",
}


def color_hex(name: str, title: str = "") -> str:
    """A print-friendly color for a ruleset color: known names, else one derived from the name."""
    for key in (name, title):
        k = (key or "").strip().lower().replace("_", " ").replace("-", " ")
        if k in PRINT_COLORS:
            return PRINT_COLORS[k]
        for word in k.split():
            if word in PRINT_COLORS:
                return PRINT_COLORS[word]
    digest = hashlib.sha256(name.encode("utf-8")).digest()
    hue = digest[0] / 255.0
    r, g, b = colorsys.hls_to_rgb(hue, 0.45, 0.6)
    return "#{:02x}{:02x}{:02x}".format(int(r * 255), int(g * 255), int(b * 255))


def _light(hex_color: str) -> bool:
    r, g, b = (int(hex_color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.55


def _darker(hex_color: str, factor: float = 0.62) -> str:
    r, g, b = (int(hex_color[i:i + 2], 16) for i in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(int(r * factor), int(g * factor), int(b * factor))


def _ellipse_point(cx, cy, rx, ry, rot, t):
    x, y = rx * math.cos(t), ry * math.sin(t)
    c, s = math.cos(rot), math.sin(rot)
    return cx + x * c - y * s, cy + x * s + y * c


def card_svg(label: str, fill: str | None, all_colors=(), width: int = 30, title: str = "") -> Markup:
    """A small card: a rounded rectangle in the card's color with a white oval and its symbol; a card
    without a color is black with an oval in every color of the ruleset."""
    w, h = width, round(width * 1.45)
    cx, cy = w / 2, h / 2
    rx, ry, rot = w * 0.36, h * 0.37, math.radians(28)
    esc = html.escape
    size = max(5.0, min(w * 0.52, w * 1.05 / max(1, len(label))))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="card" width="{w}" height="{h}" '
             f'viewBox="0 0 {w} {h}" role="img" aria-label="{esc(title or label)}">']
    if title:
        parts.append(f"<title>{esc(title)}</title>")
    body = fill if fill is not None else "#1d1d1d"
    parts.append(f'<rect x="0.5" y="0.5" width="{w - 1}" height="{h - 1}" rx="{w * 0.14:.1f}" fill="{body}" '
                 f'stroke="#333" stroke-width="0.6"/>')
    if fill is not None:
        parts.append(f'<ellipse cx="{cx}" cy="{cy}" rx="{rx:.1f}" ry="{ry:.1f}" fill="#fff" '
                     f'transform="rotate(28 {cx} {cy})"/>')
        text = f'fill="{_darker(fill) if _light(fill) else fill}"'
    else:
        colors = list(all_colors) or ["#777"]
        n = len(colors)
        for k, col in enumerate(colors):
            if n == 1:
                parts.append(f'<ellipse cx="{cx}" cy="{cy}" rx="{rx:.1f}" ry="{ry:.1f}" fill="{col}" '
                             f'transform="rotate(28 {cx} {cy})"/>')
                break
            t0, t1 = -math.pi / 2 + 2 * math.pi * k / n, -math.pi / 2 + 2 * math.pi * (k + 1) / n
            x0, y0 = _ellipse_point(cx, cy, rx, ry, rot, t0)
            x1, y1 = _ellipse_point(cx, cy, rx, ry, rot, t1)
            large = 1 if t1 - t0 > math.pi else 0
            parts.append(f'<path d="M{cx:.2f},{cy:.2f} L{x0:.2f},{y0:.2f} A{rx:.2f},{ry:.2f} 28 {large} 1 '
                         f'{x1:.2f},{y1:.2f} Z" fill="{col}"/>')
        text = 'fill="#fff" stroke="#111" stroke-width="1.6" paint-order="stroke"'
    parts.append(f'<text x="{cx}" y="{cy}" dy="0.36em" text-anchor="middle" '
                 f'font-family="DejaVu Sans, Arial, sans-serif" font-weight="bold" font-size="{size:.1f}" '
                 f'{text}>{esc(label)}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


# ---- the deck --------------------------------------------------------------------------------------

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


_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}


def _symbol(decl, rank_label: str) -> str:
    code = next((a.value for a in decl.attrs if a.key == "code"), decl.name[:2].upper())
    text = code.replace("{color}", "").replace("{Color}", "").replace("{kind}", "").replace("{rank}", rank_label)
    return text.strip() or decl.title[:2]


def contents(rules, d: Describer) -> dict:
    c = rules.cards
    decls = {decl.name: decl for decl in rules.composed.decls(A.CardDecl)}
    in_deck = Counter(rules.deck)
    if rules.faces:              # two-sided cards: each card of the deck shows both of its faces
        in_deck += Counter(c.other[i] for i in rules.deck)
    colors = [(name, rules.color_titles.get(name, name), color_hex(name, rules.color_titles.get(name, "")))
              for name in rules.colors]
    hexes = {name: hx for name, _, hx in colors}
    rows, missing = [], []
    for kind in rules.kinds:
        decl = decls.get(kind)
        ids = [i for i in range(len(c.kind)) if c.kind[i] == kind]
        count = sum(in_deck[i] for i in ids)
        title = d.kind_title(kind)
        if not count:
            missing.append(title)
            continue
        ranks = sorted({c.rank[i] for i in ids if c.rank[i] is not None})
        rank_label = "" if not ranks else (str(ranks[0]) if len(ranks) == 1 else f"{ranks[0]}–{ranks[-1]}")
        symbol = _symbol(decl, rank_label) if decl is not None else title[:2]
        colored = any(c.colored[i] for i in ids)
        # how many, per color and rank
        detail = ""
        if colored:
            per_color = {}
            for i in ids:
                per_color.setdefault(c.color[i], Counter())[c.rank[i]] += in_deck[i]
            shapes = {tuple(sorted(v.items(), key=lambda kv: (kv[0] is None, kv[0] or 0))) for v in per_color.values()}
            if len(shapes) == 1 and len(per_color) == len(rules.colors):
                shape = per_color[next(iter(per_color))]
                n = sum(shape.values())
                if ranks:
                    by_count: dict = {}
                    for rank, k in shape.items():
                        if k:
                            by_count.setdefault(k, []).append(rank)
                    bits = []
                    for k, rs in sorted(by_count.items()):
                        what = _ranges(rs)
                        bits.append(f"{_WORDS.get(k, k)} {what}" if len(rs) == 1 and k == 1 else
                                    f"{_WORDS.get(k, k)} of each {what}" if len(rs) > 1 else f"{_WORDS.get(k, k)} {what}s")
                    detail = f"{n} per {rules.color_word}: " + ", ".join(bits)
                else:
                    detail = f"{n} per {rules.color_word}"
        points = sorted({c.points[i] for i in ids})
        if ranks and all(c.points[i] == c.rank[i] for i in ids):
            points_text = "face value"
        elif len(points) == 1:
            points_text = str(points[0])
        else:
            points_text = f"{points[0]}–{points[-1]}"
        if decl is not None:
            attr = next((a for a in decl.attrs if a.key == "points"), None)
            if attr is not None and isinstance(attr.value, A.Name) and attr.value.id in rules.options:
                points_text += f" (option {attr.value.id})"
        if colored:
            pics = [card_svg(symbol, hexes.get(col, "#777"), title=f"{title_}: {title}")
                    for col, title_, _ in colors if any(c.color[i] == col and in_deck[i] for i in ids)]
        else:
            pics = [card_svg(symbol, None, [hx for _, _, hx in colors], title=title)]
        codes = list(dict.fromkeys(c.code[i] for i in ids if in_deck[i]))
        rows.append({"kind": kind, "title": title, "count": count, "detail": detail, "points": points_text,
                     "colored": colored, "symbol": symbol, "pictures": pics, "picture": pics[0],
                     "codes": codes, "codes_text": _codes_text(codes),
                     "tags": sorted(set().union(*(c.tags[i] for i in ids)))})
    deck_decl = rules.composed.decls(A.Deck)
    first_deck = next((x for x in reversed(deck_decl) if x.face is None), deck_decl[-1]) if deck_decl else None
    deck_rule = d.declaration(first_deck)[0].as_dict() if first_deck is not None else None
    colors_decl = rules.composed.decls(A.Colors)
    colors_rule = d.declaration(colors_decl[-1])[0].as_dict() if colors_decl else None
    return {"total": len(rules.deck), "rows": rows, "missing": missing, "deck_rule": deck_rule,
            "colors_rule": colors_rule,
            "colors": [{"name": n, "title": t, "code": rules.color_codes.get(n, ""), "hex": hx} for n, t, hx in colors]}


def _codes_text(codes) -> str:
    return ", ".join(codes) if len(codes) <= 4 else f"{codes[0]} … {codes[-1]}"


def kind_picture(rules, kind: str) -> Markup:
    """One small picture of a card kind (the first color for colored kinds)."""
    c = rules.cards
    ids = [i for i in range(len(c.kind)) if c.kind[i] == kind]
    if not ids:
        return Markup("")
    decl = next((x for x in rules.composed.decls(A.CardDecl) if x.name == kind), None)
    ranks = sorted({c.rank[i] for i in ids if c.rank[i] is not None})
    label = "" if not ranks else (str(ranks[0]) if len(ranks) == 1 else f"{ranks[0]}–{ranks[-1]}")
    symbol = _symbol(decl, label) if decl is not None else kind[:2]
    colors = [color_hex(n, rules.color_titles.get(n, "")) for n in rules.colors]
    if any(c.colored[i] for i in ids):
        return card_svg(symbol, colors[0] if colors else "#777", width=24)
    return card_svg(symbol, None, colors, width=24)


def _card_picture_for(rules, card_id: int) -> Markup:
    c = rules.cards
    decl = next((x for x in rules.composed.decls(A.CardDecl) if x.name == c.kind[card_id]), None)
    label = "" if c.rank[card_id] is None else str(c.rank[card_id])
    symbol = _symbol(decl, label) if decl is not None else c.code[card_id]
    colors = [color_hex(n, rules.color_titles.get(n, "")) for n in rules.colors]
    col = c.color[card_id]
    if col is not None:
        return card_svg(symbol, color_hex(col, rules.color_titles.get(col, "")), width=24, title=c.name[card_id])
    return card_svg(symbol, None, colors, width=24, title=c.name[card_id])


# ---- sections --------------------------------------------------------------------------------------

GOING_OUT = ("A round ends as soon as a player has no cards left (or only one player is left in the round): "
             "that player is the winner of the round.")
STOCK = "When the stock runs out, the discard pile except its top card is shuffled to make a new stock."


def _groups(rules):
    """Composed declarations once each, with the keys each still holds and its unit."""
    seen: dict = {}
    order = []
    for key, decl, unit in rules.composed.items:
        if id(decl) not in seen:
            seen[id(decl)] = (decl, [], unit)
            order.append(id(decl))
        seen[id(decl)][1].append(key)
    return [seen[i] for i in order]


def _mentions_players(node, n=2) -> bool:
    """Whether a rule compares the number of players with n (a two-player rule, say)."""
    for x in A.walk(node):
        if isinstance(x, A.Binary) and x.op in ("==", "!=", "<", "<=", ">", ">="):
            sides = (x.left, x.right)
            if any(isinstance(s, A.Builtin) and s.id == "players" for s in sides) and \
                    any(isinstance(s, A.Literal) and s.value == n for s in sides):
                return True
    return False


def build_context(rules, *, parent=None, modules=(), paper: str = "a4", stats: int = 0,
                  title: str | None = None, stats_players: int | None = None) -> dict:
    """Everything a sheet template needs, as plain data."""
    d = Describer(rules)
    d.unit_titles = {m["name"]: m["title"] for m in modules}
    ctx: dict = {
        "title": title or _title(rules, modules),
        "name": rules.name,
        "about": rules.about,
        "players": {"low": rules.players[0], "high": rules.players[1],
                    "text": (f"{rules.players[0]} players" if rules.players[0] == rules.players[1]
                             else f"{rules.players[0]} to {rules.players[1]} players")},
        "units": list(rules.units),
        "house_rules": [dict(m) for m in modules],
        "paper": paper, "page_size": PAPERS.get(paper, "A4"),
        "generator": f"unodsl {__version__}",
        "going_out": _going_out(rules, d), "stock_rule": _stock_rule(rules, d),
    }
    ctx["contents"] = contents(rules, d)
    setup, starter, match, restrictions, honest = [], [], [], [], []
    effects, windows, after, counters, scoring, winning = [], [], [], [], [], []
    renege = draw = dealer = teams = round_start = None
    two_players = []
    options = []
    for decl, keys, unit in _groups(rules):
        rs = d.declaration(decl, keys, unit)
        if not rs:
            continue
        if isinstance(decl, (A.Players, A.Deal, A.Faces, A.PairFaces, A.Sees, A.Group, A.Ranks)):
            setup.append(rs[0].as_dict())
        elif isinstance(decl, A.DealsFirst):
            dealer = rs[0].as_dict()
        elif isinstance(decl, A.Teams):
            teams = rs[0].as_dict()
        elif isinstance(decl, A.OnRoundStart):
            round_start = rs[0].as_dict()
        elif isinstance(decl, A.CounterDecl):
            counters.append(rs[0].as_dict())
        elif isinstance(decl, A.Starter):
            starter.append(rs[0].as_dict())
        elif isinstance(decl, A.Match):
            match.append(rs[0].as_dict())
        elif isinstance(decl, A.PlayOnly):
            restrictions.append(rs[0].as_dict())
        elif isinstance(decl, A.Honest):
            honest.append(rs[0].as_dict())
        elif isinstance(decl, A.Runs):
            restrictions.append(rs[0].as_dict())
        elif isinstance(decl, A.Renege):
            renege = rs[0].as_dict()
        elif isinstance(decl, A.OnDraw):
            draw = rs[0].as_dict()
        elif isinstance(decl, (A.AfterPlay, A.Whenever)):
            after.append(rs[0].as_dict())
        elif isinstance(decl, A.OnPlay):
            r = rs[0]
            item = r.as_dict()
            item["pictures"] = [_sel_picture(rules, d, s) for s in d._sels(decl, keys)][:3]
            asks = d.asks(decl.body)
            item["asks"] = [_ask(d, a, r.title) for a in asks]
            effects.append(item)
        elif isinstance(decl, A.Window):
            windows.append({"rule": rs[0].as_dict(), "title": rs[0].title,
                            "actions": [x.as_dict() for x in rs[1:]]})
        elif isinstance(decl, A.OnRoundEnd):
            scoring.append(rs[0].as_dict())
            winning.extend(x.as_dict() for x in rs[1:])
        elif isinstance(decl, A.OptionDecl):
            pass
        if not isinstance(decl, (A.OptionDecl, A.SetOption)) and hasattr(decl, "body") and _mentions_players(decl.body):
            env_rule = rs[0]
            parts = [s for s in d.flatten(decl.body) if _mentions_players(s)]
            if parts:
                d.used = set()
                sentence = d.rule(env_rule.title, "", tuple(parts),
                                  roles=d.STARTER_ROLES if isinstance(decl, A.Starter) else None).sentence
                two_players.append({"title": env_rule.title, "sentence": sentence})
    for name, info in rules.options.items():
        options.append({"name": name, "value": fmt_value(info.value), "default": fmt_value(info.default),
                        "changed": info.value != info.default,
                        "choices": [fmt_value(x) for x in info.choices], "doc": info.doc,
                        "sentence": f"{name} {fmt_value(info.value)}"})
    ctx.update({
        "setup": setup, "dealer": dealer, "teams": teams, "round_start": round_start, "counters": counters,
        "starter": starter,
        "turn": {"match": match, "restrictions": restrictions, "honest": honest, "renege": renege,
                 "draw": draw, "after": after},
        "effects": effects,
        "answers": {"windows": windows, "asks": [a for e in effects for a in e["asks"]]},
        "scoring": scoring, "winning": winning,
        "two_players": two_players,
        "options": options,
    })
    ctx["teams_active"] = teams is not None and not _no_teams(rules)
    ctx["has_teams_section"] = bool(two_players) or ctx["teams_active"]
    ctx["diff"] = diff(parent, rules, modules) if parent is not None else None
    ctx["stats"] = play_stats(rules, stats, stats_players) if stats else None
    return ctx


def _going_out(rules, d: Describer) -> str:
    """How a round ends: by going out, and, when the rules say so, blocked."""
    decls = rules.composed.decls(A.Blocked) if rules.composed is not None else []
    if not decls:
        return GOING_OUT
    rule = d.declaration(decls[-1])[0]
    return GOING_OUT + " " + _doc_and_sentence(rule)


def _stock_rule(rules, d: Describer) -> str:
    """What happens when the stock runs out: the rules' own `when the stock runs out`, or the
    usual reshuffle."""
    decls = rules.composed.decls(A.StockOut) if rules.composed is not None else []
    if not decls:
        return STOCK
    rule = d.declaration(decls[-1])[0]
    if rule.doc:
        return _doc_and_sentence(rule)
    return "When the stock runs out: " + rule.sentence[:1].lower() + rule.sentence[1:]


def _doc_and_sentence(rule) -> str:
    """The author's words, then the precise rule when they do not already say it."""
    if not rule.doc:
        return rule.sentence
    return rule.doc if rule.same else f"{rule.doc} {rule.sentence}"


def _no_teams(rules) -> bool:
    """Whether the options rule teams out (the `teams` condition is decided false)."""
    from .describe import _Const, _Env
    decls = rules.composed.decls(A.Teams)
    if not decls:
        return True
    test = Describer(rules).simplify(decls[-1].test, _Env())
    return isinstance(test, _Const) and not test.value


def _sel_picture(rules, d: Describer, sel) -> Markup:
    """A picture for a card selector: the kind, or its first card when ranks or a code narrow it."""
    if isinstance(sel, A.KindSel) and sel.ranks is None:
        return kind_picture(rules, sel.kind)
    ids = d.sel_cards(sel)
    return _card_picture_for(rules, ids[0]) if ids else Markup("")


def _ask(d: Describer, ask, cards_title: str) -> dict:
    from .describe import _Env
    env = _Env()
    who = d.np(ask.who, env)
    answers = []
    for a in ask.answers:
        body = d.block(a.body, env)
        answers.append({"name": humanize(a.name), "doc": a.doc,
                        "sentence": (body[:1].upper() + body[1:] + ".") if body else "No further effect."})
    return {"cards": cards_title, "who": who, "question": ask.question, "answers": answers}


def _title(rules, modules) -> str:
    added = [m["title"] for m in modules if m.get("added")]
    return rules.title + ("" if not added else " + " + " + ".join(added))


# ---- what a variant changes ------------------------------------------------------------------------

_SKIP_IN_DIFF = (A.About, A.RemoveCard)
_LABELS = {"OptionDecl": "Option", "SetOption": "Option", "card": "Card", "on play": "Effect",
           "starter": "Starter card", "honest": "Honest play", "window": "Out of turn", "Match": "Matching",
           "PlayOnly": "Every play", "AfterPlay": "After every play", "counter": "Count",
           "Players": "Players", "Deal": "The deal", "Colors": "Colors", "Deck": "The deck",
           "Renege": "Drawing instead of playing", "DealsFirst": "The dealer", "Teams": "Teams",
           "OnDraw": "Drawing", "OnRoundEnd": "Scoring and winning", "OnRoundStart": "Start of a round",
           "Uses": "House rules", "Requires": "Cards needed", "StockOut": "The stock",
           "Blocked": "A blocked round",
           "Whenever": "At any moment"}


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
        if isinstance(decl, _SKIP_IN_DIFF):
            continue
        k = (key[0], signature(decl)) if len(key) > 1 and isinstance(key[1], int) else key
        out[k] = (key, decl, unit)
    return out


def _diff_entry(d: Describer, change: str, keys, decl, unit) -> dict:
    rs = d.declaration(decl, keys, unit, meta=True)
    label = _LABELS.get(keys[0][0], humanize(str(keys[0][0])))
    title = rs[0].title if rs else ""
    if isinstance(decl, (A.OptionDecl, A.SetOption)):
        info = d.rules.options.get(decl.name)
        value = info.value if info is not None else (decl.default.value if isinstance(decl, A.OptionDecl)
                                                     else decl.value.value)
        title = f"{decl.name} = {fmt_value(value)}"
        sentence, doc = "", (info.doc if info is not None else getattr(decl, "doc", ""))
    else:
        doc = " ".join(r.doc for r in rs if r.doc)
        sentence = " ".join(r.sentence for r in rs if not r.same)
    heading = label if title in ("", label) or title.lower() == label.lower() else f"{label}: {title}"
    return {"change": change, "title": heading, "doc": doc, "sentence": sentence, "unit": unit,
            "unit_title": d.unit_titles.get(unit, ""),
            "same": bool(doc) and same_words(doc, sentence)}


def diff(parent, rules, modules=()) -> dict:
    """The declarations `rules` adds, changes or removes compared with `parent`.

    Declarations are compared by content (source positions aside) under their composition keys;
    a declaration that holds several keys (`on play a, b`) is listed once, with the keys that
    differ."""
    mine, theirs = _index(rules), _index(parent)
    dn, dp = Describer(rules), Describer(parent)
    dn.unit_titles = dp.unit_titles = {m["name"]: m["title"] for m in modules}
    dn.unit_titles.setdefault(rules.name, rules.title)
    dp.unit_titles.setdefault(parent.name, parent.title)
    groups: dict = {}
    for k, (key, decl, unit) in mine.items():
        old = theirs.get(k)
        if old is not None and signature(old[1]) == signature(decl) or isinstance(decl, A.Define):
            continue            # (named statements are no rules: the rules that use them say them)
        g = groups.setdefault(id(decl), {"decl": decl, "unit": unit, "added": [], "changed": []})
        g["added" if old is None else "changed"].append(key)
    entries = []
    for g in groups.values():
        change = "Changes" if g["changed"] else "Adds"
        entries.append(_diff_entry(dn, change, g["added"] + g["changed"], g["decl"], g["unit"]))
    gone: dict = {}
    for k, (key, decl, unit) in theirs.items():
        if k not in mine and not isinstance(decl, A.Define):
            gone.setdefault(id(decl), {"decl": decl, "unit": unit, "keys": []})["keys"].append(key)
    for g in gone.values():
        entries.append(_diff_entry(dp, "Removes", g["keys"], g["decl"], g["unit"]))
    order = {"Adds": 0, "Changes": 1, "Removes": 2}
    entries.sort(key=lambda e: order[e["change"]])
    return {"parent": parent.title, "parent_name": parent.name, "entries": entries}


# ---- simulated games ---------------------------------------------------------------------------------

def play_stats(rules, games: int, players: int | None = None) -> dict:
    """A "How it plays" box: `games` simulated games with basic bots and a fixed seed."""
    from ..sim.simulate import simulate
    low, high = rules.players
    n = players or min(max(STATS_PLAYERS, low), high)
    summary = simulate(rules, n, games, seed=1, bot="basic").summary()
    shares = [w["share"] for w in summary["wins_by_seat"]]
    fair = 1.0 / n
    best = max(range(n), key=lambda s: shares[s])
    worst = min(range(n), key=lambda s: shares[s])
    t = summary["turns_per_game"]
    return {
        "games": summary["games"], "players": n, "seed": 1, "bots": "basic",
        "turns_mean": t["mean"], "turns_median": t["median"], "turns_p95": t["p95"],
        "rounds": summary["rounds_per_game"], "reshuffles": summary["reshuffles_per_game"],
        "drawn": summary["cards_drawn_per_game"],
        "seats": [{"seat": w["seat"], "percent": round(100 * w["share"], 1)} for w in summary["wins_by_seat"]],
        "fair_percent": round(100 * fair, 1),
        "spread": round(100 * (shares[best] - shares[worst]), 1),
        "best_seat": f"p{best + 1}", "worst_seat": f"p{worst + 1}",
        "stalemates": summary["stalemates"],
    }


# ---- rendering ----------------------------------------------------------------------------------------

def _md_cell(text) -> str:
    return str(text if text is not None else "").replace("|", "\\|").replace("\n", " ")


def _md_text(text) -> str:
    """Text safe for a Markdown paragraph: characters that would start markup are escaped."""
    s = str(text if text is not None else "")
    s = re.sub(r"([\\`*_\[\]<>|])", r"\\\1", s)
    return s.replace("\n", " ")


def _capfirst(text) -> str:
    s = str(text if text is not None else "")
    return s[:1].upper() + s[1:]


def _filters() -> dict:
    return {"md_cell": _md_cell, "md": _md_text, "and_list": and_list, "plural": plural, "capfirst": _capfirst}


def _escape_for(name: str | None, fmt: str) -> bool:
    base = (name or "").lower()
    for suffix in (".j2", ".jinja", ".jinja2"):
        if base.endswith(suffix):
            base = base[: -len(suffix)]
    if base.endswith((".html", ".htm", ".xml", ".svg")):
        return True
    if base.endswith((".md", ".markdown", ".txt")):
        return False
    return fmt in ("html", "pdf")


def environment():
    from jinja2 import Environment, FileSystemLoader, StrictUndefined
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)),
                      autoescape=lambda name: _escape_for(name, "html"),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True)
    env.filters.update(_filters())
    return env


def render_builtin(ctx: dict, fmt: str) -> str:
    env = environment()
    name = "sheet.md.j2" if fmt == "md" else "sheet.html.j2"
    return env.get_template(name).render(**ctx)


def render_user(ctx: dict, path, fmt: str) -> str:
    """Render a user's own template (sandboxed, kept in its folder, within limits: user_template)."""
    from .user_template import render_user as render
    return render(ctx, path, fmt, bundled=TEMPLATES, autoescape=_escape_for, filters=_filters(), error=SheetError)


def _printable(value):
    """The sheet's data with every text's control characters escaped (lang.files.printable)."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, dict):
        return {k: _printable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_printable(v) for v in value)
    return value


def to_pdf(html_text: str) -> bytes:
    try:
        import weasyprint  # noqa: F401
    except ImportError:
        raise SheetError("PDF output needs WeasyPrint: pip install unodsl[pdf]") from None
    except OSError as err:      # WeasyPrint is there but a system library it needs is not
        raise SheetError(f"WeasyPrint cannot start ({err}); it needs Pango: see its installation notes") from None
    from weasyprint import HTML
    return HTML(string=html_text, base_url=str(TEMPLATES)).write_pdf()


def make_sheet(ref: str, with_=(), options: dict | None = None, fmt: str = "html", paper: str = "a4",
               stats: int = 0, template=None):
    """The whole pipeline: the sheet as text (html, md) or bytes (pdf)."""
    if fmt not in FORMATS:
        raise SheetError(f"unknown format `{fmt}`: use one of {', '.join(FORMATS)}")
    if paper not in PAPERS:
        raise SheetError(f"unknown paper `{paper}`: use a4 or letter")
    src = load_rules(ref, with_, options)
    ctx = build_context(src.rules, parent=src.parent, modules=src.modules, paper=paper, stats=stats)
    ctx["format"] = fmt
    if fmt == "md":                 # Markdown is read on terminals too: no control character obeyed
        ctx = _printable(ctx)
    text = render_user(ctx, template, fmt) if template else render_builtin(ctx, fmt)
    if fmt == "pdf":
        return to_pdf(text)
    return text
