"""Triqueta's batched simulator against the engine (issue #32): masks, current player, scores,
every seat's observation, the hidden state, game ends and auto-resets, step by step; T1-T9 (the
duo option T9 included) at 2-5 players."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple
from meeple.batch import BatchSimulator, make, simulator_class
from meeple.batch.triqueta import TriquetaBatch
from meeple.core.errors import OptionError
from meeple.core.rng import PureRng
from meeple.envs.spaces import observe
from tests.batch.lockstep import lockstep, played

GAME = meeple.load("triqueta")
TABLES: list[tuple[int, dict[str, Any]]] = [(2, {"duo": False}), (2, {"duo": True}), (3, {"duo": False}),
                                            (4, {"duo": False}), (5, {"duo": False})]


def canonical(state: Any) -> dict[str, Any]:
    """Triqueta's state JSON with the orders no view shows sorted away (rows, returned tokens,
    tokens gone unseen), so a batch's export compares equal to the engine's state."""
    data: dict[str, Any] = state.to_json()
    data["rows"] = [None if r is None else sorted(r) for r in data["rows"]]
    data["returned"] = [sorted(r) for r in data["returned"]]
    data["gone"] = sorted(data["gone"])
    return data


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_batch_plays_as_the_engine(players: int, options: dict[str, Any]) -> None:
    assert lockstep("triqueta", 40, players, options, seed=1000 * players, games=100, compare=canonical) >= 100


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), TABLES)
def test_ten_thousand_games_play_as_the_engine(players: int, options: dict[str, Any],
                                              games_per_table: Callable[[int, int], int]) -> None:
    # 5 tables x 2,000 games: 10,000 games over every player count and the duo option.
    games = games_per_table(2_000, len(TABLES))
    assert lockstep("triqueta", 256, players, options, seed=7_000 + players, games=games, action_seed=players,
                    compare=canonical) >= games


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(num_envs=st.sampled_from([1, 7, 1000]), table=st.sampled_from(TABLES), seed=st.integers(0, 2**40),
       action_seed=st.integers(0, 2**31))
def test_any_batch_size_plays_as_the_engine(num_envs: int, table: tuple[int, dict[str, Any]], seed: int,
                                            action_seed: int) -> None:
    players, options = table
    lockstep("triqueta", num_envs, players, options, seed, steps=60 if num_envs < 1000 else 6, action_seed=action_seed,
             compare=canonical)


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_determinize_deals_as_the_engine_and_hides_nothing_seen(players: int, options: dict[str, Any]) -> None:
    for steps in (0, 3, 11, 25):
        sim = played("triqueta", 60, players, options, steps, seed=steps)
        seats = np.arange(60) % players
        before = sim.observe(seats).copy()  # observe returns a buffer the next call reuses
        states = [sim.export(i) for i in range(60)]
        sim.determinize(seats, seed=500)
        assert np.array_equal(sim.observe(seats), before)  # the seat sees no difference
        for i, state in enumerate(states):
            expected = state.determinize(int(seats[i]), PureRng(500 + i))
            assert canonical(sim.export(i)) == canonical(expected)


def test_determinize_changes_what_the_seat_cannot_see() -> None:
    sim = played("triqueta", 200, 2, {"duo": False}, 5, seed=3)
    towers = sim.towers.copy()  # type: ignore[attr-defined]
    sim.determinize(np.zeros(200, np.int64), seed=9)
    assert (sim.towers != towers).any(axis=(1, 2)).mean() > 0.9  # type: ignore[attr-defined]


def test_an_illegal_action_is_refused_naming_its_slots_and_nothing_changes() -> None:
    sim = make(GAME, 5, 3, seed=4)
    state = [canonical(sim.export(i)) for i in range(5)]
    actions = np.full(5, 5)  # draw: legal everywhere at the start
    actions[[1, 3]] = [16, 4]  # keep before drawing; row 4 is not in play at three seats
    with pytest.raises(ValueError, match=r"slots \[1, 3\]"):
        sim.step(actions)
    assert [canonical(sim.export(i)) for i in range(5)] == state
    with pytest.raises(ValueError, match="slots"):
        sim.step(np.full(5, 99))


def test_reset_starts_every_slot_from_its_seed() -> None:
    sim = played("triqueta", 9, 4, {"duo": False}, 30, seed=1)
    sim.reset(77)
    for i in range(9):
        assert canonical(sim.export(i)) == canonical(GAME.new_game(4, seed=77 + i))
        assert np.array_equal(sim.observe()[i], observe(GAME.new_game(4, seed=77 + i), 0))


def test_the_plugin_names_the_simulator_and_options_are_checked() -> None:
    assert simulator_class(GAME) is TriquetaBatch
    assert isinstance(make(GAME, 2, 2), BatchSimulator)
    with pytest.raises(OptionError, match="T9"):
        make(GAME, 2, 3, {"duo": True})
