"""K10 local performance tiles: the data file, its validation, and what meeting a tile means.

Tiles are shown only in pictures in the rulebook, so the shipped set is reconstructed
(`data/local_performances.toml`, every tile marked with its provenance). A player who owns the
game can load a corrected file with `load_local_tiles(path)`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from itertools import pairwise
from typing import Any, TypeGuard

from meeple.core.checks import is_whole
from meeple.core.datafile import read_data_text
from meeple.core.errors import DataError
from meeple.core.values import rebuild_by_fields
from meeple.games.castell.towers.rules import MAX_SKILL, SKILLS, Tower, validate

KINDS = ("shape", "skill")
MIN_TILES = 14  # 7 regions x 2 tiles face up (K10)
# No legal tower is taller (K6): at most 5 Base levels, then widths 8..1 with 5 Balance repeats.
MAX_LEVELS = 5 + (3 + MAX_SKILL) + MAX_SKILL
WIDEST_LIMIT = 3 + MAX_SKILL  # width limit w with Width 5 (K6)
DEFAULT_FILE = "local_performances.toml"


@dataclass(frozen=True, slots=True)
class LocalTile:
    """One local performance tile (K10).

    kind "shape": build a tower whose level widths, bottom to top, equal `widths`.
    kind "skill": build a tower of at least `min_levels` levels whose K6 uses reach `uses`
    (SKILLS order). Fields of the other kind are empty: widths () or min_levels 0, uses zeros.
    """

    id: str
    kind: str
    stars: int
    widths: tuple[int, ...] = ()
    min_levels: int = 0
    uses: tuple[int, ...] = (0, 0, 0, 0, 0)
    provenance: str = "reconstructed"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return rebuild_by_fields(self)  # copy and pickle in the compiled build too


def satisfies_tile(tower: Tower, skills: tuple[int, ...], tile: LocalTile) -> bool:
    """Does `tower`, built by a player with `skills`, meet `tile` (K10)? Legality is K6;
    whether the player holds the castellers is the caller's check (`castellers_needed`)."""
    check = validate(tower, skills)
    if not check.legal:
        return False
    if tile.kind == "shape":
        return tuple(len(level) for level in tower) == tile.widths
    return len(tower) >= tile.min_levels and all(u >= t for u, t in zip(check.uses, tile.uses))


def _int(value: Any, lo: int, hi: int) -> TypeGuard[int]:
    return is_whole(value) and lo <= value <= hi


def _tile(raw: Any, where: str, index: int) -> LocalTile:
    """One validated tile from its TOML table; DataError names file, tile and field."""
    label = f"{where}: tile #{index + 1}"
    if not isinstance(raw, dict):
        raise DataError(f"{label}: expected a table")

    def bad(field: str, why: str) -> DataError:
        return DataError(f"{label} ({raw.get('id', '?')}): field '{field}' {why}")

    allowed = {"id", "kind", "stars", "widths", "min_levels", "uses", "provenance"}
    extra = sorted(set(raw) - allowed)
    if extra:
        raise bad(extra[0], f"is unknown (allowed: {', '.join(sorted(allowed))})")
    tid = raw.get("id")
    if not isinstance(tid, str) or not tid:
        raise bad("id", "must be a non-empty string")
    kind = raw.get("kind")
    if kind not in KINDS:
        raise bad("kind", f"must be one of {', '.join(KINDS)}")
    stars = raw.get("stars")
    if not _int(stars, 1, 9):
        raise bad("stars", "must be an int 1..9")
    provenance = raw.get("provenance")
    if not isinstance(provenance, str) or not provenance:
        raise bad("provenance", 'must be a non-empty string such as "reconstructed"')
    if kind == "shape":
        for field in ("min_levels", "uses"):
            if field in raw:
                raise bad(field, "belongs to skill tiles, not shape tiles")
        widths = raw.get("widths")
        if not isinstance(widths, list) or not 1 <= len(widths) <= MAX_LEVELS or not all(
            _int(n, 1, 150) for n in widths
        ):
            raise bad("widths", f"must list 1..{MAX_LEVELS} positive level widths, bottom to top")
        if any(above > below for below, above in pairwise(widths)):
            raise bad("widths", "must not grow upwards (K6: an upper level is never wider)")
        if sum(1 for below, above in pairwise(widths) if above == below) > MAX_SKILL:
            raise bad("widths", f"needs more than {MAX_SKILL} Balance uses (K6)")
        if sum(1 for n in widths if n > WIDEST_LIMIT) > MAX_SKILL:
            raise bad("widths", f"needs more than {MAX_SKILL} Base uses (K6)")
        no_uses = (0,) * len(SKILLS)
        return LocalTile(tid, kind, stars, tuple(widths), len(widths), no_uses, provenance)
    if "widths" in raw:
        raise bad("widths", "belongs to shape tiles, not skill tiles")
    min_levels = raw.get("min_levels")
    if not _int(min_levels, 1, MAX_LEVELS):
        raise bad("min_levels", f"must be an int 1..{MAX_LEVELS}")
    uses = raw.get("uses")
    if not isinstance(uses, list) or len(uses) != len(SKILLS) or not all(
        _int(u, 0, MAX_SKILL) for u in uses
    ):
        order = ", ".join(SKILLS)
        raise bad("uses", f"must list {len(SKILLS)} ints 0..{MAX_SKILL} in order {order}")
    return LocalTile(tid, kind, stars, (), min_levels, tuple(uses), provenance)


def load_local_tiles(path: str | None = None) -> tuple[LocalTile, ...]:
    """The local performance tiles from `path`, or the shipped reconstructed set."""
    try:
        if path is None:
            where = f"castell/data/{DEFAULT_FILE}"
            text = resources.files("meeple.games.castell").joinpath("data", DEFAULT_FILE).read_text("utf-8")
        else:
            where = path
            text = read_data_text(path, f"local performance tiles {path}")
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{where}: not valid TOML: {exc}") from None
    raw_tiles = data.get("tile")
    if not isinstance(raw_tiles, list):
        raise DataError(f"{where}: expected [[tile]] tables")
    if len(raw_tiles) < MIN_TILES:
        raise DataError(
            f"{where}: {len(raw_tiles)} tiles, need at least {MIN_TILES} (2 per region, K10)"
        )
    tiles = tuple(_tile(raw, where, i) for i, raw in enumerate(raw_tiles))
    seen: set[str] = set()
    for tile in tiles:
        if tile.id in seen:
            raise DataError(f"{where}: tile '{tile.id}': field 'id' is used twice")
        seen.add(tile.id)
    return tiles
