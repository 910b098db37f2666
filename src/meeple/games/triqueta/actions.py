"""Triqueta's moves: one fixed table of 20 actions shared by every player count.

A turn is either "take a row" (Action B) or "draw" (Action A) followed by what to do with the
drawn token. In the `duo` variant (T9) two tokens are drawn and each gets an action, so the
follow-up actions name the token's slot (0 or 1).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ...core.errors import RecordError
from .components import MAX_PLAYERS

TAKE, DRAW, PLACE, KEEP, DISCARD = "take", "draw", "place", "keep", "discard"
KINDS = (TAKE, DRAW, PLACE, KEEP, DISCARD)


class Move(NamedTuple):
    """`row` is the row marker (0-based) for take/place, else -1; `slot` the drawn token."""

    kind: str
    row: int = -1
    slot: int = 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind}
        if self.kind in (TAKE, PLACE):
            out["row"] = self.row
        if self.kind in (PLACE, KEEP, DISCARD):
            out["slot"] = self.slot
        return out


ALL_MOVES: tuple[Move, ...] = (
    *(Move(TAKE, r) for r in range(MAX_PLAYERS)),
    Move(DRAW),
    *(Move(PLACE, r, s) for s in (0, 1) for r in range(MAX_PLAYERS)),
    *(Move(KEEP, -1, s) for s in (0, 1)),
    *(Move(DISCARD, -1, s) for s in (0, 1)),
)
MOVE_ID: dict[Move, int] = {move: index for index, move in enumerate(ALL_MOVES)}
TAKE_MOVES = ALL_MOVES[0:MAX_PLAYERS]
DRAW_MOVE = ALL_MOVES[MAX_PLAYERS]


def place_move(row: int, slot: int) -> Move:
    return ALL_MOVES[MAX_PLAYERS + 1 + slot * MAX_PLAYERS + row]


def keep_move(slot: int) -> Move:
    return ALL_MOVES[3 * MAX_PLAYERS + 1 + slot]


def discard_move(slot: int) -> Move:
    return ALL_MOVES[3 * MAX_PLAYERS + 3 + slot]


def move_from_json(obj: Any) -> Move:
    """Decode a move; the canonical instance is returned so ids and equality are cheap."""
    if not isinstance(obj, dict) or obj.get("type") not in KINDS:
        raise RecordError(f"not a Triqueta move: {obj!r} (type must be one of {', '.join(KINDS)})")
    kind = obj["type"]
    row = obj.get("row", -1) if kind in (TAKE, PLACE) else -1
    slot = obj.get("slot", 0) if kind in (PLACE, KEEP, DISCARD) else 0
    for name, value, limit in (("row", row, MAX_PLAYERS), ("slot", slot, 2)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise RecordError(f"Triqueta move {obj!r}: {name} must be a whole number")
    if kind in (TAKE, PLACE) and not 0 <= row < MAX_PLAYERS:
        raise RecordError(f"Triqueta move {obj!r}: row must be 0 to {MAX_PLAYERS - 1}")
    if not 0 <= slot < 2:
        raise RecordError(f"Triqueta move {obj!r}: slot must be 0 or 1")
    return ALL_MOVES[MOVE_ID[Move(kind, row, slot)]]
