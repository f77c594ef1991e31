"""A seat bot's turn written into the simulator's generated loop, from tables the bot hands over.

The basic bot (engine.bots.BasicBot) weighs each play of a turn by numbers that are fixed for a
ruleset and table size: per card, how hard it is to play later, its points, and what it measurably
does to every hand (engine.probe). Asking it through its `choose` costs a list of actions, a
decision and a method call per turn; written out here, the turn reads the same numbers from
tables (`PlayTables`) and computes the same scores, in the same order of floating-point
operations, so it picks the very play `choose` picks (tests/test_codegen.py plays both).
Nothing here names a card or a rule: the tables say what the cards do.
"""
from __future__ import annotations

from typing import NamedTuple


class PlayTables(NamedTuple):
    """What a bot weighs a turn's play by, per card id, for one ruleset and table size."""
    name: str                 # the tables' name, the bot's (the generated loop is cached per ruleset, size and name)
    fit: tuple                # how hard the card is to play later, weighed
    points: tuple             # its points, as a share of the most a card carries
    changes: tuple            # per card: the measured change of each place's hand, or None
    bluffs: dict              # card id -> the same when played against the rules' honesty test
    flows: tuple              # per card: None, or per place it names, (spread, offset) or None:
                              # where its play sends each place's cards (engine.bots.flowed)
    call: str | None          # the call said with every play a choice was made for, or None
    threat: float             # an opponent's cards count up to this much more as it nears going out
    w_effect: float           # weights: what the play does to the hands, its points, what can follow it
    w_points: float
    w_follow: float
    out_of_turn: tuple        # (measured, harms): what it weighs actions out of turn by (`weigh_action`)


def hands_value(seat: int, order: list, teams, sizes: list, threat: float) -> float:
    """How good hand sizes are for the seat's side, in cards (BasicBot._value, the same sums;
    `k if k > 0 else 0.0` is the value `max(0.0, k)` gives, without the call)."""
    team = teams[seat]
    mine, theirs, count = 0.0, 0.0, 0
    for s in order:
        k = sizes[s]
        weighted = k * (1.0 + threat / (1.0 + (k if k > 0 else 0.0)))
        if teams[s] == team:
            mine -= weighted if s == seat else 0.5 * weighted
        else:
            theirs += weighted
            count += 1
    return mine + theirs / count if count else mine


def card_colors(rules) -> tuple:
    """Per card, the colors a play of it (in turn or out of it) names: those its effect offers
    when it asks for one, else only None (Game._plays, Windows._card_colors)."""
    return tuple(p.color_options if p is not None and p.asks_color else (None,) for p in rules.on_play)


def bind_tables(ns: dict, tables: PlayTables, rules) -> None:
    """Put the tables the written turn reads into the generated module's names."""
    ns.update(PLAY_COLORS=card_colors(rules),
              B_FIT=tables.fit, B_POINTS=tables.points, B_CHANGES=tables.changes, B_BLUFFS=tables.bluffs,
              B_FLOWS=tables.flows,
              B_CALL=tables.call, B_THREAT=tables.threat, B_EFFECT=tables.w_effect,
              B_WPOINTS=tables.w_points, B_WFOLLOW=tables.w_follow, hands_value=hands_value)


def flow_sums(players: int, fixed: bool, ind: int) -> list:
    """Lines setting `after`, the hand sizes after a play whose flow by place is `spread`,
    `offset` (engine.bots.flowed: place j holds offset[j] plus, over places i, spread[i][j]
    times what place i held, its player's card gone), the same sums in the same order: each
    place's sum written out in one line while all `players` seats are in play (always, where the
    table is `fixed`), else as loops over the places."""
    before = ", ".join(f"b{i}" for i in range(players))
    terms = "".join(f" + spread[{i}][j] * b{i}" for i in range(players))
    every = [(ind, f"{before} = [sizes[t] for t in order]"),
             (ind, "b0 -= 1"),
             (ind, "after = list(sizes)"),
             (ind, "for j, t in enumerate(order):"),
             (ind + 1, f"after[t] = offset[j]{terms}")]
    if fixed:
        return every
    return [(ind, f"if len(order) == {players}:"), *[(i + 1, t) for i, t in every],
            (ind, "else:"),
            (ind + 1, "before = [sizes[t] for t in order]"),
            (ind + 1, "before[0] -= 1"),
            (ind + 1, "after = list(sizes)"),
            (ind + 1, "for j, t in enumerate(order):"),
            (ind + 2, "x = offset[j]"),
            (ind + 2, "for i, b in enumerate(before):"),
            (ind + 3, "x += spread[i][j] * b"),
            (ind + 2, "after[t] = x")]


