"""Highcard for learners (a `meeple.envs.spaces.Encoder`): one-hot of the seat's own card and of
the cards shown."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt


def shape(num_players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
    return (2, options["deck"])


def encode(view: dict[str, Any], seat: int, num_players: int, options: Mapping[str, Any]) -> npt.NDArray[np.float32]:
    out = np.zeros(shape(num_players, options), np.float32)
    out[0, view["cards"][seat] - 1] = 1.0
    for card in view["discards"]:
        out[1, card - 1] = 1.0
    return out
