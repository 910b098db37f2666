"""Triqueta's observation read from the state's own fields, for the env's every step (compiled).

The same vector as `triqueta.encode(state.view(seat), ...)` (tests/envs/test_observe_fast.py),
from the fields that view copies: the observer's own hidden tokens, and the drawn tokens only
for the drawer (T4). The vector is joined as bytes from float32 blocks small enough that almost
every one is looked up rather than made: what depends on one animal's count (a row's share, a
collection's count and bin, the unknown count) is a block per count, made once; a seat's other
values and the header are looked up by one packed integer. The bytes of every block come from
`triqueta_blocks`' makers, so the two encoders write the same float32 values
(docs/performance.md, "The research environments' step")."""

from __future__ import annotations

from typing import Final

import numpy as np

from meeple.batch.triqueta_layout import COUNT_BINS, MIN_SCORE, OWN_SIZE, ROW_SIZE, S_ANIMALS, SEAT_SIZE, USED_KINDS
from meeple.envs.encoders import triqueta_blocks as blocks
from meeple.games.triqueta.components import (
    MAX_PLAYERS,
    NUM_ANIMALS,
    TOKENS_PER_ANIMAL,
    TOKENS_PER_TOWER,
    TOWERS,
    VALUES,
)
from meeple.games.triqueta.scoring import ROCK_POINTS, TREE_POINTS, animal_points, with_face_down
from meeple.games.triqueta.state import TriquetaState

#: A cache holds at most this many blocks, then starts again (memory stays bounded).
LIMIT: Final = 1 << 15
#: A dtype object, not the np.float32 type: `np.frombuffer` skips converting it each time.
F32: Final = np.dtype(np.float32)
_NO_ANIMALS: Final = (0,) * NUM_ANIMALS

#: Points of `count` tokens of animal a (T8's table), by animal then count.
_POINTS: Final = [[animal_points(count, VALUES[a]) for count in range(TOKENS_PER_ANIMAL + 1)]
                  for a in range(NUM_ANIMALS)]


def _floats(values: np.ndarray) -> bytes:
    data: bytes = values.tobytes()
    return data


# Blocks by one count, taken from the makers' own output so the values are theirs exactly.
#: A row's head (in play, length / 15) by its length; _ROW_OUT: the whole block of a taken row.
_ROW_HEADS: Final = [_floats(blocks.row((0,) * k)[0][:2]) for k in range(TOKENS_PER_TOWER + 1)]
_ROW_OUT: Final = _floats(blocks.row(None)[0])
#: A row's value for one animal, by how many of its tokens the row holds.
_ROW_SHARES: Final = [_floats(blocks.row((0,) * k)[0][2:3]) for k in range(TOKENS_PER_ANIMAL + 1)]
#: A collected animal's count and count bin, by count.
_COLLECTED: Final = [
    _floats(blocks.seat_block(False, 0, 0, 0, 0, False, False, False, (k,) + _NO_ANIMALS[1:])[0]
            [S_ANIMALS:S_ANIMALS + 1 + COUNT_BINS])
    for k in range(TOKENS_PER_ANIMAL + 1)]
#: The observer's unknown count of one animal, by the tokens of it seen.
_UNKNOWN: Final = [_floats(blocks.unknown((k,) + _NO_ANIMALS[1:])[:1]) for k in range(TOKENS_PER_ANIMAL + 1)]

# Triqueta's six animals go in two halves of three, each half's counts packed in four bits per
# animal (ten tokens at most): a half's block or points is one list index, and sums of packed
# counts are one addition (no field overflows).
HALF: Final = 3
_HALVES: Final = range(1 << 4 * HALF)


def _counts_of(key: int) -> list[int]:
    """A half's packed counts, first animal first."""
    return [(key >> 4 * (HALF - 1 - k)) & 15 for k in range(HALF)]


