"""Train a small policy for two-player Triqueta with a well-known library (sb3-contrib's masked
PPO) on meeple's Gymnasium environment, then rate it in meeple's arena against `random` and
`greedy`.

    pip install 'meeple[examples]'
    python examples/train_triqueta_ppo.py --steps 100000 --games 200
    python examples/train_triqueta_ppo.py --seconds 300 --games 200   # a wall-time budget instead

It trains against the random bot on CPU in a few minutes; measured runs, and the batched example
(train_triqueta_batch_ppo.py) at equal wall time, are in docs/ai.md ("A learned policy through the
research APIs").
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium
import numpy as np
from policy_arena import rate
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker
from stable_baselines3.common.callbacks import BaseCallback

import meeple.envs  # noqa: F401  (registers meeple/Triqueta-v0)


def legal_mask(env: gymnasium.Env[Any, Any]) -> np.ndarray:
    """The mask sb3-contrib asks for before each step: the seat's legal action ids."""
    inner = env.unwrapped
    mask = np.zeros(inner.size, dtype=bool)
    mask[inner.state.legal_action_ids()] = True
    return mask


class Deadline(BaseCallback):
    """Stops training once `seconds` of wall time have passed (checked every step)."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.end = time.perf_counter() + seconds

    def _on_step(self) -> bool:
        return time.perf_counter() < self.end


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100_000, help="training steps (default 100,000)")
    parser.add_argument("--seconds", type=float, help="train for this wall time instead of --steps")
    parser.add_argument("--games", type=int, default=200, help="arena games per opponent (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    env = ActionMasker(gymnasium.make("meeple/Triqueta-v0", num_players=2, opponents="random"), legal_mask)
    model = MaskablePPO("MlpPolicy", env, n_steps=2048, batch_size=256, learning_rate=3e-4, gamma=0.99,
                        seed=args.seed, verbose=0, device="cpu")
    start, cpu = time.perf_counter(), time.process_time()
    if args.seconds is None:
        model.learn(total_timesteps=args.steps)
    else:
        model.learn(total_timesteps=10**12, callback=Deadline(args.seconds))
    print(f"trained {model.num_timesteps} steps in {time.perf_counter() - start:.0f} s "
          f"({time.process_time() - cpu:.0f} s of CPU)", flush=True)

    def act(encoded: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(encoded, action_masks=mask, deterministic=True)
        return int(action)

    rate(act, args.games, args.seed)


if __name__ == "__main__":
    main()
