"""The blocks Triqueta's observation is joined from, each made once per distinct content
(functools caches): the header, the unknown counts, a row, the drawer's pending tokens, the
observer's hidden tokens and a seat. A block is its float32 values and the tokens it shows per
animal (from which the unknown counts follow). Both encoders join them: `triqueta` from a view,
`triqueta_state` from the state's own fields."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from meeple.batch.triqueta_layout import (
    COUNT_BINS,
    CURRENT,
    DUO,
    FINISHED,
    MAX_RETURNED,
    MIN_PLAYERS,
    MIN_SCORE,
    OWN_SIZE,
    PENDING_COUNT,
    PENDING_SIZE,
    PLAYERS_ONEHOT,
    ROCK,
    ROUND,
    ROW_SIZE,
    S_ANIMALS,
    S_FACE_DOWN,
    S_OUT,
    S_PRESENT,
    S_RETURNED,
    S_ROCK,
    S_SCORE,
    S_TREES,
    S_TURN,
    S_WINNER,
    SCORE_SPAN,
    SLOTS,
    TOWER_SIZES,
    UNKNOWN,
    UNSEEN,
    USED_KINDS,
)
from meeple.games.triqueta.components import (
    MAX_FACE_DOWN,
    NUM_ANIMALS,
    NUM_TOKENS,
    TOKENS_PER_ANIMAL,
    TOKENS_PER_TOWER,
    TREE_TILES,
)
from meeple.games.triqueta.scoring import seat_points, with_face_down

_INV_TOWER = 1.0 / TOKENS_PER_TOWER
_INV_ANIMAL = 1.0 / TOKENS_PER_ANIMAL

Block = tuple[np.ndarray, tuple[int, ...]]  # float32 values, tokens seen per animal


def score_value(points: int) -> float:
    return min(1.0, max(0.0, (points - MIN_SCORE) / SCORE_SPAN))


def f32(values: Sequence[float]) -> np.ndarray:
    """A cached block as float32, read-only (joining copies it into each observation)."""
    out = np.array(values, dtype=np.float32)
    out.flags.writeable = False
    return out


@lru_cache(maxsize=8192)
def collection_block(collection: tuple[int, ...]) -> tuple[float, ...]:
    """A seat's animals: per animal count / 10, then the count's bin (0, 1, 2, 3, 4+) one-hot."""
    block = [0.0] * (NUM_ANIMALS * (1 + COUNT_BINS))
    a = 0
    for count in collection:
        block[a] = count * _INV_ANIMAL
        block[a + 1 + (count if count < COUNT_BINS else COUNT_BINS - 1)] = 1.0
        a += 1 + COUNT_BINS
    return tuple(block)


@lru_cache(maxsize=64)
def zeros(size: int) -> np.ndarray:
    return f32([0.0] * size)


@lru_cache(maxsize=1024)
def unknown(seen: tuple[int, ...]) -> np.ndarray:
    """Per animal, the tokens the observer has not seen / 10."""
    return f32([(TOKENS_PER_ANIMAL - k) * _INV_ANIMAL for k in seen])


@lru_cache(maxsize=4096)
def header(n: int, duo: bool, round_no: int, finished: bool, current_rel: int, rock_rel: int,
           towers: tuple[int, ...], unseen: int, pending_count: int) -> np.ndarray:
    """Everything before the per-animal unknown counts."""
    buf = [0.0] * UNKNOWN
    buf[PLAYERS_ONEHOT + n - MIN_PLAYERS] = 1.0
    if duo:
        buf[DUO] = 1.0
    buf[ROUND + round_no - 1] = 1.0
    if finished:
        buf[FINISHED] = 1.0
    elif current_rel >= 0:
        buf[CURRENT + current_rel] = 1.0
    buf[ROCK + rock_rel] = 1.0
    for t, size in enumerate(towers):
        buf[TOWER_SIZES + t] = size * _INV_TOWER
    buf[UNSEEN] = unseen / NUM_TOKENS
    buf[PENDING_COUNT] = pending_count / SLOTS
    return f32(buf)


@lru_cache(maxsize=8192)
def row(tokens: tuple[int, ...] | None) -> Block:
    buf = [0.0] * ROW_SIZE
    seen = [0] * NUM_ANIMALS
    if tokens is not None:
        buf[0] = 1.0
        buf[1] = len(tokens) * _INV_TOWER
        for token in tokens:
            buf[2 + token] += _INV_ANIMAL
            seen[token] += 1
    return f32(buf), tuple(seen)


@lru_cache(maxsize=1024)
def pending(tokens: tuple[int, ...], used: str | None) -> Block:
    """The drawer's drawn tokens, then what it did with the first duo token."""
    buf = [0.0] * (SLOTS * PENDING_SIZE + len(USED_KINDS))
    seen = [0] * NUM_ANIMALS
    for slot, token in enumerate(tokens):
        if token >= 0:
            buf[slot * PENDING_SIZE + token] = 1.0
            seen[token] += 1
        else:
            buf[slot * PENDING_SIZE + NUM_ANIMALS] = 1.0
    if used:
        buf[SLOTS * PENDING_SIZE + USED_KINDS.index(used)] = 1.0
    return f32(buf), tuple(seen)


NO_PENDING = pending((), None)


@lru_cache(maxsize=4096)
def own(face_down: tuple[int, ...], returned: tuple[int, ...], score_with_face_down: int) -> Block:
    """The observer's hidden tokens (sorted, as the view lists them)."""
    buf = [0.0] * OWN_SIZE
    seen = [0] * NUM_ANIMALS
    for token in face_down:
        buf[token] += 1.0 / MAX_FACE_DOWN
        seen[token] += 1
    for token in returned:
        buf[NUM_ANIMALS + token] += _INV_ANIMAL
        seen[token] += 1
    buf[2 * NUM_ANIMALS] = score_value(score_with_face_down)
    return f32(buf), tuple(seen)


def own_of(face_down: tuple[int, ...], returned: tuple[int, ...], counts: tuple[int, ...], rock: bool,
           trees: int) -> Block:
    """`own` with its score preview computed from the fields it follows from (T7 applied)."""
    return own(face_down, returned, seat_points(with_face_down(counts, face_down), rock, trees))


def seat_block_of(out: bool, trees: int, face_down_count: int, returned_count: int, winner: bool, rock: bool,
                  turn: bool, collection: tuple[int, ...]) -> Block:
    """`seat_block` with the seat's score computed from the fields it follows from."""
    return seat_block(out, trees, face_down_count, returned_count, seat_points(collection, rock, trees), winner,
                      rock, turn, collection)


@lru_cache(maxsize=16384)
def seat_block(out: bool, trees: int, face_down_count: int, returned_count: int, score: int, winner: bool,
               rock: bool, turn: bool, collection: tuple[int, ...]) -> Block:
    buf = [0.0] * S_ANIMALS
    buf[S_PRESENT] = 1.0
    if out:
        buf[S_OUT] = 1.0
    buf[S_TREES] = trees / TREE_TILES
    buf[S_FACE_DOWN] = face_down_count / MAX_FACE_DOWN
    buf[S_RETURNED] = returned_count / MAX_RETURNED
    buf[S_SCORE] = score_value(score)
    if winner:
        buf[S_WINNER] = 1.0
    if rock:
        buf[S_ROCK] = 1.0
    if turn:
        buf[S_TURN] = 1.0
    return f32([*buf, *collection_block(collection)]), collection
