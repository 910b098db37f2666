"""Amulets and standings (rulings C2, C12).

C2: amulet k of a player holds part type t iff count[t] > k, so everything follows from the
nine counts. C12: most complete amulets wins; ties compare the largest incomplete amulet, then
the next largest, and so on.
"""

from __future__ import annotations

from collections.abc import Sequence

from meeple.games.celtica.components import COPIES_PER_PART
from meeple.games.celtica.view_types import Amulets

#: Base of the standing value: more than the number of amulets of any one size (at most 10),
#: so sum(BASE ** size) orders players exactly as C12 does.
BASE = COPIES_PER_PART + 1


def amulet_sizes(counts: Sequence[int]) -> list[int]:
    """Sizes of every amulet, largest first (C2): amulet k holds #{t : count[t] > k} parts."""
    top = max(counts)
    return [sum(1 for c in counts if c > k) for k in range(top)]


def complete_amulets(counts: Sequence[int]) -> int:
    """Amulets holding all nine positions (C2)."""
    return min(counts)


def incomplete_sizes(counts: Sequence[int]) -> list[int]:
    """Sizes of the incomplete amulets, largest first."""
    return amulet_sizes(counts)[min(counts):]


def standing_key(counts: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """The C12 comparison key: (complete amulets, incomplete sizes padded with zeros)."""
    sizes = incomplete_sizes(counts)
    return complete_amulets(counts), tuple(sizes + [0] * (COPIES_PER_PART - len(sizes)))


def standing_value(counts: Sequence[int]) -> int:
    """One integer with the same order as `standing_key` (sum of BASE ** size per amulet)."""
    total = 0
    for k in range(max(counts)):
        total += BASE ** sum(1 for c in counts if c > k)
    return total


def ranking(all_counts: Sequence[Sequence[int]]) -> list[list[int]]:
    """Seats grouped best first; seats in one group are tied under C12."""
    keys = [standing_key(c) for c in all_counts]
    order = sorted(set(keys), reverse=True)
    return [[seat for seat, key in enumerate(keys) if key == best] for best in order]


def breakdown(counts: Sequence[int]) -> Amulets:
    """The per-player score breakdown: complete amulets, incomplete sizes, parts by type."""
    return {
        "complete": complete_amulets(counts),
        "incomplete": incomplete_sizes(counts),
        "parts": list(counts),
    }

