"""examples/learning/train.py: a short run writes a valid curve and picture, and the policy only
ever picks what the action mask allows. Whether it learns is measured by the README's figure
(docs/learning-curve.svg), not here: that takes minutes."""
from __future__ import annotations

import csv
import importlib
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gymnasium")
from gymnasium.wrappers import TimeLimit  # noqa: E402

HERE = Path(__file__).resolve().parent.parent / "examples" / "learning"
sys.path.insert(0, str(HERE))
train = importlib.import_module("train")
SVG = "{http://www.w3.org/2000/svg}"


def test_a_short_run_writes_its_curve_and_picture(tmp_path, capsys):
    out, plot = tmp_path / "curve.csv", tmp_path / "curve.svg"
    code = train.main(["--episodes", "12", "--eval-every", "5", "--eval-games", "6", "--seed", "3",
                       "--out", str(out), "--plot", str(plot)])
    assert code == 0
    printed = capsys.readouterr().out
    assert "Before training, the greedy policy won" in printed
    assert "After 10 training rounds" in printed and "After 12 training rounds" in printed

    with open(out, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["episodes"]) for r in rows] == [0, 5, 10, 12]
    for r in rows:
        games, wins = int(r["games"]), int(r["wins"])
        assert games == 6 and 0 <= wins <= games
        assert float(r["win_rate"]) == pytest.approx(wins / games, abs=1e-4)
        assert 0 <= float(r["low"]) <= float(r["win_rate"]) <= float(r["high"]) <= 1

    root = ET.parse(plot).getroot()
    assert root.tag == SVG + "svg"
    texts = [t.text for t in root.iter(SVG + "text")]
    assert {"0%", "50%", "100%"} <= set(texts)
    assert "training rounds played" in texts
    assert len(root.findall(SVG + "circle")) == len(rows)          # one dot per evaluation
    assert root.find(SVG + "polygon") is not None                   # the interval band
    dashed = [line for line in root.iter(SVG + "line") if line.get("stroke-dasharray")]
    across = [line for line in dashed if float(line.get("x2")) - float(line.get("x1")) > 300]
    assert len(across) == 1 and across[0].get("y1") == across[0].get("y2")   # the 50% line


class MaskChecked(train.SingleSeatEnv):
    """The environment, asserting that every action it is given is one its mask allowed."""

    def reset(self, **kw):
        observation, info = super().reset(**kw)
        self.allowed = observation["action_mask"]
        return observation, info

    def step(self, action):
        assert self.allowed[action] == 1, f"action {action} is not allowed by the mask"
        self.checked = getattr(self, "checked", 0) + 1
        observation, *rest = super().step(action)
        self.allowed = observation["action_mask"]
        return (observation, *rest)


def test_the_policy_only_picks_actions_the_mask_allows():
    checked = MaskChecked("classic", 2, seat=0, opponents="random", episode="round")
    env = TimeLimit(checked, train.MAX_DECISIONS)
    policy = train.Policy(env, np.random.default_rng(5))
    policy.weights = np.random.default_rng(6).normal(0, 3, policy.weights.shape)  # strong, arbitrary
    ties = np.random.default_rng(7)
    for seed in range(6):
        train.play_episode(env, policy, seed=seed)                   # sampling, as in training
        train.play_episode(env, policy, seed=seed, greedy_rng=ties)  # greedy, as in evaluation
    assert checked.checked > 50


@pytest.mark.parametrize("argv", [["--episodes", "0"], ["--plot", "curve.png"],
                                  ["--episodes", "5", "--minutes", "1"], ["--eval-games", "many"],
                                  ["--out", "no/such/folder/curve.csv"]])
def test_bad_arguments_are_refused_before_training(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        train.main(argv)
    assert stop.value.code == 2
    assert "Before training" not in capsys.readouterr().out
