"""The envelope every game's view shares: who is looking, whose turn it is, how the game stands.

`state.view(seat)` is a plain JSON-safe dict (it goes over the wire as it is); its type is a
TypedDict, so mypy checks every reader's keys. Each game's view type extends `View` with its own
fields (declared beside the code that builds it, in the game's `view.py`); generic code (the
server, the adapters) reads only these six.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

if TYPE_CHECKING:
    from meeple.core.state import State


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


def envelope(state: State[Any], seat: int | None, scores: list[int] | None = None) -> View:
    """The shared part of `state.view(seat)`, for a game whose scores are public (as the four
    games' are: their scores count only what every seat sees). A view that works the scores out
    anyway passes them as `scores` (they must equal `state.scores()`) rather than have them
    counted twice."""
    return {
        "game": state.game.name,
        "seat": seat,
        "current_player": state.current_player,
        "over": state.over,
        "scores": state.scores() if scores is None else scores,
        "winners": state.winners(),
    }
