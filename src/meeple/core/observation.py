"""What one seat may know when it is to move: everything a bot is handed.

A bot used to receive the real state, and only convention kept it from reading the other seats'
hands. An `Observation` holds no reference to the real state: it keeps the seat's legal actions
and a *sample*, a full state drawn once with `determinize` (the seat's own things and everything
public as they are, every hidden thing re-dealt). A bot that reads the sample can find nothing
true that its seat may not know, so it cannot cheat even by accident.

Every game's `determinize(seat, rng)` depends only on what the seat knows (a conformance test
checks this for every game), so `observation.determinize(rng)` is exactly
`state.determinize(seat, rng)`: a search over an observation makes the same decisions as one over
the real state. The sample is drawn from a fixed stream of its own, so building an observation
takes nothing from the bot's random stream either.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic

from meeple.core.errors import OptionError
from meeple.core.protocol import ActionT, Game
from meeple.core.rng import Rng
from meeple.core.state import State
from meeple.core.views import View

#: The seed of the one sample an observation draws.
SAMPLE_SEED = 0x0B5E_4A71_0F5E_A7ED


class Observation(Generic[ActionT]):
    """The seat to move, its legal actions, and a state consistent with what it knows."""

    __slots__ = ("seat", "legal", "sample")

    def __init__(self, seat: int, legal: Sequence[ActionT], sample: State[ActionT]) -> None:
        self.seat = seat
        self.legal = tuple(legal)
        self.sample = sample

    @classmethod
    def of(cls, state: State[ActionT]) -> Observation[ActionT]:
        """What the seat to move in `state` may know."""
        seat = state.current_player
        if seat is None:
            raise OptionError("the game is over: no seat is to move")
        return cls(seat, state.legal_actions(), state.determinize(seat, Rng(SAMPLE_SEED)))

    @property
    def game(self) -> Game[Any, ActionT]:
        return self.sample.game

    @property
    def num_players(self) -> int:
        return self.sample.num_players

    def legal_actions(self) -> list[ActionT]:
        return list(self.legal)

    def action_id(self, action: ActionT) -> int:
        return self.sample.action_id(action)

    def view(self) -> View:
        """The seat's own view (the same as the real state's)."""
        return self.sample.view(self.seat)

    def determinize(self, rng: Rng) -> State[ActionT]:
        """A full state consistent with the seat's knowledge, hidden things re-sampled from `rng`."""
        return self.sample.determinize(self.seat, rng)
