"""The learning curve of train.py as CSV and as an SVG picture drawn by hand (no plotting library).

The picture: win rate (0 to 100%) against training rounds, the 95% interval as a shaded band,
each evaluation as a dot on the line, and a dashed line at 50%, where the random bot's equal
would stand. The x ticks fall on round numbers (unodsl.sim.plot.nice_ticks).
"""
from __future__ import annotations

import csv
from html import escape
from pathlib import Path

from unodsl.sim.plot import nice_ticks

FIELDS = ("episodes", "seconds", "games", "wins", "win_rate", "low", "high")

WIDTH, HEIGHT = 760, 440
LEFT, RIGHT, TOP, BOTTOM = 78, 24, 64, 62        # the plot area's margins


def rows(curve) -> list[dict]:
    out = []
    for p in curve:
        low, high = p.interval
        out.append({"episodes": p.episodes, "seconds": round(p.seconds, 1), "games": p.games,
                    "wins": p.wins, "win_rate": round(p.rate, 4), "low": round(low, 4),
                    "high": round(high, 4)})
    return out


def write_csv(path: Path, curve) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, FIELDS)
        writer.writeheader()
        writer.writerows(rows(curve))


def render(curve, subtitle: str) -> str:
    """The SVG text of the curve (a list of train.Point)."""
    last_x = max(p.episodes for p in curve) or 1
    xticks = nice_ticks(0, last_x, ticks=6, cover=True)
    x_top = max(xticks[-1], 1)
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(v: float) -> float:
        return LEFT + inner_w * v / x_top

    def y(share: float) -> float:
        return TOP + inner_h * (1 - share)

    def pts(pairs) -> str:
        return " ".join(f"{a:.1f},{b:.1f}" for a, b in pairs)

    band = ([(x(p.episodes), y(p.interval[1])) for p in curve] +
            [(x(p.episodes), y(p.interval[0])) for p in reversed(curve)])
    line = [(x(p.episodes), y(p.rate)) for p in curve]
    last = curve[-1]
    low, high = last.interval
    title = "Win rate of the trained policy against the random bot"
    caption = (f"Last evaluation: {100 * last.rate:.1f}% of {last.games:,} rounds won "
               f"(95% interval {100 * low:.1f}% to {100 * high:.1f}%) after {last.episodes:,} "
               f"training rounds.")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" '
           f'font-size="13">',
           f'<title>{escape(title)}</title>',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
           f'<text x="{LEFT}" y="24" font-size="16" font-weight="bold">{escape(title)}</text>',
           f'<text x="{LEFT}" y="44" fill="#555">{escape(subtitle)}</text>']
    for share in (0, 0.25, 0.5, 0.75, 1):
        out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(share):.1f}" y2="{y(share):.1f}" '
                   f'stroke="#e4e4e4"/>')
        out.append(f'<text x="{LEFT - 8}" y="{y(share) + 4:.1f}" text-anchor="end">{100 * share:.0f}%</text>')
    for v in xticks:
        out.append(f'<line x1="{x(v):.1f}" x2="{x(v):.1f}" y1="{TOP + inner_h}" y2="{TOP + inner_h + 5}" '
                   f'stroke="#333"/>')
        out.append(f'<text x="{x(v):.1f}" y="{TOP + inner_h + 20}" text-anchor="middle">{v:,}</text>')
    out += [f'<polygon points="{pts(band)}" fill="#4a7fc1" fill-opacity="0.22" stroke="none"/>',
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(0.5):.1f}" y2="{y(0.5):.1f}" stroke="#c0392b" '
            f'stroke-width="1.5" stroke-dasharray="6 4"/>',
            f'<polyline points="{pts(line)}" fill="none" stroke="#1f4e8c" stroke-width="2"/>']
    out += [f'<circle cx="{a:.1f}" cy="{b:.1f}" r="3" fill="#1f4e8c"/>' for a, b in line]
    out += [f'<line x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{TOP + inner_h}" stroke="#333"/>',
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{TOP + inner_h}" y2="{TOP + inner_h}" stroke="#333"/>',
            f'<text x="{LEFT + inner_w / 2:.1f}" y="{HEIGHT - 24}" text-anchor="middle">'
            f'training rounds played</text>',
            f'<text transform="translate(22 {TOP + inner_h / 2:.1f}) rotate(-90)" text-anchor="middle">'
            f'rounds won (shaded: 95% interval)</text>',
            f'<line x1="{WIDTH - RIGHT - 214}" x2="{WIDTH - RIGHT - 190}" y1="{HEIGHT - 28}" '
            f'y2="{HEIGHT - 28}" stroke="#c0392b" stroke-width="1.5" stroke-dasharray="6 4"/>',
            f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 24}" text-anchor="end" fill="#c0392b" font-size="12">'
            f'50%: the random bot\'s equal</text>',
            f'<text x="{LEFT}" y="{HEIGHT - 6}" fill="#555" font-size="12">{escape(caption)}</text>',
            '</svg>']
    return "\n".join(out) + "\n"


def write_svg(path: Path, curve, subtitle: str) -> None:
    Path(path).write_text(render(curve, subtitle), encoding="utf-8")
