"""Playing whole games between bots: the loop shared by `meeple simulate`, benchmarks and the
arena. Deterministic: a game's seed and its bots' random streams derive from one number."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from meeple.ai.bots import Bot
from meeple.core.observation import Observation
from meeple.core.protocol import Game
from meeple.core.rng import Rng
from meeple.core.shares import win_shares
from meeple.core.state import State

T = TypeVar("T")


def derive_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a series started with `seed`."""
    rng = Rng(seed ^ (index * 0x9E3779B97F4A7C15))
    return rng.next64() >> 1


def seat_streams(seed: int, num_players: int) -> list[Rng]:
    """Each seat's own random stream for a game with this seed. `meeple play` and `simulate`
    both use it, so a game played at the terminal and a simulated one with the same bots and
    seed are the same game."""
    return [Rng(seed ^ (0xB07 + 7919 * seat)) for seat in range(num_players)]


@dataclass
class GameResult:
    seed: int
    seats: list[str]
    scores: list[int]
    winners: list[int]
    actions: int

    def win_shares(self) -> list[float]:
        return win_shares(self.winners, len(self.seats))


def play_game(
    game: Game[Any, Any],
    bots: Sequence[Bot],
    seed: int,
    options: dict[str, Any] | None = None,
    on_action: Callable[[State[Any], Any], None] | None = None,
) -> tuple[State[Any], GameResult]:
    """Play one game with `bots[seat]` in each seat; every bot gets its own random stream."""
    state = game.new_game(len(bots), seed=seed, **(options or {}))
    streams = seat_streams(seed, len(bots))
    actions = 0
    while not state.is_terminal:
        seat = state.current_player
        action = bots[seat].choose(Observation.of(state), streams[seat])
        state.apply(action)
        actions += 1
        if on_action is not None:
            on_action(state, action)
    result = GameResult(seed, [b.name for b in bots], state.scores(), state.winners(), actions)
    return state, result


def rotated_seating(bots: Sequence[T], num_players: int, index: int) -> list[T]:
    """Seat k of game `index` gets bots[(index + k) % len(bots)]: over len(bots) games each bot
    sits in each seat equally often when len(bots) == num_players."""
    return [bots[(index + k) % len(bots)] for k in range(num_players)]


def random_playouts(
    game: Game[Any, Any], num_players: int, seconds: float, seed: int = 0, options: dict[str, Any] | None = None,
    count: int | None = None,
) -> dict[str, float]:
    """Throughput of uniformly random full games through the fast `step` path: for `seconds`, or
    exactly `count` games (a fixed workload, for counting instructions under a profiler)."""
    options = options or {}
    games = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_game(num_players, seed=seed + games, **options)
        rng = Rng(seed + games)
        while not state.is_terminal:
            legal = state.legal_actions()
            state.step(legal[rng.below(len(legal))])
            actions += 1
        games += 1
        now = time.perf_counter()
        if (games >= count) if count is not None else now >= deadline:
            break
    elapsed = now - start
    return {
        "games": games,
        "actions": actions,
        "seconds": elapsed,
        "games_per_s": games / elapsed,
        "actions_per_s": actions / elapsed,
    }
