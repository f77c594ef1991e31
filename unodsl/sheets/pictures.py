"""Card pictures: small inline SVGs drawn from a ruleset's colors and codes.

Every shape is a plain path with its numbers worked out here (no transforms, no `em` offsets, no
`paint-order`), because Chromium and WeasyPrint must draw the same card: WeasyPrint's SVG support
is a subset, and what it does not know it draws wrongly rather than not at all. A symbol's font
size comes from the widths of its glyphs, so "+2" or "W+4" always fits its oval.
"""
from __future__ import annotations

import colorsys
import hashlib
import html
import math

from markupsafe import Markup

PRINT_COLORS = {
    "red": "#d62b1f", "yellow": "#f2bf0f", "green": "#2f9a3e", "blue": "#1e5bbf", "orange": "#ef7d16",
    "purple": "#7a3b9e", "violet": "#7a3b9e", "pink": "#e2588f", "magenta": "#c2247f", "black": "#222222",
    "white": "#f4f4f4", "gray": "#8a8a8a", "grey": "#8a8a8a", "silver": "#a9adb3", "gold": "#c9a227",
    "brown": "#8b5a2b", "cyan": "#1aa3b8", "teal": "#168f86", "turquoise": "#22a59a", "lime": "#7cbf2a",
    "navy": "#23366f", "maroon": "#7d1f2a", "olive": "#7a7a1f", "indigo": "#4b3aa0", "coral": "#ec6a5c",
    "crimson": "#c0203a", "aqua": "#25b4c9", "beige": "#d9c9a3", "tan": "#c49a6c", "salmon": "#ee8472",
    # the suits of a standard deck print black and red
    "clubs": "#222222", "spades": "#222222", "hearts": "#d62b1f", "diamonds": "#d62b1f",
}
SUIT_SIGNS = {"clubs": "♣", "club": "♣", "spades": "♠", "spade": "♠", "hearts": "♥", "heart": "♥",
              "diamonds": "♦", "diamond": "♦"}


def suit_sign(name: str, title: str = "") -> str:
    """The sign a standard suit is printed with ("♥"), or "" for any other color or suit."""
    for key in (name, title):
        sign = SUIT_SIGNS.get((key or "").strip().lower())
        if sign:
            return sign
    return ""
WILD_BODY = "#1d1d1d"
# Advance widths of DejaVu Sans Bold, in ems (the sheet's font; other glyphs count as 0.72).
_GLYPH = {"W": 1.03, "M": 0.99, "+": 0.84, "-": 0.42, "–": 0.5, " ": 0.35, "I": 0.37, "1": 0.7, "/": 0.37}


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


def _text_width(label: str) -> float:
    return sum(_GLYPH.get(ch, 0.72) for ch in label) or 0.72


def _rounded_rect(w: float, h: float, r: float) -> str:
    x0, y0, x1, y1 = 0.5, 0.5, w - 0.5, h - 0.5
    return (f"M{x0 + r:.2f},{y0:.2f} H{x1 - r:.2f} A{r:.2f},{r:.2f} 0 0 1 {x1:.2f},{y0 + r:.2f} "
            f"V{y1 - r:.2f} A{r:.2f},{r:.2f} 0 0 1 {x1 - r:.2f},{y1:.2f} H{x0 + r:.2f} "
            f"A{r:.2f},{r:.2f} 0 0 1 {x0:.2f},{y1 - r:.2f} V{y0 + r:.2f} A{r:.2f},{r:.2f} 0 0 1 {x0 + r:.2f},{y0:.2f} Z")


def _ellipse_point(cx, cy, rx, ry, rot, t):
    x, y = rx * math.cos(t), ry * math.sin(t)
    c, s = math.cos(rot), math.sin(rot)
    return cx + x * c - y * s, cy + x * s + y * c


