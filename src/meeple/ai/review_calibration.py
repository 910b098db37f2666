"""The correction that turns the review's raw win chances into calibrated ones, per game and
player count: whatever a game's plugin declares (its part "calibration"), the identity else.

Why a hook: the estimator plays sampled positions out with a fast policy, which may win more or
less often than real players do from the same place; a calibration measured against finished
games maps the raw figure onto what actually happened. The data is a mapping of player counts
to points `[raw, calibrated]`, both in [0, 1], raw strictly increasing and calibrated not
decreasing; a chance between two points is interpolated linearly, one outside them takes the
nearest point's value. A player count the data does not name is left as it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from itertools import pairwise
from typing import Any

from meeple.core.plugin import GamePlugin, PluginError
from meeple.core.registry import game_plugin

#: Points of one player count: (raw, calibrated) pairs.
Points = tuple[tuple[float, float], ...]


def calibrate(raw: float, players: int, game: str) -> float:
    """`raw` (an estimated chance, or share of the win, in [0, 1]) as the game's calibration for
    `players` seats maps it; the identity where the game declares none."""
    clipped = min(1.0, max(0.0, raw))
    points = calibration_of(game).get(players)
    if not points:
        return clipped
    if clipped <= points[0][0]:
        return points[0][1]
    for (x0, y0), (x1, y1) in pairwise(points):
        if clipped <= x1:
            return y0 + (y1 - y0) * (clipped - x0) / (x1 - x0)
    return points[-1][1]


def calibration_of(game: str) -> dict[int, Points]:
    """The game's calibration points per player count (empty: none declared); PluginError when
    its plugin names data of another shape."""
    return _calibration(game_plugin(game))


@cache
def _calibration(plugin: GamePlugin) -> dict[int, Points]:
    found = plugin.part("calibration")
    if found is None:
        return {}
    if not isinstance(found, Mapping):
        raise _bad(plugin, "is not a mapping of player counts to points")
    return {_players(plugin, key): _points(plugin, key, value) for key, value in found.items()}


def _players(plugin: GamePlugin, key: Any) -> int:
    info = plugin.info
    if type(key) is not int or not info.min_players <= key <= info.max_players:
        raise _bad(plugin, f"names {key!r} players ({info.min_players} to {info.max_players} play it)")
    return key


def _points(plugin: GamePlugin, players: int, value: Any) -> Points:
    if not isinstance(value, Sequence) or len(value) < 2:
        raise _bad(plugin, f"needs at least two [raw, calibrated] points for {players} players")
    points: list[tuple[float, float]] = []
    for point in value:
        if (not isinstance(point, Sequence) or len(point) != 2
                or not all(type(x) in (int, float) and 0.0 <= x <= 1.0 for x in point)):
            raise _bad(plugin, f"has a point {point!r} for {players} players that is not [raw, calibrated] in [0, 1]")
        raw, calibrated = float(point[0]), float(point[1])
        if points and (raw <= points[-1][0] or calibrated < points[-1][1]):
            raise _bad(plugin, f"points for {players} players must rise: raw strictly, calibrated never falling")
        points.append((raw, calibrated))
    return tuple(points)


def _bad(plugin: GamePlugin, problem: str) -> PluginError:
    return PluginError(f"game plugin {plugin.name!r}: its calibration {plugin.calibration!r} {problem}")
