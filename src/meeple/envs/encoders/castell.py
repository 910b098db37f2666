"""Castell's observation encoder: one flat float32 vector from `state.view(seat)`.

The layout (offsets, sizes, meaning) is documented in `docs/games/castell.md`, section
"Observation encoding (meeple.envs)". Seats are seat-relative: block k describes seat
`(seat + k) % num_players`, the observer first, then the others clockwise (the direction the
first player marker passes). Regions keep their canonical order (`REGIONS`). Every count is
divided by a bound it cannot exceed, so values lie in [0, 1]; the castellers of each size are
divided by that size's total in play, which the view shows (bag + regions + teams). Only tile
level widths (at 16) and, with user component files, size-token counts are clipped. Besides the
view, only the rule options (`options`, public) and the game's constants are read.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from meeple.batch.castell_layout import (
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
    PLAYER_LEN,
    SCORE_BOUNDS,
    SCORE_KEYS,
    SEGMENT_CODES,
    TILE_LEN,
    USED,
    WHEEL_SIDES,
    layout,
    tile_vector,
)
from meeple.games.castell.components import FIRST_FESTIVAL_ROUND, MAX_TEAM, REGIONS, SPECIAL_TOKENS, TILE_KINDS
from meeple.games.castell.towers.rules import MAX_SKILL, SKILLS
from meeple.games.castell.towers.tiles import MAX_LEVELS

if TYPE_CHECKING:
    from meeple.games.castell.view_types import CastellView, LocalTileView


def shape(num_players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
    """The encoding's shape: one flat vector, its length depending on the player count only."""
    return (layout(num_players)["total"][1],)


_REGION = {name: i for i, name in enumerate(REGIONS)}
_SEGMENT = {name: i for i, name in enumerate(SEGMENT_CODES)}
_KIND = {name: i for i, name in enumerate(TILE_KINDS)}
_PHASE = {name: i for i, name in enumerate(PHASES)}


