"""Memoised calls into the tower solver.

The solver's answers depend only on (team, skills, festival sizes or tile), and a position asks
the same question many times (legal_actions on every step of a turn, then apply, then the bots),
so the engine asks through these small bounded caches. The answers are pure functions of their
keys, so caching never changes behaviour, only speed.
"""

from __future__ import annotations

from .towers import LocalTile, Tower, best_festival_tower, tower_for_tile

_LIMIT = 200_000
_festival: dict[tuple, Tower | None] = {}
_tile: dict[tuple, Tower | None] = {}


def best_for_festival(team: tuple[int, ...], skills: tuple[int, ...], sizes: tuple[int, ...]) -> Tower | None:
    """The solver's best K8-eligible tower for a festival with these sizes, or None."""
    key = (team, skills, sizes)
    try:
        return _festival[key]
    except KeyError:
        pass
    if len(_festival) >= _LIMIT:
        _festival.clear()
    tower = _festival[key] = best_festival_tower(team, skills, sizes)
    return tower


def tower_for(team: tuple[int, ...], skills: tuple[int, ...], tile: LocalTile) -> Tower | None:
    """A tower satisfying local performance `tile` (K10), or None."""
    key = (team, skills, tile)
    try:
        return _tile[key]
    except KeyError:
        pass
    if len(_tile) >= _LIMIT:
        _tile.clear()
    tower = _tile[key] = tower_for_tile(team, skills, tile)
    return tower
