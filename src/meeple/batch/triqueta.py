"""Triqueta's batched simulator: N games of one table as numpy arrays, stepped together (issue #32).

Every game passes through the states of `meeple.games.triqueta` (T1-T9) with the same seed and
actions: the same legal action ids, scores, observations (`meeple.envs.encoders.triqueta`'s, float32,
exactly: each value comes from a table computed with the encoder's own float64 arithmetic) and end
(tests/batch/test_triqueta_differential.py). Rows, collections and returned tokens are held as counts
per animal, which is all any view shows; `export` rebuilds an engine state (rows and returned tokens
sorted, since their order is seen by nobody's encoder).

Layout (N games, P seats, 6 animals): towers (N, 4, 15) with sizes (N, 4), a draw pops the top of
the current one (T2); rows (N, P, 6) counts, their lengths and in-play flags (T5); collections
(N, P, 6); face-down tokens (N, P, 2) in the order kept (T4); returned tokens (N, P, 6) (T9);
tokens gone unseen (N,) (T6); the drawn tokens (N, 2) with their count and the kind of action done
with the first duo token.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from meeple.batch import rng as brng
from meeple.batch import triqueta_layout as L
from meeple.batch.checks import checked_actions
from meeple.batch.protocol import StepResult
from meeple.games.triqueta.actions import DISCARD, KEEP, NUM_ACTIONS, PLACE
from meeple.games.triqueta.components import (
    MAX_FACE_DOWN,
    MAX_PLAYERS,
    NUM_ANIMALS,
    NUM_TOKENS,
    TOKENS_PER_ANIMAL,
    TOKENS_PER_TOWER,
    TOWERS,
    TREE_TILES,
    VALUES,
    all_tokens,
)
from meeple.games.triqueta.game import TriquetaGame
from meeple.games.triqueta.scoring import ROCK_POINTS, TREE_POINTS, animal_points
from meeple.games.triqueta.state import USED, TriquetaState

Array = npt.NDArray[Any]
A = NUM_ANIMALS
#: Action ids (actions.py): take row r is r, draw is 5, place (row r, slot s) 6 + 5s + r, keep slot s
#: 16 + s, discard slot s 18 + s.
DRAW_ID = MAX_PLAYERS
PLACE_ID = DRAW_ID + 1
KEEP_ID = PLACE_ID + 2 * MAX_PLAYERS
DISCARD_ID = KEEP_ID + 2
#: `used` codes: nothing done yet with a duo draw, then the kind done with its first token.
USED_CODES = ("", PLACE, KEEP, DISCARD)
NONE_USED, PLACED, KEPT, DISCARDED = range(4)
#: Decks shuffled ahead for auto-resets (one vectorised shuffle each time the stock runs out).
DECK_STOCK = 1024

_BIG = 16  # counts never reach this: tables indexed by a count are this long


# The encoder's scalings as float64 operands: a ufunc computes k * c or k / d in float64, exactly as
# the encoder's Python arithmetic, and casts to float32 on writing, as the encoder's vector does.
_INV_TOWER = np.float64(1.0 / TOKENS_PER_TOWER)
_INV_ANIMAL = np.float64(1.0 / TOKENS_PER_ANIMAL)  # the encoder's repeated `+= 1 / 10` gives the same float32
_HALF = np.float64(1.0 / MAX_FACE_DOWN)
_NUM_TOKENS = np.float64(NUM_TOKENS)
_TREE_TILES = np.float64(TREE_TILES)
_MAX_FACE_DOWN = np.float64(MAX_FACE_DOWN)
_MAX_RETURNED = np.float64(L.MAX_RETURNED)
_AR = np.arange(16)
_UNSAFE: Final = "unsafe"  # writes into the float32 buffer cast from int, bool or float64


def _score_into(points: Array, out: Array) -> None:
    """The encoder's score scaling, min(1, max(0, (points - MIN_SCORE) / SCORE_SPAN)), into `out`."""
    scaled = np.subtract(points, L.MIN_SCORE, dtype=np.float64)
    scaled /= L.SCORE_SPAN
    np.clip(scaled, 0.0, 1.0, out=scaled)
    np.copyto(out, scaled, casting=_UNSAFE)


