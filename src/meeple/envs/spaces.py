"""What every adapter shows a learner: the seat's encoded observation and its action mask.

Both are built from `view(seat)` and the seat's legal action ids only, so no adapter can leak:
the encoders read nothing else (each game's encoder tests check it under `determinize`).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from meeple.core.protocol import Game
from meeple.core.state import State


def encoder(game: Game[Any, Any]) -> ModuleType:
    """The game's encoder module (`meeple.envs.encoders.<game>`): `shape` and `encode`."""
    return importlib.import_module(f"meeple.envs.encoders.{game.name}")


def observation_shape(game: Game[Any, Any], num_players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
    shape: tuple[int, ...] = encoder(game).shape(num_players, options)
    return shape


def observe(state: State[Any], seat: int) -> npt.NDArray[np.float32]:
    """The encoded observation of `seat` (from its view only)."""
    encoded: npt.NDArray[np.float32] = encoder(state.game).encode(
        state.view(seat), seat, state.num_players, state.options)
    return encoded


def action_mask(state: State[Any], seat: int, size: int) -> npt.NDArray[np.int8]:
    """1 for each legal action id of `seat` (all 0 when it is not that seat's turn)."""
    mask = np.zeros(size, dtype=np.int8)
    if state.current_player == seat:
        mask[state.legal_action_ids()] = 1
    return mask
