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
from meeple.batch.castell_export import export_state
from meeple.batch.castell_obs import CastellObserver, kind_counts
from meeple.batch.castell_towers import FESTIVAL_GOALS, TowerCache
from meeple.batch.checks import checked_actions
from meeple.batch.protocol import StepResult
from meeple.batch.rng import shuffle
from meeple.games.castell import actions as A
from meeple.games.castell.actions import NUM_ACTIONS, SPACE
from meeple.games.castell.components import (
    FIRST_FESTIVAL_ROUND,
    LAST_ROUND,
    NUM_REGIONS,
    PER_REGION,
    PRACTICE,
    REFILL_ROUNDS,
    SEG_ALL,
    SPECIAL,
    SPECIAL_TOKENS,
    START_TEAM,
    TILES_PER_REGION,
    WHEEL_SEGMENTS,
    components_for_option,
)
from meeple.games.castell.game import CastellGame
from meeple.games.castell.legality import MOVE_USED, PHASE_FESTIVAL, PHASE_TURNS, RECRUIT_USED, SPECIAL_USED, TRAIN_USED
from meeple.games.castell.scoring import PRIZE_TABLE, REGION_VARIETY
from meeple.games.castell.state import CastellState
from meeple.games.castell.towers.rules import COUNTS_LEN, MAX_SKILL, SIZES, SKILLS

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
_VARIETY = np.array(REGION_VARIETY, dtype=np.int64)


