#!/usr/bin/env python3
"""The README's tour, checked against the commands themselves, or written from them.

Every block of the README that starts with `$ unodsl ...` shows a command and what it prints.
An HTML comment just before the block may say how to run it:

    <!-- tour: input "play R9\\nhint\\n"; first 18 lines; file w4.yaml from the yaml block above -->

- `input "..."`: what is typed at the command's prompt (its standard input);
- `first N lines`: the block shows only the beginning of the output;
- `file NAME from the yaml block above`: the command reads a file that the README shows just
  before, in a ```yaml block.

Figures that change from run to run (seconds and games per second) are masked when comparing, and
kept as the README has them when writing (they are measured on a quiet machine).

usage: python tools/readme_tour.py          # check: exit 1 and a diff if any output differs
       python tools/readme_tour.py --write  # rewrite the README's blocks with today's outputs
"""
from __future__ import annotations

import difflib
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
COMMENT = re.compile(r"<!-- tour: (.*?) -->\s*$")
VARYING = re.compile(r"\d+\.\d+ s \(\d+ games/s\)")


@dataclass
class Block:
    start: int            # index of the "$ unodsl" line
    end: int              # index of the closing fence
    command: str
    shown: list
    stdin: str = ""
    first: int | None = None
    file: tuple | None = None    # (name, text)


def blocks(lines: list) -> list[Block]:
    found = []
    for i, line in enumerate(lines):
        if line.startswith("$ unodsl ") and i and lines[i - 1].startswith("```"):
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            block = Block(i, end, line[2:], lines[i + 1:end])
            spec = COMMENT.match(lines[i - 2]) if i >= 2 else None
            if spec:
                for part in (p.strip() for p in spec.group(1).split(";")):
                    if part.startswith("input "):
                        block.stdin = part[len("input "):].strip('"').encode().decode("unicode_escape")
                    elif part.startswith("first "):
                        block.first = int(part.split()[1])
                    elif part.startswith("file "):
                        block.file = (part.split()[1], _yaml_above(lines, i))
            found.append(block)
    return found


def _yaml_above(lines: list, i: int) -> str:
    end = max(j for j in range(i) if lines[j] == "```" and j < i - 2)
    start = max(j for j in range(end) if lines[j] == "```yaml")
    return "\n".join(lines[start + 1:end]) + "\n"


def output(block: Block) -> list:
    """What the command prints today (standard output, then standard error), as README lines."""
    with tempfile.TemporaryDirectory() as tmp:
        cwd = ROOT
        if block.file is not None:
            cwd = Path(tmp)
            (cwd / block.file[0]).write_text(block.file[1], encoding="utf-8")
        args = block.command.split()[1:]
        args = [str(ROOT / a) if (ROOT / a).exists() and block.file is None and "/" in a else a for a in args]
        env = {**os.environ, "COLUMNS": "100", "PYTHONPATH": str(ROOT)}
        res = subprocess.run([sys.executable, "-m", "unodsl", *args], input=block.stdin, capture_output=True,
                             text=True, cwd=cwd, env=env, timeout=600)
    text = (res.stdout + res.stderr).replace(str(ROOT) + "/", "")
    lines = text.rstrip("\n").split("\n")
    return lines[:block.first] if block.first else lines


def masked(lines: list) -> list:
    return [VARYING.sub("<time>", line) for line in lines]


def main(argv: list) -> int:
    write = "--write" in argv
    lines = README.read_text(encoding="utf-8").split("\n")
    differs = 0
    for block in reversed(blocks(lines)):
        got = output(block)
        if masked(got) != masked(block.shown):
            differs += 1
            if write:                  # a timing the README shows stays as measured on a quiet machine
                kept = {VARYING.sub("<time>", old): old for old in block.shown if VARYING.search(old)}
                lines[block.start + 1:block.end] = [kept.get(VARYING.sub("<time>", new), new) for new in got]
            else:
                print(f"README line {block.start + 1}: `{block.command}` prints something else now:")
                sys.stdout.writelines(difflib.unified_diff([s + "\n" for s in block.shown], [s + "\n" for s in got],
                                                           "README", "today"))
    if write:
        README.write_text("\n".join(lines), encoding="utf-8")
        print(f"{differs} block(s) rewritten")
        return 0
    return 1 if differs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
