"""Celtica's observation layout: the offsets and scalings of the flat float32 vector both the
encoder (`meeple.envs.encoders.celtica`, from a view) and the batched simulator
(`meeple.batch.celtica`, from arrays) write, declared once so the two cannot drift apart. Table:
docs/games/celtica.md, "Observation encoding (meeple.envs)".

Layout, in order: the board, the druids' locations, then every 0/1 flag, then every other value
(a run of raw values scaled by one vector).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from meeple.games.celtica.components import (
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
VALUE_SCALES = (
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
COMMON_VALUES = len(VALUE_SCALES)
P_SCALES = (
    [1 / COPIES_PER_PART] * NUM_PART_TYPES
    + [1 / HAND_SIZE, 1 / EXPERIENCE_CARDS, 1 / MAX_AMULETS]
    + [1 / NUM_PART_TYPES] * MAX_AMULETS
)
P_VALUES = len(P_SCALES)


def values_offset(num_players: int) -> int:
    """Where the values run starts."""
    return PLAYER_FLAGS + num_players * PF_WIDTH


def size(num_players: int) -> int:
    """The vector's length: the same for every option (the board takes 60 slots whatever its length)."""
    return values_offset(num_players) + COMMON_VALUES + num_players * P_VALUES


def board_block(kinds: Sequence[str], numbers: Sequence[int]) -> npt.NDArray[np.float32]:
    """The board's encoding (BOARD_SIZE values): per location present, kind one-hot, number / 9;
    zero past the board's end."""
    block = np.zeros((MAX_LENGTH, LOC_WIDTH), dtype=np.float32)
    for i, (kind, number) in enumerate(zip(kinds, numbers)):
        block[i, 0] = 1.0
        block[i, 1 + KINDS.index(kind)] = 1.0
        block[i, LOC_WIDTH - 1] = number / MAX_NUMBER
    return block.reshape(BOARD_SIZE)
