"""The OpenSpiel games keep OpenSpiel's promises: serialization, pickling and worker processes
(explicit opening chance node, no RNG state), history kept, perfect-recall information states,
rule options as game parameters."""

from __future__ import annotations

import json
import multiprocessing
import pickle
import random
from typing import Any

import numpy as np
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


RECALL_GAMES = [name for name in game_names()
                if pyspiel.load_game(f"python_meeple_{name}").get_type().provides_information_state_tensor]


def tensor_key(state: Any, seat: int) -> bytes:
    return np.asarray(state.information_state_tensor(seat), np.float32).tobytes()


def recall_runs() -> list[Any]:
    """Per game, a short run (8 plies at every player count) and a long one marked slow (a whole
    game at the fewest and at the most players)."""
    runs = []
    for name in RECALL_GAMES:
        meeple_game = load(name)
        every = list(range(meeple_game.min_players, meeple_game.max_players + 1))
        runs.append(pytest.param(name, every, 8, id=f"{name}-short"))
        runs.append(pytest.param(name, [every[0], every[-1]], 400, id=f"{name}-long", marks=pytest.mark.slow))
    return runs


@pytest.mark.parametrize(("name", "tables", "plies"), recall_runs())
def test_information_state_tensors_have_perfect_recall(name, tables, plies):
    """Two seat histories with different information-state strings never share a tensor; the
    observation tensor stays the current view, and is the tensor's first part. The long run
    plays a whole game at the fewest and at the most players (10-25 s in Celtica and Castell,
    whose strings grow to megabytes); more games would cover more deals and endings."""
    strings: dict[bytes, str] = {}
    for players in tables:
        game = pyspiel.load_game(f"python_meeple_{name}", {"players": players, "deals": 2})
        size = game.observation_tensor_size()
        rng = random.Random(players)
        state = game.new_initial_state()
        state.apply_action(players % 2)
        while not state.is_terminal() and len(state.history()) <= plies:
            state.apply_action(rng.choice(state.legal_actions()))
            for seat in range(players):
                tensor = np.asarray(state.information_state_tensor(seat), np.float32)
                info = state.information_state_string(seat)
                assert strings.setdefault(tensor.tobytes(), info) == info, "two information states share a tensor"
            assert np.array_equal(tensor[:size], np.asarray(state.observation_tensor(seat), np.float32))
    assert len(strings) > 7 * sum(tables)


def test_castell_own_actions_in_another_order_are_another_information_state():
    """The case of issue 32: own actions [1, 26, 39] and [1, 39, 26] gave the same information state."""
    game = pyspiel.load_game("python_meeple_castell", {"players": 2})
    for deal in range(game.new_initial_state().chance_outcomes()[-1][0] + 1):
        states = []
        for order in ([1, 26, 39], [1, 39, 26]):
            state = game.new_initial_state()
            state.apply_action(deal)
            for action in order:
                if action not in state.legal_actions():
                    break
                state.apply_action(action)
            else:
                states.append(state)
        if len(states) == 2:
            break
    first, second = states
    assert first.information_state_string(0) != second.information_state_string(0)
    assert tensor_key(first, 0) != tensor_key(second, 0)
    assert tensor_key(first, 1) != tensor_key(second, 1)  # the other seat saw both orders too


@pytest.mark.parametrize("name", RECALL_GAMES)
def test_information_state_tensors_survive_serialization_and_resampling(name):
    game = pyspiel.load_game(f"python_meeple_{name}", {"players": 2})
    state = walk(game, seed=3, steps=12)
    seat = state.current_player()
    tensor = state.information_state_tensor(seat)
    assert game.deserialize_state(state.serialize()).information_state_tensor(seat) == tensor
    assert pickle.loads(pickle.dumps(state)).information_state_tensor(seat) == tensor
    sample = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(3, 0.0, 1.0))
    assert sample.information_state_tensor(seat) == tensor
    other = 1 - seat  # what the other seat saw before the re-deal is unknown there, not made up
    assert sample.information_state_tensor(other) != state.information_state_tensor(other)
    assert game.deserialize_state(sample.serialize()).information_state_tensor(other) == \
        sample.information_state_tensor(other)


@pytest.mark.parametrize("name", [name if name == "triqueta" else pytest.param(name, marks=pytest.mark.slow)
                                  for name in RECALL_GAMES])  # 3-8 s each in Celtica and Castell
def test_openspiel_random_sim_test_checks_the_tensors(name):
    """OpenSpiel's own checks, serialization included, with information-state tensors on."""
    game = pyspiel.load_game(f"python_meeple_{name}", {"players": 2})
    assert game.information_state_tensor_shape() == [game.information_state_tensor_size()]
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_an_rl_environment_learner_consumes_information_state_tensors():
    """rl_environment's information-state observations feed a tabular Q-learner (keyed by the
    tensor) for a few Triqueta episodes."""
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import tabular_qlearner

    environment = rl_environment.Environment(
        "python_meeple_triqueta", players=2, observation_type=rl_environment.ObservationType.INFORMATION_STATE)
    size = environment.game.information_state_tensor_size()
    agents = [tabular_qlearner.QLearner(player_id=seat, num_actions=environment.action_spec()["num_actions"])
              for seat in range(2)]
    for _ in range(3):
        step = environment.reset()
        while not step.last():
            player = step.observations["current_player"]
            assert len(step.observations["info_state"][player]) == size
            step = environment.step([agents[player].step(step).action])
        for agent in agents:
            agent.step(step)
    assert sum(step.rewards) == pytest.approx(1.0) and agents[0]._q_values


def test_max_game_length_is_the_rule_bound_for_the_table_and_options():
    """OpenSpiel's max_game_length is `Game.game_length(n, options)`: per seat in Castell, per
    board in Celtica, per round or match in Triominos (tests/core/test_game_length.py)."""
    assert pyspiel.load_game("python_meeple_castell", {"players": 3}).max_game_length() == 234
    assert pyspiel.load_game("python_meeple_triominos", {"players": 4}).max_game_length() == 253
    assert pyspiel.load_game("python_meeple_triominos", {"players": 2, "match": True}).max_game_length() == 162 * 15
    short = "layout:reconstructed:start,cult,ruin 2,goal 1"
    celtica = load("celtica")
    assert pyspiel.load_game("python_meeple_celtica", {"players": 2, "board": short}).max_game_length() == \
        celtica.game_length(2, celtica.resolve_options({"board": short})) == 5 * (3 + 1 + 2 + 1) + 15 + 20 + 2


def test_a_history_longer_than_the_bound_is_refused_by_the_tensor():
    """The tensor holds max_game_length decisions; a longer history (a wrong bound) is an error,
    not a silently cut tensor."""
    game = pyspiel.load_game("python_meeple_triqueta", {"players": 2})
    state = walk(game, seed=0, steps=4)
    game.length = 2
    with pytest.raises(ValueError, match="for 2 decisions"):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True)).set_from(state, 0)
