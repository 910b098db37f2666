"""Triqueta's observation encoder: one flat float32 vector of fixed size from `view(seat)`.

The size is the same for every player count (seats and rows are padded to five), seats are
seat-relative (the observer first, then the others clockwise), row markers keep their absolute
numbers (the action ids name them). Layout: docs/games/triqueta.md, "Observation encoding".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from meeple.batch.triqueta_layout import ROW_SIZE, SEAT_SIZE, SIZE
from meeple.envs.encoders import triqueta_blocks as blocks
from meeple.envs.encoders.triqueta_blocks import Block
from meeple.envs.encoders.triqueta_recall import recall as recall  # the RecallEncoder part (OpenSpiel)
from meeple.envs.encoders.triqueta_recall import recall_size as recall_size
from meeple.envs.encoders.triqueta_state import encode_state as encode_state  # the env's fast path
from meeple.games.triqueta.components import MAX_PLAYERS

if TYPE_CHECKING:
    from meeple.games.triqueta.view_types import TriquetaView


def shape(num_players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
    """The same flat size for every player count and option."""
    return (SIZE,)


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


def _encode(seat: int, n: int, duo: bool, round_no: int, finished: bool, current: int | None, rock: int,
            towers: Sequence[int], unseen: int, pending_count: int, rows: Sequence[Sequence[int] | None],
            pending: Sequence[int] | None, used: str | None, face_down: Sequence[int], returned: Sequence[int],
            score_with_face_down: int, players: Sequence[tuple[bool, int, int, int, int, Sequence[int]]],
            winners: Sequence[int]) -> np.ndarray:
    """The vector from the values a view shows (`players`: out, trees, face-down and returned
    counts, score, collection per seat), joined from cached blocks: a block is computed once per
    distinct content, so a step costs a few dict look-ups rather than a write per value."""
    live = current if current is not None and not finished else -1
    pend = blocks.pending(tuple(pending), used) if pending else blocks.NO_PENDING
    own = blocks.own(tuple(sorted(face_down)), tuple(sorted(returned)), score_with_face_down)
    seats = [blocks.seat_block(out, trees, fd, ret, score, other in winners, other == rock, other == live,
                               tuple(collection))
             for other, (out, trees, fd, ret, score, collection) in enumerate(players)]
    header = (n, duo, round_no, finished, -1 if current is None else (current - seat) % n, (rock - seat) % n,
              tuple(towers), unseen, pending_count)
    return _join(seat, n, header, [blocks.row(None if row is None else tuple(row)) for row in rows], pend, own, seats)


def _join(seat: int, n: int, header: tuple[Any, ...], seen_rows: list[Block], pend: Block, own: Block,
          seats: list[Block]) -> np.ndarray:
    """The observation from its blocks (`header`: `blocks.header`'s arguments), the seats from the
    observer on; the unknown counts per animal from the tokens every block shows."""
    seen = tuple(sum(c) for c in zip(*(b[1] for b in seen_rows), pend[1], own[1], *(b[1] for b in seats)))
    parts = [blocks.header(*header), blocks.unknown(seen)]
    parts += [row[0] for row in seen_rows]
    parts += (blocks.zeros(ROW_SIZE * (MAX_PLAYERS - len(seen_rows))), pend[0], own[0])
    parts += [seats[(seat + j) % n][0] for j in range(n)]
    parts.append(blocks.zeros(SEAT_SIZE * (MAX_PLAYERS - n)))
    return np.concatenate(parts)


