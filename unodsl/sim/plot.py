"""`simulate --plot FILE.svg`: game length and wins by seat as one SVG picture.

The picture is an SVG drawn from a Jinja template (sim/templates/plot.svg.j2): no plotting
library is needed, and the file opens in any browser. This module only computes coordinates.
"""
from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from .simulate import Stats

TEMPLATES = Path(__file__).resolve().parent / "templates"


def histogram(stats: Stats, bins: int = 24) -> list[tuple[int, int, int]]:
    """(low, high, games) for equal-width bins covering every game length."""
    if not stats.turns:
        return []
    low, high = min(stats.turns), max(stats.turns)
    width = max(1, -(-(high - low + 1) // bins))
    counts = [0] * bins
    for value, count in stats.turns.items():
        counts[min(bins - 1, (value - low) // width)] += count
    return [(low + i * width, low + (i + 1) * width - 1, c) for i, c in enumerate(counts) if low + i * width <= high]


def render(stats: Stats, title: str, subtitle: str) -> str:
    summary = stats.summary()
    width, height = 860, 380
    hist = {"x": 60, "y": 70, "w": 440, "h": 240}
    bins = histogram(stats)
    top = max((c for _, _, c in bins), default=1) or 1
    bar_w = hist["w"] / max(1, len(bins))
    hist["bars"] = [{"x": round(i * bar_w + 1, 1), "w": round(bar_w - 2, 1),
                     "h": round(hist["h"] * c / top, 1), "y": round(hist["h"] - hist["h"] * c / top, 1),
                     "count": c, "label": f"{lo}-{hi} turns"} for i, (lo, hi, c) in enumerate(bins)]
    lo_all = bins[0][0] if bins else 0
    hi_all = bins[-1][1] if bins else 1
    span = max(1, hi_all - lo_all + 1)

    def x_of(turns):
        return round(hist["w"] * (turns - lo_all) / span, 1)
    hist["ticks"] = [{"x": x_of(lo_all + span * k // 4), "label": lo_all + span * k // 4} for k in range(5)]
    t = summary["turns_per_game"]
    hist.update(median=t["median"], median_x=x_of(t["median"]), mean=t["mean"], p95=t["p95"])

    wins = {"x": 570, "y": 70, "w": 250, "h": 240}
    seats = summary["wins_by_seat"]
    highest = max([w["ci95"][1] for w in seats] + [1.0 / max(1, len(seats))]) or 1
    scale = wins["h"] / (highest * 1.15)
    slot = wins["w"] / max(1, len(seats))
    wins["bars"] = []
    for i, w in enumerate(seats):
        h = w["share"] * scale
        wins["bars"].append({"x": round(i * slot + slot * 0.15, 1), "w": round(slot * 0.7, 1),
                             "y": round(wins["h"] - h, 1), "h": round(h, 1), "cx": round(i * slot + slot / 2, 1),
                             "lo_y": round(wins["h"] - w["ci95"][0] * scale, 1),
                             "hi_y": round(wins["h"] - w["ci95"][1] * scale, 1),
                             "seat": w["seat"], "pct": round(100 * w["share"], 1)})
    fair = 1.0 / max(1, len(seats))
    wins.update(fair=round(100 * fair, 1), fair_y=round(wins["h"] - fair * scale, 1))
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(["j2", "svg"]))
    return env.get_template("plot.svg.j2").render(width=width, height=height, title=title, subtitle=subtitle,
                                                  hist=hist, wins=wins)
