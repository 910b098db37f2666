"""Triqueta heuristics: the `greedy` bot's policy and a position evaluation for search.

Everything here reads only what the seat to move may see: rows, collections, tower sizes, its
own face-down tokens and the token it just drew. Never the towers' contents or other seats'
face-down tokens (tests check the decision does not change when those are re-sampled).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from meeple.core.rng import Rng
from meeple.core.shares import softmax_shares
from meeple.games.triqueta.actions import DRAW_ACTION, TAKE_ACTIONS, Action, Discard, Draw, Keep, Place, Take
from meeple.games.triqueta.components import MAX_FACE_DOWN, NUM_ANIMALS, TOKENS_PER_ANIMAL, TOWERS
from meeple.games.triqueta.scoring import ROCK_POINTS, TREE_POINTS, collection_points, with_face_down
from meeple.games.triqueta.state import TriquetaState

#: How many points of lead make a seat about e times likelier to win (evaluate).
LEAD_SCALE = 3.0


def potential(counts: Sequence[int], face_down: Sequence[int]) -> int:
    """Points of `counts` with the best use of the face-down tokens (T7)."""
    if not face_down:
        return collection_points(counts)
    return collection_points(with_face_down(counts, face_down))


def gain(counts: Sequence[int], face_down: Sequence[int], tokens: Sequence[int]) -> int:
    """How many points taking `tokens` adds for a seat with `counts` and `face_down`."""
    if not tokens:
        return 0
    trial = list(counts)
    for token in tokens:
        trial[token] += 1
    return potential(trial, face_down) - potential(counts, face_down)


def unseen_distribution(state: TriquetaState, seat: int) -> list[float]:
    """Probability of each animal for the next draw, from what `seat` has seen."""
    left = [TOKENS_PER_ANIMAL] * NUM_ANIMALS
    for counts in state.counts:
        for a in range(NUM_ANIMALS):
            left[a] -= counts[a]
    for row in state.rows:
        for token in row or ():
            left[token] -= 1
    for token in state.face_down[seat]:
        left[token] -= 1
    for token in state.returned[seat]:
        left[token] -= 1
    total = sum(left)
    return [x / total for x in left] if total > 0 else [1.0 / NUM_ANIMALS] * NUM_ANIMALS


def _keep_cost(state: TriquetaState, seat: int) -> float:
    """Keeping is scarce (T4: two per game): spend a keep only on a real gain."""
    used = len(state.face_down[seat])
    rounds_left = TOWERS - state.round
    return 1.0 + 0.6 * rounds_left - 0.5 * used


def _best_row_value(counts: Sequence[int], face_down: Sequence[int], rows: Sequence[list[int] | None]) -> int:
    return max(gain(counts, face_down, row) for row in rows if row is not None)


def _placement_score(state: TriquetaState, seat: int, row_index: int, token: int) -> float:
    """Value of adding `token` to a row: how it moves the best row each seat still in the
    round could take. Raising my own best is good; raising an opponent's is bad, and lowering
    it (poisoning the row they need) is good. The next seat to choose weighs most."""
    rows = state.rows
    after = [r if i != row_index or r is None else r + [token] for i, r in enumerate(rows)]
    mine = _best_row_value(state.counts[seat], state.face_down[seat], after) - _best_row_value(
        state.counts[seat], state.face_down[seat], rows
    )
    theirs = 0.0
    n = state.num_players
    for offset in range(1, n):
        other = (seat + offset) % n
        if state.out[other]:
            continue
        delta = _best_row_value(state.counts[other], (), after) - _best_row_value(state.counts[other], (), rows)
        theirs += (0.6 if offset == 1 else 0.35) * delta
    return 0.7 * mine - theirs


def _choose_after_draw(state: TriquetaState, seat: int) -> Action:
    best: tuple[float, int, Action] | None = None
    keep_allowed = len(state.face_down[seat]) < MAX_FACE_DOWN
    for move in state.legal_actions():
        match move:
            case Place(row, slot):
                score = _placement_score(state, seat, row, state.pending[slot])
            case Keep(slot) if keep_allowed:
                token = state.pending[slot]
                score = gain(state.counts[seat], state.face_down[seat], [token]) - _keep_cost(state, seat)
            case Keep() | Discard():  # duo: returning a token to the box is neutral for everyone
                score = -0.25
            case Take() | Draw():
                raise AssertionError("a drawn token is waiting: no take or draw is legal")
        key = (score, -state.action_id(move), move)
        if best is None or key[:2] > best[:2]:
            best = key
    assert best is not None
    return best[2]


def _draw_value_for_last_player(state: TriquetaState, seat: int, row: list[int]) -> float:
    """Expected gain of one more draw when only this seat and one row remain (T5)."""
    probs = unseen_distribution(state, seat)
    base = gain(state.counts[seat], state.face_down[seat], row)
    can_keep = len(state.face_down[seat]) < MAX_FACE_DOWN
    expected = 0.0
    for token, p in enumerate(probs):
        if p == 0:
            continue
        placed = gain(state.counts[seat], state.face_down[seat], row + [token])
        kept = -math.inf
        if can_keep:
            kept = base + gain(state.counts[seat], state.face_down[seat], [token]) - _keep_cost(state, seat)
        expected += p * max(placed, kept)
    return expected - base


def choose(state: TriquetaState, rng: Rng) -> Action:
    """Greedy Triqueta policy for the seat to move."""
    seat = state.current
    if state.pending:
        return _choose_after_draw(state, seat)
    in_play = {r: row for r, row in enumerate(state.rows) if row is not None}
    values = [(gain(state.counts[seat], state.face_down[seat], row), -len(row), r) for r, row in in_play.items()]
    best_value, _, best_row = max(values)
    tower_left = len(state.towers[state.round])
    if tower_left == 0:
        return TAKE_ACTIONS[best_row]
    if state.players_in == 1:
        worth_drawing = _draw_value_for_last_player(state, seat, in_play[best_row]) > 0.2
        return DRAW_ACTION if worth_drawing else TAKE_ACTIONS[best_row]
    # Rows only grow while tokens remain: wait for more when many tokens are left per player.
    per_player = tower_left / state.players_in
    aspiration = 1.5 + min(5.0, per_player * 0.9)
    if best_value >= aspiration:
        return TAKE_ACTIONS[best_row]
    return DRAW_ACTION


def evaluate(state: TriquetaState) -> list[float]:
    """Each seat's chance to win, estimated from scores with face-down tokens used well."""
    totals = [
        potential(state.counts[s], state.face_down[s]) + (ROCK_POINTS if state.rock == s else 0)
        + TREE_POINTS * state.trees[s]
        for s in range(state.num_players)
    ]
    return softmax_shares(totals, LEAD_SCALE)
