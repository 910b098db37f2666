"""Castell's scoring rules as pure functions (K9, K11), shared by the engine, the tests of the
rulebook's examples and the bots. Tower scores (K8) come from the tower module's festival_score."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

#: K9 prizes by number of entrants: place 1, 2, 3 (trophy 5, medal 3, ribbon 1).
PRIZE_TABLE: dict[int, tuple[int, ...]] = {1: (1,), 2: (3, 1), 3: (5, 3, 1)}
#: K11 region variety: number of regions -> points.
REGION_VARIETY: tuple[int, ...] = (0, 0, 1, 3, 5, 7, 10, 14)


def prizes(scores: Sequence[int], ties: str = "lowest") -> list[int]:
    """K9 prize value per entrant. Tied entrants each take the prize of the lowest place their
    group covers (example I: 17, 17, 9 -> 3, 3, 1). With `ties="one_lower"` (option
    `prize_ties`, the translation's wording) they take the prize one place below the place they
    tie for; the readings differ only when three or more tie (5, 5, 5 -> 1, 1, 1 or 3, 3, 3)."""
    table = PRIZE_TABLE[min(len(scores), 3)] if scores else ()
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    out = [0] * len(scores)
    place = 0
    while place < len(order):
        end = place
        while end + 1 < len(order) and scores[order[end + 1]] == scores[order[place]]:
            end += 1
        taken = end if ties == "lowest" or end == place else place + 1
        value = table[taken] if taken < len(table) else 0
        for k in range(place, end + 1):
            out[order[k]] = value
        place = end + 1
    return out


def size_token_winners(counts: Sequence[Sequence[int]], tokens: Sequence[int]) -> list[int | None]:
    """K9: each size token goes to the entrant (index into `counts`, each an 11-long count per
    size in that entrant's tower) with strictly the most castellers of its size; None if tied
    (example J)."""
    out: list[int | None] = []
    for size in tokens:
        best, winner = -1, None
        for i, c in enumerate(counts):
            if c[size] > best:
                best, winner = c[size], i
            elif c[size] == best:
                winner = None
        out.append(winner if best > 0 else None)
    return out


def region_variety(regions: int) -> int:
    """K11 region variety bonus for the number of regions on a player board holding a prize,
    size token or special action token."""
    return REGION_VARIETY[regions]


def size_token_points(sizes: Iterable[int]) -> int:
    """K11: 2 points per distinct size, 1 per duplicate (example K: 5 distinct + 2 duplicates = 12)."""
    sizes = list(sizes)
    distinct = len(set(sizes))
    return 2 * distinct + (len(sizes) - distinct)


def final_breakdown(best_tower: int, regions: int, prize_values: Iterable[int], sizes: Iterable[int],
                    stars: Iterable[int]) -> dict[str, int]:
    """K11 final score parts and their total (example K: 18 + 5 + 16 + 12 + 14 = 65)."""
    parts = {
        "best_tower": best_tower,
        "region_variety": region_variety(regions),
        "prizes": sum(prize_values),
        "size_tokens": size_token_points(sizes),
        "stars": sum(stars),
    }
    parts["total"] = sum(parts.values())
    return parts
