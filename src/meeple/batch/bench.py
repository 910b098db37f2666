"""`meeple bench GAME --batch N`: steps per second of a game's batched simulator on one core, each
step of each game counted once, with the observation of the seat to move and the legal mask built
every step and a uniformly random legal action chosen on the arrays."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from meeple.batch import make
from meeple.batch.selfplay import random_legal
from meeple.core.registry import load


def bench_batch(game: str, num_envs: int, players: int, seconds: float, seed: int,
                options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Run the batch for `seconds`; steps/s, games ended and where the time went (observe, mask,
    choose, step), in seconds."""
    sim = make(load(game), num_envs, players, options, seed=seed)
    rng = np.random.default_rng(seed)
    steps = games = 0
    spent = {"observe": 0.0, "mask": 0.0, "choose": 0.0, "step": 0.0}
    clock = time.perf_counter
    start = clock()
    while clock() - start < seconds:
        t0 = clock()
        sim.observe()
        t1 = clock()
        mask = sim.legal_mask()
        t2 = clock()
        actions = random_legal(mask, rng)
        t3 = clock()
        result = sim.step(actions)
        t4 = clock()
        spent["observe"] += t1 - t0
        spent["mask"] += t2 - t1
        spent["choose"] += t3 - t2
        spent["step"] += t4 - t3
        steps += num_envs
        games += int(result.terminated.sum())
    elapsed = clock() - start
    return {"game": game, "players": players, "batch": num_envs, "api": "batch", "steps": steps, "games": games,
            "seconds": round(elapsed, 3), "steps_per_s": round(steps / elapsed, 1),
            "time_share": {k: round(v / elapsed, 3) for k, v in spent.items()}}
