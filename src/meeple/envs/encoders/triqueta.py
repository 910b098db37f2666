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

from meeple.games.triqueta.components import (
    MAX_FACE_DOWN,
    MAX_PLAYERS,
    NUM_ANIMALS,
    NUM_TOKENS,
    TOKENS_PER_ANIMAL,
    TOKENS_PER_TOWER,
    TOWERS,
    TREE_TILES,
    VALUES,
)

if TYPE_CHECKING:
    from meeple.games.triqueta.view_types import TriquetaView

MIN_PLAYERS = 2
#: A duo draw returns at most one of its two tokens to the box: at most half the tokens.
MAX_RETURNED = NUM_TOKENS // 2
#: Score bounds: every animal a triqueta, the rock and every tree; every token with one seat.
MAX_SCORE = sum(VALUES) + 1 + TREE_TILES
MIN_SCORE = NUM_ANIMALS * (3 - TOKENS_PER_ANIMAL)
SCORE_SPAN = MAX_SCORE - MIN_SCORE
#: Count bins of a collected animal: 0, 1, 2, 3 (a triqueta), 4 or more.
COUNT_BINS = 5
USED_KINDS = ("place", "keep", "discard")
SLOTS = 2

# -- offsets (see the docs table) --------------------------------------------------------------
PLAYERS_ONEHOT = 0  # 4: num_players 2..5
DUO = PLAYERS_ONEHOT + (MAX_PLAYERS - MIN_PLAYERS + 1)  # 1
ROUND = DUO + 1  # 4: round 1..4
FINISHED = ROUND + TOWERS  # 1
CURRENT = FINISHED + 1  # 5: seat to act, relative (none once over)
ROCK = CURRENT + MAX_PLAYERS  # 5: rock holder, relative
TOWER_SIZES = ROCK + MAX_PLAYERS  # 4: tokens left per tower / 15
UNSEEN = TOWER_SIZES + TOWERS  # 1: tokens gone unseen / 60
PENDING_COUNT = UNSEEN + 1  # 1: tokens the seat to act is looking at / 2
UNKNOWN = PENDING_COUNT + 1  # 6: per animal, tokens the observer has not seen / 10
ROWS = UNKNOWN + NUM_ANIMALS  # 5 x ROW_SIZE
ROW_SIZE = 2 + NUM_ANIMALS  # in play, length / 15, per animal / 10
PENDING = ROWS + MAX_PLAYERS * ROW_SIZE  # 2 x PENDING_SIZE: the observer's drawn tokens
PENDING_SIZE = NUM_ANIMALS + 1  # animal one-hot, slot already dealt with
USED_KIND = PENDING + SLOTS * PENDING_SIZE  # 3: place / keep / discard done with the first duo token
OWN = USED_KIND + len(USED_KINDS)  # the observer's hidden things
OWN_SIZE = 2 * NUM_ANIMALS + 1  # face-down per animal / 2, returned per animal / 10, score with them
SEATS = OWN + OWN_SIZE  # 5 x SEAT_SIZE, relative order
SEAT_SIZE = 9 + NUM_ANIMALS * (1 + COUNT_BINS)
SIZE = SEATS + MAX_PLAYERS * SEAT_SIZE
# Within a seat block:
S_PRESENT, S_OUT, S_TREES, S_FACE_DOWN, S_RETURNED, S_SCORE, S_WINNER, S_ROCK, S_TURN = range(9)
S_ANIMALS = 9  # per animal: count / 10, then the COUNT_BINS one-hot

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