def _prize_rows(players: int) -> I64:
    """K9 prizes by number of entrants (row) and place taken (column; zero past the table)."""
    out = np.zeros((players + 1, players + 2), dtype=np.int64)
    for m in range(1, players + 1):
        row = PRIZE_TABLE[min(m, 3)]
        out[m, :len(row)] = row
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
        self.neighbours = np.zeros((R, R), dtype=bool)
        for r, near in enumerate(comp.neighbours):
            self.neighbours[r, list(near)] = True
        self._fest_region = np.array([f.region for f in comp.festivals] + [-1], dtype=np.int64)
        self._stars = np.array([t.stars for t in comp.local_tiles] + [0], dtype=np.int64)
        self._sorted_bag = np.array([s for s in SIZES for _ in range(comp.castellers[s])], dtype=np.int8)
        self.bag_capacity = len(self._sorted_bag)
        self._decks = {d: np.array([i for i, f in enumerate(comp.festivals) if f.deck == d], dtype=np.int64)
                       for d in ("I", "II")}
        self.fest_count = np.zeros(ROUNDS, dtype=np.int64)
        self.tokens_per = np.zeros(ROUNDS, dtype=np.int64)
        for rnd, entry in comp.calendar.items():
            self.fest_count[rnd] = entry.festivals[n]
            self.tokens_per[rnd] = entry.size_tokens
        self.slots = F = max(1, int(self.fest_count.max()))
        self.most_tokens = T = max(1, int(self.tokens_per.max()))
        self._prizes = _prize_rows(n)
        self.rows = np.arange(N)
        self.seat_ids = np.arange(n)
        self.obs_shape: tuple[int, ...] = (L.layout(n)["total"][1],)
        # -- the games ------------------------------------------------------------------------
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
        self.observer = CastellObserver(self)
        self.reset(seed)

    # -- starting games -------------------------------------------------------------------------
    def reset(self, seed: int) -> None:
        """Game i starts as the engine's new_game(P, seed=seed + i); later games take seed + N, ..."""
        self.seeds[:] = seed + self.rows
        self._next_seed = seed + self.num_envs
        self._start(self.rows)

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
        have = np.arange(T)[None, None, None, :] < self.tokens_per[None, :, None, None]
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
            self.teams[idx, q] = kind_counts(drawn, np.ones_like(drawn, dtype=bool), COUNTS_LEN)
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
        self.observer.start(idx)

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
    def festival_slot(self, g: I64, region: I64) -> I64:
        """The slot of this round's festival in `region` in each game (-1: none there; K7: a
        round's festivals never share a region)."""
        here = (self.fest_region[g, self.round[g]] == region[:, None]) & (region[:, None] >= 0)
        out: I64 = np.where(here.any(axis=1), here.argmax(axis=1), -1)
        return out

    def festival_towers(self, g: I64, seat: I64, slot: I64) -> I64:
        """The solver's best K8 tower of `seat` for festival `slot` this round (-1: none)."""
        goal = 1 + self.fest_mask[g, self.round[g], slot]
        return self.towers.lookup(self.teams[g, seat], self.skills[g, seat], goal)

    def festival_score(self, tower: I64, mask: I64) -> I64:
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
        N, rows = self.num_envs, self.rows
        mask = np.zeros((N, NUM_ACTIONS), dtype=bool)
        p = self.current
        region = self.pawn[rows, p]
        live = ~self.over
        festival = live & (self.phase == PHASE_FESTIVAL)
        turns = live & ~festival
        mask[turns & (region < 0), MOVE0:MOVE0 + R] = True  # K4: round 1 places the pawn anywhere
        placed = turns & (region >= 0)
        at = np.maximum(region, 0)
        near = self.neighbours[at]
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
        live, a = checked_actions(actions, self.legal_mask(), active)
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
        has = self.fest_count[self.round[e]] > 0
        f = e[has]
        for q in range(n):
            seat = np.full(len(f), q)
            slot = self.festival_slot(f, self.pawn[f, q])
            there = np.flatnonzero(slot >= 0)
            if there.size:
                tower = self.festival_towers(f[there], seat[there], slot[there])
                self.queued[f[there], q] = tower >= 0
        waiting = self.queued[e].any(axis=1)
        w = e[waiting]
        self.phase[w] = PHASE_FESTIVAL
        self.current[w] = self._first_queued(w)
        self._end_round(e[~waiting])

    def _first_queued(self, g: I64) -> I64:
        """The queued seat nearest the first player, clockwise (the queue's order, K8)."""
        n = self.num_players
        rel = (self.seat_ids[None, :] - self.first[g][:, None]) % n
        out: I64 = np.where(self.queued[g], rel, n).argmin(axis=1).astype(np.int64)
        return out

    def _decide(self, g: I64, q: I64, choice: I64) -> None:
        """K8: enter festival `choice` with the solver's best tower, or decline."""
        enter = choice < DECLINE - ENTER0
        e, eq, slot = g[enter], q[enter], choice[enter]
        if e.size:
            self.entry_tower[e, eq] = self.festival_towers(e, eq, slot)
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
        self._score_festivals(g[self.fest_count[self.round[g]] > 0])
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
            f = g[slot < self.fest_count[self.round[g]]]
            if not f.size:
                continue
            rnd = self.round[f]
            rows = np.arange(len(f))
            entrant = self.entered[f] == slot
            tower = np.where(entrant, self.entry_tower[f], -1)
            mask = self.fest_mask[f, rnd, slot]
            score = np.where(entrant, self.festival_score(tower, mask[:, None]), -1)
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
                have = np.where(entrant, counts[rows[:, None], self.seat_ids[None, :], size[:, None]], -1)
                top = have.max(axis=1)
                alone = (have == top[:, None]).sum(axis=1) == 1
                win = np.where((j < self.tokens_per[rnd]) & alone & (top > 0), have.argmax(axis=1), -1)
                self.res_won[f, rnd, slot, j] = win
                w = win >= 0
                self.size_region[f[w], win[w], region[w]] += 1
                self.size_count[f[w], win[w], size[w]] += 1

    # -- results --------------------------------------------------------------------------------
    def score_parts(self, g: I64) -> list[I64]:
        """K11 score parts per seat of the games at g: best tower, region variety, prizes, size
        tokens, stars."""
        held = ((self.player_board[g] > 0) | (self.prize_region[g] > 0) | (self.size_region[g] > 0)).sum(axis=2)
        sizes = self.size_count[g]
        return [self.best[g], _VARIETY[held], self.prize_region[g].sum(axis=2),
                (sizes > 0).sum(axis=2) + sizes.sum(axis=2), self.stars[g]]

    def _scores(self, g: I64) -> npt.NDArray[np.int32]:
        total = sum(self.score_parts(g), np.zeros((len(g), self.num_players), np.int64))
        return total.astype(np.int32)

    def scores(self) -> npt.NDArray[np.int32]:
        """(N, P): the engine's scores() of each game now."""
        return self._scores(self.rows)

    # -- hidden information -----------------------------------------------------------------------
    def determinize(self, seats: npt.ArrayLike, seed: int) -> None:
        """Re-deal, in every game, what seats[i] cannot see, exactly as the engine's
        `determinize(seats[i], Rng(seed + i))`: the bag's order, from its sorted contents."""
        N, n = self.num_envs, self.num_players
        observer = np.asarray(seats, dtype=np.int64).reshape(N)
        if ((observer < 0) | (observer >= n)).any():
            raise ValueError(f"determinize needs a seat 0..{n - 1} per game")
        states = (np.int64(seed) + self.rows.astype(np.int64)).astype(np.uint64)
        k = np.arange(self.bag_capacity)[None, :]
        valid = k < self.bag_len[:, None]
        counts = kind_counts(self.bag, valid, COUNTS_LEN)
        cum = np.cumsum(counts, axis=1)
        items = np.where(valid, (k[:, :, None] >= cum[:, None, :]).sum(axis=2), 0).astype(np.int8)
        shuffle(states, items, self.bag_len.copy())
        self.bag[:] = items

    # -- observations and the engine's view of a game --------------------------------------------
    def observe(self, seats: npt.ArrayLike | None = None) -> npt.NDArray[np.float32]:
        """(N, *obs_shape): the encoder's observation of each game for `seats` (None: the seat to
        move), built only from what that seat may see (castell_obs)."""
        return self.observer.observe(seats)

    def export(self, i: int) -> CastellState:
        """Slot i as an engine state (for tests and debugging; castell_export)."""
        return export_state(self, i)
