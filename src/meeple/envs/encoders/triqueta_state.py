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


def _per_animal(tokens: list[int]) -> list[int]:
    seen = [0] * NUM_ANIMALS
    for token in tokens:
        seen[token] += 1
    return seen


def _collection_points(counts: list[int]) -> int:
    points = 0
    for a in range(NUM_ANIMALS):
        points += _POINTS[a][counts[a]]
    return points


def _score_with_face_down(counts: list[int], face_down: list[int], bonus: int) -> int:
    """The observer's score preview, T7 applied to its face-down tokens (none: its score)."""
    if not face_down:
        return _collection_points(counts) + bonus
    key = _packed(counts) << 24 | _packed(_per_animal(face_down))
    points = _face_down_scores.get(key)
    if points is None:
        if len(_face_down_scores) >= LIMIT:
            _face_down_scores.clear()
        points = _face_down_scores[key] = _collection_points(with_face_down(counts, face_down))
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
    seen = [0] * NUM_ANIMALS

    header_parts: list[bytes] = []
    row_parts: list[bytes] = []
    rows = state.rows
    for tokens in rows:
        if tokens is None:
            row_parts.append(_ROW_OUT)
            continue
        in_row = _per_animal(tokens)
        row_parts.append(_ROW_HEADS[len(tokens)])
        for a in range(NUM_ANIMALS):
            row_parts.append(_ROW_SHARES[in_row[a]])
            seen[a] += in_row[a]
    row_parts.append(_PADS[MAX_PLAYERS - len(rows)])

    pending = state.pending
    pending_count = 0
    for token in pending:
        if token >= 0:
            pending_count += 1
    pend = _NO_PENDING
    if seat == live and pending:
        used = state.used_kind
        key = len(pending)
        for token in pending:
            key = key << 3 | (token + 1)
            if token >= 0:
                seen[token] += 1
        key = key << 2 | (USED_KINDS.index(used) + 1 if used else 0)
        data = _pendings.get(key)
        if data is None:
            data = _kept(_pendings, key, blocks.pending(tuple(pending), used or None)[0])
        pend = data

    mine_down = _per_animal(face_down[seat])
    mine_back = _per_animal(returned[seat])
    for a in range(NUM_ANIMALS):
        seen[a] += mine_down[a] + mine_back[a]
    key = _packed(mine_down) << 24 | _packed(mine_back)
    tokens_data = _own_tokens.get(key)
    if tokens_data is None:
        made = blocks.own(tuple(sorted(face_down[seat])), tuple(sorted(returned[seat])), 0)[0]
        tokens_data = _kept(_own_tokens, key, made[:OWN_SIZE - 1])
    bonus = (ROCK_POINTS if seat == rock else 0) + TREE_POINTS * trees[seat]
    key = _score_with_face_down(counts[seat], face_down[seat], bonus) - MIN_SCORE
    score_data = _own_scores.get(key)
    if score_data is None:
        score_data = _kept(_own_scores, key, np.array([blocks.score_value(key + MIN_SCORE)], dtype=np.float32))

    seat_parts: list[list[bytes]] = []
    for s in range(n):
        collection = counts[s]
        is_rock = s == rock
        score = _collection_points(collection) + (ROCK_POINTS if is_rock else 0) + TREE_POINTS * trees[s]
        fd_count = len(face_down[s])
        ret_count = len(returned[s])
        is_winner = s in winners
        key = (((((((state.out[s] << 2 | trees[s]) << 3 | fd_count) << 6 | ret_count) << 8 | (score - MIN_SCORE))
                 << 1 | is_winner) << 1 | is_rock) << 1 | (s == live))
        head = _seat_heads.get(key)
        if head is None:
            head = _kept(_seat_heads, key, blocks.seat_block(state.out[s], trees[s], fd_count, ret_count, score,
                                                             is_winner, is_rock, s == live, _NO_ANIMALS)[0][:S_ANIMALS])
        parts = [head]
        for a in range(NUM_ANIMALS):
            parts.append(_COLLECTED[collection[a]])
            seen[a] += collection[a]
        seat_parts.append(parts)

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
    header_parts.append(head)
    for a in range(NUM_ANIMALS):
        header_parts.append(_UNKNOWN[seen[a]])

    parts = header_parts + row_parts
    parts.append(pend)
    parts.append(tokens_data)
    parts.append(score_data)
    for j in range(n):
        parts.extend(seat_parts[(seat + j) % n])
    parts.append(_SEAT_PADS[MAX_PLAYERS - n])
    return np.frombuffer(bytearray().join(parts), F32)
