"""The native engine's random generator, written once more in plain Python.

The native engine draws every random number (the deal, each card taken from the stock, every
choice a random bot makes) from SplitMix64, a tiny generator that is exact in 64-bit integer
arithmetic, so numba and CPython compute the same stream bit for bit. `PortableRandom` is that
generator as a `random.Random`, which the Python engine accepts: a Python game given one plays the
game the native engine plays from the same seed, action for action. The tests hold the two engines
to that; nothing else needs it (the Python engine's own runs keep CPython's Mersenne Twister).

Every method the engines call is defined here, not inherited, so that the stream does not depend
on the Python version: `random()` (53 bits), `getrandbits(k)` for k <= 64, `randrange(n)` and
`shuffle` by rejection sampling as CPython 3.11 does them.
"""
from __future__ import annotations

import random

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
SEED_SALT = 0x5EED_0F_0DD5        # keeps a run's game seeds apart from the seeds of single games


def splitmix(state: int) -> tuple[int, int]:
    """(next state, output) of SplitMix64."""
    state = (state + GAMMA) & MASK
    z = state
    z = ((z ^ (z >> 30)) * MIX1) & MASK
    z = ((z ^ (z >> 27)) * MIX2) & MASK
    return state, z ^ (z >> 31)


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a native run seeded `seed` (the native engine computes the same)."""
    _, a = splitmix((seed ^ SEED_SALT) & MASK)
    _, b = splitmix((a + index) & MASK)
    return b


class PortableRandom(random.Random):
    """SplitMix64 behind the `random.Random` methods the engine uses."""

    def __init__(self, seed: int = 0):
        self.state = 0
        super().__init__(seed)

    def seed(self, a=0, version=2) -> None:      # noqa: D102 (random.Random's signature)
        self.state = int(a) & MASK

    def getstate(self):
        return self.state

    def setstate(self, state) -> None:
        self.state = state

    def next64(self) -> int:
        self.state, out = splitmix(self.state)
        return out

    def random(self) -> float:
        return (self.next64() >> 11) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k: int) -> int:
        if not 0 <= k <= 64:
            raise ValueError("PortableRandom draws at most 64 bits at once")
        return self.next64() >> (64 - k) if k else 0

    def _randbelow(self, n: int) -> int:
        k = n.bit_length()
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return r

    def randrange(self, start, stop=None, step=1):
        if stop is None and step == 1 and start > 0:
            return self._randbelow(start)
        raise ValueError("PortableRandom draws only randrange(n) with n > 0")

    def shuffle(self, x) -> None:
        for i in reversed(range(1, len(x))):
            j = self._randbelow(i + 1)
            x[i], x[j] = x[j], x[i]
