"""Moves and their integer ids.

Ids: a placement of tile t on the window cell with index w is ``t * NUM_WINDOW + w``; then come
DRAW, PASS and STOP. The rotation is not part of the id: on a cell that touches the board along
an edge at most one rotation of a tile fits (the edge fixes which two numbers meet, and a tile's
three clockwise pairs are distinct unless it is a triple, which looks alike in every rotation);
the opening tile always goes on ORIGIN in rotation 0. ``action_from_id`` restores the rotation
from the position.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from meeple.core.errors import RecordError

from .geometry import NUM_CELLS, UP, WINDOW_INDEX, cell, cell_xyd
from .tiles import INDEX, NAME, ROTATIONS


class Place(NamedTuple):
    """Put tile `tile` on cell `cell` (a geometry cell id) turned `rot` steps (M2)."""

    tile: int
    cell: int
    rot: int

    def to_json(self) -> dict[str, Any]:
        x, y, d = cell_xyd(self.cell)
        return {"type": "place", "tile": NAME[self.tile], "x": x, "y": y, "dir": "up" if d == UP else "down", "rot": self.rot}


@dataclass(frozen=True, slots=True)
class Draw:
    """Take a tile from the pool for 5 points (M6)."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "draw"}


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without placing when the pool is empty (M7: no further penalty)."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "pass"}


@dataclass(frozen=True, slots=True)
class Stop:
    """End the turn without placing after the third draw (M6: 10 more points off)."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "stop"}


DRAW = Draw()
PASS = Pass()
STOP = Stop()

Action = Place | Draw | Pass | Stop


def _int(obj: dict[str, Any], key: str) -> int:
    value = obj.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"place action field {key!r} must be a whole number, not {value!r}")
    return value


def action_from_json(obj: Any) -> Action:
    """Decode an action; RecordError names what is malformed."""
    if not isinstance(obj, dict):
        raise RecordError(f"a Triominos action is a JSON object, not {obj!r}")
    kind = obj.get("type")
    if kind == "draw":
        return DRAW
    if kind == "pass":
        return PASS
    if kind == "stop":
        return STOP
    if kind != "place":
        raise RecordError(f"unknown Triominos action type {kind!r} (place, draw, pass, stop)")
    name = obj.get("tile")
    if name not in INDEX:
        raise RecordError(f"no tile {name!r}: tiles are written a-b-c with 0 <= a <= b <= c <= 5")
    tile = INDEX[name]
    x, y, rot = _int(obj, "x"), _int(obj, "y"), _int(obj, "rot")
    direction = obj.get("dir")
    if direction not in ("up", "down"):
        raise RecordError(f"place action field 'dir' must be \"up\" or \"down\", not {direction!r}")
    if rot not in ROTATIONS[tile]:
        raise RecordError(f"tile {name} has rotations {list(ROTATIONS[tile])}, not {rot}")
    if not (-30 <= x <= 30 and -30 <= y <= 30):
        raise RecordError(f"cell ({x},{y}) is outside the board window")
    c = cell(x, y, 0 if direction == "up" else 1)
    if not (0 <= c < NUM_CELLS) or WINDOW_INDEX[c] < 0:
        raise RecordError(f"cell ({x},{y}) {direction} is outside the board window")
    return Place(tile, c, rot)