def _half_table(per_count: list[bytes]) -> list[bytes]:
    """For every packed half, its three animals' blocks joined (b"" where a count is past 10)."""
    return [b"".join([per_count[c] for c in counts]) if max(counts) <= TOKENS_PER_ANIMAL else b""
            for counts in map(_counts_of, _HALVES)]


def _half_points(first: int) -> list[int]:
    return [sum(_POINTS[first + k][c] for k, c in enumerate(counts)) if max(counts) <= TOKENS_PER_ANIMAL else 0
            for counts in map(_counts_of, _HALVES)]


_COLLECTED_HALF: Final = _half_table(_COLLECTED)
_ROW_HALF: Final = _half_table(_ROW_SHARES)
_UNKNOWN_HALF: Final = _half_table(_UNKNOWN)
_POINTS_LOW: Final = _half_points(0)
_POINTS_HIGH: Final = _half_points(HALF)
_PADS: Final = [bytes(4 * ROW_SIZE * k) for k in range(MAX_PLAYERS + 1)]
_SEAT_PADS: Final = [bytes(4 * SEAT_SIZE * k) for k in range(MAX_PLAYERS + 1)]
_NO_PENDING: Final = _floats(blocks.NO_PENDING[0])

_headers: dict[int, bytes] = {}
_pendings: dict[int, bytes] = {}
_own_tokens: dict[int, bytes] = {}
_own_scores: dict[int, bytes] = {}
_face_down_scores: dict[int, int] = {}
_seat_heads: dict[int, bytes] = {}


def _kept(cache: dict[int, bytes], key: int, made: np.ndarray) -> bytes:
    """`made` stored under `key` as bytes (the cache emptied first once it is full)."""
    if len(cache) >= LIMIT:
        cache.clear()
    data = cache[key] = _floats(made)
    return data


def _packed(counts: list[int]) -> int:
    """Per-animal counts (each under 16) as one integer, four bits each."""
    key = 0
    for count in counts:
        key = (key << 4) | count
    return key


#: One token of each animal, packed as `_packed` packs counts.
_ONE: Final = [1 << 4 * (NUM_ANIMALS - 1 - a) for a in range(NUM_ANIMALS)]
_LOW_MASK: Final = (1 << 4 * HALF) - 1


def _packed_tokens(tokens: list[int]) -> int:
    """The tokens' counts per animal, packed as `_packed` packs them (USED slots skipped)."""
    key = 0
    for token in tokens:
        if token >= 0:
            key += _ONE[token]
    return key


def _points(packed: int) -> int:
    """T8's points of a collection, from its packed counts."""
    return _POINTS_LOW[packed >> 4 * HALF] + _POINTS_HIGH[packed & _LOW_MASK]


def _score_with_face_down(counts: list[int], packed: int, face_down: list[int], bonus: int) -> int:
    """The observer's score preview, T7 applied to its face-down tokens (none: its score)."""
    if not face_down:
        return _points(packed) + bonus
    key = packed << 24 | _packed_tokens(face_down)
    points = _face_down_scores.get(key)
    if points is None:
        if len(_face_down_scores) >= LIMIT:
            _face_down_scores.clear()
        points = _face_down_scores[key] = _points(_packed(with_face_down(counts, face_down)))
    return points + bonus


