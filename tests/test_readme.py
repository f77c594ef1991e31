"""The README shows what the commands print today: each `$ unodsl ...` block of its tour is run
and compared (timings masked); `python tools/readme_tour.py --write` brings them up to date."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("readme_tour", ROOT / "tools" / "readme_tour.py")
tour = importlib.util.module_from_spec(spec)
sys.modules["readme_tour"] = tour
spec.loader.exec_module(tour)
BLOCKS = tour.blocks(tour.README.read_text(encoding="utf-8").split("\n"))


def test_the_tour_has_its_commands():
    commands = [b.command.split()[1] for b in BLOCKS]
    assert {"check", "play", "simulate", "test"} <= set(commands)


@pytest.mark.slow
@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.command)
def test_each_tour_block_shows_what_its_command_prints(block):
    assert tour.masked(tour.output(block)) == tour.masked(block.shown), \
        "the README is out of date: run python tools/readme_tour.py --write"


def test_the_project_names_no_file_outside_it():
    for path in [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "examples").rglob("*.*"),
                 *(ROOT / "tests" / "scenarios").rglob("*.yaml")]:
        if path.suffix in (".md", ".uno", ".yaml"):
            text = path.read_text(encoding="utf-8")
            assert "RULES.md" not in text and "SCENARIOS.md" not in text, path
