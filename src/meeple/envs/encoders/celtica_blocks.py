"""Celtica's observation joined from cached blocks (compiled): the one implementation of the
layout (meeple.batch.celtica_layout) behind both `celtica.encode(view)` and the env's
`encode_state(state)`.

The vector changes in a few places per step, so each region is a block of float32 bytes looked
up by what it shows (the board, a druid's location, the flags packed into an integer) and made
only on a miss; the values run (counts and sizes, scaled) is computed natively as float64
products, as numpy multiplies them, and rounded to float32 by `array`, as numpy casts; one join
of the bytes makes the observation."""

from __future__ import annotations

from array import array
from typing import Final

import numpy as np

from meeple.batch.celtica_layout import (
    DRUID_HOME,
    FLAGS,
    MAX_AMULETS,
    MAX_ROUND,
    MUST_PLAY,
    P_SCALES,
    PF_WIDTH,
    PHASE,
    PHASE_NAMES,
    PLAYER_FLAGS,
    VALUE_SCALES,
    board_block,
)
from meeple.games.celtica.components import MAX_LENGTH, MAX_NUMBER, NUM_COLOURS, NUM_PART_TYPES
from meeple.games.celtica.phases import END_REASONS
from meeple.games.celtica.scoring import complete_amulets, incomplete_sizes
from meeple.games.celtica.state import CelticaState

#: A cache holds at most this many blocks, then starts again (memory stays bounded).
LIMIT: Final = 1 << 14
#: A dtype object, not the np.float32 type: `np.frombuffer` skips converting it each time.
F32: Final = np.dtype(np.float32)
#: The phase one-hot's index of a finished game (the view shows no phase then).
OVER: Final = len(PHASE_NAMES) - 1
#: Where the common values' head (druid progress, pending, round, length) ends and the piles begin.
HEAD_VALUES: Final = NUM_COLOURS + 3

_boards: dict[tuple[tuple[str, ...], tuple[int, ...]], bytes] = {}
_flags: dict[int, bytes] = {}
_amulets: dict[int, list[int]] = {}
_last_board: list[tuple[tuple[str, ...], tuple[int, ...], bytes]] = []  # most steps share one board

_PILE_SCALES: Final = VALUE_SCALES[HEAD_VALUES:]
#: A seat's scales (meeple.batch.celtica_layout.P_SCALES): parts, druid cards, experience
#: cards, complete amulets, then amulet sizes.
_PART_SCALE: Final = P_SCALES[0]
_CARDS_SCALE: Final = P_SCALES[NUM_PART_TYPES]
_EXPERIENCE_SCALE: Final = P_SCALES[NUM_PART_TYPES + 1]
_COMPLETE_SCALE: Final = P_SCALES[NUM_PART_TYPES + 2]
_SIZE_SCALE: Final = P_SCALES[NUM_PART_TYPES + 3]

#: A druid's location one-hot, by location.
_DRUID_AT: Final = [np.eye(1, MAX_LENGTH, pos, dtype=np.float32).tobytes() for pos in range(MAX_LENGTH)]


def _kept(cache: dict[int, list[int]], key: int, data: list[int]) -> list[int]:
    if len(cache) >= LIMIT:
        cache.clear()
    cache[key] = data
    return data


def _board(kinds: tuple[str, ...], numbers: tuple[int, ...]) -> bytes:
    """The board's block: the same board object as last time in almost every call."""
    if _last_board:
        last = _last_board[0]
        if kinds is last[0] and numbers is last[1]:
            return last[2]
    key = (kinds, numbers)
    found = _boards.get(key)
    if found is None:
        if len(_boards) >= 64:
            _boards.clear()
        found = _boards[key] = board_block(kinds, numbers).tobytes()
    _last_board[:] = [(kinds, numbers, found)]
    return found


def _flag_block(key: int, n: int) -> bytes:
    """Every 0/1 flag from DRUID_HOME to the values run, from their packed key (see `join`:
    the player count, a bit per druid in the goal, the owed colour, the phase, the end's
    reason, the final round, a printed board, then five bits per seat from the observer on)."""
    data = _flags.get(key)
    if data is not None:
        return data
    block = np.zeros(PLAYER_FLAGS + n * PF_WIDTH - DRUID_HOME, dtype=np.float32)
    rest = key
    for j in range(n * PF_WIDTH - 1, -1, -1):
        block[PLAYER_FLAGS - DRUID_HOME + j] = rest & 1
        rest >>= 1
    block[FLAGS + 1 - DRUID_HOME] = rest & 1
    block[FLAGS - DRUID_HOME] = (rest >> 1) & 1
    reason = (rest >> 2) & 3
    if reason:
        block[FLAGS - len(END_REASONS) - DRUID_HOME + reason - 1] = 1.0
    block[PHASE - DRUID_HOME + ((rest >> 4) & 7)] = 1.0
    must = (rest >> 7) & 7
    if must:
        block[MUST_PLAY - DRUID_HOME + must - 1] = 1.0
    home = rest >> 10  # the player count, then a flag per druid in the goal
    for c in range(NUM_COLOURS - 1, -1, -1):
        block[c] = home & 1
        home >>= 1
    if len(_flags) >= LIMIT:
        _flags.clear()
    data = _flags[key] = block.tobytes()
    return data


