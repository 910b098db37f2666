"""The one check every simulator's `step` makes before it changes anything: one integer action id
per game, each legal in its game (only the games `active` marks count), or a ValueError naming the
slots, so a bad batch of actions changes no game."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

Ids = npt.NDArray[np.int64]


def checked_actions(actions: npt.ArrayLike, mask: npt.NDArray[np.bool_],
                    active: npt.NDArray[np.bool_] | None = None) -> tuple[npt.NDArray[np.intp], Ids]:
    """The slots that move (all, or those `active` marks) and their action ids, checked against
    `mask` (N, num_actions). Actions must be an integer array of shape (N,): no coercion of
    floats or booleans."""
    n, width = mask.shape
    act: npt.NDArray[Any] = np.asarray(actions)
    if act.shape != (n,) or not np.issubdtype(act.dtype, np.integer):
        raise ValueError(f"step needs {n} integer action ids, one per game, not an array of {act.dtype} "
                         f"and shape {act.shape}")
    if active is None:
        live = np.arange(n)
    else:
        marks: npt.NDArray[Any] = np.asarray(active)
        if marks.shape != (n,) or marks.dtype != np.bool_:
            raise ValueError(f"active must be {n} booleans, one per game, not an array of {marks.dtype} "
                             f"and shape {marks.shape}")
        live = np.flatnonzero(marks)
    ids = act[live].astype(np.int64)
    legal = (ids >= 0) & (ids < width)
    legal[legal] = mask[live[legal], ids[legal]]
    if not legal.all():
        bad = live[~legal]
        more = " ..." if len(bad) > 20 else ""
        raise ValueError(f"illegal action ids in slots {bad[:20].tolist()}{more}: {act[bad[:20]].tolist()}{more}")
    return live, ids
