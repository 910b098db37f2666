"""Celtica observation encoder: a flat float32 vector from `view(seat)` (layout in
docs/games/celtica.md, "Observation encoding (meeple.envs)").

Seat-relative: relative seat j is seat `(seat + j) % n`, the observer first, then the players in
turn order. The offsets and scalings are `meeple.batch.celtica_layout`'s, shared with the batched
simulator. The board takes `MAX_LENGTH` (60) location slots, so one shape serves every board
file; the length depends only on the player count. The vector is joined from cached blocks by
`celtica_blocks` (compiled), for a view here and for the state directly in the env's steps.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from meeple.batch.celtica_layout import PHASE_NAMES, size
from meeple.envs.encoders.celtica_blocks import OVER, join
from meeple.envs.encoders.celtica_blocks import encode_state as encode_state  # the env's fast path
from meeple.envs.encoders.celtica_recall import recall as recall  # the RecallEncoder part (OpenSpiel)
from meeple.envs.encoders.celtica_recall import recall_size as recall_size
from meeple.games.celtica.components import COLOURS
from meeple.games.celtica.phases import END_REASONS

if TYPE_CHECKING:
    from meeple.games.celtica.view_types import CelticaView


def shape(num_players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
    """The same for every option value (the board takes 60 slots whatever its length)."""
    return (size(num_players),)


def encode(view: CelticaView, seat: int, num_players: int, options: Mapping[str, Any]) -> np.ndarray:
    """The observation of `seat` from its view (reads nothing else)."""
    board = view["board"]
    me = view["players"][seat]
    must, phase, reason, ender = me["must_play"], view["phase"], view["end_reason"], view["ender"]
    piles = [*view["display"], view["supply"], *view["part_discards"], view["druid_deck"], *view["druid_discards"],
             view["experience_deck"], *view["experience_discards"], *me["hand"], *me["experience"]]
    players = [(p["parts"], p["druid_cards"], p["experience_cards"], p["owes_card"]) for p in view["players"]]
    current = view["current_player"]
    return join(seat, num_players, tuple(loc["kind"] for loc in board), tuple(loc["number"] for loc in board),
                view["provenance"] == "printed", view["druids"], -1 if must is None else COLOURS.index(must),
                OVER if phase is None else PHASE_NAMES.index(phase),
                -1 if reason is None else END_REASONS.index(reason), view["final_round"], view["pending"],
                view["round"], piles, players, -1 if current is None else current, -1 if ender is None else ender,
                view["end_queue"], view["winners"])
