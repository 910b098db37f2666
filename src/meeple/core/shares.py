"""How one win divides among the seats: for results (a shared win counts 1/k) and for the
estimates the bots' evaluation functions give."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence


def win_shares(winners: Iterable[int], num_players: int) -> list[float]:
    """Winners share 1.0 equally, the rest get 0 ([0, ...] while there are no winners)."""
    won = set(winners)
    share = 1.0 / len(won) if won else 0.0
    return [share if seat in won else 0.0 for seat in range(num_players)]


def softmax_shares(strengths: Sequence[float], temperature: float) -> list[float]:
    """Win chances from per-seat strengths: a softmax, where `temperature` is how many points of
    lead make a seat about e times likelier to win."""
    top = max(strengths)
    weights = [math.exp((x - top) / temperature) for x in strengths]
    total = sum(weights)
    return [w / total for w in weights]
