"""Castell's observation read from the state's own fields, for the env's every step (compiled).

The same vector as `castell.encode(state.view(seat), ...)` (tests/envs/test_observe_fast.py),
from the fields that view copies, without building the view. Each block is looked up by a key
made of the fields it shows (a small integer, or a tuple of the state's own short lists, whose
hashing runs in C), as the bytes of `castell_blocks`' block (made there on a miss), and the
blocks are joined as bytes: a step costs a few dozen C calls, sixteen dictionary look-ups (two
players) and one join, rather than the tuples, `partial` objects and `np.concatenate` of the
view's path (docs/performance.md, "The env's own step"). Blocks that depend on the components
(counts over the castellers in play, a region's map and tiles, the stars of performances) are
kept per component set.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, TypeVar

import numpy as np

from meeple.batch import castell_layout
from meeple.envs.encoders import castell_blocks as blocks
from meeple.games.castell import components, view
from meeple.games.castell.components import Components, Festival
from meeple.games.castell.state import CastellState
from meeple.games.castell.towers import rules

K = TypeVar("K")

#: A cache holds at most this many blocks, then starts again (memory stays bounded).
LIMIT: Final = 1 << 14
F32: Final = np.dtype(np.float32)
# Constants as native values: a compiled module reads another module's names from its dict.
NR: Final = castell_layout.NR
COUNTS_LEN: Final = rules.COUNTS_LEN
WHEEL_SEGMENTS: Final = components.WHEEL_SEGMENTS
#: The bits of `state.used` the header shows (K4, K5).
STEP_BITS: Final = sum(bit for bit, _ in view.STEPS)
STEP_WIDTH: Final = STEP_BITS.bit_length()

RegionKey = tuple[int, tuple[int, ...], int, int, tuple[int, ...]]
HandKey = tuple[tuple[int, ...], tuple[int, ...], int, int]
BoardKey = tuple[tuple[int, ...], tuple[tuple[int, int], ...], tuple[tuple[int, int], ...], tuple[int, ...], int, int]


class _Tables:
    """The blocks that depend on one component set."""

    def __init__(self, comp: Components) -> None:
        self.in_play = blocks.supply(comp)
        self.bags: dict[tuple[int, ...], bytes] = {}
        self.regions: dict[RegionKey, bytes] = {}
        self.hands: dict[HandKey, bytes] = {}
        self.boards: dict[BoardKey, bytes] = {}


_tables: Final[dict[Components, _Tables]] = {}
_headers: Final[dict[int, bytes]] = {}
_wheels: Final[dict[tuple[int, tuple[int, ...], tuple[int, ...]], bytes]] = {}
_previews: Final[dict[tuple[tuple[int, ...], tuple[int, ...], int], bytes]] = {}
#: The calendar by the identity of the state's festivals (drawn at set-up, never changed, shared
#: by clones); each entry holds the festivals it was made from, so their id is not reused.
_calendars: Final[dict[int, tuple[tuple[tuple[Festival, ...], ...], bytes]]] = {}


def kept(cache: dict[K, bytes], key: K, data: bytes) -> bytes:
    """`data` stored under `key` (the cache emptied first once it is full)."""
    if len(cache) >= LIMIT:
        cache.clear()
    cache[key] = data
    return data


def joined(parts: list[bytes]) -> np.ndarray:
    """The observation from its blocks' bytes, a fresh float32 array (both encoders' join)."""
    return np.frombuffer(bytearray().join(parts), dtype=F32)


def option_flags(options: Mapping[str, Any]) -> tuple[bool, bool, bool]:
    """The rule options the header shows: the readings other than the defaults."""
    return (options.get("performance_tokens", "own") == "all", options.get("refill", "top_up") == "add",
            options.get("prize_ties", "lowest") == "one_lower")


def encode_state(state: CastellState, seat: int) -> np.ndarray:
    """The observation of `seat` as a fresh float32 array (see the module's docstring)."""
    comp = state.components
    tables = _tables.get(comp)
    if tables is None:
        if len(_tables) >= 16:  # a process loads a few component sets
            _tables.clear()
        tables = _tables[comp] = _Tables(comp)
    p = state.num_players
    parts = [_header(state, seat), _bag(tables, state), _wheel(state)]
    for r in range(NR):
        parts.append(_region(tables, state, r, seat))
    parts.append(_calendar(state.festivals))
    winners = state.winners()
    for j in range(p):
        s = (seat + j) % p
        parts.append(_hand(tables, state, s))
        parts.append(_board(tables, state, s, s in winners))
    parts.append(_preview(state, seat))
    return joined(parts)


def _header(state: CastellState, seat: int) -> bytes:
    p = state.num_players
    options = state.options
    current = state.current_player
    phase = blocks.OVER if state.over else blocks.STATE_PHASE[state.phase]
    side = castell_layout.WHEEL_SIDES.index(options["wheel"])
    flags = option_flags(options)
    first = (state.first - seat) % p
    rel = -1 if current is None else (current - seat) % p
    used = state.used & STEP_BITS
    key = p  # the widest field first: the others fit their bits for every player count (2-4)
    key = key << 4 | state.round
    key = key << 2 | phase
    key = key << 1 | side
    key = ((key << 1 | flags[0]) << 1 | flags[1]) << 1 | flags[2]
    key = key << 3 | (rel + 1)
    key = key << 3 | first
    key = key << STEP_WIDTH | used
    key = (key << 1 | state.recruit_open) << 1 | state.free_special
    data = _headers.get(key)
    if data is None:
        data = kept(_headers, key, blocks.header(p, state.round, phase, side, flags, rel, first,
                                                 blocks.used_steps(used), state.recruit_open, state.free_special))
    return data


def _bag(tables: _Tables, state: CastellState) -> bytes:
    """By the bag's castellers per size: those in play less the regions' and the teams' (K2)."""
    counts = [0] * COUNTS_LEN
    for size in range(1, COUNTS_LEN):
        count = tables.in_play[size - 1]
        for pool in state.pool:
            count -= pool[size]
        for team in state.teams:
            count -= team[size]
        counts[size] = count
    key = tuple(counts)
    data = tables.bags.get(key)
    if data is None:
        data = kept(tables.bags, key, blocks.bag(len(state.bag), key[1:], tables.in_play))
    return data


def _wheel(state: CastellState) -> bytes:
    """By the rotation (K3: one step a round), the segments and the board skill tiles."""
    key = ((state.round - 1) % WHEEL_SEGMENTS, state.wheel_side, state.skill_at)
    data = _wheels.get(key)
    if data is None:
        data = kept(_wheels, key, blocks.wheel_of(state))
    return data


def _region(tables: _Tables, state: CastellState, r: int, seat: int) -> bytes:
    """A region's castellers and the rest of it (adjacent in the vector), by the region, the
    special action tokens there from the observer on, its tiles and its castellers."""
    p = state.num_players
    tokens = state.board_tokens[r]
    tiles = state.region_tiles[r]
    key = (r, tuple([tokens[(seat + j) % p] for j in range(p)]), tiles[0], tiles[1], tuple(state.pool[r]))
    data = tables.regions.get(key)
    if data is None:
        made = blocks.castellers(tables.in_play, key[4][1:]) + blocks.region_of(state, r, seat)
        data = kept(tables.regions, key, made)
    return data


def _calendar(festivals: tuple[tuple[Festival, ...], ...]) -> bytes:
    key = id(festivals)
    entry = _calendars.get(key)
    if entry is not None and entry[0] is festivals:
        return entry[1]
    if len(_calendars) >= LIMIT:
        _calendars.clear()
    data = blocks.calendar_of(festivals)
    _calendars[key] = (festivals, data)
    return data


def _hand(tables: _Tables, state: CastellState, s: int) -> bytes:
    key = (tuple(state.teams[s]), tuple(state.skills[s]), state.pawn[s], state.tokens_left[s])
    data = tables.hands.get(key)
    if data is None:
        pawn = key[2]
        data = kept(tables.hands, key, blocks.hand(tables.in_play, NR if pawn < 0 else pawn, key[0][1:], key[1],
                                                   key[3]))
    return data


def _board(tables: _Tables, state: CastellState, s: int, winner: bool) -> bytes:
    """By what the seat's player board holds, its best tower score, festival entry and whether
    it won."""
    entered = -1
    for who, slot, _ in state.entries:
        if who == s:
            entered = slot
    queued = s in state.queue
    key = (tuple(state.player_board_tokens[s]), tuple(state.prizes[s]), tuple(state.size_tokens[s]),
           tuple(state.claimed[s]), state.best[s], ((entered + 1) << 1 | queued) << 1 | winner)
    data = tables.boards.get(key)
    if data is None:
        data = kept(tables.boards, key, blocks.player_board_of(state, s, queued, entered, winner))
    return data


def _preview(state: CastellState, seat: int) -> bytes:
    """By the observer's team and skills, and the sizes of the festivals this round where its
    pawn stands (a bitmask per festival, after a leading 1): the tower solver runs on a miss."""
    wanted = 1
    here = state.pawn[seat]
    for fest in state.festivals[state.round]:
        if fest.region == here:
            sizes = 0
            for size in fest.sizes:
                sizes |= 1 << size
            wanted = wanted << COUNTS_LEN | sizes
    key = (tuple(state.teams[seat]), tuple(state.skills[seat]), wanted)
    data = _previews.get(key)
    if data is None:
        data = kept(_previews, key, blocks.preview_of(state, seat))
    return data
