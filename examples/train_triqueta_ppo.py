"""Train a small policy for two-player Triqueta with a well-known library (sb3-contrib's masked
PPO) on meeple's Gymnasium environment, then rate it in meeple's arena against `random` and
`greedy`.

    pip install 'meeple[examples]'
    python examples/train_triqueta_ppo.py --steps 100000 --games 200

It trains against the random bot on CPU in a few minutes; measured runs are in docs/ai.md
("A learned policy through the research APIs").
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium
import numpy as np
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker

import meeple.envs  # noqa: F401  (registers meeple/Triqueta-v0)
from meeple.ai.arena import run_arena
from meeple.ai.bots import Bot, register_bot
from meeple.core.observation import Observation
from meeple.core.rng import Rng
from meeple.envs.spaces import encoder


def legal_mask(env: gymnasium.Env[Any, Any]) -> np.ndarray:
    """The mask sb3-contrib asks for before each step: the seat's legal action ids."""
    inner = env.unwrapped
    mask = np.zeros(inner.size, dtype=bool)
    mask[inner.state.legal_action_ids()] = True
    return mask


class PolicyBot(Bot):
    """The trained policy as a meeple bot: it sees only its seat's observation, like every bot."""

    name = "ppo"

    def __init__(self, model: MaskablePPO) -> None:
        self.model = model

    def decide(self, seen: Observation[Any], rng: Rng) -> Any:
        game = seen.game
        encoded = encoder(game).encode(seen.view(), seen.seat, seen.num_players, seen.sample.options)
        mask = np.zeros(game.info.num_actions, dtype=bool)
        mask[[seen.action_id(a) for a in seen.legal]] = True
        action, _ = self.model.predict(encoded, action_masks=mask, deterministic=True)
        return seen.sample.action_from_id(int(action))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100_000, help="training steps (default 100,000)")
    parser.add_argument("--games", type=int, default=200, help="arena games per opponent (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    env = ActionMasker(gymnasium.make("meeple/Triqueta-v0", num_players=2, opponents="random"), legal_mask)
    model = MaskablePPO("MlpPolicy", env, n_steps=2048, batch_size=256, learning_rate=3e-4, gamma=0.99,
                        seed=args.seed, verbose=0, device="cpu")
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    print(f"trained {args.steps} steps in {time.perf_counter() - start:.0f} s")

    register_bot("ppo", lambda level: PolicyBot(model))
    for opponent in ("random", "greedy"):
        result = run_arena("triqueta", ["ppo", opponent], 2, args.games, args.seed, workers=1)
        ppo = next(s for s in result.summaries if s.name == "ppo")
        low, high = ppo.win_share_ci95
        print(f"ppo vs {opponent}: win share {ppo.win_share:.3f} [{low:.3f}, {high:.3f}] over {args.games} games")


if __name__ == "__main__":
    main()
