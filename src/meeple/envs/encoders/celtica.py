"""Celtica observation encoder: a flat float32 vector from `view(seat)` (layout in
docs/games/celtica.md, "Observation encoding (meeple.envs)").

Seat-relative: relative seat j is seat `(seat + j) % n`, the observer first, then the players in
turn order. The board takes `MAX_LENGTH` (60) location slots, so one shape serves every board
file; the length depends only on the player count. The board's encoding is cached (the last board
seen, compared by value), the flags are set by one indexed write and every other value is written
raw as one run and scaled by one precomputed vector, so an encoding is a few numpy calls.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from meeple.games.celtica.components import (
    COLOURS,
    COPIES_PER_PART,
    DRUID_CARDS,
    DRUID_CARDS_PER_COLOUR,
    EXPERIENCE_CARDS,
    EXPERIENCE_CARDS_PER_COLOUR,
    HAND_SIZE,
    MAX_LENGTH,
    MAX_NUMBER,
    NUM_COLOURS,
    NUM_PART_TYPES,
    TOTAL_PARTS,
)
from meeple.games.celtica.phases import END_REASONS, PHASES

if TYPE_CHECKING:
    from meeple.games.celtica.view_types import CelticaView, Location

#: Location kinds in one-hot order.
KINDS = ("start", "village", "castle", "monastery", "goal", "ruin", "cult")
#: Per board location: present, kind one-hot, number / 9.
LOC_WIDTH = 1 + len(KINDS) + 1
BOARD_SIZE = MAX_LENGTH * LOC_WIDTH
#: Amulets a collection can hold (10 copies of each type) and the largest amulet (9 types).
MAX_AMULETS = COPIES_PER_PART
#: Rounds are normalised by this and clipped (an exhaustive bound: every round plays at least
#: 5n druid cards, each moving a druid one step, and 5 druids on a 60-location path reach the
#: goal in fewer than 300 steps; random games on the shipped board last at most 8 rounds).
MAX_ROUND = 32
#: The view's phases, then one for a finished game (whose view has none).
PHASE_NAMES = (*PHASES, "over")

# Layout, in order: the board, the druids' locations, then every 0/1 flag (set by one indexed
# write), then every other value (written raw as one run and scaled by one vector).
BOARD = 0
DRUID_POS = BOARD + BOARD_SIZE  # 5 colours x 60 one-hot locations
DRUID_HOME = DRUID_POS + NUM_COLOURS * MAX_LENGTH  # 5 flags: the druid is in the goal
MUST_PLAY = DRUID_HOME + NUM_COLOURS  # 5 one-hot: the observer's owed colour (none: all zero)
PHASE = MUST_PLAY + NUM_COLOURS  # 6 one-hot: play, take, give_up, cult, end, over
END_REASON = PHASE + len(PHASE_NAMES)  # 3 one-hot: parts, all_home, goal (none while it runs)
FLAGS = END_REASON + len(END_REASONS)  # final_round, printed board
PLAYER_FLAGS = FLAGS + 2  # per relative seat: owes a card, current player, ender, end queue, winner
PF_OWES, PF_CURRENT, PF_ENDER, PF_QUEUE, PF_WINNER = range(5)
PF_WIDTH = 5
#: The values run (after the player flags): druid progress (5, location / goal), pending / 9,
#: round / 32, board length / 60, display (9), supply (1), part discards (9), druid deck (1),
#: druid discards (5), experience deck (1), experience discards (5), own hand (5), own
#: experience cards (5); then per relative seat: parts per type (9), druid cards, experience
#: cards, complete amulets, amulet sizes largest first (10).
_VALUE_SCALES = (
    [1.0] * (NUM_COLOURS + 3)  # written already scaled
    + [1 / COPIES_PER_PART] * NUM_PART_TYPES
    + [1 / TOTAL_PARTS]
    + [1 / COPIES_PER_PART] * NUM_PART_TYPES
    + [1 / DRUID_CARDS]
    + [1 / DRUID_CARDS_PER_COLOUR] * NUM_COLOURS
    + [1 / EXPERIENCE_CARDS]
    + [1 / EXPERIENCE_CARDS_PER_COLOUR] * NUM_COLOURS
    + [1 / HAND_SIZE] * NUM_COLOURS
    + [1 / EXPERIENCE_CARDS_PER_COLOUR] * NUM_COLOURS
)
COMMON_VALUES = len(_VALUE_SCALES)
_P_SCALES = (
    [1 / COPIES_PER_PART] * NUM_PART_TYPES
    + [1 / HAND_SIZE, 1 / EXPERIENCE_CARDS, 1 / MAX_AMULETS]
    + [1 / NUM_PART_TYPES] * MAX_AMULETS
)
P_VALUES = len(_P_SCALES)

_PHASE_INDEX = {name: PHASE + i for i, name in enumerate(PHASE_NAMES)}
_REASON_INDEX = {name: END_REASON + i for i, name in enumerate(END_REASONS)}
_MUST_INDEX = {name: MUST_PLAY + i for i, name in enumerate(COLOURS)}
_KIND_INDEX = {k: 1 + i for i, k in enumerate(KINDS)}
_NINES = [NUM_PART_TYPES] * MAX_AMULETS
_ZEROS = [0] * MAX_AMULETS

_scales: dict[int, np.ndarray] = {}
#: The last board seen (as in the view) and, per player count, a zero vector holding its encoding.
_board_cache: list[Any] = [None, {}]


def values_offset(num_players: int) -> int:
    """Where the values run starts."""
    return PLAYER_FLAGS + num_players * PF_WIDTH


def shape(num_players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
    """The same for every option value (the board takes 60 slots whatever its length)."""
    return (values_offset(num_players) + COMMON_VALUES + num_players * P_VALUES,)


def _template(board: list[Location], n: int) -> np.ndarray:
    if board != _board_cache[0]:
        _board_cache[0] = [dict(loc) for loc in board]
        _board_cache[1] = {}
    per_n: dict[int, np.ndarray] = _board_cache[1]
    got = per_n.get(n)
    if got is None:
        got = np.zeros(shape(n, {}), dtype=np.float32)
        block = got[BOARD:BOARD + BOARD_SIZE].reshape(MAX_LENGTH, LOC_WIDTH)
        for i, loc in enumerate(board):
            block[i, 0] = 1.0
            block[i, _KIND_INDEX[loc["kind"]]] = 1.0
            block[i, LOC_WIDTH - 1] = loc["number"] / MAX_NUMBER
        per_n[n] = got
    return got


def _scale(n: int) -> np.ndarray:
    got = _scales.get(n)
    if got is None:
        got = _scales[n] = np.array(_VALUE_SCALES + _P_SCALES * n, dtype=np.float64)
    return got


def encode(view: CelticaView, seat: int, num_players: int, options: Mapping[str, Any]) -> np.ndarray:
    """The observation of `seat` from its view (reads nothing else)."""
    n = num_players
    board = view["board"]
    out = _template(board, n).copy()
    goal = len(board) - 1

    druids = view["druids"]
    ones = [DRUID_POS + c * MAX_LENGTH + pos for c, pos in enumerate(druids)]
    ones.extend(DRUID_HOME + c for c, pos in enumerate(druids) if pos == goal)
    me = view["players"][seat]
    must = me["must_play"]
    if must is not None:
        ones.append(_MUST_INDEX[must])
    ones.append(_PHASE_INDEX["over" if view["phase"] is None else view["phase"]])
    reason = view["end_reason"]
    if reason is not None:
        ones.append(_REASON_INDEX[reason])
    if view["final_round"]:
        ones.append(FLAGS)
    if view["provenance"] == "printed":
        ones.append(FLAGS + 1)

    values = [pos / goal for pos in druids]
    values += (view["pending"] / MAX_NUMBER, min(view["round"], MAX_ROUND) / MAX_ROUND,
               len(board) / MAX_LENGTH)
    values += view["display"]
    values.append(view["supply"])
    values += view["part_discards"]
    values.append(view["druid_deck"])
    values += view["druid_discards"]
    values.append(view["experience_deck"])
    values += view["experience_discards"]
    values += me["hand"]
    values += me["experience"]
    players = view["players"]
    for j in range(n):
        p = players[(seat + j) % n]
        am = p["amulets"]
        sizes = _NINES[:am["complete"]] + am["incomplete"]
        values += p["parts"]
        values += (p["druid_cards"], p["experience_cards"], am["complete"])
        values += sizes
        values += _ZEROS[:MAX_AMULETS - len(sizes)]
        if p["owes_card"]:
            ones.append(PLAYER_FLAGS + j * PF_WIDTH + PF_OWES)
    current = view["current_player"]
    if current is not None:
        ones.append(PLAYER_FLAGS + (current - seat) % n * PF_WIDTH + PF_CURRENT)
    ender = view["ender"]
    if ender is not None:
        ones.append(PLAYER_FLAGS + (ender - seat) % n * PF_WIDTH + PF_ENDER)
    ones.extend(PLAYER_FLAGS + (q - seat) % n * PF_WIDTH + PF_QUEUE for q in view["end_queue"])
    ones.extend(PLAYER_FLAGS + (q - seat) % n * PF_WIDTH + PF_WINNER for q in view["winners"])
    np.multiply(np.array(values, dtype=np.float64), _scale(n), out=out[PLAYER_FLAGS + n * PF_WIDTH:])
    out[ones] = 1.0
    return out
