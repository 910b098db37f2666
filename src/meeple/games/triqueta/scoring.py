"""Triqueta end scoring: animals by count, the starting rock, tree tiles, and the T7 choice of
what to do with face-down tokens."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from meeple.games.triqueta.components import NUM_ANIMALS, VALUES

#: Points for the starting rock and for each tree tile.
ROCK_POINTS = 1
TREE_POINTS = 1
#: Exactly this many of one animal is a triqueta, worth the animal's printed value.
TRIQUETA = 3


def animal_points(count: int, value: int) -> int:
    """0 -> 0, 1 -> 1, 2 -> 2, exactly 3 (a triqueta) -> the printed value, more -> -1 each."""
    if count < TRIQUETA:
        return count
    if count == TRIQUETA:
        return value
    return TRIQUETA - count


def collection_points(counts: Sequence[int]) -> int:
    return sum(animal_points(counts[a], VALUES[a]) for a in range(NUM_ANIMALS))


def seat_points(counts: Sequence[int], has_rock: bool, trees: int) -> int:
    """A seat's score: its collection, the starting rock and its tree tiles."""
    return collection_points(counts) + (ROCK_POINTS if has_rock else 0) + TREE_POINTS * trees


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


def with_face_down(counts: Sequence[int], face_down: Sequence[int]) -> list[int]:
    """`counts` with the face-down tokens T7 would add."""
    trial = list(counts)
    for index in best_face_down_choice(counts, face_down):
        trial[face_down[index]] += 1
    return trial
