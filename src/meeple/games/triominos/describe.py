"""Triominos moves and tiles told and placed for people, shared by the terminal and the browser.

Both front ends label moves the same way and draw the lattice the same way, so the words and the
picture geometry live here, once, as pure functions of the view and move JSON (no engine state):
the cli renderer and the web board import them (the cli may not import the server, and the
server should not import the cli).

Screen geometry: lattice point (x, y) sits at x·(1, 0) + y·(1/2, √3/2) with unit edges
(`geometry.plane_xy`), drawn with y going down the screen and scaled by `scale`.
"""

from __future__ import annotations

from typing import Any

from meeple.core.i18n import Catalog
from meeple.games.triominos.geometry import plane_xy

#: The letters that name open cells, in the view's reading order.
KEYS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: How far a corner number sits from its corner towards the centre (share of the way).
NUMBER_INSET = 0.42

Point = tuple[float, float]


def open_keys(view: dict[str, Any]) -> dict[tuple[int, int, str], str]:
    """A letter for each open cell (reading order), shown in the drawings and in move labels."""
    return {(x, y, d): key for (x, y, d), key in zip(view.get("open", []), KEYS)}


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


def action_label(action_json: dict[str, Any], cat: Catalog, view: dict[str, Any] | None = None) -> str:
    """Short move labels such as "place 1-3-4 at (2,-1)▲ rot 2" or "draw (−5)"; with the
    viewer's `view`, a placement starts with the letter its cell has in the drawing."""
    kind = action_json.get("type", "?")
    params = {k: v for k, v in action_json.items() if k != "type"}
    label = cat.text(f"action.{kind}", **params)
    if kind == "place" and view is not None:
        where: tuple[Any, Any, Any] = (params.get("x"), params.get("y"), params.get("dir"))
        key = open_keys(view).get(where)
        if key is not None:
            label = f"[{key}] {label}"
    return label
