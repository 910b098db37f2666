"""The shape every batched simulator has (issue #32): N games of one table held as arrays and
stepped together, identical to the engine game by game.

`BatchSimulator` is the plugin part "batch" (`meeple.core.plugin`): a class a consumer checks with
`isinstance` after building it. A game may add the optional part "batch_greedy", a `GreedyPolicy`:
its greedy bot played on the simulator's arrays (the batched VectorEnv's `greedy` opponents).
Arrays have fixed shapes and integer dtypes (structure of arrays);
observations are float32 and equal to the game's encoder on the engine's view, exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from meeple.core.state import State


@dataclass(frozen=True, slots=True)
class StepResult:
    """What one `step` gives back, per game: `rewards` (N, P) float32 the engine's
    `State.rewards()` for games that just ended (0 elsewhere), `terminated` (N,) bool and
    `scores` (N, P) int32 the final scores of games that just ended (0 elsewhere)."""

    rewards: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    scores: npt.NDArray[np.int32]


@runtime_checkable
class BatchSimulator(Protocol):
    """N games of one table in lockstep. Game i of `reset(seed)` is the engine's
    `new_game(num_players, seed=seed + i, **options)`; a game that ends is restarted in its slot
    with the next unused seed (seed + N, seed + N + 1, ... in the order games end, lowest slot
    first)."""

    num_envs: int
    num_players: int
    num_actions: int
    obs_shape: tuple[int, ...]
    seeds: npt.NDArray[np.int64]
    current_player: npt.NDArray[np.int8]

    def reset(self, seed: int) -> None:
        """Start every slot afresh from `seed` (slot i: seed + i)."""

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """(N, num_actions): the engine's `legal_action_ids()` of each game (a game with a factored
        action space, Triominos, numbers them in that space). May be computed once per position and
        returned read-only (the simulator's own check of `step`'s actions), valid until the next
        `step`, `reset` or `determinize`: copy what you keep."""

    def observe(self, seats: npt.NDArray[np.integer[Any]] | None = None) -> npt.NDArray[np.float32]:
        """(N, *obs_shape): the encoder on `view(seat)` (seats None: the seat to move). May be a
        read-only view of the simulator's own buffer, valid until the next `observe`, `step`,
        `reset` or `determinize` (Triominos' board planes are too large to copy every step): a
        consumer that keeps an observation copies it."""

    def step(self, actions: npt.NDArray[np.integer[Any]], active: npt.NDArray[np.bool_] | None = None) -> StepResult:
        """One legal action id per game (ValueError naming the slots otherwise, nothing changed);
        with `active`, only the games it marks move (the others' actions are ignored). Ended games
        are restarted before it returns."""

    def scores(self) -> npt.NDArray[np.int32]:
        """(N, P): the engine's `scores()` of each game now."""

    def determinize(self, seats: npt.NDArray[np.integer[Any]], seed: int) -> None:
        """Re-deal, in game i, what seat `seats[i]` cannot see (as the engine's determinize)."""

    def export(self, i: int) -> State[Any]:
        """Slot i as an engine state, for tests and debugging."""


class BatchFactory(Protocol):
    """A simulator class, as a plugin names it."""

    def __call__(self, num_envs: int, num_players: int, options: Mapping[str, Any] | None = None,
                 seed: int = 0) -> BatchSimulator: ...


class GreedyPolicy(Protocol):
    """The game's greedy bot for every game of a simulator at once: per game the action id its
    heuristics' `choose` picks for the seat to move, from what that seat may see only. `rng` breaks
    ties where the game's greedy breaks them at random; with `active`, only the games it marks are
    chosen for (the others' entries are 0, which `step` with the same `active` ignores)."""

    def __call__(self, sim: BatchSimulator, rng: np.random.Generator,
                 active: npt.NDArray[np.bool_] | None = None) -> npt.NDArray[np.intp]: ...
