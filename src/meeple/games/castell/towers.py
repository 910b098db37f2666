"""Castell towers: the public face of the tower module.

The engine imports everything tower-related from here:
- the K6 validator and K8 festival scoring (`towers_rules`),
- the exact tower search (`towers_solver`): best festival tower, tallest tower, tile towers,
- the K10 local performance tiles and their data file (`towers_tiles`),
- `bench_towers`, the timing loop behind `meeple bench castell --towers`.

`team` arguments are the castellers a player holds, as counts per size: either a tuple of 11
ints (index = size 1..10, index 0 unused) or a mapping size -> count.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping

from meeple.core.rng import Rng

from .towers_rules import (
    SKILLS,
    SUPPLY,
    Tower,
    TowerCheck,
    castellers_needed,
    eligible,
    festival_score,
    tower_uses,
    validate,
)
from .towers_solver import FestivalGoal, ShapeGoal, ShowGoal, TallestGoal, search, team_counts
from .towers_tiles import LocalTile, load_local_tiles, satisfies_tile

Team = Mapping[int, int] | tuple[int, ...]


def best_festival_tower(
    team: Team, skills: tuple[int, ...], festival_sizes: Iterable[int]
) -> Tower | None:
    """The legal tower with the highest K8 festival score that K8 lets enter (>= 4 levels, every
    festival size present), or None. Ties go to the first tower in the search order
    (`towers_solver.order_key`: bottom level first, heavier and wider levels first)."""
    return search(team, skills, FestivalGoal(tuple(festival_sizes)))


def tallest_tower(team: Team, skills: tuple[int, ...]) -> Tower | None:
    """The legal tower with the most levels (None for an empty team). Ties go to the first
    tower in the search order (`towers_solver.order_key`)."""
    return search(team, skills, TallestGoal())


def tower_for_tile(team: Team, skills: tuple[int, ...], tile: LocalTile) -> Tower | None:
    """A legal tower meeting a K10 tile, or None if the team and skills cannot build one.
    Of several, the first in the search order (`towers_solver.order_key`; skill shows try
    narrow levels first, which keeps their towers compact)."""
    if tile.kind == "shape":
        goal = ShapeGoal(tile.widths)
    else:
        goal = ShowGoal(tile.min_levels, tile.uses, skills)
    return search(team, skills, goal)


def bench_towers(seconds: float, seed: int) -> dict:
    """Time `best_festival_tower` on random mid-game positions for about `seconds`.

    A position: 25 castellers drawn from the K2 supply, skill levels 0..5 at random, 1-3
    distinct festival sizes. Returns median and 99th percentile milliseconds and the count."""
    rng = Rng(seed)
    bag = [size for size in range(1, 11) for _ in range(SUPPLY[size])]
    times: list[float] = []
    deadline = time.perf_counter() + seconds
    while not times or time.perf_counter() < deadline:
        team = [0] * 11
        for i in range(25):  # partial Fisher-Yates draw without replacement
            j = i + rng.below(len(bag) - i)
            bag[i], bag[j] = bag[j], bag[i]
            team[bag[i]] += 1
        skills = tuple(rng.below(6) for _ in SKILLS)
        sizes: list[int] = []
        for _ in range(1 + rng.below(3)):
            size = 1 + rng.below(10)
            while size in sizes:
                size = 1 + rng.below(10)
            sizes.append(size)
        start = time.perf_counter()
        best_festival_tower(tuple(team), skills, tuple(sizes))
        times.append((time.perf_counter() - start) * 1000.0)
    times.sort()
    return {
        "median_ms": round(times[len(times) // 2], 3),
        "p99_ms": round(times[min(len(times) - 1, (len(times) * 99) // 100)], 3),
        "max_ms": round(times[-1], 3),
        "solves": len(times),
    }


__all__ = [
    "SKILLS",
    "SUPPLY",
    "LocalTile",
    "Team",
    "Tower",
    "TowerCheck",
    "bench_towers",
    "best_festival_tower",
    "castellers_needed",
    "eligible",
    "festival_score",
    "load_local_tiles",
    "satisfies_tile",
    "tallest_tower",
    "team_counts",
    "tower_for_tile",
    "tower_uses",
    "validate",
]

