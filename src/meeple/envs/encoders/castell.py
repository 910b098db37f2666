"""Castell's observation encoder: one flat float32 vector from `state.view(seat)`.

The layout (offsets, sizes, meaning) is documented in `docs/games/castell.md`, section
"Observation encoding (meeple.envs)". Seats are seat-relative: block k describes seat
`(seat + k) % num_players`, the observer first, then the others clockwise (the direction the
first player marker passes). Regions keep their canonical order (`REGIONS`). Every count is
divided by a bound it cannot exceed, so values lie in [0, 1]; the castellers of each size are
divided by that size's total in play, which the view shows (bag + regions + teams). Three values
are clipped at 1: tile level widths (at 16), size-token counts with user component files, and the
special-action tokens on one region of a player board (divided by a seat's 7, though a
performance moves every seat's tokens of the region there, up to 7 x players). Besides the
view, only the rule options (`options`, public) and the game's constants are read.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache, partial
from typing import TYPE_CHECKING, Any

import numpy as np

from meeple.batch.castell_layout import (
    CAL_ROUNDS,
    FESTIVAL_LEN,
    FESTIVAL_SLOTS,
    MAX_CLAIMED,
    MAX_PRIZE_SUM_PER_REGION,
    MAX_SIZE_TOKENS_PER_REGION,
    MAX_SIZE_TOKENS_PER_SIZE,
    MAX_TOKENS_PER_FESTIVAL,
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
    WHEEL_SIDES,
    layout,
    tile_vector,
)
from meeple.envs.encoders.blocks import BlockCache, frozen
from meeple.envs.encoders.castell_recall import recall as recall  # the RecallEncoder part (OpenSpiel)
from meeple.envs.encoders.castell_recall import recall_size as recall_size
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
    from meeple.games.castell.view_types import CastellView, TowerPreview

def shape(num_players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
    """The encoding's shape: one flat vector, its length depending on the player count only."""
    return (layout(num_players)["total"][1],)


_REGION = {name: i for i, name in enumerate(REGIONS)}
_SEGMENT = {name: i for i, name in enumerate(SEGMENT_CODES)}
_KIND = {name: i for i, name in enumerate(TILE_KINDS)}
_PHASE = {name: i for i, name in enumerate(PHASES)}
#: The state's phase (an index into the view's phase names) as an index into PHASES.
_STATE_PHASE = tuple(_PHASE[name] for name in VIEW_PHASES)
_OVER = _PHASE["over"]

# The blocks' inputs: hashable values the view shows, read from a view (`encode`) or from the
# state's fields that view copies (`encode_state`).
#: A local performance tile: kind, stars, level widths, min_levels, uses (SKILLS order).
Tile = tuple[str, int, tuple[int, ...], int, tuple[int, ...]]
#: A region of a player board: special action tokens, prize values, size tokens.
Space = tuple[int, tuple[int, ...], tuple[int, ...]]
#: The tower preview: at a festival?, its score (0 without one), levels, castellers.
Preview = tuple[bool, int, int, int]
#: A calendar round: its number, then (region, size tokens) per festival.
CalendarRound = tuple[int, tuple[tuple[int, tuple[int, ...]], ...]]


def encode(view: CastellView, seat: int, num_players: int, options: Mapping[str, Any]) -> np.ndarray:
    """The observation of `seat` from its own view, a float32 vector of `shape(...)`."""
    p = num_players
    order = [(s - seat) % p for s in range(p)]  # seat -> its place from the observer
    regions = view["regions"]
    players = view["players"]
    bag = view["bag"]["castellers"]
    # castellers of each size in play: bag + regions + teams (constant through a game)
    totals = list(bag)
    for row in [r["castellers"] for r in regions] + [pl["team"] for pl in players]:
        for i in range(NS):
            totals[i] += row[i]
    in_play = tuple(totals)
    wheel = view["wheel"]
    turn = view["turn"]
    current = view["current_player"]
    blocks = [
        _header(p, view["round"], _PHASE["over" if view["phase"] is None else view["phase"]],
                WHEEL_SIDES.index(wheel["side"]), _option_flags(options), -1 if current is None else order[current],
                order[view["first_player"]], tuple(turn["used"]), turn["recruit_open"], turn["free_special"]),
        _bag(view["bag"]["count"], tuple(bag), in_play),
        _wheel(wheel["rotation"], tuple(_SEGMENT[name] for name in wheel["segments"]),
               tuple(_KIND[name] for name in wheel["tiles"]),
               tuple((_SEGMENT[name], _KIND[kind]) for name, kind in wheel["facing"].items() if name != "none")),
    ]
    for region in regions:
        blocks += (_castellers(in_play, tuple(region["castellers"])),
                   _region(tuple(_REGION[name] for name in region["neighbours"]),
                           tuple(None if t is None else (t["kind"], t["stars"], tuple(t["widths"]), t["min_levels"],
                                                         tuple(t["uses"])) for t in region["tiles"]),
                           _relative(region["tokens"], seat)))
    blocks.append(_calendar(tuple(
        (entry["round"], tuple((_REGION[fest["region"]], tuple(fest["sizes"])) for fest in entry["festivals"]))
        for entry in view["calendar"])))
    queue = view["festival"]["queue"]
    entered = {e["seat"]: e["slot"] for e in view["festival"]["entries"]}
    winners = view["winners"]
    for j in range(p):
        s = (seat + j) % p
        pl = players[s]
        pawn = pl["pawn"]
        board = pl["board"]
        blocks += (
            _hand(in_play, NR if pawn is None else _REGION[pawn], tuple(pl["team"]),
                  tuple(pl["skills"][k] for k in SKILLS), pl["special_tokens"]),
            _player_board(
                tuple((board[name]["tokens"], tuple(board[name]["prizes"]), tuple(board[name]["size_tokens"]))
                      for name in REGIONS),
                len(pl["performances"]), tuple(pl["score"][k] for k in SCORE_KEYS), s in queue, entered.get(s, -1),
                s in winners))
    preview = view.get("tower_preview")
    blocks.append(_preview(None if preview is None else _preview_values(preview)))
    return np.concatenate(blocks)


