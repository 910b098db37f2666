"""What every adapter shows a learner: the seat's encoded observation and its action mask.

Both are built from what `view(seat)` shows and the seat's legal action ids only, so no adapter
can leak: the encoders read nothing else (each game's encoder tests check it under
`determinize`). An encoder may also read the state directly (`encode_state`), skipping the view's
dicts; tests/envs/test_observe_fast.py checks it gives the bit-identical vector.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from meeple.core.protocol import Game
from meeple.core.registry import plugin_of
from meeple.core.state import State


@runtime_checkable
class Encoder(Protocol):
    """A game's observation encoder, the plugin's part "encoder" (a module with these two
    functions satisfies it)."""

    def shape(self, num_players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        """The shape of the encoded observation at this table."""

    def encode(self, view: Any, seat: int, num_players: int, options: Mapping[str, Any]) -> npt.NDArray[np.float32]:
        """`view(seat)` as float32 values in [0, 1], of `shape(num_players, options)`."""


@runtime_checkable
class RecallEncoder(Protocol):
    """An encoder that also gives, after every step, what chance has shown the seat so far
    (`recall`, from `view(seat)` only): with the public action ids it makes OpenSpiel's
    perfect-recall information-state tensor (meeple.envs.openspiel). The view after a step must
    follow from the view before it, the action's id and the step's `recall` vector."""

    def recall_size(self, num_players: int, options: Mapping[str, Any]) -> int:
        """The length of `recall`'s vector at this table."""

    def recall(self, view: Any, seat: int, num_players: int, options: Mapping[str, Any]) -> list[int]:
        """What chance has shown `seat` that its view shows now, as `recall_size` integers."""


@cache
def encoder(game: Game[Any, Any]) -> Encoder:
    """The game's encoder, checked; OptionError when its plugin names none."""
    return plugin_of(game).required_part("encoder", Encoder, "shape(num_players, options) and encode(view, seat, ...)",
                                         "observation encoder for the research environments")


def observation_shape(game: Game[Any, Any], num_players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
    return encoder(game).shape(num_players, options)


@cache
def _state_encoder(game: Game[Any, Any]) -> Callable[[Any, int], npt.NDArray[np.float32]] | None:
    """The encoder's `encode_state(state, seat)`, if it has one: the same vector as `encode` of
    `view(seat)`, read from the state's fields that view copies, without building the view."""
    return getattr(encoder(game), "encode_state", None)


def observe(state: State[Any], seat: int) -> npt.NDArray[np.float32]:
    """The encoded observation of `seat` (from what its view shows only)."""
    fast = _state_encoder(state.game)
    if fast is not None:
        return fast(state, seat)
    return encoder(state.game).encode(state.view(seat), seat, state.num_players, state.options)


def action_mask(state: State[Any], seat: int, size: int) -> npt.NDArray[np.int8]:
    """1 for each legal action id of `seat` (all 0 when it is not that seat's turn)."""
    mask = np.zeros(size, dtype=np.int8)
    if state.current_player == seat:
        mask[state.legal_action_ids()] = 1
    return mask


def recall_encoder(game: Game[Any, Any]) -> RecallEncoder | None:
    """The game's encoder if it gives recall vectors, else None."""
    found = encoder(game)
    return found if isinstance(found, RecallEncoder) else None
