"""The OpenSpiel games keep OpenSpiel's promises: serialization, pickling and worker processes
(explicit opening chance node, no RNG state), history kept, perfect-recall information states,
rule options as game parameters."""

from __future__ import annotations

import json
import multiprocessing
import pickle
import random
from typing import Any

import pyspiel
import pytest

import meeple.envs.openspiel  # registers the games
from meeple.core.registry import game_names, load

TABLES = [(name, players) for name in game_names() for players in (2, 3)]


def walk(game: Any, seed: int, steps: int) -> Any:
    """A state `steps` random actions (chance included) into a game, or its end."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def serialized_in_a_worker(state: Any) -> tuple[list[int], str]:
    """Run in another process: the state arrives pickled and plays on there."""
    return state.history(), state.serialize()


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_states_pickle_serialize_and_cross_processes(name, players):
    game = pyspiel.load_game(f"python_meeple_{name}", {"players": players})
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = walk(game, seed=players, steps=6)
    restored = pickle.loads(pickle.dumps(state))
    assert restored.history() == state.history() and str(restored) == str(state)
    assert restored.legal_actions() == state.legal_actions()
    again_game, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(again_game) == str(game) and again.serialize() == state.serialize()
    outcomes = game.new_initial_state().chance_outcomes()
    assert pickle.loads(pickle.dumps(game)).new_initial_state().chance_outcomes() == outcomes
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.map(serialized_in_a_worker, [state]) == [(state.history(), state.serialize())]


@pytest.mark.parametrize("name", game_names())
def test_the_opening_chance_node_deals_equally_likely_seeds(name):
    game = pyspiel.load_game(f"python_meeple_{name}", {"players": 2, "deals": 5, "seed": 2})
    state = game.new_initial_state()
    assert state.is_chance_node() and state.chance_outcomes() == [(i, 0.2) for i in range(5)]
    state.apply_action(3)
    assert state.meeple.to_json() == load(name).new_game(2, seed=2 * meeple.envs.openspiel.SEED_STRIDE + 3).to_json()


@pytest.mark.parametrize("name", game_names())
def test_history_survives_deserialization_and_resampling(name):
    game = pyspiel.load_game(f"python_meeple_{name}", {"players": 2})
    state = walk(game, seed=1, steps=5)
    assert len(state.history()) == 5
    assert game.deserialize_state(state.serialize()).history() == state.history()
    seat = state.current_player()
    sample = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(7, 0.0, 1.0))
    assert sample.history() == state.history()
    assert sample.information_state_string(seat) == state.information_state_string(seat)
    assert sample.observation_tensor(seat) == state.observation_tensor(seat)
    redone = game.deserialize_state(sample.serialize())  # a re-dealt state is not its history replayed
    assert redone.serialize() == sample.serialize() and redone.history() == state.history()


def seat_history(state: Any, seat: int, views: list[str]) -> tuple[Any, ...]:
    """What a seat lived through, told independently of the information state: its view after each
    step and its own actions with when it took them."""
    own = tuple((i, step.action) for i, step in enumerate(state.full_history()) if step.player == seat)
    return tuple(views), own


@pytest.mark.parametrize("name", game_names())
def test_information_states_have_perfect_recall(name):
    """Triqueta had 115 collisions in 2,380 states with the current view as the information state."""
    game = pyspiel.load_game(f"python_meeple_{name}", {"players": 2, "deals": 3})
    seen: dict[str, tuple[Any, ...]] = {}
    states = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = game.new_initial_state()
        state.apply_action(seed % 3)
        views: list[list[str]] = [[state.observation_string(seat)] for seat in range(2)]
        while not state.is_terminal() and len(state.history()) < 60:
            state.apply_action(rng.choice(state.legal_actions()))
            for seat in range(2):
                views[seat].append(state.observation_string(seat))
                key = state.information_state_string(seat)
                lived = seat_history(state, seat, views[seat])
                assert seen.setdefault(key, lived) == lived, "two seat histories share an information state"
                states += 1
    assert states > 300
    assert json.loads(state.observation_string(0)) == state.meeple.view(0)  # the observation stays the current view


def test_rule_options_are_game_parameters():
    duo = pyspiel.load_game("python_meeple_triqueta", {"players": 2, "duo": True})
    state = duo.new_initial_state()
    state.apply_action(0)
    assert state.meeple.options["duo"] is True
    assert pyspiel.load_game("python_meeple_castell(players=3,wheel=advanced)").players == 3
    with pytest.raises(pyspiel.SpielError, match="bogus"):
        pyspiel.load_game("python_meeple_triqueta", {"bogus": 1})
    with pytest.raises(pyspiel.SpielError, match="duo"):
        pyspiel.load_game("python_meeple_triqueta", {"duo": 3})
    with pytest.raises(Exception, match="wheel"):
        pyspiel.load_game("python_meeple_castell", {"wheel": "sideways"})
    with pytest.raises(Exception, match="duo"):
        pyspiel.load_game("python_meeple_triqueta", {"players": 3, "duo": True})  # T9: duo is for two players


def test_rl_environment_steps_through_a_game():
    from open_spiel.python import rl_environment

    environment = rl_environment.Environment("python_meeple_celtica", players=2)
    step = environment.reset()
    rng = random.Random(0)
    while not step.last():
        player = step.observations["current_player"]
        step = environment.step([rng.choice(step.observations["legal_actions"][player])])
    assert sum(step.rewards) == pytest.approx(1.0)