def encode_state(state: TriquetaState, seat: int) -> np.ndarray:
    """The observation of `seat` as a fresh float32 array (see the module's docstring)."""
    n = state.num_players
    over = state.over
    rock = state.rock
    current = state.current_player
    live = -1 if current is None else current
    counts = state.counts
    trees = state.trees
    face_down = state.face_down
    returned = state.returned
    winners = state.winners() if over else []
    seen = 0  # the tokens the observer has seen, per animal, packed

    parts: list[bytes] = [b"", b"", b""]  # the header and the unknown counts' halves, set last
    rows = state.rows
    for tokens in rows:
        if tokens is None:
            parts.append(_ROW_OUT)
            continue
        in_row = _packed_tokens(tokens)
        seen += in_row
        parts.append(_ROW_HEADS[len(tokens)])
        parts.append(_ROW_HALF[in_row >> 4 * HALF])
        parts.append(_ROW_HALF[in_row & _LOW_MASK])
    parts.append(_PADS[MAX_PLAYERS - len(rows)])

    pending = state.pending
    pending_count = 0
    for token in pending:
        if token >= 0:
            pending_count += 1
    pend = _NO_PENDING
    if seat == live and pending:
        seen += _packed_tokens(pending)
        used = state.used_kind
        key = len(pending)
        for token in pending:
            key = key << 3 | (token + 1)
        key = key << 2 | (USED_KINDS.index(used) + 1 if used else 0)
        data = _pendings.get(key)
        if data is None:
            data = _kept(_pendings, key, blocks.pending(tuple(pending), used or None)[0])
        pend = data
    parts.append(pend)

    mine_down = _packed_tokens(face_down[seat])
    mine_back = _packed_tokens(returned[seat])
    seen += mine_down + mine_back
    key = mine_down << 24 | mine_back
    data = _own_tokens.get(key)
    if data is None:
        made = blocks.own(tuple(sorted(face_down[seat])), tuple(sorted(returned[seat])), 0)[0]
        data = _kept(_own_tokens, key, made[:OWN_SIZE - 1])
    parts.append(data)
    packed_counts = [_packed(counts[s]) for s in range(n)]
    bonus = (ROCK_POINTS if seat == rock else 0) + TREE_POINTS * trees[seat]
    key = _score_with_face_down(counts[seat], packed_counts[seat], face_down[seat], bonus) - MIN_SCORE
    data = _own_scores.get(key)
    if data is None:
        data = _kept(_own_scores, key, np.array([blocks.score_value(key + MIN_SCORE)], dtype=np.float32))
    parts.append(data)

    for j in range(n):
        s = (seat + j) % n
        collection = packed_counts[s]
        seen += collection
        is_rock = s == rock
        score = _points(collection) + (ROCK_POINTS if is_rock else 0) + TREE_POINTS * trees[s]
        fd_count = len(face_down[s])
        ret_count = len(returned[s])
        is_winner = s in winners
        key = (((((((state.out[s] << 2 | trees[s]) << 3 | fd_count) << 6 | ret_count) << 8 | (score - MIN_SCORE))
                 << 1 | is_winner) << 1 | is_rock) << 1 | (s == live))
        head = _seat_heads.get(key)
        if head is None:
            head = _kept(_seat_heads, key, blocks.seat_block(state.out[s], trees[s], fd_count, ret_count, score,
                                                             is_winner, is_rock, s == live, _NO_ANIMALS)[0][:S_ANIMALS])
        parts.append(head)
        parts.append(_COLLECTED_HALF[collection >> 4 * HALF])
        parts.append(_COLLECTED_HALF[collection & _LOW_MASK])
    parts.append(_SEAT_PADS[MAX_PLAYERS - n])

    towers = state.towers
    round_no = min(state.round, TOWERS - 1) + 1
    current_rel = -1 if current is None else (current - seat) % n
    key = (((((n << 1 | state.duo) << 3 | round_no) << 1 | over) << 3 | (current_rel + 1)) << 3 | (rock - seat) % n)
    for tower in towers:
        key = key << 4 | len(tower)
    key = (key << 6 | len(state.gone)) << 2 | pending_count
    head = _headers.get(key)
    if head is None:
        head = _kept(_headers, key, blocks.header(n, state.duo, round_no, over, current_rel, (rock - seat) % n,
                                                  tuple([len(tower) for tower in towers]), len(state.gone),
                                                  pending_count))
    parts[0] = head
    parts[1] = _UNKNOWN_HALF[seen >> 4 * HALF]
    parts[2] = _UNKNOWN_HALF[seen & _LOW_MASK]
    return np.frombuffer(bytearray().join(parts), F32)
