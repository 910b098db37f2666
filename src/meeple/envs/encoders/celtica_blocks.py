"""Celtica's observation joined from cached blocks (compiled): the one implementation of the
layout (meeple.batch.celtica_layout) behind both `celtica.encode(view)` and the env's
`encode_state(state)`.

The vector changes in a few places per step, so each region is a block of float32 bytes looked
up by what it shows (the board, a druid's location, the flags packed into an integer) and made
only on a miss; the values run (counts and sizes, scaled) is a table look-up per value; one join
of the bytes makes the observation."""

from __future__ import annotations

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
_amulets: dict[int, bytes] = {}
_last_board: list[tuple[tuple[str, ...], tuple[int, ...], bytes]] = []  # most steps share one board

# The values run, a value at a time: each raw count's float32 bytes, computed once as before
# (float64 division or product with its scale, as numpy multiplies, then float32, as numpy
# casts), so a step is list look-ups and one join. A table covers counts up to TOP.
TOP: Final = 127


def _table(scale: float) -> list[bytes]:
    return [np.float32(value * scale).tobytes() for value in range(TOP + 1)]


def _divided(by: int, top: int) -> list[bytes]:
    return [np.float32(value / by).tobytes() for value in range(top + 1)]


def _triples(singles: list[bytes]) -> list[bytes]:
    """Three counts' bytes joined, by the counts packed four bits each (each at most 15)."""
    return [singles[key >> 8] + singles[key >> 4 & 15] + singles[key & 15] for key in range(1 << 12)]


_tables: dict[float, tuple[list[bytes], list[bytes]]] = {}


def _tables_of(scale: float) -> tuple[list[bytes], list[bytes]]:
    """A scale's singles and triples, made once per scale."""
    found = _tables.get(scale)
    if found is None:
        singles = _table(scale)
        found = _tables[scale] = (singles, _triples(singles))
    return found


def _segments(scales: list[float]) -> list[tuple[int, int, list[bytes], list[bytes]]]:
    """The runs of equal scales (a pile's counts) as start, length, singles, triples."""
    runs: list[tuple[int, int, list[bytes], list[bytes]]] = []
    start = 0
    while start < len(scales):
        end = start
        while end < len(scales) and scales[end] == scales[start]:
            end += 1
        singles, triples = _tables_of(scales[start])
        runs.append((start, end - start, singles, triples))
        start = end
    return runs


#: The piles, by runs of one scale (meeple.batch.celtica_layout.VALUE_SCALES after the head).
_PILES: Final = _segments(VALUE_SCALES[HEAD_VALUES:])
#: A seat's values (P_SCALES): parts per type, druid cards, experience cards, complete
#: amulets, amulet sizes.
_PARTS, _PARTS3 = _tables_of(P_SCALES[0])
_CARDS: Final = _tables_of(P_SCALES[NUM_PART_TYPES])[0]
_EXPERIENCE: Final = _tables_of(P_SCALES[NUM_PART_TYPES + 1])[0]
_COMPLETE: Final = _tables_of(P_SCALES[NUM_PART_TYPES + 2])[0]
_SIZES: Final = _tables_of(P_SCALES[NUM_PART_TYPES + 3])[0]
#: The head's values, already scaled by a division (their scales in VALUE_SCALES are 1).
_PENDING: Final = _divided(MAX_NUMBER, TOP)
_ROUNDS: Final = _divided(MAX_ROUND, MAX_ROUND)
_LENGTHS: Final = _divided(MAX_LENGTH, MAX_LENGTH)
_progresses: dict[int, list[bytes]] = {}


def _progress(goal: int) -> list[bytes]:
    """A druid's progress (location / goal) by location, for a board of this goal."""
    found = _progresses.get(goal)
    if found is None:
        found = _progresses[goal] = _divided(goal, goal)
    return found


#: A druid's location one-hot, by location.
_DRUID_AT: Final = [np.eye(1, MAX_LENGTH, pos, dtype=np.float32).tobytes() for pos in range(MAX_LENGTH)]


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
    made: bytes = block.tobytes()
    _flags[key] = made
    return made


def _packed(counts: list[int]) -> int:
    """Counts (each under 16) as one integer, four bits each."""
    key = 0
    for count in counts:
        key = key << 4 | count
    return key


def _amulet_block(parts: list[int]) -> bytes:
    """A seat's complete amulets and amulet sizes, largest first, zero-padded, scaled. C2:
    amulet k holds the types with more than k parts, so its size is the number of counts above
    k (a complete amulet's is NUM_PART_TYPES) and the complete ones are the smallest count."""
    key = _packed(parts)
    found = _amulets.get(key)
    if found is None:
        at = [0] * (MAX_AMULETS + 2)  # at[c]: the types with exactly c parts (c > 10 counts as 11)
        for count in parts:
            at[min(count, MAX_AMULETS + 1)] += 1
        values = [_COMPLETE[min(parts)]]
        above = NUM_PART_TYPES - at[0]  # the types with more than k parts, for k from 0
        for k in range(MAX_AMULETS):
            values.append(_SIZES[above])
            above -= at[k + 1]
        if len(_amulets) >= LIMIT:
            _amulets.clear()
        found = _amulets[key] = b"".join(values)
    return found


def _append_run(parts: list[bytes], values: list[int], start: int, count: int, singles: list[bytes],
                triples: list[bytes]) -> None:
    """`count` values from `start`, three at a time where they can be."""
    i = start
    end = start + count
    while i + 3 <= end:
        parts.append(triples[values[i] << 8 | values[i + 1] << 4 | values[i + 2]])
        i += 3
    while i < end:
        parts.append(singles[values[i]])
        i += 1


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
    parts = [_board(kinds, numbers), *[_DRUID_AT[pos] for pos in druids], _flag_block(flags, n)]
    progress = _progress(goal)
    for pos in druids:
        parts.append(progress[pos])
    parts.append(_PENDING[pending])
    parts.append(_ROUNDS[min(round_no, MAX_ROUND)])
    parts.append(_LENGTHS[len(kinds)])
    for start, count, singles, triples in _PILES:
        _append_run(parts, piles, start, count, singles, triples)
    for j in range(n):
        parts_held, druid_cards, experience_cards, _ = players[(seat + j) % n]
        _append_run(parts, parts_held, 0, NUM_PART_TYPES, _PARTS, _PARTS3)
        parts.append(_CARDS[druid_cards])
        parts.append(_EXPERIENCE[experience_cards])
        parts.append(_amulet_block(parts_held))
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
