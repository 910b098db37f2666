"""Triqueta's observation encoder: one flat float32 vector of fixed size from `view(seat)`.

The size is the same for every player count (seats and rows are padded to five), seats are
seat-relative (the observer first, then the others clockwise), row markers keep their absolute
numbers (the action ids name them). Layout: docs/games/triqueta.md, "Observation encoding".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    SEAT_SIZE,
    SIZE,
    SLOTS,
    TOWER_SIZES,
    UNKNOWN,
    UNSEEN,
    USED_KINDS,
)
from meeple.envs.encoders.triqueta_recall import recall as recall  # the RecallEncoder part (OpenSpiel)
from meeple.envs.encoders.triqueta_recall import recall_size as recall_size
from meeple.games.triqueta.components import (
    MAX_FACE_DOWN,
    MAX_PLAYERS,
    NUM_ANIMALS,
    NUM_TOKENS,
    TOKENS_PER_ANIMAL,
    TOKENS_PER_TOWER,
    TOWERS,
    TREE_TILES,
)
from meeple.games.triqueta.scoring import seat_points, with_face_down

if TYPE_CHECKING:
    from meeple.games.triqueta.state import TriquetaState
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
    players = view["players"]
    mine = players[seat]
    pending = view.get("pending")
    return _encode(
        seat, view["num_players"], view["duo"], view["round"], view["over"], view["current_player"], view["rock"],
        view["towers"], view["unseen_count"], view["pending_count"], view["rows"],
        pending, view.get("used_kind") if pending else None,
        mine["face_down"], mine["returned"], mine["score_with_face_down"],
        [(p["out"], p["trees"], p["face_down_count"], p["returned_count"], p["score"], p["collection"])
         for p in players],
        view["winners"])


def encode_state(state: TriquetaState, seat: int) -> np.ndarray:
    """The same vector as `encode(state.view(seat), ...)`, read from the fields that view copies
    (the observer's own hidden tokens; the drawn tokens only for the drawer, T4) without
    building the view. The scores the view shows follow from fields already in the blocks'
    keys (counts, rock, trees), so they are computed only when a block is made."""
    n, over, rock = state.num_players, state.over, state.rock
    current = state.current_player
    live = -1 if current is None else current
    counts, trees, face_down, returned = state.counts, state.trees, state.face_down, state.returned
    winners = state.winners() if over else ()
    blocks = [_seat_block_of(state.out[s], trees[s], len(face_down[s]), len(returned[s]), s in winners, s == rock,
                             s == live, tuple(counts[s]))
              for s in range(n)]
    drawer_sees = seat == live
    pending = state.pending
    pend = _pending(tuple(pending), state.used_kind or None) if drawer_sees and pending else _NO_PENDING
    own = _own_of(tuple(sorted(face_down[seat])), tuple(sorted(returned[seat])), tuple(counts[seat]), seat == rock,
                  trees[seat])
    header = (n, state.duo, min(state.round, TOWERS - 1) + 1, over, -1 if current is None else (current - seat) % n,
              (rock - seat) % n, tuple(map(len, state.towers)), len(state.gone), sum(1 for t in pending if t >= 0))
    return _join(seat, n, header, [_row(None if row is None else tuple(row)) for row in state.rows], pend, own,
                 blocks)


def _encode(seat: int, n: int, duo: bool, round_no: int, finished: bool, current: int | None, rock: int,
            towers: Sequence[int], unseen: int, pending_count: int, rows: Sequence[Sequence[int] | None],
            pending: Sequence[int] | None, used: str | None, face_down: Sequence[int], returned: Sequence[int],
            score_with_face_down: int, players: Sequence[tuple[bool, int, int, int, int, Sequence[int]]],
            winners: Sequence[int]) -> np.ndarray:
    """The vector from the values a view shows (`players`: out, trees, face-down and returned
    counts, score, collection per seat), joined from cached blocks: a block is computed once per
    distinct content, so a step costs a few dict look-ups rather than a write per value."""
    live = current if current is not None and not finished else -1
    pend = _pending(tuple(pending), used) if pending else _NO_PENDING
    own = _own(tuple(sorted(face_down)), tuple(sorted(returned)), score_with_face_down)
    blocks = [_seat_block(out, trees, fd, ret, score, other in winners, other == rock, other == live,
                          tuple(collection))
              for other, (out, trees, fd, ret, score, collection) in enumerate(players)]
    header = (n, duo, round_no, finished, -1 if current is None else (current - seat) % n, (rock - seat) % n,
              tuple(towers), unseen, pending_count)
    return _join(seat, n, header, [_row(None if row is None else tuple(row)) for row in rows], pend, own, blocks)


def _join(seat: int, n: int, header: tuple[Any, ...], seen_rows: list[Block], pend: Block, own: Block,
          blocks: list[Block]) -> np.ndarray:
    """The observation from its blocks (`header`: `_header`'s arguments), the seats from the
    observer on; the unknown counts per animal from the tokens every block shows."""
    seen = tuple(sum(c) for c in zip(*(b[1] for b in seen_rows), pend[1], own[1], *(b[1] for b in blocks)))
    parts = [_header(*header), _unknown(seen)]
    parts += [row[0] for row in seen_rows]
    parts += (_zeros(ROW_SIZE * (MAX_PLAYERS - len(seen_rows))), pend[0], own[0])
    parts += [blocks[(seat + j) % n][0] for j in range(n)]
    parts.append(_zeros(SEAT_SIZE * (MAX_PLAYERS - n)))
    return np.concatenate(parts)


Block = tuple[np.ndarray, tuple[int, ...]]  # float32 values, tokens seen per animal


def _f32(values: Sequence[float]) -> np.ndarray:
    """A cached block as float32, read-only (np.concatenate copies it into each observation)."""
    out = np.array(values, dtype=np.float32)
    out.flags.writeable = False
    return out


@lru_cache(maxsize=64)
def _zeros(size: int) -> np.ndarray:
    return _f32([0.0] * size)


@lru_cache(maxsize=1024)
def _unknown(seen: tuple[int, ...]) -> np.ndarray:
    """Per animal, the tokens the observer has not seen / 10."""
    return _f32([(TOKENS_PER_ANIMAL - k) * _INV_ANIMAL for k in seen])


@lru_cache(maxsize=4096)
def _header(n: int, duo: bool, round_no: int, finished: bool, current_rel: int, rock_rel: int,
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
    return _f32(buf)


@lru_cache(maxsize=8192)
def _row(row: tuple[int, ...] | None) -> Block:
    buf = [0.0] * ROW_SIZE
    seen = [0] * NUM_ANIMALS
    if row is not None:
        buf[0] = 1.0
        buf[1] = len(row) * _INV_TOWER
        for token in row:
            buf[2 + token] += _INV_ANIMAL
            seen[token] += 1
    return _f32(buf), tuple(seen)


@lru_cache(maxsize=1024)
def _pending(pending: tuple[int, ...], used: str | None) -> Block:
    """The drawer's drawn tokens, then what it did with the first duo token."""
    buf = [0.0] * (SLOTS * PENDING_SIZE + len(USED_KINDS))
    seen = [0] * NUM_ANIMALS
    for slot, token in enumerate(pending):
        if token >= 0:
            buf[slot * PENDING_SIZE + token] = 1.0
            seen[token] += 1
        else:
            buf[slot * PENDING_SIZE + NUM_ANIMALS] = 1.0
    if used:
        buf[SLOTS * PENDING_SIZE + USED_KINDS.index(used)] = 1.0
    return _f32(buf), tuple(seen)


_NO_PENDING = _pending((), None)


@lru_cache(maxsize=4096)
def _own(face_down: tuple[int, ...], returned: tuple[int, ...], score_with_face_down: int) -> Block:
    """The observer's hidden tokens (sorted, as the view lists them)."""
    buf = [0.0] * OWN_SIZE
    seen = [0] * NUM_ANIMALS
    for token in face_down:
        buf[token] += 1.0 / MAX_FACE_DOWN
        seen[token] += 1
    for token in returned:
        buf[NUM_ANIMALS + token] += _INV_ANIMAL
        seen[token] += 1
    buf[2 * NUM_ANIMALS] = _score(score_with_face_down)
    return _f32(buf), tuple(seen)


@lru_cache(maxsize=4096)
def _own_of(face_down: tuple[int, ...], returned: tuple[int, ...], counts: tuple[int, ...], rock: bool,
            trees: int) -> Block:
    """`_own` with its score preview computed from the fields it follows from (T7 applied)."""
    return _own(face_down, returned, seat_points(with_face_down(counts, face_down), rock, trees))


@lru_cache(maxsize=16384)
def _seat_block_of(out: bool, trees: int, face_down_count: int, returned_count: int, winner: bool, rock: bool,
                   turn: bool, collection: tuple[int, ...]) -> Block:
    """`_seat_block` with the seat's score computed from the fields it follows from."""
    return _seat_block(out, trees, face_down_count, returned_count, seat_points(collection, rock, trees), winner,
                       rock, turn, collection)


@lru_cache(maxsize=16384)
def _seat_block(out: bool, trees: int, face_down_count: int, returned_count: int, score: int, winner: bool,
                rock: bool, turn: bool, collection: tuple[int, ...]) -> Block:
    buf = [0.0] * S_ANIMALS
    buf[S_PRESENT] = 1.0
    if out:
        buf[S_OUT] = 1.0
    buf[S_TREES] = trees / TREE_TILES
    buf[S_FACE_DOWN] = face_down_count / MAX_FACE_DOWN
    buf[S_RETURNED] = returned_count / MAX_RETURNED
    buf[S_SCORE] = _score(score)
    if winner:
        buf[S_WINNER] = 1.0
    if rock:
        buf[S_ROCK] = 1.0
    if turn:
        buf[S_TURN] = 1.0
    return _f32([*buf, *_collection_block(collection)]), collection
