"""The blocks Castell's observation is joined from, each made once per distinct content
(functools caches): the header ("round" to "turn"), the bag, the wheel, a region's castellers and
the rest of a region, the calendar, a seat's hand and player board, the tower preview. Both
encoders join them: `castell` from a view, `castell_state` from the state's own fields (the
`*_of` makers read a block's inputs from the state, on a cache miss only).

A block is the bytes of its float32 values, clipped at 1. Each value is computed as a float and
rounded to float32 once, as a store into a float32 array rounds it; size tokens count in thirds
as repeated float32 additions (`repeated_thirds`). The makers use no numpy and are compiled: the
state's path makes a block whenever what it shows is new (a recruit, a skill, a token spent),
about once a step.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from functools import cache, lru_cache
from struct import Struct
from typing import TYPE_CHECKING

from meeple.batch.castell_layout import (
    CAL_ROUNDS,
    FESTIVAL_LEN,
    FESTIVAL_SLOTS,
    MAX_CLAIMED,
    MAX_PRIZE_SUM_PER_REGION,
    MAX_SIZE_TOKENS_PER_REGION,
    MAX_TOWER_SCORE,
    NK,
    NR,
    NS,
    PHASES,
    PREVIEW_LEN,
    SCORE_BOUNDS,
    SCORE_KEYS,
    SEGMENT_CODES,
    TILE_LEN,
    USED,
    layout,
    repeated_thirds,
    tile_vector,
)
from meeple.games.castell.components import (
    FIRST_FESTIVAL_ROUND,
    LAST_ROUND,
    MAX_TEAM,
    REGIONS,
    SPECIAL_TOKENS,
    TILE_KINDS,
    TILES_PER_REGION,
    WHEEL_SEGMENTS,
)
from meeple.games.castell.towers.rules import MAX_SKILL, SKILLS
from meeple.games.castell.towers.tiles import MAX_LEVELS
from meeple.games.castell.view import PHASES as VIEW_PHASES
from meeple.games.castell.view import STEPS, tower_preview
from meeple.games.castell.view import _segment_name as segment_name

if TYPE_CHECKING:
    from meeple.games.castell.components import Components, Festival
    from meeple.games.castell.state import CastellState
    from meeple.games.castell.towers.tiles import LocalTile
    from meeple.games.castell.view_types import TowerPreview

REGION = {name: i for i, name in enumerate(REGIONS)}
SEGMENT = {name: i for i, name in enumerate(SEGMENT_CODES)}
KIND = {name: i for i, name in enumerate(TILE_KINDS)}
PHASE = {name: i for i, name in enumerate(PHASES)}
#: The state's phase (an index into the view's phase names) as an index into PHASES.
STATE_PHASE = tuple(PHASE[name] for name in VIEW_PHASES)
OVER = PHASE["over"]

# The blocks' inputs: hashable values the view shows, read from a view (`castell`) or from the
# state's fields that view copies (`castell_state`).
#: A local performance tile: kind, stars, level widths, min_levels, uses (SKILLS order).
Tile = tuple[str, int, tuple[int, ...], int, tuple[int, ...]]
#: A region of a player board: special action tokens, prize values, size tokens.
Space = tuple[int, tuple[int, ...], tuple[int, ...]]
#: The tower preview: at a festival?, its score (0 without one), levels, castellers.
Preview = tuple[bool, int, int, int]
#: A calendar round: its number, then (region, size tokens) per festival.
CalendarRound = tuple[int, tuple[tuple[int, tuple[int, ...]], ...]]


def relative(values: Sequence[int], seat: int) -> tuple[int, ...]:
    """Per-seat values from the observer on (the observer first, then clockwise)."""
    p = len(values)
    return tuple(values[(seat + j) % p] for j in range(p))


def _inverse(in_play: tuple[int, ...]) -> list[float]:
    return [1.0 / t if t else 0.0 for t in in_play]


def _block(buf: list[float]) -> bytes:
    """A finished block as float32 bytes, clipped at 1 (the values `castell`'s docstring names can
    pass it). Clipping before rounding gives the same float32 values as `np.minimum` after it:
    rounding to float32 is monotone and keeps 1.0."""
    return _packer(len(buf)).pack(*[value if value < 1.0 else 1.0 for value in buf])


@cache
def _packer(size: int) -> Struct:
    """`size` native float32 values, each rounded as a store into a float32 array rounds it."""
    return Struct(f"{size}f")


def _floats(size: int) -> list[float]:
    return [0.0] * size


@cache
def supply(components: Components) -> tuple[int, ...]:
    """The castellers of each size in play: the components' supply (K2: the integrity check
    keeps bag + regions + teams equal to it)."""
    return tuple(components.castellers[1:])


@cache
def used_steps(used: int) -> tuple[str, ...]:
    """The turn's steps taken (K4, K5), named as the view names them."""
    return tuple(name for bit, name in STEPS if used & bit)


