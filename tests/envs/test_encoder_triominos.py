"""The Triominos observation encoder and factored action space (meeple.envs)."""

from __future__ import annotations

import numpy as np
import pytest

import meeple
from meeple.batch import triominos_layout as layout
from meeple.core.rng import Rng
from meeple.envs.encoders import triominos as enc
from meeple.envs.encoders import triominos_actions as fa

GAME = meeple.load("triominos")
OPTIONS = [{}, {"drawn_tile_only": True}, {"match": True, "target": 120}]


def positions(num_players, options, seed, every=3):
    """Every `every`-th position of a seeded random game, the last one included."""
    state, rng = GAME.new_game(num_players, seed=seed, **options), Rng(seed)
    ply = 0
    while not state.is_terminal:
        if ply % every == 0:
            yield state
        acts = state.legal_actions()
        state.step(acts[rng.below(len(acts))])
        ply += 1
    yield state


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("options", OPTIONS)
def test_shape_range_determinism_and_no_leak(num_players, options):
    for seed in range(3):
        for state in positions(num_players, options, seed, every=7):
            opts = state.options
            for seat in range(num_players):
                view = state.view(seat)
                obs = enc.encode(view, seat, num_players, opts)
                assert obs.shape == enc.shape(num_players, opts) and obs.dtype == np.float32
                assert np.isfinite(obs).all() and obs.min() >= 0.0 and obs.max() <= 1.0
                assert np.array_equal(obs, enc.encode(state.view(seat), seat, num_players, opts))
                for k in range(3):
                    other = state.determinize(seat, Rng(1000 * seed + k)).view(seat)
                    assert np.array_equal(obs, enc.encode(other, seat, num_players, opts))


def test_positions_differ_and_seats_are_relative():
    for n in (2, 3, 4):
        for seed in range(5):
            states = []
            state, rng = GAME.new_game(n, seed=seed), Rng(seed)
            for _ in range(10):
                states.append(state.clone())
                acts = state.legal_actions()
                state.step(acts[rng.below(len(acts))])
            first = enc.encode(states[0].view(0), 0, n, states[0].options)
            tenth = enc.encode(states[9].view(0), 0, n, states[9].options)
            assert not np.array_equal(first, tenth)
            s = states[0]
            for seat in range(n):
                obs = enc.encode(s.view(seat), seat, n, s.options)
                rel = (s.current_player - seat) % n
                to_move = obs[layout.TO_MOVE:layout.TO_MOVE + layout.SEATS]
                assert to_move[rel] == 1.0 and to_move.sum() == 1.0


def test_board_planes_show_the_placed_numbers():
    state = GAME.new_game(2, seed=3)
    state.step(state.legal_actions()[0])
    obs = enc.encode(state.view(0), 0, 2, state.options)
    planes = obs[: layout.PLANES * layout.AREA].reshape(layout.PLANES, layout.SIDE, layout.SIDE)
    (tile,) = state.view(0)["board"]
    c0, c1, c2 = tile["corners"]
    r = layout.REACH
    assert planes[c0, r, r] == planes[c1, r, r + 1] == planes[c2, r + 1, r] == 1.0
    assert planes[layout.COVERED, r, r] == planes[layout.LAST, r, r] == 1.0
    assert planes[: layout.COVERED].sum() == 3 and planes[layout.OPEN : layout.OPEN + 2].sum() == 3


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("options", OPTIONS)
def test_factored_actions_map_exactly_both_ways(num_players, options):
    most = 0
    for seed in range(4):
        for state in positions(num_players, options, seed, every=1):
            for seat in range(num_players):
                view = state.view(seat)
                most = max(most, len(view["open"]))
                mask = fa.factored_mask(view)
                assert mask.shape == (fa.factored_size(),) and mask.dtype == bool
                if seat != state.current_player:
                    assert not mask.any()
                    continue
                legal = state.legal_action_ids()
                mapped = sorted(fa.from_engine(view, a) for a in legal)
                assert len(set(mapped)) == len(legal)
                assert sorted(fa.to_engine(view, i) for i in mapped) == sorted(legal)
                assert all(fa.to_engine(view, fa.from_engine(view, a)) == a for a in legal)
                assert list(np.flatnonzero(mask)) == mapped
    assert most <= layout.MAX_OPEN


def test_factored_edges():
    state = GAME.new_game(2, seed=1)
    view = state.view(state.current_player)
    assert fa.factored_size() == 56 * layout.MAX_OPEN + 3
    with pytest.raises(ValueError):
        fa.to_engine(view, fa.factored_size())
    with pytest.raises(ValueError):
        fa.to_engine(view, 1)  # slot 1 on an empty board
    with pytest.raises(ValueError):
        fa.from_engine(view, 5)  # a cell that is not open