def encode_state(state: CastellState, seat: int) -> np.ndarray:
    """The same vector as `encode(state.view(seat), ...)`, read from the fields that view copies,
    without building the view: each block is looked up by the state fields it shows, so a step
    costs a few tuple keys per region and seat. The castellers in play of each size are the
    components' supply (K2: the integrity check keeps bag + regions + teams equal to it)."""
    p = state.num_players
    comp = state.components
    in_play = _supply(comp)
    current = state.current_player
    rnd = state.round
    blocks = [
        _header(p, rnd, _OVER if state.over else _STATE_PHASE[state.phase],
                WHEEL_SIDES.index(state.options["wheel"]), _option_flags(state.options),
                -1 if current is None else (current - seat) % p, (state.first - seat) % p, _used(state.used),
                state.recruit_open, state.free_special),
        _bag_of(in_play, tuple(state.bag)),
        _WHEELS.get((state.wheel_side, state.skill_at, rnd), partial(_wheel_of, state)),
    ]
    pool, tiles, tokens = state.pool, state.region_tiles, state.board_tokens
    for r in range(NR):
        blocks += (_castellers(in_play, tuple(pool[r][1:])),
                   _REGIONS.get((comp, r, tuple(tiles[r]), tuple(tokens[r]), seat),
                                partial(_region_of, state, r, seat)))
    blocks.append(_calendar_of(state.festivals))
    entered = {s: slot for s, slot, _ in state.entries}
    queue, winners = state.queue, state.winners()
    for j in range(p):
        s = (seat + j) % p
        pawn = state.pawn[s]
        key = (comp, tuple(state.player_board_tokens[s]), tuple(state.prizes[s]), tuple(state.size_tokens[s]),
               tuple(state.claimed[s]), state.best[s], s in queue, entered.get(s, -1), s in winners)
        blocks += (_hand(in_play, NR if pawn < 0 else pawn, tuple(state.teams[s][1:]), tuple(state.skills[s]),
                         state.tokens_left[s]),
                   _BOARDS.get(key, partial(_player_board_of, state, s, key)))
    team, skills, here = tuple(state.teams[seat]), tuple(state.skills[seat]), state.pawn[seat]
    wanted = tuple(f.sizes for f in state.festivals[rnd] if f.region == here)
    blocks.append(_PREVIEWS.get((team, skills, wanted), partial(_preview_of, state, seat)))
    return np.concatenate(blocks)


#: Blocks whose inputs need the state to compute (the K3 wheel turn, the K11 score, the tower
#: solver), by the state fields that determine them.
_WHEELS: BlockCache[tuple[Any, ...], np.ndarray] = BlockCache(256)
_REGIONS: BlockCache[tuple[Any, ...], np.ndarray] = BlockCache(16384)
_BOARDS: BlockCache[tuple[Any, ...], np.ndarray] = BlockCache(16384)
_PREVIEWS: BlockCache[tuple[Any, ...], np.ndarray] = BlockCache(8192)


def _option_flags(options: Mapping[str, Any]) -> tuple[bool, bool, bool]:
    return (options.get("performance_tokens", "own") == "all", options.get("refill", "top_up") == "add",
            options.get("prize_ties", "lowest") == "one_lower")


def _relative(values: Sequence[int], seat: int) -> tuple[int, ...]:
    """Per-seat values from the observer on (the observer first, then clockwise)."""
    p = len(values)
    return tuple(values[(seat + j) % p] for j in range(p))


