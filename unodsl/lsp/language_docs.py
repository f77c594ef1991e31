"""docs/language.md as entries a hover can show: what a keyword means, in the reference's words.

The reference documents each declaration under a heading (`### on play`) and each statement in a
paragraph that starts with its syntax in bold (`**`WHO draws until EXPR`**: ...`). An entry is
one of those with the keywords of its syntax. Which entry a hovered keyword means is decided by
the words written around it: `draws` in `next draws until it is playable` is the `draws until`
entry, not the `draws` one.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..lang.parser import keywords
from ..lang.resources import doc_text

_BOLD = re.compile(r"^\*\*`([^`]+)`\*\*(?:\s*/\s*\*\*`([^`]+)`\*\*)*")
_ALT = re.compile(r"\*\*`([^`]+)`\*\*")


@dataclass(frozen=True)
class DocEntry:
    syntax: tuple[str, ...]       # the syntax lines it documents ("WHO draws until EXPR")
    words: tuple[str, ...]        # the keywords of the first syntax, in order
    markdown: str

    def score(self, around: list[str]) -> int:
        """How well the entry fits a statement whose words are `around`: its keywords found
        there count, its keywords missing there count against it."""
        present = sum(1 for w in self.words if w in around)
        return 2 * present - len(self.words)

    def mentions(self, word: str) -> int:
        """How often the entry shows `word` as code (in backticks or a code block)."""
        code = " ".join(re.findall(r"`([^`]+)`", self.markdown))
        code += " " + " ".join(re.findall(r"```[a-z]*\n(.*?)```", self.markdown, re.S))
        return len(re.findall(r"(?<![A-Za-z0-9_-])" + re.escape(word) + r"(?![A-Za-z0-9_-])", code))


@lru_cache(maxsize=1)
def entries() -> tuple[DocEntry, ...]:
    words = keywords()
    lines = doc_text("language.md").split("\n")
    found: list[DocEntry] = []
    k = 0
    while k < len(lines):
        line = lines[k]
        heading = re.match(r"^### (.+)$", line)
        bold = _BOLD.match(line)
        if heading or bold:
            syntaxes = [heading.group(1)] if heading else _ALT.findall(line.split("**:", 1)[0] + "**")
            end = k + 1
            while end < len(lines) and not _starts_entry(lines[end]):
                end += 1
            body = "\n".join(lines[k:end]).strip()
            if heading:
                body = body[len(line):].strip()
                body = f"**{heading.group(1)}**\n\n{body}"
            syntax_words = [w for text in syntaxes for w in re.findall(r"[a-z]+", text)]
            prose = heading is not None and not syntaxes[0][:1].islower()      # "### A turn"
            kw = () if prose else tuple(dict.fromkeys(w for w in syntax_words if w in words))
            found.append(DocEntry(tuple(syntaxes), kw, _trim(body)))
            k = end
            continue
        k += 1
    return tuple(found)


def _starts_entry(line: str) -> bool:
    return line.startswith("#") or bool(_BOLD.match(line))


def _trim(markdown: str, limit: int = 1800) -> str:
    """A hover is not a page: the entry up to its first tables' end, cut at a paragraph."""
    if len(markdown) <= limit:
        return markdown
    cut = markdown.rfind("\n\n", 0, limit)
    return markdown[: cut if cut > 0 else limit].rstrip() + "\n\n(more in docs/language.md)"


def for_keyword(word: str, around: list[str], declaration: list[str] = ()) -> DocEntry | None:
    """The entry a keyword means, from the words of its statement (`around`) and of the
    declaration it is in: the entry whose syntax fits them best; else the declaration's own
    entry when it shows the word; else the entry that shows the word most."""
    candidates = [e for e in entries() if word in e.words]
    best = max(candidates, key=lambda e: (e.score(around), -len(e.words)), default=None)
    if best is not None and best.score(around) > 0:
        return best
    if declaration:
        own = for_keyword(declaration[0], declaration) if declaration[0] != word else None
        if own is not None and own.mentions(word):
            return own
    if best is not None:
        return best
    mentioned = [(e.mentions(word), bool(e.words), -n, e) for n, e in enumerate(entries()) if e.mentions(word)]
    return max(mentioned, key=lambda m: m[:3])[3] if mentioned else None


@lru_cache(maxsize=1)
def attribute_rows() -> dict[str, str]:
    """`card.color`, `player.hand` ...: the row of the attribute tables, as a sentence."""
    out: dict[str, str] = {}
    owner = None
    for line in doc_text("language.md").split("\n"):
        head = re.match(r"^\| of an? (card|player) \|", line)
        if head:
            owner = head.group(1)
            continue
        row = re.match(r"^\| `([a-z_]+)` \| ([^|]*) \| ([^|]*) \|", line)
        if owner and row:
            name, typ, note = row.group(1), row.group(2).strip(), row.group(3).strip()
            out[f"{owner}.{name}"] = f"`{owner}.{name}`: {typ}" + (f"; {note}" if note else "")
        elif not line.startswith("|"):
            owner = None
    return out