def bot_functions(rules, draw_always: bool | None, renege: tuple, order: str, flows: bool, plays: str,
                  players: int, fixed: bool) -> tuple:
    """The written turn: `bot_turn(g, s, cards)`, the bot's play among the distinct playable
    `cards` of seat `s`'s turn, as (action, call); and `bot_best(g, s, variants)`, the play it
    weighs most among a decision's plays (a turn's, or a drawn card's). `flows`: whether some
    card's play is weighed by where it sends the hands' cards (B_FLOWS, engine.bots.flowed),
    for the place of the player it names. `draw_always`: whether the turn also offers a draw
    when something can be played (the renege rule fixed to yes or no; None: asked each time, as
    the (lines, test) of `renege` write its condition). A turn that offers one action only takes
    it, and says no call, as `choose` does. `order`: the expression of the order of play from
    seat `s` (LoopWriter.order_from).
    `plays`: the call listing the plays of card `c` whose play names a player (Game._plays).
    `players`: the table size; `fixed`: whether every seat always plays in its own place."""
    if draw_always is True:
        single = []
    else:
        single = [(1, "if len(variants) == 1:")]
        if draw_always is False:
            single += [(2, "return variants[0], None")]
        else:
            lines, test = renege
            single += [*lines, (2, f"if not {test}:"), (3, "return variants[0], None")]
    if rules.match_static:
        follow = [(2, "ok = MEMO.get((card, color))"),
                  (2, "if ok is None:"), (3, "ok = rules.playable_set(card, color)"),
                  (2, "k = sum(map(ok.__contains__, hand))"),
                  (2, "if card in ok:"), (3, "k -= 1")]
    else:
        follow = [(2, "k = sum(1 for c in hand if T_color[c] == color)"),
                  (2, "if T_color[card] == color:"), (3, "k -= 1")]
    turn = [
        (0, "def bot_turn(g, s, cards):"),
        (1, "plays = PLAYS[s]"),
        (1, "variants = []"),
        (1, "for c in cards:"),
        (2, "v = plays[c]"),
        (2, f"variants += v if v is not None else {plays}"),
        *single,
        (1, "return bot_best(g, s, variants), B_CALL"),
    ]
    # The value of the hand sizes as they stand and with one card fewer for the seat, and the
    # nearest opponent's closeness to going out, in one pass: hands_value's sums, term by term.
    weights = [
        (1, "hands = g.hands"),
        (1, "sizes = [len(h) for h in hands]"),
        (1, f"order = {order}"),
        (1, "teams = g.teams"),
        (1, "team = teams[s]"),
        (1, "mine = shed = theirs = 0.0"),
        (1, "count = 0"),
        (1, "fewest = None"),
        (1, "for t in order:"),
        (2, "k = sizes[t]"),
        (2, "weighted = k * (1.0 + B_THREAT / (1.0 + (k if k > 0 else 0.0)))"),
        (2, "if teams[t] == team:"),
        (3, "if t == s:"),
        (4, "mine -= weighted"),
        (4, "k -= 1"),
        (4, "shed -= k * (1.0 + B_THREAT / (1.0 + (k if k > 0 else 0.0)))"),
        (3, "else:"),
        (4, "mine -= 0.5 * weighted"),
        (4, "shed -= 0.5 * weighted"),
        (2, "else:"),
        (3, "theirs += weighted"),
        (3, "count += 1"),
        (3, "if fewest is None or k < fewest:"), (4, "fewest = k"),
        (1, "if count:"),
        (2, "base = mine + theirs / count"),
        (2, "plain = B_EFFECT * (shed + theirs / count - base)"),
        (2, "near = 1.0 / (1.0 + fewest)"),
        (1, "else:"),
        (2, "base = mine"),
        (2, "plain = B_EFFECT * (shed - base)"),
        (2, "near = 0.0"),
    ]
    # a play weighed by its flow, for the place of the player it names (engine.bots.flowed's sums)
    flowed = [
        (2, "flow = B_FLOWS[card]"),
        (2, "at = (None if flow is None else flow[0] if a.target is None else"
            " flow[order.index(a.target)] if a.target in order else None)"),
        (2, "if at is not None:"),
        (3, "key = (card, a.target)"),
        (3, "score = weighed.get(key)"),
        (3, "if score is None:"),
        (4, "spread, offset = at"),
        *flow_sums(players, fixed, 4),
        (4, "score = weighed[key] = B_FIT[card] + pw * B_POINTS[card] + B_EFFECT * ("
            "hands_value(s, order, teams, after, B_THREAT) - base)"),
        (2, "else:"),
    ]
    # a play weighed by what its card measurably does to each place's hand (or a bluff of it)
    weighed = [
        (2, "score = weighed.get(card)"),
        (2, "if score is None:"),
        (3, "test = rules.honest[card]"),
        (3, "cards_moved = (B_BLUFFS[card] if card in B_BLUFFS and test is not None and"
            " not test(Ctx(g, player=s, card=card, actor=s)) else B_CHANGES[card])"),
        (3, "score = B_FIT[card] + pw * B_POINTS[card]"),
        (3, "if cards_moved is None:"),
        (4, "score += plain"),
        (3, "else:"),
        (4, "after = list(sizes)"),
        (4, "for place, t in enumerate(order):"),
        (5, "after[t] += cards_moved[place]"),
        (4, "after[order[0]] -= 1"),
        (4, "score += B_EFFECT * (hands_value(s, order, teams, after, B_THREAT) - base)"),
        (3, "weighed[card] = score"),
    ]
    best = [
        (0, "def bot_best(g, s, variants):"),
        (1, "if len(variants) == 1:"), (2, "return variants[0]"),
        *weights,
        (1, "pw = B_WPOINTS * (0.5 + near)"),
        (1, "fw = B_WFOLLOW / max(1, sizes[s])"),
        (1, "hand = hands[s]"),
        (1, "best = best_score = None"),
        (1, "weighed = {}"),
        (1, "for a in variants:"),
        (2, "card = a.card"),
        *(flowed if flows else []),
        *[(ind + bool(flows), text) for ind, text in weighed],
        (2, "color = a.color"),
        (2, "if color is None:"),
        (3, "color = T_color[card]"),
        *follow,
        (2, "score += fw * k"),
        (2, "if best_score is None or score > best_score:"),
        (3, "best, best_score = a, score"),
        (1, "return best"),
    ]
    return turn, best


