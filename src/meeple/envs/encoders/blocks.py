"""A bounded cache of the blocks encoders join into an observation.

An observation changes in a few places per step; an encoder that splits its vector into blocks,
each computed once per distinct content, pays a few dictionary look-ups per step instead of a
write per value.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BlockCache(Generic[K, V]):
    """A dict of blocks by key, emptied when it reaches `limit` entries (so memory stays bounded
    whatever a long run visits). For blocks whose maker needs more than the key (the state the
    key was read from), where `functools.lru_cache` cannot be used."""

    __slots__ = ("_blocks", "_limit")

    def __init__(self, limit: int) -> None:
        self._blocks: dict[K, V] = {}
        self._limit = limit

    def get(self, key: K, make: Callable[[], V]) -> V:
        block = self._blocks.get(key)
        if block is None:
            if len(self._blocks) >= self._limit:
                self._blocks.clear()
            block = self._blocks[key] = make()
        return block

    def find(self, key: K) -> V | None:
        """The block cached under `key`, or None (nothing is made)."""
        return self._blocks.get(key)

    def __len__(self) -> int:
        return len(self._blocks)
