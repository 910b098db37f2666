"""Statistics the arena reports: confidence intervals and OpenSkill ratings.

Kept apart from the arena so the math can be tested on known inputs without playing games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# Two-sided 95% Student t critical values for 1..30 degrees of freedom.
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)
_Z975 = 1.959963984540054


def t_critical_95(df: int) -> float:
    """The 97.5% quantile of Student's t with `df` degrees of freedom (table up to 30, then the
    Cornish-Fisher expansion around the normal quantile, accurate to about 1e-3)."""
    if df < 1:
        raise ValueError("a t quantile needs at least one degree of freedom")
    if df <= len(_T975):
        return _T975[df - 1]
    z = _Z975
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def mean_ci95(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high): the mean with a 95% t interval; one value gives a zero-width interval."""
    n = len(values)
    if n == 0:
        raise ValueError("no values to average")
    mean = math.fsum(values) / n
    if n == 1:
        return mean, mean, mean
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_critical_95(n - 1) * math.sqrt(var / n)
    return mean, mean - half, mean + half


def wilson_ci95(successes: float, n: int) -> tuple[float, float]:
    """Wilson score interval for a share (fractional successes allowed: shared wins)."""
    if n <= 0:
        raise ValueError("no trials")
    p = successes / n
    z2 = _Z975 * _Z975
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = _Z975 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Rating:
    """An OpenSkill rating: skill `mu`, uncertainty `sigma`; `ordinal` = mu - 3 sigma is the
    conservative figure to sort by."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def ranks_from_results(rewards: Sequence[float], scores: Sequence[float]) -> list[int]:
    """Competition ranks (1 = best) per seat: by win share first, then by score; ties share."""
    keys = list(zip(rewards, scores))
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def openskill_ratings(num_bots: int, games: Sequence[tuple[Sequence[int], Sequence[int]]]) -> list[Rating]:
    """Rate bots with OpenSkill's Plackett-Luce model, replaying `games` in order.

    Each game is (bot index per seat, rank per seat). A bot seated more than once in a game
    (more seats than bots) is rated as one entry per seat; its new rating is the mean of those
    entries' updates, so a game still moves each bot once.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = [(model.mu, model.sigma) for _ in range(num_bots)]
    for seating, ranks in games:
        teams = [[model.rating(mu=current[b][0], sigma=current[b][1])] for b in seating]
        updated = model.rate(teams, ranks=list(ranks))
        gathered: dict[int, list[tuple[float, float]]] = {}
        for bot, team in zip(seating, updated):
            gathered.setdefault(bot, []).append((team[0].mu, team[0].sigma))
        for bot, values in gathered.items():
            current[bot] = (
                math.fsum(v[0] for v in values) / len(values),
                math.fsum(v[1] for v in values) / len(values),
            )
    return [Rating(mu, sigma) for mu, sigma in current]
