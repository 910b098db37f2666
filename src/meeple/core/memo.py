"""Caches bounded by memory, for pure functions that searches ask the same questions many times.

A process that plays many games (an arena worker, a server's bot worker) must not grow without
bound, and a count of entries says little about bytes when entries differ in size. A `Memo`
keeps two generations of entries: lookups read the young one, then the old one (an old hit is
moved to the young one); when the young generation reaches its share of the byte budget, the old
one is dropped and the young one becomes old. That is LRU-like (what was used since the last
turnover survives it) at the cost of two dict lookups, with no bookkeeping on a hit. Entry sizes
are measured (a deep `sys.getsizeof` of a sample of entries), so the budget is in bytes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable
from functools import wraps
from typing import Any, Generic, ParamSpec, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
P = ParamSpec("P")
R = TypeVar("R")

MB = 1 << 20
#: Every this many inserts, one entry's size is measured to keep the mean entry size current.
SAMPLE_EVERY = 64
MISSING: Any = object()


def deep_size(value: object, seen: set[int] | None = None) -> int:
    """Bytes of `value` and the containers and plain values it holds, each counted once. Any
    other object (a game's components, a tile) is shared: an entry refers to it, it does not own
    it, so only the reference counts (already in its container's size)."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return 0
    seen.add(id(value))
    if isinstance(value, dict):
        return sys.getsizeof(value) + sum(deep_size(k, seen) + deep_size(v, seen) for k, v in value.items())
    if isinstance(value, tuple | list | set | frozenset):
        return sys.getsizeof(value) + sum(deep_size(item, seen) for item in value)
    if isinstance(value, str | bytes | int | float | bool) or value is None:
        return sys.getsizeof(value)
    return 0


class Memo(Generic[K, V]):
    """A cache of at most about `max_bytes` (keys and values), in two generations."""

    __slots__ = ("name", "max_bytes", "young", "old", "inserts", "measured", "measured_bytes", "limit")

    def __init__(self, name: str, max_bytes: int) -> None:
        self.name = name
        self.max_bytes = max_bytes
        self.young: dict[K, V] = {}
        self.old: dict[K, V] = {}
        self.inserts = 0
        self.measured = 0
        self.measured_bytes = 0
        self.limit = 1 << 30  # entries per generation; set by the first measurement

    def get(self, key: K, default: Any = MISSING) -> Any:
        """The cached value, or `default` (MISSING) when there is none."""
        value = self.young.get(key, MISSING)
        if value is MISSING:
            value = self.old.get(key, MISSING)
            if value is MISSING:
                return default
            self.young[key] = value
        return value

    def put(self, key: K, value: V) -> V:
        if len(self.young) >= self.limit:
            self.old = self.young
            self.young = {}
        self.young[key] = value
        if self.inserts % SAMPLE_EVERY == 0:
            self._measure(key, value)
        self.inserts += 1
        return value

    def _measure(self, key: K, value: V) -> None:
        # A dict slot costs about 3 words beyond the key and value objects themselves.
        self.measured_bytes += deep_size((key, value)) + 24
        self.measured += 1
        per_entry = self.measured_bytes / self.measured
        self.limit = max(16, int(self.max_bytes / 2 / per_entry))

    def __len__(self) -> int:
        return len(self.young) + len(self.old)

    def clear(self) -> None:
        self.young, self.old = {}, {}


def memoize(max_bytes: int) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """`functools.lru_cache` bounded by memory instead of entry count (positional, hashable
    arguments only). The wrapped function's `memo` is its `Memo`."""

    def decorate(function: Callable[P, R]) -> Callable[P, R]:
        memo: Memo[Any, R] = Memo(function.__qualname__, max_bytes)

        @wraps(function)
        def cached(*args: P.args, **kwargs: P.kwargs) -> R:
            if kwargs:  # keys are the positional arguments; a keyword call is not cached
                return function(*args, **kwargs)
            try:  # the hot path: a hit in the young generation, one dict lookup
                return memo.young[args]
            except KeyError:
                pass
            value = memo.old.get(args, MISSING)
            return memo.put(args, function(*args, **kwargs) if value is MISSING else value)

        cached.memo = memo  # type: ignore[attr-defined]
        return cached

    return decorate