def _inverse(in_play: tuple[int, ...]) -> list[float]:
    return [1.0 / t if t else 0.0 for t in in_play]


def _block(buf: array[float]) -> np.ndarray:
    """A finished block, clipped at 1 (only user component files, with more than 3 size tokens
    of a size, can pass it)."""
    return frozen(np.minimum(np.frombuffer(buf, dtype=np.float32), 1.0))


def _zeros(size: int) -> array[float]:
    return array("f", bytes(4 * size))


@cache
def _supply(components: Components) -> tuple[int, ...]:
    return tuple(components.castellers[1:])


@cache
def _used(used: int) -> tuple[str, ...]:
    """The turn's steps taken (K4, K5), named as the view names them."""
    return tuple(name for bit, name in STEPS if used & bit)


@lru_cache(maxsize=4096)
def _header(p: int, rnd: int, phase: int, side: int, options: tuple[bool, bool, bool], current: int, first: int,
            used: tuple[str, ...], recruit_open: bool, free_special: bool) -> np.ndarray:
    """The blocks "round" to "turn" (`current`, `first`: places from the observer; -1: none)."""
    lay = layout(p)
    buf = _zeros(lay["bag"][0])
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
def _bag(count: int, bag: tuple[int, ...], in_play: tuple[int, ...]) -> np.ndarray:
    """Castellers in the bag, all and per size, over those in play."""
    inv = _inverse(in_play)
    everyone = sum(in_play)
    buf = _zeros(1 + NS)
    buf[0] = count / everyone if everyone else 0.0
    for i in range(NS):
        buf[1 + i] = bag[i] * inv[i]
    return _block(buf)


@lru_cache(maxsize=4096)
def _bag_of(in_play: tuple[int, ...], bag: tuple[int, ...]) -> np.ndarray:
    counts = [0] * (NS + 1)
    for size in bag:
        counts[size] += 1
    return _bag(len(bag), tuple(counts[1:]), in_play)


_SEGMENTS_AT = WHEEL_SEGMENTS
_TILES_AT = _SEGMENTS_AT + WHEEL_SEGMENTS * len(SEGMENT_CODES)
_FACING_AT = _TILES_AT + WHEEL_SEGMENTS * NK
_WHEEL_LEN = _FACING_AT + (NR + 1) * NK


@lru_cache(maxsize=256)
def _wheel(rotation: int, segments: tuple[int, ...], tiles: tuple[int, ...],
           facing: tuple[tuple[int, int], ...]) -> np.ndarray:
    """The blocks "wheel_rotation" to "wheel_facing" (indices into SEGMENT_CODES, TILE_KINDS)."""
    buf = _zeros(_WHEEL_LEN)
    buf[rotation] = 1.0
    for k, code in enumerate(segments):
        buf[_SEGMENTS_AT + k * len(SEGMENT_CODES) + code] = 1.0
    for k, kind in enumerate(tiles):
        buf[_TILES_AT + k * NK + kind] = 1.0
    for code, kind in facing:
        buf[_FACING_AT + code * NK + kind] = 1.0
    return _block(buf)


def _wheel_of(state: CastellState) -> np.ndarray:
    names = [segment_name(code) for code in state.wheel_side]
    facing = {name: state.segment_tile(i) for i, name in enumerate(names)}  # one kind per name, as the view
    return _wheel((state.round - 1) % 8, tuple(_SEGMENT[name] for name in names), tuple(state.skill_at),
                  tuple((_SEGMENT[name], kind) for name, kind in facing.items() if name != "none"))


@lru_cache(maxsize=16384)
def _castellers(in_play: tuple[int, ...], castellers: tuple[int, ...]) -> np.ndarray:
    """Castellers per size over those in play (a region's, or a team's)."""
    return _block(array("f", [c * f for c, f in zip(castellers, _inverse(in_play))]))


@lru_cache(maxsize=16384)
def _region(neighbours: tuple[int, ...], tiles: tuple[Tile | None, ...], tokens: tuple[int, ...]) -> np.ndarray:
    """The rest of a region after its castellers: neighbours, local performance tiles, special
    action tokens per seat from the observer on."""
    buf = _zeros(NR + TILES_PER_REGION * TILE_LEN + len(tokens))
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


def _region_of(state: CastellState, r: int, seat: int) -> np.ndarray:
    local = state.components.local_tiles
    tiles = tuple(None if t < 0 else _tile_values(local[t]) for t in state.region_tiles[r])
    return _region(state.components.neighbours[r], tiles, _relative(state.board_tokens[r], seat))


def _tile_values(tile: LocalTile) -> Tile:
    return tile.kind, tile.stars, tuple(tile.widths), tile.min_levels, tuple(tile.uses)


