"""The review's estimator: a seat's chance of winning (its expected share of the win) after each
of its moves, from what that seat knew and nothing else.

Worlds: the position is sampled with `state.determinize(seat, rng)`, never read otherwise, so
the estimate cannot depend on a hidden thing the seat did not know. World k of a position is the
same for every candidate move (common random numbers: the k-th sample and the k-th playout
stream are shared), so the difference between two moves is measured on the same deals and is
far less noisy than either estimate.

Playouts: from a world after the move, every seat plays the game's greedy heuristic with a
uniformly random move now and then (`epsilon`), to the end of the game, where a win shared by k
winners counts 1/k (`State.rewards`). A game whose playouts to the end cost much and whose
evaluation is good declares a `review_cutoff` in its search tuning: there (`playout="game"`, the
default) a playout stops after that many plies and the heuristics' `evaluate` scores it.

The race: with more than two legal moves, every move gets a few worlds of a screening block,
the better half goes on with twice as many, and so on until one is left (successive halving).
That move and the move actually played are then estimated on `samples` fresh worlds: the
reported figures never rest on the worlds a move was picked on, so the pick's luck (a "winner's
curse") does not inflate them.
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

#: The fewest worlds of a reported estimate, even when the time cap has passed.
MIN_FINAL = 4
#: The fewest worlds a move gets in the first round of a race with very many moves.
MIN_SCREEN = 2
#: The first round's worlds, all moves together, in units of `screening`.
SCREEN_BUDGET = 4
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
        if settings.playout == "game" and module is not None and tuning.review_cutoff is not None:
            self.evaluate = module.evaluate
            plies = max(1, round(tuning.review_cutoff * settings.cutoff_scale))
            self.cutoff = seat_cutoff(plies, players) if tuning.scale_cutoff else plies

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
    """What a race found: the final estimates (by action id) of the preferred move and the move
    played, on worlds of their own; every move's screening tally; and whether the time cap cut
    it short."""

    final: dict[int, Tally]
    screened: dict[int, Tally]
    best: int
    capped: bool

    @property
    def legal(self) -> int:
        return len(self.screened) or len(self.final)

    def gap(self, aid: int, other: int) -> tuple[float, float]:
        """How much better `aid` did than `other`, and its standard error, on the block of
        worlds both were played on (the final one where both reached it)."""
        if aid in self.final and other in self.final:
            return paired(self.final[aid], self.final[other])
        return paired(self.screened[aid], self.screened[other])


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
    """Estimate the moves of `seat` (to move in `state`) from its worlds. With more than two
    legal moves, a screening race on worlds of its own finds the strongest; then that move and
    the move `played` (an action id; None for a hint) are estimated on `samples` fresh worlds,
    so the winner of the screening carries no luck of the draw into its final estimate."""
    if state.current_player != seat:
        raise OptionError(f"player {seat + 1} is not to move: there is no move of theirs to estimate")
    actions = {state.action_id(a): a for a in state.legal_actions()}
    order = list(actions)

    def extend(tally: Tally, worlds: Worlds, aid: int, n: int, floor: int = 0) -> None:
        while tally.n < n and (tally.n < floor or not clock.out()):
            s = worlds.world(tally.n).clone()
            s.step(actions[aid])
            tally.add(playouts.play(s, worlds.playout_rng(tally.n)), seat)

    screened: dict[int, Tally] = {}
    if len(order) > 2 or (played is None and len(order) > 1):
        screening = Worlds(state, seat, stream(seed, 5))
        screened = {aid: Tally() for aid in order}

        def ranked(field_: list[int]) -> list[int]:
            return sorted(field_, key=lambda aid: (-screened[aid].mean, order.index(aid)))

        alive = order
        n = max(MIN_SCREEN, min(settings.screening, SCREEN_BUDGET * settings.screening // len(order)))
        while True:
            for aid in alive:
                extend(screened[aid], screening, aid, n, floor=1)
            if len(alive) == 1 or clock.capped:
                break
            alive = ranked(alive)[:math.ceil(len(alive) / 2)]
            n = min(2 * n, settings.samples)
        finalists = [ranked(alive)[0]]
    else:
        finalists = list(order)
    if played is not None and played not in finalists:
        finalists.append(played)
    worlds = Worlds(state, seat, stream(seed, 6))
    final = {aid: Tally() for aid in finalists}
    for aid in finalists:
        extend(final[aid], worlds, aid, settings.samples, floor=MIN_FINAL)
    best = sorted(finalists, key=lambda aid: (-final[aid].mean, order.index(aid)))[0]
    return Race(final, screened, best, clock.capped)


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
    while tally.n < settings.samples and (tally.n < MIN_FINAL or not clock.out()):
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
