"""Celtica's recall vector (meeple.envs.spaces.RecallEncoder): the seat's own cards and the display.

Every action id is public (a play shows its colour and cards, takes and give-ups change the open
parts, a cult decision the open hand size, the end phase's swaps and buys the display), so
chance shows a seat only: its own druid and experience cards (dealt at a round's start, drawn
at a cult site or a ruin; C8, C7, C9) and the parts that refill the display (C6, C11). The other
seats' draws show only as hand sizes, which the ids determine. So the view after a step follows
from the view before it, the action id and the seat's hand, experience cards and display after it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from meeple.games.celtica.components import NUM_COLOURS, NUM_PART_TYPES

if TYPE_CHECKING:
    from meeple.games.celtica.view_types import CelticaView

SIZE = 2 * NUM_COLOURS + NUM_PART_TYPES


def recall_size(num_players: int, options: Mapping[str, Any]) -> int:
    return SIZE


def recall(view: CelticaView, seat: int, num_players: int, options: Mapping[str, Any]) -> list[int]:
    mine = view["players"][seat]
    none = [0] * NUM_COLOURS  # only a spectator's view lacks them
    return [*mine.get("hand", none), *mine.get("experience", none), *view["display"]]
