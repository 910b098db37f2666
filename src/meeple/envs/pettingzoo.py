"""The installed games as PettingZoo AEC environments: `env("castell", num_players=3, **options)`.

Agents are `player_0`..`player_{n-1}`. Each observation is `{"observation": float32 array (the
game's encoder: docs/games/<game>.md, "Observation encoding"), "action_mask": int8 array over
the action ids}`; actions are the engine's integer ids (`Discrete(num_actions)`), or another
numbering the game's encoder offers and may make its default: Triominos' is "factored", 3,251
ids for its 258,779 (the numbering its batched simulator steps in);
`action_space="engine"` gives the engine's own.
Rewards come at the end from `State.rewards()` (the winners share 1). Seeding goes through
`reset(seed=...)`, which seeds the game itself. `render_mode="ansi"` gives the spectator's view as
text (meeple.core.text.position_text), for any game.
"""

from __future__ import annotations

import secrets
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from meeple.core.registry import load
from meeple.core.state import State
from meeple.core.text import position_text
from meeple.envs.spaces import action_space_of, legal_mask, observation_shape, observe


class MeepleAEC(AECEnv):
    """One meeple game as an agent-environment-cycle environment."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, game: str, num_players: int = 2, render_mode: str | None = None,
                 action_space: str | None = None, **options: Any) -> None:
        super().__init__()
        self.game = load(game)
        self._codec = action_space_of(self.game, action_space)
        self.game.check_players(num_players)
        self.options = self.game.resolve_options(options)
        self.game.check_options(num_players, self.options)
        self.num_players = num_players
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"meeple_{self.game.name}_v0"}
        self.possible_agents = [f"player_{k}" for k in range(num_players)]
        size = self.game.info.num_actions if self._codec is None else self._codec.size
        shape = observation_shape(self.game, num_players, self.options)
        self._action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self._observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, shape, np.float32),
                "action_mask": spaces.Box(0, 1, (size,), np.int8),
            })
            for a in self.possible_agents
        }
        self._seat_of = {a: k for k, a in enumerate(self.possible_agents)}
        self._size = size
        self.state: State[Any] | None = None
        self._legal: list[int] | None = None  # the current position's legal ids, once asked for
        self._seeds = np.random.default_rng(secrets.randbits(63))  # for resets without a seed

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self._seat_of[agent]

    def _legal_ids(self, state: State[Any]) -> list[int]:
        """The mover's legal ids, computed once per position (for its mask, then its step's check)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = state.legal_action_ids()
        return legal

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        game_seed = seed if seed is not None else int(self._seeds.integers(1 << 62))
        self.state = self.game.new_game(self.num_players, seed=game_seed, **self.options)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player or 0]
        self._legal = None

    def observe(self, agent: str) -> dict[str, Any]:
        state = self.state
        assert state is not None, "reset() first"
        seat = self._seat_of[agent]
        if state.current_player != seat:
            mask = np.zeros(self._size, dtype=np.int8)
        elif self._codec is None:
            mask = legal_mask(self._legal_ids(state), self._size)
        else:
            mask = self._codec.mask(state, self._legal_ids(state))
        return {"observation": observe(state, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        state = self.state
        assert state is not None, "reset() first"
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        chosen = int(action)  # type: ignore[arg-type]
        if self._codec is not None:
            chosen = self._codec.to_engine(state, chosen)
        if chosen in self._legal_ids(state):
            state.step(state.action_from_id(chosen))  # checked: the quiet path, no events built
        else:
            state.apply(state.action_from_id(chosen))  # raises the rule's IllegalAction, changes nothing
        self._legal = None
        # Rewards come only at the end (the winners share 1), so before it they stay 0 and
        # nothing accumulates.
        if state.over:
            self._cumulative_rewards[agent] = 0.0
            for seat, reward in enumerate(state.rewards()):
                self.rewards[self.possible_agents[seat]] = reward
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            # Every agent gets its last observation and reward through the dead steps.
            self.agent_selection = self._next_live_agent(agent)
        else:
            self.agent_selection = self.possible_agents[state.current]

    def _next_live_agent(self, agent: str) -> str:
        k = self._seat_of[agent]
        return self.possible_agents[(k + 1) % len(self.possible_agents)]

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state is None:
            return None
        return position_text(self.game.title, self.state.view(None))

    def close(self) -> None:
        self.state = None


def env(game: str, num_players: int = 2, render_mode: str | None = None, action_space: str | None = None,
        **options: Any) -> MeepleAEC:
    """A PettingZoo AEC environment of `game` (wrap it as your training library expects);
    `action_space` a numbering of its actions: "engine" (the engine's ids) or one its encoder
    offers (Triominos: "factored", its default); None, the game's default."""
    return MeepleAEC(game, num_players, render_mode, action_space, **options)
