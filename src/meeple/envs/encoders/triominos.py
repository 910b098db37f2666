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

from collections.abc import Mapping
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
from meeple.games.triominos.components import INDEX, NUM_TILES

if TYPE_CHECKING:
    from meeple.games.triominos.view_types import TriominosView

_DIR = {"up": 0, "down": 1}
_FIELDS = itemgetter("x", "y", "dir", "corners", "tile")
_CELL = itemgetter("x", "y", "dir")
_TILE_AT = {name: PLACED + t for name, t in INDEX.items()}
_DOWN_AT = (COVERED + 1) * AREA


def shape(num_players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
    """The same flat shape for every player count and option."""
    return (SIZE,)


def _squash(score: float) -> float:
    return 0.5 + 0.5 * score / (abs(score) + 100.0)


def encode(view: TriominosView, seat: int, num_players: int, options: Mapping[str, Any]) -> np.ndarray:
    """The observation of `seat` from its view (see the module docstring for the layout)."""
    out = np.zeros(SIZE, dtype=np.float32)
    n = num_players
    hot: list[int] = []
    add = hot.append
    board = view["board"]
    for x, y, d, (c0, c1, c2), tile in map(_FIELDS, board):
        at = (x + REACH) * SIDE + y + REACH
        if d == "up":  # corners (x, y), (x, y+1), (x+1, y)
            hot += (c0 * AREA + at, c1 * AREA + at + 1, c2 * AREA + at + SIDE, COVERED * AREA + at, _TILE_AT[tile])
        else:  # corners (x, y+1), (x+1, y+1), (x+1, y)
            hot += (c0 * AREA + at + 1, c1 * AREA + at + SIDE + 1, c2 * AREA + at + SIDE, _DOWN_AT + at, _TILE_AT[tile])
    if board:
        b = board[-1]
        add((LAST + _DIR[b["dir"]]) * AREA + (b["x"] + REACH) * SIDE + b["y"] + REACH)
    for x, y, d in map(_CELL, view["open"]):
        add((OPEN + _DIR[d]) * AREA + (x + REACH) * SIDE + y + REACH)
    for name in view["rack"]:
        add(RACK + INDEX[name])
    if "last_drawn" in view:
        add(LAST_DRAWN + INDEX[view["last_drawn"]])
    for go in view["opening"]:
        for draw in go:
            add(OPENING + INDEX[draw["tile"]])
    current = view["current_player"]
    if current is not None:
        add(TO_MOVE + (current - seat) % n)
    add(OPENER + (view["opener"] - seat) % n)
    add(DRAWS + view["draws_this_turn"])
    add(PLAYERS + n - 2)
    out[hot] = 1.0
    sizes, drawn, scores = view["rack_sizes"], view["drawn_this_round"], view["scores"]
    for j in range(n):
        rel = (j - seat) % n
        out[RACK_SIZES + rel] = sizes[j] / NUM_TILES
        out[DRAWN + rel] = drawn[j] / NUM_TILES
        out[SCORES + rel] = _squash(scores[j])
    out[POOL] = view["pool"] / NUM_TILES
    out[ROUND] = 1.0 - 1.0 / view["round"]
    out[OVER] = current is None
    opts = view["options"]
    out[OPTIONS] = bool(opts["drawn_tile_only"])
    out[OPTIONS + 1] = bool(opts["match"])
    target = opts["target"]
    out[OPTIONS + 2] = target / (target + 400.0)
    return out
