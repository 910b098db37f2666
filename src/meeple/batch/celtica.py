"""Celtica as N games in arrays (issue #32): the engine's rules (C1-C12) applied to every game at once.

Each game's position is held as integer arrays (structure of arrays). The three hidden draw piles
keep their exact order (pile rows, the top is the last card) and every game keeps its own
SplitMix64 state, so reshuffles during play (C6, C7, C9) draw what the engine draws: a game in
slot i passes through exactly the states of `CelticaGame().new_game(P, seed=seeds[i])` given the
same actions. A step runs the engine's continuations (find, ruin, end of turn, deal, end phase)
as stages over the games that reach them; no stage loops over games.

The observation layout is the encoder's (docs/games/celtica.md, "Observation encoding"), declared
once in `meeple.batch.celtica_layout` for both; the differential tests pin the batch's output to
the encoder's, float32 for float32.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from meeple.batch import celtica_layout as L
from meeple.batch.checks import checked_actions
from meeple.batch.protocol import StepResult
from meeple.batch.rng import below, next64, shuffle
from meeple.games.celtica.actions import MAX_CARDS, MAX_EXPERIENCE, NUM_ACTIONS
from meeple.games.celtica.board_file import load_board
from meeple.games.celtica.components import (
    COPIES_PER_PART,
    CULT,
    DISPLAY_SIZE,
    DRUID_CARDS,
    DRUID_CARDS_PER_COLOUR,
    EXPERIENCE_CARDS,
    EXPERIENCE_CARDS_PER_COLOUR,
    FIND,
    HAND_SIZE,
    MAX_LENGTH,
    MAX_NUMBER,
    NUM_COLOURS,
    NUM_PART_TYPES,
    RUIN,
    START_PARTS,
    TOTAL_PARTS,
)
from meeple.games.celtica.game import CelticaGame
from meeple.games.celtica.phases import CULT_PHASE, END_PHASE, END_REASONS, GIVE_PHASE, PHASES, PLAY_PHASE, TAKE_PHASE
from meeple.games.celtica.state import CelticaState

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]
BoolA = npt.NDArray[np.bool_]

C, T = NUM_COLOURS, NUM_PART_TYPES

_AMULET_K = np.arange(COPIES_PER_PART)  # one amulet per copy of a part (C2)


def _counts(cards: npt.NDArray[Any], kinds: int) -> I32:
    """Per row, how many of `cards` (-1: none) are of each kind."""
    out: I32 = (cards[..., None] == np.arange(kinds)).sum(axis=-2, dtype=np.int32)
    return out


def _amulet_sizes(parts: npt.NDArray[Any]) -> I32:
    """C2: amulet k holds the types with more than k parts; its size, for k = 0..9 (zero past the last)."""
    out: I32 = np.count_nonzero(parts[..., None, :] > _AMULET_K[:, None], axis=-1).astype(np.int32)
    return out


def _sorted_items(counts: npt.NDArray[Any], width: int) -> npt.NDArray[np.int8]:
    """Rows of kinds in ascending order, `counts[k]` of kind k (as the engine lists a pile before a
    shuffle); padding past the total is kind `len(counts)`."""
    cum = np.cumsum(counts, axis=1)
    out: npt.NDArray[np.int8] = (np.arange(width)[None, None, :] >= cum[:, :, None]).sum(axis=1).astype(np.int8)
    return out


class _Pile:
    """A hidden draw pile per game (its order kept, the top the last) and its face-up discards by kind."""

    def __init__(self, num_envs: int, capacity: int, kinds: int) -> None:
        self.deck = np.zeros((num_envs, capacity), dtype=np.int8)
        self.size = np.zeros(num_envs, dtype=np.int64)
        self.discards = np.zeros((num_envs, kinds), dtype=np.int32)
        self.capacity = capacity
        self.kinds = kinds


# -- the action ids (actions.py) ----------------------------------------------------------------
K_PLAY, K_TAKE, K_GIVE, K_CULT, K_SWAP, K_BUY, K_DONE = range(7)
_PER_COLOUR = MAX_CARDS * (MAX_EXPERIENCE + 1)
TAKE0 = C * _PER_COLOUR
GIVE0 = TAKE0 + T
CULT0 = GIVE0 + T
SWAP0 = CULT0 + 2
BUY0 = SWAP0 + T * T
DONE_ID = BUY0 + T
assert DONE_ID + 1 == NUM_ACTIONS
_KIND = np.empty(NUM_ACTIONS, dtype=np.int64)
_A1 = np.zeros(NUM_ACTIONS, dtype=np.int64)
_A2 = np.zeros(NUM_ACTIONS, dtype=np.int64)
_A3 = np.zeros(NUM_ACTIONS, dtype=np.int64)
for _c in range(C):
    for _k in range(1, MAX_CARDS + 1):
        for _e in range(MAX_EXPERIENCE + 1):
            _i = _c * _PER_COLOUR + (_k - 1) * (MAX_EXPERIENCE + 1) + _e
            _KIND[_i], _A1[_i], _A2[_i], _A3[_i] = K_PLAY, _c, _k, _e
for _t in range(T):
    _KIND[TAKE0 + _t], _A1[TAKE0 + _t] = K_TAKE, _t
    _KIND[GIVE0 + _t], _A1[GIVE0 + _t] = K_GIVE, _t
    _KIND[BUY0 + _t], _A1[BUY0 + _t] = K_BUY, _t
    for _u in range(T):
        _KIND[SWAP0 + _t * T + _u], _A1[SWAP0 + _t * T + _u], _A2[SWAP0 + _t * T + _u] = K_SWAP, _t, _u
_KIND[CULT0], _KIND[CULT0 + 1], _A1[CULT0 + 1] = K_CULT, K_CULT, 1
_KIND[DONE_ID] = K_DONE
#: _PLAY_ROWS[cards, experience]: which plays of one colour's block (cards from 1, then experience)
#: a hand with that many druid and experience cards of the colour may make (C5).
_PLAY_ROWS = (
    (np.arange(1, MAX_CARDS + 1)[None, None, :, None] <= np.arange(MAX_CARDS + 1)[:, None, None, None])
    & (np.arange(MAX_EXPERIENCE + 1)[None, None, None, :] <= np.arange(MAX_EXPERIENCE + 1)[None, :, None, None])
).reshape(MAX_CARDS + 1, MAX_EXPERIENCE + 1, _PER_COLOUR)
_NOT_SELF = ~np.eye(T, dtype=bool)

_AR = np.arange(16)
_UNSAFE: Final = "unsafe"  # writes into the float32 buffer cast from int, bool or float64
#: C12: sum of BASE ** size over a player's amulets orders players exactly as the ruling does.
_BASE = COPIES_PER_PART + 1


class CelticaBatch:
    """N games of Celtica stepped together; see the module docstring and meeple.batch.protocol."""

    num_actions = NUM_ACTIONS

    def __init__(self, num_envs: int, num_players: int, options: Mapping[str, Any] | None = None,
                 seed: int = 0) -> None:
        self.game = CelticaGame()
        self.game.check_players(num_players)
        self.options = self.game.resolve_options(dict(options or {}))
        board = load_board(self.options["board"])
        self.num_envs = N = num_envs
        self.num_players = n = num_players
        self.goal = board.goal
        self.site_action = np.array(board.actions, dtype=np.int64)
        self.site_number = np.array(board.numbers, dtype=np.int64)
        self.values_at = L.values_offset(n)
        self.obs_shape = (L.size(n),)
        # The observation buffer, feature-major; what no step changes (the board, the printed-board
        # flag, the winner flags of a running game) is written here once.
        self._obs = np.zeros((L.size(n), N), dtype=np.float32)
        self._obs[L.BOARD:L.BOARD + L.BOARD_SIZE] = L.board_block(board.kinds, board.numbers)[:, None]
        self._obs[L.FLAGS + 1] = float(board.provenance == "printed")
        self._obs_druids = np.zeros((C, N), dtype=np.int64)  # the druid locations the buffer shows
        self._obs[L.DRUID_POS + np.arange(C) * MAX_LENGTH] = 1.0
        self._obs_view = self._obs.T.view()
        self._obs_view.flags.writeable = False
        self._values = np.zeros((L.COMMON_VALUES + n * L.P_VALUES, N), dtype=np.float64)
        self._scale = np.array(L.VALUE_SCALES + L.P_SCALES * n, dtype=np.float64)[:, None]
        self._rows = np.arange(N)
        self._seats = np.arange(n)
        self.druids = np.zeros((N, C), dtype=np.int64)
        self.druids_home = np.zeros(N, dtype=np.int64)
        self.hands = np.zeros((N, n, C), dtype=np.int32)
        self.cards_held = np.zeros((N, n), dtype=np.int32)
        self.experience = np.zeros((N, n, C), dtype=np.int32)
        self.experience_held = np.zeros((N, n), dtype=np.int32)
        self.parts = np.zeros((N, n, T), dtype=np.int32)
        self.amulets = np.zeros((N, n, L.MAX_AMULETS), dtype=np.int32)  # _amulet_sizes(parts), kept up to date
        self.display = np.zeros((N, T), dtype=np.int32)
        self.display_size = np.zeros(N, dtype=np.int64)
        self.supply = _Pile(N, TOTAL_PARTS, T)
        self.druid = _Pile(N, DRUID_CARDS, C)
        self.exp = _Pile(N, EXPERIENCE_CARDS, C)
        self.owed = np.full((N, n), -1, dtype=np.int64)
        self.phase = np.zeros(N, dtype=np.int64)
        self.pending = np.zeros(N, dtype=np.int64)
        self.round = np.ones(N, dtype=np.int64)
        self.final_round = np.zeros(N, dtype=bool)
        self.ender = np.full(N, -1, dtype=np.int64)
        self.end_reason = np.full(N, -1, dtype=np.int64)
        self.queue_at = np.zeros(N, dtype=np.int64)  # the end queue is ender+1+k for k from queue_at to n-1
        self.over = np.zeros(N, dtype=bool)
        self.current_player = np.zeros(N, dtype=np.int8)
        self.current = np.zeros(N, dtype=np.int64)
        self.rng = np.zeros(N, dtype=np.uint64)
        self.seeds = np.zeros(N, dtype=np.int64)
        self._next_seed = 0
        self._mask: BoolA | None = None
        self.reset(seed)

    # -- starting games -------------------------------------------------------------------------
    def reset(self, seed: int) -> None:
        """Game i starts as the engine's new_game(P, seed=seed + i); later games take seed + N, ..."""
        self.seeds[:] = seed + self._rows
        self._next_seed = seed + self.num_envs
        self._start(self._rows)
        self.current_player[:] = self.current

    def _start(self, idx: I64) -> None:
        """C4 for the games at idx: shuffle the piles, 2 parts each, 9 in the display, deal 5 cards."""
        m, n = len(idx), self.num_players
        self._mask = None
        self.druids[idx] = 0
        self.druids_home[idx] = 0
        self.hands[idx] = 0
        self.cards_held[idx] = 0
        self.experience[idx] = 0
        self.experience_held[idx] = 0
        self.parts[idx] = 0
        self.owed[idx] = -1
        self.phase[idx] = PLAY_PHASE
        self.pending[idx] = 0
        self.round[idx] = 1
        self.final_round[idx] = False
        self.ender[idx] = -1
        self.end_reason[idx] = -1
        self.queue_at[idx] = 0
        self.over[idx] = False
        states = self.seeds[idx].astype(np.uint64)  # two's complement: seed & (2**64 - 1), as seed_from
        for pile, per_kind in ((self.druid, DRUID_CARDS_PER_COLOUR), (self.exp, EXPERIENCE_CARDS_PER_COLOUR),
                               (self.supply, COPIES_PER_PART)):
            items = np.repeat(np.arange(pile.kinds, dtype=np.int8), per_kind)[None, :].repeat(m, axis=0)
            shuffle(states, items, np.full(m, pile.capacity, dtype=np.int64))
            pile.deck[idx] = items
            pile.size[idx] = pile.capacity
            pile.discards[idx] = 0
        self.rng[idx] = states
        dealt = START_PARTS * n
        drawn = self.supply.deck[idx[:, None], TOTAL_PARTS - 1 - np.arange(dealt + DISPLAY_SIZE)]
        self.parts[idx] = _counts(drawn[:, :dealt].reshape(m, n, START_PARTS), T)
        self.amulets[idx] = _amulet_sizes(self.parts[idx])
        self.display[idx] = _counts(drawn[:, dealt:], T)
        self.display_size[idx] = DISPLAY_SIZE
        self.supply.size[idx] = TOTAL_PARTS - dealt - DISPLAY_SIZE
        self._deal(idx, np.zeros(m, dtype=np.int64))

    # -- piles ----------------------------------------------------------------------------------
    def _draw(self, pile: _Pile, idx: I64, want: I64, width: int) -> tuple[npt.NDArray[np.int8], I64]:
        """Draw `want` cards (at most `width`) from the top of each game's pile, reshuffling its
        discards once when the pile runs out (C6, C7, C9); the cards (-1 past those drawn) and how many."""
        have = pile.size[idx]
        k = np.arange(width)[None, :]
        got = np.minimum(have, want)
        at = have[:, None] - 1 - k
        cards = np.where(k < got[:, None], pile.deck[idx[:, None], np.maximum(at, 0)], np.int8(-1))
        left = have - got
        short = np.flatnonzero((want > have) & (pile.discards[idx].sum(axis=1) > 0))
        if short.size:
            sidx = idx[short]
            counts = pile.discards[sidx]
            sizes = counts.sum(axis=1).astype(np.int64)
            items = _sorted_items(counts, pile.capacity)
            sub = self.rng[sidx]
            shuffle(sub, items, sizes)
            self.rng[sidx] = sub
            pile.deck[sidx] = items
            pile.discards[sidx] = 0
            rest = np.minimum(want[short] - have[short], sizes)
            k2 = k - have[short][:, None]
            at2 = np.clip(sizes[:, None] - 1 - k2, 0, pile.capacity - 1)
            pick = (k2 >= 0) & (k2 < rest[:, None])
            cards[short] = np.where(pick, items[np.arange(len(short))[:, None], at2], cards[short])
            got[short] += rest
            left[short] = sizes - rest
        pile.size[idx] = left
        return cards, got

    def _deal(self, idx: I64, starter: I64) -> None:
        """C9: each player draws 5 druid cards, `starter` first; `starter` begins the round."""
        n = self.num_players
        m = len(idx)
        cards, _ = self._draw(self.druid, idx, np.full(m, HAND_SIZE * n, dtype=np.int64), HAND_SIZE * n)
        per_seat = _counts(cards.reshape(m, n, HAND_SIZE), C)  # relative to the starter
        seats = (starter[:, None] + self._seats[None, :]) % n
        self.hands[idx[:, None], seats] += per_seat
        self.cards_held[idx] += HAND_SIZE
        self.current[idx] = starter
        self.phase[idx] = PLAY_PHASE

    def _refill(self, idx: I64) -> BoolA:
        """C6: fill the display to 9; False where parts had to be drawn and none were left (C10)."""
        need = DISPLAY_SIZE - self.display_size[idx]
        cards, got = self._draw(self.supply, idx, need, DISPLAY_SIZE)
        self.display[idx] += _counts(cards, T)
        self.display_size[idx] += got
        ok: BoolA = got == need
        return ok

    # -- the end phase (C10, C11) ------------------------------------------------------------------
    def _can_spend(self, idx: I64) -> BoolA:
        """(games, seats): whether the seat has an end-phase action besides done."""
        held = self.experience_held[idx]
        shown = self.display[idx] > 0
        owned = self.parts[idx] > 0
        n_owned = owned.sum(axis=2)
        n_shown = shown.sum(axis=1)[:, None]
        both = (owned & shown[:, None, :]).sum(axis=2)
        swap = (n_owned > 0) & (n_shown > 0) & ~((n_owned == 1) & (n_shown == 1) & (both == 1))
        out: BoolA = ((held >= 2) & (self.display_size[idx] > 0)[:, None]) | ((held >= 1) & swap)
        return out

    def _end_game(self, idx: I64, reason: int) -> None:
        self.ender[idx] = self.current[idx]
        self.end_reason[idx] = reason
        self.phase[idx] = END_PHASE
        self.pending[idx] = 0
        self.queue_at[idx] = 0

    def _start_end_turn(self, idx: I64) -> None:
        """C11: the first seat left in the queue that can spend acts; none: the game is over."""
        n = self.num_players
        spend = self._can_spend(idx)
        seat = (self.ender[idx][:, None] + 1 + self._seats[None, :]) % n
        ready = (self._seats[None, :] >= self.queue_at[idx][:, None]) & spend[np.arange(len(idx))[:, None], seat]
        anyone = ready.any(axis=1)
        first = ready.argmax(axis=1)
        self.queue_at[idx] = np.where(anyone, first, n)
        self.current[idx] = np.where(anyone, seat[np.arange(len(idx)), first], self.current[idx])
        self.over[idx] = ~anyone

    def _end_turn(self, idx: I64) -> tuple[I64, I64]:
        """C9, C10: the next seat holding cards plays; or a new round is dealt; or the game ends.
        Returns the games that ended (all home, goal) with their reasons."""
        n = self.num_players
        p = self.current[idx]
        home = self.druids_home[idx] == C
        seat = (p[:, None] + 1 + self._seats[None, :]) % n
        has = self.cards_held[idx[:, None], seat] > 0
        found = has.any(axis=1) & ~home
        nxt = seat[np.arange(len(idx)), has.argmax(axis=1)]
        go = idx[found]
        self.current[go] = nxt[found]
        self.phase[go] = PLAY_PHASE
        out = ~found & ~home
        ends = out & self.final_round[idx]
        new_round = idx[out & ~ends]
        self.round[new_round] += 1
        if new_round.size:
            self._deal(new_round, (self.current[new_round] + 1) % n)
        ended = np.flatnonzero(home | ends)
        return idx[ended], np.where(home[ended], 1, 2)

    # -- masks, steps -----------------------------------------------------------------------------
    def legal_mask(self) -> BoolA:
        """(N, num_actions): the engine's legal_action_ids() of every game."""
        if self._mask is not None:
            return self._mask
        N, rows, cur, phase = self.num_envs, self._rows, self.current, self.phase
        mask = np.zeros((N, NUM_ACTIONS), dtype=bool)
        hand = self.hands[rows, cur]
        owed = self.owed[rows, cur]
        colour_ok = (phase == PLAY_PHASE)[:, None] & ((owed < 0)[:, None] | (owed[:, None] == np.arange(C)))
        hand = np.where(colour_ok, hand, 0)  # no card of a colour that may not be played: no play of it
        mask[:, :TAKE0] = _PLAY_ROWS[hand, self.experience[rows, cur]].reshape(N, TAKE0)
        shown = self.display > 0
        mask[:, TAKE0:GIVE0] = shown & (phase == TAKE_PHASE)[:, None]
        mine = self.parts[rows, cur] > 0
        mask[:, GIVE0:CULT0] = mine & (phase == GIVE_PHASE)[:, None]
        mask[:, CULT0:SWAP0] = (phase == CULT_PHASE)[:, None]
        end = phase == END_PHASE
        held = self.experience_held[rows, cur]
        swap = (mine[:, :, None] & shown[:, None, :] & _NOT_SELF) & (end & (held >= 1))[:, None, None]
        mask[:, SWAP0:BUY0] = swap.reshape(N, T * T)
        mask[:, BUY0:DONE_ID] = shown & (end & (held >= 2))[:, None]
        mask[:, DONE_ID] = end
        mask.flags.writeable = False  # `step` checks actions against it
        self._mask = mask
        return mask

    def scores(self) -> npt.NDArray[np.int32]:
        """Complete amulets per seat (C2), as the engine's scores()."""
        out: npt.NDArray[np.int32] = self.parts.min(axis=2).astype(np.int32)
        return out

    def _rewards(self, idx: I64) -> npt.NDArray[np.float32]:
        """C12: winners (best standing) share 1, as State.rewards()."""
        sizes = self.amulets[idx]
        value = np.where(sizes > 0, np.power(_BASE, sizes, dtype=np.int64), 0).sum(axis=2)
        won = value == value.max(axis=1, keepdims=True)
        out: npt.NDArray[np.float32] = (won / won.sum(axis=1, keepdims=True)).astype(np.float32)
        return out

    def step(self, actions: npt.ArrayLike, active: npt.NDArray[np.bool_] | None = None) -> StepResult:
        """One action per game (each legal, else ValueError naming the slots and nothing changes);
        with `active`, only the games it marks move (the others' actions are ignored)."""
        live, ids = checked_actions(actions, self.legal_mask(), active)
        a = np.zeros(self.num_envs, np.int64)
        a[live] = ids
        self._mask = None
        kind, a1, a2, a3 = _KIND[a], _A1[a], _A2[a], _A3[a]
        if active is not None:
            kind = np.where(active, kind, -1)  # a kind no branch below takes: those games stay as they are
        finds: list[I64] = []
        ruins: list[I64] = []
        turns: list[I64] = []
        nexts: list[I64] = []

        idx = np.flatnonzero(kind == K_PLAY)
        if idx.size:
            self._play(idx, a1[idx], a2[idx], a3[idx], finds, ruins, turns)
        idx = np.flatnonzero(kind == K_TAKE)
        if idx.size:  # C6
            p, t = self.current[idx], a1[idx]
            self.display[idx, t] -= 1
            self.display_size[idx] -= 1
            self.parts[idx, p, t] += 1
            self.amulets[idx, p] = _amulet_sizes(self.parts[idx, p])
            self.pending[idx] -= 1
            finds.append(idx[(self.pending[idx] == 0) | (self.display_size[idx] == 0)])
        idx = np.flatnonzero(kind == K_GIVE)
        if idx.size:  # C7
            p, t = self.current[idx], a1[idx]
            self.parts[idx, p, t] -= 1
            self.amulets[idx, p] = _amulet_sizes(self.parts[idx, p])
            self.supply.discards[idx, t] += 1
            self.pending[idx] -= 1
            ruins.append(idx[self.pending[idx] == 0])
        idx = np.flatnonzero(kind == K_CULT)
        if idx.size:  # C8
            draw = idx[a1[idx] == 1]
            if draw.size:
                cards, _ = self._draw(self.druid, draw, np.ones(len(draw), dtype=np.int64), 1)
                card = cards[:, 0].astype(np.int64)
                p = self.current[draw]
                self.hands[draw, p, card] += 1
                self.cards_held[draw, p] += 1
                self.owed[draw, p] = card
            turns.append(idx)
        idx = np.flatnonzero(kind == K_SWAP)
        if idx.size:  # C11
            p, g, t = self.current[idx], a1[idx], a2[idx]
            self._spend(idx, p, 1)
            self.parts[idx, p, g] -= 1
            self.parts[idx, p, t] += 1
            self.amulets[idx, p] = _amulet_sizes(self.parts[idx, p])
            self.display[idx, t] -= 1
            self.display[idx, g] += 1
            nexts.append(idx[~self._can_spend(idx)[np.arange(len(idx)), p]])
        idx = np.flatnonzero(kind == K_BUY)
        if idx.size:  # C11
            p, t = self.current[idx], a1[idx]
            self._spend(idx, p, 2)
            self.parts[idx, p, t] += 1
            self.amulets[idx, p] = _amulet_sizes(self.parts[idx, p])
            self.display[idx, t] -= 1
            self.display_size[idx] -= 1
            nexts.append(idx[~self._can_spend(idx)[np.arange(len(idx)), p]])
        nexts.append(np.flatnonzero(kind == K_DONE))

        ruin = _cat(ruins)
        if ruin.size:  # C7: one experience card after giving up parts
            self.pending[ruin] = 0
            cards, got = self._draw(self.exp, ruin, np.ones(len(ruin), dtype=np.int64), 1)
            drew = ruin[got > 0]
            card = cards[got > 0, 0].astype(np.int64)
            p = self.current[drew]
            self.experience[drew, p, card] += 1
            self.experience_held[drew, p] += 1
            turns.append(ruin)
        find = _cat(finds)
        nxt = _cat(nexts)
        self.queue_at[nxt] += 1
        self.pending[find] = 0
        both = np.concatenate([find, nxt])
        ended: list[I64] = []
        if both.size:
            ok = self._refill(both)[:len(find)]
            turns.append(find[ok])
            ended.append(find[~ok])
            self._end_game(find[~ok], 0)
        turn = _cat(turns)
        if turn.size:
            done, why = self._end_turn(turn)
            for reason in (1, 2):
                gone = done[why == reason]
                self._end_game(gone, reason)
            ended.append(done)
        starts = np.concatenate([*ended, nxt])
        if starts.size:
            self._start_end_turn(starts)

        over = self.over
        terminated = over.copy()
        N, n = self.num_envs, self.num_players
        rewards = np.zeros((N, n), dtype=np.float32)
        final = np.zeros((N, n), dtype=np.int32)
        gone = np.flatnonzero(over)
        if gone.size:
            rewards[gone] = self._rewards(gone)
            final[gone] = self.parts[gone].min(axis=2)
            self.seeds[gone] = self._next_seed + np.arange(len(gone))
            self._next_seed += len(gone)
            self._start(gone)
        self.current_player[:] = self.current
        self._mask = None
        return StepResult(rewards, terminated, final)

    def _play(self, idx: I64, c: I64, k: I64, e: I64, finds: list[I64], ruins: list[I64],
              turns: list[I64]) -> None:
        """C5: discard the cards, move the druid, let the location act (C6-C8)."""
        p = self.current[idx]
        self.hands[idx, p, c] -= k
        self.cards_held[idx, p] -= k
        self.druid.discards[idx, c] += k
        self.experience[idx, p, c] -= e
        self.experience_held[idx, p] -= e
        self.exp.discards[idx, c] += e
        self.owed[idx, p] = -1
        start = self.druids[idx, c]
        goal = self.goal
        home = start == goal
        turns.append(idx[home])  # C5: a druid in the goal does not move
        moving = ~home
        idx, p, c = idx[moving], p[moving], c[moving]
        dest = np.minimum(start[moving] + k[moving] + e[moving], goal)
        self.druids[idx, c] = dest
        arrived = idx[dest == goal]
        self.druids_home[arrived] += 1
        self.final_round[arrived] = True  # C10
        where = self.site_action[dest]
        number = self.site_number[dest]
        find = where == FIND
        take = np.minimum(number, self.display_size[idx])
        go = find & (take > 0)
        self.phase[idx[go]] = TAKE_PHASE
        self.pending[idx[go]] = take[go]
        finds.append(idx[find & (take == 0)])
        ruin = where == RUIN
        lose = np.minimum(number, self.parts[idx, p].sum(axis=1))
        go = ruin & (lose > 0)
        self.phase[idx[go]] = GIVE_PHASE
        self.pending[idx[go]] = lose[go]
        ruins.append(idx[ruin & (lose == 0)])
        cult = (where == CULT) & ((self.druid.size[idx] > 0) | (self.druid.discards[idx].sum(axis=1) > 0))
        self.phase[idx[cult]] = CULT_PHASE
        turns.append(idx[~find & ~ruin & ~cult])

    def _spend(self, idx: I64, p: I64, count: int) -> None:
        """C11: spend experience cards, lowest colour first (as the engine)."""
        ex = self.experience[idx, p]
        before = np.cumsum(ex, axis=1) - ex
        used = np.clip(count - before, 0, ex)
        self.experience[idx, p] = ex - used
        self.exp.discards[idx] += used
        self.experience_held[idx, p] -= count

    # -- observations -------------------------------------------------------------------------------
    def observe(self, seats: npt.ArrayLike | None = None) -> npt.NDArray[np.float32]:
        """(N, *obs_shape): the encoder's observation of each game for `seats` (None: the seat to move),
        built only from what that seat may see.

        The result is a read-only view of the simulator's own buffer, valid until the next
        `observe`, `step`, `reset` or `determinize` (copy it to keep it). The buffer is held
        feature-major, (size, N): each feature is one contiguous write over all games; the board
        is written once and a druid's one-hot only where it moved since the last call."""
        N, n, rows, o = self.num_envs, self.num_players, self._rows, self._obs
        seat = self.current if seats is None else np.asarray(seats, dtype=np.int64).reshape(N)
        druids = self.druids.T
        colour, game = np.nonzero(druids != self._obs_druids)
        base = L.DRUID_POS + colour * MAX_LENGTH
        o[base + self._obs_druids[colour, game], game] = 0.0
        o[base + druids[colour, game], game] = 1.0
        self._obs_druids[colour, game] = druids[colour, game]
        ar = _AR[:, None]
        np.equal(druids, self.goal, out=o[L.DRUID_HOME:L.DRUID_HOME + C], casting=_UNSAFE)
        np.equal(self.owed.reshape(-1)[rows * n + seat], ar[:C], out=o[L.MUST_PLAY:L.MUST_PLAY + C], casting=_UNSAFE)
        phase = np.where(self.over, len(PHASES), self.phase)
        np.equal(phase, ar[:len(L.PHASE_NAMES)], out=o[L.PHASE:L.PHASE + len(L.PHASE_NAMES)], casting=_UNSAFE)
        np.equal(self.end_reason, ar[:len(END_REASONS)], out=o[L.END_REASON:L.END_REASON + len(END_REASONS)],
                 casting=_UNSAFE)
        np.copyto(o[L.FLAGS], self.final_round, casting=_UNSAFE)
        rel = seat + self._seats[:, None]  # (n, N): relative seat j is seat (seat + j) % n
        rel %= n
        flat = rel + rows * n  # into arrays of shape (N, n, ...)
        flags = o[L.PLAYER_FLAGS:self.values_at].reshape(n, L.PF_WIDTH, N)
        np.greater_equal(self.owed.reshape(-1)[flat], 0, out=flags[:, L.PF_OWES], casting=_UNSAFE)
        np.equal(rel, self.current, out=flags[:, L.PF_CURRENT], casting=_UNSAFE)
        np.equal(rel, self.ender, out=flags[:, L.PF_ENDER], casting=_UNSAFE)
        queued = (rel - self.ender - 1) % n >= self.queue_at
        queued &= (self.ender >= 0) & ~self.over
        np.copyto(flags[:, L.PF_QUEUE], queued, casting=_UNSAFE)
        values = self._values
        np.divide(druids, self.goal, out=values[:C])
        values[C] = self.pending / MAX_NUMBER
        values[C + 1] = np.minimum(self.round, L.MAX_ROUND) / L.MAX_ROUND
        values[C + 2] = (self.goal + 1) / MAX_LENGTH
        at = C + 3
        for block in (self.display.T, self.supply.size, self.supply.discards.T, self.druid.size,
                      self.druid.discards.T, self.exp.size, self.exp.discards.T,
                      self.hands.reshape(-1, C)[rows * n + seat].T, self.experience.reshape(-1, C)[rows * n + seat].T):
            width = 1 if block.ndim == 1 else len(block)
            values[at:at + width] = block
            at += width
        per = values[at:].reshape(n, L.P_VALUES, N)
        parts = self.parts.reshape(-1, T)[flat].transpose(0, 2, 1)  # (n, T, N)
        per[:, :T] = parts
        per[:, T] = self.cards_held.reshape(-1)[flat]
        per[:, T + 1] = self.experience_held.reshape(-1)[flat]
        per[:, T + 2] = parts.min(axis=1)
        per[:, T + 3:] = self.amulets.reshape(-1, L.MAX_AMULETS)[flat].transpose(0, 2, 1)
        np.multiply(values, self._scale, out=o[self.values_at:], casting=_UNSAFE)
        return self._obs_view

    # -- hidden information -----------------------------------------------------------------------
    def determinize(self, seats: npt.ArrayLike, seed: int) -> None:
        """Re-deal, in every game, what seats[i] cannot see, exactly as the engine's
        `determinize(seats[i], Rng(seed + i))`: other hands with the piles, owed colours redrawn,
        the supply reshuffled, the future reshuffles re-seeded."""
        N, n, rows = self.num_envs, self.num_players, self._rows
        observer = np.asarray(seats, dtype=np.int64).reshape(N)
        states = (np.int64(seed) + rows.astype(np.int64)).astype(np.uint64)
        others = self._seats[None, :] != observer[:, None]  # (N, n)
        for pile, hands, held in ((self.druid, self.hands, self.cards_held),
                                  (self.exp, self.experience, self.experience_held)):
            deck_counts = _counts(np.where(np.arange(pile.capacity)[None, :] < pile.size[:, None], pile.deck, -1),
                                  pile.kinds)
            pool = deck_counts + (hands * others[:, :, None]).sum(axis=1)
            total = pool.sum(axis=1).astype(np.int64)
            items = _sorted_items(pool, pile.capacity)
            shuffle(states, items, total)
            sizes = held * others
            ends = np.cumsum(sizes, axis=1)
            starts = ends - sizes
            k = np.arange(pile.capacity)[None, :]
            for q in range(n):
                mine = (k >= starts[:, q:q + 1]) & (k < ends[:, q:q + 1])
                dealt = _counts(np.where(mine, items, -1), pile.kinds)
                hands[:, q] = np.where(others[:, q:q + 1], dealt, hands[:, q])
            at = ends[:, -1]
            src = np.minimum(at[:, None] + k, pile.capacity - 1)
            pile.deck[:] = np.take_along_axis(items, src, axis=1)
            pile.size[:] = total - at
        for q in range(n):
            owes = np.flatnonzero(others[:, q] & (self.owed[:, q] >= 0))
            if owes.size:
                sub = states[owes]
                pick = below(sub, self.cards_held[owes, q].astype(np.int64)).astype(np.int64)
                states[owes] = sub
                cum = np.cumsum(self.hands[owes, q], axis=1)
                self.owed[owes, q] = (pick[:, None] >= cum).sum(axis=1)
        counts = _counts(np.where(np.arange(TOTAL_PARTS)[None, :] < self.supply.size[:, None], self.supply.deck, -1), T)
        items = _sorted_items(counts, TOTAL_PARTS)
        shuffle(states, items, self.supply.size.copy())
        self.supply.deck[:] = items
        self.rng[:] = next64(states)
        self._mask = None

    # -- to the engine ------------------------------------------------------------------------------
    def export(self, i: int) -> CelticaState:
        """Slot i as an engine state (for tests and debugging)."""
        n = self.num_players
        s = self.game.new_game(n, seed=int(self.seeds[i]), **self.options)
        s.druids = [int(x) for x in self.druids[i]]
        s.druids_home = int(self.druids_home[i])
        s.hands = [[int(x) for x in row] for row in self.hands[i]]
        s.cards_held = [int(x) for x in self.cards_held[i]]
        s.experience = [[int(x) for x in row] for row in self.experience[i]]
        s.experience_held = [int(x) for x in self.experience_held[i]]
        s.parts = [[int(x) for x in row] for row in self.parts[i]]
        s.display = [int(x) for x in self.display[i]]
        s.display_size = int(self.display_size[i])
        s.supply = [int(x) for x in self.supply.deck[i, :self.supply.size[i]]]
        s.part_discards = [int(x) for x in self.supply.discards[i]]
        s.num_part_discards = int(self.supply.discards[i].sum())
        s.druid_deck = [int(x) for x in self.druid.deck[i, :self.druid.size[i]]]
        s.druid_discards = [int(x) for x in self.druid.discards[i]]
        s.experience_deck = [int(x) for x in self.exp.deck[i, :self.exp.size[i]]]
        s.experience_discards = [int(x) for x in self.exp.discards[i]]
        s.owed_colour = [int(x) for x in self.owed[i]]
        s.phase = int(self.phase[i])
        s.pending = int(self.pending[i])
        s.round = int(self.round[i])
        s.final_round = bool(self.final_round[i])
        s.ender = int(self.ender[i])
        s.end_reason = END_REASONS[self.end_reason[i]] if self.end_reason[i] >= 0 else ""
        s.end_queue = ([(int(self.ender[i]) + 1 + k) % n for k in range(int(self.queue_at[i]), n)]
                       if self.ender[i] >= 0 else [])
        s.current = int(self.current[i])
        s.over = bool(self.over[i])
        s.rng = int(self.rng[i])
        return s


def _cat(parts: list[I64]) -> I64:
    """The games collected for one stage (each game at most once)."""
    if not parts:
        return np.zeros(0, dtype=np.int64)
    out: I64 = np.concatenate(parts)
    return out
