"""`meeple bench castell --part towers`: the festival tower solver timed on random mid-game teams."""

from __future__ import annotations

import time
from typing import Any

from meeple.core.rng import Rng
from meeple.games.castell.towers.rules import COUNTS_LEN, SIZES, SKILLS
from meeple.games.castell.towers.solver import best_festival_tower

#: Castellers a mid-game team holds in the benchmark's positions.
BENCH_TEAM = 25
#: Each position's festival asks for 1 to this many distinct sizes (K7: up to 3 size tokens).
BENCH_MAX_FESTIVAL_SIZES = 3


def bench_towers(seconds: float, seed: int, supply: tuple[int, ...] | None = None) -> dict[str, Any]:
    """Time `best_festival_tower` on random mid-game positions for about `seconds`.

    A position: 25 castellers drawn from the K2 supply (`supply`, counts per size; default the
    shipped castellers.toml), skill levels 0..5 at random, 1-3 distinct festival sizes. Returns
    median, 99th percentile and maximum milliseconds and the count of solves."""
    if supply is None:
        from meeple.games.castell.components import load_components  # components import this package

        supply = load_components().castellers
    rng = Rng(seed)
    bag = [size for size in SIZES for _ in range(supply[size])]
    times: list[float] = []
    deadline = time.perf_counter() + seconds
    while not times or time.perf_counter() < deadline:
        team = [0] * COUNTS_LEN
        for i in range(BENCH_TEAM):  # partial Fisher-Yates draw without replacement
            j = i + rng.below(len(bag) - i)
            bag[i], bag[j] = bag[j], bag[i]
            team[bag[i]] += 1
        skills = tuple(rng.below(6) for _ in SKILLS)
        sizes: list[int] = []
        for _ in range(1 + rng.below(BENCH_MAX_FESTIVAL_SIZES)):
            size = 1 + rng.below(len(SIZES))
            while size in sizes:
                size = 1 + rng.below(len(SIZES))
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
