"""unodsl: write UNO-family card games as rules files; check, play, test, simulate and print them.

The public API:

    from unodsl import load, Game, Action
    rules = load("classic", with_=["progressive"], options={"uno_penalty": 4})
    game = Game(rules, players=4, seed=1)
    game.decision            # who must act, and what kind of answer
    game.legal_actions()     # every action that seat may take
    game.apply(action)       # or raises Refused, changing nothing
    game.view(seat)          # what one seat may see
"""
__version__ = "0.1.0"

from .compile.decisions import Action, Decision, Refused  # noqa: E402
from .compile.loader import load  # noqa: E402
from .lang.diagnostics import RulesError  # noqa: E402

__all__ = ["Action", "Decision", "Game", "Position", "Refused", "RulesError", "load", "__version__"]


def __getattr__(name: str):
    """`Game` and `Position` load the engine (and its code generator) on first use, so that a
    command that only checks rules files starts without them."""
    if name in ("Game", "Position"):
        from . import engine
        return getattr(engine, name)
    raise AttributeError(f"module 'unodsl' has no attribute {name!r}")
