"""Triqueta's actions: one fixed table of 20, shared by every player count, and their JSON form.

A turn is either "take a row" (Action B) or "draw" (Action A) followed by what to do with the
drawn token. In the `duo` variant (T9) two tokens are drawn and each gets an action, so the
follow-up actions name the token's slot (0 or 1).

Ids (part of the protocol, never reordered): take row 0-4 are 0-4, draw is 5, place in row r of
slot s is 6 + 5s + r, keep slot s is 16 + s, discard slot s is 18 + s.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from meeple.core.checks import object_kind, whole_in_range
from meeple.core.errors import IllegalAction
from meeple.core.protocol import check_action_id
from meeple.games.triqueta.components import MAX_PLAYERS

TAKE, DRAW, PLACE, KEEP, DISCARD = "take", "draw", "place", "keep", "discard"
KINDS = (TAKE, DRAW, PLACE, KEEP, DISCARD)
#: Kinds that name a row marker, and kinds that name a drawn token's slot.
ROW_KINDS = (TAKE, PLACE)
SLOT_KINDS = (PLACE, KEEP, DISCARD)
#: T9: at most two tokens drawn at once, so two slots.
SLOTS = 2


class Action(NamedTuple):
    """`row` is the row marker (0-based) for take/place, else -1; `slot` the drawn token."""

    kind: str
    row: int = -1
    slot: int = 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind}
        if self.kind in ROW_KINDS:
            out["row"] = self.row
        if self.kind in SLOT_KINDS:
            out["slot"] = self.slot
        return out


#: Every action, in id order.
ALL_ACTIONS: tuple[Action, ...] = (
    *(Action(TAKE, r) for r in range(MAX_PLAYERS)),
    Action(DRAW),
    *(Action(PLACE, r, s) for s in range(SLOTS) for r in range(MAX_PLAYERS)),
    *(Action(KEEP, -1, s) for s in range(SLOTS)),
    *(Action(DISCARD, -1, s) for s in range(SLOTS)),
)
NUM_ACTIONS = len(ALL_ACTIONS)
ACTION_ID: dict[Action, int] = {action: index for index, action in enumerate(ALL_ACTIONS)}
TAKE_ACTIONS = ALL_ACTIONS[0:MAX_PLAYERS]
DRAW_ACTION = ALL_ACTIONS[MAX_PLAYERS]
_FIRST_PLACE = MAX_PLAYERS + 1
_FIRST_KEEP = _FIRST_PLACE + SLOTS * MAX_PLAYERS
_FIRST_DISCARD = _FIRST_KEEP + SLOTS
#: The fields each kind of action may carry besides its type (`slot` may be left out: 0).
FIELDS = {TAKE: ("row",), DRAW: (), PLACE: ("row", "slot"), KEEP: ("slot",), DISCARD: ("slot",)}


def place_action(row: int, slot: int) -> Action:
    return ALL_ACTIONS[_FIRST_PLACE + slot * MAX_PLAYERS + row]


def keep_action(slot: int) -> Action:
    return ALL_ACTIONS[_FIRST_KEEP + slot]


def discard_action(slot: int) -> Action:
    return ALL_ACTIONS[_FIRST_DISCARD + slot]


def action_id(action: object) -> int:
    """The id of `action` (see the module docstring)."""
    number = ACTION_ID.get(action) if type(action) is Action else None
    if number is None:
        raise IllegalAction("ids", f"{action!r} is not a Triqueta action")
    return number


def action_from_id(number: object) -> Action:
    """The action with id `number`."""
    return ALL_ACTIONS[check_action_id(number, NUM_ACTIONS, "Triqueta")]


def action_from_json(obj: Any) -> Action:
    """Decode an action; the canonical instance is returned so ids and equality are cheap.
    RecordError names what is malformed."""
    kind = object_kind(obj, FIELDS, "Triqueta action")
    row = whole_in_range(obj.get("row"), 0, MAX_PLAYERS - 1, f"{kind} action field 'row'") if kind in ROW_KINDS else -1
    slot = whole_in_range(obj.get("slot", 0), 0, SLOTS - 1, f"{kind} action field 'slot'") if kind in SLOT_KINDS else 0
    return ALL_ACTIONS[ACTION_ID[Action(kind, row, slot)]]
