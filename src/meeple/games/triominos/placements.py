"""The placed tiles of a round and their bookkeeping: the number on every touched lattice point
and the open cells, kept incrementally so that finding legal placements never rescans the board:

* ``vnum[p]``: number + 1 on lattice point p (0: no tile touches p). M2 makes this one number
  per point, so a cell's constraint is just the numbers on its three corners (its *pattern*).
* ``fill[p]``: how many of the six cells around p are covered (6 = a hexagon, M5).
* ``open``: every empty cell sharing an edge with a placed tile, mapped to its pattern.
* ``fits[t]``: for tile t (not yet placed), the open cells it fits, with the one rotation that
  fits (an edge fixes which two numbers meet, so at most one rotation fits; see geometry).

Placing a tile changes the patterns only of the 12 cells touching it, so the bookkeeping costs
a few dozen dictionary operations per tile. Saved, a board is just its placements in order;
loading replays them under M2, so an impossible board is rejected, not silently accepted.
"""

from __future__ import annotations

from typing import Any

from meeple.core.checks import whole_in_range
from meeple.core.errors import RecordError
from meeple.games.triominos.components import FIT, NAME, NUM_TILES, shown, tile_named
from meeple.games.triominos.geometry import (
    CORNERS,
    EDGE_NBR,
    NUM_CELLS,
    NUM_POINTS,
    ORIGIN,
    RECORD_REACH,
    TOUCH,
    cell,
    cell_xyd,
    in_window,
)

EMPTY = 255

# Bonus kinds (M4, M5): the number of hexagons completed (0-3), or BRIDGE. Points: scoring.
NO_BONUS = 0
BRIDGE = 4


