"""Castell's observation encoder: shape, range, determinism, seat-relative order, no leak."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import meeple
from meeple.batch.castell_layout import PLAYER_LEN, layout
from meeple.core.rng import Rng
from meeple.envs.encoders import castell as enc

GAME = meeple.load("castell")
OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"wheel": "advanced"},
    {"performance_tokens": "all", "refill": "add", "prize_ties": "one_lower"},
)


def positions(num_players: int, options: dict[str, Any], seed: int, every: int = 9) -> list[Any]:
    """Every `every`-th position of one seeded random game, the final one included."""
    state = GAME.new_game(num_players, seed=seed, **options)
    rng = Rng(seed + 1000)
    out = []
    ply = 0
    while not state.is_terminal:
        if ply % every == 0:
            out.append(state.clone())
        actions = state.legal_actions()
        state.step(actions[rng.below(len(actions))])
        ply += 1
    out.append(state)
    return out


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("options", OPTION_SETS, ids=["default", "advanced", "other_readings"])
def test_shape_range_determinism_and_no_leak(num_players: int, options: dict[str, Any]) -> None:
    shape = enc.shape(num_players, options)
    assert shape == (layout(num_players)["total"][1],)
    for seed in range(2):
        for state in positions(num_players, options, seed):
            for seat in range(num_players):
                view = state.view(seat)
                x = enc.encode(view, seat, num_players, state.options)
                assert x.shape == shape and x.dtype == np.float32
                assert np.all(np.isfinite(x)) and x.min() >= 0.0 and x.max() <= 1.0
                assert np.array_equal(x, enc.encode(view, seat, num_players, state.options))
                for r in range(3):
                    sample = state.determinize(seat, Rng(100 * seed + r))
                    y = enc.encode(sample.view(seat), seat, num_players, sample.options)
                    assert np.array_equal(x, y)


def test_layout_blocks_tile_the_vector() -> None:
    for n in (2, 3, 4):
        lay = layout(n)
        at = 0
        for name, (offset, size) in lay.items():
            if name == "total":
                continue
            assert offset == at and size > 0
            at += size
        assert lay["total"] == (0, at)
    assert [enc.shape(n, {})[0] for n in (2, 3, 4)] == [1183, 1259, 1335]


def test_different_positions_differ() -> None:
    for n in (2, 3, 4):
        state = GAME.new_game(n, seed=5)
        rng = Rng(5)
        seen = []
        for ply in range(40):
            if ply in (0, 9, 39):
                seat = state.current_player
                assert seat is not None
                seen.append(enc.encode(state.view(seat), seat, n, state.options))
            actions = state.legal_actions()
            state.step(actions[rng.below(len(actions))])
        assert not np.array_equal(seen[0], seen[1])
        assert not np.array_equal(seen[1], seen[2])


def test_seats_are_relative_to_the_observer() -> None:
    """Player block 0 is the observer's; the current-player one-hot is 1 at index 0 for the
    seat to move; the same table seen from two seats swaps the player blocks."""
    n = 3
    state = positions(n, {}, seed=4, every=50)[2]
    lay = layout(n)
    base, _ = lay["players"]
    current_at, _ = lay["current"]
    mover = state.current_player
    assert mover is not None
    blocks = {}
    for seat in range(n):
        x = enc.encode(state.view(seat), seat, n, state.options)
        assert x[current_at + (mover - seat) % n] == 1.0
        blocks[seat] = [x[base + k * PLAYER_LEN: base + (k + 1) * PLAYER_LEN] for k in range(n)]
    for seat in range(n):
        for other in range(n):
            # seat `other` is block (other - seat) % n for observer `seat`
            assert np.array_equal(blocks[seat][(other - seat) % n], blocks[other][0])


def test_option_flags_and_wheel_side() -> None:
    lay = layout(2)
    opt_at, _ = lay["options"]
    side_at, _ = lay["wheel_side"]
    plain = GAME.new_game(2, seed=1)
    other = GAME.new_game(2, seed=1, wheel="advanced", performance_tokens="all", refill="add", prize_ties="one_lower")
    x = enc.encode(plain.view(0), 0, 2, plain.options)
    y = enc.encode(other.view(0), 0, 2, other.options)
    assert list(x[opt_at:opt_at + 3]) == [0, 0, 0] and list(y[opt_at:opt_at + 3]) == [1, 1, 1]
    assert list(x[side_at:side_at + 2]) == [1, 0] and list(y[side_at:side_at + 2]) == [0, 1]
