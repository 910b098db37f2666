"""Triqueta's observation encoder: fixed shape, bounded values, deterministic, no hidden leak."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import meeple
from meeple.batch import triqueta_layout as layout
from meeple.core.rng import Rng
from meeple.envs.encoders import triqueta as enc
from meeple.games.triqueta.components import NUM_ANIMALS

GAME = meeple.load("triqueta")
SETUPS: list[tuple[int, dict[str, Any]]] = [(2, {"duo": False}), (2, {"duo": True}), (3, {"duo": False}),
                                            (4, {"duo": False}), (5, {"duo": False})]


def positions(players: int, options: dict[str, Any], games: int, seed: int) -> list[Any]:
    """States along seeded random games, the terminal one included."""
    rng = Rng(seed)
    found = []
    for g in range(games):
        state = GAME.new_game(players, seed=seed * 1000 + g, **options)
        while True:
            found.append(state.clone())
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
    return found


def encode(state: Any, seat: int) -> Any:
    return enc.encode(state.view(seat), seat, state.num_players, state.options)


@pytest.mark.parametrize(("players", "options"), SETUPS)
def test_shape_dtype_range_and_determinism(players, options):
    expected = enc.shape(players, options)
    for state in positions(players, options, games=3, seed=players)[::3]:
        for seat in range(players):
            obs = encode(state, seat)
            assert obs.shape == expected and obs.dtype == np.float32
            assert np.all(np.isfinite(obs)) and obs.min() >= 0.0 and obs.max() <= 1.0
            assert np.array_equal(obs, encode(state, seat))


@pytest.mark.parametrize(("players", "options"), SETUPS)
def test_no_leak_of_hidden_information(players, options):
    for state in positions(players, options, games=2, seed=10 + players)[::4]:
        for seat in range(players):
            obs = encode(state, seat)
            for r in range(3):
                sample = state.determinize(seat, Rng(r))
                assert np.array_equal(obs, encode(sample, seat))


def test_own_hidden_tokens_are_encoded():
    """Seat 0's face-down token shows in its own encoding, and not in another seat's."""
    state = GAME.new_game(3, seed=5)
    state.apply(state.action_from_id(5))  # draw
    drawn = state.view(0)["pending"][0]
    before_1 = encode(state, 1)
    state.apply(state.action_from_id(16))  # keep it face down
    obs0 = encode(state, 0)
    assert obs0[layout.OWN + drawn] == pytest.approx(0.5)
    assert obs0[layout.SEATS + layout.S_FACE_DOWN] == pytest.approx(0.5)
    obs1 = encode(state, 1)
    assert obs1[layout.OWN:layout.OWN + layout.OWN_SIZE - 1].sum() == 0
    # seat 0 is 2 after seat 1
    assert obs1[layout.SEATS + 2 * layout.SEAT_SIZE + layout.S_FACE_DOWN] == pytest.approx(0.5)
    assert not np.array_equal(before_1, obs1)


def test_seat_relative_order():
    state = GAME.new_game(4, seed=3)
    for seat in range(4):
        obs = encode(state, seat)
        rel = (0 - seat) % 4  # seat 0 is to act and holds the rock
        assert obs[layout.CURRENT + rel] == 1.0 and obs[layout.ROCK + rel] == 1.0
        assert obs[layout.SEATS + rel * layout.SEAT_SIZE + layout.S_TURN] == 1.0


@pytest.mark.parametrize(("players", "options"), SETUPS)
def test_different_positions_differ(players, options):
    for g in range(5):
        states = positions(players, options, games=1, seed=100 + g)
        for seat in range(players):
            assert not np.array_equal(encode(states[0], seat), encode(states[min(10, len(states) - 1)], seat))
            assert not np.array_equal(encode(states[-2], seat), encode(states[-1], seat))


def test_layout_matches_the_documented_offsets():
    """docs/games/triqueta.md, "Observation encoding", gives these offsets."""
    assert (layout.DUO, layout.ROUND, layout.FINISHED, layout.CURRENT, layout.ROCK) == (4, 5, 9, 10, 15)
    assert (layout.TOWER_SIZES, layout.UNSEEN, layout.PENDING_COUNT, layout.UNKNOWN) == (20, 24, 25, 26)
    assert (layout.ROWS, layout.PENDING, layout.USED_KIND, layout.OWN, layout.SEATS) == (32, 72, 86, 89, 102)
    assert (layout.ROW_SIZE, layout.PENDING_SIZE, layout.SEAT_SIZE, layout.SIZE) == (8, 7, 45, 327)
    for players, options in SETUPS:
        assert enc.shape(players, options) == (327,)


def test_drawn_duo_tokens_only_for_the_drawer():
    state = GAME.new_game(2, seed=9, duo=True)
    state.apply(state.action_from_id(5))  # draw two
    first, second = state.view(0)["pending"]
    state.apply(state.action_from_id(16))  # keep slot 0 face down
    obs0, obs1 = encode(state, 0), encode(state, 1)
    assert obs0[layout.PENDING + NUM_ANIMALS] == 1.0  # slot 0 dealt with
    assert obs0[layout.PENDING + layout.PENDING_SIZE + second] == 1.0
    assert obs0[layout.USED_KIND + 1] == 1.0  # keep
    assert obs0[layout.OWN + first] == pytest.approx(0.5)
    assert obs1[layout.PENDING:layout.OWN].sum() == 0
    assert obs1[layout.PENDING_COUNT] == pytest.approx(0.5)
