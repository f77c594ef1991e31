"""The balance report: the figures designers and the game-evaluation literature read off a game.

Measured over many games with bots (`figures`), each with a 95% interval:

- first-player advantage: how often the seat that takes the first turn wins the game, against
  the fair share 1/n;
- the gap between seats: the largest difference between two seats' win shares;
- game length and its spread: turns per game (mean, standard deviation, 5th, 50th and 95th
  percentiles);
- lead changes: within a round, how often the player holding the fewest cards changes;
- decisiveness: how many cards the closest rival still holds when a round is won (a close
  finish leaves it one), and how far the winner is ahead in points at the end of a game;
- skill against luck: one skilled bot against random players, seats rotated: its win rate, and
  (win rate - 1/n) / (1 - 1/n), 0 when skill makes no difference and 1 when it always wins;
- for each house rule in force (each module added with `--with`, each option set with `--set`):
  the same games without it, and the differences with their intervals (an ablation).

Lead changes and decisiveness follow Browne's measures of drama and decisiveness that Ludii
reports; first-player advantage, the gap between seats and skill against random play are
CardStock's. Game i gets the same seed with and without a rule, so the ablation's difference of
length is paired game by game. `sheet_lines` says the figures in plain English for a rule
sheet, and `render_svg` draws them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from ..compile.ruleset import Ruleset
from .simulate import chunks, game_seed, play_game
from .statistics import wilson
from .tournament import GamesJob
from .workers import run_jobs

TEMPLATES = Path(__file__).resolve().parent / "templates"
Z = 1.96                  # the normal quantile of the 95% intervals


@dataclass
class Record:
    """What one game showed."""
    turns: int
    first: int                 # the seat that took the first turn
    winners: tuple
    lead_changes: int
    rival_cards: list          # per round won: the closest rival's cards at that moment
    margin: float | None       # the winner's lead in points over the next seat, per point it holds


class _Watch:
    """Follows one game action by action (play_game's `watch`)."""

    def __init__(self):
        self.first = None
        self.leader = None
        self.changes = 0
        self.round_seen = 0
        self.rival_cards: list = []

    def __call__(self, game, seat: int) -> None:
        if self.first is None:
            self.first = seat
        if game.round_over:
            if game.round != self.round_seen:
                self.round_seen = game.round
                self.leader = None
                if game.winner is not None:
                    team = game.teams[game.winner]
                    rivals = [len(h) for s, h in enumerate(game.hands)
                              if game.teams[s] != team and not game.inactive[s]]
                    if rivals:
                        self.rival_cards.append(min(rivals))
            return
        low, holder = None, None
        for s, hand in enumerate(game.hands):
            if game.inactive[s]:
                continue
            k = len(hand)
            if low is None or k < low:
                low, holder = k, s
            elif k == low:
                holder = None                # a tie: nobody leads alone
        if holder is not None:
            if self.leader is not None and holder != self.leader:
                self.changes += 1
            self.leader = holder


def play_recorded(rules: Ruleset, players: int, seed: int, bots) -> Record:
    watch = _Watch()
    game = play_game(rules, players, seed, bots, record=False, watch=watch)
    margin = None
    if game.game_over and game.game_winners:
        best = game.scores[game.game_winners[0]]
        others = [game.scores[s] for s in range(game.n) if s not in game.game_winners]
        if others:
            nearest = min(others, key=lambda v: abs(v - best))
            margin = abs(best - nearest) / max(1.0, abs(best))
    return Record(game.turns, watch.first if watch.first is not None else 0, tuple(game.game_winners),
                  watch.changes, watch.rival_cards, margin)


def run_balance_job(job: GamesJob) -> list:
    from ..compile.loader import load
    rules = load(job.ref, job.with_, dict(job.options))
    return play_many(rules, job.players, list(job.bots), job.count, job.seed, job.first)


def play_many(rules: Ruleset, players: int, bots: list, games: int, seed: int, first: int = 0,
              rotate: bool = False, progress=None) -> list:
    """Records of games first .. first+games-1; with `rotate`, game i moves the bots i seats on."""
    out = []
    for i in range(first, first + games):
        seats = [bots[(s - i) % len(bots)] for s in range(players)] if rotate else bots
        out.append(play_recorded(rules, players, game_seed(seed, i), seats))
        if progress is not None:
            progress(1)
    return out


def play_parallel(ref: str, with_, options: dict, players: int, bots: list, games: int, seed: int,
                  jobs: int, progress=None) -> list:
    work = [GamesJob(ref, tuple(with_), tuple(sorted(options.items())), players, tuple(bots), seed, None, first, count)
            for first, count in chunks(games, jobs)]
    parts = {}

    def got(job, result) -> None:
        parts[job.first] = result
        if progress is not None:
            progress(job.count)
    run_jobs(run_balance_job, work, jobs, got, label=lambda job: f"games {job.first + 1} to {job.first + job.count}")
    return [r for first in sorted(parts) for r in parts[first]]


# -- the figures ------------------------------------------------------------------------------

def _share(hits: float, n: int) -> dict:
    p = hits / n if n else 0.0
    lo, hi = wilson(p, n)
    return {"value": round(p, 4), "ci95": [round(lo, 4), round(hi, 4)]}


def _mean(values: list) -> dict:
    n = len(values)
    if not n:
        return {"value": None, "ci95": [None, None]}
    m = sum(values) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = Z * sd / math.sqrt(n)
    return {"value": round(m, 3), "ci95": [round(m - half, 3), round(m + half, 3)], "sd": round(sd, 3)}


def _percentile(values: list, q: float):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def _win_share(record: Record, seat: int) -> float:
    return 1.0 / len(record.winners) if seat in record.winners else 0.0


def summarize(records: list, players: int) -> dict:
    """The figures of a set of games played by the same bots."""
    n = len(records)
    fair = 1.0 / players
    first_wins = sum(_win_share(r, r.first) for r in records)
    seats = [sum(_win_share(r, s) for r in records) for s in range(players)]
    shares = [_share(w, n) for w in seats]
    hi = max(range(players), key=lambda s: seats[s])
    lo = min(range(players), key=lambda s: seats[s])
    gap = (seats[hi] - seats[lo]) / n if n else 0.0
    p_hi, p_lo = seats[hi] / n if n else 0, seats[lo] / n if n else 0
    gap_half = Z * math.sqrt((p_hi * (1 - p_hi) + p_lo * (1 - p_lo)) / n) if n else 0.0
    turns = [r.turns for r in records]
    rivals = [c for r in records for c in r.rival_cards]
    margins = [r.margin for r in records if r.margin is not None]
    first = _share(first_wins, n)
    first["fair"] = round(fair, 4)
    return {
        "games": n,
        "first_player": first,
        "seats": [{"seat": f"p{s + 1}", **shares[s]} for s in range(players)],
        "seat_gap": {"value": round(gap, 4), "ci95": [round(max(0.0, gap - gap_half), 4), round(gap + gap_half, 4)],
                     "best": f"p{hi + 1}", "worst": f"p{lo + 1}"},
        "length": {**_mean(turns), "p5": _percentile(turns, 0.05), "median": _percentile(turns, 0.5),
                   "p95": _percentile(turns, 0.95)},
        "lead_changes": _mean([r.lead_changes for r in records]),
        "rival_cards": _mean(rivals),
        "close_finishes": _share(sum(1 for c in rivals if c <= 1), len(rivals)),
        "margin": _mean(margins),
        "stalemates": sum(1 for r in records if not r.winners),
    }


def skill(records: list, players: int, strong: str, strong_seat_of) -> dict:
    """The skilled bot's win rate against random players, and how much skill decides."""
    n = len(records)
    wins = sum(_win_share(r, strong_seat_of(i)) for i, r in enumerate(records))
    share = _share(wins, n)
    fair = 1.0 / players
    scale = 1.0 - fair

    def of(p):
        return round((p - fair) / scale, 4)
    return {"bot": strong, "win_rate": share, "fair": round(fair, 4),
            "skill": {"value": of(share["value"]), "ci95": [of(share["ci95"][0]), of(share["ci95"][1])]}}


def paired_difference(a: list, b: list) -> dict:
    """B - A of the mean game length, paired game by game (the same seeds)."""
    diffs = [y.turns - x.turns for x, y in zip(a, b)]
    m = _mean(diffs)
    return {"a": round(sum(x.turns for x in a) / max(1, len(a)), 2),
            "b": round(sum(y.turns for y in b) / max(1, len(b)), 2), "difference": m["value"], "ci95": m["ci95"]}


def difference(a: dict, b: dict) -> dict:
    """B - A of two shares or means, with the interval of the difference (independent samples)."""
    va, vb = a["value"], b["value"]
    if va is None or vb is None:
        return {"a": va, "b": vb, "difference": None, "ci95": [None, None]}
    ha = (a["ci95"][1] - a["ci95"][0]) / 2
    hb = (b["ci95"][1] - b["ci95"][0]) / 2
    half = math.sqrt(ha * ha + hb * hb)
    d = vb - va
    return {"a": va, "b": vb, "difference": round(d, 4), "ci95": [round(d - half, 4), round(d + half, 4)]}


def figures(ref, with_=(), options=None, players: int = 4, games: int = 500, seed: int = 0, bots: str = "basic",
            strong: str = "basic", jobs: int = 1, ablate: bool = True, progress=None) -> dict:
    """Every figure of the balance report, as a dict (what `unodsl balance --format json`
    prints, and what a rule sheet can show: see `sheet_lines`). `ref` is a bundled ruleset or a
    file, `with_` and `options` the house rules in force, `bots` the bot every seat plays,
    `strong` the skilled bot set against random players."""
    from ..compile.loader import load
    options = dict(options or {})
    with_ = list(with_)
    rules = load(ref, tuple(with_), options)
    low, high = rules.players
    if not low <= players <= high:
        raise ValueError(f"{rules.title} is for {low} to {high} players, not {players}")

    def run(mods, opts, lineup, rotate=False):
        if jobs > 1 and not rotate:
            return play_parallel(ref, mods, opts, players, lineup, games, seed, jobs, progress)
        return play_many(load(ref, tuple(mods), opts), players, lineup, games, seed, rotate=rotate, progress=progress)

    main = run(with_, options, [bots] * players)
    report = {"ruleset": ref, "title": rules.title, "with": with_, "options": options, "players": players,
              "bots": bots, "seed": seed, **summarize(main, players)}
    lineup = [strong] + ["random"] * (players - 1)
    versus = run(with_, options, lineup, rotate=True)
    report["skill"] = skill(versus, players, strong, lambda i: i % players)
    report["ablations"] = []
    if ablate:
        rules_in_force = [("module", m) for m in with_] + [("option", o) for o in options]
        base = report
        for kind, name in rules_in_force:
            mods = [m for m in with_ if not (kind == "module" and m == name)]
            opts = {k: v for k, v in options.items() if not (kind == "option" and k == name)}
            other = run(mods, opts, [bots] * players)
            figs = summarize(other, players)
            report["ablations"].append({
                "without": name, "kind": kind,
                "length": paired_difference(main, other),
                "first_player": difference(base["first_player"], figs["first_player"]),
                "seat_gap": difference(base["seat_gap"], figs["seat_gap"]),
                "lead_changes": difference(base["lead_changes"], figs["lead_changes"]),
                "rival_cards": difference(base["rival_cards"], figs["rival_cards"]),
            })
    return report


# -- saying and drawing it ----------------------------------------------------------------------

def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def sheet_lines(report: dict) -> list:
    """The figures as plain sentences for a rule sheet, one per line."""
    n, players = report["games"], report["players"]
    fp, gap, length = report["first_player"], report["seat_gap"], report["length"]
    sk = report["skill"]
    lines = [
        f"Measured over {n} games of {players} players with {report['bots']} bots (95% intervals in brackets).",
        f"A game lasts {length['value']:.0f} turns on average; one in twenty is shorter than {length['p5']} "
        f"turns, and one in twenty longer than {length['p95']}.",
        f"The player who starts wins {_pct(fp['value'])} of games [{_pct(fp['ci95'][0])} to {_pct(fp['ci95'][1])}]; "
        f"a fair share is {_pct(fp['fair'])}.",
        f"The luckiest seat ({gap['best']}) wins {_pct(gap['value'])} more often than the unluckiest ({gap['worst']}) "
        f"[{_pct(gap['ci95'][0])} to {_pct(gap['ci95'][1])}].",
        f"The lead (the fewest cards) changes hands {report['lead_changes']['value']} times a game.",
    ]
    if report["rival_cards"]["value"] is not None:
        lines.append(f"When a round is won the closest rival still holds {report['rival_cards']['value']} cards; "
                     f"{_pct(report['close_finishes']['value'])} of rounds end with a rival down to one card.")
    lines.append(f"A {sk['bot']} player against random players wins {_pct(sk['win_rate']['value'])} "
                 f"(fair share {_pct(sk['fair'])}): skill decides {_pct(sk['skill']['value'])} of the gap "
                 f"[{_pct(sk['skill']['ci95'][0])} to {_pct(sk['skill']['ci95'][1])}].")
    for ab in report["ablations"]:
        d = ab["length"]
        lines.append(f"Without {ab['without']}, games last {d['b']:.0f} turns instead of {d['a']:.0f} "
                     f"({d['difference']:+.1f} [{d['ci95'][0]:+.1f} to {d['ci95'][1]:+.1f}]); the starting player "
                     f"wins {_pct(ab['first_player']['b'])} instead of {_pct(ab['first_player']['a'])}.")
    return lines


def format_table(report: dict, seconds: float) -> str:
    fp, gap, length, sk = report["first_player"], report["seat_gap"], report["length"], report["skill"]

    def ci(f, pct=True):
        lo, hi = f["ci95"]
        if lo is None:
            return ""
        return f"(95% CI {_pct(lo)} .. {_pct(hi)})" if pct else f"(95% CI {lo:.1f} .. {hi:.1f})"
    mods = f" + {', '.join(report['with'])}" if report["with"] else ""
    lines = [f"{report['title']}{mods}: {report['players']} players, {report['games']} games, "
             f"{report['bots']} bots, seed {report['seed']}",
             f"  first player wins     {_pct(fp['value']):>7}  {ci(fp)}, fair {_pct(fp['fair'])}",
             f"  gap between seats     {_pct(gap['value']):>7}  {ci(gap)}, {gap['best']} best, {gap['worst']} worst",
             f"  turns per game        {length['value']:>7.1f}  {ci(length, pct=False)}, sd {length['sd']:.1f}, "
             f"p5 {length['p5']}, median {length['median']}, p95 {length['p95']}",
             f"  lead changes / game   {report['lead_changes']['value']:>7.1f}  {ci(report['lead_changes'], pct=False)}"]
    if report["rival_cards"]["value"] is not None:
        lines.append(f"  rival's cards at end  {report['rival_cards']['value']:>7.1f}  {ci(report['rival_cards'], pct=False)}, "
                     f"close finishes {_pct(report['close_finishes']['value'])}")
    if report["margin"]["value"] is not None:
        lines.append(f"  winner's margin       {_pct(report['margin']['value']):>7}  {ci(report['margin'])} of its points")
    lines.append(f"  skill ({sk['bot']} vs random)  {_pct(sk['win_rate']['value'])} wins {ci(sk['win_rate'])}, "
                 f"skill {_pct(sk['skill']['value'])} {ci(sk['skill'])}")
    for ab in report["ablations"]:
        d = ab["length"]
        f = ab["first_player"]
        lines.append(f"  without {ab['without']}: turns {d['b']} (B-A {d['difference']:+.1f}, 95% CI "
                     f"{d['ci95'][0]:+.1f} .. {d['ci95'][1]:+.1f}); first player {_pct(f['b'])} "
                     f"(B-A {100 * f['difference']:+.1f} points, 95% CI {100 * f['ci95'][0]:+.1f} .. {100 * f['ci95'][1]:+.1f})")
    if report["stalemates"]:
        lines.append(f"  games nobody won      {report['stalemates']}")
    lines.append(f"  time                  {seconds:.1f} s")
    return "\n".join(lines)


def render_svg(report: dict) -> str:
    """The report as one SVG picture: win share by seat and of the first player against the fair
    share, skill against luck, and each ablation's change of game length."""
    width = 860
    bars = []
    fair = report["first_player"]["fair"]
    rows = [("first player", report["first_player"])] + [(s["seat"], s) for s in report["seats"]] + \
        [(f"{report['skill']['bot']} vs random", report["skill"]["win_rate"])]
    top = max([r["ci95"][1] for _, r in rows] + [fair]) * 1.1 or 1
    for i, (label, r) in enumerate(rows):
        bars.append({"y": 70 + i * 26, "label": label, "w": round(360 * r["value"] / top, 1),
                     "lo": round(360 * r["ci95"][0] / top, 1), "hi": round(360 * r["ci95"][1] / top, 1),
                     "pct": _pct(r["value"])})
    ablations = []
    spans = [abs(v) for ab in report["ablations"] for v in ab["length"]["ci95"] if v is not None] or [1]
    span = max(spans) * 1.1 or 1
    for i, ab in enumerate(report["ablations"]):
        d = ab["length"]
        ablations.append({"y": 70 + i * 26, "label": f"without {ab['without']}",
                          "x0": round(130 * min(0, d["difference"]) / span, 1),
                          "w": round(130 * abs(d["difference"]) / span, 1),
                          "lo": round(130 * d["ci95"][0] / span, 1), "hi": round(130 * d["ci95"][1] / span, 1),
                          "text": f"{d['difference']:+.1f} turns"})
    height = 110 + 26 * max(len(rows), len(ablations), 1)
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(["j2", "svg"]))
    mods = f" + {', '.join(report['with'])}" if report["with"] else ""
    return env.get_template("balance.svg.j2").render(
        width=width, height=height, title=f"{report['title']}{mods}: balance",
        subtitle=f"{report['players']} players, {report['games']} games, {report['bots']} bots; bars: win share, "
                 f"whiskers: 95% intervals, dashed: a fair share",
        bars=bars, fair_x=round(360 * fair / top, 1), ablations=ablations,
        length=report["length"], lead=report["lead_changes"]["value"], skill=report["skill"])
