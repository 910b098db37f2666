"""Seeded randomness that is identical on every machine and cheap to copy.

The engines need a generator whose whole state is one integer: it serializes into a state's
JSON, clones for free, and does not depend on the Python version's `random` internals.
SplitMix64 is small and statistically fine for shuffles.

`Rng` is the compiled twin in `meeple.core._rng` (a C extension, built by `pip install` where a
compiler is present) or, where it is not built or `MEEPLE_PURE=1` is set, `PureRng` below. Both
give the same draws for the same state (tests/core/test_rng_twins.py), so games, searches and
records do not depend on which one runs. `RNG_KIND` says which.
"""

from __future__ import annotations

import os
from collections.abc import MutableSequence, Sequence
from typing import TYPE_CHECKING, TypeVar

T = TypeVar("T")

_TWO64 = 1 << 64
_MASK = _TWO64 - 1
_GAMMA = 0x9E3779B97F4A7C15


class PureRng:
    """SplitMix64 generator in pure Python. `state` is the full state (a 64-bit int)."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        self.state = s = (self.state + _GAMMA) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = _TWO64 - (_TWO64 % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def random(self) -> float:
        """Uniform float in [0, 1)."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place. The same draws as `below(i + 1)` for i from the top down,
        with the generator step inlined: searches shuffle a hidden pool every iteration."""
        s = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _TWO64 - (_TWO64 % n)
            while True:
                s = (s + _GAMMA) & _MASK
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self.state = s

    def clone(self) -> PureRng:
        return PureRng(self.state)


def _compiled() -> type[PureRng] | None:
    """The C generator, unless it is not built or the pure one is asked for."""
    if os.environ.get("MEEPLE_PURE", "") not in ("", "0"):
        return None
    try:
        from meeple.core._rng import Rng as CompiledRng
    except ImportError:
        return None
    return CompiledRng  # the same interface (its stub says so; the twin tests check it)


if TYPE_CHECKING:
    Rng = PureRng
else:
    Rng = _compiled() or PureRng
#: "compiled" or "pure": which generator this process runs (bench reports say it).
RNG_KIND = "pure" if Rng is PureRng else "compiled"


def seed_from(value: int | str | None) -> int:
    """Turn a user seed (int, numeric string, or None for entropy) into a 64-bit seed."""
    if value is None:
        import secrets

        return secrets.randbits(63)
    if isinstance(value, str):
        value = int(value)
    return value & _MASK
