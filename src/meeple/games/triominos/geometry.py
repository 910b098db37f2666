"""The triangular lattice: the only module that knows geometry.

Coordinates
-----------
A lattice *point* is (x, y) in axial coordinates: its position in the plane is
x·(1, 0) + y·(1/2, √3/2), so x grows to the right and y grows up and to the right.

A *cell* (a triangle) is (x, y, d) with d = UP (0) or DOWN (1):

* UP (x, y) has the points (x, y), (x, y+1), (x+1, y)       (▲, point on top)
* DOWN (x, y) has the points (x, y+1), (x+1, y+1), (x+1, y) (▼, point at the bottom)

Both lists read the corners *clockwise* (with y drawn upwards). Corner k and corner k+1
(mod 3) bound *edge k*; the cell across edge k is ``EDGE_NBR[c][k]`` and the corner opposite
edge k is corner k+2.

Because the engine only needs a bounded board (see ``WINDOW_CELLS``), points and cells are
stored as small integers: point (x, y) -> ``(x + OFF) * SIZE + (y + OFF)`` and cell
(x, y, d) -> ``point(x, y) * 2 + d``. Tables indexed by these integers give every neighbour
relation in O(1) without arithmetic in the hot path.
"""

from __future__ import annotations

from collections import deque
from typing import Any

UP = 0
DOWN = 1

SIZE = 64  # points per axis in the stored square
OFF = 32  # the origin (0, 0) sits at (OFF, OFF)
NUM_POINTS = SIZE * SIZE
NUM_CELLS = NUM_POINTS * 2

#: The first tile of every round goes here, as an UP cell. Any other choice is the same
#: position rotated (the lattice is symmetric under 120° turns about a cell's centre and
#: under 180° turns that swap UP and DOWN), so the opening move only picks a tile.
ORIGIN_XY = (0, 0)

#: A board holds at most 56 tiles, each sharing an edge with an earlier one, so every cell
#: of a round lies within 55 edge steps of the first cell.
MAX_STEPS = 55


def point(x: int, y: int) -> int:
    """The integer id of lattice point (x, y)."""
    return (x + OFF) * SIZE + (y + OFF)


def point_xy(p: int) -> tuple[int, int]:
    return p // SIZE - OFF, p % SIZE - OFF


def cell(x: int, y: int, d: int) -> int:
    """The integer id of cell (x, y, d)."""
    return point(x, y) * 2 + d


def cell_xyd(c: int) -> tuple[int, int, int]:
    x, y = point_xy(c >> 1)
    return x, y, c & 1


ORIGIN = cell(ORIGIN_XY[0], ORIGIN_XY[1], UP)


def _corners_xy(x: int, y: int, d: int) -> tuple[tuple[int, int], ...]:
    if d == UP:
        return (x, y), (x, y + 1), (x + 1, y)
    return (x, y + 1), (x + 1, y + 1), (x + 1, y)


def _edge_nbrs_xyd(x: int, y: int, d: int) -> tuple[tuple[int, int, int], ...]:
    if d == UP:
        # edge 0 (x,y)-(x,y+1): left; edge 1 (x,y+1)-(x+1,y): right; edge 2: bottom
        return (x - 1, y, DOWN), (x, y, DOWN), (x, y - 1, DOWN)
    # edge 0 (x,y+1)-(x+1,y+1): top; edge 1 (x+1,y+1)-(x+1,y): right; edge 2: left
    return (x, y + 1, UP), (x + 1, y, UP), (x, y, UP)


def _point_cells_xy(x: int, y: int) -> tuple[tuple[int, int, int], ...]:
    """The six cells around point (x, y), counter-clockwise from the UP cell to its upper right."""
    return (
        (x, y, UP),
        (x - 1, y, DOWN),
        (x - 1, y, UP),
        (x - 1, y - 1, DOWN),
        (x, y - 1, UP),
        (x, y - 1, DOWN),
    )


def _inside(x: int, y: int) -> bool:
    return -OFF + 2 <= x <= OFF - 3 and -OFF + 2 <= y <= OFF - 3


def _build() -> tuple[list[Any], list[Any], list[Any], list[Any], list[Any]]:
    """The tables below: a tuple per cell (per point) on the board, None outside it."""
    corners: list[Any] = [None] * NUM_CELLS
    edge_nbr: list[Any] = [None] * NUM_CELLS
    touch: list[Any] = [None] * NUM_CELLS
    point_cells: list[Any] = [None] * NUM_POINTS
    for x in range(-OFF + 1, OFF - 1):
        for y in range(-OFF + 1, OFF - 1):
            point_cells[point(x, y)] = tuple(cell(*c) for c in _point_cells_xy(x, y))
    for x in range(-OFF, OFF):
        for y in range(-OFF, OFF):
            if not _inside(x, y):
                continue
            for d in (UP, DOWN):
                c = cell(x, y, d)
                pts = tuple(point(px, py) for px, py in _corners_xy(x, y, d))
                corners[c] = pts
                edge_nbr[c] = tuple(cell(*n) for n in _edge_nbrs_xyd(x, y, d))
                around = []
                for p in pts:
                    for n in point_cells[p]:
                        if n != c and n not in around:
                            around.append(n)
                touch[c] = tuple(around)
    return corners, edge_nbr, touch, point_cells, []


#: CORNERS[c]: the three points of cell c, clockwise.
#: EDGE_NBR[c][k]: the cell across edge k (between corners k and k+1).
#: TOUCH[c]: the 12 cells sharing at least one point with c (3 by an edge, 9 by a point only).
#: POINT_CELLS[p]: the six cells around point p.
CORNERS, EDGE_NBR, TOUCH, POINT_CELLS, _ = _build()


def point_only_nbrs(c: int) -> tuple[int, ...]:
    """The 9 cells that touch c at a point but share no edge with it."""
    edges = set(EDGE_NBR[c])
    return tuple(n for n in TOUCH[c] if n not in edges)


def _window() -> list[int]:
    """Every cell within MAX_STEPS edge steps of ORIGIN, in breadth-first order."""
    seen = {ORIGIN: 0}
    order = [ORIGIN]
    queue = deque([ORIGIN])
    while queue:
        c = queue.popleft()
        dist = seen[c]
        if dist == MAX_STEPS:
            continue
        for n in EDGE_NBR[c]:
            if n not in seen:
                seen[n] = dist + 1
                order.append(n)
                queue.append(n)
    return order


#: The cells a round can ever reach, in breadth-first order from ORIGIN (index 0). Action ids
#: number placements over this window.
WINDOW_CELLS: list[int] = _window()
NUM_WINDOW = len(WINDOW_CELLS)
#: WINDOW_INDEX[c]: the index of cell c in WINDOW_CELLS, or -1 outside the window.
WINDOW_INDEX: list[int] = [-1] * NUM_CELLS
for _i, _c in enumerate(WINDOW_CELLS):
    WINDOW_INDEX[_c] = _i
del _i, _c


#: The largest |x| or |y| a record may name for a cell: inside the stored square, so `cell()` is
#: safe, and past the window (anchors within -28..27), so a cell outside it gets a clear error.
RECORD_REACH = 30


def in_window(c: int) -> bool:
    return 0 <= c < NUM_CELLS and WINDOW_INDEX[c] >= 0


def plane_xy(x: float, y: float) -> tuple[float, float]:
    """Plane position of lattice point (x, y) (unit edges, y up), for renderers."""
    return x + y / 2.0, y * 0.8660254037844386