def _oval(cx, cy, rx, ry, deg) -> str:
    """A tilted ellipse as two arcs (no `transform`)."""
    rot = math.radians(deg)
    x0, y0 = _ellipse_point(cx, cy, rx, ry, rot, 0)
    x1, y1 = _ellipse_point(cx, cy, rx, ry, rot, math.pi)
    return (f"M{x0:.2f},{y0:.2f} A{rx:.2f},{ry:.2f} {deg} 1 1 {x1:.2f},{y1:.2f} "
            f"A{rx:.2f},{ry:.2f} {deg} 1 1 {x0:.2f},{y0:.2f} Z")


def _sector(cx, cy, rx, ry, deg, t0, t1) -> str:
    rot = math.radians(deg)
    x0, y0 = _ellipse_point(cx, cy, rx, ry, rot, t0)
    x1, y1 = _ellipse_point(cx, cy, rx, ry, rot, t1)
    large = 1 if t1 - t0 > math.pi else 0
    return f"M{cx:.2f},{cy:.2f} L{x0:.2f},{y0:.2f} A{rx:.2f},{ry:.2f} {deg} {large} 1 {x1:.2f},{y1:.2f} Z"


def card_svg(label: str, fill: str | None, all_colors=(), width: int = 30, title: str = "") -> Markup:
    """A small card: a rounded card in its color with a white oval and its symbol; a card without
    a color is black, with an oval in every color of the ruleset and its symbol on a white label."""
    w, h = float(width), round(width * 1.45, 1)
    cx, cy = w / 2, h / 2
    rx, ry, tilt = w * 0.38, h * 0.36, 28
    esc = html.escape
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="card" width="{w:g}" height="{h:g}" '
             f'viewBox="0 0 {w:g} {h:g}" role="img" aria-label="{esc(title or label)}">']
    if title:
        parts.append(f"<title>{esc(title)}</title>")
    parts.append(f'<path d="{_rounded_rect(w, h, w * 0.13)}" fill="{fill or WILD_BODY}" stroke="#333" '
                 f'stroke-width="0.6"/>')
    if fill is not None:
        parts.append(f'<path d="{_oval(cx, cy, rx, ry, tilt)}" fill="#ffffff"/>')
        ink, avail = (_darker(fill) if _light(fill) else fill), w * 0.62
    else:
        colors = list(all_colors) or ["#777777"]
        if len(colors) == 1:
            parts.append(f'<path d="{_oval(cx, cy, rx, ry, tilt)}" fill="{colors[0]}"/>')
        else:
            n = len(colors)
            for k, col in enumerate(colors):
                t0 = -math.pi / 2 + 2 * math.pi * k / n
                t1 = -math.pi / 2 + 2 * math.pi * (k + 1) / n
                parts.append(f'<path d="{_sector(cx, cy, rx, ry, tilt, t0, t1)}" fill="{col}"/>')
        ink, avail = "#111111", w * 0.7
    size = max(4.0, min(h * 0.34, avail / _text_width(label)))
    if fill is None and label:
        lw, lh = min(w * 0.86, _text_width(label) * size + size * 0.5), size * 1.05
        parts.append(f'<path d="{_label_box(cx, cy, lw, lh)}" fill="#ffffff"/>')
    baseline = cy + size * 0.365
    parts.append(f'<text x="{cx:g}" y="{baseline:.2f}" text-anchor="middle" '
                 f'font-family="DejaVu Sans, Arial, sans-serif" font-weight="bold" font-size="{size:.2f}" '
                 f'fill="{ink}">{esc(label)}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


def _label_box(cx, cy, lw, lh) -> str:
    r = lh / 2
    x0, x1, y0, y1 = cx - lw / 2, cx + lw / 2, cy - lh / 2, cy + lh / 2
    return (f"M{x0 + r:.2f},{y0:.2f} H{x1 - r:.2f} A{r:.2f},{r:.2f} 0 0 1 {x1 - r:.2f},{y1:.2f} "
            f"H{x0 + r:.2f} A{r:.2f},{r:.2f} 0 0 1 {x0 + r:.2f},{y0:.2f} Z")
