"""Scenario files that must be refused: keys given twice, alias bombs, numbers YAML misreads,
files that are not files; and `unodsl test` summing up whatever happens to one scenario."""
from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from unodsl.front import scenarios
from unodsl.front.cli import main
from unodsl.front.scenarios import ScenarioFileError, load_file, run

GOOD = ("ruleset: classic\nplayers: 2\nsetup: {hands: {p1: [R5, G2], p2: [B3]}, discard: [R1]}\n"
        "steps:\n  - p1: play R5\n")


def write(tmp_path, text, name="s.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def refusal(path) -> ScenarioFileError:
    with pytest.raises(ScenarioFileError) as err:
        for sc in load_file(path):
            run(sc)
    return err.value


@pytest.mark.parametrize("text, key, line", [
    (GOOD + "expect: {top: G2}\nexpect: {top: R5}\n", "expect", 7),
    (GOOD + "steps:\n  - p1: play G2\nexpect: {top: R5}\n", "steps", 6),
    (GOOD + "  - p2: draw\n    p2: draw\n", "p2", 7),
    ("ruleset: classic\nplayers: 2\nsetup:\n  hands: {p1: [R5], p2: [B3], p1: [G2]}\n  discard: [R1]\n", "p1", 4),
])
def test_a_key_given_twice_is_refused_with_its_place(tmp_path, text, key, line):
    err = refusal(write(tmp_path, text))
    assert err.line == line and err.col > 0
    assert f"the key `{key}` is given twice" in str(err)


def test_the_same_keys_once_each_pass(tmp_path):
    assert run(load_file(write(tmp_path, GOOD + "expect: {top: R5}\n"))[0]) == []


def test_a_merge_key_is_not_a_duplicate(tmp_path):
    text = ("ruleset: classic\nplayers: 2\nbase: &base {discard: [R1]}\n"
            "setup: {<<: *base, hands: {p1: [R5, G2], p2: [B3]}}\n")
    with pytest.raises(ScenarioFileError) as err:        # `base` is no scenario key, but it parses
        load_file(write(tmp_path, text))
    assert "unknown file key `base`" in str(err.value)


def test_a_billion_laughs_is_refused_at_once(tmp_path):
    lines = ["ruleset: classic", 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    start = time.monotonic()
    err = refusal(write(tmp_path, "\n".join(lines) + "\n"))
    assert "aliases" in str(err) and "100,000" in str(err)
    assert time.monotonic() - start < 2


def test_a_long_alias_chain_is_refused(tmp_path):
    lines = ["ruleset: classic", "a0: &a0 [x, x]"]
    lines += [f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}]" for i in range(1, 60)]
    err = refusal(write(tmp_path, "\n".join(lines) + "\n"))
    assert "aliases" in str(err)


def test_a_few_aliases_are_fine(tmp_path):
    text = ("ruleset: classic\nplayers: 2\nscenarios:\n"
            "  - name: one\n    setup: &s {hands: {p1: [R5, G2], p2: [B3]}, discard: [R1]}\n"
            "    steps: [{p1: play R5}]\n    expect: {top: R5}\n"
            "  - name: two\n    setup: *s\n    steps: [{p1: play R5}]\n    expect: {turn: p2}\n")
    assert [run(sc) for sc in load_file(write(tmp_path, text))] == [[], []]


def test_a_card_code_yaml_reads_as_a_number_gets_a_hint(tmp_path):
    err = refusal(write(tmp_path, "ruleset: classic\nplayers: 2\n"
                                  "setup: {hands: {p1: [R5], p2: [+3]}, discard: [R1]}\n"))
    assert "YAML reads `+3` as a number" in str(err) and "'+3'" in err.hint
    assert err.line == 3
    err = refusal(write(tmp_path, "ruleset: classic\nplayers: 2\nsetup: {hands: {p1: [R5]}, starter: 0x1F}\n"))
    assert "`0x1F`" in str(err) and "quotes" in err.hint


def test_a_number_past_pythons_digit_limit_is_refused_with_its_place(tmp_path):
    err = refusal(write(tmp_path, "ruleset: classic\nseed: " + "7" * 5000 + "\n"))
    assert err.line == 2 and "5,000 digits" in str(err)


def test_what_is_not_a_regular_file_is_refused_by_name(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    assert "a pipe" in str(refusal(fifo))
    assert "a directory" in str(refusal(tmp_path))
    assert "a device" in str(refusal("/dev/zero"))


def test_a_huge_scenario_file_is_refused_without_reading_it_all(tmp_path):
    big = tmp_path / "big.yaml"
    with open(big, "wb") as fh:
        fh.truncate(50_000_000)           # sparse: costs no disk, reads as zero bytes
    assert "larger than a scenario file may be" in str(refusal(big))


@pytest.mark.parametrize("ruleset", ["/dev/zero", "FIFO", "DIR"])
def test_a_ruleset_that_is_not_a_file_is_refused(tmp_path, ruleset):
    target = {"/dev/zero": "/dev/zero", "FIFO": str(tmp_path / "rules.uno"), "DIR": str(tmp_path)}[ruleset]
    if ruleset == "FIFO":
        os.mkfifo(target)
    err = refusal(write(tmp_path, f"ruleset: {target}\nplayers: 2\nsetup: {{discard: [R1]}}\n", "t.yaml"))
    assert "not a rules file" in str(err)


# ---- unodsl test: every scenario runs, the summary always comes ------------------------------------

def test_an_internal_error_in_one_scenario_does_not_stop_the_run(tmp_path, monkeypatch, capsys):
    write(tmp_path, GOOD + "expect: {top: R5}\n", "a.yaml")
    write(tmp_path, GOOD.replace("R5, G2", "R5, G2, G3") + "expect: {top: R5}\n", "b.yaml")
    write(tmp_path, GOOD + "expect: {top: R5}\n", "c.yaml")
    real = scenarios.run

    def flaky(sc):
        if sc.path.name == "b.yaml":
            raise IndexError("list index out of range")
        return real(sc)
    monkeypatch.setattr(scenarios, "run", flaky)
    code = main(["test", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 70
    assert "internal error: IndexError" in out and "UNODSL_DEBUG=1" in out and "b.yaml" in out
    assert out.strip().endswith("2 passed, 1 failed")


def test_a_folder_without_scenarios_says_so(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("hello", encoding="utf-8")
    assert main(["test", str(tmp_path)]) == 1
    assert "no scenario files" in capsys.readouterr().out


def test_test_reports_broken_files_and_still_sums_up(tmp_path):
    write(tmp_path, GOOD + "expect: {top: R5}\nexpect: {top: R5}\n", "dup.yaml")
    write(tmp_path, GOOD + "expect: {top: R5}\n", "ok.yaml")
    res = subprocess.run([sys.executable, "-m", "unodsl", "test", str(tmp_path)], capture_output=True, text=True)
    assert res.returncode == 2
    assert "dup.yaml:7:1: the key `expect` is given twice" in res.stdout
    assert res.stdout.strip().endswith("1 passed, 0 failed")
