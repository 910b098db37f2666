"""Castell's recall vector (meeple.envs.spaces.RecallEncoder): the castellers waiting in each region.

Everything but the bag's order is open (the view shows the whole table) and every action id is
public, so chance shows only what the bag deals into the regions: at set-up and at K2's
refills (rounds 3, 5, 7, 9). The view after a step follows from the view before it, the action
id (an `enter` without a tower is the solver's tower, a function of the open team and skills)
and the regions' castellers per size after it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from meeple.games.castell.components import REGIONS
from meeple.games.castell.towers.rules import SIZES

if TYPE_CHECKING:
    from meeple.games.castell.view_types import CastellView

SIZE = len(REGIONS) * len(SIZES)


def recall_size(num_players: int, options: Mapping[str, Any]) -> int:
    return SIZE


def recall(view: CastellView, seat: int, num_players: int, options: Mapping[str, Any]) -> list[int]:
    return [count for region in view["regions"] for count in region["castellers"]]
