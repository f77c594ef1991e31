"""Train one seat of classic UNO, two players, to beat the random bot, with NumPy only.

The learner is a linear softmax policy over the observation vector of `SingleSeatEnv`, restricted
to the actions its mask allows, trained by REINFORCE with a learned linear baseline: after each
episode, every decision's log-probability is pushed up or down by how much better the episode's
result (+1 won, -1 lost, discounted by 1% a decision so that a quick win counts for more) was
than the baseline expected from that position. An episode is one round (the first hand of a
game: whoever sheds their cards first wins it), not a game to 500 points, so that the reward
comes every few dozen decisions; a round not over after 1,000 of the learner's decisions is cut
off and counts as not won.

Every `--eval-every` episodes the greedy policy (its most likely legal action; ties broken at
random, so the untrained policy plays uniformly at random) plays `--eval-games` rounds against
the random bot on the same deals each time, and the win rate is printed with its 95% Wilson
interval. `--out` writes that curve as CSV, `--plot` draws it as SVG (curve.py).

    python examples/learning/train.py --out curve.csv --plot docs/learning-curve.svg
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from gymnasium.wrappers import TimeLimit

from unodsl.env.gym_env import SingleSeatEnv
from unodsl.env.spaces import WIDE
from unodsl.lang.diagnostics import RulesError
from unodsl.sim.statistics import wilson

sys.path.insert(0, str(Path(__file__).resolve().parent))
from curve import write_csv, write_svg  # noqa: E402  (the module next to this script)

RULES, PLAYERS, OPPONENT = "classic", 2, "random"
DEFAULT_EPISODES = 1000
# A result counts for less the more decisions it is away: without this, a policy that always
# wins (it catches every forgotten UNO) learns that any move is good, drawing for ever included.
DISCOUNT = 0.99
# A round the learner drags out past this many decisions is cut off, as a round not won.
MAX_DECISIONS = 1000


def make_env(options=None) -> TimeLimit:
    """The learner's environment: seat p1 against the random bot, one round per episode."""
    return TimeLimit(SingleSeatEnv(RULES, PLAYERS, seat=0, opponents=OPPONENT, episode="round",
                                   options=options), MAX_DECISIONS)


class Policy:
    """Logits W @ x over the legal actions; a value estimate v @ x for the baseline.

    x is the observation scaled into about 0..1 (each field by its bound, unbounded ones by 100),
    with a constant 1 appended so that each action has a bias of its own."""

    def __init__(self, env, rng: np.random.Generator):
        high = env.observation_space["observation"].high.astype(np.float64)
        self.scale = np.where(high >= WIDE, 100.0, np.maximum(high, 1.0))
        features = len(high) + 1
        self.weights = np.zeros((env.action_space.n, features))
        self.value = np.zeros(features)
        self.rng = rng

    def features(self, observation: np.ndarray) -> np.ndarray:
        return np.append(observation / self.scale, 1.0)

    def probabilities(self, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """The policy's distribution over the legal actions (in the order of `legal`)."""
        logits = self.weights[legal] @ x
        p = np.exp(logits - logits.max())
        return p / p.sum()

    def sample(self, x: np.ndarray, legal: np.ndarray) -> tuple[int, np.ndarray]:
        """(position in `legal` of the sampled action, the distribution it was drawn from)."""
        p = self.probabilities(x, legal)
        return int(self.rng.choice(len(legal), p=p)), p

    def greedy(self, x: np.ndarray, legal: np.ndarray, rng: np.random.Generator) -> int:
        """The position in `legal` of the most likely action, ties broken at random."""
        logits = self.weights[legal] @ x
        best = np.flatnonzero(logits >= logits.max() - 1e-12)
        return int(best[rng.integers(len(best))])

    def learn(self, steps: list, result: float, rate: float) -> None:
        """REINFORCE with a baseline: each step's log-probability, times (return - baseline), where
        a step's return is the result discounted by the decisions still to come."""
        returns = result * DISCOUNT ** np.arange(len(steps) - 1, -1, -1)
        for (x, legal, p, chosen), ret in zip(steps, returns):
            advantage = ret - self.value @ x
            push = -p
            push[chosen] += 1.0
            self.weights[legal] += rate * advantage * np.outer(push, x)
            self.value += rate * advantage * x


@dataclass
class Point:
    """One evaluation: after `episodes` training episodes, `wins` of `games` won."""
    episodes: int
    seconds: float
    games: int
    wins: int

    @property
    def rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.rate, self.games)


def legal_of(observation: dict) -> np.ndarray:
    return np.flatnonzero(observation["action_mask"])


def play_episode(env, policy: Policy, seed=None, greedy_rng=None):
    """Play one round; returns (reward, the steps taken for learning). With `greedy_rng` the
    policy plays greedily. A forbidden action raises: the mask is the policy's support."""
    observation, _ = env.reset(seed=seed)
    steps, done, reward = [], False, 0.0
    while not done:
        legal = legal_of(observation)
        x = policy.features(observation["observation"])
        if greedy_rng is not None:
            chosen = policy.greedy(x, legal, greedy_rng)
        else:
            chosen, p = policy.sample(x, legal)
            steps.append((x, legal, p, chosen))
        observation, reward, terminated, truncated, info = env.step(int(legal[chosen]))
        if info.get("illegal"):
            raise AssertionError(f"the policy chose action {legal[chosen]}, which the mask forbids")
        done = terminated or truncated
    return reward, steps


