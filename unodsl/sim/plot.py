"""`simulate --plot FILE.svg`: game length and wins by seat as one SVG picture.

The picture is an SVG drawn from a Jinja template (sim/templates/plot.svg.j2): no plotting
library is needed, and the file opens in any browser. This module only computes coordinates:
both charts have a labelled y scale, ticks fall on round numbers (1, 2 or 5 times a power of
ten), and the median is drawn over the bars in a colour and width that stay visible on them.
"""
from __future__ import annotations

import math
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from .simulate import Stats

TEMPLATES = Path(__file__).resolve().parent / "templates"


def nice_step(span: float, ticks: int = 5) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving about `ticks` ticks over `span`."""
    if span <= 0:
        return 1
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * power >= raw:
            return m * power
    return 10 * power


def nice_ticks(low: float, high: float, ticks: int = 5, whole: bool = True, cover: bool = False) -> list:
    """Round values from `low` to `high`; with `cover`, the last one is at or above `high` (the
    top of a scale, so that no bar rises above it)."""
    step = nice_step(high - low, ticks)
    if whole:
        step = max(1, int(round(step)))
    if cover:
        high = math.ceil(high / step) * step
    first = math.floor(low / step) * step
    values, v = [], first
    while v <= high + step * 1e-9:
        if v >= low - step * 1e-9:
            values.append(int(v) if whole else round(v, 10))
        v += step
    return values


def histogram(stats: Stats, bins: int = 24) -> list[tuple[int, int, int]]:
    """(low, high, games) for equal-width bins of a round width covering every game length."""
    if not stats.turns:
        return []
    low, high = min(stats.turns), max(stats.turns)
    width = max(1, int(nice_step(high - low + 1, bins)))
    start = (low // width) * width
    count = (high - start) // width + 1
    counts = [0] * count
    for value, n in stats.turns.items():
        counts[(value - start) // width] += n
    return [(start + i * width, start + (i + 1) * width - 1, c) for i, c in enumerate(counts)]


def render(stats: Stats, title: str, subtitle: str) -> str:
    summary = stats.summary()
    width, height = 880, 420
    hist = {"x": 80, "y": 90, "w": 440, "h": 250}
    bins = histogram(stats)
    top_count = max((c for _, _, c in bins), default=1) or 1
    y_ticks = nice_ticks(0, top_count, 5, cover=True)
    y_top = max(y_ticks[-1], 1)
    lo_all = bins[0][0] if bins else 0
    hi_all = bins[-1][1] + 1 if bins else 1
    span = max(1, hi_all - lo_all)

    def x_of(turns):
        return round(hist["w"] * (turns - lo_all) / span, 1)

    def y_of(count):
        return round(hist["h"] - hist["h"] * count / y_top, 1)
    hist["bars"] = [{"x": round(x_of(lo) + 0.5, 1), "w": round(max(1.0, x_of(hi + 1) - x_of(lo) - 1), 1),
                     "y": y_of(c), "h": round(hist["h"] - y_of(c), 1), "count": c,
                     "label": f"{lo}-{hi} turns"} for lo, hi, c in bins]
    hist["ticks"] = [{"x": x_of(v), "label": v} for v in nice_ticks(lo_all, hi_all, 6)]
    hist["y_ticks"] = [{"y": y_of(v), "label": v} for v in y_ticks]
    t = summary["turns_per_game"]
    hist.update(median=t["median"], median_x=x_of(t["median"] + 0.5), mean=t["mean"], p95=t["p95"])

    by_team = "wins_by_team" in summary
    groups = summary["wins_by_team" if by_team else "wins_by_seat"]
    wins = {"x": 610, "y": 90, "w": 240, "h": 250, "title": "Wins by team" if by_team else "Wins by seat"}
    highest = max([w["ci95"][1] for w in groups] + [1.0 / max(1, len(groups))])
    pct_ticks = nice_ticks(0, 100 * highest, 5, cover=True)
    pct_top = max(pct_ticks[-1], 1)

    def wy(share):
        return round(wins["h"] - wins["h"] * 100 * share / pct_top, 1)
    slot = wins["w"] / max(1, len(groups))
    wins["bars"] = [{"x": round(i * slot + slot * 0.15, 1), "w": round(slot * 0.7, 1), "y": wy(w["share"]),
                     "h": round(wins["h"] - wy(w["share"]), 1), "cx": round(i * slot + slot / 2, 1),
                     "lo_y": wy(w["ci95"][0]), "hi_y": wy(w["ci95"][1]),
                     "seat": w["seat"].removeprefix("team "), "pct": round(100 * w["share"], 1)}
                    for i, w in enumerate(groups)]
    wins["y_ticks"] = [{"y": round(wins["h"] - wins["h"] * v / pct_top, 1), "label": f"{v:g}%"} for v in pct_ticks]
    fair = 1.0 / max(1, len(groups))
    wins.update(fair=round(100 * fair, 1), fair_y=wy(fair))
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(["j2", "svg"]))
    return env.get_template("plot.svg.j2").render(width=width, height=height, title=title, subtitle=subtitle,
                                                  hist=hist, wins=wins)
