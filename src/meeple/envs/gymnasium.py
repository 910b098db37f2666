"""The installed games as single-agent Gymnasium environments: the learner plays one seat, meeple bots
play the others. Registered on import of `meeple.envs.gymnasium` as `meeple/<Title>-v0`
(`meeple/Triqueta-v0`, `meeple/Triominos-v0`, `meeple/Celtica-v0`, `meeple/Castell-v0`, ...):

    gymnasium.make("meeple/Triqueta-v0", num_players=3, opponents="ismcts:easy")

Observations are the game's encoder's float32 array; `info["action_mask"]` marks the legal ids
(the action space is the engine's `Discrete(num_actions)`). An illegal action ends the episode
with reward -1 (so a learner that ignores the mask learns to use it). The reward is the seat's
share of the win at the end (`State.rewards()`), 0 before.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from meeple.ai.bots import Bot, make_bot, split_bot_specs
from meeple.ai.match import seat_streams
from meeple.core.errors import MeepleError
from meeple.core.observation import Observation
from meeple.core.registry import load, usable_games
from meeple.core.state import State
from meeple.envs.spaces import action_mask, observation_shape, observe

ILLEGAL_REWARD = -1.0


class MeepleEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """One seat of a meeple game against bots."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 (Gymnasium's own attribute)

    def __init__(self, game: str, num_players: int = 2, opponents: str = "greedy", seat: int = 0,
                 **options: Any) -> None:
        self.game = load(game)
        self.game.check_players(num_players)
        self.options = self.game.resolve_options(options)
        self.game.check_options(num_players, self.options)
        if not 0 <= seat < num_players:
            raise MeepleError(f"seat must be 0 to {num_players - 1}, not {seat}")
        specs = split_bot_specs(opponents)
        self.bots: list[Bot] = [make_bot(specs[k % len(specs)]) for k in range(num_players - 1)]
        self.num_players, self.seat = num_players, seat
        self.size = self.game.info.num_actions
        self.action_space = spaces.Discrete(self.size)
        self.observation_space = spaces.Box(0.0, 1.0, observation_shape(self.game, num_players, self.options),
                                            np.float32)
        self.state: State[Any] | None = None

    def _opponents_move(self) -> None:
        state = self.state
        assert state is not None
        while not state.is_terminal and state.current_player != self.seat:
            seat = state.current_player
            assert seat is not None
            bot = self.bots[(seat - self.seat - 1) % self.num_players]
            state.apply(bot.choose(Observation.of(state), self.streams[seat]))

    def _result(self) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        assert self.state is not None
        return observe(self.state, self.seat), {"action_mask": action_mask(self.state, self.seat, self.size)}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        # An unseeded reset draws from the environment's own generator (seeded by the last
        # seeded reset), so a seeded sequence of resets is reproducible, as Gymnasium requires.
        game_seed = int(self.np_random.integers(1 << 62)) if seed is None else seed
        self.state = self.game.new_game(self.num_players, seed=game_seed, **self.options)
        self.streams = seat_streams(game_seed, self.num_players)
        self._opponents_move()
        return self._result()

    def step(self, action: np.int64) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        assert self.state is not None, "reset() first"
        if int(action) not in self.state.legal_action_ids():
            observation, info = self._result()
            return observation, ILLEGAL_REWARD, True, False, {**info, "illegal_action": True}
        self.state.apply(self.state.action_from_id(int(action)))
        self._opponents_move()
        observation, info = self._result()
        done = self.state.is_terminal
        reward = self.state.rewards()[self.seat] if done else 0.0
        return observation, float(reward), done, False, info


def register() -> None:
    """Register every installed game as `meeple/<Title>-v0` (once)."""
    for game in usable_games():
        env_id = f"meeple/{game.title}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="meeple.envs.gymnasium:MeepleEnv", kwargs={"game": game.name})


register()