def encode(view: CastellView, seat: int, num_players: int, options: Mapping[str, Any]) -> np.ndarray:
    """The observation of `seat` from its own view, a float32 vector of `shape(...)`."""
    p = num_players
    lay = layout(p)
    buf = array("f", bytes(4 * lay["total"][1]))  # zeros; numpy wraps it without a copy

    order = [(s - seat) % p for s in range(p)]  # seat -> its place from the observer

    # -- global ---------------------------------------------------------------------------
    buf[lay["round"][0] + view["round"] - 1] = 1.0
    buf[lay["phase"][0] + _PHASE["over" if view["phase"] is None else view["phase"]]] = 1.0
    wheel = view["wheel"]
    buf[lay["wheel_side"][0] + WHEEL_SIDES.index(wheel["side"])] = 1.0
    at = lay["options"][0]
    buf[at] = float(options.get("performance_tokens", "own") == "all")
    buf[at + 1] = float(options.get("refill", "top_up") == "add")
    buf[at + 2] = float(options.get("prize_ties", "lowest") == "one_lower")
    if view["current_player"] is not None:
        buf[lay["current"][0] + order[view["current_player"]]] = 1.0
    buf[lay["first"][0] + order[view["first_player"]]] = 1.0
    turn = view["turn"]
    at = lay["turn"][0]
    for i, name in enumerate(USED):
        if name in turn["used"]:
            buf[at + i] = 1.0
    buf[at + 4] = float(turn["recruit_open"])
    buf[at + 5] = float(turn["free_special"])

    # castellers of each size in play: bag + regions + teams (constant through a game)
    regions = view["regions"]
    players = view["players"]
    bag = view["bag"]["castellers"]
    totals = list(bag)
    for row in [r["castellers"] for r in regions] + [pl["team"] for pl in players]:
        for i in range(NS):
            totals[i] += row[i]
    inv = [1.0 / t if t else 0.0 for t in totals]
    everyone = sum(totals)
    at = lay["bag"][0]
    buf[at] = view["bag"]["count"] / everyone if everyone else 0.0
    for i in range(NS):
        buf[at + 1 + i] = bag[i] * inv[i]

    # -- wheel ----------------------------------------------------------------------------
    buf[lay["wheel_rotation"][0] + wheel["rotation"]] = 1.0
    at = lay["wheel_segments"][0]
    for k, name in enumerate(wheel["segments"]):
        buf[at + k * len(SEGMENT_CODES) + _SEGMENT[name]] = 1.0
    at = lay["wheel_tiles"][0]
    for k, name in enumerate(wheel["tiles"]):
        buf[at + k * NK + _KIND[name]] = 1.0
    at = lay["wheel_facing"][0]
    for name, kind in wheel["facing"].items():
        if name != "none":
            buf[at + _SEGMENT[name] * NK + _KIND[kind]] = 1.0

    # -- regions --------------------------------------------------------------------------
    at = lay["regions"][0]
    sha = view["components"]
    for region in regions:
        buf[at:at + NS] = array("f", [c * f for c, f in zip(region["castellers"], inv)])
        at += NS
        for name in region["neighbours"]:
            buf[at + _REGION[name]] = 1.0
        at += NR
        for tile in region["tiles"]:
            if tile is not None:
                key = (sha, tile["id"])
                cached = _TILES.get(key)
                if cached is None:
                    cached = _TILES[key] = _tile(tile)
                buf[at:at + TILE_LEN] = cached
            at += TILE_LEN
        tokens = region["tokens"]
        for s in range(p):
            buf[at + order[s]] = tokens[s] / SPECIAL_TOKENS
        at += p

    # -- calendar -------------------------------------------------------------------------
    base = lay["calendar"][0]
    for entry in view["calendar"]:
        at = base + (entry["round"] - FIRST_FESTIVAL_ROUND) * FESTIVAL_SLOTS * FESTIVAL_LEN
        for fest in entry["festivals"][:FESTIVAL_SLOTS]:
            buf[at] = 1.0
            buf[at + 1 + _REGION[fest["region"]]] = 1.0
            for size in fest["sizes"]:
                buf[at + 1 + NR + size - 1] += 1.0 / MAX_TOKENS_PER_FESTIVAL
            at += FESTIVAL_LEN

    # -- players, observer first ----------------------------------------------------------
    base = lay["players"][0]
    queue = view["festival"]["queue"]
    entered = {e["seat"]: e["slot"] for e in view["festival"]["entries"]}
    winners = view["winners"]
    for s, pl in enumerate(players):
        at = base + order[s] * PLAYER_LEN
        pawn = pl["pawn"]
        buf[at + (NR if pawn is None else _REGION[pawn])] = 1.0
        at += NR + 1
        team = pl["team"]
        buf[at:at + NS] = array("f", [c * f for c, f in zip(team, inv)])
        buf[at + NS] = sum(team) / MAX_TEAM
        at += NS + 1
        skills = pl["skills"]
        for i, name in enumerate(SKILLS):
            buf[at + i] = skills[name] / MAX_SKILL
        at += len(SKILLS)
        buf[at] = pl["special_tokens"] / SPECIAL_TOKENS
        at += 1
        board = pl["board"]
        per_size = at + 3 * NR
        for name in REGIONS:
            space = board[name]
            if space["tokens"]:
                buf[at] = space["tokens"] / SPECIAL_TOKENS
            if space["prizes"]:
                buf[at + 1] = sum(space["prizes"]) / MAX_PRIZE_SUM_PER_REGION
            sizes = space["size_tokens"]
            if sizes:
                buf[at + 2] = len(sizes) / MAX_SIZE_TOKENS_PER_REGION
                for size in sizes:
                    buf[per_size + size - 1] += 1.0 / MAX_SIZE_TOKENS_PER_SIZE
            at += 3
        at = per_size + NS
        buf[at] = len(pl["performances"]) / MAX_CLAIMED
        at += 1
        score = pl["score"]
        for i, part in enumerate(SCORE_KEYS):
            buf[at + i] = score[part] / SCORE_BOUNDS[i]
        at += len(SCORE_KEYS)
        buf[at] = float(s in queue)
        if s in entered:
            buf[at + 1 + entered[s]] = 1.0
        buf[at + 1 + FESTIVAL_SLOTS] = float(s in winners)

    # -- the observer's own tower preview -------------------------------------------------
    preview = view.get("tower_preview")
    if preview is not None and preview["tower"] is not None:
        at = lay["preview"][0]
        tower = preview["tower"]
        buf[at] = 1.0
        buf[at + 1] = float(preview["festival"] is not None)
        buf[at + 2] = (preview["score"] or 0) / MAX_TOWER_SCORE
        buf[at + 3] = len(tower) / MAX_LEVELS
        buf[at + 4] = sum(len(level) for level in tower) / MAX_TEAM
    out = np.frombuffer(buf, dtype=np.float32)
    # only user component files (more than 3 size tokens of a size) can pass 1: clip them
    np.minimum(out, 1.0, out=out)
    return out


#: Encoded local performance tiles by (components fingerprint, tile id): a tile never changes.
_TILES: dict[tuple[str, str], array[float]] = {}


def _tile(tile: LocalTileView) -> array[float]:
    return tile_vector(tile["kind"], tile["stars"], tile["widths"], tile["min_levels"], tile["uses"])
