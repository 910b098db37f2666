"""Bots move on the server in worker processes, so a search never blocks the event loop (the
workers also decide, after each person's move, whether it revealed anything, for undo).

Game reviews and hints run here too (`meeple.server.reviews`), a move per task.

A worker is handed what a bot may know and nothing more: the game, the seat, and the sample of
the seat's `Observation` (a state in which everything hidden from the seat has been re-dealt),
never the table's real state. Each decision draws from a random stream fixed by the table, the
seat and the move number, so a table resumed after a restart plays on exactly as it would have.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from meeple.ai.bots import make_bot
from meeple.ai.review import ReviewSettings, hint
from meeple.core.observation import Observation
from meeple.core.registry import load
from meeple.core.rng import Rng
from meeple.core.undo import reveals


def _die_with_the_server() -> None:
    """A worker ends when its server process does, even one killed with SIGKILL (Linux's
    parent-death signal; elsewhere the pool's own shutdown is all there is)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def bot_seed(table_seed: int, seat: int, version: int) -> int:
    """The random stream of the bot at `seat` deciding move `version` of a table."""
    return Rng(table_seed ^ (0xB07 + 7919 * seat) ^ (version * 0x9E3779B97F4A7C15)).next64()


def decide(game_name: str, sample: dict[str, Any], seat: int, spec: str, seed: int) -> dict[str, Any]:
    """The action (as JSON) the bot `spec` chooses at `seat` from the observation's sample."""
    state = load(game_name).from_json(sample)
    seen = Observation(seat, state.legal_actions(), state)
    return make_bot(spec).choose(seen, Rng(seed)).to_json()


def revealed(game_name: str, before: dict[str, Any], action: dict[str, Any]) -> bool:
    """Whether `action` in the position `before` revealed anything (core.undo.reveals): the
    costly half of deciding undo, done in a worker so moves are not slowed by it."""
    game = load(game_name)
    return reveals(game.from_json(before), game.action_from_json(action))


class BotPool:
    """Runs bot decisions off the event loop in a pool of worker processes."""

    def __init__(self, workers: int | None = None, executor: Executor | None = None) -> None:
        self.workers = workers or max(1, min(2, os.cpu_count() or 1))
        self.executor = executor  # started on first use: a server without bots starts no process

    def pool(self) -> Executor:
        """The workers, started on first use (a game review submits its moves here too)."""
        if self.executor is None:
            self.executor = self._start()
        return self.executor

    async def choose(self, game_name: str, sample: dict[str, Any], seat: int, spec: str, seed: int) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool(), decide, game_name, sample, seat, spec, seed)

    async def revealed(self, game_name: str, before: dict[str, Any], action: dict[str, Any]) -> bool:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool(), revealed, game_name, before, action)

    async def hint(self, sample: dict[str, Any], seat: int, settings: ReviewSettings, seed: int) -> dict[str, Any]:
        """The review estimator's preferred move for `seat` and its chance, from the seat's
        observation sample (never the table's real state)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool(), hint, sample, seat, settings, seed)

    def _start(self) -> ProcessPoolExecutor:
        spawn = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=spawn, initializer=_die_with_the_server)

    def close(self) -> None:
        if isinstance(self.executor, ProcessPoolExecutor):
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None
