"""What the Triqueta training examples share: a trained policy played as a meeple bot and rated in
meeple's arena, so policies trained on the one-env and the batched environment are rated alike."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from meeple.ai.arena import run_arena
from meeple.ai.bots import Bot, register_bot
from meeple.core.observation import Observation
from meeple.core.rng import Rng
from meeple.envs.spaces import encoder

#: A policy's choice: an action id from the encoded observation and the legal-action mask.
Act = Callable[[np.ndarray, np.ndarray], int]


class PolicyBot(Bot):
    """A trained policy as a meeple bot: it sees only its seat's observation, like every bot."""

    name = "ppo"

    def __init__(self, act: Act) -> None:
        self.act = act

    def decide(self, seen: Observation[Any], rng: Rng) -> Any:
        game = seen.game
        encoded = encoder(game).encode(seen.view(), seen.seat, seen.num_players, seen.sample.options)
        mask = np.zeros(game.info.num_actions, dtype=bool)
        mask[[seen.action_id(a) for a in seen.legal]] = True
        return seen.sample.action_from_id(self.act(encoded, mask))


def rate(act: Act, games: int, seed: int, opponents: Sequence[str] = ("random", "greedy")) -> None:
    """Two-player arena games (duplicate deals, both seatings) of the policy against each opponent,
    its win share with a 95% interval printed per opponent."""
    register_bot("ppo", lambda level: PolicyBot(act))
    for opponent in opponents:
        result = run_arena("triqueta", ["ppo", opponent], 2, games, seed, workers=1)
        ppo = next(s for s in result.summaries if s.name == "ppo")
        low, high = ppo.win_share_ci95
        print(f"ppo vs {opponent}: win share {ppo.win_share:.3f} [{low:.3f}, {high:.3f}] over {games} games",
              flush=True)
