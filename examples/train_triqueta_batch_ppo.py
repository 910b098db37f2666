"""Train a policy for two-player Triqueta on the batched Gymnasium VectorEnv (many games stepped
together on numpy arrays) with a compact masked PPO written in PyTorch, then rate it in meeple's
arena against `random` and `greedy`, as train_triqueta_ppo.py rates its one-env policy.

    pip install 'meeple[examples]'
    python examples/train_triqueta_batch_ppo.py --seconds 300 --games 200
    python examples/train_triqueta_batch_ppo.py --steps 2000000 --opponents random

Steps are the learner's decisions, summed over the games, as the one-env example counts them.
Measured runs at equal wall time are in docs/ai.md ("A learned policy through the research APIs").
"""

from __future__ import annotations

import argparse
import time
from collections import deque
from dataclasses import dataclass

import numpy as np
import torch
from policy_arena import rate
from torch import nn

from meeple.envs.vector import OPPONENTS, BatchVectorEnv


class ActorCritic(nn.Module):
    """An MLP on the encoder's values: masked action logits and the seat's expected win share."""

    def __init__(self, obs_size: int, num_actions: int, hidden: int = 256) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.logits = nn.Linear(hidden, num_actions)
        self.value = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(obs)
        logits = self.logits(h).masked_fill(~mask, torch.finfo(torch.float32).min)
        return logits, self.value(h).squeeze(-1)


@dataclass
class Rollout:
    """`horizon` steps of every game: (T, N, ...) tensors."""

    obs: torch.Tensor
    mask: torch.Tensor
    action: torch.Tensor
    logp: torch.Tensor
    value: torch.Tensor
    reward: torch.Tensor
    done: torch.Tensor


def collect(env: BatchVectorEnv, net: ActorCritic, obs: np.ndarray, mask: np.ndarray, horizon: int
            ) -> tuple[Rollout, np.ndarray, np.ndarray]:
    """Play `horizon` steps with the current policy (sampling); the rollout and where it stopped."""
    parts: dict[str, list[torch.Tensor]] = {k: [] for k in Rollout.__dataclass_fields__}
    for _ in range(horizon):
        o, m = torch.from_numpy(obs), torch.from_numpy(mask)
        with torch.no_grad():
            logits, value = net(o, m)
        dist = torch.distributions.Categorical(logits=logits)
        action = dist.sample()
        obs, reward, terminated, _, info = env.step(action.numpy())
        mask = info["action_mask"]
        for key, item in (("obs", o), ("mask", m), ("action", action), ("logp", dist.log_prob(action)),
                          ("value", value), ("reward", torch.from_numpy(reward).float()),
                          ("done", torch.from_numpy(terminated).float())):
            parts[key].append(item)
    return Rollout(**{k: torch.stack(v) for k, v in parts.items()}), obs, mask


def advantages(roll: Rollout, last_value: torch.Tensor, gamma: float, lam: float) -> torch.Tensor:
    """Generalised advantage estimates; an ended game's value does not flow into the next one."""
    adv = torch.zeros_like(roll.reward)
    running = torch.zeros_like(last_value)
    next_value = last_value
    for t in range(len(adv) - 1, -1, -1):
        live = 1.0 - roll.done[t]
        delta = roll.reward[t] + gamma * next_value * live - roll.value[t]
        running = delta + gamma * lam * live * running
        adv[t] = running
        next_value = roll.value[t]
    return adv


def update(net: ActorCritic, optimizer: torch.optim.Optimizer, roll: Rollout, adv: torch.Tensor,
           epochs: int, minibatch: int, clip: float = 0.2) -> None:
    """PPO's clipped objective, a value loss and an entropy bonus, over shuffled minibatches."""
    flat = {k: getattr(roll, k).flatten(0, 1) for k in ("obs", "mask", "action", "logp", "value")}
    adv = adv.flatten()
    returns = adv + flat["value"]
    for _ in range(epochs):
        for idx in torch.randperm(len(adv)).split(minibatch):
            logits, value = net(flat["obs"][idx], flat["mask"][idx])
            dist = torch.distributions.Categorical(logits=logits)
            ratio = (dist.log_prob(flat["action"][idx]) - flat["logp"][idx]).exp()
            a = adv[idx]
            a = (a - a.mean()) / (a.std() + 1e-8)
            policy_loss = -torch.min(ratio * a, ratio.clamp(1 - clip, 1 + clip) * a).mean()
            loss = policy_loss + 0.5 * (value - returns[idx]).pow(2).mean() - 0.01 * dist.entropy().mean()
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            optimizer.step()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2_000_000, help="training steps (default 2,000,000)")
    parser.add_argument("--seconds", type=float, help="train for this wall time instead of --steps")
    parser.add_argument("--envs", type=int, default=512, help="games stepped together (default 512)")
    parser.add_argument("--horizon", type=int, default=32, help="steps per game between updates (default 32)")
    parser.add_argument("--opponents", choices=OPPONENTS, default="greedy", help="who plays the other seat")
    parser.add_argument("--games", type=int, default=200, help="arena games per opponent (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    env = BatchVectorEnv("triqueta", num_envs=args.envs, num_players=2, opponents=args.opponents)
    net = ActorCritic(env.single_observation_space.shape[0], int(env.single_action_space.n))
    optimizer = torch.optim.Adam(net.parameters(), lr=3e-4)
    obs, info = env.reset(seed=args.seed)
    mask = info["action_mask"]
    start, cpu = time.perf_counter(), time.process_time()
    steps = 0
    recent: deque[tuple[float, int]] = deque(maxlen=10)  # (reward, games ended) of the last updates
    while (time.perf_counter() - start < args.seconds) if args.seconds is not None else steps < args.steps:
        roll, obs, mask = collect(env, net, obs, mask, args.horizon)
        with torch.no_grad():
            _, last_value = net(torch.from_numpy(obs), torch.from_numpy(mask))
        update(net, optimizer, roll, advantages(roll, last_value, gamma=0.99, lam=0.95), epochs=4, minibatch=1024)
        steps += args.horizon * args.envs
        recent.append((float(roll.reward.sum()), int(roll.done.sum())))
    print(f"trained {steps} steps in {time.perf_counter() - start:.0f} s ({time.process_time() - cpu:.0f} s of CPU)",
          flush=True)
    won, games = map(sum, zip(*recent, strict=True))
    print(f"win share in training vs {args.opponents}, last {len(recent)} updates: {won / max(games, 1):.3f} "
          f"over {games} games", flush=True)

    def act(encoded: np.ndarray, mask: np.ndarray) -> int:
        with torch.no_grad():
            logits, _ = net(torch.from_numpy(encoded)[None], torch.from_numpy(mask)[None])
        return int(logits.argmax())

    rate(act, args.games, args.seed)


if __name__ == "__main__":
    main()