def evaluate(env, policy: Policy, games: int, seed: int) -> int:
    """Rounds won by the greedy policy over `games` fixed deals (the same at every evaluation)."""
    ties = np.random.default_rng(seed)
    return sum(play_episode(env, policy, seed=seed + i, greedy_rng=ties)[0] > 0 for i in range(games))


def percent(share: float) -> str:
    """A share as a percentage to a tenth (so that an interval's end near 50% says which side)."""
    return f"{100 * share:.1f}%"


def describe(point: Point) -> str:
    low, high = point.interval
    trained = ("Before training" if point.episodes == 0 else
               f"After {point.episodes:,} training rounds ({point.seconds:.0f} s)")
    return (f"{trained}, the greedy policy won {point.wins:,} of {point.games:,} rounds against the "
            f"random bot: {percent(point.rate)} (95% interval {percent(low)} to {percent(high)}).")


def train(episodes: int | None, minutes: float | None, seed: int, eval_every: int, eval_games: int,
          rate: float, options=None, say=print) -> tuple[list[Point], Policy]:
    """Train until `episodes` episodes or `minutes` minutes, evaluating every `eval_every`."""
    env, judge = make_env(options), make_env(options)
    policy = Policy(env, np.random.default_rng(seed))
    eval_seed = seed * 1_000_003 + 7
    start = time.monotonic()
    deadline = None if minutes is None else start + 60 * minutes
    curve = [Point(0, 0.0, eval_games, evaluate(judge, policy, eval_games, eval_seed))]
    say(describe(curve[0]))
    env.reset(seed=seed)
    done = 0
    while (episodes is None or done < episodes) and (deadline is None or time.monotonic() < deadline):
        result, steps = play_episode(env, policy)
        policy.learn(steps, result, rate)
        done += 1
        if done % eval_every == 0 or done == episodes:
            point = Point(done, time.monotonic() - start, eval_games,
                          evaluate(judge, policy, eval_games, eval_seed))
            curve.append(point)
            say(describe(point))
    if curve[-1].episodes != done:
        curve.append(Point(done, time.monotonic() - start, eval_games,
                           evaluate(judge, policy, eval_games, eval_seed)))
        say(describe(curve[-1]))
    return curve, policy


def positive(kind):
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, not {text!r}") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"expected a number above 0, not {text}")
        return value
    return parse


def option(text: str) -> tuple[str, str]:
    name, equals, value = text.partition("=")
    if not equals or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, like uno_penalty=0, not {text!r}")
    return name.strip(), value.strip()


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="train.py", description="Train a linear policy (NumPy only) to beat the random bot "
        "at classic UNO, two players, one round per episode, and print its learning curve.")
    length = p.add_mutually_exclusive_group()
    length.add_argument("--episodes", type=positive(int), default=None,
                        help="training rounds to play (default 1000 when --minutes is not given)")
    length.add_argument("--minutes", type=positive(float), default=None,
                        help="train for this long instead (the curve then depends on the machine)")
    p.add_argument("--seed", type=int, default=1, help="the seed of the whole run (default 1)")
    p.add_argument("--eval-every", type=positive(int), default=25, metavar="N",
                   help="evaluate the greedy policy every N training rounds (default 25)")
    p.add_argument("--eval-games", type=positive(int), default=500, metavar="M",
                   help="rounds per evaluation against the random bot (default 500)")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", type=option,
                   help="set an option of classic, as `unodsl play --set` does, e.g. uno_penalty=0 "
                   "(repeatable)")
    p.add_argument("--rate", type=positive(float), default=0.01, help="the learning rate (default 0.01)")
    p.add_argument("--out", type=Path, metavar="FILE.csv", help="write the learning curve as CSV")
    p.add_argument("--plot", type=Path, metavar="FILE.svg", help="draw the learning curve as SVG")
    return p


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    if args.plot is not None and args.plot.suffix.lower() != ".svg":
        parser().error(f"--plot writes an SVG picture: name it FILE.svg, not {args.plot}")
    for path in (args.out, args.plot):
        if path is not None and not path.parent.is_dir():
            parser().error(f"cannot write {path}: there is no folder {path.parent}")
    options = dict(args.set)
    try:
        make_env(options)
    except RulesError as error:
        parser().error(f"--set: {error}")
    episodes = args.episodes if args.episodes is not None or args.minutes is not None else DEFAULT_EPISODES
    curve, _ = train(episodes, args.minutes, args.seed, args.eval_every, args.eval_games, args.rate, options)
    last = curve[-1]
    low, high = last.interval
    verdict = ("beats the random bot: the whole interval is above 50%" if low > 0.5 else
               "does not yet beat the random bot with confidence: the interval reaches 50% or below")
    print(f"The trained policy {verdict}.")
    try:
        if args.out is not None:
            write_csv(args.out, curve)
            print(f"Wrote the learning curve to {args.out}.")
        if args.plot is not None:
            settings = "".join(f", {name} = {value}" for name, value in options.items())
            write_svg(args.plot, curve, f"{RULES}{settings}, {PLAYERS} players, one round per episode, "
                      f"seed {args.seed}")
            print(f"Drew the learning curve in {args.plot}.")
    except OSError as error:
        print(f"train.py: cannot write {error.filename}: {error.strerror}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
