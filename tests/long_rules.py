"""Rules files with a card rule long enough for the native writer to write it as a function of
its own (native.writer's OUTLINE_LINES), for the tests of that writing and of its games."""
from __future__ import annotations

# every other player draws, one card or two by the size of their hand: six statements, far past
# the lines a rule is kept inline under
OTHERS_DRAW = "\n".join(f"    for each o in others {{ if o.cards < {k} {{ o draws 1 }} else {{ o draws 2 }} }}"
                        for k in range(3, 9))


def write_rules(tmp_path, name: str, body: str) -> str:
    """A ruleset `name` extending classic with `body`, written in `tmp_path`; its path."""
    path = tmp_path / f"{name}.uno"
    path.write_text(f'ruleset {name} "{name.title()}" extends classic {{\n{body}}}\n', encoding="utf-8")
    return str(path)


def runs_each_acting(tmp_path) -> str:
    """Runs of number cards of one color, each higher than the card before and acting as it lands,
    and a 6 whose long rule makes the others draw. (Rising runs keep the runs a hand holds few: with
    any order of one color, the Python engine listed up to 200 runs from each card a turn, and one
    game took half a minute.)"""
    return write_rules(tmp_path, "runs", '  play runs where card.color == top.color and card.kind == number'
                                         ' and top.kind == number and card.rank > top.rank, each card acts\n'
                                         f'  on play number 6 "The others draw." {{\n{OTHERS_DRAW}\n  }}\n')
