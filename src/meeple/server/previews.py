"""What each legal move would do to the mover's score, worked out from the mover's own view.

The page shows it before the click ("+12 points"). It is computed on `determinize(seat, rng)`,
never on the true state: the sample holds only what the seat has seen plus random stand-ins for
the rest, so the figure cannot tell the seat anything it does not know. A move whose score change
depends on the stand-ins (two samples disagree) gets no figure: the engine cannot tell.
"""

from __future__ import annotations

import hashlib
from typing import Any

from meeple.core.errors import MeepleError
from meeple.core.rng import Rng
from meeple.core.state import State

#: How many samples must agree on a move's score change before the page is told it.
SAMPLES = 2


def preview_seed(table: str, version: int, seat: int, sample: int) -> int:
    """A reproducible seed per table, move number, seat and sample (nothing secret in it)."""
    digest = hashlib.sha256(f"{table}:{version}:{seat}:{sample}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def score_changes(state: State[Any], seat: int, seeds: list[int]) -> dict[int, int | None]:
    """Each legal move's id -> the change of `seat`'s score it makes, or None where the samples
    drawn with `seeds` (one determinization each) disagree. Empty unless `seat` is to move."""
    if state.current_player != seat or state.is_terminal:
        return {}
    changes: dict[int, int | None] = {}
    for k, seed in enumerate(seeds):
        sample = state.determinize(seat, Rng(seed))
        before = sample.scores()[seat]
        for action in sample.legal_actions():
            after = sample.clone()
            try:
                after.apply(action)
            except MeepleError:  # a move the sample cannot make: no figure for it
                changes[sample.action_id(action)] = None
                continue
            change = after.scores()[seat] - before
            key = sample.action_id(action)
            if k == 0:
                changes[key] = change
            elif changes.get(key) != change:
                changes[key] = None
    return changes
