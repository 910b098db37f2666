"""Triqueta's greedy bot on the batched simulator's arrays: `heuristics.choose` for every game at once.

The batched VectorEnv's `greedy` opponents (issue #32) must play as the engine's greedy bot does,
or a policy trained against them is rated against a different player. `choose` is deterministic
(ties: the shortest best row, then the last one; after a draw the lowest action id; it never uses
its rng), so this is the same rule, not a sample of it, and tests/batch/test_triqueta_greedy.py
compares every choice with `choose` on the exported engine states. Float scores are computed in
float64 in the heuristic's own order of operations, so equal scores tie here exactly as there.

Only what the seat to move may see is read (`_Seen`): collections, rows, tower sizes, who is out,
its own face-down and returned tokens, and the tokens it drew. Never the towers' contents nor
another seat's face-down or returned tokens.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from meeple.batch.protocol import BatchSimulator
from meeple.batch.triqueta import DISCARD_ID, DRAW_ID, KEEP_ID, PLACE_ID, POINTS_TAB, TriquetaBatch
from meeple.games.triqueta.components import MAX_FACE_DOWN, MAX_PLAYERS, NUM_ANIMALS, TOKENS_PER_ANIMAL, TOWERS

Array = npt.NDArray[Any]
_ANIMALS = np.arange(NUM_ANIMALS)
_EYE = np.eye(NUM_ANIMALS, dtype=np.int64)


@dataclass(frozen=True, slots=True)
class _Seen:
    """What the seat to move sees in each of N games (P seats): int64 counts per animal."""

    counts: Array  # (N, P, 6) every seat's collection
    rows: Array  # (N, P, 6) the rows' tokens
    row_in: Array  # (N, P) rows still in the round
    row_len: Array  # (N, P)
    out: Array  # (N, P) seats out of the round
    seat: Array  # (N,) the seat to move
    players_in: Array  # (N,)
    rounds_left: Array  # (N,) towers after the current one, as `TOWERS - round`
    tower_left: Array  # (N,) tokens left in the current tower
    down: Array  # (N, 2, 6) its own face-down tokens, one-hot (zero rows past those it kept)
    down_len: Array  # (N,)
    returned: Array  # (N, 6) its own returned tokens
    drawn: Array  # (N, 2) the tokens it drew and still holds (-1 where none)
    mask: Array  # (N, 20) its legal action ids

    @classmethod
    def of(cls, sim: TriquetaBatch, games: Array, mask: Array) -> _Seen:
        """The games `games` (indices) of `sim`, whose legal masks are `mask`."""
        seat = sim.current_player[games].astype(np.intp)
        down_len = sim.face_down_len[games, seat].astype(np.int64)
        own_down = sim.face_down[games, seat].astype(np.intp)
        kept = np.arange(MAX_FACE_DOWN) < down_len[:, None]
        pending = sim.pending[games]
        held = (pending >= 0) & (np.arange(2) < sim.pending_len[games, None])
        rounds = sim.round[games].astype(np.intp)
        return cls(
            counts=sim.counts[games].astype(np.int64), rows=sim.row_counts[games].astype(np.int64),
            row_in=sim.row_in[games], row_len=sim.row_len[games].astype(np.int64), out=sim.out[games], seat=seat,
            players_in=sim.players_in[games].astype(np.int64), rounds_left=TOWERS - rounds,
            tower_left=sim.tower_size[games, rounds].astype(np.int64),
            down=_EYE[np.maximum(own_down, 0)] * kept[:, :, None], down_len=down_len,
            returned=sim.returned[games, seat].astype(np.int64), drawn=np.where(held, pending, -1).astype(np.intp),
            mask=mask,
        )

    def subset(self, which: Array) -> _Seen:
        """The games `which` selects (a boolean mask or indices)."""
        return _Seen(**{name: getattr(self, name)[which] for name in self.__slots__})


#: The rulebook's points by animal and count, flat: animal a's count c is entry a * width + c.
_POINTS = POINTS_TAB.astype(np.int64).ravel()
_ANIMAL_BASE = _ANIMALS * POINTS_TAB.shape[1]


def _points(counts: Array) -> Array:
    """Collection points of counts (..., 6) (the six added one by one: faster than a sum over a
    six-long axis)."""
    per = np.take(_POINTS, counts + _ANIMAL_BASE)
    return per[..., 0] + per[..., 1] + per[..., 2] + per[..., 3] + per[..., 4] + per[..., 5]  # type: ignore[no-any-return]


def _potential(counts: Array, down: Array | None) -> Array:
    """`heuristics.potential` of counts (N, ..., 6) with each game's face-down tokens down (N, 2, 6):
    the most points of any subset T7 may add (the best (points, tokens) subset has those points)."""
    best = _points(counts)
    if down is None or not down.any():  # no face-down token held in any of these games
        return best
    shape = (len(counts),) + (1,) * (counts.ndim - 2) + (NUM_ANIMALS,)
    first, second = down[:, 0].reshape(shape), down[:, 1].reshape(shape)
    for extra in (first, second, first + second):
        best = np.maximum(best, _points(counts + extra))
    return best


def _gains(counts: Array, down: Array | None, added: Array) -> Array:
    """`heuristics.gain` for one seat per game, counts (N, 6), of each set of tokens added (N, K, 6)."""
    own = counts[:, None, :]
    return _potential(own + added, down) - _potential(own, down)


#: The value of a row out of play: below any gain, so no max picks it.
_OUT = np.iinfo(np.int64).min // 4


def _in_play(values: Array, row_in: Array) -> tuple[Array, Array]:
    """Row values (N, P) with the rows out of play at _OUT, and their best (N,)."""
    masked = np.where(row_in, values, _OUT)
    return masked, masked.max(1)


def _best_after(before: Array, after: Array) -> Array:
    """(N, P): the best row value once row r has grown to value `after[:, r]`, the other rows kept
    at `before` (`_in_play` values)."""
    result = np.empty_like(after)
    for r in range(before.shape[1]):
        result[:, r] = np.maximum(np.delete(before, r, axis=1).max(1), after[:, r])
    return result


def _keep_cost(seen: _Seen) -> Array:
    """`heuristics._keep_cost`, in its order of operations."""
    return (1.0 + 0.6 * seen.rounds_left) - 0.5 * seen.down_len


def _fresh(seen: _Seen) -> Array:
    """`choose` before a draw: take the best row (best value, then the shortest, then the last)
    when the tower is empty, when it beats the aspiration, or as the last seat in the round when
    one more draw is not worth 0.2 points; draw otherwise."""
    n, p = seen.row_in.shape
    g = np.arange(n)
    own = seen.counts[g, seen.seat]
    values = _gains(own, seen.down, seen.rows)
    key = np.where(seen.row_in, (values * 64 - seen.row_len) * 8 + np.arange(p), _OUT)
    best = key.argmax(1)
    best_value = values[g, best]
    per_player = seen.tower_left / np.maximum(seen.players_in, 1)
    aspiration = 1.5 + np.minimum(5.0, per_player * 0.9)
    last = seen.players_in == 1
    take = (seen.tower_left == 0) | (~last & (best_value >= aspiration))
    weigh = np.flatnonzero(last & (seen.tower_left > 0))
    if weigh.size:
        draw_value = _last_draw_value(seen.subset(weigh), own[weigh], best[weigh], best_value[weigh])
        take[weigh] = draw_value <= 0.2
    return np.where(take, best, DRAW_ID)


def _last_draw_value(seen: _Seen, own: Array, best: Array, base: Array) -> Array:
    """`heuristics._draw_value_for_last_player` on the best row: the expected gain of one more draw,
    the next token drawn from what the seat has not seen."""
    n = len(own)
    left = TOKENS_PER_ANIMAL - seen.counts.sum(1) - seen.rows.sum(1) - seen.down.sum(1) - seen.returned
    total = left.sum(1, keepdims=True)
    probs = np.where(total > 0, left / np.maximum(total, 1), 1.0 / NUM_ANIMALS)
    row = seen.rows[np.arange(n), best]
    placed = _gains(own, seen.down, row[:, None, :] + _EYE)
    kept = (base[:, None] + _gains(own, seen.down, np.broadcast_to(_EYE, (n, NUM_ANIMALS, NUM_ANIMALS)))
            - _keep_cost(seen)[:, None])
    kept = np.where((seen.down_len < MAX_FACE_DOWN)[:, None], kept, -np.inf)
    best_use = np.maximum(placed, kept)
    expected = np.zeros(n)
    for token in range(NUM_ANIMALS):  # in the heuristic's order, so the float sum is the same
        expected += probs[:, token] * best_use[:, token]
    return expected - base


def _after_draw(seen: _Seen) -> Array:
    """`choose` with drawn tokens: the legal action of the best score (the lowest id on a tie):
    placing scores how it moves my best row and the next seats' (`_placement_score`), keeping
    its gain less the keep's cost, returning a token to the box -0.25."""
    n, p = seen.row_in.shape
    g = np.arange(n)
    scores = np.full(seen.mask.shape, -np.inf)
    scores[:, DISCARD_ID:DISCARD_ID + 2] = -0.25
    own = seen.counts[g, seen.seat]
    own_rows, own_before = _in_play(_gains(own, seen.down, seen.rows), seen.row_in)
    others = [(seen.seat + offset) % p for offset in range(1, p)]
    their_rows = [_in_play(_gains(seen.counts[g, o], None, seen.rows), seen.row_in) for o in others]
    for slot in range(2):
        token = _EYE[np.maximum(seen.drawn[:, slot], 0)][:, None, :]
        grown = seen.rows + token
        mine = _best_after(own_rows, _gains(own, seen.down, grown)) - own_before[:, None]
        theirs = np.zeros((n, p))
        for offset, (other, (rows, before)) in enumerate(zip(others, their_rows, strict=True), start=1):
            delta = _best_after(rows, _gains(seen.counts[g, other], None, grown)) - before[:, None]
            weighted = (0.6 if offset == 1 else 0.35) * delta
            theirs += np.where(seen.out[g, other][:, None], 0.0, weighted)
        start = PLACE_ID + slot * MAX_PLAYERS
        scores[:, start:start + p] = 0.7 * mine - theirs
        scores[:, KEEP_ID + slot] = _gains(own, seen.down, token)[:, 0] - _keep_cost(seen)
    scores[~seen.mask] = -np.inf
    return scores.argmax(1)  # type: ignore[no-any-return]


def greedy_actions(sim: BatchSimulator, rng: np.random.Generator,
                   active: npt.NDArray[np.bool_] | None = None) -> npt.NDArray[np.intp]:
    """The greedy bot's action id for the seat to move in every game (in the games `active` marks
    only, when given; 0 elsewhere). `rng` is unused: Triqueta's greedy breaks ties by a fixed rule."""
    if not isinstance(sim, TriquetaBatch):
        raise TypeError(f"Triqueta's batched greedy policy plays a TriquetaBatch, not {type(sim).__name__}")
    games = np.arange(sim.num_envs) if active is None else np.flatnonzero(active)
    drew = sim.pending_len[games] > 0
    mask = sim.legal_mask()
    chosen = np.zeros(sim.num_envs, np.intp)
    for which, choose in ((games[drew], _after_draw), (games[~drew], _fresh)):
        if which.size:
            chosen[which] = choose(_Seen.of(sim, which, mask[which]))
    return chosen
