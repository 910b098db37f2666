"""Castell towers: the K6 rules, the exact tower search, the K10 local performance tiles.

- `rules`: the K6 validator, the K8 festival score and entry test, castellers a tower takes;
- `solver`: the exact search behind every goal (best festival tower, tallest, tile towers);
- `tiles`: the K10 local performance tiles, their data file and what meeting one means;
- `cache`: bounded memos of the solver's answers, which the engine and the bots ask through;
- `bench`: the timing loop behind `meeple bench castell --part towers`.

`team` arguments are the castellers a player holds, as counts per size: either a tuple of 11
ints (index = size 1..10, index 0 unused) or a mapping size -> count.
"""

from __future__ import annotations

from collections.abc import Mapping

from meeple.games.castell.towers.bench import bench_towers
from meeple.games.castell.towers.rules import (
    SKILLS,
    Tower,
    TowerCheck,
    castellers_needed,
    eligible,
    festival_score,
    tower_uses,
    validate,
)
from meeple.games.castell.towers.solver import (
    best_festival_tower,
    tallest_tower,
    team_counts,
    tower_for_tile,
)
from meeple.games.castell.towers.tiles import LocalTile, load_local_tiles, satisfies_tile

Team = Mapping[int, int] | tuple[int, ...]

__all__ = [
    "SKILLS",
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
