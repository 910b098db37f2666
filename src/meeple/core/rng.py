"""Seeded randomness that is identical on every machine and cheap to copy.

The engines need a generator whose whole state is one integer: it serializes into a state's
JSON, clones for free, and does not depend on the Python version's `random` internals.
SplitMix64 is small, fast enough in CPython, and statistically fine for shuffles.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_TWO64 = 1 << 64
_MASK = _TWO64 - 1
_GAMMA = 0x9E3779B97F4A7C15


class Rng:
    """SplitMix64 generator. `state` is the full state (a 64-bit int)."""

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

    def clone(self) -> Rng:
        return Rng(self.state)


def seed_from(value: int | str | None) -> int:
    """Turn a user seed (int, numeric string, or None for entropy) into a 64-bit seed."""
    if value is None:
        import secrets

        return secrets.randbits(63)
    if isinstance(value, str):
        value = int(value)
    return value & _MASK
