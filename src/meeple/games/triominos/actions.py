"""Triominos' moves, declared once (meeple.core.actionfields): their JSON form and ids follow.

Ids: a placement of tile t on the window cell with index w is ``t * NUM_WINDOW + w``; then come
DRAW, PASS and STOP. The rotation is not part of the id: on a cell that touches the board along
an edge at most one rotation of a tile fits (the edge fixes which two numbers meet, and a tile's
three clockwise pairs are distinct unless it is a triple, which looks alike in every rotation);
the opening tile always goes on ORIGIN in rotation 0. An id's placement here has rotation 0;
``TriominosState.action_from_id`` turns it the way it fits the position.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meeple.core.action import DeclaredAction
from meeple.core.actionfields import ActionSpace, Domain, Kind, Names, Whole
from meeple.core.checks import shown, whole_in_range
from meeple.core.errors import RecordError
from meeple.games.triominos.components import NAME, NUM_TILES, ROTATIONS
from meeple.games.triominos.geometry import (
    NUM_CELLS,
    NUM_WINDOW,
    RECORD_REACH,
    WINDOW_CELLS,
    WINDOW_INDEX,
    cell,
    cell_xyd,
    in_window,
)


@dataclass(frozen=True, slots=True)
class Place(DeclaredAction):
    """Put tile `tile` on cell `cell` (a geometry cell id) turned `rot` steps (M2)."""

    tile: int
    cell: int
    rot: int


@dataclass(frozen=True, slots=True)
class Draw(DeclaredAction):
    """Take a tile from the pool for 5 points (M6)."""


@dataclass(frozen=True, slots=True)
class Pass(DeclaredAction):
    """End the turn without placing when the pool is empty (M7: no further penalty)."""


@dataclass(frozen=True, slots=True)
class Stop(DeclaredAction):
    """End the turn without placing after the third draw (M6: 10 more points off)."""


Action = Place | Draw | Pass | Stop


#: A cell's direction as JSON writes it, by the direction's number (geometry.UP is 0).
DIRECTIONS = ("up", "down")


class CellField(Domain):
    """A cell of the board window, written as its lattice position: "x", "y" and "dir"."""

    size = NUM_WINDOW

    def keys(self, name: str) -> tuple[str, ...]:
        return ("x", "y", "dir")

    def write(self, value: Any, name: str, out: dict[str, Any]) -> None:
        x, y, d = cell_xyd(value)
        out["x"], out["y"], out["dir"] = x, y, DIRECTIONS[d]

    def read(self, obj: dict[str, Any], name: str, what: str) -> int:
        x = whole_in_range(obj.get("x"), -RECORD_REACH, RECORD_REACH, f"{what} field 'x'")
        y = whole_in_range(obj.get("y"), -RECORD_REACH, RECORD_REACH, f"{what} field 'y'")
        direction = obj.get("dir")
        if direction not in DIRECTIONS:
            raise RecordError(f"{what} field 'dir' must be \"up\" or \"down\", not {shown(direction)}")
        c = cell(x, y, DIRECTIONS.index(direction))
        if not in_window(c):
            raise RecordError(f"cell ({x},{y}) {direction} is outside the board window")
        return c

    def index(self, value: Any) -> int:
        return WINDOW_INDEX[value] if type(value) is int and 0 <= value < NUM_CELLS else -1

    def value_at(self, index: int) -> int:
        return WINDOW_CELLS[index]


def _rotation_shown(place: Place) -> None:
    """A tile's rotations that look alike are one (a triple has only rotation 0)."""
    if place.rot not in ROTATIONS[place.tile]:
        raise RecordError(f"tile {NAME[place.tile]} has rotations {list(ROTATIONS[place.tile])}, not {place.rot}")


SPACE: ActionSpace[Action] = ActionSpace("Triominos", [
    Kind(Place, "place", tile=Names(NAME), cell=CellField(), rot=Whole(0, 2), id_fields=("tile", "cell"),
         check=_rotation_shown),
    Kind(Draw, "draw"),
    Kind(Pass, "pass"),
    Kind(Stop, "stop"),
])
NUM_ACTIONS = SPACE.num_actions
#: The first id after the placements: DRAW, then PASS, then STOP.
DRAW_ID = NUM_TILES * NUM_WINDOW
DRAW, PASS, STOP = SPACE.block(Draw)[0], SPACE.block(Pass)[0], SPACE.block(Stop)[0]
action_from_json = SPACE.action_from_json
#: Each placement made so far, by `place_key`: positions hand out these instead of building a
#: frozen dataclass per legal placement (the pure build's playouts spend a tenth of their time
#: on that), and search finds their ids by identity. Random play visits about 33,000 in 4,000
#: games and could reach 56 tiles x 4,621 cells x 3 rotations in a long-running server, so the
#: cache starts again past PLACES_BOUND (about 15 MB).
PLACES: dict[int, Place] = {}
PLACES_BOUND = 50_000


def place_key(tile: int, c: int, rot: int) -> int:
    return (tile * NUM_CELLS + c) * 3 + rot


def placement(tile: int, c: int, rot: int) -> Place:
    """The placement of `tile` on cell `c` turned `rot` steps, made once."""
    key = place_key(tile, c, rot)
    found = PLACES.get(key)
    if found is None:
        if len(PLACES) >= PLACES_BOUND:
            PLACES.clear()
            SPACE.release_adopted()
        found = PLACES[key] = SPACE.adopt(Place(tile, c, rot))
    return found
