"""The batched Gymnasium VectorEnv's contract (Gymnasium's `check_env` takes a single `Env` only,
so the vector API is checked here): spaces, shapes and dtypes, seeding, the learner always to move,
same-step autoreset against an engine mirror, random and greedy opponents, illegal actions refused
with nothing changed, and the validation of `opponents` and `seat`."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium import spaces

import meeple
from meeple.core.errors import MeepleError, OptionError
from meeple.core.rng import Rng
from meeple.envs.spaces import observe
from meeple.envs.vector import BatchVectorEnv
from meeple.games.triqueta import heuristics
from meeple.games.triqueta.state import TriquetaState


def _play(env: BatchVectorEnv, steps: int, seed: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    trace = []
    for _ in range(steps):
        mask = info["action_mask"]
        assert mask.any(1).all()  # the learner is to move in every game
        assert env.observation_space.contains(obs)
        for i in range(0, env.num_envs, 5):  # the learner's own observation, from the engine's view
            assert np.array_equal(obs[i], observe(env.sim.export(i), env.seat))
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        assert env.action_space.contains(actions)
        obs, reward, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        assert not reward[~terminated].any() and not info["final_scores"][~terminated].any()
        assert ((reward[terminated] >= 0) & (reward[terminated] <= 1)).all()
        trace.append((obs.copy(), reward.copy(), terminated.copy()))
    return trace


@pytest.mark.parametrize(("players", "seat", "options"), [(2, 0, {}), (2, 1, {"duo": True}), (4, 2, {})])
def test_vector_env_plays_full_games_and_is_seeded(players: int, seat: int, options: dict[str, Any]) -> None:
    env = BatchVectorEnv("triqueta", num_envs=16, num_players=players, seat=seat, **options)
    first = _play(env, 120, seed=3)
    assert sum(int(t.sum()) for _, _, t in first) > 16  # games ended and restarted in place
    again = _play(BatchVectorEnv("triqueta", num_envs=16, num_players=players, seat=seat, **options), 120, seed=3)
    assert all(np.array_equal(a[k], b[k]) for a, b in zip(first, again, strict=True) for k in range(3))


def test_random_learner_wins_about_its_share() -> None:
    env = BatchVectorEnv("triqueta", num_envs=256, num_players=2)
    _, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    total, games = 0.0, 0
    for _ in range(150):
        keys = rng.random(info["action_mask"].shape)
        keys[~info["action_mask"]] = -1
        _, reward, terminated, _, info = env.step(keys.argmax(1))
        total += reward.sum()
        games += int(terminated.sum())
    assert games > 500 and 0.35 < total / games < 0.65


def test_spaces_shapes_and_dtypes() -> None:
    env = BatchVectorEnv("triqueta", num_envs=8, num_players=3, opponents="greedy")
    assert env.num_envs == 8 and env.metadata["autoreset_mode"].value == "SameStep"
    assert env.single_observation_space.shape == (327,) and env.single_observation_space.dtype == np.float32
    assert env.single_action_space == spaces.Discrete(20)
    assert env.observation_space.shape == (8, 327) and env.action_space.shape == (8,)
    obs, info = env.reset(seed=0)
    assert obs.dtype == np.float32 and obs.shape == (8, 327) and obs.flags.c_contiguous
    assert info["action_mask"].dtype == np.bool_ and info["action_mask"].shape == (8, 20)
    obs, reward, terminated, truncated, info = env.step(info["action_mask"].argmax(1))
    assert obs.shape == (8, 327) and env.observation_space.contains(obs)
    assert reward.shape == (8,) and reward.dtype == np.float64
    assert terminated.shape == truncated.shape == (8,) and terminated.dtype == truncated.dtype == np.bool_
    assert info["final_scores"].shape == (8, 3) and info["final_scores"].dtype == np.int32


def test_seeding_is_reproducible_and_a_list_names_the_consecutive_seeds() -> None:
    env = BatchVectorEnv("triqueta", num_envs=4, num_players=2, opponents="greedy", seat=1)
    first, _ = env.reset(seed=9)
    unseeded_after_seed, _ = env.reset()
    again, _ = env.reset(seed=[9, 10, 11, 12])
    assert np.array_equal(first, again) and env.sim.seeds.tolist() == [9, 10, 11, 12]
    assert np.array_equal(env.reset()[0], unseeded_after_seed)  # the generator of the seeded reset
    with pytest.raises(ValueError, match="consecutive"):
        env.reset(seed=[9, 11, 12, 13])
    with pytest.raises(ValueError, match="consecutive"):
        env.reset(seed=[9, 10])


@pytest.mark.parametrize(("players", "seat", "options"), [
    (2, 1, {}),
    pytest.param(3, 0, {}, marks=pytest.mark.slow),
    pytest.param(2, 0, {"duo": True}, marks=pytest.mark.slow),
])
def test_greedy_opponents_and_same_step_autoreset_follow_the_engine(players: int, seat: int,
                                                                    options: dict[str, Any]) -> None:
    """Each slot mirrored by an engine game whose other seats play `heuristics.choose` (the greedy
    bot): the same observations; an ended game's reward and final scores on the step it ends, with
    the observation already the next game's (seeded as the simulator's auto-reset seeds it)."""
    game = meeple.load("triqueta")
    env = BatchVectorEnv("triqueta", num_envs=4, num_players=players, opponents="greedy", seat=seat, **options)
    rng = np.random.default_rng(players)

    def mirror(seed: int) -> TriquetaState:
        state = game.new_game(players, seed=seed, **options)
        assert isinstance(state, TriquetaState)
        while state.current_player != seat:
            state.apply(heuristics.choose(state, Rng(0)))
        return state

    obs, info = env.reset(seed=40)
    states = [mirror(40 + i) for i in range(4)]
    ended = 0
    for _ in range(80):
        for i, state in enumerate(states):
            assert np.array_equal(obs[i], observe(state, seat))
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]])
        obs, reward, terminated, _, info = env.step(actions)
        for i, state in enumerate(states):
            state.apply_id(int(actions[i]))
            while not state.is_terminal and state.current_player != seat:
                state.apply(heuristics.choose(state, Rng(0)))
            assert terminated[i] == state.is_terminal
            if state.is_terminal:
                assert reward[i] == state.rewards()[seat] and info["final_scores"][i].tolist() == state.scores()
                states[i] = mirror(int(env.sim.seeds[i]))
                ended += 1
            else:
                assert reward[i] == 0.0
    assert ended >= 4


def test_greedy_opponents_beat_a_random_learner() -> None:
    env = BatchVectorEnv("triqueta", num_envs=32, num_players=2, opponents="greedy")
    _, info = env.reset(seed=2)
    rng = np.random.default_rng(0)
    total, games = 0.0, 0
    for _ in range(50):
        keys = rng.random(info["action_mask"].shape)
        keys[~info["action_mask"]] = -1
        _, reward, terminated, _, info = env.step(keys.argmax(1))
        total += reward.sum()
        games += int(terminated.sum())
    assert games > 80 and total / games < 0.2  # a random learner: 0.5 against random opponents


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    env = BatchVectorEnv("triqueta", num_envs=5, num_players=2, opponents="greedy")
    twin = BatchVectorEnv("triqueta", num_envs=5, num_players=2, opponents="greedy")
    obs, info = env.reset(seed=6)
    twin.reset(seed=6)
    legal = info["action_mask"].argmax(1)
    wrong = legal.copy()
    wrong[3] = np.flatnonzero(~info["action_mask"][3])[0]
    for bad, where in ((wrong, "3"), (np.full(5, 20), "0, 1, 2, 3, 4"), (np.full(5, -1), "0, 1")):
        with pytest.raises(ValueError, match=f"illegal action ids in slots \\[{where}"):
            env.step(bad)
    with pytest.raises(ValueError, match="5 integer action ids"):
        env.step(legal[:4])
    assert np.array_equal(env.sim.observe(), obs) and np.array_equal(env.sim.legal_mask(), info["action_mask"])
    for _ in range(15):  # the refused steps left no trace: the env plays on as its twin
        obs, reward, terminated, _, info = env.step(legal)
        twin_obs, twin_reward, twin_terminated, _, twin_info = twin.step(legal)
        assert np.array_equal(obs, twin_obs) and np.array_equal(reward, twin_reward)
        assert np.array_equal(terminated, twin_terminated)
        assert np.array_equal(info["final_scores"], twin_info["final_scores"])
        legal = info["action_mask"].argmax(1)


def test_vector_env_refuses_unknown_opponents_and_seats() -> None:
    with pytest.raises(OptionError, match="random, greedy, not 'ismcts'"):
        BatchVectorEnv("triqueta", opponents="ismcts")
    with pytest.raises(OptionError, match="Celtica has no batched greedy policy"):
        BatchVectorEnv("celtica", opponents="greedy")
    assert BatchVectorEnv("celtica", num_envs=2, opponents="random").reset(seed=0)[0].shape[0] == 2
    for seat in (2, -1):
        with pytest.raises(MeepleError, match="seat must be 0 to 1"):
            BatchVectorEnv("triqueta", num_players=2, seat=seat)
    with pytest.raises(OptionError):
        BatchVectorEnv("triqueta", num_envs=0)


def test_the_one_env_checks_with_greedy_opponents() -> None:
    """Gymnasium's own checker on the single-seat env the batched one mirrors."""
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    import meeple.envs  # noqa: F401  (registers meeple/Triqueta-v0)

    check_env(gymnasium.make("meeple/Triqueta-v0", num_players=2, opponents="greedy").unwrapped,
              skip_render_check=True)


@pytest.mark.parametrize("game", ["triqueta", "triominos", "celtica", "castell"])
def test_what_the_env_returns_is_the_learners_to_keep(game: str) -> None:
    """Simulators may hand out their own buffers; the env's observations and masks are copies, so
    a rollout buffer's entries do not change under it when the games move on."""
    env = BatchVectorEnv(game, num_envs=3, num_players=2)
    obs, info = env.reset(seed=4)
    kept_obs, kept_mask = obs.copy(), info["action_mask"].copy()
    later = env.step(info["action_mask"].argmax(1))[0]  # one step on
    assert np.array_equal(obs, kept_obs) and np.array_equal(info["action_mask"], kept_mask)
    assert not np.array_equal(later, kept_obs)  # the games did move
    assert obs.flags.writeable and info["action_mask"].flags.writeable
