"""Castell's observation layout: the bounds, blocks and offsets of the flat float32 vector both the
encoder (`meeple.envs.encoders.castell`, from a view) and the batched simulator
(`meeple.batch.castell`, from arrays) write, declared once so the two cannot drift apart. Table:
docs/games/castell.md, "Observation encoding (meeple.envs)".
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from functools import cache

from meeple.games.castell.actions import ENTERS
from meeple.games.castell.components import (
    FIRST_FESTIVAL_ROUND,
    LAST_ROUND,
    MAX_TEAM,
    REGIONS,
    TILE_KINDS,
    TILES_PER_REGION,
    WHEEL_SEGMENTS,
)
from meeple.games.castell.towers.rules import MAX_SKILL, SIZES, SKILLS
from meeple.games.castell.towers.tiles import MAX_LEVELS

NR = len(REGIONS)
NS = len(SIZES)
NK = len(TILE_KINDS)
#: Festivals a round can hold (the action space has one `enter` per slot).
FESTIVAL_SLOTS = len(ENTERS)
CAL_ROUNDS = LAST_ROUND - FIRST_FESTIVAL_ROUND + 1
#: The view's phases, then one for a finished game (whose view has none).
PHASES = ("turns", "festival", "over")
WHEEL_SIDES = ("standard", "advanced")
USED = ("move", "recruit", "train", "special")
#: A wheel segment: a region, "all" or "none".
SEGMENT_CODES = (*REGIONS, "all", "none")
#: Bounds used for normalising (each a true maximum, see the docs).
MAX_STARS = 9
#: Tile level widths are clipped here (Base levels may be wider than 3 + Width; the shipped
#: tiles reach 12).
MAX_TILE_WIDTH = 16
MAX_TOKENS_PER_FESTIVAL = 3
MAX_PRIZE_SUM_PER_REGION = 10  # two festivals a region (decks I and II), prize 5 each
MAX_SIZE_TOKENS_PER_REGION = 2 * MAX_TOKENS_PER_FESTIVAL
MAX_SIZE_TOKENS_PER_SIZE = 3
MAX_CLAIMED = NR * TILES_PER_REGION
MAX_TOWER_SCORE = MAX_LEVELS + MAX_TEAM
MAX_VARIETY = 14
MAX_PRIZES = 5 * CAL_ROUNDS
MAX_SIZE_TOKEN_POINTS = 4 * NS
MAX_STAR_POINTS = MAX_CLAIMED * MAX_STARS
MAX_TOTAL = MAX_TOWER_SCORE + MAX_VARIETY + MAX_PRIZES + MAX_SIZE_TOKEN_POINTS + MAX_STAR_POINTS
SCORE_KEYS = ("best_tower", "region_variety", "prizes", "size_tokens", "stars", "total")
SCORE_BOUNDS = (MAX_TOWER_SCORE, MAX_VARIETY, MAX_PRIZES, MAX_SIZE_TOKEN_POINTS, MAX_STAR_POINTS, MAX_TOTAL)

#: One local performance tile: present, kind (shape, skill), stars, widths (bottom to top),
#: min_levels, uses (SKILLS order).
TILE_LEN = 1 + 2 + 1 + MAX_LEVELS + 1 + len(SKILLS)
FESTIVAL_LEN = 1 + NR + NS
#: One player: pawn (7 regions + not placed), team per size, team total, skills, tokens left,
#: board per region (tokens, prize sum, size tokens), size tokens per size, performances,
#: score parts, in the entry queue, entered slot, winner.
PLAYER_LEN = (NR + 1) + NS + 1 + len(SKILLS) + 1 + 3 * NR + NS + 1 + len(SCORE_KEYS) + 1 + FESTIVAL_SLOTS + 1
#: Offsets inside a player block.
P_TEAM = NR + 1
P_SKILLS = P_TEAM + NS + 1
P_TOKENS = P_SKILLS + len(SKILLS)
P_BOARD = P_TOKENS + 1
P_PER_SIZE = P_BOARD + 3 * NR
P_PERFORMANCES = P_PER_SIZE + NS
P_SCORE = P_PERFORMANCES + 1
P_QUEUE = P_SCORE + len(SCORE_KEYS)
P_WINNER = P_QUEUE + 1 + FESTIVAL_SLOTS
PREVIEW_LEN = 5
#: One region: castellers per size, neighbours, its tiles, then one token count per seat.
REGION_FIXED = NS + NR + TILES_PER_REGION * TILE_LEN


@cache
def layout(num_players: int) -> dict[str, tuple[int, int]]:
    """Block name -> (offset, size) of the flat vector for `num_players`."""
    p = num_players
    sizes = [
        ("round", LAST_ROUND), ("phase", len(PHASES)), ("wheel_side", len(WHEEL_SIDES)), ("options", 3),
        ("current", p), ("first", p), ("turn", len(USED) + 2), ("bag", 1 + NS),
        ("wheel_rotation", WHEEL_SEGMENTS), ("wheel_segments", WHEEL_SEGMENTS * len(SEGMENT_CODES)),
        ("wheel_tiles", WHEEL_SEGMENTS * NK), ("wheel_facing", (NR + 1) * NK),
        ("regions", NR * (REGION_FIXED + p)),
        ("calendar", CAL_ROUNDS * FESTIVAL_SLOTS * FESTIVAL_LEN),
        ("players", p * PLAYER_LEN), ("preview", PREVIEW_LEN),
    ]
    out: dict[str, tuple[int, int]] = {}
    at = 0
    for name, size in sizes:
        out[name] = (at, size)
        at += size
    out["total"] = (0, at)
    return out


def tile_vector(kind: str, stars: int, widths: Sequence[int], min_levels: int, uses: Sequence[int]) -> array[float]:
    """The TILE_LEN values of one face-up local performance tile."""
    buf = array("f", bytes(4 * TILE_LEN))
    buf[0] = 1.0
    buf[1 if kind == "shape" else 2] = 1.0
    buf[3] = stars / MAX_STARS
    for i, width in enumerate(widths):
        buf[4 + i] = min(width, MAX_TILE_WIDTH) / MAX_TILE_WIDTH
    at = 4 + MAX_LEVELS
    buf[at] = min_levels / MAX_LEVELS
    for i, use in enumerate(uses):
        buf[at + 1 + i] = use / MAX_SKILL
    return buf


def repeated_thirds(count: int) -> float:
    """`count` additions of 1/3 to a float32 slot from 0.0, as the encoder's `+=` loops store them
    (size tokens of a festival and of a player: each addition rounds to float32)."""
    slot = array("f", [0.0])
    for _ in range(count):
        slot[0] += 1.0 / MAX_TOKENS_PER_FESTIVAL
    return slot[0]
