"""Triqueta end scoring: animals by count, the starting rock, tree tiles, and the T7 choice of
what to do with face-down tokens."""

from __future__ import annotations

from itertools import combinations
from typing import Sequence

from .components import ANIMALS, VALUES


def animal_points(count: int, value: int) -> int:
    """0 -> 0, 1 -> 1, 2 -> 2, exactly 3 (a triqueta) -> the printed value, more -> -1 each."""
    if count <= 2:
        return count
    if count == 3:
        return value
    return 3 - count


def collection_points(counts: Sequence[int]) -> int:
    return sum(animal_points(counts[a], VALUES[a]) for a in range(len(ANIMALS)))


def best_face_down_choice(counts: Sequence[int], face_down: Sequence[int]) -> tuple[int, ...]:
    """T7: the subset of face-down tokens to add that maximises (score, number of tokens).

    Returned as indices into `face_down`; on a full tie the first subset found (in order of
    size, then position) wins, so the choice is deterministic.
    """
    best_key: tuple[int, int] | None = None
    best: tuple[int, ...] = ()
    for size in range(len(face_down) + 1):
        for chosen in combinations(range(len(face_down)), size):
            trial = list(counts)
            for index in chosen:
                trial[face_down[index]] += 1
            key = (collection_points(trial), sum(trial))
            if best_key is None or key > best_key:
                best_key, best = key, chosen
    return best