def weigh_action(writer, verb: str, own: bool, played: bool, ind: int) -> list:
    """Lines setting `value`, what seat t's action out of turn `verb` (on itself or not, with a
    card played or not) measurably does for its side, as BasicBot._action_value weighs it, the
    same sums in the same order (hands_value for BasicBot._value, the sums of engine.bots._applied);
    none where it was never measured (its value is then -inf: it is never taken). `sizes`,
    `order`, `teams` and `base` are bound; the action is on seat `s` when not on itself."""
    measured, harms = writer.tables.out_of_turn
    found = measured.get((verb, own))
    if found is None:
        return []
    window, cards, on_subject = found
    table = writer.const(tuple(cards), "B_CARDS")
    L = [(ind, "after = list(sizes)")]
    if own or on_subject is None:
        L += [(ind, "for place, x in enumerate(order):"), (ind + 1, f"after[x] += {table}[place]"),
              *([(ind, "after[order[0]] -= 1")] if played else [])]
    else:
        L += [(ind, f"after[t] += {table}[0] - {int(played)}"), (ind, f"after[s] += {on_subject!r}")]
    L += [(ind, "value = hands_value(t, order, teams, after, B_THREAT) - base")]
    if own:         # closing its own window also avoids what the others could do to it there
        L += [(ind, "worst = 0.0"),
              (ind, f"for mean in {writer.const(tuple(harms[window]), 'B_HARMS')}:"),
              (ind + 1, "after = list(sizes)"),
              (ind + 1, "after[t] += mean"),
              (ind + 1, "worst = max(worst, base - hands_value(t, order, teams, after, B_THREAT))"),
              (ind, "value += worst")]
    return L