#: Points of an animal by count (the rulebook's table), per animal: (6, 16).
POINTS_TAB = np.array([[animal_points(k, VALUES[a]) for k in range(_BIG)] for a in range(A)], dtype=np.int32)
_ANIMALS = np.arange(A)


def _points(counts: Array) -> Array:
    """Collection points of counts (..., 6)."""
    return POINTS_TAB[_ANIMALS, counts.astype(np.intp)].sum(-1)  # type: ignore[no-any-return]


def _gain(counts: Array, token: Array, times: int = 1) -> Array:
    """Points gained by adding `times` tokens of animal `token` to `counts` (rows: one seat each)."""
    rows = np.arange(len(counts))
    tok = np.maximum(token, 0).astype(np.intp)
    c = counts[rows, tok].astype(np.intp)
    return POINTS_TAB[tok, c + times] - POINTS_TAB[tok, c]


def _face_down_choice(counts: Array, face_down: Array, kept: Array) -> tuple[Array, Array]:
    """T7 over seats at once: the points gained and which face-down tokens (N, 2 bool) to add,
    the subset maximising (score, tokens), the first of {}, {0}, {1}, {0, 1} on a tie, as
    `scoring.best_face_down_choice`."""
    t0, t1 = face_down[:, 0], face_down[:, 1]
    g0 = _gain(counts, t0)
    g1 = _gain(counts, t1)
    g01 = np.where(t0 == t1, _gain(counts, t0, 2), g0 + g1)
    neg = np.iinfo(np.int32).min // 4
    has0, has1 = kept >= 1, kept >= 2
    keys = np.stack([np.zeros_like(g0), np.where(has0, 4 * g0 + 1, neg), np.where(has1, 4 * g1 + 1, neg),
                     np.where(has1, 4 * g01 + 2, neg)], axis=1)
    best = keys.argmax(1)
    gain = np.stack([np.zeros_like(g0), g0, g1, g01], axis=1)[np.arange(len(best)), best]
    add = np.stack([(best == 1) | (best == 3), (best == 2) | (best == 3)], axis=1)
    return gain, add


