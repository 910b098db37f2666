"""Castell's observation from the state (`encoders.castell_state`): its caches start again when
full, the calendar is never taken from other festivals, and blocks are rounded and clipped as
numpy does. That the vector equals the view's encoding is tests/envs/test_observe_fast.py's."""

from __future__ import annotations

import numpy as np

import meeple
from meeple.envs.encoders import castell, castell_blocks, castell_state

GAME = meeple.load("castell")


def test_a_full_cache_starts_again() -> None:
    cache = dict.fromkeys(range(castell_state.LIMIT - 1), b"")
    assert castell_state.kept(cache, -1, b"a") == b"a" and len(cache) == castell_state.LIMIT
    assert castell_state.kept(cache, -2, b"b") == b"b" and cache == {-2: b"b"}


def test_the_calendar_is_never_taken_from_other_festivals() -> None:
    """An entry under the id of a state's festivals made from another tuple (one that has died,
    whose id came back) is not used."""
    state = GAME.new_game(2, seed=3)
    other = GAME.new_game(2, seed=4)
    assert castell_blocks.calendar_of(other.festivals) != castell_blocks.calendar_of(state.festivals)
    castell_state._calendars[id(state.festivals)] = (other.festivals, castell_blocks.calendar_of(other.festivals))
    for seat in range(2):
        expected = castell.encode(state.view(seat), seat, 2, state.options)
        assert castell_state.encode_state(state, seat).tobytes() == expected.tobytes()


def test_blocks_are_rounded_then_clipped_as_numpy_does() -> None:
    """Values just over 1 that round to 1.0, or to more, in float32."""
    values = [0.0, 0.1, 1 / 3, 1.0, 1.00000001, 1.0000001, 2.5]
    expected = np.minimum(np.array(values, dtype=np.float32), 1.0)
    assert castell_blocks._block(values) == expected.tobytes()
