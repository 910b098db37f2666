"""Triqueta's actions, declared once (meeple.core.actionfields): one fixed table of 20 ids,
shared by every player count.

A turn is either "take a row" (Action B) or "draw" (Action A) followed by what to do with the
drawn token. In the `duo` variant (T9) two tokens are drawn and each gets an action, so the
follow-up actions name the token's slot (0 or 1; left out of the JSON, 0).

Ids (part of the protocol, never reordered): take row 0-4 are 0-4, draw is 5, place in row r of
slot s is 6 + 5s + r, keep slot s is 16 + s, discard slot s is 18 + s.
"""

from __future__ import annotations

from dataclasses import dataclass

from meeple.core.action import DeclaredAction
from meeple.core.actionfields import ActionSpace, Kind, Whole
from meeple.games.triqueta.components import MAX_PLAYERS

TAKE, DRAW, PLACE, KEEP, DISCARD = "take", "draw", "place", "keep", "discard"
KINDS = (TAKE, DRAW, PLACE, KEEP, DISCARD)
#: T9: at most two tokens drawn at once, so two slots.
SLOTS = 2


@dataclass(frozen=True, slots=True)
class Take(DeclaredAction):
    """Action B: take row marker `row` (0-based) and leave the round (T5)."""

    row: int


@dataclass(frozen=True, slots=True)
class Draw(DeclaredAction):
    """Action A: draw from the current tower (two tokens in the duo variant, T9)."""


@dataclass(frozen=True, slots=True)
class Place(DeclaredAction):
    """Put the drawn token in `slot` at the end of row `row`."""

    row: int
    slot: int


@dataclass(frozen=True, slots=True)
class Keep(DeclaredAction):
    """Keep the drawn token in `slot` face down (T4)."""

    slot: int


@dataclass(frozen=True, slots=True)
class Discard(DeclaredAction):
    """Duo variant: return the drawn token in `slot` to the box (T9)."""

    slot: int


Action = Take | Draw | Place | Keep | Discard

_ROW = Whole(0, MAX_PLAYERS - 1)
_SLOT = Whole(0, SLOTS - 1, default=0)
SPACE: ActionSpace[Action] = ActionSpace("Triqueta", [
    Kind(Take, TAKE, row=_ROW),
    Kind(Draw, DRAW),
    Kind(Place, PLACE, row=_ROW, slot=_SLOT, id_fields=("slot", "row")),
    Kind(Keep, KEEP, slot=_SLOT),
    Kind(Discard, DISCARD, slot=_SLOT),
])
#: Every action, in id order.
ALL_ACTIONS: tuple[Action, ...] = tuple(SPACE.all_actions())
NUM_ACTIONS = SPACE.num_actions
TAKE_ACTIONS = tuple(SPACE.block(Take))
DRAW_ACTION = SPACE.block(Draw)[0]
_PLACES, _KEEPS, _DISCARDS = SPACE.block(Place), SPACE.block(Keep), SPACE.block(Discard)
action_from_json = SPACE.action_from_json


def place_action(row: int, slot: int) -> Action:
    return _PLACES[slot * MAX_PLAYERS + row]  # slot first: the id order


def keep_action(slot: int) -> Action:
    return _KEEPS[slot]


def discard_action(slot: int) -> Action:
    return _DISCARDS[slot]
