"""Triominos observation: board planes over the whole reachable lattice, then a flat tail.

One flat float32 vector (layout: docs/games/triominos.md, "Observation encoding (meeple.envs)";
its offsets are declared in `meeple.batch.triominos_layout`, shared with the batched simulator).
The first ``PLANES * SIDE * SIDE`` values are ``PLANES`` planes of ``SIDE x SIDE`` over the
anchors (x, y) in -28..28, index ``(x + 28) * SIDE + (y + 28)``; a learner may reshape them to
``(PLANES, SIDE, SIDE)``. The tail holds the racks, tiles, scores and turn, seats relative to
the observer (the observer first, then the next seats in turn order). The shape is the same
for every player count (four seat slots; absent seats are zero) and every option.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache, lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING, Any

import numpy as np

from meeple.batch.triominos_layout import (
    AREA,
    COVERED,
    DRAWN,
    DRAWS,
    LAST,
    LAST_DRAWN,
    OPEN,
    OPENER,
    OPENING,
    OPTIONS,
    OVER,
    PLACED,
    PLAYERS,
    POOL,
    RACK,
    RACK_SIZES,
    REACH,
    ROUND,
    SCORES,
    SIDE,
    SIZE,
    TO_MOVE,
)
from meeple.envs.encoders.blocks import BlockCache
from meeple.envs.encoders.triominos_actions import FACTORED
from meeple.games.triominos.components import INDEX, NUM_TILES, shown
from meeple.games.triominos.geometry import NUM_CELLS, cell_xyd

if TYPE_CHECKING:
    from meeple.games.triominos.placements import Board
    from meeple.games.triominos.state import TriominosState
    from meeple.games.triominos.view_types import TriominosView

_DIR = {"up": 0, "down": 1}
_FIELDS = itemgetter("x", "y", "dir", "corners", "tile")
_CELL = itemgetter("x", "y", "dir")
_DOWN_AT = (COVERED + 1) * AREA

#: The env's action spaces besides the engine's: the engine's 258,779 ids make a mask that costs
#: more than the observation and an output no policy can learn; the factored one has 3,251 and
#: is the env's default (as in `meeple.batch.triominos`); `action_space="engine"` gives the ids.
action_spaces = {"factored": FACTORED}
default_action_space = "factored"


def shape(num_players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
    """The same flat shape for every player count and option."""
    return (SIZE,)


def _squash(score: float) -> float:
    return 0.5 + 0.5 * score / (abs(score) + 100.0)


def encode(view: TriominosView, seat: int, num_players: int, options: Mapping[str, Any]) -> np.ndarray:
    """The observation of `seat` from its view (see the module docstring for the layout)."""
    hot: list[int] = []
    board = view["board"]
    for x, y, d, corners, tile in map(_FIELDS, board):
        hot += _placement(x, y, _DIR[d], tuple(corners), INDEX[tile])
    if board:
        b = board[-1]
        hot.append(_last(b["x"], b["y"], _DIR[b["dir"]]))
    hot += [(OPEN + _DIR[d]) * AREA + (x + REACH) * SIDE + y + REACH for x, y, d in map(_CELL, view["open"])]
    opts = view["options"]
    return _encode(
        hot, seat, num_players, [INDEX[name] for name in view["rack"]],
        INDEX[view["last_drawn"]] if "last_drawn" in view else -1,
        [INDEX[draw["tile"]] for go in view["opening"] for draw in go], view["current_player"], view["opener"],
        view["draws_this_turn"], view["rack_sizes"], view["drawn_this_round"], view["scores"], view["pool"],
        view["round"], (opts["drawn_tile_only"], opts["match"], opts["target"]))


def encode_state(state: TriominosState, seat: int) -> np.ndarray:
    """The same vector as `encode(state.view(seat), ...)`, read from the fields that view copies
    (the observer's own rack; the tile it drew last only on its turn) without building the view.
    The board's entries are cached by the round's placements so far: the board only grows within
    a round, so a new placement extends its parent's entries rather than re-encoding the board."""
    board = state.board
    current = state.current_player
    return _encode(
        _board_entries(board), seat, state.num_players, state.racks[seat],
        state.last_drawn if seat == current else -1, [t for go in state.opening for _, t in go], current,
        state.opener, state.draws, [len(rack) for rack in state.racks], state.drawn, state.totals, len(state.pool),
        state.round, (state.drawn_tile_only, state.match, state.target))


def _encode(board: list[int] | np.ndarray, seat: int, n: int, rack: Iterable[int], last_drawn: int,
            opening: Iterable[int], current: int | None, opener: int, draws: int, rack_sizes: Sequence[int],
            drawn: Sequence[int], scores: Sequence[int], pool: int, round_no: int,
            options: tuple[bool, bool, int]) -> np.ndarray:
    """The vector from the values a view shows (`board`: the indices the board sets to 1; tiles
    as indices into components.NUMS; `last_drawn` -1: none shown)."""
    out = np.zeros(SIZE, dtype=np.float32)
    out[board] = 1.0
    hot = [RACK + t for t in rack]
    if last_drawn >= 0:
        hot.append(LAST_DRAWN + last_drawn)
    hot += [OPENING + t for t in opening]
    if current is not None:
        hot.append(TO_MOVE + (current - seat) % n)
    hot += (OPENER + (opener - seat) % n, DRAWS + draws, PLAYERS + n - 2)
    out[hot] = 1.0
    for j in range(n):
        rel = (j - seat) % n
        out[RACK_SIZES + rel] = rack_sizes[j] / NUM_TILES
        out[DRAWN + rel] = drawn[j] / NUM_TILES
        out[SCORES + rel] = _squash(scores[j])
    out[POOL] = pool / NUM_TILES
    out[ROUND] = 1.0 - 1.0 / round_no
    out[OVER] = current is None
    drawn_tile_only, match, target = options
    out[OPTIONS] = bool(drawn_tile_only)
    out[OPTIONS + 1] = bool(match)
    out[OPTIONS + 2] = target / (target + 400.0)
    return out


def _placement(x: int, y: int, d: int, corners: tuple[int, ...], tile: int) -> tuple[int, int, int, int, int]:
    """The entries a placed tile sets: its three numbers on their points, its cell, the tile."""
    c0, c1, c2 = corners
    at = (x + REACH) * SIDE + y + REACH
    if d == 0:  # up: corners (x, y), (x, y+1), (x+1, y)
        return c0 * AREA + at, c1 * AREA + at + 1, c2 * AREA + at + SIDE, COVERED * AREA + at, PLACED + tile
    # down: corners (x, y+1), (x+1, y+1), (x+1, y)
    return c0 * AREA + at + 1, c1 * AREA + at + SIDE + 1, c2 * AREA + at + SIDE, _DOWN_AT + at, PLACED + tile


def _last(x: int, y: int, d: int) -> int:
    return (LAST + d) * AREA + (x + REACH) * SIDE + y + REACH


@lru_cache(maxsize=65536)
def _placed(t: int, c: int, r: int) -> tuple[int, int, int, int, int]:
    """`_placement` of tile t on cell c in rotation r (an engine placement)."""
    x, y, d = cell_xyd(c)
    return _placement(x, y, d, shown(t, r), t)


@cache
def _open_at() -> list[int]:
    """Per engine cell id, its entry in the open planes (-1 outside the encoded window)."""
    out = [-1] * NUM_CELLS
    for c in range(NUM_CELLS):
        x, y, d = cell_xyd(c)
        if -REACH <= x <= REACH and -REACH <= y <= REACH:
            out[c] = (OPEN + d) * AREA + (x + REACH) * SIDE + y + REACH
    return out


#: Per round lineage (the placements so far), the entries its placements set (shared by a
#: board's extensions), and all the board's entries, the open cells and the last tile included.
_BOARDS: BlockCache[tuple[tuple[int, int, int], ...], tuple[list[int], np.ndarray]] = BlockCache(1024)


def _board_entries(board: Board) -> np.ndarray:
    history = tuple(board.history)
    return _BOARDS.get(history, lambda: _board_of(board, history))[1]


def _board_of(board: Board, history: tuple[tuple[int, int, int], ...]) -> tuple[list[int], np.ndarray]:
    if not history:
        return [], np.zeros(0, dtype=np.intp)
    parent = _BOARDS.find(history[:-1])
    placed = [*parent[0], *_placed(*history[-1])] if parent else [e for p in history for e in _placed(*p)]
    x, y, d = cell_xyd(history[-1][1])
    open_at = _open_at()
    entries = [*placed, _last(x, y, d), *(open_at[c] for c in board.open)]
    return placed, np.array(entries, dtype=np.intp)

