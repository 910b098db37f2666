"""Triominos as N games in arrays (issue #32): the engine's rules (M1-M10) applied to every game at once.

Every game passes through the states of `meeple.games.triominos` with the same seed and actions:
the same legal moves, scores, observations (`meeple.envs.encoders.triominos`'s, float32, exactly),
round ends and game end (tests/batch/test_triominos_differential.py). Each game keeps its own
SplitMix64 state, so the deals of later rounds (M10) and `determinize` draw what the engine draws.

Actions are the factored space of `meeple.batch.triominos_layout` (tile x open-cell slot, then
draw, pass, stop), not the engine's 258,779 ids: a mask over those for thousands of games would
not fit. `tests.batch` maps them to the engine through `envs.encoders.triominos_actions`.

Layout (N games, P seats, 56 tiles): the pool (N, 56) in the engine's order (a draw takes the
last), racks (N, P, 56) bool (no view shows a rack's order, and the engine's rules never read it:
`export` sorts them); the board over the engine's stored lattice (geometry): the tile on each
cell, the number + 1 on each point and the covered cells around it, as `placements.Board` keeps
them, the placements in order, the open cells as sorted slot keys (`slot_order`, each key naming
its cell) and each cell's corner pattern, refreshed when a tile touches the cell; the opening
draws (N, goes, P) (-1: no draw for that seat); per-round score parts and round results, grown
as a match needs more rounds.

The observation's board planes (about 39,000 floats per game) live in the simulator's own
(N, SIZE) buffer, updated as tiles are placed and cleared at a new round; `observe` writes only the
seat-dependent tail and returns that buffer (read-only), valid until the next `observe`, `step`,
`determinize` or `reset`: copy it to keep it (a copy of 4,096 games is 640 MB, several times
the cost of a step). `legal_mask` likewise returns its (N, 3,251) buffer read-only, kept up to
date by clearing last time's entries and setting this time's (a fresh mask costs a third of
a step).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from meeple.batch import rng as brng
from meeple.batch import triominos_layout as L
from meeple.batch.checks import checked_actions
from meeple.batch.protocol import StepResult
from meeple.games.triominos.components import FIT, NUM_TILES, NUMS, SUM
from meeple.games.triominos.game import TriominosGame
from meeple.games.triominos.geometry import CORNERS, EDGE_NBR, NUM_CELLS, NUM_POINTS, ORIGIN, TOUCH, cell_xyd, point_xy
from meeple.games.triominos.placements import BRIDGE, EMPTY, Board
from meeple.games.triominos.scoring import (
    BONUS_PART,
    BONUS_POINTS,
    DRAW_PENALTY,
    DRAWS,
    GOING_OUT,
    MAX_DRAWS,
    NO_PLAY,
    OPP_RACKS,
    OUT_BONUS,
    PARTS,
    RACK_LEFT,
    STOP_PENALTY,
    TILES,
)
from meeple.games.triominos.state import TriominosState, rack_size

Array = npt.NDArray[Any]
I64 = npt.NDArray[np.int64]
M = L.MAX_OPEN
#: Slot-key columns: up to MAX_OPEN open cells, room for the three a placement may open.
KEY_WIDTH = M + 3


# -- tables ----------------------------------------------------------------------------------
def _cell_tables() -> tuple[Array, Array, Array, Array, Array, Array]:
    """Per cell id: its corner points, edge neighbours, the 12 cells touching it, plane anchor,
    direction and slot key: the cell's `slot_order` rank times 2**CELL_BITS plus the cell, so
    sorted keys are the slots in order and each key names its cell."""
    corners = np.zeros((NUM_CELLS, 3), np.intp)
    edges = np.zeros((NUM_CELLS, 3), np.intp)
    touch = np.zeros((NUM_CELLS, 12), np.intp)
    anchor = np.zeros(NUM_CELLS, np.intp)
    order = np.zeros(NUM_CELLS, np.int64)
    for c in range(NUM_CELLS):
        x, y, d = cell_xyd(c)
        a, b = L.slot_order(x, y, d)
        order[c] = (a + 64) * 256 + b + 128  # both parts well inside 0..255 on the stored lattice
        if CORNERS[c] is not None:
            corners[c] = CORNERS[c]
            edges[c] = EDGE_NBR[c]
            touch[c] = TOUCH[c]
        if abs(x) <= L.REACH and abs(y) <= L.REACH:
            anchor[c] = L.anchor(x, y)
    key = (order << CELL_BITS) + np.arange(NUM_CELLS)
    direction = np.arange(NUM_CELLS) & 1
    return corners, edges, touch, anchor, direction, key.astype(np.int32)


CELL_BITS = (NUM_CELLS - 1).bit_length()
_CORNERS, _EDGES, _TOUCH, _CELL_ANCHOR, _CELL_DIR, _CELL_KEY = _cell_tables()
#: The key that pads the slot-key rows (sorts after every cell's key).
PAD = np.int32(_CELL_KEY.max() + 1)
_CELL_MASK = np.int32(NUM_CELLS - 1)
_POINT_ANCHOR = np.array([L.anchor(*point_xy(p)) if max(map(abs, point_xy(p))) <= L.REACH else 0
                          for p in range(NUM_POINTS)], np.intp)
_SUM = np.array(SUM, np.int64)
#: _SHOWN[t, r]: the numbers at corners 0, 1, 2 of tile t turned r steps (components.shown).
_SHOWN = np.array([[[NUMS[t][(k + r) % 3] for k in range(3)] for r in range(3)] for t in range(NUM_TILES)], np.intp)
#: Per corner pattern, the tiles that fit it (padded with NUM_TILES) and each tile's rotation (-1: none). An
#: open cell touches the board along an edge, so two of its corners are known and at most six
#: tiles fit, each in one rotation; the empty board's pattern (0) is never looked up here.
_FIT_WIDTH = max(len(f) for code, f in enumerate(FIT) if sum(v > 0 for v in (code // 49, code // 7 % 7, code % 7)) >= 2)
_FIT_TILES = np.full((len(FIT), _FIT_WIDTH), NUM_TILES, np.intp)
_FIT_ROT = np.full((len(FIT), NUM_TILES), -1, np.intp)
for _code, _fits in enumerate(FIT):
    for _t, _r in _fits:
        _FIT_ROT[_code, _t] = _r
    if len(_fits) <= _FIT_WIDTH:
        _FIT_TILES[_code, :len(_fits)] = [t for t, _ in _fits]
_BONUS_PART = np.array(BONUS_PART, np.intp)
_BONUS_POINTS = np.array(BONUS_POINTS, np.int64)
_TILE_AXIS = np.arange(NUM_TILES)
_PLACE_IDS = _TILE_AXIS * M  # slot 0 of each tile: the opening cell on an empty board
OUT, BLOCKED = 0, 1
END_NAMES = ("out", "blocked")


def _squash(scores: Array) -> Array:
    """The encoder's score scaling, in float64 as it computes it."""
    s = scores.astype(np.float64)
    out: Array = 0.5 + 0.5 * s / (np.abs(s) + 100.0)
    return out


