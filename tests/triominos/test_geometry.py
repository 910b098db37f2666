"""The lattice: corners clockwise, neighbours symmetric, the id window covers every reachable cell."""

from __future__ import annotations

from collections import deque

import pytest

from meeple.games.triominos.geometry import (
    CORNERS,
    DOWN,
    EDGE_NBR,
    MAX_STEPS,
    NUM_WINDOW,
    ORIGIN,
    POINT_CELLS,
    TOUCH,
    UP,
    WINDOW_CELLS,
    WINDOW_INDEX,
    cell,
    cell_xyd,
    plane_xy,
    point,
    point_only_nbrs,
    point_xy,
)

SAMPLE = [cell(x, y, d) for x in range(-4, 5) for y in range(-4, 5) for d in (UP, DOWN)]


def signed_area(c: int) -> float:
    pts = [plane_xy(*point_xy(p)) for p in CORNERS[c]]
    (ax, ay), (bx, by), (cx, cy) = pts
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


@pytest.mark.parametrize("c", SAMPLE[:40])
def test_corners_read_clockwise(c):
    assert signed_area(c) < 0  # negative area: clockwise with y drawn upwards


def test_coordinates_round_trip():
    for c in SAMPLE:
        assert cell(*cell_xyd(c)) == c
    assert point_xy(point(-7, 11)) == (-7, 11)
    assert cell_xyd(ORIGIN) == (0, 0, UP)


def test_edge_neighbours_share_exactly_the_edge_points():
    for c in SAMPLE:
        for k, n in enumerate(EDGE_NBR[c]):
            edge = {CORNERS[c][k], CORNERS[c][(k + 1) % 3]}
            assert set(CORNERS[n]) & set(CORNERS[c]) == edge
            assert c in EDGE_NBR[n]
            assert (c & 1) != (n & 1)  # up and down cells alternate


def test_six_cells_around_a_point_and_twelve_around_a_cell():
    for c in SAMPLE:
        for p in CORNERS[c]:
            assert len(set(POINT_CELLS[p])) == 6 and c in POINT_CELLS[p]
            assert all(p in CORNERS[n] for n in POINT_CELLS[p])
        assert len(TOUCH[c]) == 12 and c not in TOUCH[c]
        assert len(point_only_nbrs(c)) == 9
        for n in point_only_nbrs(c):
            assert len(set(CORNERS[n]) & set(CORNERS[c])) == 1


def test_window_holds_every_cell_within_55_edge_steps():
    # A round has at most 56 tiles, each sharing an edge with an earlier one.
    dist = {ORIGIN: 0}
    queue = deque([ORIGIN])
    while queue:
        c = queue.popleft()
        if dist[c] == MAX_STEPS:
            continue
        for n in EDGE_NBR[c]:
            if n not in dist:
                dist[n] = dist[c] + 1
                queue.append(n)
    assert MAX_STEPS == 55
    assert set(WINDOW_CELLS) == set(dist) and len(WINDOW_CELLS) == NUM_WINDOW
    assert WINDOW_CELLS[0] == ORIGIN
    assert all(WINDOW_INDEX[c] == i for i, c in enumerate(WINDOW_CELLS))
    # Tables exist one step beyond the window (the board looks at a placed cell's neighbours).
    for c in WINDOW_CELLS:
        for n in TOUCH[c]:
            assert CORNERS[n] is not None and EDGE_NBR[n] is not None


def test_window_is_tight_enough_that_a_straight_strip_reaches_its_edge():
    # 56 tiles in a straight strip run 27 points to the right: that cell is in the window.
    far = cell(27, 0, UP)
    assert WINDOW_INDEX[far] >= 0
    assert WINDOW_INDEX[cell(29, 0, UP)] == -1
