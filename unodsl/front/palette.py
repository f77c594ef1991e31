"""How a card's color looks on a screen: an ANSI color for the terminal, a CSS color for the web.

Rules name their colors freely (`red`, `teal`, `hearts` ...). A name that is also a common color
word gets that color; any other is given one from a fixed palette by its place in the ruleset's
list, so every color of any ruleset is drawn distinctly and the same way every time. Colorless
cards are drawn in the ink's own color (black on the web, bold at the terminal).
"""
from __future__ import annotations

import os
import re

# While a line is built, a color is marked with private-use characters; `Ink.finish` turns the
# marks into ANSI codes once the line's texts from rules files have been made printable, so that
# no escape sequence from a rules file ever reaches the terminal, and the session's own do.
_START, _END, _RESET = "\ue000", "\ue001", "\ue002"
MARK = re.compile(f"{_START}[0-9;]*{_END}|{_RESET}")

# common color words -> (ANSI SGR code, CSS color): what a person expects each word to look like
_NAMED = {
    "red": ("91", "#d7263d"), "yellow": ("93", "#f2b705"), "green": ("92", "#2a9d3f"),
    "blue": ("94", "#1f6fd1"), "orange": ("38;5;208", "#f07c12"), "purple": ("95", "#7b3fb5"),
    "violet": ("95", "#7b3fb5"), "pink": ("38;5;205", "#e0559b"), "teal": ("96", "#11999e"),
    "cyan": ("96", "#11a8c9"), "magenta": ("95", "#c0369d"), "brown": ("38;5;130", "#8a5a2b"),
    "black": ("97", "#222222"), "white": ("37", "#8a8a8a"), "gray": ("37", "#6c757d"),
    "grey": ("37", "#6c757d"), "gold": ("33", "#c9a227"), "silver": ("37", "#8d99ae"),
}
_SPARE = (("91", "#d7263d"), ("93", "#f2b705"), ("92", "#2a9d3f"), ("94", "#1f6fd1"),
          ("95", "#7b3fb5"), ("96", "#11999e"), ("38;5;208", "#f07c12"), ("38;5;205", "#e0559b"))
COLORLESS_CSS = "#1d1d1f"


def _entry(rules, color):
    if color is None:
        return None
    named = _NAMED.get(str(color).lower())
    if named is not None:
        return named
    colors = list(rules.colors)
    place = colors.index(color) if color in colors else len(colors)
    return _SPARE[place % len(_SPARE)]


def css_color(rules, color) -> str:
    """The CSS color a card of this color (None: colorless) is drawn in."""
    entry = _entry(rules, color)
    return COLORLESS_CSS if entry is None else entry[1]


def terminal_colors(stream) -> bool:
    """Whether to color what is written to `stream`: only a terminal, and never under NO_COLOR
    (https://no-color.org) or TERM=dumb."""
    if os.environ.get("NO_COLOR", "") != "" or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:
        return False


class Ink:
    """Paints card and color names for a terminal; does nothing when colors are off."""

    def __init__(self, rules, on: bool):
        self.rules, self.on = rules, on

    def _paint(self, color, text: str) -> str:
        if not self.on:
            return text
        entry = _entry(self.rules, color)
        code = "1" if entry is None else entry[0]
        return f"{_START}{code}{_END}{text}{_RESET}"

    def finish(self, line: str) -> str:
        """A line ready for the terminal: the color marks made ANSI codes (or dropped)."""
        if self.on:
            return line.replace(_START, "\x1b[").replace(_END, "m").replace(_RESET, "\x1b[0m")
        return MARK.sub("", line)

    def card(self, card: int, text: str) -> str:
        return self._paint(self.rules.cards.color[card], text)

    def color(self, color, text: str) -> str:
        return self._paint(color, text)

    def bold(self, text: str) -> str:
        return self._paint(None, text)