class TriominosBatch:
    """N games of Triominos at one table (2-4 seats, every option) in lockstep; see the module
    docstring and meeple.batch.protocol."""

    game = TriominosGame()
    num_actions = L.FACTORED_SIZE

    def __init__(self, num_envs: int, num_players: int, options: Mapping[str, Any] | None = None,
                 seed: int = 0) -> None:
        self.game.check_players(num_players)
        resolved = self.game.resolve_options(dict(options or {}))
        self.game.check_options(num_players, resolved)
        self.options = resolved
        self.drawn_tile_only = bool(resolved["drawn_tile_only"])
        self.match = bool(resolved["match"])
        self.target = int(resolved["target"])
        self.num_envs = N = int(num_envs)
        self.num_players = P = int(num_players)
        self.obs_shape: tuple[int, ...] = (L.SIZE,)
        self._rows = np.arange(N)
        self._seats = np.arange(P)
        self.seeds = np.zeros(N, np.int64)
        self.rng = np.zeros(N, np.uint64)
        self.round = np.zeros(N, np.int64)
        self.pool = np.zeros((N, NUM_TILES), np.int8)
        self.pool_len = np.zeros(N, np.int64)
        self.rack = np.zeros((N, P, NUM_TILES), bool)
        self.rack_len = np.zeros((N, P), np.int64)
        self.occ = np.full((N, NUM_CELLS), EMPTY, np.uint8)
        self.vnum = np.zeros((N, NUM_POINTS), np.int8)
        self.fill = np.zeros((N, NUM_POINTS), np.int8)
        self.history = np.zeros((N, NUM_TILES, 3), np.int64)  # tile, cell, rotation
        self.placed = np.zeros(N, np.int64)
        self.open_keys = np.full((N, KEY_WIDTH), PAD, np.int32)
        self.open_len = np.zeros(N, np.int64)
        #: Per cell, the corner pattern (components.pattern) as of the last tile touching it: up to
        #: date on every open cell (a cell opens and changes only when a tile touches it).
        self.pattern = np.zeros((N, NUM_CELLS), np.int16)
        self.draws = np.zeros(N, np.int64)
        self.last_drawn = np.full(N, -1, np.int64)
        self.idle = np.zeros(N, np.int64)
        self.drawn = np.zeros((N, P), np.int64)
        self.opening = np.full((N, 1, P), -1, np.int8)
        self.goes = np.zeros(N, np.int64)
        self.opener = np.zeros(N, np.int64)
        self.current = np.zeros(N, np.int64)
        self.current_player = np.zeros(N, np.int8)
        self.totals = np.zeros((N, P), np.int64)
        self.parts = np.zeros((N, 1, P, len(PARTS)), np.int64)
        self.result_end = np.zeros((N, 1), np.int8)
        self.result_player = np.zeros((N, 1), np.int8)
        self.over_target = np.zeros(N, bool)
        self._obs = np.zeros((N, L.SIZE), np.float32)
        #: The tail after the planes, built per call in this small buffer and copied in one pass;
        #: the tiles placed and shown in the opening draw are kept here between calls.
        self._tail = np.zeros((N, L.SIZE - L.RACK), np.float32)
        self._tail[:, L.PLAYERS - L.RACK + P - 2] = 1.0
        self._tail[:, L.OPTIONS - L.RACK] = self.drawn_tile_only
        self._tail[:, L.OPTIONS - L.RACK + 1] = self.match
        self._tail[:, L.OPTIONS - L.RACK + 2] = self.target / (self.target + 400.0)
        self._mask = np.zeros((N, L.FACTORED_SIZE), bool)
        self._mask_ok = False
        self._set: Array = np.zeros(0, np.intp)  # the mask's entries set last time, flat
        self._next_seed = 0
        self.reset(seed)

    # -- starting games and rounds ----------------------------------------------------------
    def reset(self, seed: int) -> None:
        """Slot i starts `new_game(P, seed=seed + i)`; auto-resets continue from seed + N."""
        self._next_seed = seed + self.num_envs
        self._new_games(self._rows, seed + self._rows.astype(np.int64))

    def _new_games(self, g: I64, seeds: I64) -> None:
        self.seeds[g] = seeds
        self.rng[g] = seeds.astype(np.uint64)  # two's complement: seed & (2**64 - 1), as seed_from
        self.round[g] = 0
        self.totals[g] = 0
        self.parts[g] = 0
        self.over_target[g] = False
        self._start_rounds(g)

    def _grow(self, rounds: int, goes: int) -> None:
        """Room for `rounds` rounds of score parts and results and `goes` opening draws."""
        have = self.parts.shape[1]
        if rounds > have:
            more = max(rounds, 2 * have) - have
            N, P = self.num_envs, self.num_players
            self.parts = np.concatenate([self.parts, np.zeros((N, more, P, len(PARTS)), np.int64)], axis=1)
            self.result_end = np.concatenate([self.result_end, np.zeros((N, more), np.int8)], axis=1)
            self.result_player = np.concatenate([self.result_player, np.zeros((N, more), np.int8)], axis=1)
        have = self.opening.shape[1]
        if goes > have:
            extra = np.full((self.num_envs, max(goes, 2 * have) - have, self.num_players), -1, np.int8)
            self.opening = np.concatenate([self.opening, extra], axis=1)

    def _deal(self, states: Array, by_engine: Array | None = None) -> tuple[Array, Array, Array, Array, Array]:
        """`TriominosState.start_round`'s deal from generator states (m,): racks (m, P, 56), pool
        (m, 56), opening draws (m, goes, P), opener and the states after. The opening draw (M8):
        the highest sum opens, ties among the highest redraw, the drawn tiles go back and the pool
        is shuffled again. Rows where the pool runs short of contenders (ties on ties), and those
        `by_engine` marks, are dealt by the engine's own code."""
        m, P = len(states), self.num_players
        k = rack_size(P)
        dealt = P * k
        left = NUM_TILES - dealt
        before = states.copy()
        tiles = np.tile(_TILE_AXIS.astype(np.int8), (m, 1))
        brng.shuffle(states, tiles)
        rows = np.arange(m)
        rack = np.zeros((m, P, NUM_TILES), bool)
        rack[rows[:, None], (np.arange(dealt) // k)[None, :], tiles[:, :dealt]] = True
        pool = np.zeros((m, NUM_TILES), np.int8)
        pool[:, :left] = tiles[:, dealt:]
        size = np.full(m, left, np.int64)
        contenders = np.ones((m, P), bool)
        active = np.ones(m, bool)
        redeal = np.zeros(m, bool) if by_engine is None else by_engine.copy()
        goes: list[Array] = []
        while active.any():
            count = contenders.sum(1)
            short = active & (size < count)
            redeal |= short
            active &= ~short
            rank = np.cumsum(contenders, 1) - 1
            take = contenders & active[:, None]
            at = np.clip(size[:, None] - 1 - rank, 0, NUM_TILES - 1)
            drawn = np.where(take, pool[rows[:, None], at], -1).astype(np.int8)
            goes.append(drawn)
            size -= np.where(active, count, 0)
            sums = np.where(take, _SUM[np.maximum(drawn, 0)], -1)
            best = sums.max(1)
            contenders = np.where(active[:, None], take & (sums == best[:, None]), contenders)
            active &= contenders.sum(1) > 1
        # The drawn tiles go back in the order drawn (the reverse of their places), then a shuffle.
        q = np.arange(NUM_TILES)[None, :]
        back = (q >= size[:, None]) & (q < left)
        pool = np.take_along_axis(pool, np.where(back, left + size[:, None] - 1 - q, q), axis=1)
        brng.shuffle(states, pool, np.full(m, left, np.int64))
        opening = np.stack(goes, axis=1)  # (m, goes, P)
        opener = contenders.argmax(1)
        engine = [self.game.new_game(P, seed=int(before[r]), **self.options) for r in np.flatnonzero(redeal)]
        width = max([opening.shape[1]] + [len(state.opening) for state in engine])
        opening = np.concatenate([opening, np.full((m, width - opening.shape[1], P), -1, np.int8)], axis=1)
        for r, state in zip(np.flatnonzero(redeal), engine):  # new_game deals from that state as start_round
            rack[r] = False
            for seat, held in enumerate(state.racks):
                rack[r, seat, held] = True
            pool[r, :left] = state.pool
            states[r] = np.uint64(state.rng)
            opening[r] = -1
            for i, go in enumerate(state.opening):
                for seat, t in go:
                    opening[r, i, seat] = t
            opener[r] = state.opener
        return rack, pool, opening, opener, states

    def _start_rounds(self, g: I64) -> None:
        """A new round in the games g (`TriominosState.start_round`): the deal and a new board."""
        self._mask_ok = False
        m, P = len(g), self.num_players
        k = rack_size(P)
        left = NUM_TILES - P * k
        rack, pool, opening, opener, states = self._deal(self.rng[g].copy())
        num_goes = (opening >= 0).any(2).sum(1)
        self._grow(int(self.round[g].max()) + 1, opening.shape[1])
        self.rng[g] = states
        self.rack[g] = rack
        self.rack_len[g] = k
        self.pool[g] = pool
        self.pool_len[g] = left
        self.opening[g] = -1
        self.opening[g, :opening.shape[1]] = opening
        self.goes[g] = num_goes
        self.round[g] += 1
        self.opener[g] = opener
        self.current[g] = opener
        self.current_player[g] = opener
        self.draws[g] = 0
        self.last_drawn[g] = -1
        self.idle[g] = 0
        self.drawn[g] = 0
        self.parts[g, self.round[g] - 1] = 0
        self.occ[g] = EMPTY
        self.vnum[g] = 0
        self.fill[g] = 0
        self.placed[g] = 0
        self.open_keys[g] = PAD
        self.open_len[g] = 0
        obs = self._obs
        obs[g, :L.RACK] = 0.0  # the planes
        tail = self._tail
        tail[g, L.PLACED - L.RACK:L.RACK_SIZES - L.RACK] = 0.0
        shown = opening.reshape(m, -1)
        gr, gi = np.nonzero(shown >= 0)
        tail[g[gr], L.OPENING - L.RACK + shown[gr, gi].astype(np.intp)] = 1.0

    # -- what may be done -----------------------------------------------------------------------
    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """(N, FACTORED_SIZE): the factored mask of `envs.encoders.triominos_actions` on the view of
        the seat to move, which is the engine's legal moves (M2, M6-M8) in factored numbers. A
        read-only view of the simulator's own buffer, valid until the next step (see the module
        docstring)."""
        out = self._legal().view()
        out.flags.writeable = False
        return out

    def _legal(self) -> npt.NDArray[np.bool_]:
        """The mask buffer, brought up to date: last time's entries cleared, this time's set."""
        mask = self._mask
        if self._mask_ok:
            return mask
        flat = mask.reshape(-1)
        flat[self._set] = False
        rows = self._rows
        rack = self.rack[rows, self.current]
        empty = self.placed == 0
        found: list[tuple[Array, Array]] = []
        e = np.flatnonzero(empty)
        if e.size:  # M8: the opener places any rack tile on the opening cell
            r, t = np.nonzero(rack[e])
            found.append((e[r], _PLACE_IDS[t]))
        g = np.flatnonzero(~empty)
        if g.size:
            if self.drawn_tile_only:  # M6 variant: after a draw only the drawn tile
                only = g[self.draws[g] > 0]
                rack[only] = False
                rack[only, self.last_drawn[only]] = True
            count = self.open_len[g]
            games = np.repeat(g, count)
            slot = np.arange(len(games)) - np.repeat(np.cumsum(count) - count, count)
            cells = self.open_keys.reshape(-1).take(games * KEY_WIDTH + slot) & _CELL_MASK
            pat = self.pattern.reshape(-1).take(games * NUM_CELLS + cells)
            tiles = _FIT_TILES.take(pat, axis=0)  # (k, width), 56: none
            held = np.zeros((len(rows), NUM_TILES + 1), bool)
            held[:, :NUM_TILES] = rack
            k, w = np.nonzero(held.reshape(-1).take((games * (NUM_TILES + 1))[:, None] + tiles))
            found.append((games[k], tiles[k, w] * M + slot[k]))
            can_draw = self.draws[g] < MAX_DRAWS
            has_pool = self.pool_len[g] > 0
            found.append((g, np.where(can_draw, np.where(has_pool, L.FACTORED_DRAW, L.FACTORED_PASS),
                                      L.FACTORED_STOP)))
        self._set = np.concatenate([r * L.FACTORED_SIZE + c for r, c in found])
        flat[self._set] = True
        self._mask_ok = True
        return mask

    # -- playing --------------------------------------------------------------------------------
    def step(self, actions: npt.ArrayLike, active: npt.NDArray[np.bool_] | None = None) -> StepResult:
        """One legal factored id per game (only in the games `active` marks, when given: the others
        keep their state and ignore their action); games that end are scored and restarted."""
        N, P = self.num_envs, self.num_players
        live, a = checked_actions(actions, self._legal(), active)
        act = np.zeros(N, np.int64)
        act[live] = a  # by slot, for the per-kind subsets below
        self._mask_ok = False
        ended: list[I64] = []
        place = live[a < L.FACTORED_DRAW]
        if place.size:
            ended.append(self._place(place, act[place]))
        draw = live[a == L.FACTORED_DRAW]
        if draw.size:
            self._draw(draw)
        stop = live[a == L.FACTORED_STOP]
        if stop.size:  # M6: no placement after the third draw
            self._score(stop, self.current[stop], NO_PLAY, np.full(len(stop), -STOP_PENALTY))
        idle = live[a >= L.FACTORED_PASS]
        if idle.size:
            ended.append(self._end_idle_turn(idle))
        # M10: a total above the target. Within a step a seat's score only rises (a placement) or
        # only falls (draws, stop, blocked), so the end of the step sees every total that passed it.
        self.over_target |= (self.totals > self.target).any(1)
        rewards = np.zeros((N, P), np.float32)
        terminated = np.zeros(N, bool)
        final = np.zeros((N, P), np.int32)
        done = np.sort(np.concatenate(ended)) if ended else np.zeros(0, np.int64)
        if done.size:
            again = done[self.match & ~self.over_target[done]]
            if again.size:
                self._start_rounds(again)
            over = done[~(self.match & ~self.over_target[done])]
            if over.size:
                totals = self.totals[over]
                won = totals == totals.max(1, keepdims=True)
                rewards[over] = won / won.sum(1, keepdims=True)
                final[over] = totals
                terminated[over] = True
                self._next_seed += len(over)
                self._new_games(over, np.arange(self._next_seed - len(over), self._next_seed, dtype=np.int64))
        self.current_player[:] = self.current
        return StepResult(rewards, terminated, final)

    def _score(self, g: I64, seat: I64, part: int | Array, amount: Array) -> None:
        self.totals[g, seat] += amount
        self.parts[g, self.round[g] - 1, seat, part] += amount

    def _place(self, g: I64, act: I64) -> I64:
        """M2-M5: the tile leaves the rack for the board and scores; the games whose mover went
        out (M9) are scored and returned. (Flat indices into the board arrays: numpy gathers and
        scatters them several times faster than pairs of index arrays.)"""
        t, slot = np.divmod(act, M)
        p = self.current[g]
        first = self.placed[g] == 0
        c = np.where(first, ORIGIN, self.open_keys.reshape(-1).take(g * KEY_WIDTH + slot) & _CELL_MASK)
        corners = _CORNERS[c]
        at_cells = (g * NUM_CELLS)[:, None]
        at_points = (g * NUM_POINTS)[:, None] + corners
        occ, vnum, fill = self.occ.reshape(-1), self.vnum.reshape(-1), self.fill.reshape(-1)
        v = vnum.take(at_points).astype(np.intp)
        rot = np.where(first, 0, _FIT_ROT[v[:, 0] * 49 + v[:, 1] * 7 + v[:, 2], t])
        # Board.bonus, before placing: a bridge (M4) or hexagons (M5); none for the opening tile.
        sides = occ.take(at_cells + _EDGES[c]) != EMPTY
        shared = sides.sum(1)
        k = (sides.argmax(1) + 2) % 3  # with one edge shared: the corner opposite it
        bridge = np.where(np.take_along_axis(v, k[:, None], 1)[:, 0] != 0, BRIDGE, 0)
        hexagons = (fill.take(at_points) == 5).sum(1)
        bonus = np.where(first, 0, np.where(shared == 1, bridge, hexagons))
        # Board.place
        occ[g * NUM_CELLS + c] = t
        nums = _SHOWN[t, rot]
        vnum[at_points] = np.where(v == 0, nums + 1, v)
        fill[at_points] += 1  # a cell's three corners are distinct points
        self.history[g, self.placed[g]] = np.stack([t, c, rot], axis=1)
        self.placed[g] += 1
        keys = self.open_keys[g]
        keys[keys == _CELL_KEY[c][:, None]] = PAD
        around = _EDGES[c]  # the only cells that can open: across the new tile's edges
        free = occ.take(at_cells + around) == EMPTY
        opens = free & ((occ.take(at_cells[:, :, None] + _EDGES[around]) != EMPTY).sum(2) == 1)
        keys[:, M:] = np.where(opens, _CELL_KEY[around], PAD)
        keys.sort(axis=1)
        self.open_keys[g] = keys
        self.open_len[g] += opens.sum(1) - ~first
        near = _TOUCH[c]  # the cells whose corners the new tile may have numbered
        v = vnum.take((g * NUM_POINTS)[:, None, None] + _CORNERS[near]).astype(np.int16)
        self.pattern.reshape(-1)[(g * NUM_CELLS)[:, None] + near] = v[:, :, 0] * 49 + v[:, :, 1] * 7 + v[:, :, 2]
        obs = self._obs.reshape(-1)
        rows = g * L.SIZE
        d = _CELL_DIR[c]
        at = _CELL_ANCHOR[c]
        off = [rows + (L.OPEN + d) * L.AREA + at]
        before = np.flatnonzero(~first)
        if before.size:
            prev = self.history[g[before], self.placed[g[before]] - 2, 1]
            off.append(rows[before] + (L.LAST + _CELL_DIR[prev]) * L.AREA + _CELL_ANCHOR[prev])
        obs[np.concatenate(off)] = 0.0
        r, k = np.nonzero(opens)
        new = around[r, k]
        on = [(rows[:, None] + nums * L.AREA + _POINT_ANCHOR[corners]).reshape(-1),
              rows + (L.COVERED + d) * L.AREA + at, rows + (L.LAST + d) * L.AREA + at,
              rows[r] + (L.OPEN + _CELL_DIR[new]) * L.AREA + _CELL_ANCHOR[new]]
        obs[np.concatenate(on)] = 1.0
        self._tail[g, L.PLACED - L.RACK + t] = 1.0
        # TriominosState._place
        self.rack[g, p, t] = False
        self.rack_len[g, p] -= 1
        self._score(g, p, TILES, _SUM[t])  # M3
        self._score(g, p, _BONUS_PART[bonus], _BONUS_POINTS[bonus])  # M4, M5 (kind 0 adds nothing)
        self.idle[g] = 0
        out = self.rack_len[g, p] == 0
        self._next_turn(g[~out])
        g, p = g[out], p[out]
        if g.size:  # M9: +25 and the sum of every opponent's rack
            self._score(g, p, GOING_OUT, np.full(len(g), OUT_BONUS))
            self._score(g, p, OPP_RACKS, self._rack_sums(g).sum(1))
            self._result(g, OUT, p)
        return g

    def _rack_sums(self, g: I64) -> Array:
        out: Array = (self.rack[g] * _SUM).sum(2)
        return out

    def _result(self, g: I64, end: int, player: Array) -> None:
        self.result_end[g, self.round[g] - 1] = end
        self.result_player[g, self.round[g] - 1] = player

    def _draw(self, g: I64) -> None:
        """M6: the last tile of the pool onto the rack, 5 points off."""
        p = self.current[g]
        self.pool_len[g] -= 1
        t = self.pool[g, self.pool_len[g]].astype(np.int64)
        self.rack[g, p, t] = True
        self.rack_len[g, p] += 1
        self.draws[g] += 1
        self.drawn[g, p] += 1
        self.last_drawn[g] = t
        self._score(g, p, DRAWS, np.full(len(g), -DRAW_PENALTY))

    def _next_turn(self, g: I64) -> None:
        self.current[g] = (self.current[g] + 1) % self.num_players
        self.draws[g] = 0
        self.last_drawn[g] = -1

    def _end_idle_turn(self, g: I64) -> I64:
        """A turn ended without a placement (M7, M6); M9: blocked once every player in turn has
        done so with the pool empty, and each loses their rack's sum. Returns the blocked games."""
        self.idle[g] = np.where(self.pool_len[g] > 0, 0, self.idle[g] + 1)
        blocked = self.idle[g] >= self.num_players
        self._next_turn(g[~blocked])
        g = g[blocked]
        if g.size:
            lost = self._rack_sums(g)
            for seat in range(self.num_players):
                self._score(g, np.full(len(g), seat), RACK_LEFT, -lost[:, seat])
            self._result(g, BLOCKED, np.full(len(g), -1))
        return g

    # -- what is seen ---------------------------------------------------------------------------
    def scores(self) -> npt.NDArray[np.int32]:
        return self.totals.astype(np.int32)

    def observe(self, seats: npt.ArrayLike | None = None) -> npt.NDArray[np.float32]:
        """(N, SIZE): the encoder on `view(seat)` (seats None: the seat to move), from what that
        seat may see only. The simulator's own buffer: valid until the next observe, step,
        determinize or reset (see the module docstring)."""
        P = self.num_players
        rows = self._rows
        cur = self.current
        seat = cur if seats is None else self._seats_of(seats)
        tail = self._tail
        base = -L.RACK  # tail columns: a layout offset minus RACK
        tail[:, :L.PLACED + base] = 0.0
        tail[:, :L.LAST_DRAWN + base] = self.rack[rows, seat]
        sees = np.flatnonzero((seat == cur) & (self.last_drawn >= 0))
        tail[sees, L.LAST_DRAWN + base + self.last_drawn[sees]] = 1.0
        tail[:, L.RACK_SIZES + base:L.PLAYERS + base] = 0.0
        for j in range(P):
            rel = (j - seat) % P
            tail[rows, L.RACK_SIZES + base + rel] = self.rack_len[:, j] / NUM_TILES
            tail[rows, L.DRAWN + base + rel] = self.drawn[:, j] / NUM_TILES
            tail[rows, L.SCORES + base + rel] = _squash(self.totals[:, j])
        tail[rows, L.TO_MOVE + base + (cur - seat) % P] = 1.0
        tail[rows, L.OPENER + base + (self.opener - seat) % P] = 1.0
        tail[rows, L.DRAWS + base + self.draws] = 1.0
        tail[:, L.POOL + base] = self.pool_len / NUM_TILES
        tail[:, L.ROUND + base] = 1.0 - 1.0 / self.round
        o = self._obs
        o[:, L.RACK:] = tail
        out = o.view()
        out.flags.writeable = False
        return out

    def _seats_of(self, seats: npt.ArrayLike) -> I64:
        """One seat per game, checked: ValueError naming what is wrong."""
        out = np.asarray(seats)
        if out.shape != (self.num_envs,) or not np.issubdtype(out.dtype, np.integer):
            raise ValueError(f"expected {self.num_envs} integer seats, one per game, not shape {out.shape}")
        if ((out < 0) | (out >= self.num_players)).any():
            raise ValueError(f"seats must be 0 to {self.num_players - 1}")
        return out.astype(np.int64)

    # -- hidden information ---------------------------------------------------------------------
    def determinize(self, seats: npt.ArrayLike, seed: int) -> None:
        """In game i, re-deal what seat `seats[i]` cannot see (the other racks and the pool, sizes
        kept), exactly as the engine's `determinize(seat, Rng(seed + i))`: the unseen tiles sorted
        and shuffled; each one of this round's opening draws goes to the pool or to an opponent
        that drew since (M8), by weight; the rest fill the racks in seat order, then the pool, which
        is shuffled; a new generator state; another mover's last drawn tile picked from its rack."""
        N, P = self.num_envs, self.num_players
        rows = self._rows
        observer = self._seats_of(seats)
        others = self._seats[None, :] != observer[:, None]
        in_pool = np.zeros((N, NUM_TILES + 1), bool)
        in_pool[rows[:, None], np.where(np.arange(NUM_TILES) < self.pool_len[:, None], self.pool, NUM_TILES)] = True
        unseen_set = (self.rack & others[:, :, None]).any(1) | in_pool[:, :NUM_TILES]
        size = unseen_set.sum(1)
        unseen = np.sort(np.where(unseen_set, _TILE_AXIS, NUM_TILES), axis=1).astype(np.int8)
        states = brng.consecutive_states(seed, N)
        brng.shuffle(states, unseen, size)
        pos = np.arange(NUM_TILES)[None, :]
        inside = pos < size[:, None]
        opened = np.zeros((N, NUM_TILES + 1), bool)
        shown = self.opening.reshape(N, -1)
        opened[rows[:, None], np.where(shown >= 0, shown, NUM_TILES)] = True
        is_opened = inside & opened[rows[:, None], np.minimum(unseen, NUM_TILES)]
        free = self.rack_len * others
        cap = np.minimum(self.rack_len, self.drawn) * others
        pool_free = self.pool_len.copy()
        racks = np.full((N, P, NUM_TILES), -1, np.int8)  # each re-dealt rack in the engine's order
        held = np.zeros((N, P), np.int64)
        pool = np.zeros((N, NUM_TILES), np.int8)
        pooled = np.zeros(N, np.int64)
        order = np.argsort(~is_opened, axis=1, kind="stable")
        for k in range(int(is_opened.sum(1).max(initial=0))):
            g = np.flatnonzero(is_opened.sum(1) > k)
            t = unseen[g, order[g, k]]
            weights = np.minimum(cap[g], free[g])
            sub = states[g]
            pick = brng.below(sub, pool_free[g] + weights.sum(1)).astype(np.int64)
            states[g] = sub
            to_pool = pick < pool_free[g]
            q = g[to_pool]
            pool[q, pooled[q]] = t[to_pool]
            pooled[q] += 1
            pool_free[q] -= 1
            r = np.flatnonzero(~to_pool)
            q = g[r]
            j = (np.cumsum(weights[r], 1) > (pick[r] - pool_free[q])[:, None]).argmax(1)
            racks[q, j, held[q, j]] = t[r]
            held[q, j] += 1
            cap[q, j] -= 1
            free[q, j] -= 1
        rest_mask = inside & ~is_opened
        rest = np.take_along_axis(unseen, np.argsort(~rest_mask, axis=1, kind="stable"), axis=1)
        start = np.zeros(N, np.int64)
        place = np.arange(NUM_TILES)[None, :]
        for j in range(P):  # in seat order, each opponent's free places from the rest
            fills = (place >= held[:, j:j + 1]) & (place < (held[:, j] + free[:, j])[:, None])
            src = np.clip(start[:, None] + place - held[:, j:j + 1], 0, NUM_TILES - 1)
            racks[:, j] = np.where(fills, rest[rows[:, None], src], racks[:, j])
            start += free[:, j]
        fills = (place >= pooled[:, None]) & (place < self.pool_len[:, None])
        src = np.clip(start[:, None] + place - pooled[:, None], 0, NUM_TILES - 1)
        pool = np.where(fills, rest[rows[:, None], src], pool)
        brng.shuffle(states, pool, self.pool_len)
        self.pool[:] = pool
        new_rack = np.zeros((N, P, NUM_TILES + 1), bool)
        new_rack[rows[:, None, None], self._seats[None, :, None], np.where(racks >= 0, racks, NUM_TILES)] = True
        self.rack = np.where(others[:, :, None], new_rack[:, :, :NUM_TILES], self.rack)
        self.rng[:] = brng.next64(states)  # later rounds' deals are unknown too
        cur = self.current
        guess = np.flatnonzero((cur != observer) & (self.last_drawn >= 0))
        if guess.size:
            sub = states[guess]
            pick = brng.below(sub, self.rack_len[guess, cur[guess]]).astype(np.int64)
            self.last_drawn[guess] = racks[guess, cur[guess], pick]
        self._mask_ok = False

    # -- engine states --------------------------------------------------------------------------
    def export(self, i: int) -> TriominosState:
        """Slot i as an engine state (racks sorted: their order is seen by no one and read by no rule)."""
        P = self.num_players
        s = self.game.new_game(P, seed=int(self.seeds[i]), **self.options)
        board = Board()
        for t, c, r in self.history[i, :self.placed[i]].tolist():
            board.place(t, c, r)
        rounds = int(self.round[i])
        s.rng = int(self.rng[i])
        s.round = rounds
        s.pool = [int(t) for t in self.pool[i, :self.pool_len[i]]]
        s.racks = [np.flatnonzero(self.rack[i, seat]).tolist() for seat in range(P)]
        s.board = board
        s.draws = int(self.draws[i])
        s.last_drawn = int(self.last_drawn[i])
        s.idle = int(self.idle[i])
        s.drawn = self.drawn[i].tolist()
        s.opening = tuple(tuple((seat, int(t)) for seat, t in enumerate(go) if t >= 0)
                          for go in self.opening[i, :self.goes[i]])
        s.opener = int(self.opener[i])
        s.current = int(self.current[i])
        s.totals = self.totals[i].tolist()
        s.parts = self.parts[i, :rounds].tolist()
        s.over_target = bool(self.over_target[i])
        s.results = [{"round": r + 1, "end": END_NAMES[self.result_end[i, r]],
                      "player": None if self.result_player[i, r] < 0 else int(self.result_player[i, r])}
                     for r in range(rounds - 1)]
        s.over = False
        return s
