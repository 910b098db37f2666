"""Triominos' batched simulator against the engine (issue #32): masks (the factored space of
envs.encoders.triominos_actions), seat to move, scores, every seat's observation, the hidden
state, round ends (M9: going out and blocked), matches (M10), the drawn_tile_only variant (M6) and
auto-resets, step by step at 2-4 players; determinize as the engine's (M8's opening draws)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import meeple
from meeple.batch import BatchSimulator, make, simulator_class
from meeple.batch import rng as brng
from meeple.batch.triominos import TriominosBatch
from meeple.core.rng import PureRng
from meeple.envs.encoders import triominos_actions as fa
from meeple.envs.spaces import observe
from meeple.games.triominos.scoring import BONUS_PART, PARTS
from meeple.games.triominos.state import TriominosState
from tests.batch.lockstep import lockstep, played

GAME = meeple.load("triominos")
#: Every player count with each option; short match targets so that matches end within a test.
TABLES: list[tuple[int, dict[str, Any]]] = [
    (2, {}), (3, {}), (4, {}),
    (2, {"drawn_tile_only": True}), (3, {"drawn_tile_only": True}), (4, {"drawn_tile_only": True}),
    (2, {"match": True, "target": 60}), (3, {"match": True, "target": 60}), (4, {"match": True, "target": 60}),
    (3, {"match": True, "target": 100, "drawn_tile_only": True}),
]
#: The fast tests' tables: every player count and every option.
FAST = [TABLES[i] for i in (0, 2, 4, 6, 9)]


def canonical(state: TriominosState) -> dict[str, Any]:
    """The state's JSON with the racks sorted (no view shows their order and no rule reads it)."""
    data: dict[str, Any] = state.to_json()
    data["racks"] = [sorted(rack) for rack in data["racks"]]
    return data


def factored_ids(state: TriominosState) -> list[int]:
    """The engine's legal moves in factored numbers, sorted (the mask of the mover's view)."""
    if state.is_terminal:
        return []
    return np.flatnonzero(fa.factored_mask(state.view(state.current_player))).tolist()


def play_factored(state: TriominosState, fid: int) -> None:
    """A factored id played on the engine: through the mover's view to the engine's id."""
    view = state.view(state.current_player)
    engine_id = fa.to_engine(view, fid)
    assert fa.from_engine(view, engine_id) == fid
    state.apply_id(engine_id)


class Ends:
    """`play_factored`, noting how the rounds played ended (M9: "out" or "blocked") and which
    board bonuses were scored (M4 "bridge", M5 "hexagon"...)."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def __call__(self, state: TriominosState, fid: int) -> None:
        play_factored(state, fid)
        self.seen.update(result["end"] for result in state.results)
        self.seen.update(PARTS[k] for k in BONUS_PART[1:] if any(seat[k] for seat in state.parts[-1]))


def run(num_envs: int, players: int, options: dict[str, Any], seed: int, steps: int | None = None,
        games: int | None = None, action_seed: int = 0, ends: Ends | None = None) -> int:
    return lockstep("triominos", num_envs, players, options, seed, steps=steps, games=games, action_seed=action_seed,
                    compare=canonical, legal_ids=factored_ids, play=ends or play_factored)


def test_the_engines_moves_in_factored_numbers_are_its_legal_ids() -> None:
    """The mask the lockstep compares with is the engine's own legal_action_ids, renumbered."""
    state = GAME.new_game(3, seed=5)
    rng = np.random.default_rng(0)
    for _ in range(60):
        view = state.view(state.current_player)
        ids = factored_ids(state)
        assert sorted(fa.to_engine(view, f) for f in ids) == sorted(state.legal_action_ids())
        play_factored(state, int(rng.choice(ids)))


def test_batch_plays_as_the_engine() -> None:
    """A few hundred steps over every player count and option: whole games, rounds that end by
    going out and blocked (M9), bridges and hexagons (M4, M5), matches that go on to a new round
    (M10), auto-resets."""
    ends = Ends()
    for players, options in FAST:
        assert run(2, players, options, seed=100 * players + len(options), steps=100, action_seed=players,
                   ends=ends) >= 1
    assert {"out", "blocked", "bridge", "hexagon"} <= ends.seen


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), TABLES)
def test_many_games_play_as_the_engine(players: int, options: dict[str, Any],
                                      games_per_table: Callable[[int, int], int]) -> None:
    """10 tables x 30 games, every step compared. The issue's 10,000 games (1,000 a table) run
    with `--differential-games 10000`: about 35 minutes of one free core, the engine's side (its
    views, encoder and factored masks) dominating."""
    ends = Ends()
    games = games_per_table(30, len(TABLES))
    assert run(15, players, options, seed=9_000 + 10 * players + len(options), games=games,
               action_seed=players, ends=ends) >= games
    if games >= 30:  # enough games a table for every kind of end to come up
        assert {"out", "blocked", "bridge"} <= ends.seen


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(num_envs=1000, table=TABLES[3], seed=2**40, action_seed=1)  # the largest batch, always
@given(num_envs=st.sampled_from([1, 7, 1000]), table=st.sampled_from(TABLES), seed=st.integers(0, 2**40),
       action_seed=st.integers(0, 2**31))