@lru_cache(maxsize=4096)
def header(p: int, rnd: int, phase: int, side: int, options: tuple[bool, bool, bool], current: int, first: int,
           used: tuple[str, ...], recruit_open: bool, free_special: bool) -> bytes:
    """The blocks "round" to "turn" (`current`, `first`: places from the observer; -1: none)."""
    lay = layout(p)
    buf = _floats(lay["bag"][0])
    buf[lay["round"][0] + rnd - 1] = 1.0
    buf[lay["phase"][0] + phase] = 1.0
    buf[lay["wheel_side"][0] + side] = 1.0
    at = lay["options"][0]
    for i, flag in enumerate(options):
        buf[at + i] = float(flag)
    if current >= 0:
        buf[lay["current"][0] + current] = 1.0
    buf[lay["first"][0] + first] = 1.0
    at = lay["turn"][0]
    for i, name in enumerate(USED):
        if name in used:
            buf[at + i] = 1.0
    buf[at + 4] = float(recruit_open)
    buf[at + 5] = float(free_special)
    return _block(buf)


@lru_cache(maxsize=4096)
def bag(count: int, per_size: tuple[int, ...], in_play: tuple[int, ...]) -> bytes:
    """Castellers in the bag, all and per size, over those in play."""
    inv = _inverse(in_play)
    everyone = sum(in_play)
    buf = _floats(1 + NS)
    buf[0] = count / everyone if everyone else 0.0
    for i in range(NS):
        buf[1 + i] = per_size[i] * inv[i]
    return _block(buf)


_SEGMENTS_AT = WHEEL_SEGMENTS
_TILES_AT = _SEGMENTS_AT + WHEEL_SEGMENTS * len(SEGMENT_CODES)
_FACING_AT = _TILES_AT + WHEEL_SEGMENTS * NK
_WHEEL_LEN = _FACING_AT + (NR + 1) * NK


@lru_cache(maxsize=256)
def wheel(rotation: int, segments: tuple[int, ...], tiles: tuple[int, ...],
          facing: tuple[tuple[int, int], ...]) -> bytes:
    """The blocks "wheel_rotation" to "wheel_facing" (indices into SEGMENT_CODES, TILE_KINDS)."""
    buf = _floats(_WHEEL_LEN)
    buf[rotation] = 1.0
    for k, code in enumerate(segments):
        buf[_SEGMENTS_AT + k * len(SEGMENT_CODES) + code] = 1.0
    for k, kind in enumerate(tiles):
        buf[_TILES_AT + k * NK + kind] = 1.0
    for code, kind in facing:
        buf[_FACING_AT + code * NK + kind] = 1.0
    return _block(buf)


def wheel_of(state: CastellState) -> bytes:
    names = [segment_name(code) for code in state.wheel_side]
    facing = {name: state.segment_tile(i) for i, name in enumerate(names)}  # one kind per name, as the view
    return wheel((state.round - 1) % 8, tuple(SEGMENT[name] for name in names), tuple(state.skill_at),
                 tuple((SEGMENT[name], kind) for name, kind in facing.items() if name != "none"))


@lru_cache(maxsize=16384)
def castellers(in_play: tuple[int, ...], counts: tuple[int, ...]) -> bytes:
    """Castellers per size over those in play (a region's, or a team's)."""
    return _block([c * f for c, f in zip(counts, _inverse(in_play))])


@lru_cache(maxsize=16384)
def region(neighbours: tuple[int, ...], tiles: tuple[Tile | None, ...], tokens: tuple[int, ...]) -> bytes:
    """The rest of a region after its castellers: neighbours, local performance tiles, special
    action tokens per seat from the observer on."""
    buf = _floats(NR + TILES_PER_REGION * TILE_LEN + len(tokens))
    for r in neighbours:
        buf[r] = 1.0
    at = NR
    for tile in tiles:
        if tile is not None:
            buf[at:at + TILE_LEN] = _tile(tile)
        at += TILE_LEN
    for j, count in enumerate(tokens):
        buf[at + j] = count / SPECIAL_TOKENS
    return _block(buf)


def region_of(state: CastellState, r: int, seat: int) -> bytes:
    local = state.components.local_tiles
    tiles = tuple(None if t < 0 else _tile_values(local[t]) for t in state.region_tiles[r])
    return region(state.components.neighbours[r], tiles, relative(state.board_tokens[r], seat))


def _tile_values(tile: LocalTile) -> Tile:
    return tile.kind, tile.stars, tuple(tile.widths), tile.min_levels, tuple(tile.uses)


@lru_cache(maxsize=1024)
def _tile(tile: Tile) -> array[float]:
    return tile_vector(*tile)


