"""A compact factored action space for Triominos: (tile, open-cell slot), then draw, pass, stop.

Index ``tile * MAX_OPEN + slot`` places tile ``tile`` (its index in components.NUMS) on the
``slot``-th cell of ``view["open"]`` (top row first, then left to right); on the empty board of
a round's opening move slot 0 is the opening cell (0, 0) up. Then come DRAW, PASS and STOP at
``NUM_TILES * MAX_OPEN`` + 0, 1, 2. The rotation is not part of the index: as in the engine, at
most one rotation of a tile fits a cell touching the board, and the engine restores it.

The layout (MAX_OPEN, the DRAW/PASS/STOP offsets, the slot order) is declared in
`meeple.batch.triominos_layout`, which the batched simulator shares. MAX_OPEN = 58 can never be
exceeded (proof there; random play: at most 46 seen over 3,000 rounds). Should a view ever hold
more, ``factored_mask`` raises AssertionError rather than silently drop placements.

``FACTORED`` is the same space as the PettingZoo env's optional action space, read from the
state's public board and the mover's legal ids rather than from a view.
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING

import numpy as np

from meeple.batch.triominos_layout import (
    FACTORED_DRAW,
    FACTORED_PASS,
    FACTORED_SIZE,
    FACTORED_STOP,
    MAX_OPEN,
    slot_order,
)
from meeple.core.errors import IllegalAction
from meeple.games.triominos.actions import DRAW_ID
from meeple.games.triominos.components import FIT, INDEX
from meeple.games.triominos.geometry import (
    NUM_CELLS,
    NUM_WINDOW,
    ORIGIN,
    UP,
    WINDOW_CELLS,
    WINDOW_INDEX,
    cell,
    cell_xyd,
)

if TYPE_CHECKING:
    from meeple.games.triominos.state import TriominosState
    from meeple.games.triominos.view_types import TriominosView

_DIR = {"up": 0, "down": 1}
_CELL = itemgetter("x", "y", "dir")


def factored_size() -> int:
    """56 tiles x MAX_OPEN slots, then draw, pass, stop."""
    return FACTORED_SIZE


def _slots(view: TriominosView) -> list[tuple[int, int, int]]:
    """The open cells as (x, y, d) in slot order; the opening cell alone on an empty board."""
    if not view["board"]:
        return [(0, 0, UP)]
    slots = [(x, y, _DIR[d]) for x, y, d in map(_CELL, view["open"])]
    assert len(slots) <= MAX_OPEN, f"{len(slots)} open cells exceed MAX_OPEN={MAX_OPEN}"
    return slots


def _corners(x: int, y: int, d: int) -> tuple[tuple[int, int], ...]:
    if d == UP:
        return (x, y), (x, y + 1), (x + 1, y)
    return (x, y + 1), (x + 1, y + 1), (x + 1, y)


def factored_mask(view: TriominosView) -> np.ndarray:
    """Bool array over the factored space: True exactly for the legal moves of the view's seat
    (all False when it is not that seat's turn or the game is over)."""
    mask = np.zeros(factored_size(), dtype=bool)
    seat = view["seat"]
    if seat is None or view["current_player"] != seat:
        return mask
    slots = _slots(view)
    rack = [INDEX[name] for name in view["rack"]]
    if not view["board"]:  # M8: the opener places any rack tile on the opening cell
        mask[[t * MAX_OPEN for t in rack]] = True
        return mask
    draws = view["draws_this_turn"]
    if view["options"]["drawn_tile_only"] and draws:
        rack = [INDEX[view["last_drawn"]]]
    number: dict[tuple[int, int], int] = {}
    for b in view["board"]:
        for point, k in zip(_corners(b["x"], b["y"], _DIR[b["dir"]]), b["corners"]):
            number[point] = k + 1
    mine = set(rack)
    for slot, (x, y, d) in enumerate(slots):
        p0, p1, p2 = (number.get(p, 0) for p in _corners(x, y, d))
        for t, _ in FIT[p0 * 49 + p1 * 7 + p2]:
            if t in mine:
                mask[t * MAX_OPEN + slot] = True
    if draws < 3:
        mask[FACTORED_DRAW if view["pool"] else FACTORED_PASS] = True
    else:
        mask[FACTORED_STOP] = True
    return mask


def to_engine(view: TriominosView, factored_index: int) -> int:
    """The engine action id (TriominosState.action_from_id) of a factored index in `view`."""
    if not 0 <= factored_index < factored_size():
        raise ValueError(f"factored index {factored_index} is outside 0..{factored_size() - 1}")
    if factored_index >= FACTORED_DRAW:
        return DRAW_ID + factored_index - FACTORED_DRAW
    t, slot = divmod(factored_index, MAX_OPEN)
    slots = _slots(view)
    if slot >= len(slots):
        raise ValueError(f"slot {slot}: the view has only {len(slots)} open cells")
    return t * NUM_WINDOW + WINDOW_INDEX[cell(*slots[slot])]


def from_engine(view: TriominosView, engine_id: int) -> int:
    """The factored index of an engine action id in `view`; ValueError if its cell is not open."""
    if not 0 <= engine_id < DRAW_ID + 3:
        raise ValueError(f"engine id {engine_id} is outside 0..{DRAW_ID + 2}")
    if engine_id >= DRAW_ID:
        return FACTORED_DRAW + engine_id - DRAW_ID
    t, w = divmod(engine_id, NUM_WINDOW)
    where = cell_xyd(WINDOW_CELLS[w])
    slots = _slots(view)
    if where not in slots:
        raise ValueError(f"action {engine_id}: cell {where} is not an open cell of this view")
    return t * MAX_OPEN + slots.index(where)


#: Per engine cell, its sort key among the slots (`slot_order`), so a board's slots sort in C.
_SLOT_KEY: list[tuple[int, int]] = [slot_order(*cell_xyd(c)) for c in range(NUM_CELLS)]
_OPENING_SLOTS = [ORIGIN]


def _state_slots(state: TriominosState) -> list[int]:
    """The open cells (engine cell ids) in slot order, read from the state's board (public):
    the same order as `_slots` of the view; the opening cell alone on an empty board."""
    board = state.board
    if board.empty:
        return _OPENING_SLOTS
    return sorted(board.open, key=_SLOT_KEY.__getitem__)


class FactoredActions:
    """The factored space as an env's action space (`env("triominos", action_space="factored")`):
    masks and actions read from the state's board and the mover's legal engine ids, the same as
    `factored_mask` and `to_engine` of the mover's view."""

    size = FACTORED_SIZE

    def mask(self, state: TriominosState, legal_ids: list[int]) -> np.ndarray:
        """int8 over the factored space, 1 at the factored index of each legal engine id."""
        slot_of = {c: k for k, c in enumerate(_state_slots(state))}
        out = np.zeros(FACTORED_SIZE, dtype=np.int8)
        out.put([FACTORED_DRAW + i - DRAW_ID if i >= DRAW_ID
                 else i // NUM_WINDOW * MAX_OPEN + slot_of[WINDOW_CELLS[i % NUM_WINDOW]] for i in legal_ids], 1)
        return out

    def to_engine(self, state: TriominosState, index: int) -> int:
        """The engine id of factored `index` now; IllegalAction when it names no open cell."""
        if not 0 <= index < FACTORED_SIZE:
            raise IllegalAction("rules", f"factored action {index} is outside 0..{FACTORED_SIZE - 1}")
        if index >= FACTORED_DRAW:
            return DRAW_ID + index - FACTORED_DRAW
        t, slot = divmod(index, MAX_OPEN)
        slots = _state_slots(state)
        if slot >= len(slots):
            raise IllegalAction("M2", f"factored action {index}: slot {slot}, "
                                      f"but the board has {len(slots)} open cells")
        return t * NUM_WINDOW + WINDOW_INDEX[slots[slot]]


FACTORED = FactoredActions()
