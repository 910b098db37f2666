"""Triqueta's components, from the rulebook's component list."""

from __future__ import annotations

#: Animal types in rulebook order; an animal token is its index here.
ANIMALS: tuple[str, ...] = ("rabbit", "owl", "deer", "boar", "ram", "bear")
NUM_ANIMALS = len(ANIMALS)
#: Printed triqueta value of each animal type (rabbit 5 ... bear 10).
VALUES: tuple[int, ...] = (5, 6, 7, 8, 9, 10)
TOKENS_PER_ANIMAL = 10
NUM_TOKENS = NUM_ANIMALS * TOKENS_PER_ANIMAL
#: 60 tokens shuffled into 4 towers of 15 (T2); one round per tower.
TOWERS = 4
TOKENS_PER_TOWER = 15
#: T3: a tree tile comes with every tower but the first.
TREE_TILES = TOWERS - 1
#: T4: at most two tokens kept face down over the whole game.
MAX_FACE_DOWN = 2
#: One row marker per player, five in the box.
MAX_PLAYERS = 5

assert TOWERS * TOKENS_PER_TOWER == NUM_TOKENS


def all_tokens() -> list[int]:
    """The box: every animal token, in animal order."""
    return [animal for animal in range(NUM_ANIMALS) for _ in range(TOKENS_PER_ANIMAL)]
