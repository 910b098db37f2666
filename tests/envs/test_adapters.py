"""Each game in each library's own checker, at every player count."""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import pettingzoo.test as pettingzoo_test
import pytest

from meeple.core.registry import game_names, load
from meeple.envs.pettingzoo import env


def require_pyspiel() -> Any:
    """OpenSpiel, part of the envs extra the test command installs (imported here, not at the
    top, so the other adapters' tests do not wait for it)."""
    import pyspiel

    return pyspiel


COUNTS = [(name, n) for name in game_names() for n in range(load(name).min_players, load(name).max_players + 1)]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players"), COUNTS)
def test_pettingzoo_api_test_passes_to_the_end_of_a_game(game, players):
    """Enough cycles for a whole game (`max_game_length` actions), so game ends are checked too."""
    environment = env(game, num_players=players)
    ends: list[bool] = []
    step = environment.step

    def step_and_note_the_end(action: Any) -> None:
        step(action)
        ends.append(environment.state is not None and environment.state.is_terminal)

    environment.step = step_and_note_the_end  # type: ignore[method-assign]
    pettingzoo_test.api_test(environment, num_cycles=load(game).info.max_game_length, verbose_progress=False)
    assert any(ends)  # a whole game was played inside api_test


@pytest.mark.parametrize("game", game_names())
def test_pettingzoo_seeding_gives_the_same_game(game):
    first, second = env(game), env(game)
    for environment in (first, second):
        environment.reset(seed=7)
    seen = [e.observe(e.agent_selection)["observation"] for e in (first, second)]
    assert (seen[0] == seen[1]).all()
    assert first.render() is None  # no render mode asked for


@pytest.mark.parametrize("game", game_names())
def test_pettingzoo_renders_the_spectators_view_as_text(game):
    environment = env(game, render_mode="ansi")
    environment.reset(seed=1)
    text = environment.render()
    assert environment.state is not None and isinstance(text, str)
    assert text.startswith(load(game).title + "\n") and len(text.splitlines()) == 1 + len(environment.state.view(None))


@pytest.mark.parametrize("game", game_names())
def test_gymnasium_check_env_passes(game):
    from gymnasium.utils.env_checker import check_env

    made = gymnasium.make(f"meeple/{load(game).title}-v0", opponents="random")
    check_env(made.unwrapped, skip_render_check=True)


def test_gymnasium_plays_a_whole_masked_game_against_bots():
    import numpy as np

    made = gymnasium.make("meeple/Triqueta-v0", num_players=3, opponents="greedy")
    _, info = made.reset(seed=3)
    rng = np.random.default_rng(3)
    done = False
    reward: SupportsFloat = 0.0
    while not done:
        action = rng.choice(np.flatnonzero(info["action_mask"]))
        _, reward, done, _, info = made.step(action)
    assert 0.0 <= float(reward) <= 1.0
    _, info = made.reset(seed=4)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, done, _, info = made.step(illegal)
    assert (reward, done, info["illegal_action"]) == (-1.0, True, True)  # the mask is the learner's to use


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players"), sorted({(name, n) for name in game_names()
                                                      for n in (2, 3, load(name).max_players)}))
def test_openspiel_random_simulation_with_serialization(game, players):
    pyspiel = require_pyspiel()
    import meeple.envs.openspiel  # noqa: F401  (registers the games)

    loaded = pyspiel.load_game(f"python_meeple_{game}", {"players": players})
    pyspiel.random_sim_test(loaded, num_sims=2, serialize=True, verbose=False)
    state = loaded.new_initial_state()
    state.apply_action(0)  # the opening deal
    copy = state.clone()
    assert str(copy) == str(state)
    assert loaded.deserialize_state(state.serialize()).serialize() == state.serialize()
    sample = state.resample_from_infostate(state.current_player(), pyspiel.UniformProbabilitySampler(7, 0.0, 1.0))
    assert sample.observation_tensor(state.current_player()) == state.observation_tensor(state.current_player())


def test_openspiels_own_ismcts_plays_a_meeple_game():
    """OpenSpiel's information-set MCTS runs on the registered game: it resamples hidden
    information through `resample_from_infostate` (the engine's determinize)."""
    pyspiel = require_pyspiel()
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    import meeple.envs.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("python_meeple_triqueta", {"players": 2})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=1.0, max_simulations=20, random_state=np.random.RandomState(2))
    state = game.new_initial_state()
    while not state.is_terminal():
        action = bot.step(state) if state.current_player() == 0 else state.legal_actions()[0]
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sum(state.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("game", game_names())
def test_openspiels_outcome_sampling_mccfr_runs_on_every_game(game):
    """A CFR-family solver from OpenSpiel itself (outcome-sampling MCCFR) learns on the game:
    it visits information states and its average policy is a distribution over legal moves."""
    pyspiel = require_pyspiel()
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    import meeple.envs.openspiel  # noqa: F401  (registers the games)

    spiel_game = pyspiel.load_game(f"python_meeple_{game}", {"players": 2, "seed": 3})
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(spiel_game)
    for _ in range(10):
        solver.iteration()
    assert len(solver._infostates) > 10
    state = spiel_game.new_initial_state()
    state.apply_action(0)  # the opening deal (a chance node)
    probabilities = solver.average_policy().action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions())
    assert sum(probabilities.values()) == pytest.approx(1.0)
