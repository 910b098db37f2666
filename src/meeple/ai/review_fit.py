"""How well stated win chances match what happened, and the logistic map that makes them match.

A reliability table groups positions by their stated chance into ten bins of equal width
(0-10%, ..., 90-100%) and sets each bin's mean stated chance against the share of those positions
that were won (a win shared by k seats counts 1/k), with a Wilson 95% interval; a calibrated
estimate's bins lie on the diagonal. The Brier score (the mean squared difference between stated
chance and outcome) sums calibration and sharpness in one number; the naive baseline states an
equal share (1/players) everywhere.

The fit (Platt scaling) finds the slope and intercept on the logit of the raw chance that give
the outcomes their greatest likelihood, by Newton's method (two unknowns; a whisker of ridge
toward the identity keeps it finite when the outcomes separate perfectly). Pure Python: a few thousand positions.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from meeple.ai.ratings import wilson_ci95
from meeple.ai.review_calibration import MAX_INTERCEPT, MAX_SLOPE, Logistic, logit, sigmoid
from meeple.core.errors import OptionError

#: Bins of the reliability table.
BINS = 10
#: A bin with at least this many positions is held to the goal (its 95% interval is then about
#: +-0.07 or narrower near 50%, so a gap of 5 points is roughly what it can resolve).
ENOUGH = 200
#: The goal: a bin's observed share within this of its mean stated chance.
TOLERANCE = 0.05
#: The ridge pulling the fit toward the identity map (small: with a few hundred positions the
#: data decide; with a handful, or outcomes the raw chances separate, it keeps the fit finite).
RIDGE = 1e-3


@dataclass(frozen=True)
class Bin:
    """One row of a reliability table."""

    low: float
    high: float
    count: int
    mean_estimate: float
    observed: float
    ci95: tuple[float, float]

    @property
    def gap(self) -> float:
        """Observed share minus mean stated chance: positive when the estimate was too timid."""
        return self.observed - self.mean_estimate

    def to_json(self) -> dict[str, Any]:
        return {"low": self.low, "high": self.high, "count": self.count,
                "mean_estimate": round(self.mean_estimate, 4), "observed": round(self.observed, 4),
                "ci95": [round(x, 4) for x in self.ci95], "gap": round(self.gap, 4)}


def _check(estimates: Sequence[float], outcomes: Sequence[float]) -> None:
    if len(estimates) != len(outcomes) or not estimates:
        raise OptionError(f"calibration needs as many outcomes as estimates, and some: "
                          f"{len(estimates)} estimates, {len(outcomes)} outcomes")
    if not all(0.0 <= x <= 1.0 for x in estimates) or not all(0.0 <= y <= 1.0 for y in outcomes):
        raise OptionError("estimates and outcomes must lie in [0, 1]")


def reliability(estimates: Sequence[float], outcomes: Sequence[float], bins: int = BINS) -> list[Bin]:
    """The reliability table of the non-empty bins (a chance of exactly 1 falls in the last)."""
    _check(estimates, outcomes)
    grouped: list[list[tuple[float, float]]] = [[] for _ in range(bins)]
    for x, y in zip(estimates, outcomes):
        grouped[min(bins - 1, int(x * bins))].append((x, y))
    table = []
    for k, members in enumerate(grouped):
        if not members:
            continue
        n = len(members)
        won = sum(y for _, y in members)
        table.append(Bin(low=k / bins, high=(k + 1) / bins, count=n, mean_estimate=sum(x for x, _ in members) / n,
                         observed=won / n, ci95=wilson_ci95(won, n)))
    return table


def brier(estimates: Sequence[float], outcomes: Sequence[float]) -> float:
    """The mean squared difference between stated chance and outcome (lower is better)."""
    _check(estimates, outcomes)
    return sum((x - y) ** 2 for x, y in zip(estimates, outcomes)) / len(estimates)


def meets_goal(table: Sequence[Bin]) -> bool:
    """Whether every bin with ENOUGH positions is within TOLERANCE of the diagonal."""
    return all(abs(b.gap) <= TOLERANCE for b in table if b.count >= ENOUGH)


def log_loss(fitted: Logistic, raws: Sequence[float], outcomes: Sequence[float]) -> float:
    """The mean negative log-likelihood of the outcomes under the map (what the fit minimizes)."""
    _check(raws, outcomes)
    total = 0.0
    for x, y in zip(raws, outcomes):
        p = min(1 - 1e-12, max(1e-12, fitted(x)))
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(raws)


def fit_logistic(raws: Sequence[float], outcomes: Sequence[float], iterations: int = 100) -> Logistic:
    """The slope and intercept on logit(raw) that fit the outcomes best (maximum likelihood;
    outcomes may be fractions, shared wins), by Newton's method with step halving; OptionError
    when the raw chances cannot be mapped (they do not vary, or do not rise with the outcomes)."""
    _check(raws, outcomes)
    xs = [logit(x) for x in raws]
    n = len(xs)

    def loss(a: float, b: float) -> float:
        total = RIDGE * ((a - 1) ** 2 + b * b) / 2
        for x, y in zip(xs, outcomes):
            z = a * x + b  # -log sigmoid(z) = log(1 + e^-z), computed without overflow
            total += (y * _softplus(-z) + (1 - y) * _softplus(z)) / n
        return total

    a, b = 1.0, 0.0
    current = loss(a, b)
    for _ in range(iterations):
        ga, gb = RIDGE * (a - 1), RIDGE * b
        haa, hab, hbb = RIDGE, 0.0, RIDGE
        for x, y in zip(xs, outcomes):
            p = sigmoid(a * x + b)
            w = p * (1 - p) / n
            ga += (p - y) * x / n
            gb += (p - y) / n
            haa += w * x * x
            hab += w * x
            hbb += w
        det = haa * hbb - hab * hab
        da, db = (hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det
        step = 1.0
        while step > 1e-6 and loss(a - step * da, b - step * db) > current:
            step /= 2
        a, b = a - step * da, b - step * db
        improved, current = current - loss(a, b), loss(a, b)
        if improved < 1e-12:
            break
    if not (0 < a <= MAX_SLOPE and abs(b) <= MAX_INTERCEPT):
        raise OptionError(f"the fitted calibration (slope {a:.3g}, intercept {b:.3g}) is out of bounds: "
                          "the raw chances say too little about who wins, or the positions are too few")
    return Logistic(a, b)


def _softplus(z: float) -> float:
    """log(1 + e^z) without overflow."""
    return z + math.log1p(math.exp(-z)) if z > 0 else math.log1p(math.exp(z))
