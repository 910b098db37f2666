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

from meeple.core.errors import OptionError
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


@runtime_checkable
class ActionSpace(Protocol):
    """Another numbering of a game's actions for the env, offered by its encoder under a name
    (the encoder's optional `action_spaces` dict): masks and actions are translated from and to
    the engine's ids in the current position (from its public parts and the mover's legal ids)."""

    size: int

    def mask(self, state: Any, legal_ids: list[int]) -> npt.NDArray[np.int8]:
        """A fresh int8 array of `size`, 1 exactly at the translations of `legal_ids`."""

    def to_engine(self, state: Any, index: int) -> int:
        """The engine id `index` stands for now (IllegalAction when it stands for none)."""


ENGINE_ACTIONS = "engine"


def default_action_space(game: Game[Any, Any]) -> str:
    """The numbering the env uses unless told otherwise: the encoder's `default_action_space`
    where it names one of its `action_spaces` (a space a learner can use, and the one the game's
    batched simulator steps in), else the engine's ids."""
    return str(getattr(encoder(game), "default_action_space", ENGINE_ACTIONS))


def action_space_of(game: Game[Any, Any], name: str | None = None) -> ActionSpace | None:
    """The encoder's action space called `name` (None: the game's default), None for the
    engine's own ids; OptionError naming the choices for any other name."""
    if name is None:
        name = default_action_space(game)
    if name == ENGINE_ACTIONS:
        return None
    offered: Mapping[str, ActionSpace] = getattr(encoder(game), "action_spaces", {})
    found = offered.get(name)
    if found is None:
        names = ", ".join([ENGINE_ACTIONS, *offered])
        raise OptionError(f"{game.info.title} has no action space {name!r} (choose from: {names})")
    return found


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
    if state.current_player == seat:
        return legal_mask(state.legal_action_ids(), size)
    return np.zeros(size, dtype=np.int8)


def legal_mask(legal_ids: list[int], size: int) -> npt.NDArray[np.int8]:
    """A fresh int8 array of `size`, 1 at each of `legal_ids` (`put` takes the list as it is,
    without the index array a fancy assignment builds first)."""
    mask = np.zeros(size, dtype=np.int8)
    mask.put(legal_ids, 1)
    return mask


def recall_encoder(game: Game[Any, Any]) -> RecallEncoder | None:
    """The game's encoder if it gives recall vectors, else None."""
    found = encoder(game)
    return found if isinstance(found, RecallEncoder) else None