class Board:
    """Placed tiles with incremental lattice bookkeeping. Knows nothing about players."""

    __slots__ = ("occ", "vnum", "fill", "open", "fits", "placed", "history")

    def __init__(self) -> None:
        self.occ = bytearray(b"\xff") * NUM_CELLS  # tile on each cell, EMPTY if none
        self.vnum = bytearray(NUM_POINTS)  # number + 1 on each lattice point, 0 if untouched
        self.fill = bytearray(NUM_POINTS)  # covered cells around each point (6: a hexagon)
        self.open: dict[int, int] = {}  # open cell -> its corner pattern
        self.fits: list[dict[int, int]] = [{} for _ in range(NUM_TILES)]  # per tile: open cell -> rotation
        self.placed = bytearray(NUM_TILES)  # 1 for each tile on the board
        self.history: list[tuple[int, int, int]] = []  # (tile, cell, rotation) in order

    def clone(self) -> Board:
        """An independent copy (every table copied; the history's tuples are immutable)."""
        new = Board.__new__(Board)
        new.occ = self.occ[:]
        new.vnum = self.vnum[:]
        new.fill = self.fill[:]
        new.open = self.open.copy()
        new.fits = [d.copy() for d in self.fits]
        new.placed = self.placed[:]
        new.history = self.history[:]
        return new

    # -- questions ----------------------------------------------------------------------------
    @property
    def empty(self) -> bool:
        return not self.history

    def fits_at(self, t: int, c: int, r: int) -> bool:
        """M2: may tile t go on cell c in rotation r now? (The first tile goes on ORIGIN.)"""
        if not self.history:
            return c == ORIGIN and r == 0
        return self.fits[t].get(c, -1) == r

    def why_not(self, t: int, c: int, r: int) -> str:
        """A reason why placing t on c in rotation r breaks M2 (for error messages)."""
        if not in_window(c):
            return "that cell is outside the board window"
        if self.occ[c] != EMPTY:
            return "that cell is already covered"
        if c not in self.open:
            return "the tile must share a full edge with a placed tile"
        nums = shown(t, r)
        for k, p in enumerate(CORNERS[c]):
            if self.vnum[p] and self.vnum[p] - 1 != nums[k]:
                return f"corner {k} shows {nums[k]} but touches a tile showing {self.vnum[p] - 1}"
        return "this rotation of the tile does not fit here"

    def bonus(self, c: int) -> int:
        """The bonus kind a tile on empty cell c would earn (M4, M5); evaluated before placing.

        Bridge (M4): exactly one edge shared, and the corner opposite that edge already touches a
        tile at its point. Hexagons (M5): corners whose six cells would all be covered. The two
        cannot coincide (a bridge leaves two edges open, so no corner is surrounded)."""
        occ = self.occ
        n0, n1, n2 = EDGE_NBR[c]
        s0, s1, s2 = occ[n0] != EMPTY, occ[n1] != EMPTY, occ[n2] != EMPTY
        corners: tuple[int, int, int] = CORNERS[c]
        if s0 + s1 + s2 == 1:
            k = 0 if s0 else (1 if s1 else 2)
            if self.vnum[corners[(k + 2) % 3]]:
                return BRIDGE
            return NO_BONUS
        fill = self.fill
        return (fill[corners[0]] == 5) + (fill[corners[1]] == 5) + (fill[corners[2]] == 5)

    def edges_shared(self, c: int) -> int:
        occ = self.occ
        return sum(occ[n] != EMPTY for n in EDGE_NBR[c])

    # -- change -------------------------------------------------------------------------------
    def place(self, t: int, c: int, r: int) -> int:
        """Put tile t on cell c in rotation r (assumed legal) and return its bonus kind."""
        kind = self.bonus(c) if self.history else NO_BONUS
        occ, vnum, fill, opened, fits, placed = self.occ, self.vnum, self.fill, self.open, self.fits, self.placed
        occ[c] = t
        placed[t] = 1
        self.history.append((t, c, r))
        nums = shown(t, r)
        p0, p1, p2 = CORNERS[c]
        if not vnum[p0]:
            vnum[p0] = nums[0] + 1
        if not vnum[p1]:
            vnum[p1] = nums[1] + 1
        if not vnum[p2]:
            vnum[p2] = nums[2] + 1
        fill[p0] += 1
        fill[p1] += 1
        fill[p2] += 1
        fits[t] = {}
        old = opened.pop(c, None)
        if old is not None:
            for tt, _ in FIT[old]:
                fits[tt].pop(c, None)
        for n in TOUCH[c]:
            if occ[n] != EMPTY:
                continue
            q0, q1, q2 = CORNERS[n]
            new = vnum[q0] * 49 + vnum[q1] * 7 + vnum[q2]
            old = opened.get(n)
            if old is None:
                e0, e1, e2 = EDGE_NBR[n]
                if occ[e0] == EMPTY and occ[e1] == EMPTY and occ[e2] == EMPTY:
                    continue
            elif old == new:
                continue
            else:
                for tt, _ in FIT[old]:
                    fits[tt].pop(n, None)
            opened[n] = new
            for tt, rr in FIT[new]:
                if not placed[tt]:
                    fits[tt][n] = rr
        return kind

    # -- saving -------------------------------------------------------------------------------
    def to_json(self) -> list[list[Any]]:
        """The placements in order, each [tile name, x, y, d, rotation] (d: 0 up, 1 down)."""
        out = []
        for t, c, r in self.history:
            x, y, d = cell_xyd(c)
            out.append([NAME[t], x, y, d, r])
        return out

    @classmethod
    def from_json(cls, obj: Any) -> Board:
        """The board after replaying `to_json()`'s placements; RecordError names the placement
        that is malformed or breaks M2."""
        if type(obj) is not list:
            raise RecordError(f"expected a list of placements, not {obj!r}")
        board = cls()
        for i, entry in enumerate(obj):
            what = f"placement {i}"
            if type(entry) is not list or len(entry) != 5:
                raise RecordError(f"{what} must be [tile, x, y, d, rot], not {entry!r}")
            t = tile_named(entry[0], what)
            x = whole_in_range(entry[1], -RECORD_REACH, RECORD_REACH, f"{what} x")
            y = whole_in_range(entry[2], -RECORD_REACH, RECORD_REACH, f"{what} y")
            c = cell(x, y, whole_in_range(entry[3], 0, 1, f"{what} d"))
            r = whole_in_range(entry[4], 0, 2, f"{what} rot")
            if board.placed[t]:
                raise RecordError(f"{what}: tile {NAME[t]} is already on the board")
            if not in_window(c):
                raise RecordError(f"{what}: cell ({x},{y}) is outside the board window")
            if not board.fits_at(t, c, r):
                raise RecordError(f"{what}: tile {NAME[t]} breaks M2 there: {board.why_not(t, c, r)}")
            board.place(t, c, r)
        return board
