"""The components: the 56 tiles (M1) and the table of which oriented tile fits which corner pattern.

Tile t shows NUMS[t] = (a, b, c), a <= b <= c, clockwise. Placed with rotation r, corner k of
the cell (corners clockwise, see geometry) shows NUMS[t][(k + r) % 3]. Turning the tile keeps the
clockwise order, so a mirror image (say 0-2-1 clockwise) never appears (M1: tiles never flip).
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

from meeple.core.errors import RecordError

NUM_TILES = 56

#: NUMS[t]: the numbers of tile t, ascending clockwise (M1).
NUMS: tuple[tuple[int, int, int], ...] = tuple(combinations_with_replacement(range(6), 3))
SUM: tuple[int, ...] = tuple(sum(n) for n in NUMS)
NAME: tuple[str, ...] = tuple("-".join(map(str, n)) for n in NUMS)
INDEX: dict[str, int] = {name: t for t, name in enumerate(NAME)}
#: Rotations giving different pictures: a triple (a-a-a) looks the same in all three.
ROTATIONS: tuple[tuple[int, ...], ...] = tuple((0,) if n[0] == n[2] else (0, 1, 2) for n in NUMS)

assert len(NUMS) == NUM_TILES


def tile_named(name: Any, what: str) -> int:
    """The tile written `name` (as in NAME) from a record, else a RecordError naming `what`."""
    if type(name) is not str or name not in INDEX:
        raise RecordError(f"{what}: no tile {name!r} (tiles are written a-b-c with 0 <= a <= b <= c <= 5)")
    return INDEX[name]


def shown(t: int, r: int) -> tuple[int, int, int]:
    """The numbers at the cell's corners 0, 1, 2 for tile t in rotation r."""
    n = NUMS[t]
    return n[r % 3], n[(r + 1) % 3], n[(r + 2) % 3]


def pattern(v0: int, v1: int, v2: int) -> int:
    """Code of a corner pattern; each v is the required number + 1, or 0 for a free corner."""
    return v0 * 49 + v1 * 7 + v2


def _fit_table() -> list[tuple[tuple[int, int], ...]]:
    table: list[tuple[tuple[int, int], ...]] = []
    for code in range(343):
        need = (code // 49 - 1, code // 7 % 7 - 1, code % 7 - 1)
        fits = []
        for t in range(NUM_TILES):
            for r in ROTATIONS[t]:
                got = shown(t, r)
                if all(w < 0 or w == g for w, g in zip(need, got)):
                    fits.append((t, r))
        table.append(tuple(fits))
    return table


#: FIT[pattern]: every (tile, rotation) whose corners agree with the pattern (M2).
FIT: list[tuple[tuple[int, int], ...]] = _fit_table()


def parse(name: str) -> int:
    """Tile index from "a-b-c" in any rotation of the clockwise order; ValueError otherwise."""
    parts = str(name).split("-")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        raise ValueError(f"a tile is written a-b-c, not {name!r}")
    nums = tuple(int(p) for p in parts)
    for r in range(3):
        rotated = nums[r:] + nums[:r]
        if rotated in INDEX_BY_NUMS:
            return INDEX_BY_NUMS[rotated]
    raise ValueError(f"no tile {name!r} (tiles read a <= b <= c clockwise, numbers 0-5)")


INDEX_BY_NUMS: dict[tuple[int, int, int], int] = {n: t for t, n in enumerate(NUMS)}
