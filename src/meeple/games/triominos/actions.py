"""Moves, their integer ids and their JSON form.

Ids: a placement of tile t on the window cell with index w is ``t * NUM_WINDOW + w``; then come
DRAW, PASS and STOP. The rotation is not part of the id: on a cell that touches the board along
an edge at most one rotation of a tile fits (the edge fixes which two numbers meet, and a tile's
three clockwise pairs are distinct unless it is a triple, which looks alike in every rotation);
the opening tile always goes on ORIGIN in rotation 0. ``action_from_id`` restores the rotation
from the position's fits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from meeple.core.checks import object_kind, shown, whole_in_range
from meeple.core.errors import IllegalAction, RecordError
from meeple.core.protocol import check_action_id
from meeple.games.triominos.components import NAME, NUM_TILES, ROTATIONS, tile_named
from meeple.games.triominos.geometry import (
    NUM_WINDOW,
    RECORD_REACH,
    UP,
    WINDOW_CELLS,
    WINDOW_INDEX,
    cell,
    cell_xyd,
    in_window,
)


class Place(NamedTuple):
    """Put tile `tile` on cell `cell` (a geometry cell id) turned `rot` steps (M2)."""

    tile: int
    cell: int
    rot: int

    def to_json(self) -> dict[str, Any]:
        x, y, d = cell_xyd(self.cell)
        direction = "up" if d == UP else "down"
        return {"type": "place", "tile": NAME[self.tile], "x": x, "y": y, "dir": direction, "rot": self.rot}


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

#: The first id after the placements: DRAW, then PASS, then STOP.
DRAW_ID = NUM_TILES * NUM_WINDOW
#: Every id, for every player count and option.
NUM_ACTIONS = DRAW_ID + 3
#: The fields each kind of action carries besides its type.
FIELDS = {"place": ("tile", "x", "y", "dir", "rot"), "draw": (), "pass": (), "stop": ()}
_PLAIN: dict[str, Action] = {"draw": DRAW, "pass": PASS, "stop": STOP}


def action_id(action: object) -> int:
    """The id of `action` (see the module docstring)."""
    if type(action) is Place:
        return action.tile * NUM_WINDOW + WINDOW_INDEX[action.cell]
    if type(action) is Draw:
        return DRAW_ID
    if type(action) is Pass:
        return DRAW_ID + 1
    if type(action) is Stop:
        return DRAW_ID + 2
    raise IllegalAction("ids", f"{action!r} is not a Triominos action")


def action_from_id(number: object, fits: list[dict[int, int]]) -> Action:
    """The action with id `number`, a placement turned the way it fits (`Board.fits`)."""
    number = check_action_id(number, NUM_ACTIONS, "Triominos")
    if number >= DRAW_ID:
        return (DRAW, PASS, STOP)[number - DRAW_ID]
    t, w = divmod(number, NUM_WINDOW)
    c = WINDOW_CELLS[w]
    return Place(t, c, fits[t].get(c, 0))


def action_from_json(obj: Any) -> Action:
    """Decode an action; RecordError names what is malformed."""
    kind = object_kind(obj, FIELDS, "Triominos action")
    if kind != "place":
        return _PLAIN[kind]
    tile = tile_named(obj.get("tile"), "place action field 'tile'")
    x = whole_in_range(obj.get("x"), -RECORD_REACH, RECORD_REACH, "place action field 'x'")
    y = whole_in_range(obj.get("y"), -RECORD_REACH, RECORD_REACH, "place action field 'y'")
    rot = whole_in_range(obj.get("rot"), 0, 2, "place action field 'rot'")
    direction = obj.get("dir")
    if direction not in ("up", "down"):
        raise RecordError(f"place action field 'dir' must be \"up\" or \"down\", not {shown(direction)}")
    if rot not in ROTATIONS[tile]:
        raise RecordError(f"tile {NAME[tile]} has rotations {list(ROTATIONS[tile])}, not {rot}")
    c = cell(x, y, 0 if direction == "up" else 1)
    if not in_window(c):
        raise RecordError(f"cell ({x},{y}) {direction} is outside the board window")
    return Place(tile, c, rot)