@lru_cache(maxsize=1024)
def _tile(tile: Tile) -> array[float]:
    return tile_vector(*tile)


@lru_cache(maxsize=1024)
def _calendar(entries: tuple[CalendarRound, ...]) -> np.ndarray:
    """Per round and festival slot: present, region, size tokens per size."""
    buf = _zeros(CAL_ROUNDS * FESTIVAL_SLOTS * FESTIVAL_LEN)
    for rnd, festivals in entries:
        at = (rnd - FIRST_FESTIVAL_ROUND) * FESTIVAL_SLOTS * FESTIVAL_LEN
        for region, sizes in festivals[:FESTIVAL_SLOTS]:
            buf[at] = 1.0
            buf[at + 1 + region] = 1.0
            for size in sizes:
                buf[at + 1 + NR + size - 1] += 1.0 / MAX_TOKENS_PER_FESTIVAL
            at += FESTIVAL_LEN
    return _block(buf)


@lru_cache(maxsize=1024)
def _calendar_of(festivals: tuple[tuple[Festival, ...], ...]) -> np.ndarray:
    """The calendar block of a game's festivals (drawn at set-up, never changed, shared by clones)."""
    return _calendar(tuple((rnd, tuple((f.region, f.tokens) for f in festivals[rnd]))
                           for rnd in range(FIRST_FESTIVAL_ROUND, LAST_ROUND + 1)))


@lru_cache(maxsize=16384)
def _hand(in_play: tuple[int, ...], pawn: int, team: tuple[int, ...], skills: tuple[int, ...],
          tokens: int) -> np.ndarray:
    """A seat's pawn (a region, NR when not placed), team, skills and special action tokens in
    hand: what its turns change."""
    buf = _zeros(NR + 1 + NS + 1 + len(SKILLS) + 1)
    buf[pawn] = 1.0
    at = NR + 1
    buf[at:at + NS] = array("f", [c * f for c, f in zip(team, _inverse(in_play))])
    buf[at + NS] = sum(team) / MAX_TEAM
    at += NS + 1
    for i, level in enumerate(skills):
        buf[at + i] = level / MAX_SKILL
    buf[at + len(SKILLS)] = tokens / SPECIAL_TOKENS
    return _block(buf)


@lru_cache(maxsize=16384)
def _player_board(board: tuple[Space, ...], performances: int, score: tuple[int, ...], queued: bool, entered: int,
                  winner: bool) -> np.ndarray:
    """The rest of a seat: its player board, performances, score parts, festival entry (`entered`:
    the festival slot, -1: none), winner."""
    buf = _zeros(3 * NR + NS + 1 + len(SCORE_KEYS) + 1 + FESTIVAL_SLOTS + 1)
    at = 0
    per_size = 3 * NR
    for held, prize_values, sizes in board:
        if held:
            buf[at] = held / SPECIAL_TOKENS
        if prize_values:
            buf[at + 1] = sum(prize_values) / MAX_PRIZE_SUM_PER_REGION
        if sizes:
            buf[at + 2] = len(sizes) / MAX_SIZE_TOKENS_PER_REGION
            for size in sizes:
                buf[per_size + size - 1] += 1.0 / MAX_SIZE_TOKENS_PER_SIZE
        at += 3
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


def _player_board_of(state: CastellState, s: int, key: tuple[Any, ...]) -> np.ndarray:
    """Seat `s`'s `_player_board` from the fields in `key` (the K11 score parts follow from them)."""
    held, prize_list, size_list, claimed = key[1:5]
    score = state.score_breakdown()[s]
    board = tuple((held[r], tuple(v for rr, v in prize_list if rr == r), tuple(z for rr, z in size_list if rr == r))
                  for r in range(NR))
    return _player_board(board, len(claimed), tuple(score[k] for k in SCORE_KEYS), *key[6:9])


def _preview_of(state: CastellState, seat: int) -> np.ndarray:
    return _preview(_preview_values(tower_preview(state, seat)))


def _preview_values(preview: TowerPreview) -> Preview | None:
    tower = preview["tower"]
    if tower is None:
        return None
    return (preview["festival"] is not None, preview["score"] or 0, len(tower),
            sum(len(level) for level in tower))


@lru_cache(maxsize=1024)
def _preview(preview: Preview | None) -> np.ndarray:
    """The observer's own tower preview (None: no tower, or a spectator)."""
    buf = _zeros(PREVIEW_LEN)
    if preview is not None:
        festival, score, levels, castellers = preview
        buf[0] = 1.0
        buf[1] = float(festival)
        buf[2] = score / MAX_TOWER_SCORE
        buf[3] = levels / MAX_LEVELS
        buf[4] = castellers / MAX_TEAM
    return _block(buf)
