"""A game as a Gymnasium `VectorEnv` on its batched simulator (issue #32): the learner plays one seat
in each of N games; the other seats are `random` (uniform over the legal ids) or `greedy` (the
game's greedy bot, where its plugin has one on arrays: `meeple.batch.greedy_policy`) players, chosen
on the simulator's arrays for all games at once.

    env = BatchVectorEnv("triqueta", num_envs=1024, num_players=2, opponents="greedy")
    obs, info = env.reset(seed=0)                 # obs (N, 327); info["action_mask"] (N, 20)
    obs, reward, terminated, truncated, info = env.step(actions)

A game that ends is restarted in place within the same step (Gymnasium's same-step autoreset): the
observation is the new game's, `terminated` and `reward` (the seat's win share, `State.rewards()`)
are the ended one's, `info["final_scores"]` its scores (rows of other games are 0). An illegal
action is a ValueError naming the games, and changes nothing (the one-env `MeepleEnv` ends the
episode instead: a batch cannot end one game early without breaking its lockstep).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from meeple.batch import GreedyPolicy, greedy_policy, make
from meeple.batch.protocol import BatchSimulator
from meeple.batch.selfplay import random_legal
from meeple.core.errors import MeepleError, OptionError
from meeple.core.registry import load

OPPONENTS = ("random", "greedy")


def _random_opponent(sim: BatchSimulator, rng: np.random.Generator,
                     active: npt.NDArray[np.bool_] | None = None) -> npt.NDArray[np.intp]:
    """A uniformly random legal action id in every game (drawn for all: cheaper than selecting)."""
    return random_legal(sim.legal_mask(), rng)


class BatchVectorEnv(VectorEnv[npt.NDArray[np.float32], npt.NDArray[np.int64], npt.NDArray[Any]]):
    """One seat in each of `num_envs` games of `game` against random or greedy opponents, on arrays."""

    metadata: dict[str, Any] = {"render_modes": [], "autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(self, game: str, num_envs: int = 64, num_players: int = 2, opponents: str = "random", seat: int = 0,
                 **options: Any) -> None:
        if opponents not in OPPONENTS:
            raise OptionError(f"the batched environment's opponents are {', '.join(OPPONENTS)}, not {opponents!r}")
        if not 0 <= seat < num_players:
            raise MeepleError(f"seat must be 0 to {num_players - 1}, not {seat}")
        self.game = load(game)
        self._opponent: GreedyPolicy = _random_opponent if opponents == "random" else greedy_policy(self.game)
        self.sim = make(self.game, num_envs, num_players, options)
        self.num_envs = num_envs
        self.seat = seat
        self.single_observation_space = spaces.Box(0.0, 1.0, self.sim.obs_shape, np.float32)
        self.single_action_space = spaces.Discrete(self.sim.num_actions)
        self.observation_space = spaces.Box(0.0, 1.0, (num_envs, *self.sim.obs_shape), np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, self.sim.num_actions))
        self._rng = np.random.default_rng(0)

    def _advance(self, rewards: npt.NDArray[np.float64], terminated: npt.NDArray[np.bool_],
                 scores: npt.NDArray[np.int32]) -> None:
        """The opponents move wherever it is not the learner's turn, until it is everywhere."""
        while True:
            waiting = self.sim.current_player != self.seat
            if not waiting.any():
                return
            result = self.sim.step(self._opponent(self.sim, self._rng, waiting), active=waiting)
            self._record(result.rewards, result.terminated, result.scores, rewards, terminated, scores)

    def _record(self, got: npt.NDArray[np.float32], ended: npt.NDArray[np.bool_], final: npt.NDArray[np.int32],
                rewards: npt.NDArray[np.float64], terminated: npt.NDArray[np.bool_],
                scores: npt.NDArray[np.int32]) -> None:
        rewards[ended] = got[ended, self.seat]
        terminated |= ended
        scores[ended] = final[ended]

    def _out(self) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Copies: a simulator may hand out its own buffers, which its next step rewrites, and a
        learner keeps what an environment returns (rollout buffers)."""
        return np.array(self.sim.observe(), order="C"), {"action_mask": self.sim.legal_mask().copy()}

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """New games from `seed` (game i: seed + i; a list must be those seeds); the opponents'
        random choices seeded from it too. Unseeded: from the generator of the last seeded reset."""
        if isinstance(seed, list):
            if len(seed) != self.num_envs or seed != list(range(seed[0], seed[0] + self.num_envs)):
                raise ValueError(f"a batch seeds game i with seed + i: give one int, or {self.num_envs} "
                                 f"consecutive seeds, not {seed[:5]}{' ...' if len(seed) > 5 else ''}")
            seed = seed[0]
        super().reset(seed=seed)
        start = int(self.np_random.integers(2**62)) if seed is None else int(seed)
        self._rng = np.random.default_rng(start)
        self.sim.reset(start)
        n, p = self.num_envs, self.sim.num_players
        self._advance(np.zeros(n), np.zeros(n, bool), np.zeros((n, p), np.int32))
        return self._out()

    def step(self, actions: npt.ArrayLike) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float64],
                                                   npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        """The learner's action in every game, then the opponents' until the learner is to move."""
        n, p = self.num_envs, self.sim.num_players
        rewards, terminated = np.zeros(n), np.zeros(n, bool)
        scores = np.zeros((n, p), np.int32)
        result = self.sim.step(np.asarray(actions, dtype=np.int64))
        self._record(result.rewards, result.terminated, result.scores, rewards, terminated, scores)
        self._advance(rewards, terminated, scores)
        obs, info = self._out()
        info["final_scores"] = scores
        return obs, rewards, terminated, np.zeros(n, bool), info
