"""Play a batched simulator and the engine side by side with the same seeds and random legal
actions, comparing everything at every step (the differential tests of issue #32)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import meeple
from meeple.batch import BatchSimulator, make
from meeple.envs.spaces import observe


def whole_state(state: Any) -> Any:
    """The default comparison of a batch's export with the engine's state: the whole JSON."""
    return state.to_json()


def engine_ids(state: Any) -> list[int]:
    """The default mask of a game: the engine's own legal action ids."""
    return sorted(state.legal_action_ids())


def apply_id(state: Any, action_id: int) -> None:
    """The default way a batch action is played on the engine: the engine's own id."""
    state.apply_id(action_id)


def lockstep(game_name: str, num_envs: int, players: int, options: dict[str, Any], seed: int, steps: int | None = None,
             games: int | None = None, action_seed: int = 0, *, compare: Callable[[Any], Any] = whole_state,
             legal_ids: Callable[[Any], list[int]] = engine_ids, play: Callable[[Any, int], None] = apply_id) -> int:
    """Play until `games` games have ended (or for `steps` steps); assert batch == engine all along.
    Returns the number of games that ended. `compare` reduces a state (the engine's, or a batch's
    `export`) to what must be equal; a game whose batch numbers its actions otherwise than the
    engine (a factored space) passes `legal_ids` (the engine's legal actions in the batch's numbers,
    sorted) and `play` (a batch id played on the engine)."""
    game = meeple.load(game_name)
    sim = make(game, num_envs, players, options, seed=seed)
    engines = [game.new_game(players, seed=seed + i, **options) for i in range(num_envs)]
    seeds = [seed + i for i in range(num_envs)]  # each engine's seed (not every state keeps it)
    next_seed = seed + num_envs
    rng = np.random.default_rng(action_seed)
    ended = done_steps = 0
    while (games is None or ended < games) and (steps is None or done_steps < steps):
        mask = sim.legal_mask()
        scores = sim.scores()
        # Copied: a simulator may return its own buffer, valid until the next call (Triominos').
        seat_obs = [np.array(sim.observe(np.full(num_envs, seat))) for seat in range(players)]
        to_move = np.array(sim.observe())
        for i, state in enumerate(engines):
            assert sim.seeds[i] == seeds[i]
            assert np.flatnonzero(mask[i]).tolist() == legal_ids(state), (i, done_steps)
            assert sim.current_player[i] == state.current_player
            assert scores[i].tolist() == state.scores()
            for seat in range(players):
                assert np.array_equal(seat_obs[seat][i], observe(state, seat)), (i, seat, done_steps)
            assert np.array_equal(to_move[i], seat_obs[state.current_player][i])
            if i % 7 == done_steps % 7:  # the whole hidden state too, on a rotating seventh
                assert compare(sim.export(i)) == compare(state)
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        result = sim.step(actions)
        for i, state in enumerate(engines):
            play(state, int(actions[i]))
            assert bool(result.terminated[i]) == state.is_terminal
            if state.is_terminal:
                assert result.scores[i].tolist() == state.scores()
                assert result.rewards[i].tolist() == [np.float32(r) for r in state.rewards()]
                engines[i] = game.new_game(players, seed=next_seed, **options)  # auto-reset: the next seed
                seeds[i] = next_seed
                next_seed += 1
                ended += 1
                assert compare(sim.export(i)) == compare(engines[i])
            else:
                assert not result.scores[i].any() and not result.rewards[i].any()
        done_steps += 1
    return ended


def played(game_name: str, num_envs: int, players: int, options: dict[str, Any], steps: int,
           seed: int) -> BatchSimulator:
    """A batch from `seed` after `steps` steps of random legal actions (seeded alike)."""
    sim = make(meeple.load(game_name), num_envs, players, options, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        sim.step(np.array([rng.choice(np.flatnonzero(row)) for row in sim.legal_mask()]))
    return sim
