"""Triominos' observation layout and factored action space, declared once for the encoder
(`meeple.envs.encoders.triominos`, from a view), the factored actions
(`meeple.envs.encoders.triominos_actions`) and the batched simulator (`meeple.batch.triominos`,
from arrays), so the three cannot drift apart. Layout table: docs/games/triominos.md,
"Observation encoding (meeple.envs)".

The batch owns this module because it sits below `envs` (core <- games <- batch <- envs): the
engine's 258,779 action ids cannot be a mask of thousands of games, so the batch numbers its
actions in the factored space declared here, as the learners' envs do.

Observation: ``PLANES`` planes of ``SIDE x SIDE`` over the anchors (x, y) in -REACH..REACH, index
``(x + REACH) * SIDE + (y + REACH)``, then a flat tail (seats relative to the observer).

Factored actions: ``tile * MAX_OPEN + slot`` places `tile` on the `slot`-th open cell in the
view's order (top row first, then left to right: `slot_order`); on the empty board of a round's
opening move slot 0 is the opening cell (0, 0) up. Then DRAW, PASS and STOP. MAX_OPEN = 58 can
never be exceeded: the first tile leaves 3 open cells and every later one closes its own cell
and opens at most the two others across its free edges, so k tiles leave at most k + 2 open
cells, and a round has at most 56 tiles.
"""

from __future__ import annotations

from meeple.games.triominos.components import NUM_TILES

# -- observation ------------------------------------------------------------------------------
#: Anchors run over -REACH..REACH on both axes: every window cell (anchors -28..27) and point.
REACH = 28
SIDE = 2 * REACH + 1
AREA = SIDE * SIDE
#: Planes: 0-5 the number k on point (x, y); 6/7 up/down cell (x, y) covered; 8/9 open;
#: 10/11 the tile placed last is on the up/down cell (x, y).
PLANES = 12
COVERED, OPEN, LAST = 6, 8, 10
SEATS = 4  # seat slots in the tail, for every player count

# Offsets of the tail, after the planes.
RACK = PLANES * AREA  # 56: tiles on the observer's rack
LAST_DRAWN = RACK + NUM_TILES  # 56: the tile the observer drew last this turn (one-hot)
PLACED = LAST_DRAWN + NUM_TILES  # 56: tiles on the board
OPENING = PLACED + NUM_TILES  # 56: tiles shown in this round's opening draw (M8)
RACK_SIZES = OPENING + NUM_TILES  # 4 seats: rack size / 56
DRAWN = RACK_SIZES + SEATS  # 4 seats: tiles drawn this round / 56
SCORES = DRAWN + SEATS  # 4 seats: 0.5 + 0.5 * s / (|s| + 100)
TO_MOVE = SCORES + SEATS  # 4 seats: one-hot, the seat to act (all zero once over)
OPENER = TO_MOVE + SEATS  # 4 seats: one-hot, this round's opener
DRAWS = OPENER + SEATS  # 4: one-hot, draws taken this turn (0-3)
POOL = DRAWS + 4  # 1: pool size / 56
PLAYERS = POOL + 1  # 3: one-hot, 2, 3 or 4 players
ROUND = PLAYERS + 3  # 1: 1 - 1 / round (0 in the first round)
OVER = ROUND + 1  # 1: the game has ended
OPTIONS = OVER + 1  # 3: drawn_tile_only, match, target / (target + 400)
SIZE = OPTIONS + 3


def anchor(x: int, y: int) -> int:
    """The index of anchor (x, y) within a plane."""
    return (x + REACH) * SIDE + y + REACH


# -- factored actions -------------------------------------------------------------------------
#: Open-cell slots: the proven bound (56 tiles + 2), above the 46 seen in random play.
MAX_OPEN = 58
#: The first index after the placements: DRAW, then PASS, then STOP.
FACTORED_DRAW = NUM_TILES * MAX_OPEN
FACTORED_PASS = FACTORED_DRAW + 1
FACTORED_STOP = FACTORED_DRAW + 2
FACTORED_SIZE = FACTORED_DRAW + 3


def slot_order(x: int, y: int, d: int) -> tuple[int, int]:
    """The sort key of open cell (x, y, d) among the slots (and in a view's "open" list): the
    top row first (y descending), then left to right (2x + y + d is the cell's horizontal
    position in half edges). Distinct cells have distinct keys."""
    return -y, 2 * x + y + d
