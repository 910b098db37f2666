"""The batched Gymnasium VectorEnv: spaces, seeding, the learner always to move, same-step autoreset."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from meeple.core.errors import OptionError
from meeple.envs.spaces import observe
from meeple.envs.vector import BatchVectorEnv


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


def test_vector_env_refuses_unknown_opponents_and_seats() -> None:
    with pytest.raises(OptionError, match="random"):
        BatchVectorEnv("triqueta", opponents="greedy")
    with pytest.raises(Exception, match="seat"):
        BatchVectorEnv("triqueta", num_players=2, seat=2)
