"""Memoised calls into the tower solver.

The solver's answers depend only on (team, skills, festival sizes or tile), and a position asks
the same question many times (legal_actions on every step of a turn, then apply, then the bots),
so the engine asks through these caches, each bounded by memory (core.memo: a process that
plays many games stays small). The answers are pure functions of their keys, so caching never
changes behaviour, only speed.
"""

from __future__ import annotations

from itertools import pairwise

from meeple.core.memo import MB, memoize
from meeple.games.castell.towers.rules import Tower, castellers_needed
from meeple.games.castell.towers.solver import best_festival_tower, tallest_tower, tower_for_tile
from meeple.games.castell.towers.tiles import LocalTile

#: Castellers per size a tower takes (the solver's towers repeat a lot).
needed = memoize(8 * MB)(castellers_needed)
_festival_tower = memoize(16 * MB)(best_festival_tower)
_tile_tower = memoize(16 * MB)(tower_for_tile)
#: The solver's tallest legal tower, or None for an empty team.
tallest = memoize(8 * MB)(tallest_tower)


def best_for_festival(team: tuple[int, ...], skills: tuple[int, ...], sizes: tuple[int, ...]) -> Tower | None:
    """The solver's best K8-eligible tower for a festival with these sizes, or None."""
    if any(not team[size] for size in sizes) or max_levels(team, skills) < 4:
        return None  # K8 needs every festival size in the tower and 4 levels
    return _festival_tower(team, skills, sizes)


def max_levels(team: tuple[int, ...], skills: tuple[int, ...]) -> int:
    """An upper bound on a legal tower's levels (K6): widths never grow upwards, so the levels
    not wider than the width limit 3 + Width number at most that limit plus the Balance uses,
    levels over the limit need Base, and every level holds a casteller."""
    balance, base, _mix, _strength, width = skills
    bound = 3 + width + base + balance
    total = sum(team)
    return total if total < bound else bound


def out_of_reach(team: tuple[int, ...], skills: tuple[int, ...], tile: LocalTile) -> bool:
    """Cheap necessary conditions (K6) a tile fails before any search: a legal tower never
    uses a skill more often than its level, and it has at most 3 + Width + Base + Balance levels
    (widths never grow upwards; levels wider than the width limit need Base, equal widths need
    Balance) and at most one level per casteller. True means no tower can meet the tile."""
    balance, base, _mix, _strength, width = skills
    limit = 3 + width
    total = sum(team)
    most = max_levels(team, skills)
    if tile.kind == "shape":
        widths = tile.widths
        return (
            len(widths) > most
            or sum(widths) > total
            or sum(1 for below, above in pairwise(widths) if above == below) > balance
            or sum(1 for n in widths if n > limit) > base
        )
    return tile.min_levels > most or any(u > s for u, s in zip(tile.uses, skills))


def tower_for(team: tuple[int, ...], skills: tuple[int, ...], tile: LocalTile) -> Tower | None:
    """A tower satisfying local performance `tile` (K10), or None."""
    if out_of_reach(team, skills, tile):
        return None
    return _tile_tower(team, skills, tile)

