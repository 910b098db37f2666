"""Triominos moves and tiles told and placed for people, shared by the terminal and the browser.

Both front ends label moves the same way and draw the lattice the same way, so the words and the
picture geometry live here, once, as pure functions of the view and move JSON (no engine state):
the cli renderer and the web board import them (the cli may not import the server, and the
server should not import the cli).

Screen geometry: lattice point (x, y) sits at x·(1, 0) + y·(1/2, √3/2) with unit edges
(`geometry.plane_xy`), drawn with y going down the screen and scaled by `scale`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from meeple.core.i18n import Catalog
from meeple.games.triominos.components import NAME
from meeple.games.triominos.geometry import EDGE_NBR, cell, plane_xy
from meeple.games.triominos.placements import EMPTY, Board
from meeple.games.triominos.scoring import BONUS_NAME, BONUS_POINTS

if TYPE_CHECKING:
    from meeple.games.triominos.view_types import TriominosView

#: The letters that name open cells, in the view's reading order.
KEYS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: How far a corner number sits from its corner towards the centre (share of the way).
NUMBER_INSET = 0.42

Point = tuple[float, float]


def open_keys(view: TriominosView) -> dict[tuple[int, int, str], str]:
    """A letter for each open cell (reading order) by (x, y, "up"|"down"), shown in the
    drawings and in move labels."""
    return {(c["x"], c["y"], c["dir"]): key for c, key in zip(view["open"], KEYS)}


def corners(x: int, y: int, up: bool) -> list[tuple[int, int]]:
    """The cell's lattice points clockwise (same order as the engine's corners and a view tile's
    "corners" numbers)."""
    if up:
        return [(x, y), (x, y + 1), (x + 1, y)]
    return [(x, y + 1), (x + 1, y + 1), (x + 1, y)]


def screen(px: float, py: float, scale: float) -> Point:
    """Screen position of lattice point (px, py): unit edges times `scale`, y drawn downwards."""
    sx, sy = plane_xy(px, py)
    return sx * scale, -sy * scale


def cell_points(x: int, y: int, direction: str, scale: float) -> list[Point]:
    """The three screen corners of cell (x, y, "up"|"down"), in corner order."""
    return [screen(px, py, scale) for px, py in corners(x, y, direction == "up")]


def number_spots(points: list[Point], inset: float = NUMBER_INSET) -> list[Point]:
    """Where each corner's number is written: a little inside the triangle from its corner."""
    cx = sum(x for x, _ in points) / 3
    cy = sum(y for _, y in points) / 3
    return [(x + (cx - x) * inset, y + (cy - y) * inset) for x, y in points]


def centre(points: list[Point]) -> Point:
    """The centroid of a triangle's screen corners."""
    return sum(x for x, _ in points) / 3, sum(y for _, y in points) / 3


def shown_numbers(tile: str, rot: int) -> list[int]:
    """The numbers at corners 0, 1, 2 of tile "a-b-c" turned `rot` steps (as the engine shows it)."""
    nums = [int(n) for n in tile.split("-")]
    return [nums[(rot + k) % 3] for k in range(3)]


def _board_key(view: TriominosView) -> tuple[tuple[str, int, int, int, int], ...]:
    return tuple((t["tile"], t["x"], t["y"], 0 if t["dir"] == "up" else 1, t["rot"]) for t in view["board"])


@lru_cache(maxsize=8)
def _replayed(placements: tuple[tuple[str, int, int, int, int], ...]) -> Board:
    """The round's board rebuilt from the view's public placements (the labels of one position
    all ask for the same board, hence the cache)."""
    return Board.from_json([list(p) for p in placements])


def placement_score(view: TriominosView, action_json: dict[str, Any]) -> tuple[int, str]:
    """The points a placement scores at once and its bonus ("" or "bridge", "hexagon"...): the
    tile's sum (M3) plus at most one bonus (M4, M5); the opening tile scores its sum alone (M8).
    Going out (M9) is not included: it depends on the other racks."""
    tile = str(action_json["tile"])
    points = sum(int(n) for n in tile.split("-"))
    if not view["board"]:
        return points, ""
    where = cell(action_json["x"], action_json["y"], 0 if action_json["dir"] == "up" else 1)
    kind = _replayed(_board_key(view)).bonus(where)
    return points + BONUS_POINTS[kind], BONUS_NAME[kind]


def neighbours(view: TriominosView, x: int, y: int, direction: str) -> list[str]:
    """The placed tiles across the edges of cell (x, y, direction), by name."""
    board = _replayed(_board_key(view))
    where = cell(x, y, 0 if direction == "up" else 1)
    return [NAME[board.occ[n]] for n in EDGE_NBR[where] if board.occ[n] != EMPTY]


def action_label(action_json: dict[str, Any], cat: Catalog, view: TriominosView | None = None) -> str:
    """A move as a player would say it: "Place 0-4-4 on cell c, next to 3-4-5: 12 points",
    "Draw a tile (−5 points)". The cell letter is the one the drawings show on that cell; with
    no `view` (no board to speak of) a placement is just "Place 0-4-4"."""
    kind = action_json.get("type", "?")
    if kind != "place":
        return cat.text(f"action.{kind}")
    tile = action_json["tile"]
    if view is None:
        return cat.text("action.place_plain", tile=tile)
    points, bonus = placement_score(view, action_json)
    if not view["board"]:
        return cat.text("action.open", tile=tile, points=points)  # M8: any tile, its sum
    where = (action_json["x"], action_json["y"], action_json["dir"])
    key = open_keys(view).get(where, "?")
    sep = cat.text("ui.list_separator") if cat.has("ui.list_separator") else ", "
    near = sep.join(neighbours(view, *where))
    if bonus:
        return cat.text("action.place_bonus", tile=tile, cell=key, near=near, points=points,
                        bonus=cat.text(f"bonus.{bonus}"))
    return cat.text("action.place", tile=tile, cell=key, near=near, points=points)