def test_any_batch_size_plays_as_the_engine(num_envs: int, table: tuple[int, dict[str, Any]], seed: int,
                                            action_seed: int) -> None:
    players, options = table
    run(num_envs, players, options, seed, steps=25 if num_envs < 1000 else 1, action_seed=action_seed)


def _played(num_envs: int, players: int, options: dict[str, Any], steps: int, seed: int) -> TriominosBatch:
    sim = played("triominos", num_envs, players, options, steps, seed)
    assert isinstance(sim, TriominosBatch)
    return sim


@pytest.mark.parametrize(("players", "options"), [(2, {}), (3, {"drawn_tile_only": True}), (4, {})])
def test_determinize_deals_as_the_engine_and_hides_nothing_seen(players: int, options: dict[str, Any]) -> None:
    guessed = opened = 0
    for steps in (0, 9, 30):
        sim = _played(24, players, options, steps, seed=steps)
        seats = (np.arange(24) + steps) % players
        before = np.array(sim.observe(seats))
        states = [sim.export(i) for i in range(24)]
        sim.determinize(seats, seed=700)
        assert np.array_equal(sim.observe(seats), before)  # the seat sees no difference
        for i, state in enumerate(states):
            expected = state.determinize(int(seats[i]), PureRng(700 + i))
            assert canonical(sim.export(i)) == canonical(expected), (steps, i)
            guessed += state.last_drawn >= 0 and state.current != seats[i]
            opened += any(min(state.drawn[j], len(state.racks[j])) for j in range(players) if j != seats[i])
    assert guessed and opened  # another mover's drawn tile and M8's weighted deal were both exercised


def test_determinize_changes_what_the_seat_cannot_see() -> None:
    sim = _played(100, 2, {}, 6, seed=3)
    racks, pool = sim.rack.copy(), sim.pool.copy()
    sim.determinize(np.zeros(100, np.int64), seed=9)
    assert np.array_equal(sim.rack[:, 0], racks[:, 0])
    assert (sim.rack[:, 1] != racks[:, 1]).any(1).mean() > 0.9
    assert (sim.pool != pool).any(1).mean() > 0.9


def test_an_illegal_action_is_refused_naming_its_slots_and_nothing_changes() -> None:
    sim = _played(5, 3, {}, 3, seed=4)
    state = [canonical(sim.export(i)) for i in range(5)]
    mask = sim.legal_mask()
    actions = mask.argmax(1)
    actions[1] = np.flatnonzero(~mask[1])[0]
    actions[3] = fa.factored_size()
    with pytest.raises(ValueError, match=r"slots \[1, 3\]"):
        sim.step(actions)
    assert [canonical(sim.export(i)) for i in range(5)] == state
    with pytest.raises(ValueError, match="5 integer action ids"):
        sim.step(np.zeros(4, np.int64))
    with pytest.raises(ValueError, match="seats must be 0 to 2"):
        sim.observe(np.full(5, 3))
    with pytest.raises(ValueError, match="5 integer seats"):
        sim.determinize(np.zeros(4, np.int64), seed=1)
    assert [canonical(sim.export(i)) for i in range(5)] == state


def test_reset_starts_every_slot_from_its_seed() -> None:
    sim = _played(6, 4, {"match": True, "target": 50}, 40, seed=1)
    sim.reset(77)
    for i in range(6):
        fresh = GAME.new_game(4, seed=77 + i, match=True, target=50)
        assert canonical(sim.export(i)) == canonical(fresh)
        assert np.array_equal(sim.observe()[i], observe(fresh, fresh.current_player))


def test_a_short_pool_deals_with_the_engines_code() -> None:
    """The opening draw's rare branch (the pool runs short of contenders after ties, M8) is dealt
    by the engine's own code; on ordinary rows that path gives what the arrays give."""
    for players in (2, 3, 4):
        sim = TriominosBatch(1, players)
        states = brng.consecutive_states(123, 300)
        arrays = sim._deal(states.copy())
        engine = sim._deal(states.copy(), by_engine=np.ones(300, bool))
        assert arrays[2].shape[1] >= 3  # ties redrawn twice somewhere: the loop over goes has teeth
        for got, want in zip(engine, arrays):
            assert np.array_equal(got, want)


def test_the_plugin_names_the_simulator() -> None:
    assert simulator_class(GAME) is TriominosBatch
    sim = make(GAME, 2, 3, {"drawn_tile_only": True})
    assert isinstance(sim, BatchSimulator)
    assert sim.num_actions == fa.factored_size() and sim.obs_shape == (39245,)
