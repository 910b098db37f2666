"""Castell as N games in arrays (issue #32): the engine's rules (K1-K13) applied to every game at once.

Each game's position is held as integer arrays (structure of arrays). The bag keeps its exact order
(a row per game, draws take the last), so refills (K2) draw what the engine draws: a game in slot i
passes through exactly the states of `CastellGame().new_game(P, seed=seeds[i], **options)` given
the same actions (tests/batch/test_castell_differential.py). A step applies each kind of action to
the games that chose it, then the engine's continuations (next turn, festival entries, end of
round, refill, end of game) as stages over the games that reach them; no stage loops over games.

Towers come from the engine's own solver through `castell_towers.TowerCache` (one solve per
distinct team, skills and goal). What the engine keeps as lists in play order (queue, entries,
prizes, size tokens, results) is held per round, festival and seat: the order follows from the
first player of each round, and `export` rebuilds the lists. The observation is the encoder's
(`castell_layout` is shared with it), float32 for float32.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from meeple.batch import castell_layout as L
from meeple.batch.castell_towers import FESTIVAL_GOALS, TALLEST, TowerCache
from meeple.batch.protocol import StepResult
from meeple.batch.rng import shuffle
from meeple.games.castell import actions as A
from meeple.games.castell.actions import NUM_ACTIONS, SPACE
from meeple.games.castell.components import (
    FIRST_FESTIVAL_ROUND,
    LAST_ROUND,
    MAX_TEAM,
    NUM_REGIONS,
    PER_REGION,
    PRACTICE,
    REFILL_ROUNDS,
    REGIONS,
    SEG_ALL,
    SEG_NONE,
    SPECIAL,
    SPECIAL_TOKENS,
    START_TEAM,
    TILES_PER_REGION,
    WHEEL_SEGMENTS,
    Festival,
    components_for_option,
)
from meeple.games.castell.game import CastellGame
from meeple.games.castell.legality import MOVE_USED, PHASE_FESTIVAL, PHASE_TURNS, RECRUIT_USED, SPECIAL_USED, TRAIN_USED
from meeple.games.castell.scoring import PRIZE_TABLE, REGION_VARIETY
from meeple.games.castell.state import CastellState
from meeple.games.castell.towers.rules import COUNTS_LEN, MAX_SKILL, SIZES, SKILLS
from meeple.games.castell.towers.tiles import MAX_LEVELS

Array = npt.NDArray[Any]
I64 = npt.NDArray[np.int64]
R, NSK, W = NUM_REGIONS, len(SKILLS), WHEEL_SEGMENTS
ROUNDS = LAST_ROUND + 1  # per-round arrays are indexed by the round number (0-2 unused)

# -- the action ids (actions.py) ----------------------------------------------------------------
MOVE0 = SPACE.action_id(A.MOVES[0])
RECRUIT0 = SPACE.action_id(A.RECRUITS[1]) - 1  # + size
TRAIN0 = SPACE.action_id(A.TRAINS[0][0])  # + source * TRAIN_ROW + target
TRAIN_ROW = len(A.TRAINS[0])
SINGLE0 = SPACE.action_id(A.SINGLE_RECRUITS[1]) - 1  # + size
EXTRA0 = SPACE.action_id(A.EXTRA_MOVES[0])
PERFORM0 = SPACE.action_id(A.PERFORMS[0])
END_TURN = SPACE.action_id(A.END_TURN)
ENTER0 = SPACE.action_id(A.ENTERS[0])
DECLINE = SPACE.action_id(A.DECLINE)
assert SPACE.action_id(A.TRAINS[1][0]) == TRAIN0 + TRAIN_ROW and DECLINE + 1 == NUM_ACTIONS

_SIZE_BITS = np.array([0] + [1 << (s - 1) for s in SIZES], dtype=np.int64)  # a size's bit in a festival mask
_THIRDS = np.array([L.repeated_thirds(k) for k in range(64)], dtype=np.float32)
_VARIETY = np.array(REGION_VARIETY, dtype=np.int64)


def _prize_rows(players: int) -> I64:
    """K9 prizes by number of entrants (row) and place taken (column; zero past the table)."""
    out = np.zeros((players + 1, players + 2), dtype=np.int64)
    for m in range(1, players + 1):
        row = PRIZE_TABLE[min(m, 3)]
        out[m, :len(row)] = row
    return out


def _counts(items: Array, valid: Array, kinds: int) -> I64:
    """Per row, how many of the valid `items` are of each kind (0..kinds-1)."""
    out: I64 = ((items[..., None] == np.arange(kinds)) & valid[..., None]).sum(axis=-2, dtype=np.int64)
    return out


class CastellBatch:
    """N games of Castell stepped together; see the module docstring and meeple.batch.protocol."""

    num_actions = NUM_ACTIONS

    def __init__(self, num_envs: int, num_players: int, options: Mapping[str, Any] | None = None,
                 seed: int = 0) -> None:
        self.game = CastellGame()
        self.game.check_players(num_players)
        resolved = self.game.resolve_options(dict(options or {}))
        self.game.check_options(num_players, resolved)
        self.num_envs = N = num_envs
        self.num_players = n = num_players
        # the engine pins the components' fingerprint into the options: take its options as they are
        self.state_options = dict(self.game.new_game(n, seed=0, **resolved).options)
        comp = self.components = components_for_option(self.state_options["components"])
        self.all_tokens = self.state_options["performance_tokens"] == "all"
        self.refill_adds = self.state_options["refill"] == "add"
        self.lowest_ties = self.state_options["prize_ties"] == "lowest"
        self.towers = TowerCache(comp)
        wheel = comp.wheels[self.state_options["wheel"]]
        self.wheel = wheel
        self._seg_of_region = np.array([wheel.index(r) for r in range(R)], dtype=np.int64)
        self._seg_all = wheel.index(SEG_ALL) if SEG_ALL in wheel else -1
        self._neighbours = np.zeros((R, R), dtype=bool)
        for r, near in enumerate(comp.neighbours):
            self._neighbours[r, list(near)] = True
        self._fest_region = np.array([f.region for f in comp.festivals] + [-1], dtype=np.int64)
        self._stars = np.array([t.stars for t in comp.local_tiles] + [0], dtype=np.int64)
        self._totals = np.array(comp.castellers, dtype=np.int64)
        self._inv = np.array([1.0 / t if t else 0.0 for t in comp.castellers[1:]], dtype=np.float64)
        self._everyone = sum(comp.castellers)
        self._sorted_bag = np.array([s for s in SIZES for _ in range(comp.castellers[s])], dtype=np.int8)
        self.bag_capacity = len(self._sorted_bag)
        self._decks = {d: np.array([i for i, f in enumerate(comp.festivals) if f.deck == d], dtype=np.int8)
                       for d in ("I", "II")}
        self._fest_count = np.zeros(ROUNDS, dtype=np.int64)
        self._tokens_per = np.zeros(ROUNDS, dtype=np.int64)
        for rnd, entry in comp.calendar.items():
            self._fest_count[rnd] = entry.festivals[n]
            self._tokens_per[rnd] = entry.size_tokens
        self.slots = F = max(1, int(self._fest_count.max()))
        self.most_tokens = T = max(1, int(self._tokens_per.max()))
        self._prizes = _prize_rows(n)
        self._rows = np.arange(N)
        self._seats = np.arange(n)
        self.obs_shape = (L.layout(n)["total"][1],)
        self._template = self._build_template()
        tiles = np.zeros((len(comp.local_tiles) + 1, L.TILE_LEN), dtype=np.float32)
        for i, t in enumerate(comp.local_tiles):
            tiles[i] = L.tile_vector(t.kind, t.stars, t.widths, t.min_levels, t.uses)
        self._tile_rows = tiles  # the last row (zeros) is an empty slot's
        # -- the games ------------------------------------------------------------------------
        self.static = np.zeros((N, *self.obs_shape), dtype=np.float32)  # what never changes in a game
        self.bag = np.zeros((N, self.bag_capacity), dtype=np.int8)
        self.bag_len = np.zeros(N, dtype=np.int64)
        self.pool = np.zeros((N, R, COUNTS_LEN), dtype=np.int64)
        self.teams = np.zeros((N, n, COUNTS_LEN), dtype=np.int64)
        self.skills = np.zeros((N, n, NSK), dtype=np.int64)
        self.pawn = np.zeros((N, n), dtype=np.int64)
        self.tokens_left = np.zeros((N, n), dtype=np.int64)
        self.board_tokens = np.zeros((N, R, n), dtype=np.int64)
        self.player_board = np.zeros((N, n, R), dtype=np.int64)
        self.region_tiles = np.zeros((N, R, TILES_PER_REGION), dtype=np.int64)
        self.claimed = np.zeros((N, n, R * TILES_PER_REGION), dtype=np.int64)
        self.claimed_len = np.zeros((N, n), dtype=np.int64)
        self.stars = np.zeros((N, n), dtype=np.int64)
        self.best = np.zeros((N, n), dtype=np.int64)
        self.skill_at = np.zeros((N, W), dtype=np.int64)
        self.fest_tile = np.zeros((N, ROUNDS, F), dtype=np.int64)
        self.fest_region = np.zeros((N, ROUNDS, F), dtype=np.int64)
        self.fest_tokens = np.zeros((N, ROUNDS, F, T), dtype=np.int64)
        self.fest_mask = np.zeros((N, ROUNDS, F), dtype=np.int64)
        # festival results per round, slot and seat (tower id, -1: not entered; prize), and the
        # seat that won each size token (-1: discarded)
        self.res_tower = np.zeros((N, ROUNDS, F, n), dtype=np.int64)
        self.res_prize = np.zeros((N, ROUNDS, F, n), dtype=np.int64)
        self.res_won = np.zeros((N, ROUNDS, F, T), dtype=np.int64)
        self.prize_region = np.zeros((N, n, R), dtype=np.int64)
        self.size_region = np.zeros((N, n, R), dtype=np.int64)
        self.size_count = np.zeros((N, n, COUNTS_LEN), dtype=np.int64)
        self.queued = np.zeros((N, n), dtype=bool)
        self.entered = np.zeros((N, n), dtype=np.int64)  # festival slot this round, -1: not entered
        self.entry_tower = np.zeros((N, n), dtype=np.int64)
        self.preview = np.zeros((N, n, L.PREVIEW_LEN), dtype=np.float32)  # each seat's observed preview
        self.preview_ok = np.zeros((N, n), dtype=bool)  # False: team, skills, pawn or round changed
        self.round = np.zeros(N, dtype=np.int64)
        self.phase = np.zeros(N, dtype=np.int64)
        self.first = np.zeros(N, dtype=np.int64)
        self.turn = np.zeros(N, dtype=np.int64)
        self.used = np.zeros(N, dtype=np.int64)
        self.recruit_open = np.zeros(N, dtype=bool)
        self.free_special = np.zeros(N, dtype=bool)
        self.current = np.zeros(N, dtype=np.int64)
        self.over = np.zeros(N, dtype=bool)
        self.current_player = np.zeros(N, dtype=np.int8)
        self.seeds = np.zeros(N, dtype=np.int64)
        self._next_seed = 0
        self._mask: npt.NDArray[np.bool_] | None = None
        self.reset(seed)

    def _build_template(self) -> npt.NDArray[np.float32]:
        """The observation parts every game of this table shares: options, wheel side and
        segments, the map's roads."""
        lay = L.layout(self.num_players)
        out = np.zeros(self.obs_shape, dtype=np.float32)
        out[lay["wheel_side"][0] + L.WHEEL_SIDES.index(self.state_options["wheel"])] = 1.0
        at = lay["options"][0]
        out[at:at + 3] = (self.all_tokens, self.refill_adds, not self.lowest_ties)
        at = lay["wheel_segments"][0]
        for k, code in enumerate(self.wheel):
            name = "all" if code == SEG_ALL else "none" if code == SEG_NONE else REGIONS[code]
            out[at + k * len(L.SEGMENT_CODES) + L.SEGMENT_CODES.index(name)] = 1.0
        width = L.REGION_FIXED + self.num_players
        for r in range(R):
            at = lay["regions"][0] + r * width + L.NS
            out[at:at + R] = self._neighbours[r]
        return out

    # -- starting games -------------------------------------------------------------------------
    def reset(self, seed: int) -> None:
        """Game i starts as the engine's new_game(P, seed=seed + i); later games take seed + N, ..."""
        self.seeds[:] = seed + self._rows
        self._next_seed = seed + self.num_envs
        self._start(self._rows)

    def _start(self, idx: I64) -> None:
        """The set-up A-F (K2, K3, K7, K10) for the games at idx, drawing as `CastellState.initial`."""
        m, n, comp = len(idx), self.num_players, self.components
        self._mask = None
        states = self.seeds[idx].astype(np.uint64)  # two's complement: seed & (2**64 - 1), as Rng(seed)

        def shuffled(items: Array) -> Array:
            rows = np.repeat(np.asarray(items, dtype=np.int16)[None, :], m, axis=0)
            shuffle(states, rows)
            return rows

        bag = shuffled(self._sorted_bag)
        wheel_tiles = shuffled(np.array(comp.skill_tiles))
        decks = {d: shuffled(items) for d, items in self._decks.items()}
        tokens = shuffled(np.array(comp.size_tokens))
        local = shuffled(np.arange(len(comp.local_tiles)))
        F, T = self.slots, self.most_tokens
        fest_tile = np.full((m, ROUNDS, F), -1, dtype=np.int64)
        fest_tokens = np.zeros((m, ROUNDS, F, T), dtype=np.int64)
        left = {d: deck.shape[1] for d, deck in decks.items()}
        token_end = tokens.shape[1]
        for rnd in range(FIRST_FESTIVAL_ROUND, LAST_ROUND + 1):
            entry = comp.calendar.get(rnd)
            if entry is None:
                continue
            k = entry.size_tokens
            for slot in range(entry.festivals[n]):
                left[entry.deck] -= 1  # K7: the top tile of the round's deck
                fest_tile[:, rnd, slot] = decks[entry.deck][:, left[entry.deck]]
                fest_tokens[:, rnd, slot, :k] = tokens[:, token_end - k:token_end]
                token_end -= k
        self.fest_tile[idx] = fest_tile
        self.fest_region[idx] = self._fest_region[fest_tile]
        self.fest_tokens[idx] = fest_tokens
        have = np.arange(T)[None, None, None, :] < self._tokens_per[None, :, None, None]
        bits = np.where(have & (fest_tile[..., None] >= 0), _SIZE_BITS[fest_tokens], 0)
        self.fest_mask[idx] = np.bitwise_or.reduce(bits, axis=3)  # K13: a size shown twice counts once
        top = local.shape[1]
        # K10: two tiles per region face up, popped from the shuffled pile region by region
        self.region_tiles[idx] = local[:, top - 1 - np.arange(R * TILES_PER_REGION)].reshape(m, R, TILES_PER_REGION)
        self.skill_at[idx] = wheel_tiles
        self.bag[idx] = bag
        self.bag_len[idx] = self.bag_capacity
        self.pool[idx] = 0
        self._fill(idx, adds=False)
        self.teams[idx] = 0
        draws = np.arange(START_TEAM)[None, :]
        for q in range(n):
            end = self.bag_len[idx]
            drawn = self.bag[idx[:, None], end[:, None] - 1 - draws]
            self.teams[idx, q] = _counts(drawn, np.ones_like(drawn, dtype=bool), COUNTS_LEN)
            self.bag_len[idx] = end - START_TEAM
        self.skills[idx] = 0
        self.pawn[idx] = -1
        self.tokens_left[idx] = SPECIAL_TOKENS
        self.board_tokens[idx] = 0
        self.player_board[idx] = 0
        self.claimed[idx] = -1
        self.claimed_len[idx] = 0
        self.stars[idx] = 0
        self.best[idx] = 0
        self.res_tower[idx] = -1
        self.res_prize[idx] = 0
        self.res_won[idx] = -1
        self.prize_region[idx] = 0
        self.size_region[idx] = 0
        self.size_count[idx] = 0
        self.queued[idx] = False
        self.entered[idx] = -1
        self.entry_tower[idx] = -1
        self.round[idx] = 1
        self.phase[idx] = PHASE_TURNS
        self.first[idx] = 0
        self.turn[idx] = 0
        self.used[idx] = 0
        self.recruit_open[idx] = False
        self.free_special[idx] = False
        self.current[idx] = 0
        self.over[idx] = False
        self.current_player[idx] = 0
        self.preview_ok[idx] = False
        self._fill_static(idx)

    def _fill_static(self, idx: I64) -> None:
        """The observation parts fixed for a game's whole life: the wheel's tiles, the calendar."""
        lay = L.layout(self.num_players)
        m = len(idx)
        static = np.repeat(self._template[None, :], m, axis=0)
        rows = np.arange(m)[:, None]
        static[rows, lay["wheel_tiles"][0] + np.arange(W) * L.NK + self.skill_at[idx]] = 1.0
        base = lay["calendar"][0]
        valid = np.arange(self.most_tokens)[None, :]
        for rnd in range(FIRST_FESTIVAL_ROUND, LAST_ROUND + 1):
            for slot in range(min(int(self._fest_count[rnd]), L.FESTIVAL_SLOTS)):
                at = base + ((rnd - FIRST_FESTIVAL_ROUND) * L.FESTIVAL_SLOTS + slot) * L.FESTIVAL_LEN
                static[:, at] = 1.0
                static[rows[:, 0], at + 1 + self.fest_region[idx, rnd, slot]] = 1.0
                tokens = self.fest_tokens[idx, rnd, slot]
                per_size = _counts(tokens, np.broadcast_to(valid < self._tokens_per[rnd], tokens.shape), COUNTS_LEN)
                static[:, at + 1 + R:at + 1 + R + L.NS] = _THIRDS[per_size[:, 1:]]
        self.static[idx] = static

    def _fill(self, idx: I64, adds: bool) -> None:
        """K2: top every region up to 5/4/3 castellers (or add that many, option `refill`) while the
        bag lasts, region by region, each draw the bag's last casteller."""
        if not idx.size:
            return
        target = PER_REGION[self.num_players]
        missing = np.full((len(idx), R), target) if adds else np.maximum(target - self.pool[idx].sum(axis=2), 0)
        avail = self.bag_len[idx][:, None]
        through = np.minimum(np.cumsum(missing, axis=1), avail)  # draws made once region r is served
        total = through[:, -1]
        most = int(total.max())
        if most == 0:
            return
        k = np.arange(most)[None, :]
        valid = k < total[:, None]
        region = (k[:, :, None] >= through[:, None, :]).sum(axis=2)  # the region draw k goes to
        pos = np.maximum(self.bag_len[idx][:, None] - 1 - k, 0)
        size = self.bag[idx[:, None], pos].astype(np.int64)
        g = np.broadcast_to(idx[:, None], valid.shape)
        np.add.at(self.pool, (g[valid], region[valid], size[valid]), 1)
        self.bag_len[idx] -= total

    # -- towers ---------------------------------------------------------------------------------
    def _festival_slot(self, g: I64, region: I64) -> I64:
        """The slot of this round's festival in `region` in each game (-1: none there; K7: a
        round's festivals never share a region)."""
        here = (self.fest_region[g, self.round[g]] == region[:, None]) & (region[:, None] >= 0)
        out: I64 = np.where(here.any(axis=1), here.argmax(axis=1), -1)
        return out

    def _festival_towers(self, g: I64, seat: I64, slot: I64) -> I64:
        """The solver's best K8 tower of `seat` for festival `slot` this round (-1: none)."""
        goal = 1 + self.fest_mask[g, self.round[g], slot]
        return self.towers.lookup(self.teams[g, seat], self.skills[g, seat], goal)

    def _festival_score(self, tower: I64, mask: I64) -> I64:
        """K8: a point per level and per casteller of a festival size (K13: each size once)."""
        counts = self.towers.counts[tower]
        wanted = (mask[..., None] & _SIZE_BITS) != 0
        out: I64 = self.towers.levels[tower] + (counts * wanted).sum(axis=-1)
        return out

    # -- whose turn, and what they may do -----------------------------------------------------
    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """(N, 52): the engine's legal_action_ids() of each game (as a mask)."""
        if self._mask is None:
            self._mask = self._legal()
        return self._mask.copy()

    def _legal(self) -> npt.NDArray[np.bool_]:
        N, rows = self.num_envs, self._rows
        mask = np.zeros((N, NUM_ACTIONS), dtype=bool)
        p = self.current
        region = self.pawn[rows, p]
        live = ~self.over
        festival = live & (self.phase == PHASE_FESTIVAL)
        turns = live & ~festival
        mask[turns & (region < 0), MOVE0:MOVE0 + R] = True  # K4: round 1 places the pawn anywhere
        placed = turns & (region >= 0)
        at = np.maximum(region, 0)
        near = self._neighbours[at]
        pool = self.pool[rows, at, 1:] > 0
        free = self.free_special
        normal = placed & ~free
        used = self.used
        mask[:, MOVE0:MOVE0 + R] |= (normal & (used & MOVE_USED == 0))[:, None] & near
        recruit = normal & (self.recruit_open | (used & RECRUIT_USED == 0))
        mask[:, RECRUIT0 + 1:RECRUIT0 + 1 + len(SIZES)] = recruit[:, None] & pool
        train = normal & (used & TRAIN_USED == 0)
        skills = self.skills[rows, p]
        for source, seg in ((0, self._seg_of_region[at]), (1, np.full(N, self._seg_all))):
            if source == 1 and self._seg_all < 0:
                continue  # the advanced side has no All Regions segment
            kind = self.skill_at[rows, (seg + self.round - 1) % W]
            row = TRAIN0 + source * TRAIN_ROW
            for k in range(NSK):
                mask[:, row + k] = train & (((kind == k) & (skills[:, k] < MAX_SKILL))
                                            | ((kind == PRACTICE) & (skills[:, k] > 0) & (skills[:, k] < MAX_SKILL)))
            mask[:, row + NSK] = train & (kind == SPECIAL)
        special = placed & (free | ((used & SPECIAL_USED == 0) & (self.tokens_left[rows, p] > 0)))
        mask[:, SINGLE0 + 1:SINGLE0 + 1 + len(SIZES)] = special[:, None] & pool
        mask[:, EXTRA0:EXTRA0 + R] = special[:, None] & near
        for slot in range(TILES_PER_REGION):
            tile = self.region_tiles[rows, at, slot]
            g = np.flatnonzero(special & (tile >= 0))
            if g.size:
                tower = self.towers.lookup(self.teams[g, p[g]], self.skills[g, p[g]], FESTIVAL_GOALS + tile[g])
                mask[g, PERFORM0 + slot] = tower >= 0
        mask[:, END_TURN] = normal
        here = self.fest_region[rows, self.round, :L.FESTIVAL_SLOTS] == region[:, None]
        mask[:, ENTER0:ENTER0 + here.shape[1]] = festival[:, None] & here
        mask[:, DECLINE] = festival
        return mask

    # -- playing --------------------------------------------------------------------------------
    def step(self, actions: npt.ArrayLike, active: npt.NDArray[np.bool_] | None = None) -> StepResult:
        """Apply one legal action id per game (only in the games `active` marks, when given: the
        others keep their state and ignore their action); games that end are scored and restarted."""
        N, n = self.num_envs, self.num_players
        act = np.asarray(actions)
        if act.shape != (N,):
            raise ValueError(f"step needs {N} action ids, one per game, not an array of shape {act.shape}")
        act = act.astype(np.int64)
        live = self._rows if active is None else np.flatnonzero(np.asarray(active, dtype=bool).reshape(N))
        a = act[live]
        legal = (a >= 0) & (a < NUM_ACTIONS)
        legal[legal] = self.legal_mask()[live[legal], a[legal]]
        if not legal.all():
            bad = live[~legal]
            raise ValueError(f"illegal action ids in slots {bad[:20].tolist()}{' ...' if len(bad) > 20 else ''}")
        self._mask = None
        p = self.current[live]

        def pick(lo: int, hi: int) -> tuple[I64, I64, I64]:
            sel = (a >= lo) & (a < hi)
            return live[sel], p[sel], a[sel] - lo

        g, q, region = pick(MOVE0, MOVE0 + R)
        if g.size:  # K4 Move (round 1: placing the pawn)
            self.recruit_open[g] = False
            self.used[g] |= MOVE_USED
            self.pawn[g, q] = region
            self.preview_ok[g, q] = False
        g, q, size = pick(RECRUIT0 + 1, RECRUIT0 + 1 + len(SIZES))
        if g.size:  # K4 Recruit: one casteller; the second of a Recruit action closes it
            self.pool[g, self.pawn[g, q], size + 1] -= 1
            self.teams[g, q, size + 1] += 1
            self.preview_ok[g, q] = False
            opening = ~self.recruit_open[g]
            self.used[g[opening]] |= RECRUIT_USED
            self.recruit_open[g] = opening
        g, q, target = pick(TRAIN0, TRAIN0 + 2 * TRAIN_ROW)
        if g.size:  # K3/K4 Train: a skill, or the Special tile's free special action
            target %= TRAIN_ROW
            self.recruit_open[g] = False
            self.used[g] |= TRAIN_USED
            free = target == A.SPECIAL_TARGET
            self.free_special[g[free]] = True
            self.skills[g[~free], q[~free], target[~free]] += 1
            self.preview_ok[g, q] = False
        g, q, kind = pick(SINGLE0 + 1, PERFORM0 + TILES_PER_REGION)
        if g.size:
            self._special(g, q, kind + SINGLE0 + 1)
        g, _, _ = pick(END_TURN, END_TURN + 1)
        if g.size:
            self._next_turn(g)
        g, q, choice = pick(ENTER0, DECLINE + 1)
        if g.size:
            self._decide(g, q, choice)

        ended = np.flatnonzero(self.over)
        rewards = np.zeros((N, n), dtype=np.float32)
        terminated = np.zeros(N, dtype=bool)
        final = np.zeros((N, n), dtype=np.int32)
        if ended.size:
            scores = self._scores(ended)
            won = scores == scores.max(axis=1, keepdims=True)  # K11: a tie is a shared win
            rewards[ended] = (won / won.sum(axis=1, keepdims=True)).astype(np.float32)
            final[ended] = scores
            terminated[ended] = True
            self.seeds[ended] = self._next_seed + np.arange(len(ended))
            self._next_seed += len(ended)
            self._start(ended)
        self.current_player[:] = self.current
        self._mask = None
        return StepResult(rewards, terminated, final)

    def _special(self, g: I64, q: I64, a: I64) -> None:
        """A special action (K5): free from the Special tile, or paid with a token in the region."""
        region = self.pawn[g, q]
        self.recruit_open[g] = False
        self.preview_ok[g, q] = False
        free = self.free_special[g]
        self.free_special[g] = False
        paid, pq, pr = g[~free], q[~free], region[~free]
        self.used[paid] |= SPECIAL_USED
        self.tokens_left[paid, pq] -= 1
        self.board_tokens[paid, pr, pq] += 1
        single = a < EXTRA0
        s, sq, sr, size = g[single], q[single], region[single], a[single] - SINGLE0
        self.pool[s, sr, size] -= 1
        self.teams[s, sq, size] += 1
        extra = (a >= EXTRA0) & (a < PERFORM0)
        self.pawn[g[extra], q[extra]] = a[extra] - EXTRA0
        perform = a >= PERFORM0
        if perform.any():  # K10: claim the tile; the region's tokens go to the player board
            f, fq, fr, slot = g[perform], q[perform], region[perform], a[perform] - PERFORM0
            tile = self.region_tiles[f, fr, slot]
            self.region_tiles[f, fr, slot] = -1
            self.claimed[f, fq, self.claimed_len[f, fq]] = tile
            self.claimed_len[f, fq] += 1
            self.stars[f, fq] += self._stars[tile]
            if self.all_tokens:
                moved = self.board_tokens[f, fr].sum(axis=1)
                self.board_tokens[f, fr] = 0
            else:
                moved = self.board_tokens[f, fr, fq].copy()
                self.board_tokens[f, fr, fq] = 0
            self.player_board[f, fq, fr] += moved

    def _next_turn(self, g: I64) -> None:
        """K4: the next seat's turn; after the last, the festival entries (K8) or the round's end."""
        n = self.num_players
        self.turn[g] += 1
        self.used[g] = 0
        self.recruit_open[g] = False
        self.free_special[g] = False
        more = self.turn[g] < n
        c = g[more]
        self.current[c] = (self.first[c] + self.turn[c]) % n
        e = g[~more]
        if not e.size:
            return
        self.queued[e] = False
        has = self._fest_count[self.round[e]] > 0
        f = e[has]
        for q in range(n):
            seat = np.full(len(f), q)
            slot = self._festival_slot(f, self.pawn[f, q])
            there = np.flatnonzero(slot >= 0)
            if there.size:
                tower = self._festival_towers(f[there], seat[there], slot[there])
                self.queued[f[there], q] = tower >= 0
        waiting = self.queued[e].any(axis=1)
        w = e[waiting]
        self.phase[w] = PHASE_FESTIVAL
        self.current[w] = self._first_queued(w)
        self._end_round(e[~waiting])

    def _first_queued(self, g: I64) -> I64:
        """The queued seat nearest the first player, clockwise (the queue's order, K8)."""
        n = self.num_players
        rel = (self._seats[None, :] - self.first[g][:, None]) % n
        out: I64 = np.where(self.queued[g], rel, n).argmin(axis=1).astype(np.int64)
        return out

    def _decide(self, g: I64, q: I64, choice: I64) -> None:
        """K8: enter festival `choice` with the solver's best tower, or decline."""
        enter = choice < DECLINE - ENTER0
        e, eq, slot = g[enter], q[enter], choice[enter]
        if e.size:
            self.entry_tower[e, eq] = self._festival_towers(e, eq, slot)
            self.entered[e, eq] = slot
        self.queued[g, q] = False
        waiting = self.queued[g].any(axis=1)
        w = g[waiting]
        self.current[w] = self._first_queued(w)
        self._end_round(g[~waiting])

    def _end_round(self, g: I64) -> None:
        """Score the round's festivals; end the game after round 10, else the next round (K2 refills)."""
        if not g.size:
            return
        n = self.num_players
        self._score_festivals(g[self._fest_count[self.round[g]] > 0])
        last = self.round[g] == LAST_ROUND
        e = g[last]
        self.over[e] = True
        self.queued[e] = False
        self.entered[e] = -1
        self.entry_tower[e] = -1
        o = g[~last]
        self.round[o] += 1
        self.preview_ok[o] = False  # the round's festivals
        self.first[o] = (self.first[o] + 1) % n  # the first player marker passes clockwise
        self._fill(o[np.isin(self.round[o], REFILL_ROUNDS)], self.refill_adds)
        self.phase[o] = PHASE_TURNS
        self.turn[o] = 0
        self.current[o] = self.first[o]
        self.used[o] = 0
        self.recruit_open[o] = False
        self.free_special[o] = False
        self.queued[o] = False
        self.entered[o] = -1
        self.entry_tower[o] = -1

    def _score_festivals(self, g: I64) -> None:
        """K8 scores, K9 prizes and size tokens (K13) of every festival of the round."""
        for slot in range(self.slots):
            f = g[slot < self._fest_count[self.round[g]]]
            if not f.size:
                continue
            rnd = self.round[f]
            rows = np.arange(len(f))
            entrant = self.entered[f] == slot
            tower = np.where(entrant, self.entry_tower[f], -1)
            mask = self.fest_mask[f, rnd, slot]
            score = np.where(entrant, self._festival_score(tower, mask[:, None]), -1)
            # K9: a group of tied entrants covers places `higher` .. `higher + ties - 1`
            higher = (entrant[:, None, :] & (score[:, None, :] > score[:, :, None])).sum(axis=2)
            ties = (entrant[:, None, :] & (score[:, None, :] == score[:, :, None])).sum(axis=2)
            taken = higher + ties - 1 if self.lowest_ties else np.where(ties > 1, higher + 1, higher)
            award = np.where(entrant, self._prizes[entrant.sum(axis=1)[:, None], taken], 0)
            region = self.fest_region[f, rnd, slot]
            self.best[f] = np.where(entrant, np.maximum(self.best[f], score), self.best[f])
            self.prize_region[f, :, region] += award
            self.res_tower[f, rnd, slot] = tower
            self.res_prize[f, rnd, slot] = award
            counts = self.towers.counts[tower]  # (games, seats, sizes)
            for j in range(self.most_tokens):
                size = self.fest_tokens[f, rnd, slot, j]
                have = np.where(entrant, counts[rows[:, None], self._seats[None, :], size[:, None]], -1)
                top = have.max(axis=1)
                alone = (have == top[:, None]).sum(axis=1) == 1
                win = np.where((j < self._tokens_per[rnd]) & alone & (top > 0), have.argmax(axis=1), -1)
                self.res_won[f, rnd, slot, j] = win
                w = win >= 0
                self.size_region[f[w], win[w], region[w]] += 1
                self.size_count[f[w], win[w], size[w]] += 1

    # -- results --------------------------------------------------------------------------------
    def _parts(self, g: I64) -> list[I64]:
        """K11 score parts per seat of the games at g: best tower, region variety, prizes, size
        tokens, stars."""
        held = ((self.player_board[g] > 0) | (self.prize_region[g] > 0) | (self.size_region[g] > 0)).sum(axis=2)
        sizes = self.size_count[g]
        return [self.best[g], _VARIETY[held], self.prize_region[g].sum(axis=2),
                (sizes > 0).sum(axis=2) + sizes.sum(axis=2), self.stars[g]]

    def _scores(self, g: I64) -> npt.NDArray[np.int32]:
        total = sum(self._parts(g), np.zeros((len(g), self.num_players), np.int64))
        return total.astype(np.int32)

    def scores(self) -> npt.NDArray[np.int32]:
        """(N, P): the engine's scores() of each game now."""
        return self._scores(self._rows)

    # -- observations -------------------------------------------------------------------------------
    def observe(self, seats: npt.ArrayLike | None = None) -> npt.NDArray[np.float32]:
        """(N, *obs_shape): the encoder's observation of each game for `seats` (None: the seat to
        move), built only from what that seat may see."""
        N, n, rows = self.num_envs, self.num_players, self._rows
        lay = L.layout(n)
        seat = self.current if seats is None else np.asarray(seats, dtype=np.int64).reshape(N)
        if ((seat < 0) | (seat >= n)).any():
            raise ValueError(f"seats must be 0..{n - 1}")
        out = self.static.copy()
        rnd = self.round
        out[rows, lay["round"][0] + rnd - 1] = 1.0
        out[rows, lay["phase"][0] + np.where(self.over, 2, self.phase)] = 1.0
        live = np.flatnonzero(~self.over)
        out[live, lay["current"][0] + (self.current[live] - seat[live]) % n] = 1.0
        out[rows, lay["first"][0] + (self.first - seat) % n] = 1.0
        at = lay["turn"][0]
        for i, bit in enumerate((MOVE_USED, RECRUIT_USED, TRAIN_USED, SPECIAL_USED)):
            out[:, at + i] = self.used & bit != 0
        out[:, at + 4] = self.recruit_open
        out[:, at + 5] = self.free_special
        bag = self._totals[None, 1:] - self.pool[:, :, 1:].sum(axis=1) - self.teams[:, :, 1:].sum(axis=1)
        at = lay["bag"][0]
        out[:, at] = self.bag_len / self._everyone if self._everyone else 0.0
        out[:, at + 1:at + 1 + L.NS] = bag * self._inv
        out[rows, lay["wheel_rotation"][0] + (rnd - 1) % W] = 1.0
        at = lay["wheel_facing"][0]
        for k, code in enumerate(self.wheel):
            if code != SEG_NONE:
                name = "all" if code == SEG_ALL else REGIONS[code]
                kind = self.skill_at[rows, (k + rnd - 1) % W]
                out[rows, at + L.SEGMENT_CODES.index(name) * L.NK + kind] = 1.0
        # regions: castellers, face-up tiles, tokens per seat from the observer
        rel = (seat[:, None] + self._seats[None, :]) % n  # relative seat j is seat (seat + j) % n
        width = L.REGION_FIXED + n
        block = out[:, lay["regions"][0]:lay["regions"][0] + R * width].reshape(N, R, width)
        block[:, :, :L.NS] = self.pool[:, :, 1:] * self._inv
        tiles = self._tile_rows[self.region_tiles]  # (N, R, 2, TILE_LEN); -1 reads the empty row
        block[:, :, L.NS + R:L.REGION_FIXED] = tiles.reshape(N, R, TILES_PER_REGION * L.TILE_LEN)
        block[:, :, L.REGION_FIXED:] = self.board_tokens[rows[:, None, None], np.arange(R)[None, :, None],
                                                         rel[:, None, :]] / SPECIAL_TOKENS
        self._players(out, rel, lay["players"][0])
        self._preview(out, seat, lay["preview"][0])
        np.minimum(out, 1.0, out=out)
        return out

    def _players(self, out: npt.NDArray[np.float32], rel: I64, base: int) -> None:
        """The player blocks, the observer's first."""
        N, n = self.num_envs, self.num_players
        block = np.zeros((N, n, L.PLAYER_LEN), dtype=np.float64)  # by absolute seat
        rows = self._rows[:, None]
        seats = self._seats[None, :]
        block[rows, seats, np.where(self.pawn < 0, R, self.pawn)] = 1.0
        team = self.teams[:, :, 1:]
        block[:, :, L.P_TEAM:L.P_TEAM + L.NS] = team * self._inv
        block[:, :, L.P_TEAM + L.NS] = team.sum(axis=2) / MAX_TEAM
        block[:, :, L.P_SKILLS:L.P_SKILLS + NSK] = self.skills / MAX_SKILL
        block[:, :, L.P_TOKENS] = self.tokens_left / SPECIAL_TOKENS
        board = block[:, :, L.P_BOARD:L.P_PER_SIZE].reshape(N, n, R, 3)
        board[..., 0] = self.player_board / SPECIAL_TOKENS
        board[..., 1] = self.prize_region / L.MAX_PRIZE_SUM_PER_REGION
        board[..., 2] = self.size_region / L.MAX_SIZE_TOKENS_PER_REGION
        block[:, :, L.P_PER_SIZE:L.P_PER_SIZE + L.NS] = _THIRDS[np.minimum(self.size_count[:, :, 1:], len(_THIRDS) - 1)]
        block[:, :, L.P_PERFORMANCES] = self.claimed_len / L.MAX_CLAIMED
        parts = self._parts(self._rows)
        total = sum(parts, np.zeros((N, n), np.int64))
        for i, part in enumerate([*parts, total]):
            block[:, :, L.P_SCORE + i] = part / L.SCORE_BOUNDS[i]
        block[:, :, L.P_QUEUE] = self.queued
        entered = self.entered
        for slot in range(L.FESTIVAL_SLOTS):
            block[:, :, L.P_QUEUE + 1 + slot] = entered == slot
        # P_WINNER stays 0: a game that ends restarts at once, so no observed game has winners
        out[:, base:base + n * L.PLAYER_LEN].reshape(N, n, L.PLAYER_LEN)[:] = block[rows, rel]

    def _preview(self, out: npt.NDArray[np.float32], seat: I64, at: int) -> None:
        """The observer's own tower preview: its best tower for a festival where its pawn stands
        this round (with the score), else its tallest tower. Kept per seat until its team, skills
        or pawn or the round change."""
        stale = np.flatnonzero(~self.preview_ok[self._rows, seat])
        if stale.size:
            q = seat[stale]
            slot = self._festival_slot(stale, self.pawn[stale, q])
            tower = np.full(len(stale), -1, dtype=np.int64)
            there = np.flatnonzero(slot >= 0)
            if there.size:
                tower[there] = self._festival_towers(stale[there], q[there], slot[there])
            festival = tower >= 0
            rest = np.flatnonzero(~festival)
            if rest.size:
                g = stale[rest]
                tower[rest] = self.towers.lookup(self.teams[g, q[rest]], self.skills[g, q[rest]],
                                                 np.full(len(rest), TALLEST))
            mask = self.fest_mask[stale, self.round[stale], np.maximum(slot, 0)]
            score = np.where(festival, self._festival_score(tower, mask), 0)
            present = tower >= 0
            values = np.zeros((len(stale), L.PREVIEW_LEN), dtype=np.float64)
            values[:, 0] = present
            values[:, 1] = festival
            values[:, 2] = np.where(present, score / L.MAX_TOWER_SCORE, 0.0)
            values[:, 3] = np.where(present, self.towers.levels[tower] / MAX_LEVELS, 0.0)
            values[:, 4] = np.where(present, self.towers.counts[tower].sum(axis=1) / MAX_TEAM, 0.0)
            self.preview[stale, q] = values
            self.preview_ok[stale, q] = True
        out[:, at:at + L.PREVIEW_LEN] = self.preview[self._rows, seat]

    # -- hidden information -----------------------------------------------------------------------
    def determinize(self, seats: npt.ArrayLike, seed: int) -> None:
        """Re-deal, in every game, what seats[i] cannot see, exactly as the engine's
        `determinize(seats[i], Rng(seed + i))`: the bag's order, from its sorted contents."""
        N, n = self.num_envs, self.num_players
        observer = np.asarray(seats, dtype=np.int64).reshape(N)
        if ((observer < 0) | (observer >= n)).any():
            raise ValueError(f"determinize needs a seat 0..{n - 1} per game")
        states = (np.int64(seed) + self._rows.astype(np.int64)).astype(np.uint64)
        k = np.arange(self.bag_capacity)[None, :]
        valid = k < self.bag_len[:, None]
        counts = _counts(self.bag, valid, COUNTS_LEN)
        cum = np.cumsum(counts, axis=1)
        items = np.where(valid, (k[:, :, None] >= cum[:, None, :]).sum(axis=2), 0).astype(np.int8)
        shuffle(states, items, self.bag_len.copy())
        self.bag[:] = items

    # -- to the engine ------------------------------------------------------------------------------
    def export(self, i: int) -> CastellState:
        """Slot i as an engine state (for tests and debugging): the play-order lists rebuilt."""
        n, comp = self.num_players, self.components
        rnd, first, over = int(self.round[i]), int(self.first[i]), bool(self.over[i])

        def ints(row: Array) -> list[int]:
            return [int(x) for x in row]

        def tower(tid: int) -> list[list[int]]:
            return [list(level) for level in self.towers.towers[tid]]

        festivals: list[tuple[Festival, ...]] = []
        for r in range(ROUNDS):
            count, k = int(self._fest_count[r]), int(self._tokens_per[r])
            festivals.append(tuple(
                Festival(int(self.fest_tile[i, r, s]), int(self.fest_region[i, r, s]),
                         tuple(ints(self.fest_tokens[i, r, s, :k])))
                for s in range(count)))
        prizes: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        size_tokens: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        results: list[Any] = []
        for r in range(FIRST_FESTIVAL_ROUND, rnd + (1 if over else 0)):
            order = [(r - 1 + k) % n for k in range(n)]  # the first player of round r, then clockwise
            for s, fest in enumerate(festivals[r]):
                won = ints(self.res_won[i, r, s, :len(fest.tokens)])
                placed = []
                for seat in order:
                    tid = int(self.res_tower[i, r, s, seat])
                    if tid < 0:
                        continue
                    prize = int(self.res_prize[i, r, s, seat])
                    if prize:
                        prizes[seat].append((fest.region, prize))
                    sizes = [size for size, w in zip(fest.tokens, won) if w == seat]
                    size_tokens[seat].extend((fest.region, size) for size in sizes)
                    score = self._festival_score(np.array([tid]), self.fest_mask[i, r, s:s + 1])
                    placed.append({"seat": seat, "tower": tower(tid), "score": int(score[0]), "prize": prize,
                                   "size_tokens": sizes})
                results.append({"round": r, "festival": comp.festivals[fest.tile].id, "region": REGIONS[fest.region],
                                "entrants": placed, "discarded": [size for size, w in zip(fest.tokens, won) if w < 0]})
        seats_now = [(first + k) % n for k in range(n)]
        return CastellState(
            game=self.game, num_players=n, options=dict(self.state_options), current=int(self.current[i]), over=over,
            components_sha256=comp.sha256, round=rnd, phase=int(self.phase[i]), first=first, turn=int(self.turn[i]),
            used=int(self.used[i]), recruit_open=bool(self.recruit_open[i]), free_special=bool(self.free_special[i]),
            bag=ints(self.bag[i, :self.bag_len[i]]), pool=[ints(row) for row in self.pool[i]],
            teams=[ints(row) for row in self.teams[i]], skills=[ints(row) for row in self.skills[i]],
            pawn=ints(self.pawn[i]), tokens_left=ints(self.tokens_left[i]),
            board_tokens=[ints(row) for row in self.board_tokens[i]],
            player_board_tokens=[ints(row) for row in self.player_board[i]],
            region_tiles=[ints(row) for row in self.region_tiles[i]],
            claimed=[ints(self.claimed[i, q, :self.claimed_len[i, q]]) for q in range(n)],
            prizes=prizes, size_tokens=size_tokens, best=ints(self.best[i]), skill_at=tuple(ints(self.skill_at[i])),
            festivals=tuple(festivals), queue=[q for q in seats_now if self.queued[i, q]],
            entries=[(q, int(self.entered[i, q]), self.towers.towers[int(self.entry_tower[i, q])])
                     for q in seats_now if self.entered[i, q] >= 0],
            results=results,
        )

