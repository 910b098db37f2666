"""Fit a game's position evaluation to self-play: `python -m meeple.ai.fit_evaluation GAME`.

A search cut off before the end needs each seat's chance to win. A game whose heuristics module
offers `features(state)` (one list of numbers per seat) and `FEATURE_NAMES` gets it from a
conditional logit: seat q's worth is `weights . features[q]` and the chances are the softmax of
the worths over the table. This module plays greedy self-play games, keeps positions every few
plies with how each game ended (a shared win counts 1/k), fits one weight vector per table size
by Newton's method on the log-likelihood, and reports the held-out log-loss next to the game's
current `evaluate`, so that new weights are adopted only when they predict better (docs/ai.md).
Standard library only: a handful of weights on some ten thousand positions needs no solver.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from meeple.ai.bots import make_bot
from meeple.ai.heuristics import FittedHeuristics, heuristics_of
from meeple.ai.match import derive_seed, seat_streams
from meeple.core.errors import OptionError
from meeple.core.observation import Observation
from meeple.core.registry import load
from meeple.core.shares import softmax_shares

#: Ridge penalty per weight (per position): keeps collinear features from drifting apart.
RIDGE = 1e-4


@dataclass(frozen=True)
class Position:
    """One sampled position: every seat's features, how the game ended, and what the game's
    current `evaluate` said about it (for the comparison)."""

    features: list[list[float]]
    outcome: list[float]
    current: list[float]


def collect(game_name: str, players: int, games: int, seed: int, every: int = 3,
            epsilon: float = 0.0) -> list[Position]:
    """Positions every `every` plies of `games` self-play games in which every move is greedy,
    or with probability `epsilon` uniformly random. Some random moves matter: among purely greedy
    players every seat plays the same way, so the fit cannot tell what playing a part of the game
    badly costs, and a search, which tries bad moves too, needs to know."""
    game = load(game_name)
    game.check_players(players)
    if games < 1:
        raise OptionError(f"fitting needs at least one self-play game, not {games}")
    if not 0.0 <= epsilon <= 1.0:
        raise OptionError(f"epsilon must be in [0, 1], not {epsilon}")
    module = fitted_heuristics(game_name)
    out: list[Position] = []
    for index in range(games):
        game_seed = derive_seed(seed, index)
        state = game.new_game(players, seed=game_seed)
        *streams, explore = seat_streams(game_seed, players + 1)
        greedy, rand = make_bot("greedy"), make_bot("random")
        kept: list[tuple[list[list[float]], list[float]]] = []
        ply = 0
        while not state.is_terminal:
            if ply % every == 0:
                found = module.features(state)
                if found is not None:
                    kept.append((found, module.evaluate(state)))
            seat = state.current_player
            bot = rand if epsilon and explore.random() < epsilon else greedy
            state.apply(bot.choose(Observation.of(state), streams[seat]))
            ply += 1
        outcome = state.rewards()
        out.extend(Position(f, outcome, e) for f, e in kept)
    return out


def fitted_heuristics(game_name: str) -> FittedHeuristics:
    """The game's heuristics if they offer features to fit, else OptionError."""
    game = load(game_name)
    module = heuristics_of(game)
    if not isinstance(module, FittedHeuristics):
        raise OptionError(f"{game.title} has no features() to fit an evaluation to")
    return module


def probabilities(weights: Sequence[float], features: Sequence[Sequence[float]]) -> list[float]:
    """The fitted model's chances for one position."""
    return softmax_shares([sum(w * x for w, x in zip(weights, row)) for row in features], 1.0)


def log_loss(predict: Any, positions: Sequence[Position]) -> float:
    """Mean cross-entropy of `predict(position) -> chances` against the outcomes."""
    total = 0.0
    for pos in positions:
        chances = predict(pos)
        total -= sum(r * math.log(max(p, 1e-12)) for r, p in zip(pos.outcome, chances) if r)
    return total / len(positions)


def fit(positions: Sequence[Position], iterations: int = 25, tolerance: float = 1e-7) -> list[float]:
    """Maximum-likelihood weights of the conditional logit (Newton steps, ridge RIDGE)."""
    d = len(positions[0].features[0])
    weights = [0.0] * d
    n = len(positions)
    for _ in range(iterations):
        grad = [-RIDGE * n * w for w in weights]
        hess = [[RIDGE * n if i == j else 0.0 for j in range(d)] for i in range(d)]
        for pos in positions:
            p = probabilities(weights, pos.features)
            mean = [sum(pq * row[i] for pq, row in zip(p, pos.features)) for i in range(d)]
            for r, pq, row in zip(pos.outcome, p, pos.features):
                centred = [row[i] - mean[i] for i in range(d)]
                for i in range(d):
                    grad[i] += (r - pq) * row[i]
                    ci = pq * centred[i]
                    if ci:
                        hrow = hess[i]
                        for j in range(d):
                            hrow[j] += ci * centred[j]
        step = _solve(hess, grad)
        weights = [w + s for w, s in zip(weights, step)]
        if max(abs(s) for s in step) < tolerance:
            break
    return weights


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b, by Gaussian elimination with partial pivoting (a is small and positive
    definite thanks to the ridge)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def _fitted_loss(weights: Sequence[float], positions: Sequence[Position]) -> float:
    return log_loss(lambda p: probabilities(weights, p.features), positions)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m meeple.ai.fit_evaluation", description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, nargs="+", required=True)
    parser.add_argument("--games", type=int, default=1000, help="self-play games per table size (4 in 5 to fit)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--epsilon", type=float, default=0.0, help="chance of a uniformly random move")
    args = parser.parse_args(argv)
    try:
        names = tuple(fitted_heuristics(args.game).FEATURE_NAMES)
        fitted: dict[int, list[float]] = {}
        for players in args.players:
            positions = collect(args.game, players, args.games, args.seed, epsilon=args.epsilon)
            cut = len(positions) * 4 // 5  # whole games stay on one side of the cut, bar one
            train, test = positions[:cut], positions[cut:]
            if not train or not test:
                raise OptionError(f"{len(positions)} positions are too few to fit and test; play more games")
            held_out = _fitted_loss(fit(train), test)
            fitted[players] = [round(w, 3) for w in fit(positions)]
            print(f"{players} players: {len(positions)} positions; held-out log-loss "
                  f"{held_out:.4f} fitted, "
                  f"{log_loss(lambda p: p.current, test):.4f} current evaluate, "
                  f"{math.log(players):.4f} uniform")
    except OptionError as err:
        raise SystemExit(f"error: {err}") from None
    print(f"# weights per table size, features {names}")
    print("{" + ", ".join(f"{k}: ({', '.join(map(str, v))})" for k, v in fitted.items()) + "}")


if __name__ == "__main__":
    main()
