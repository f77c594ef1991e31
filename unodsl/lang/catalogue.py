"""The catalogue of diagnostic codes: docs/diagnostics.md, read as data.

Each code has a section `## CODE — title` with its meaning, an example that produces it and the
fix. `unodsl explain CODE` prints one as plain text for a terminal, the way `rustc --explain`
does; the docs stay the one place where the catalogue is written.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .diagnostics import suggest
from .resources import doc_text

_HEADING = re.compile(r"^## ([EW]\d{3}) — (.+)$")


@dataclass(frozen=True)
class Entry:
    code: str
    title: str
    markdown: str           # the section's text, without its heading

    def as_text(self) -> str:
        """The entry for a terminal: code blocks indented, links and emphasis as plain words."""
        out, in_code = [f"{self.code}: {self.title}", ""], False
        for line in self.markdown.strip("\n").split("\n"):
            if line.startswith("```"):
                in_code = not in_code
                continue
            if in_code:
                out.append(("    " + line).rstrip())
                continue
            line = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", line)
            line = re.sub(r"(`{2,3}) (.+?) \1", r"\2", line)          # ``` `x` ``` quotes backticks
            out.append(re.sub(r"\*\*([^*]+)\*\*", r"\1", line))
        return "\n".join(_squeeze(out)) + "\n"


@lru_cache(maxsize=1)
def entries() -> dict[str, Entry]:
    """Every documented code, in the order of the page."""
    found: dict[str, Entry] = {}
    code = title = None
    body: list[str] = []
    for line in doc_text("diagnostics.md").split("\n") + ["## end"]:
        if line.startswith("## "):
            if code is not None:
                found[code] = Entry(code, title, "\n".join(body))
            m = _HEADING.match(line)
            code, title = (m.group(1), m.group(2)) if m else (None, None)
            body = []
        elif code is not None:
            body.append(line)
    return found


def lookup(code: str) -> Entry | None:
    return entries().get(code.strip().upper())


def did_you_mean(code: str) -> str:
    """A hint for a code that is not in the catalogue."""
    wanted = code.strip().upper()
    return suggest(wanted, entries(), limit=3) or "`unodsl explain` lists every code"


def _squeeze(lines: list[str]) -> list[str]:
    """No two blank lines in a row (a removed code fence leaves one behind)."""
    out: list[str] = []
    for line in lines:
        if not line.strip() and out and not out[-1].strip():
            continue
        out.append(line)
    return out
