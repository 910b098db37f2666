"""The review's estimator: a seat's chance of winning (its expected share of the win) after each
of its moves, from what that seat knew and nothing else.

Worlds: the position is sampled with `state.determinize(seat, rng)`, never read otherwise, so
the estimate cannot depend on a hidden thing the seat did not know. World k of a position is the
same for every candidate move (common random numbers: the k-th sample and the k-th playout
stream are shared), so the difference between two moves is measured on the same deals and is
far less noisy than either estimate.

Playouts: from a world after the move, every seat plays the game's greedy heuristic with a
uniformly random move now and then (`epsilon`); where the game's search tuning cuts its playouts
off after some plies, the review can too (`playout="game"`) and scores the position with the
heuristics' `evaluate`; otherwise the game is played to its end, and a win shared by k winners
counts 1/k (`State.rewards`).

The race: with many legal moves, every move gets a few worlds, the better half goes on with
twice as many, and so on until the two strongest moves and the move actually played have
`samples` worlds each (successive halving). The played move is never dropped: its estimate is
the one the review reports.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from meeple.ai.heuristics import heuristics_of
from meeple.ai.ismcts import seat_cutoff
from meeple.core.errors import OptionError
from meeple.core.rng import Rng
from meeple.core.state import State

if TYPE_CHECKING:
    from meeple.ai.review import ReviewSettings

#: The moves besides the one played that reach the last round of the race.
FINALISTS = 2
#: The fewest worlds a move gets in the first round of a race with very many moves.
MIN_SCREEN = 4
#: The first round's worlds, all moves together, in units of `screening`.
SCREEN_BUDGET = 8
_GOLDEN = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1


def stream(*parts: int) -> int:
    """A 64-bit seed from whole numbers (a review's seed, a move's index, a world's number,
    a purpose): equal parts give equal seeds on every machine and in every worker."""
    value = 0x5EED_0F_4E71E
    for part in parts:
        value = Rng((value ^ (part * _GOLDEN)) & _MASK).next64()
    return value


class Playouts:
    """Plays a sampled world onwards and scores it: every seat's reward (win share), in [0, 1]."""

    def __init__(self, game: Any, settings: ReviewSettings, players: int) -> None:
        module = heuristics_of(game)
        self.choose: Callable[[State[Any], Rng], Any] | None = module.choose if module else None
        self.epsilon = settings.epsilon if module else 1.0
        self.evaluate: Callable[[State[Any]], list[float]] | None = None
        self.cutoff: int | None = None
        tuning = game.search
        if settings.playout == "game" and module is not None and tuning.cutoff is not None:
            self.evaluate = module.evaluate
            self.cutoff = seat_cutoff(tuning.cutoff, players) if tuning.scale_cutoff else tuning.cutoff

    def play(self, s: State[Any], rng: Rng) -> list[float]:
        choose, epsilon, cutoff = self.choose, self.epsilon, self.cutoff
        depth = 0
        while s.current_player is not None:
            if cutoff is not None and depth >= cutoff:
                assert self.evaluate is not None
                return [min(1.0, max(0.0, x)) for x in self.evaluate(s)]
            if choose is None or (epsilon and rng.random() < epsilon):
                acts = s.legal_actions()
                s.step(acts[rng.below(len(acts))])
            else:
                s.step(choose(s, rng))
            depth += 1
        return s.rewards()


class Worlds:
    """The sampled worlds of one position as one seat knows it, drawn when first needed."""

    def __init__(self, state: State[Any], seat: int, seed: int) -> None:
        self._state, self.seat, self.seed = state, seat, seed
        self._drawn: list[State[Any]] = []

    def world(self, k: int) -> State[Any]:
        while len(self._drawn) <= k:
            self._drawn.append(self._state.determinize(self.seat, Rng(stream(self.seed, len(self._drawn), 1))))
        return self._drawn[k]

    def playout_rng(self, k: int) -> Rng:
        return Rng(stream(self.seed, k, 2))


@dataclass
class Tally:
    """One move's results, world by world (worlds 0 to n-1)."""

    mover: list[float] = field(default_factory=list)  # the seat's reward in each world
    totals: list[float] = field(default_factory=list)  # every seat's summed rewards
    exact: bool = False  # a finished game's result: no sampling, no noise

    @property
    def n(self) -> int:
        return len(self.mover)

    @property
    def mean(self) -> float:
        return sum(self.mover) / len(self.mover) if self.mover else 0.0

    def standard_error(self) -> float:
        """Of `mean`: 0 for a finished game's one certain result, infinite below two worlds."""
        n = self.n
        if self.exact:
            return 0.0
        if n < 2:
            return math.inf
        mean = self.mean
        return math.sqrt(sum((x - mean) ** 2 for x in self.mover) / (n - 1) / n)

    def means(self) -> list[float]:
        return [t / self.n for t in self.totals] if self.n else []

    def add(self, rewards: list[float], seat: int) -> None:
        self.mover.append(rewards[seat])
        if not self.totals:
            self.totals = [0.0] * len(rewards)
        for i, r in enumerate(rewards):
            self.totals[i] += r


