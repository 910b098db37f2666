"""Triqueta's observation encoder: one flat float32 vector of fixed size from `view(seat)`.

The size is the same for every player count (seats and rows are padded to five), seats are
seat-relative (the observer first, then the others clockwise), row markers keep their absolute
numbers (the action ids name them). Layout: docs/games/triqueta.md, "Observation encoding".
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from meeple.batch.triqueta_layout import (
    COUNT_BINS,
    CURRENT,
    DUO,
    FINISHED,
    MAX_RETURNED,
    MIN_PLAYERS,
    MIN_SCORE,
    OWN,
    PENDING,
    PENDING_COUNT,
    PENDING_SIZE,
    PLAYERS_ONEHOT,
    ROCK,
    ROUND,
    ROW_SIZE,
    ROWS,
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
    SEAT_SIZE,
    SEATS,
    SIZE,
    SLOTS,
    TOWER_SIZES,
    UNKNOWN,
    UNSEEN,
    USED_KIND,
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

if TYPE_CHECKING:
    from meeple.games.triqueta.view_types import TriquetaView

_INV_TOWER = 1.0 / TOKENS_PER_TOWER
_INV_ANIMAL = 1.0 / TOKENS_PER_ANIMAL


def shape(num_players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
    """The same flat size for every player count and option."""
    return (SIZE,)


def _score(points: int) -> float:
    return min(1.0, max(0.0, (points - MIN_SCORE) / SCORE_SPAN))


@lru_cache(maxsize=8192)
def _collection_block(collection: tuple[int, ...]) -> tuple[float, ...]:
    """A seat's animals: per animal count / 10, then the count's bin (0, 1, 2, 3, 4+) one-hot."""
    block = [0.0] * (NUM_ANIMALS * (1 + COUNT_BINS))
    a = 0
    for count in collection:
        block[a] = count * _INV_ANIMAL
        block[a + 1 + (count if count < COUNT_BINS else COUNT_BINS - 1)] = 1.0
        a += 1 + COUNT_BINS
    return tuple(block)


def encode(view: TriquetaView, seat: int, num_players: int, options: Mapping[str, Any]) -> np.ndarray:
    """`view` (what `state.view(seat)` returns) as a float32 vector of `shape(...)`, in [0, 1]."""
    n = view["num_players"]
    buf = [0.0] * SIZE
    buf[PLAYERS_ONEHOT + n - MIN_PLAYERS] = 1.0
    if view["duo"]:
        buf[DUO] = 1.0
    buf[ROUND + view["round"] - 1] = 1.0
    finished = view["over"]
    current = view["current_player"]
    if finished:
        buf[FINISHED] = 1.0
    elif current is not None:
        buf[CURRENT + (current - seat) % n] = 1.0
    rock = view["rock"]
    buf[ROCK + (rock - seat) % n] = 1.0
    for t, size in enumerate(view["towers"]):
        buf[TOWER_SIZES + t] = size * _INV_TOWER
    buf[UNSEEN] = view["unseen_count"] / NUM_TOKENS
    buf[PENDING_COUNT] = view["pending_count"] / SLOTS

    seen = [0] * NUM_ANIMALS
    for r, row in enumerate(view["rows"]):
        if row is None:
            continue
        base = ROWS + r * ROW_SIZE
        buf[base] = 1.0
        buf[base + 1] = len(row) * _INV_TOWER
        for token in row:
            buf[base + 2 + token] += _INV_ANIMAL
            seen[token] += 1

    pending = view.get("pending")
    if pending:
        for slot, token in enumerate(pending):
            if token >= 0:
                buf[PENDING + slot * PENDING_SIZE + token] = 1.0
                seen[token] += 1
            else:
                buf[PENDING + slot * PENDING_SIZE + NUM_ANIMALS] = 1.0
        used = view.get("used_kind")
        if used:
            buf[USED_KIND + USED_KINDS.index(used)] = 1.0

    players = view["players"]
    mine = players[seat]
    for token in mine["face_down"]:
        buf[OWN + token] += 1.0 / MAX_FACE_DOWN
        seen[token] += 1
    for token in mine["returned"]:
        buf[OWN + NUM_ANIMALS + token] += _INV_ANIMAL
        seen[token] += 1
    buf[OWN + 2 * NUM_ANIMALS] = _score(mine["score_with_face_down"])

    winners = view["winners"]
    for other in range(n):
        rel = (other - seat) % n
        p = players[other]
        base = SEATS + rel * SEAT_SIZE
        buf[base + S_PRESENT] = 1.0
        if p["out"]:
            buf[base + S_OUT] = 1.0
        buf[base + S_TREES] = p["trees"] / TREE_TILES
        buf[base + S_FACE_DOWN] = p["face_down_count"] / MAX_FACE_DOWN
        buf[base + S_RETURNED] = p["returned_count"] / MAX_RETURNED
        buf[base + S_SCORE] = _score(p["score"])
        if other in winners:
            buf[base + S_WINNER] = 1.0
        if other == rock:
            buf[base + S_ROCK] = 1.0
        if other == current and not finished:
            buf[base + S_TURN] = 1.0
        collection = p["collection"]
        buf[base + S_ANIMALS:base + SEAT_SIZE] = _collection_block(tuple(collection))
        for animal in range(NUM_ANIMALS):
            seen[animal] += collection[animal]
    for animal in range(NUM_ANIMALS):
        buf[UNKNOWN + animal] = (TOKENS_PER_ANIMAL - seen[animal]) * _INV_ANIMAL
    return np.array(buf, dtype=np.float32)
