"""Castell bot heuristics: a one-step greedy policy and a position evaluation.

The greedy bot looks at the festivals of this round and the next two (the calendar is open),
weights each by how soon it comes and whether the pawn can still reach it, and derives a wish
list of casteller sizes. It then scores every legal step:
  - recruits by how much the size is wished for (plus a little for any body: towers need height)
    and by the stars of local performance tiles in reach (here or one move away) it makes doable,
  - moves (and special moves) by how close they bring the pawn to the coming festivals, to
    wished-for castellers and to tiles the player can perform there,
  - training by how much the +1 raises the solver's best tower for the main target festival
    (or the tallest tower when no festival is in reach) and by the tiles in reach it makes doable,
  - local performances by their stars (and the region they add to the player board),
and takes the best one, ending the turn when nothing is worth more than stopping. At a festival
it always enters: entering can only add points. It reads only open information (everything but
the bag's order, which it never touches).
"""

from __future__ import annotations

import math
from typing import Any

from meeple.core.memo import MB, memoize
from meeple.core.rng import Rng
from meeple.core.shares import softmax_shares, win_shares
from meeple.games.castell import actions as A
from meeple.games.castell.actions import Action
from meeple.games.castell.components import LAST_ROUND, Components, Festival
from meeple.games.castell.legality import PHASE_FESTIVAL
from meeple.games.castell.state import CastellState
from meeple.games.castell.towers.cache import best_for_festival, tallest, tower_for
from meeple.games.castell.towers.rules import COUNTS_LEN, SIZES, festival_score

TOKEN_COST = 0.6  # a special action token spent on a recruit or a move
LOOKAHEAD_ROUNDS = 3  # the festivals of this round and the next two
#: `evaluate`: how many points of projected lead make a seat about e times likelier to win.
TEMPERATURE = 6.0


def distances(state: CastellState, start: int) -> tuple[int, ...]:
    """Roads between `start` and every region (the component set's precomputed table)."""
    return state.components.distances[start]


def targets(state: CastellState, seat: int) -> list[tuple[float, Festival]]:
    """Coming festivals with a weight: sooner and reachable ones count more."""
    out = []
    here = state.pawn[seat]
    dist = distances(state, here) if here >= 0 else None
    for rnd in range(state.round, min(state.round + LOOKAHEAD_ROUNDS, LAST_ROUND + 1)):
        for fest in state.festivals[rnd]:
            weight = 1.0 / (1 + rnd - state.round)
            if dist is not None:
                slack = 2 * (rnd - state.round) + 2  # about two moves a round
                if dist[fest.region] > slack:
                    continue
                weight /= 1 + 0.5 * dist[fest.region]
            out.append((weight, fest))
    return out


def wishes(goals: list[tuple[float, Festival]]) -> list[float]:
    want = [0.0] * COUNTS_LEN
    for weight, fest in goals:
        for size in fest.sizes:
            want[size] += weight
    return want


def tiles_in_reach(state: CastellState, seat: int) -> tuple[tuple[float, int], ...]:
    """Unclaimed local performance tiles the seat could claim soon, with a weight: its own
    region's count fully, the neighbours' half (one move away)."""
    here = state.pawn[seat]
    if here < 0 or not state.tokens_left[seat]:
        return ()
    out = [(1.0, t) for t in state.region_tiles[here] if t >= 0]
    for nb in state.components.neighbours[here]:
        out.extend((0.5, t) for t in state.region_tiles[nb] if t >= 0)
    return tuple(out)


def _tile_value(state: CastellState, team: tuple[int, ...], skills: tuple[int, ...],
                reach: tuple[tuple[float, int], ...]) -> float:
    """Stars of the tiles in reach that this team and these skills can perform."""
    return _doable_stars(state.components, team, skills, reach)


@memoize(16 * MB)
def _doable_stars(components: Components, team: tuple[int, ...], skills: tuple[int, ...],
                  reach: tuple[tuple[float, int], ...]) -> float:
    """`_tile_value`, memoised: greedy playouts in a search ask the same few questions
    thousands of times, and each answer needs a solver check per tile."""
    tiles = components.local_tiles
    return sum(weight * tiles[t].stars for weight, t in reach if tower_for(team, skills, tiles[t]) is not None)


def _place_value(state: CastellState, seat: int, region: int, goals: list[tuple[float, Festival]],
                 want: list[float]) -> float:
    dist = distances(state, region)
    value = sum([weight * 3.0 / (1 + dist[fest.region]) for weight, fest in goals])
    pool = state.pool[region]
    value += 0.15 * sum([pool[s] * (0.3 + want[s]) for s in SIZES if pool[s]])
    if state.tokens_left[seat]:
        team, skills = tuple(state.teams[seat]), tuple(state.skills[seat])
        value += 0.5 * _tile_value(state, team, skills, tuple((1.0, t) for t in state.region_tiles[region] if t >= 0))
    return value