def _packed(counts: list[int]) -> int:
    """Counts (each under 16) as one integer, four bits each."""
    key = 0
    for count in counts:
        key = key << 4 | count
    return key


def _amulet_sizes(parts: list[int]) -> list[int]:
    """A collection's amulet sizes as the values run shows them: largest first, a complete
    amulet counting NUM_PART_TYPES, zero-padded to MAX_AMULETS; then the complete amulets."""
    key = _packed(parts)
    found = _amulets.get(key)
    if found is None:
        complete = complete_amulets(parts)
        sizes = [NUM_PART_TYPES] * complete + list(incomplete_sizes(parts))
        found = _kept(_amulets, key, [*sizes, *([0] * (MAX_AMULETS - len(sizes))), complete])
    return found


def join(seat: int, n: int, kinds: tuple[str, ...], numbers: tuple[int, ...], printed: bool, druids: list[int],
         must: int, phase: int, reason: int, final_round: bool, pending: int, round_no: int, piles: list[int],
         players: list[tuple[list[int], int, int, bool]], current: int, ender: int, end_queue: list[int],
         winners: list[int]) -> np.ndarray:
    """The observation of `seat`. `must`, `reason`, `current`, `ender`: -1 for none; `phase`:
    the index in PHASE_NAMES; `piles`: the common values after the head, raw, in the values
    run's order; `players`: parts, druid cards, experience cards, owes a card, per seat."""
    goal = len(kinds) - 1
    home = n  # the player count leads the key: it sets the block's length
    for pos in druids:
        home = home << 1 | (pos == goal)
    flags = ((((home << 3 | (must + 1)) << 3 | phase) << 2 | (reason + 1)) << 1 | final_round) << 1 | printed
    for j in range(n):  # per relative seat, in PF_OWES, PF_CURRENT, PF_ENDER, PF_QUEUE, PF_WINNER order
        q = (seat + j) % n
        flags = flags << 1 | players[q][3]
        flags = flags << 1 | (q == current)
        flags = flags << 1 | (q == ender)
        flags = flags << 1 | (q in end_queue)
        flags = flags << 1 | (q in winners)
    # The values run: raw values times their scales, in float64 as numpy multiplies, then
    # float32 as numpy casts (the head is already scaled: its scales are 1).
    values = [pos / goal for pos in druids]
    values.append(pending / MAX_NUMBER)
    values.append(min(round_no, MAX_ROUND) / MAX_ROUND)
    values.append(len(kinds) / MAX_LENGTH)
    for i in range(len(piles)):
        values.append(piles[i] * _PILE_SCALES[i])
    for j in range(n):
        parts_held, druid_cards, experience_cards, _ = players[(seat + j) % n]
        for t in range(NUM_PART_TYPES):
            values.append(parts_held[t] * _PART_SCALE)
        sizes = _amulet_sizes(parts_held)
        values.append(druid_cards * _CARDS_SCALE)
        values.append(experience_cards * _EXPERIENCE_SCALE)
        values.append(sizes[MAX_AMULETS] * _COMPLETE_SCALE)
        for k in range(MAX_AMULETS):
            values.append(sizes[k] * _SIZE_SCALE)
    parts = [_board(kinds, numbers), *[_DRUID_AT[pos] for pos in druids], _flag_block(flags, n),
             array("f", values).tobytes()]
    return np.frombuffer(bytearray().join(parts), F32)


def encode_state(state: CelticaState, seat: int) -> np.ndarray:
    """The same vector as `celtica.encode(state.view(seat), ...)`, read from the fields that view
    copies (of the hidden ones, the observer's own hand, experience cards and owed colour only)."""
    board = state.board
    owed = state.owed_colour
    current = state.current_player
    piles = [*state.display, len(state.supply), *state.part_discards, len(state.druid_deck), *state.druid_discards,
             len(state.experience_deck), *state.experience_discards, *state.hands[seat], *state.experience[seat]]
    players = [(state.parts[q], state.cards_held[q], state.experience_held[q], owed[q] >= 0)
               for q in range(state.num_players)]
    reason = END_REASONS.index(state.end_reason) if state.end_reason else -1
    return join(seat, state.num_players, board.kinds, board.numbers, board.provenance == "printed", state.druids,
                owed[seat], OVER if state.over else state.phase, reason, state.final_round, state.pending,
                state.round, piles, players, -1 if current is None else current, state.ender, state.end_queue,
                state.winners())