class TriquetaBatch:
    """N games of Triqueta at one table (2-5 seats; the duo option T9 at two), in lockstep."""

    game = TriquetaGame()

    def __init__(self, num_envs: int, num_players: int, options: Mapping[str, Any] | None = None,
                 seed: int = 0) -> None:
        resolved = self.game.resolve_options(dict(options or {}))
        self.game.check_players(num_players)
        self.game.check_options(num_players, resolved)
        self.options = resolved
        self.duo = bool(resolved["duo"])
        self.num_envs = n = int(num_envs)
        self.num_players = p = int(num_players)
        self.num_actions = NUM_ACTIONS
        self.obs_shape: tuple[int, ...] = (L.SIZE,)
        self._rows = np.arange(n)
        self._seats = np.arange(p)
        i8 = np.int8
        self.towers = np.zeros((n, TOWERS, TOKENS_PER_TOWER), i8)
        self.tower_size = np.zeros((n, TOWERS), i8)
        self.round = np.zeros(n, i8)
        self.row_counts = np.zeros((n, p, A), i8)
        self.row_len = np.zeros((n, p), i8)
        self.row_in = np.zeros((n, p), bool)
        self.out = np.zeros((n, p), bool)
        self.players_in = np.zeros(n, i8)
        self.rock = np.zeros(n, i8)
        self.trees = np.zeros((n, p), i8)
        self.counts = np.zeros((n, p, A), i8)
        self.face_down = np.full((n, p, MAX_FACE_DOWN), -1, i8)
        self.face_down_len = np.zeros((n, p), i8)
        self.returned = np.zeros((n, p, A), i8)
        self.returned_len = np.zeros((n, p), i8)
        self.gone = np.zeros(n, i8)
        self.pending = np.full((n, 2), USED, i8)
        self.pending_len = np.zeros(n, i8)
        self.used = np.zeros(n, i8)
        self.current_player = np.zeros(n, i8)
        # Kept up to date by the step, for `observe`: tokens in rows and collections per animal
        # (animal-major), each seat's visible score and the T7 gain its face-down tokens would add.
        self.seen_public = np.zeros((A, n), i8)
        self.score = np.zeros((n, p), np.int32)
        self.down_gain = np.zeros((n, p), np.int32)
        self.seeds = np.zeros(n, np.int64)
        self._next_seed = 0
        self._stock_from = 0
        self._stock = np.zeros((0, NUM_TOKENS), i8)
        self._mask: npt.NDArray[np.bool_] | None = None
        # The observation buffer, feature-major; the rows no game changes are written here once.
        self._obs = np.zeros((L.SIZE, n), np.float32)
        self._obs[L.PLAYERS_ONEHOT + p - L.MIN_PLAYERS] = 1.0
        self._obs[L.DUO] = float(self.duo)
        self._obs[L.SEATS + L.S_PRESENT:L.SEATS + p * L.SEAT_SIZE:L.SEAT_SIZE] = 1.0
        self._obs_view = self._obs.T.view()
        self._obs_view.flags.writeable = False
        self.reset(seed)

    # -- starting games -------------------------------------------------------------------------
    def reset(self, seed: int) -> None:
        """Slot i starts `new_game(P, seed=seed + i)`; auto-resets continue from seed + N."""
        n = self.num_envs
        self._stock = self._shuffled(seed, n)
        self._stock_from = seed
        self._next_seed = seed
        self._start(self._rows, self._take_seeds(n))

    def _shuffled(self, first: int, count: int) -> Array:
        """Decks of seeds first .. first + count - 1, each shuffled as `TriquetaState.initial` (T2)."""
        decks = np.tile(np.array(all_tokens(), np.int8), (count, 1))
        brng.shuffle(brng.consecutive_states(first, count), decks)
        return decks

    def _take_seeds(self, count: int) -> Array:
        seeds = np.arange(self._next_seed, self._next_seed + count, dtype=np.int64)
        self._next_seed += count
        return seeds

    def _start(self, slots: Array, seeds: Array) -> None:
        """New games in `slots` (T1: seat 0 holds the rock and begins; T3: round 1 uses tower 0)."""
        self._mask = None
        end = int(seeds[-1]) + 1
        if seeds[0] < self._stock_from or end > self._stock_from + len(self._stock):
            self._stock_from = int(seeds[0])
            self._stock = self._shuffled(self._stock_from, max(DECK_STOCK, len(seeds)))
        decks = self._stock[seeds - self._stock_from]
        self.towers[slots] = decks.reshape(len(slots), TOWERS, TOKENS_PER_TOWER)
        self.tower_size[slots] = TOKENS_PER_TOWER
        self.round[slots] = 0
        self.row_counts[slots] = 0
        self.row_len[slots] = 0
        self.row_in[slots] = True
        self.out[slots] = False
        self.players_in[slots] = self.num_players
        self.rock[slots] = 0
        self.trees[slots] = 0
        self.counts[slots] = 0
        self.face_down[slots] = -1
        self.face_down_len[slots] = 0
        self.returned[slots] = 0
        self.returned_len[slots] = 0
        self.gone[slots] = 0
        self.pending[slots] = USED
        self.pending_len[slots] = 0
        self.used[slots] = NONE_USED
        self.current_player[slots] = 0
        self.seen_public[:, slots] = 0
        self.score[slots] = self._scores(slots)
        self.down_gain[slots] = 0
        self.seeds[slots] = seeds

    # -- what may be done -----------------------------------------------------------------------
    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """(N, 20): Action B on rows in play, Action A while the tower has tokens (T5); after a draw,
        place / keep (T4) / discard (T9) each drawn token, never the kind done with the other.
        Computed once per position (read-only: `step` checks actions against it)."""
        if self._mask is not None:
            return self._mask
        n, p = self.num_envs, self.num_players
        mask = np.zeros((n, NUM_ACTIONS), bool)
        fresh = self.pending_len == 0
        mask[:, :p] = self.row_in & fresh[:, None]
        mask[:, DRAW_ID] = fresh & (self.tower_size[self._rows, self.round] > 0)
        held = (self.pending >= 0) & (np.arange(2) < self.pending_len[:, None])
        cur = self.current_player.astype(np.intp)
        place = held & (self.used != PLACED)[:, None]
        for slot in range(2):
            start = PLACE_ID + slot * MAX_PLAYERS
            mask[:, start:start + p] = place[:, slot, None] & self.row_in
        mask[:, KEEP_ID:KEEP_ID + 2] = held & ((self.face_down_len[self._rows, cur] < MAX_FACE_DOWN)
                                                & (self.used != KEPT))[:, None]
        if self.duo:
            mask[:, DISCARD_ID:DISCARD_ID + 2] = held & ((self.used != DISCARDED) & (self.pending_len == 2))[:, None]
        mask.flags.writeable = False
        self._mask = mask
        return mask

    # -- playing --------------------------------------------------------------------------------
    def step(self, actions: npt.ArrayLike, active: npt.NDArray[np.bool_] | None = None) -> StepResult:
        """Apply one legal action id per game (only in the games `active` marks, when given: the
        others keep their state and ignore their action); games that end are scored and restarted."""
        n, p = self.num_envs, self.num_players
        live, a = checked_actions(actions, self.legal_mask(), active)
        act = np.zeros(n, np.int64)
        act[live] = a  # by slot, for the per-kind subsets below
        self._mask = None
        cur = self.current_player.astype(np.intp)
        passing: list[Array] = []

        take = live[a < DRAW_ID]
        ended = np.zeros(0, np.intp)
        if take.size:
            ended, passed = self._take(take, act[take], cur[take])
            passing.append(passed)
        draw = live[a == DRAW_ID]
        if draw.size:
            self._draw(draw)
        follow = live[a > DRAW_ID]
        if follow.size:
            passing.append(self._deal_with(follow, act[follow], cur[follow]))
        for games in passing:
            if games.size:
                self._pass_turn(games, cur[games])

        rewards = np.zeros((n, p), np.float32)
        terminated = np.zeros(n, bool)
        final = np.zeros((n, p), np.int32)
        if ended.size:
            ended.sort()  # auto-reset seeds go to the lowest slot first
            final[ended], rewards[ended] = self._finish(ended)
            terminated[ended] = True
            self._start(ended, self._take_seeds(len(ended)))
        return StepResult(rewards, terminated, final)

    def _take(self, g: Array, row: Array, seat: Array) -> tuple[Array, Array]:
        """Action B: the seat collects the row and drops out; the last one takes the rock, and the
        round ends (T3, T6). Returns the games that ended and those whose turn passes."""
        before = _points(self.counts[g, seat])
        self.counts[g, seat] += self.row_counts[g, row]
        self.score[g, seat] += _points(self.counts[g, seat]) - before
        self.row_counts[g, row] = 0
        self.row_len[g, row] = 0
        self.row_in[g, row] = False
        self.out[g, seat] = True
        self.players_in[g] -= 1
        last = self.players_in[g] == 0
        e, es = g[last], seat[last]
        if e.size:
            self.rock[e] = es
            rnd = self.round[e].astype(np.intp)
            self.gone[e] += self.tower_size[e, rnd]
            self.tower_size[e, rnd] = 0
            self.round[e] += 1
            going = self.round[e] < TOWERS
            c, cs = e[going], es[going]
            self.trees[c, cs] += 1  # T3: the rock holder takes the next tower's tree tile
            self.row_in[c] = True
            self.out[c] = False
            self.players_in[c] = self.num_players
            self.current_player[c] = cs
            self.score[e] = self._scores(e)  # the rock and a tree tile changed hands
            e = e[~going]
        self._update_gain(g, seat)
        return e, g[~last]

    def _draw(self, g: Array) -> None:
        """Action A: pop the current tower's top (two in the duo variant while there are two, T9)."""
        rnd = self.round[g].astype(np.intp)
        size = self.tower_size[g, rnd].astype(np.intp)
        self.pending[g, 0] = self.towers[g, rnd, size - 1]
        size -= 1
        self.pending[g, 1] = USED
        self.pending_len[g] = 1
        if self.duo:
            two = size > 0
            g2 = g[two]
            self.pending[g2, 1] = self.towers[g2, rnd[two], size[two] - 1]
            self.pending_len[g2] = 2
            size -= two
        self.tower_size[g, rnd] = size
        self.used[g] = NONE_USED

    def _deal_with(self, g: Array, act: Array, seat: Array) -> Array:
        """Place, keep or discard a drawn token; returns the games whose turn is over."""
        kind = np.where(act < KEEP_ID, PLACED, np.where(act < DISCARD_ID, KEPT, DISCARDED))
        slot = np.where(kind == PLACED, (act - PLACE_ID) // MAX_PLAYERS,
                        np.where(kind == KEPT, act - KEEP_ID, act - DISCARD_ID))
        token = self.pending[g, slot].astype(np.intp)
        pl = kind == PLACED
        if pl.any():
            gp, row, tp = g[pl], (act[pl] - PLACE_ID) % MAX_PLAYERS, token[pl]
            self.row_counts[gp, row, tp] += 1
            self.row_len[gp, row] += 1
            self.seen_public[tp, gp] += 1
        kp = kind == KEPT
        if kp.any():
            gk, sk = g[kp], seat[kp]
            self.face_down[gk, sk, self.face_down_len[gk, sk]] = token[kp]
            self.face_down_len[gk, sk] += 1
            self._update_gain(gk, sk)
        dc = kind == DISCARDED
        if dc.any():
            gd, sd = g[dc], seat[dc]
            self.returned[gd, sd, token[dc]] += 1
            self.returned_len[gd, sd] += 1
        self.pending[g, slot] = USED
        done = (self.pending_len[g] == 1) | ((self.pending[g, 0] < 0) & (self.pending[g, 1] < 0))
        gd = g[done]
        self.pending_len[gd] = 0
        self.used[gd] = NONE_USED
        keep_on = ~done
        self.used[g[keep_on]] = kind[keep_on]  # the second duo token still needs its action
        return gd  # type: ignore[no-any-return]

    def _pass_turn(self, g: Array, seat: Array) -> None:
        """Next seat clockwise still in the round (maybe the same one, T5)."""
        p = self.num_players
        nxt = np.full(len(g), -1, np.intp)
        out = self.out[g]
        for k in range(1, p + 1):
            cand = (seat + k) % p
            ok = (nxt < 0) & ~out[np.arange(len(g)), cand]
            nxt[ok] = cand[ok]
        self.current_player[g] = nxt

    def _finish(self, g: Array) -> tuple[Array, Array]:
        """T7 for every seat of the ended games, then final scores and T8 win shares."""
        p = self.num_players
        for seat in range(p):
            counts = self.counts[g, seat]
            _, add = _face_down_choice(counts, self.face_down[g, seat], self.face_down_len[g, seat])
            for j in range(MAX_FACE_DOWN):
                a = np.flatnonzero(add[:, j])
                self.counts[g[a], seat, self.face_down[g[a], seat, j]] += 1
        scores = self._scores(g)
        key = scores.astype(np.int64) * 64 + self.counts[g].sum(-1)  # T8: score, then tokens
        won = key == key.max(1, keepdims=True)
        shares = (won / won.sum(1, keepdims=True)).astype(np.float32)
        return scores, shares

    # -- what is seen ---------------------------------------------------------------------------
    def _scores(self, g: Array | slice) -> Array:
        """Visible scores (N, P): collections, the starting rock and tree tiles."""
        rock = self.rock[g].astype(np.intp)[:, None] == self._seats
        points = _points(self.counts[g]) + ROCK_POINTS * rock + TREE_POINTS * self.trees[g]
        return points.astype(np.int32)  # type: ignore[no-any-return]

    def scores(self) -> npt.NDArray[np.int32]:
        return self.score.copy()

    def _update_gain(self, g: Array, seat: Array) -> None:
        """The T7 gain of `seat`'s face-down tokens in games `g`, after its collection or tokens changed."""
        holding = self.face_down_len[g, seat] > 0
        g, seat = g[holding], seat[holding]
        self.down_gain[g, seat] = _face_down_choice(self.counts[g, seat], self.face_down[g, seat],
                                                    self.face_down_len[g, seat])[0]

    def observe(self, seats: npt.ArrayLike | None = None) -> npt.NDArray[np.float32]:
        """(N, 327): the encoder on `view(seat)`, from what that seat may see only.

        The result is a read-only view of the simulator's own buffer, valid until the next
        `observe`, `step`, `reset` or `determinize` (copy it to keep it): the buffer is held
        feature-major, (327, N), so each feature is one contiguous write over all games, and the
        rows no game changes (the player count, duo, seats present, padding) are written once.
        Every value is computed by a ufunc writing straight into the buffer with the encoder's
        float64 arithmetic, cast to float32 as the encoder casts it."""
        n, p = self.num_envs, self.num_players
        o = self._obs
        cur = self.current_player.astype(np.intp)
        seat = cur if seats is None else np.asarray(seats).astype(np.intp)
        ar = _AR[:, None]
        np.equal(self.round, ar[:TOWERS], out=o[L.ROUND:L.ROUND + TOWERS], casting=_UNSAFE)
        rel_seats = seat + self._seats[:, None]  # (P, N): relative seat j is seat (seat + j) % P
        rel_seats %= p
        np.equal(rel_seats, cur, out=o[L.CURRENT:L.CURRENT + p], casting=_UNSAFE)
        np.equal(rel_seats, self.rock, out=o[L.ROCK:L.ROCK + p], casting=_UNSAFE)
        np.multiply(self.tower_size.T, _INV_TOWER, out=o[L.TOWER_SIZES:L.TOWER_SIZES + TOWERS], casting=_UNSAFE)
        np.divide(self.gone, _NUM_TOKENS, out=o[L.UNSEEN], casting=_UNSAFE)
        held = self.pending >= 0  # dealt-with and unused slots hold USED
        np.divide(held.sum(1), float(L.SLOTS), out=o[L.PENDING_COUNT], casting=_UNSAFE)

        block = o[L.ROWS:L.ROWS + p * L.ROW_SIZE].reshape(p, L.ROW_SIZE, n)
        np.copyto(block[:, 0], self.row_in.T, casting=_UNSAFE)
        np.multiply(self.row_len.T, _INV_TOWER, out=block[:, 1], casting=_UNSAFE)
        np.multiply(self.row_counts.transpose(1, 2, 0), _INV_ANIMAL, out=block[:, 2:], casting=_UNSAFE)
        seen = self.seen_public.astype(np.int8)  # (6, N), a copy the observer's own tokens are added to

        # The drawn tokens: seen by the seat to move only (the game is never over here). Code per
        # slot: the token, A once dealt with, A + 1 (no one-hot) when not shown.
        looking = (seat == cur) & (self.pending_len > 0)
        shown = looking[:, None] & (_AR[:L.SLOTS] < self.pending_len[:, None])
        codes = np.where(shown, np.where(held, self.pending, A), A + 1).T
        pend = o[L.PENDING:L.PENDING + L.SLOTS * L.PENDING_SIZE].reshape(L.SLOTS, L.PENDING_SIZE, n)
        np.equal(codes[:, None, :], ar[:L.PENDING_SIZE], out=pend, casting=_UNSAFE)
        seen += (codes[0] == ar[:A]).view(np.int8)
        seen += (codes[1] == ar[:A]).view(np.int8)
        used = np.where(looking, self.used, 0)
        np.equal(used, ar[1:len(USED_CODES)], out=o[L.USED_KIND:L.USED_KIND + len(L.USED_KINDS)], casting=_UNSAFE)

        rows = self._rows
        kept = _AR[:MAX_FACE_DOWN] < self.face_down_len[rows, seat][:, None]
        own_down = np.where(kept, self.face_down[rows, seat], -1)
        down_counts = (own_down[:, 0] == ar[:A]).view(np.int8) + (own_down[:, 1] == ar[:A]).view(np.int8)
        np.multiply(down_counts, _HALF, out=o[L.OWN:L.OWN + A], casting=_UNSAFE)
        own_returned = self.returned[rows, seat].T
        np.multiply(own_returned, _INV_ANIMAL, out=o[L.OWN + A:L.OWN + 2 * A], casting=_UNSAFE)
        seen += down_counts
        seen += own_returned
        scores = self.score
        own = rows * p + seat
        _score_into(scores.reshape(-1)[own] + self.down_gain.reshape(-1)[own], o[L.OWN + 2 * A])

        flat = rel_seats + rows * p  # (P, N) into arrays of shape (N, P, ...)
        seats_block = o[L.SEATS:L.SEATS + p * L.SEAT_SIZE].reshape(p, L.SEAT_SIZE, n)
        np.copyto(seats_block[:, L.S_OUT], self.out.reshape(-1)[flat], casting=_UNSAFE)
        np.divide(self.trees.reshape(-1)[flat], _TREE_TILES, out=seats_block[:, L.S_TREES], casting=_UNSAFE)
        np.divide(self.face_down_len.reshape(-1)[flat], _MAX_FACE_DOWN, out=seats_block[:, L.S_FACE_DOWN],
                  casting=_UNSAFE)
        np.divide(self.returned_len.reshape(-1)[flat], _MAX_RETURNED, out=seats_block[:, L.S_RETURNED],
                  casting=_UNSAFE)
        _score_into(scores.reshape(-1)[flat], seats_block[:, L.S_SCORE])
        np.equal(rel_seats, self.rock, out=seats_block[:, L.S_ROCK], casting=_UNSAFE)
        np.equal(rel_seats, cur, out=seats_block[:, L.S_TURN], casting=_UNSAFE)
        collected = self.counts.reshape(-1, A)[flat].transpose(0, 2, 1)  # (P, 6, N)
        animals = seats_block[:, L.S_ANIMALS:].reshape(p, A, 1 + L.COUNT_BINS, n)
        np.multiply(collected, _INV_ANIMAL, out=animals[:, :, 0], casting=_UNSAFE)
        np.equal(np.minimum(collected, L.COUNT_BINS - 1)[:, :, None, :], ar[:L.COUNT_BINS], out=animals[:, :, 1:],
                 casting=_UNSAFE)
        np.multiply(TOKENS_PER_ANIMAL - seen, _INV_ANIMAL, out=o[L.UNKNOWN:L.UNKNOWN + A], casting=_UNSAFE)
        return self._obs_view

    # -- hidden information ---------------------------------------------------------------------
    def determinize(self, seats: npt.ArrayLike, seed: int) -> None:
        """In game i, re-deal every token seat `seats[i]` has not seen, as the engine's
        `determinize(seat, Rng(seed + i))` does: the unseen tokens in animal order, shuffled, then
        dealt to the towers (bottom up), the tokens gone unseen, other seats' face-down and returned
        tokens, and the tokens another seat is looking at. Sizes are kept."""
        self._mask = None
        n, p = self.num_envs, self.num_players
        rows = self._rows
        observer = np.asarray(seats).astype(np.intp)
        cur = self.current_player.astype(np.intp)
        drew = observer == cur
        held = (self.pending >= 0) & (np.arange(2) < self.pending_len[:, None])
        seen = self.counts.sum(1, dtype=np.int64) + self.row_counts.sum(1, dtype=np.int64)
        own_down = self.face_down[rows, observer]
        seen += _per_animal(own_down, np.arange(MAX_FACE_DOWN) < self.face_down_len[rows, observer][:, None])
        seen += self.returned[rows, observer]
        seen += _per_animal(self.pending, held & drew[:, None])
        left = TOKENS_PER_ANIMAL - seen
        size = left.sum(1)
        unknown = (np.arange(NUM_TOKENS)[None, :, None] >= np.cumsum(left, 1)[:, None, :]).sum(2).astype(np.int8)
        brng.shuffle(brng.consecutive_states(seed, n), unknown, size)
        cursor = np.zeros(n, np.intp)

        def deal(width: int, count: Array) -> Array:
            """The next `count` (per game, at most `width`) unknown tokens; -1 past the count."""
            idx = np.minimum(cursor[:, None] + np.arange(width), NUM_TOKENS - 1)
            got = np.where(np.arange(width) < count[:, None], unknown[rows[:, None], idx], -1)
            cursor[:] += count
            return got.astype(np.int8)

        for t in range(TOWERS):
            sizes = self.tower_size[:, t].astype(np.intp)
            fresh = deal(TOKENS_PER_TOWER, sizes)
            self.towers[:, t] = np.where(np.arange(TOKENS_PER_TOWER) < sizes[:, None], fresh, self.towers[:, t])
        cursor += self.gone
        for s in range(p):
            other = observer != s
            down = deal(MAX_FACE_DOWN, np.where(other, self.face_down_len[:, s], 0))
            self.face_down[other, s] = down[other]
            back = deal(NUM_TOKENS // 2, np.where(other, self.returned_len[:, s], 0))
            self.returned[other, s] = _per_animal(back, back >= 0)[other]
        for slot in range(2):
            hidden = held[:, slot] & ~drew
            self.pending[hidden, slot] = unknown[rows[hidden], cursor[hidden]]
            cursor += hidden
        if not (cursor == size).all():
            raise AssertionError("determinize left tokens unplaced")
        for s in range(p):  # other seats' face-down tokens were re-dealt
            self.down_gain[:, s] = 0
            self._update_gain(rows, np.full(n, s))

    # -- engine states --------------------------------------------------------------------------
    def export(self, i: int) -> TriquetaState:
        """Slot i as an engine state: rows and returned tokens sorted, the tokens gone unseen the
        sorted rest of the box (no view shows an order for any of them)."""
        p = self.num_players
        box = [TOKENS_PER_ANIMAL] * A
        towers = [[int(t) for t in self.towers[i, k, :self.tower_size[i, k]]] for k in range(TOWERS)]
        rows: list[list[int] | None] = []
        for r in range(p):
            rows.append(_tokens(self.row_counts[i, r]) if self.row_in[i, r] else None)
        face_down = [[int(t) for t in self.face_down[i, s, :self.face_down_len[i, s]]] for s in range(p)]
        returned = [_tokens(self.returned[i, s]) for s in range(p)]
        pending = [int(t) for t in self.pending[i, :self.pending_len[i]]]
        placed = [t for tower in towers for t in tower] + [t for row in rows if row for t in row]
        placed += [t for tokens in face_down + returned for t in tokens] + [t for t in pending if t >= 0]
        placed += [a for s in range(p) for a in range(A) for _ in range(self.counts[i, s, a])]
        for t in placed:
            box[t] -= 1
        return TriquetaState(
            game=self.game, num_players=p, options=dict(self.options), current=int(self.current_player[i]),
            over=False, seed=int(self.seeds[i]), towers=towers, round=int(self.round[i]), rows=rows,
            out=[bool(x) for x in self.out[i]], rock=int(self.rock[i]), trees=[int(x) for x in self.trees[i]],
            counts=[[int(x) for x in self.counts[i, s]] for s in range(p)], face_down=face_down,
            returned=returned, gone=[a for a in range(A) for _ in range(box[a])], pending=pending,
            used_kind=USED_CODES[int(self.used[i])], final=None,
        )


def _per_animal(tokens: Array, valid: Array) -> Array:
    """Counts per animal (k, 6) of the valid tokens in each row of `tokens` (k, m)."""
    return ((tokens[:, :, None] == _ANIMALS) & valid[:, :, None]).sum(1)  # type: ignore[no-any-return]


def _tokens(counts: Array) -> list[int]:
    """Counts per animal as the sorted list of tokens."""
    return [a for a in range(A) for _ in range(int(counts[a]))]