def _tower_value(state: CastellState, seat: int, skills: tuple[int, ...], goals: list[tuple[float, Festival]]) -> float:
    """The main target festival's best score; short of an eligible tower, half a point per level
    of the tallest tower (height is what opens festivals: K8 wants 4 levels)."""
    team = tuple(state.teams[seat])
    if goals:
        _, fest = max(goals, key=lambda g: g[0])
        tower = best_for_festival(team, skills, fest.sizes)
        if tower:
            return float(festival_score(tower, fest.sizes))
    tower = tallest(team, skills)
    return 0.5 * len(tower) if tower else 0.0


def _score(state: CastellState, action: Action, seat: int, goals: list[tuple[float, Festival]], want: list[float],
           base: dict[str, Any]) -> float:
    paid = 0.0 if state.free_special else TOKEN_COST
    match action:
        case A.EndTurn() | A.Enter() | A.Decline():
            return 0.0
        case A.Recruit() | A.SingleRecruit():
            return _recruit_score(state, action, seat, want, base) - (
                paid if isinstance(action, A.SingleRecruit) else 0.0)
        case A.Move() | A.ExtraMove():
            here = state.pawn[seat]
            now = base["place"] if here >= 0 else 0.0
            gain = _place_value(state, seat, action.region, goals, want) - now
            return float(gain) - (paid if isinstance(action, A.ExtraMove) else 0.0) - 0.05
        case A.Train():
            if action.target == A.SPECIAL_TARGET:
                return 1.0
            skills = list(state.skills[seat])
            skills[action.target] += 1
            gain = _tower_value(state, seat, tuple(skills), goals) - base["tower"]
            if base["reach"]:
                teams = tuple(state.teams[seat])
                gain += 0.5 * (_tile_value(state, teams, tuple(skills), base["reach"]) - base["tiles"])
            return 0.5 + float(gain)
        case A.Perform():
            tile = state.components.local_tiles[state.region_tiles[state.pawn[seat]][action.slot]]
            return 2.0 + 1.5 * tile.stars - paid


def _recruit_score(state: CastellState, action: A.Recruit | A.SingleRecruit, seat: int, want: list[float],
                   base: dict[str, Any]) -> float:
    """One more casteller of the action's size: what the wished sizes and the tiles in reach gain."""
    value = 0.4 + 2.0 * want[action.size] + 0.03 * action.size
    if base["reach"]:
        team = list(state.teams[seat])
        team[action.size] += 1
        gain = _tile_value(state, tuple(team), tuple(state.skills[seat]), base["reach"]) - base["tiles"]
        value += 0.5 * gain
    return float(value)


def choose(state: CastellState, rng: Rng) -> Any:
    """The greedy step for the current player."""
    acts = state.legal_actions()
    if len(acts) == 1:
        return acts[0]
    seat = state.current
    if state.phase == PHASE_FESTIVAL:
        return acts[0]  # Enter comes before Decline: entering never costs anything
    goals = targets(state, seat)
    want = wishes(goals)
    base: dict[str, Any] = {}
    if state.pawn[seat] >= 0:
        base["place"] = _place_value(state, seat, state.pawn[seat], goals, want)
    growing = any(isinstance(a, (A.Recruit, A.SingleRecruit, A.Train)) for a in acts)
    base["reach"] = tiles_in_reach(state, seat) if growing else ()
    if base["reach"]:
        base["tiles"] = _tile_value(state, tuple(state.teams[seat]), tuple(state.skills[seat]), base["reach"])
    if any(isinstance(a, A.Train) for a in acts):
        base["tower"] = _tower_value(state, seat, tuple(state.skills[seat]), goals)
    best_value, best = -math.inf, []
    for action in acts:
        value = _score(state, action, seat, goals, want, base)
        if value > best_value + 1e-9:
            best_value, best = value, [action]
        elif abs(value - best_value) <= 1e-9:
            best.append(action)
    return best[rng.below(len(best))]


def evaluate(state: CastellState) -> list[float]:
    """Each seat's estimated chance to win, in [0, 1], from the score so far plus what its team
    and skills promise for the rounds left."""
    n = state.num_players
    scores = state.scores()
    if state.over:
        return win_shares(state.winners(), n)
    left = (LAST_ROUND - state.round) / LAST_ROUND
    projected = [
        scores[p] + left * (0.6 * sum(state.teams[p]) + 1.5 * sum(state.skills[p]) + 0.5 * state.tokens_left[p])
        for p in range(n)
    ]
    return softmax_shares(projected, TEMPERATURE)
