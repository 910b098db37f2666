"""Building Triominos test positions from readable descriptions.

A board is written as placements in order, each ``(x, y, "up"|"down", "abc")`` where "abc" are
the numbers at the cell's corners read clockwise (see geometry). The helper finds the tile and
its rotation, so a triple that no tile shows in that order (a mirror image) raises at once.
Positions go through ``Game.from_json``, which replays the board under M2.
"""

from __future__ import annotations

import json
import re
from typing import Any

from meeple.core.protocol import Event
from meeple.games.triominos.actions import Place
from meeple.games.triominos.components import INDEX, INDEX_BY_NUMS, NAME, NUM_TILES, shown
from meeple.games.triominos.game import TriominosGame
from meeple.games.triominos.geometry import cell
from meeple.games.triominos.state import TriominosState

GAME = TriominosGame()
TILE_NAME = re.compile(r"\b[0-5]-[0-5]-[0-5]\b")

#: A board written for tests: placements in order, each (x, y, "up"|"down", clockwise corners).
Figure = tuple[list[tuple[int, int, str, str]], tuple[int, int, str, str]]


def oriented(corners: str) -> tuple[int, int]:
    """(tile, rotation) showing these clockwise corner numbers; ValueError for a mirror image."""
    nums = tuple(int(ch) for ch in corners)
    low, mid, high = sorted(nums)
    tile = INDEX_BY_NUMS.get((low, mid, high))
    if tile is None:
        raise ValueError(f"no tile has the numbers {corners}")
    for r in range(3):
        if shown(tile, r) == nums:
            return tile, r
    raise ValueError(f"{corners} read clockwise is the mirror image of tile {NAME[tile]} (M1)")


def placement(x: int, y: int, d: str, corners: str) -> tuple[int, int, int]:
    tile, r = oriented(corners)
    return tile, cell(x, y, 0 if d == "up" else 1), r


def position(
    num_players: int,
    board: list[tuple[int, int, str, str]],
    racks: list[list[str]],
    current: int = 0,
    pool: list[str] | None = None,
    totals: list[int] | None = None,
    draws: int = 0,
    last_drawn: str | None = None,
    draw_next: str | None = None,
    **options: Any,
) -> TriominosState:
    """A state with this board, these racks and the rest of the tiles in the pool (`draw_next`
    on top, so it is the next tile drawn). `pool=[]` empties the pool by taking the leftover tiles
    out of play: only the turn logic is under test then, not the 56-tile count."""
    state = GAME.new_game(num_players, seed=1, **options)
    data = state.to_json()
    placed = []
    for x, y, d, corners in board:
        tile, r = oriented(corners)
        placed.append([NAME[tile], x, y, 0 if d == "up" else 1, r])
    used = {p[0] for p in placed} | {t for rack in racks for t in rack}
    empty_pool = pool == []
    if pool is None or empty_pool:
        pool = [NAME[t] for t in range(NUM_TILES) if NAME[t] not in used]
    if draw_next is not None:
        pool.remove(draw_next)
        pool.append(draw_next)
    data.update(
        board=placed,
        racks=[[INDEX[t] for t in r] for r in racks],
        pool=[INDEX[t] for t in pool],
        current=current,
        draws=draws,
        last_drawn=-1 if last_drawn is None else INDEX[last_drawn],
        drawn=[0] * num_players,
        totals=list(totals or [0] * num_players),
        idle=0,
    )
    data["parts"] = [[[0] * 10 for _ in range(num_players)]]
    if totals:
        for seat, value in enumerate(totals):
            data["parts"][0][seat][0] = value  # carried in as placed-tile points
    state = GAME.from_json(data)
    if empty_pool:
        state.pool.clear()
    return state


def place(state: TriominosState, x: int, y: int, d: str, corners: str) -> list[Event]:
    """Apply the placement described like a board entry; returns the events."""
    tile, c, r = placement(x, y, d, corners)
    return state.apply(Place(tile, c, r))


# The rulebook's figures F-I rebuilt with real tiles (found by a small search, checked by M2 on
# load). Each is (board before the move, the scoring move).
FIG_F_BRIDGE: Figure = (
    [(0, 0, "up", "034"), (0, -1, "down", "040"), (1, -1, "up", "044"), (1, -1, "down", "414"),
     (2, -1, "up", "411"), (2, -1, "down", "101"), (2, 0, "up", "100"), (1, 0, "down", "401")],
    (0, 0, "down", "344"),
)
FIG_G_HEXAGON: Figure = (
    [(0, 0, "up", "015"), (0, -1, "down", "055"), (1, -1, "up", "553"), (1, -1, "down", "523"),
     (1, 0, "up", "552")],
    (0, 0, "down", "155"),
)
FIG_H_DOUBLE: Figure = (
    [(0, 0, "up", "035"), (-1, 0, "down", "030"), (0, -1, "down", "050"), (-1, 1, "up", "013"),
     (1, -1, "up", "055"), (-1, 1, "down", "133"), (1, -1, "down", "545"), (0, 1, "up", "334"),
     (1, 0, "up", "544")],
    (0, 0, "down", "345"),
)
FIG_I_TRIPLE: Figure = (
    [(0, 0, "up", "111"), (-1, 0, "down", "211"), (0, -1, "down", "110"), (-1, 1, "up", "221"),
     (1, -1, "up", "010"), (-1, 1, "down", "231"), (1, -1, "down", "140"), (0, 1, "up", "133"),
     (1, 0, "up", "134"), (0, 1, "down", "333"), (1, 0, "down", "344"), (1, 1, "up", "334")],
    (0, 0, "down", "131"),
)
#: A notch: the move shares two edges (with the origin and with up(1,0)), no hexagon forms.
NOTCH: Figure = (
    [(0, 0, "up", "034"), (-1, 0, "down", "030"), (-1, 1, "up", "013"), (-1, 1, "down", "113"),
     (-1, 2, "up", "111"), (-1, 2, "down", "121"), (0, 2, "up", "122"), (0, 1, "down", "124"),
     (1, 1, "up", "422"), (1, 0, "down", "424"), (1, 0, "up", "444")],
    (0, 0, "down", "344"),
)


def figure_state(figure: Figure, num_players: int = 2, extra_rack: list[str] | None = None) -> TriominosState:
    """The figure's board with seat 0 to move holding the scoring tile (plus `extra_rack`)."""
    board, move = figure
    tile, _ = oriented(move[3])
    mine = [NAME[tile], *(extra_rack or ["0-0-0"])]
    used = {NAME[oriented(b[3])[0]] for b in board} | set(mine)
    spare = [NAME[t] for t in range(NUM_TILES) if NAME[t] not in used]
    racks = [mine] + [spare[i * 3:(i + 1) * 3] for i in range(num_players - 1)]
    return position(num_players, board, racks)


def tiles_accounted(state: TriominosState) -> None:
    """All 56 tiles, each exactly once: pool, racks or board."""
    where = state.pool + [t for rack in state.racks for t in rack] + [t for t, _, _ in state.board.history]
    assert sorted(where) == list(range(NUM_TILES))


def views_leak_nothing(state: TriominosState) -> None:
    """A seat's view names only tiles on the board, on its own rack, or from the public opening draw."""
    public = {NAME[t] for t, _, _ in state.board.history} | {NAME[t] for go in state.opening for _, t in go}
    for seat in [None, *range(state.num_players)]:
        text = json.dumps(state.view(seat))
        own = {NAME[t] for t in state.racks[seat]} if seat is not None else set()
        assert set(TILE_NAME.findall(text)) <= public | own
