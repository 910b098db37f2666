"""Castell's observations for N games at once: the encoder's (`meeple.envs.encoders.castell`) float32
vector, value for value, built from the batch's arrays (the layout is `castell_layout`, shared
with the encoder).

What never changes in a game (the wheel's tiles, the calendar, the options, the map) is written
once when the game starts; each observation copies it and fills in the rest. Every value is
computed in float64 and rounded to float32 once, as the encoder's stores into a float32 array do;
sums the encoder builds by repeated `+= 1/3` come from a table made the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from meeple.batch import castell_layout as L
from meeple.batch.castell_towers import TALLEST
from meeple.games.castell.components import (
    FIRST_FESTIVAL_ROUND,
    LAST_ROUND,
    MAX_TEAM,
    NUM_REGIONS,
    REGIONS,
    SEG_ALL,
    SEG_NONE,
    SPECIAL_TOKENS,
    TILES_PER_REGION,
    WHEEL_SEGMENTS,
)
from meeple.games.castell.legality import MOVE_USED, RECRUIT_USED, SPECIAL_USED, TRAIN_USED
from meeple.games.castell.towers.rules import COUNTS_LEN, MAX_SKILL, SKILLS
from meeple.games.castell.towers.tiles import MAX_LEVELS

if TYPE_CHECKING:
    from meeple.batch.castell import CastellBatch

I64 = npt.NDArray[np.int64]
R, NSK, W = NUM_REGIONS, len(SKILLS), WHEEL_SEGMENTS
#: k size tokens of one size as the encoder sums them (float32 additions of 1/3); `observe` clips
#: the whole vector at 1 at the end, as the encoder clips each block.
_THIRDS = np.array([L.repeated_thirds(k) for k in range(64)], dtype=np.float32)


def kind_counts(items: npt.NDArray[Any], valid: npt.NDArray[Any], kinds: int) -> I64:
    """Per row, how many of the valid `items` are of each kind (0..kinds-1)."""
    out: I64 = ((items[..., None] == np.arange(kinds)) & valid[..., None]).sum(axis=-2, dtype=np.int64)
    return out


class CastellObserver:
    """The observations of a `CastellBatch`'s games (its `observe`)."""

    def __init__(self, sim: CastellBatch) -> None:
        self.sim = sim
        comp = sim.components
        self.totals = np.array(comp.castellers, dtype=np.int64)
        self.inv = np.array([1.0 / t if t else 0.0 for t in comp.castellers[1:]], dtype=np.float64)
        self.everyone = sum(comp.castellers)
        self.template = self._build_template(sim)
        tiles = np.zeros((len(comp.local_tiles) + 1, L.TILE_LEN), dtype=np.float32)
        for i, t in enumerate(comp.local_tiles):
            tiles[i] = L.tile_vector(t.kind, t.stars, t.widths, t.min_levels, t.uses)
        self.tile_rows = tiles  # the last row (zeros) is an empty slot's
        self.static = np.zeros((sim.num_envs, *sim.obs_shape), dtype=np.float32)  # fixed for a game's life

    def _build_template(self, sim: CastellBatch) -> npt.NDArray[np.float32]:
        """The observation parts every game of this table shares: options, wheel side and
        segments, the map's roads."""
        lay = L.layout(sim.num_players)
        out = np.zeros(sim.obs_shape, dtype=np.float32)
        out[lay["wheel_side"][0] + L.WHEEL_SIDES.index(sim.state_options["wheel"])] = 1.0
        at = lay["options"][0]
        out[at:at + 3] = (sim.all_tokens, sim.refill_adds, not sim.lowest_ties)
        at = lay["wheel_segments"][0]
        for k, code in enumerate(sim.wheel):
            name = "all" if code == SEG_ALL else "none" if code == SEG_NONE else REGIONS[code]
            out[at + k * len(L.SEGMENT_CODES) + L.SEGMENT_CODES.index(name)] = 1.0
        width = L.REGION_FIXED + sim.num_players
        for r in range(R):
            at = lay["regions"][0] + r * width + L.NS
            out[at:at + R] = sim.neighbours[r]
        return out


    def start(self, idx: I64) -> None:
        """The observation parts fixed for a game's whole life: the wheel's tiles, the calendar."""
        sim = self.sim
        lay = L.layout(sim.num_players)
        m = len(idx)
        static = np.repeat(self.template[None, :], m, axis=0)
        rows = np.arange(m)[:, None]
        static[rows, lay["wheel_tiles"][0] + np.arange(W) * L.NK + sim.skill_at[idx]] = 1.0
        base = lay["calendar"][0]
        valid = np.arange(sim.most_tokens)[None, :]
        for rnd in range(FIRST_FESTIVAL_ROUND, LAST_ROUND + 1):
            for slot in range(min(int(sim.fest_count[rnd]), L.FESTIVAL_SLOTS)):
                at = base + ((rnd - FIRST_FESTIVAL_ROUND) * L.FESTIVAL_SLOTS + slot) * L.FESTIVAL_LEN
                static[:, at] = 1.0
                static[rows[:, 0], at + 1 + sim.fest_region[idx, rnd, slot]] = 1.0
                tokens = sim.fest_tokens[idx, rnd, slot]
                per_size = kind_counts(tokens, np.broadcast_to(valid < sim.tokens_per[rnd], tokens.shape), COUNTS_LEN)
                static[:, at + 1 + R:at + 1 + R + L.NS] = _THIRDS[per_size[:, 1:]]
        self.static[idx] = static

    def observe(self, seats: npt.ArrayLike | None = None) -> npt.NDArray[np.float32]:
        """(N, *obs_shape): the encoder's observation of each game for `seats` (None: the seat to
        move), built only from what that seat may see."""
        sim = self.sim
        N, n, rows = sim.num_envs, sim.num_players, sim.rows
        lay = L.layout(n)
        seat = sim.current if seats is None else np.asarray(seats, dtype=np.int64).reshape(N)
        if ((seat < 0) | (seat >= n)).any():
            raise ValueError(f"seats must be 0..{n - 1}")
        out = self.static.copy()
        rnd = sim.round
        out[rows, lay["round"][0] + rnd - 1] = 1.0
        out[rows, lay["phase"][0] + np.where(sim.over, 2, sim.phase)] = 1.0
        live = np.flatnonzero(~sim.over)
        out[live, lay["current"][0] + (sim.current[live] - seat[live]) % n] = 1.0
        out[rows, lay["first"][0] + (sim.first - seat) % n] = 1.0
        at = lay["turn"][0]
        for i, bit in enumerate((MOVE_USED, RECRUIT_USED, TRAIN_USED, SPECIAL_USED)):
            out[:, at + i] = sim.used & bit != 0
        out[:, at + 4] = sim.recruit_open
        out[:, at + 5] = sim.free_special
        bag = self.totals[None, 1:] - sim.pool[:, :, 1:].sum(axis=1) - sim.teams[:, :, 1:].sum(axis=1)
        at = lay["bag"][0]
        out[:, at] = sim.bag_len / self.everyone if self.everyone else 0.0
        out[:, at + 1:at + 1 + L.NS] = bag * self.inv
        out[rows, lay["wheel_rotation"][0] + (rnd - 1) % W] = 1.0
        at = lay["wheel_facing"][0]
        for k, code in enumerate(sim.wheel):
            if code != SEG_NONE:
                name = "all" if code == SEG_ALL else REGIONS[code]
                kind = sim.skill_at[rows, (k + rnd - 1) % W]
                out[rows, at + L.SEGMENT_CODES.index(name) * L.NK + kind] = 1.0
        # regions: castellers, face-up tiles, tokens per seat from the observer
        rel = (seat[:, None] + sim.seat_ids[None, :]) % n  # relative seat j is seat (seat + j) % n
        width = L.REGION_FIXED + n
        block = out[:, lay["regions"][0]:lay["regions"][0] + R * width].reshape(N, R, width)
        block[:, :, :L.NS] = sim.pool[:, :, 1:] * self.inv
        tiles = self.tile_rows[sim.region_tiles]  # (N, R, 2, TILE_LEN); -1 reads the empty row
        block[:, :, L.NS + R:L.REGION_FIXED] = tiles.reshape(N, R, TILES_PER_REGION * L.TILE_LEN)
        block[:, :, L.REGION_FIXED:] = sim.board_tokens[rows[:, None, None], np.arange(R)[None, :, None],
                                                         rel[:, None, :]] / SPECIAL_TOKENS
        self._players(out, rel, lay["players"][0])
        self._preview(out, seat, lay["preview"][0])
        # Every block of the encoder ends clipped at 1 (its `_block`). Besides tile widths and size
        # tokens, a region of a player board can hold more than a seat's 7 special tokens, since a
        # performance moves every seat's tokens there (up to 7 x players).
        np.minimum(out, np.float32(1.0), out=out)
        return out

    def _players(self, out: npt.NDArray[np.float32], rel: I64, base: int) -> None:
        """The player blocks, the observer's first."""
        sim = self.sim
        N, n = sim.num_envs, sim.num_players
        block = np.zeros((N, n, L.PLAYER_LEN), dtype=np.float64)  # by absolute seat
        rows = sim.rows[:, None]
        seats = sim.seat_ids[None, :]
        block[rows, seats, np.where(sim.pawn < 0, R, sim.pawn)] = 1.0
        team = sim.teams[:, :, 1:]
        block[:, :, L.P_TEAM:L.P_TEAM + L.NS] = team * self.inv
        block[:, :, L.P_TEAM + L.NS] = team.sum(axis=2) / MAX_TEAM
        block[:, :, L.P_SKILLS:L.P_SKILLS + NSK] = sim.skills / MAX_SKILL
        block[:, :, L.P_TOKENS] = sim.tokens_left / SPECIAL_TOKENS
        board = block[:, :, L.P_BOARD:L.P_PER_SIZE].reshape(N, n, R, 3)
        board[..., 0] = sim.player_board / SPECIAL_TOKENS
        board[..., 1] = sim.prize_region / L.MAX_PRIZE_SUM_PER_REGION
        board[..., 2] = sim.size_region / L.MAX_SIZE_TOKENS_PER_REGION
        block[:, :, L.P_PER_SIZE:L.P_PER_SIZE + L.NS] = _THIRDS[np.minimum(sim.size_count[:, :, 1:], len(_THIRDS) - 1)]
        block[:, :, L.P_PERFORMANCES] = sim.claimed_len / L.MAX_CLAIMED
        parts = sim.score_parts(sim.rows)
        total = sum(parts, np.zeros((N, n), np.int64))
        for i, part in enumerate([*parts, total]):
            block[:, :, L.P_SCORE + i] = part / L.SCORE_BOUNDS[i]
        block[:, :, L.P_QUEUE] = sim.queued
        entered = sim.entered
        for slot in range(L.FESTIVAL_SLOTS):
            block[:, :, L.P_QUEUE + 1 + slot] = entered == slot
        # P_WINNER stays 0: a game that ends restarts at once, so no observed game has winners
        out[:, base:base + n * L.PLAYER_LEN].reshape(N, n, L.PLAYER_LEN)[:] = block[rows, rel]

    def _preview(self, out: npt.NDArray[np.float32], seat: I64, at: int) -> None:
        """The observer's own tower preview: its best tower for a festival where its pawn stands
        this round (with the score), else its tallest tower. Kept per seat until its team, skills
        or pawn or the round change."""
        sim = self.sim
        stale = np.flatnonzero(~sim.preview_ok[sim.rows, seat])
        if stale.size:
            q = seat[stale]
            slot = sim.festival_slot(stale, sim.pawn[stale, q])
            tower = np.full(len(stale), -1, dtype=np.int64)
            there = np.flatnonzero(slot >= 0)
            if there.size:
                tower[there] = sim.festival_towers(stale[there], q[there], slot[there])
            festival = tower >= 0
            rest = np.flatnonzero(~festival)
            if rest.size:
                g = stale[rest]
                tower[rest] = sim.towers.lookup(sim.teams[g, q[rest]], sim.skills[g, q[rest]],
                                                 np.full(len(rest), TALLEST))
            mask = sim.fest_mask[stale, sim.round[stale], np.maximum(slot, 0)]
            score = np.where(festival, sim.festival_score(tower, mask), 0)
            present = tower >= 0
            values = np.zeros((len(stale), L.PREVIEW_LEN), dtype=np.float64)
            values[:, 0] = present
            values[:, 1] = festival
            values[:, 2] = np.where(present, score / L.MAX_TOWER_SCORE, 0.0)
            values[:, 3] = np.where(present, sim.towers.levels[tower] / MAX_LEVELS, 0.0)
            values[:, 4] = np.where(present, sim.towers.counts[tower].sum(axis=1) / MAX_TEAM, 0.0)
            sim.preview[stale, q] = values
            sim.preview_ok[stale, q] = True
        out[:, at:at + L.PREVIEW_LEN] = sim.preview[sim.rows, seat]

