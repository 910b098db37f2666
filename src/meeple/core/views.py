"""The envelope every game's view shares: who is looking, whose turn it is, how the game stands.

`state.view(seat)` is a plain JSON-safe dict (it goes over the wire as it is); its type is a
TypedDict, so mypy checks every reader's keys. Each game's view type extends `View` with its own
fields (in the game's `view_types.py`); generic code (the server, the adapters) reads only these
six. A game's `view` writes the six keys out in its dict literal rather than unpacking a shared
one: mypy's strict checks refuse `**` into a TypedDict that has keys only some views hold (a
seat's own rack), and the conformance check (`check_envelope`) holds every game to the meaning
below.
"""

from __future__ import annotations

from typing import TypedDict


class View(TypedDict):
    """What every game's view starts with.

    `seat` is the viewer (None: a spectator); `current_player` the seat to act (None once
    `over`); `scores` each seat's score as every seat may see it (final once over); `winners`
    the winning seats (several on a shared win), empty until the game is over."""

    game: str
    seat: int | None
    current_player: int | None
    over: bool
    scores: list[int]
    winners: list[int]