def paired(a: Tally, b: Tally) -> tuple[float, float]:
    """Mean and standard error of `a` minus `b` over the worlds both have: the same deals, so
    what the two have in common cancels."""
    n = min(a.n, b.n)
    if n == 0:
        return 0.0, math.inf
    diffs = [x - y for x, y in zip(a.mover[:n], b.mover[:n])]
    mean = sum(diffs) / n
    if n == 1:
        return mean, math.inf
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(variance / n)


@dataclass
class Race:
    """What a race found: each move's tally (by action id), the preferred move, and whether the
    time cap cut it short."""

    tallies: dict[int, Tally]
    best: int
    capped: bool


class Clock:
    """A review's optional time cap on one move (None: none, and the review repeats exactly)."""

    def __init__(self, seconds: float | None) -> None:
        self.deadline = math.inf if seconds is None else time.perf_counter() + seconds
        self.capped = False

    def out(self) -> bool:
        if self.deadline != math.inf and time.perf_counter() >= self.deadline:
            self.capped = True
        return self.capped


def race(state: State[Any], seat: int, settings: ReviewSettings, seed: int, played: int | None,
         playouts: Playouts, clock: Clock) -> Race:
    """Estimate the moves of `seat` (to move in `state`) from its worlds; the move `played`
    (an action id, or None for a hint) runs to the end of the race whatever its results."""
    if state.current_player != seat:
        raise OptionError(f"player {seat + 1} is not to move: there is no move of theirs to estimate")
    worlds = Worlds(state, seat, seed)
    actions = {state.action_id(a): a for a in state.legal_actions()}
    order = list(actions)
    tallies = {aid: Tally() for aid in order}

    def extend(aid: int, n: int) -> None:
        tally = tallies[aid]
        while tally.n < n and not clock.out():
            s = worlds.world(tally.n).clone()
            s.step(actions[aid])
            tally.add(playouts.play(s, worlds.playout_rng(tally.n)), seat)

    def ranked(field_: list[int]) -> list[int]:
        return sorted(field_, key=lambda aid: (-tallies[aid].mean, order.index(aid)))

    alive = order
    samples = settings.samples
    n = samples if len(order) <= FINALISTS + 1 else max(
        MIN_SCREEN, min(settings.screening, SCREEN_BUDGET * settings.screening // len(order)))
    n = min(n, samples)
    while True:
        for aid in alive:
            extend(aid, n)
        if n >= samples or clock.capped:
            break
        n = min(samples, 2 * n)
        keep = FINALISTS if n >= samples else max(FINALISTS, math.ceil(len(alive) / 2))
        top = ranked(alive)[:keep]
        alive = top + ([played] if played is not None and played not in top else [])
    # The preferred move: the best mean among the moves that went furthest.
    furthest = max(tallies[aid].n for aid in alive)
    best = ranked([aid for aid in alive if tallies[aid].n == furthest])[0]
    return Race(tallies, best, clock.capped)


def position_value(state: State[Any], seat: int, settings: ReviewSettings, seed: int, playouts: Playouts,
                   clock: Clock) -> Tally:
    """The rewards, as `seat` knows the position `state`, of playing on from it with the
    playout policy (whoever is to move)."""
    if state.current_player is None:
        tally = Tally(exact=True)
        tally.add(state.rewards(), seat)
        return tally
    worlds = Worlds(state, seat, seed)
    tally = Tally()
    while tally.n < settings.samples and not clock.out():
        tally.add(playouts.play(worlds.world(tally.n).clone(), worlds.playout_rng(tally.n)), seat)
    return tally


def revealed(before: State[Any], action: Any, after: State[Any], seat: int, seed: int, checks: int = 3) -> bool:
    """Whether the move's outcome showed `seat` anything it could not foresee (a draw, a deal, a
    refill): in `checks` worlds sampled from what the seat knew before, the move gives the seat a
    different view than it actually got."""
    seen = after.view(seat)
    for k in range(checks):
        world = before.determinize(seat, Rng(stream(seed, k, 3)))
        world.step(action)
        if world.view(seat) != seen:
            return True
    return False
