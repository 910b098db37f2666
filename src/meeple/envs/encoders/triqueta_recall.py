"""Triqueta's recall vector (meeple.envs.spaces.RecallEncoder): what the draws have shown a seat.

Every action id is public (a take, a draw, a place into a row, a keep or a return: the view shows
each as rows, counts and `pending_count`); chance shows tokens only. So the view after a step
follows from the view before it, the action id and: the animals in the rows (a place shows its
token to everyone, and the id names the row), the tokens the seat itself is looking at (T2:
the drawer alone sees its draw; ordered, as the view lists them) and, at the end, what T7 added
to each collection and boxed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from meeple.games.triqueta.actions import SLOTS
from meeple.games.triqueta.components import MAX_PLAYERS, NUM_ANIMALS

if TYPE_CHECKING:
    from meeple.games.triqueta.view_types import TriquetaView

#: Animals in all rows, the drawn tokens by slot (one-hot), T7's added animals and boxed count per seat.
SIZE = NUM_ANIMALS + SLOTS * NUM_ANIMALS + MAX_PLAYERS * (NUM_ANIMALS + 1)


def recall_size(num_players: int, options: Mapping[str, Any]) -> int:
    return SIZE


def recall(view: TriquetaView, seat: int, num_players: int, options: Mapping[str, Any]) -> list[int]:
    out = [0] * SIZE
    for row in view["rows"]:
        for animal in row or ():
            out[animal] += 1
    for slot, animal in enumerate(view.get("pending") or ()):
        if animal >= 0:  # a slot already dealt with is negative
            out[NUM_ANIMALS * (1 + slot) + animal] = 1
    base = NUM_ANIMALS * (1 + SLOTS)
    for other, final in enumerate(view.get("final") or ()):
        at = base + other * (NUM_ANIMALS + 1)
        for animal in final["added"]:
            out[at + animal] += 1
        out[at + NUM_ANIMALS] = final["boxed"]
    return out
