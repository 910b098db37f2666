"""The PettingZoo env's step path: the quiet engine step behind a legality check against the
mover's legal ids, observations that stay valid after later steps, and Triominos' optional
factored action space (masks and actions translated from and to the engine's ids)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pettingzoo.test as pettingzoo_test
import pytest
from gymnasium.spaces import Dict, Discrete

from meeple.batch.triominos_layout import FACTORED_SIZE
from meeple.core.errors import IllegalAction, OptionError
from meeple.core.registry import game_names
from meeple.core.rng import Rng
from meeple.envs.encoders.triominos_actions import factored_mask, from_engine, to_engine
from meeple.envs.pettingzoo import env


@pytest.mark.parametrize("game", game_names())
def test_an_illegal_id_raises_the_rules_error_and_changes_nothing(game: str) -> None:
    environment = env(game, action_space="engine")
    environment.reset(seed=3)
    state = environment.state
    assert state is not None
    legal = set(state.legal_action_ids())
    space = environment.action_space(environment.agent_selection)
    assert isinstance(space, Discrete)
    illegal = next(i for i in range(int(space.n)) if i not in legal)
    before = state.to_json()
    with pytest.raises(IllegalAction):
        environment.step(illegal)
    assert state.to_json() == before and environment.state is state
    environment.step(min(legal))  # the env goes on from the same position
    assert state.to_json() != before


@pytest.mark.parametrize("game", game_names())
def test_observations_kept_across_steps_stay_as_they_were(game: str) -> None:
    """Callers keep observations (replay buffers): a later step must not write into them."""
    environment = env(game)
    environment.reset(seed=5)
    kept: list[tuple[dict[str, np.ndarray], bytes, bytes]] = []
    rng = Rng(5)
    for _ in range(40):
        observation, _, terminated, truncated, _ = environment.last()
        kept.append((observation, observation["observation"].tobytes(), observation["action_mask"].tobytes()))
        if terminated or truncated:
            break
        legal = np.flatnonzero(observation["action_mask"])
        environment.step(int(legal[rng.below(len(legal))]))
    assert len(kept) > 10
    for observation, values, mask in kept:
        assert observation["observation"].tobytes() == values and observation["action_mask"].tobytes() == mask


@pytest.mark.parametrize("game", game_names())
def test_each_game_has_a_default_action_space_and_the_engine_ids_on_request(game: str) -> None:
    """Triominos numbers its actions in the factored space unless told otherwise (a 3,251-way
    output a policy can learn, the one its batched simulator steps in); every game gives the
    engine's own ids as "engine"."""
    default, engine = env(game), env(game, action_space="engine")
    num_actions = engine.game.info.num_actions
    assert engine.action_space("player_0") == Discrete(num_actions)
    expected = FACTORED_SIZE if game == "triominos" else num_actions
    assert default.action_space("player_0") == Discrete(expected)
    observation_space = default.observation_space("player_0")
    assert isinstance(observation_space, Dict)
    assert observation_space["action_mask"].shape == (expected,)


def test_an_action_space_the_game_does_not_offer_is_refused_in_one_line() -> None:
    with pytest.raises(OptionError, match=r"^Triqueta has no action space 'factored' \(choose from: engine\)$"):
        env("triqueta", action_space="factored")
    with pytest.raises(OptionError, match="choose from: engine, factored"):
        env("triominos", action_space="bits")


@pytest.mark.parametrize(("players", "options"), [(2, {}), (3, {"drawn_tile_only": True}),
                                                  (2, {"match": True, "target": 250})])
def test_the_factored_mask_is_the_factored_encoding_of_the_legal_ids(players: int, options: dict[str, Any]) -> None:
    """At every step of whole games (a match over rounds included): the mask is 1 exactly at
    `from_engine` of each legal engine id (and equals the view's `factored_mask`), and every
    legal factored action steps the engine with the id it stands for."""
    environment = env("triominos", num_players=players, action_space="factored", **options)
    assert environment.action_space("player_0") == Discrete(FACTORED_SIZE)
    rng = Rng(players)
    rounds = set()
    environment.reset(seed=players)
    state: Any = environment.state
    assert state is not None
    for agent in environment.agent_iter():
        observation, _, terminated, truncated, _ = environment.last()
        seat = environment.possible_agents.index(agent)
        view: Any = state.view(seat)
        mask = observation["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (FACTORED_SIZE,)
        legal = state.legal_action_ids() if state.current_player == seat else []
        assert np.flatnonzero(mask).tolist() == sorted(from_engine(view, i) for i in legal)
        assert np.array_equal(mask.astype(bool), factored_mask(view))
        rounds.add(state.round)
        if terminated or truncated:
            environment.step(None)
            continue
        choice = int(np.flatnonzero(mask)[rng.below(len(legal))])
        expected = state.clone()
        expected.apply_id(to_engine(view, choice))
        environment.step(choice)
        assert state.to_json() == expected.to_json()
    assert state.is_terminal
    if options.get("match"):
        assert len(rounds) > 1


def test_a_factored_index_naming_no_open_cell_is_illegal_and_changes_nothing() -> None:
    environment = env("triominos", action_space="factored")
    environment.reset(seed=1)
    state = environment.state
    assert state is not None
    before = state.to_json()
    with pytest.raises(IllegalAction, match="slot 1, but the board has 1 open cells"):
        environment.step(1)  # tile 0 on slot 1: the empty board has only the opening cell
    with pytest.raises(IllegalAction, match="outside"):
        environment.step(FACTORED_SIZE)
    assert state.to_json() == before


def test_pettingzoo_api_test_passes_with_the_factored_actions_to_the_end_of_a_game() -> None:
    environment = env("triominos", num_players=3, action_space="factored")
    ends: list[bool] = []
    step = environment.step

    def step_and_note_the_end(action: int | None) -> None:
        step(action)
        ends.append(environment.state is not None and environment.state.is_terminal)

    environment.step = step_and_note_the_end  # type: ignore[method-assign]
    pettingzoo_test.api_test(environment, num_cycles=400, verbose_progress=False)
    assert any(ends)
