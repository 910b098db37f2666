"""Triqueta's observation read from the state's own fields, for the env's every step (compiled).

The same vector as `triqueta.encode(state.view(seat), ...)` (tests/envs/test_observe_fast.py),
from the fields that view copies: the observer's own hidden tokens, and the drawn tokens only
for the drawer (T4). Each block is looked up by one integer packed from what it shows, as the
float32 bytes of `triqueta_blocks`' block (made there on a miss), and the blocks are joined as
bytes: a step costs some integer arithmetic, a dozen dictionary look-ups and one join, rather
than the tuples, hashes and `np.concatenate` of the view's path (docs/performance.md, "The
research environments' step")."""

from __future__ import annotations

from typing import Final

import numpy as np

from meeple.batch.triqueta_layout import ROW_SIZE, SEAT_SIZE, USED_KINDS
from meeple.envs.encoders import triqueta_blocks as blocks
from meeple.games.triqueta.components import MAX_PLAYERS, NUM_ANIMALS, TOWERS
from meeple.games.triqueta.scoring import seat_points, with_face_down
from meeple.games.triqueta.state import TriquetaState

#: A cache holds at most this many blocks, then starts again (memory stays bounded).
LIMIT: Final = 1 << 15

_headers: dict[int, bytes] = {}
_unknowns: dict[int, bytes] = {}
_rows: dict[int, bytes] = {}
_pendings: dict[int, bytes] = {}
_own_tokens: dict[int, bytes] = {}
_own_scores: dict[int, bytes] = {}
_seats: dict[int, bytes] = {}
_PADS: Final = [bytes(4 * ROW_SIZE * k) for k in range(MAX_PLAYERS + 1)]
_SEAT_PADS: Final = [bytes(4 * SEAT_SIZE * k) for k in range(MAX_PLAYERS + 1)]
_NO_PENDING: Final = blocks.NO_PENDING[0].tobytes()
#: A dtype object, not the np.float32 type: `np.frombuffer` skips converting it each time.
F32: Final = np.dtype(np.float32)


def _kept(cache: dict[int, bytes], key: int, made: np.ndarray) -> bytes:
    """`made` stored under `key` as bytes (the cache emptied first once it is full)."""
    if len(cache) >= LIMIT:
        cache.clear()
    data: bytes = made.tobytes()
    cache[key] = data
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

    seat_parts: list[bytes] = []
    for s in range(n):
        collection = counts[s]
        fd_count = len(face_down[s])
        ret_count = len(returned[s])
        is_winner = s in winners
        key = ((((((_packed(collection) << 1 | state.out[s]) << 2 | trees[s]) << 3 | fd_count) << 6 | ret_count)
                << 1 | is_winner) << 1 | (s == rock)) << 1 | (s == live)
        data = _seats.get(key)
        if data is None:
            data = _kept(_seats, key, blocks.seat_block_of(state.out[s], trees[s], fd_count, ret_count, is_winner,
                                                          s == rock, s == live, tuple(collection))[0])
        seat_parts.append(data)
        for a in range(NUM_ANIMALS):
            seen[a] += collection[a]

    row_parts: list[bytes] = []
    for tokens in state.rows:
        if tokens is None:
            key = 0
        else:
            key = 1 << 24
            for token in tokens:
                key += 1 << 4 * (NUM_ANIMALS - 1 - token)  # `_packed` of the row's counts per animal
                seen[token] += 1
        data = _rows.get(key)
        if data is None:
            data = _kept(_rows, key, blocks.row(None if tokens is None else tuple(tokens))[0])
        row_parts.append(data)

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
        tokens_data = _kept(_own_tokens, key, made[:-1])
    key = ((_packed(counts[seat]) << 24 | _packed(mine_down)) << 1 | (seat == rock)) << 2 | trees[seat]
    score_data = _own_scores.get(key)
    if score_data is None:
        score = seat_points(with_face_down(counts[seat], face_down[seat]), seat == rock, trees[seat])
        score_data = _kept(_own_scores, key, np.array([blocks.score_value(score)], dtype=np.float32))

    towers = state.towers
    key = n
    key = key << 1 | state.duo
    key = key << 3 | (min(state.round, TOWERS - 1) + 1)
    key = key << 1 | over
    key = key << 3 | (0 if current is None else (current - seat) % n + 1)
    key = key << 3 | (rock - seat) % n
    for tower in towers:
        key = key << 4 | len(tower)
    key = (key << 6 | len(state.gone)) << 2 | pending_count
    head = _headers.get(key)
    if head is None:
        head = _kept(_headers, key, blocks.header(
            n, state.duo, min(state.round, TOWERS - 1) + 1, over, -1 if current is None else (current - seat) % n,
            (rock - seat) % n, tuple([len(tower) for tower in towers]), len(state.gone), pending_count))
    key = _packed(seen)
    unknown = _unknowns.get(key)
    if unknown is None:
        unknown = _kept(_unknowns, key, blocks.unknown(tuple(seen)))

    parts = [head, unknown, *row_parts, _PADS[MAX_PLAYERS - len(row_parts)], pend, tokens_data, score_data]
    for j in range(n):
        parts.append(seat_parts[(seat + j) % n])
    parts.append(_SEAT_PADS[MAX_PLAYERS - n])
    return np.frombuffer(bytearray().join(parts), F32)
