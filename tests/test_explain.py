"""`unodsl explain CODE`: the catalogue entry of a code, read from docs/diagnostics.md."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from unodsl.lang import catalogue

ROOT = Path(__file__).resolve().parent.parent


def explain(*args):
    return subprocess.run([sys.executable, "-m", "unodsl", "explain", *args], capture_output=True, text=True)


def test_every_code_of_the_table_has_an_entry_with_an_example_and_a_fix():
    table = re.findall(r"^\| \[([EW]\d{3})\]", (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8"), re.M)
    assert table and set(table) <= set(catalogue.entries())
    for entry in catalogue.entries().values():
        text = entry.as_text()
        assert text.startswith(f"{entry.code}: {entry.title}\n")
        assert "Fix." in text and "```" not in text and "**" not in text, entry.code


def test_explain_prints_meaning_example_and_fix():
    run = explain("e201")
    assert run.returncode == 0
    assert run.stdout.startswith("E201: unknown name\n")
    assert "    broken.uno:2:23: error[E201]: unknown name `nxt`" in run.stdout
    assert "Fix. Correct the spelling" in run.stdout
    assert "(language.md#names)" not in run.stdout


def test_an_unknown_code_gets_a_did_you_mean_and_exit_2():
    run = explain("E2011")
    assert run.returncode == 2 and "no diagnostic has the code `E2011`" in run.stderr
    assert "did you mean" in run.stderr and "`E201`" in run.stderr


def test_explain_without_a_code_lists_every_code():
    run = explain()
    assert run.returncode == 0
    lines = run.stdout.splitlines()
    assert len(lines) == len(catalogue.entries()) and lines[0] == "E100  unexpected character"
