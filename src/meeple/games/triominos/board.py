"""The table: placed tiles, the number on every touched lattice point, and the open cells.

Everything is kept incrementally so that finding legal placements never rescans the board:

* ``vnum[p]``: number + 1 on lattice point p (0: no tile touches p). M2 makes this one number
  per point, so a cell's constraint is just the numbers on its three corners (its *pattern*).
* ``fill[p]``: how many of the six cells around p are covered (6 = a hexagon, M5).
* ``open``: every empty cell sharing an edge with a placed tile, mapped to its pattern.
* ``fits[t]``: for tile t (not yet placed), the open cells it fits, with the one rotation that
  fits (an edge fixes which two numbers meet, so at most one rotation fits; see geometry).

Placing a tile changes the patterns only of the 12 cells touching it, so the bookkeeping costs
a few dozen dictionary operations per tile.
"""

from __future__ import annotations

from .geometry import CORNERS, EDGE_NBR, NUM_CELLS, NUM_POINTS, ORIGIN, TOUCH, WINDOW_INDEX
from .tiles import FIT, NUM_TILES, shown

EMPTY = 255

# Bonus kinds (M4, M5): the number of hexagons completed (0-3), or BRIDGE. Points: scoring.
NO_BONUS = 0
BRIDGE = 4


class Board:
    """Placed tiles with incremental lattice bookkeeping. Knows nothing about players."""

    __slots__ = ("occ", "vnum", "fill", "open", "fits", "placed", "history")

    def __init__(self) -> None:
        self.occ = bytearray(b"\xff") * NUM_CELLS  # tile on each cell, EMPTY if none
        self.vnum = bytearray(NUM_POINTS)
        self.fill = bytearray(NUM_POINTS)
        self.open: dict[int, int] = {}
        self.fits: list[dict[int, int]] = [{} for _ in range(NUM_TILES)]
        self.placed = bytearray(NUM_TILES)
        self.history: list[tuple[int, int, int]] = []  # (tile, cell, rotation) in order

    def clone(self) -> "Board":
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
        if not (0 <= c < NUM_CELLS) or WINDOW_INDEX[c] < 0:
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
        corners = CORNERS[c]
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

    @classmethod
    def replay(cls, history: list[tuple[int, int, int]]) -> "Board":
        """A board from placements in order; ValueError if one breaks M2."""
        board = cls()
        for t, c, r in history:
            if not (0 <= t < NUM_TILES) or board.placed[t]:
                raise ValueError(f"tile {t} is not available")
            if not (0 <= c < NUM_CELLS) or WINDOW_INDEX[c] < 0:
                raise ValueError(f"cell {c} is outside the board window")
            if not board.fits_at(t, c, r):
                raise ValueError(f"placing tile {t} on cell {c} breaks M2: {board.why_not(t, c, r)}")
            board.place(t, c, r)
        return board