@lru_cache(maxsize=1024)
def calendar(entries: tuple[CalendarRound, ...]) -> bytes:
    """Per round and festival slot: present, region, size tokens per size."""
    buf = _floats(CAL_ROUNDS * FESTIVAL_SLOTS * FESTIVAL_LEN)
    for rnd, festivals in entries:
        at = (rnd - FIRST_FESTIVAL_ROUND) * FESTIVAL_SLOTS * FESTIVAL_LEN
        for where, sizes in festivals[:FESTIVAL_SLOTS]:
            buf[at] = 1.0
            buf[at + 1 + where] = 1.0
            for size in set(sizes):
                buf[at + 1 + NR + size - 1] = repeated_thirds(sizes.count(size))
            at += FESTIVAL_LEN
    return _block(buf)


def calendar_of(festivals: tuple[tuple[Festival, ...], ...]) -> bytes:
    """The calendar block of a game's festivals (drawn at set-up, never changed)."""
    return calendar(tuple((rnd, tuple((f.region, f.tokens) for f in festivals[rnd]))
                          for rnd in range(FIRST_FESTIVAL_ROUND, LAST_ROUND + 1)))


@lru_cache(maxsize=16384)
def hand(in_play: tuple[int, ...], pawn: int, team: tuple[int, ...], skills: tuple[int, ...],
         tokens: int) -> bytes:
    """A seat's pawn (a region, NR when not placed), team, skills and special action tokens in
    hand: what its turns change."""
    buf = _floats(NR + 1 + NS + 1 + len(SKILLS) + 1)
    buf[pawn] = 1.0
    at = NR + 1
    buf[at:at + NS] = [c * f for c, f in zip(team, _inverse(in_play))]
    buf[at + NS] = sum(team) / MAX_TEAM
    at += NS + 1
    for i, level in enumerate(skills):
        buf[at + i] = level / MAX_SKILL
    buf[at + len(SKILLS)] = tokens / SPECIAL_TOKENS
    return _block(buf)


@lru_cache(maxsize=16384)
def player_board(board: tuple[Space, ...], performances: int, score: tuple[int, ...], queued: bool, entered: int,
                 winner: bool) -> bytes:
    """The rest of a seat: its player board, performances, score parts, festival entry (`entered`:
    the festival slot, -1: none), winner."""
    buf = _floats(3 * NR + NS + 1 + len(SCORE_KEYS) + 1 + FESTIVAL_SLOTS + 1)
    at = 0
    per_size = 3 * NR
    tokens = [0] * (NS + 1)
    for held, prize_values, sizes in board:
        if held:
            buf[at] = held / SPECIAL_TOKENS
        if prize_values:
            buf[at + 1] = sum(prize_values) / MAX_PRIZE_SUM_PER_REGION
        if sizes:
            buf[at + 2] = len(sizes) / MAX_SIZE_TOKENS_PER_REGION
            for size in sizes:
                tokens[size] += 1
        at += 3
    for size in range(1, NS + 1):
        if tokens[size]:
            buf[per_size + size - 1] = repeated_thirds(tokens[size])
    at = per_size + NS
    buf[at] = performances / MAX_CLAIMED
    at += 1
    for i, part in enumerate(score):
        buf[at + i] = part / SCORE_BOUNDS[i]
    at += len(SCORE_KEYS)
    buf[at] = float(queued)
    if entered >= 0:
        buf[at + 1 + entered] = 1.0
    buf[at + 1 + FESTIVAL_SLOTS] = float(winner)
    return _block(buf)


def player_board_of(state: CastellState, s: int, queued: bool, entered: int, winner: bool) -> bytes:
    """Seat `s`'s `player_board` from the state (the K11 score parts follow from its fields)."""
    score = state.score_breakdown()[s]
    prize_list, size_list = state.prizes[s], state.size_tokens[s]
    board = tuple((held, tuple(v for rr, v in prize_list if rr == r), tuple(z for rr, z in size_list if rr == r))
                  for r, held in enumerate(state.player_board_tokens[s]))
    return player_board(board, len(state.claimed[s]), tuple(score[k] for k in SCORE_KEYS), queued, entered, winner)


def preview_of(state: CastellState, seat: int) -> bytes:
    return preview(preview_values(tower_preview(state, seat)))


def preview_values(shown: TowerPreview) -> Preview | None:
    tower = shown["tower"]
    if tower is None:
        return None
    return (shown["festival"] is not None, shown["score"] or 0, len(tower), sum(len(level) for level in tower))


@lru_cache(maxsize=1024)
def preview(values: Preview | None) -> bytes:
    """The observer's own tower preview (None: no tower, or a spectator)."""
    buf = _floats(PREVIEW_LEN)
    if values is not None:
        festival, score, levels, people = values
        buf[0] = 1.0
        buf[1] = float(festival)
        buf[2] = score / MAX_TOWER_SCORE
        buf[3] = levels / MAX_LEVELS
        buf[4] = people / MAX_TEAM
    return _block(buf)
