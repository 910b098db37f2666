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

from .towers_rules import (
    SKILLS,
    Tower,
    TowerCheck,
    castellers_needed,
    eligible,
    festival_score,
    tower_uses,
    validate,
)

__all__ = [
    "SKILLS",
    "Tower",
    "TowerCheck",
    "castellers_needed",
    "eligible",
    "festival_score",
    "tower_uses",
    "validate",
]
