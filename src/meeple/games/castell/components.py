"""Castell's component data: the map, the wheel, the skill tiles, the calendar, the festival and
size tokens, the bag and the local performance tiles, loaded from TOML and validated.

The shipped files live in `data/` beside this module; a user who owns the game may pass a
directory of corrected files (game option `components`). Files missing from that directory fall
back to the shipped ones. Every element carries `provenance = "rulebook" | "reconstructed"`.
The loaded content has a SHA-256 fingerprint (`Components.sha256`) that game states and records
carry, so a record replays only against the very same components.
"""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from meeple.core.checks import is_whole
from meeple.core.datafile import read_data_text
from meeple.core.errors import DataError, MeepleError, RecordError
from meeple.games.castell.towers.rules import COUNTS_LEN, MAX_SIZE, SIZES, SKILLS
from meeple.games.castell.towers.tiles import LocalTile, load_local_tiles

DATA_DIR = Path(__file__).resolve().parent / "data"

#: The seven regions (K1), in the canonical order used for indices everywhere.
REGIONS: tuple[str, ...] = ("barcelona", "mataro", "tarragona", "terrassa", "valls", "vilafranca", "vilanova")
NUM_REGIONS = len(REGIONS)
#: Board skill tile kinds: the five skills (in SKILLS order) and the two instant ones.
TILE_KINDS: tuple[str, ...] = (*SKILLS, "practice", "special")
PRACTICE = TILE_KINDS.index("practice")
SPECIAL = TILE_KINDS.index("special")
#: Segments of the skill wheel and skill tiles around it (K3).
WHEEL_SEGMENTS = 8
PROVENANCES = ("rulebook", "reconstructed")
WHEELS = ("standard", "advanced")
#: Wheel segment codes besides region indices.
SEG_ALL = -1
SEG_NONE = -2
FIRST_FESTIVAL_ROUND = 3
LAST_ROUND = 10
#: K2: castellers per region at set-up and after refills, by player count.
PER_REGION: dict[int, int] = {2: 3, 3: 4, 4: 5}
#: K2: castellers each player draws at set-up.
START_TEAM = 7
#: K2: the regions are topped up at the start of these rounds.
REFILL_ROUNDS: tuple[int, ...] = (3, 5, 7, 9)
#: K5: special action tokens per player.
SPECIAL_TOKENS = 7
#: K10: local performance tiles face up per region.
TILES_PER_REGION = 2
#: K4/K5: castellers a turn can add to a team at most: a Recruit action (2), a paid single
#: recruit and a free one from the Special tile.
MOST_RECRUITS_PER_TURN = 4
#: K4/K5: steps a turn takes at most: Move, the Recruit action's two castellers, Train, the
#: Special tile's free special action, one paid special action (K5), and end_turn.
MOST_STEPS_PER_TURN = 7
#: K8: entry decisions (enter or decline) per seat in a festival round at most: one.
DECISIONS_PER_FESTIVAL_ROUND = 1
#: No team can ever hold more castellers than this (set-up, then every turn of the game at most).
MAX_TEAM = START_TEAM + LAST_ROUND * MOST_RECRUITS_PER_TURN
FILES = (
    "regions.toml",
    "wheel.toml",
    "skill_tiles.toml",
    "calendar.toml",
    "festivals.toml",
    "size_tokens.toml",
    "castellers.toml",
    "local_performances.toml",
)


@dataclass(frozen=True, slots=True)
class FestivalTile:
    id: str
    deck: str
    region: int
    provenance: str


@dataclass(frozen=True, slots=True)
class CalendarRound:
    round: int
    deck: str
    size_tokens: int
    festivals: dict[int, int]  # player count -> festivals this round
    provenance: str


@dataclass(frozen=True, eq=False)
class Components:
    """Everything a game needs from the box, validated. Shared (never mutated) by states.

    Compared and hashed by identity (loads are cached, so one set of files is one object), which
    lets bots key their caches by the component set cheaply."""

    source: str
    sha256: str
    neighbours: tuple[tuple[int, ...], ...]  # per region, adjacent regions ascending
    roads: tuple[tuple[int, int, str], ...]  # (a, b, style) for drawing
    wheels: dict[str, tuple[int, ...]]  # side -> WHEEL_SEGMENTS segment codes (region index, SEG_ALL, SEG_NONE)
    skill_tiles: tuple[int, ...]  # kinds as TILE_KINDS indices
    calendar: dict[int, CalendarRound]
    festivals: tuple[FestivalTile, ...]
    size_tokens: tuple[int, ...]  # one entry per token
    castellers: tuple[int, ...]  # COUNTS_LEN counts, index 0 unused
    local_tiles: tuple[LocalTile, ...]
    provenance: dict[str, list[str]]  # file -> element labels marked reconstructed

    @cached_property
    def distances(self) -> tuple[tuple[int, ...], ...]:
        """Roads between every pair of regions (breadth-first; 99 where no road leads)."""
        table = []
        for start in range(len(self.neighbours)):
            dist = [99] * len(self.neighbours)
            dist[start] = 0
            frontier = [start]
            while frontier:
                nxt = []
                for r in frontier:
                    for nb in self.neighbours[r]:
                        if dist[nb] == 99:
                            dist[nb] = dist[r] + 1
                            nxt.append(nb)
                frontier = nxt
            table.append(tuple(dist))
        return tuple(table)

    def festivals_in_round(self, rnd: int, num_players: int) -> int:
        entry = self.calendar.get(rnd)
        return entry.festivals.get(num_players, 0) if entry else 0


def _fail(file: str, message: str) -> DataError:
    return DataError(f"castell components, {file}: {message}")


def _given(directory: Path | None, name: str) -> Path | None:
    """The directory's own file `name`, or None when it has none (the shipped one is used). Any
    entry counts, so a FIFO or a directory there is refused rather than silently replaced."""
    if directory is None or not os.path.lexists(directory / name):
        return None
    return directory / name


def _read(directory: Path | None, name: str) -> dict[str, Any]:
    path = _given(directory, name) or DATA_DIR / name
    try:
        text = read_data_text(path, str(path))
    except DataError as exc:
        raise _fail(name, str(exc)) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _fail(name, f"not valid TOML ({exc})") from None


def _table_list(data: dict[str, Any], file: str, key: str) -> list[dict[str, Any]]:
    items = data.get(key)
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise _fail(file, f"needs a list of [[{key}]] tables")
    return items


def _provenance(item: dict[str, Any], file: str, label: str, marks: dict[str, list[str]]) -> str:
    value = item.get("provenance")
    if value not in PROVENANCES:
        raise _fail(file, f"{label} needs provenance = \"rulebook\" or \"reconstructed\", not {value!r}")
    if value == "reconstructed":
        marks.setdefault(file, []).append(label)
    return str(value)


def _region(value: Any, file: str, label: str) -> int:
    if value not in REGIONS:
        raise _fail(file, f"{label}: unknown region {value!r} (regions: {', '.join(REGIONS)})")
    return REGIONS.index(value)


def _int(item: dict[str, Any], key: str, file: str, label: str, lo: int, hi: int) -> int:
    value = item.get(key)
    if not is_whole(value) or not lo <= value <= hi:
        raise _fail(file, f"{label}: {key} must be a whole number {lo}..{hi}, not {value!r}")
    return value


def _load_regions(
    data: dict[str, Any], marks: dict[str, list[str]]
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, int, str], ...]]:
    file = "regions.toml"
    regions = _table_list(data, file, "region")
    ids = [r.get("id") for r in regions]
    if sorted(map(str, ids)) != sorted(REGIONS) or len(ids) != len(REGIONS):
        raise _fail(file, f"must list each of the 7 regions once ({', '.join(REGIONS)}), found {ids}")
    for r in regions:
        _provenance(r, file, f"region {r['id']}", marks)
    adj: list[set[int]] = [set() for _ in REGIONS]
    roads = []
    for i, c in enumerate(_table_list(data, file, "connection")):
        label = f"connection {i + 1}"
        a = _region(c.get("a"), file, label)
        b = _region(c.get("b"), file, label)
        if a == b or b in adj[a]:
            raise _fail(file, f"{label}: {c.get('a')}-{c.get('b')} is a loop or listed twice")
        style = c.get("style")
        if style not in ("solid", "dashed"):
            raise _fail(file, f"{label}: style must be \"solid\" or \"dashed\", not {style!r}")
        _provenance(c, file, f"{label} {c['a']}-{c['b']}", marks)
        adj[a].add(b)
        adj[b].add(a)
        roads.append((a, b, style))
    # Every region needs a road out, and the map must be connected, or pawns could be stranded.
    seen, todo = {0}, [0]
    while todo:
        for nb in adj[todo.pop()]:
            if nb not in seen:
                seen.add(nb)
                todo.append(nb)
    if len(seen) != len(REGIONS):
        raise _fail(file, "the connections must join all 7 regions into one map")
    return tuple(tuple(sorted(a)) for a in adj), tuple(roads)


def _load_wheel(data: dict[str, Any], marks: dict[str, list[str]]) -> dict[str, tuple[int, ...]]:
    file = "wheel.toml"
    wheels: dict[str, tuple[int, ...]] = {}
    for side, special in (("standard", "all"), ("advanced", "none")):
        table = data.get(side)
        if not isinstance(table, dict):
            raise _fail(file, f"needs a [{side}] table")
        segs = table.get("segments")
        if not isinstance(segs, list) or len(segs) != WHEEL_SEGMENTS:
            raise _fail(file, f"[{side}] segments must list {WHEEL_SEGMENTS} segments")
        if sorted(map(str, segs)) != sorted([special, *REGIONS]):
            raise _fail(file, f"[{side}] segments must be {special!r} and each region once, not {segs}")
        _provenance(table, file, f"{side} side", marks)
        wheels[side] = tuple(SEG_ALL if s == "all" else SEG_NONE if s == "none" else REGIONS.index(s) for s in segs)
    return wheels


def _load_skill_tiles(data: dict[str, Any], marks: dict[str, list[str]]) -> tuple[int, ...]:
    file = "skill_tiles.toml"
    tiles = _table_list(data, file, "tile")
    if len(tiles) != WHEEL_SEGMENTS:
        raise _fail(file, f"needs {WHEEL_SEGMENTS} skill tiles, found {len(tiles)}")
    kinds = []
    for i, t in enumerate(tiles):
        kind = t.get("kind")
        if kind not in TILE_KINDS:
            raise _fail(file, f"tile {i + 1}: kind must be one of {', '.join(TILE_KINDS)}, not {kind!r}")
        _provenance(t, file, f"tile {i + 1} {kind}", marks)
        kinds.append(TILE_KINDS.index(kind))
    return tuple(kinds)


def _load_calendar(data: dict[str, Any], marks: dict[str, list[str]]) -> dict[int, CalendarRound]:
    file = "calendar.toml"
    calendar: dict[int, CalendarRound] = {}
    for item in _table_list(data, file, "round"):
        rnd = _int(item, "round", file, "a round", FIRST_FESTIVAL_ROUND, LAST_ROUND)
        label = f"round {rnd}"
        if rnd in calendar:
            raise _fail(file, f"{label} is listed twice")
        deck = item.get("deck")
        if deck not in ("I", "II"):
            raise _fail(file, f"{label}: deck must be \"I\" or \"II\", not {deck!r}")
        tokens = _int(item, "size_tokens", file, label, 1, 3)
        table = item.get("festivals")
        if not isinstance(table, dict) or sorted(table) != ["2", "3", "4"]:
            raise _fail(file, f"{label}: festivals must give a count for 2, 3 and 4 players")
        counts = {int(k): _int(table, k, file, f"{label} festivals", 0, 7) for k in table}
        _provenance(item, file, label, marks)
        calendar[rnd] = CalendarRound(rnd, deck, tokens, counts, item["provenance"])
    return calendar


def _load_festivals(data: dict[str, Any], marks: dict[str, list[str]]) -> tuple[FestivalTile, ...]:
    file = "festivals.toml"
    tiles = []
    ids = set()
    for i, item in enumerate(_table_list(data, file, "festival")):
        fid = item.get("id")
        if not isinstance(fid, str) or not fid or fid in ids:
            raise _fail(file, f"festival {i + 1}: id must be a unique non-empty text, not {fid!r}")
        ids.add(fid)
        deck = item.get("deck")
        if deck not in ("I", "II"):
            raise _fail(file, f"festival {fid}: deck must be \"I\" or \"II\", not {deck!r}")
        region = _region(item.get("region"), file, f"festival {fid}")
        tiles.append(FestivalTile(fid, deck, region, _provenance(item, file, f"festival {fid}", marks)))
    for deck in ("I", "II"):
        regions = [t.region for t in tiles if t.deck == deck]
        if len(set(regions)) != len(regions):
            # K7: a deck names every region at most once, so a round's festivals never share a region.
            raise _fail(file, f"deck {deck} names a region twice")
    return tuple(tiles)


def _load_counts(data: dict[str, Any], file: str, key: str, marks: dict[str, list[str]]) -> tuple[int, ...]:
    counts = [0] * COUNTS_LEN
    for item in _table_list(data, file, key):
        size = _int(item, "size", file, key, 1, MAX_SIZE)
        if counts[size]:
            raise _fail(file, f"size {size} is listed twice")
        counts[size] = _int(item, "count", file, f"size {size}", 1, 99)
        _provenance(item, file, f"size {size}", marks)
    return tuple(counts)


def _check_totals(comp: Components) -> None:
    """The calendar must be playable with the decks and tokens given, at every player count."""
    for n in (2, 3, 4):
        for deck in ("I", "II"):
            need = sum(r.festivals[n] for r in comp.calendar.values() if r.deck == deck)
            have = sum(1 for t in comp.festivals if t.deck == deck)
            if need > have:
                raise _fail(
                    "calendar.toml", f"{n} players need {need} festival tiles of deck {deck}, festivals.toml has {have}"
                )
        tokens = sum(r.festivals[n] * r.size_tokens for r in comp.calendar.values())
        if tokens > len(comp.size_tokens):
            have = len(comp.size_tokens)
            raise _fail("calendar.toml", f"{n} players need {tokens} size tokens, size_tokens.toml has {have}")
        if NUM_REGIONS * PER_REGION[n] + START_TEAM * n > sum(comp.castellers):  # K2 set-up must be possible
            raise _fail("castellers.toml", "too few castellers for the set-up")
    need = TILES_PER_REGION * NUM_REGIONS
    if len(comp.local_tiles) < need:
        found = len(comp.local_tiles)
        raise _fail("local_performances.toml", f"needs at least {need} tiles (2 per region), found {found}")


def _fingerprint(content: Any) -> str:
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), default=repr)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def load_components(source: str = "") -> Components:
    """Load and validate the components: `source` "" is the shipped set, else a directory.
    Loads are cached until a file of the directory changes (size or modification time)."""
    directory: Path | None = None
    stamp: tuple[tuple[str, int, int], ...] = ()
    if source:
        directory = Path(source).expanduser()
        if not directory.is_dir():
            raise DataError(f"castell components: {source!r} is not a directory")
        for name in FILES:
            try:
                info = (directory / name).stat()
            except OSError:
                continue
            stamp += ((name, info.st_size, info.st_mtime_ns),)
    return _load(source, directory, stamp)


@lru_cache(maxsize=16)
def _load(source: str, directory: Path | None, stamp: tuple[tuple[str, int, int], ...]) -> Components:
    marks: dict[str, list[str]] = {}
    raw = {name: _read(directory, name) for name in FILES[:-1]}
    neighbours, roads = _load_regions(raw["regions.toml"], marks)
    wheels = _load_wheel(raw["wheel.toml"], marks)
    skill_tiles = _load_skill_tiles(raw["skill_tiles.toml"], marks)
    calendar = _load_calendar(raw["calendar.toml"], marks)
    festivals = _load_festivals(raw["festivals.toml"], marks)
    size_counts = _load_counts(raw["size_tokens.toml"], "size_tokens.toml", "token", marks)
    castellers = _load_counts(raw["castellers.toml"], "castellers.toml", "casteller", marks)
    tile_path = _given(directory, FILES[-1])
    try:
        local_tiles = tuple(load_local_tiles(None if tile_path is None else str(tile_path)))
    except MeepleError:
        raise
    except (OSError, ValueError, TypeError, KeyError) as exc:
        raise _fail(FILES[-1], str(exc)) from None
    for tile in local_tiles:
        if tile.provenance == "reconstructed":
            marks.setdefault(FILES[-1], []).append(f"tile {tile.id}")
    tokens = tuple(s for s in SIZES for _ in range(size_counts[s]))
    content = {
        "neighbours": neighbours,
        "wheels": wheels,
        "skill_tiles": skill_tiles,
        "calendar": {r: (c.deck, c.size_tokens, sorted(c.festivals.items())) for r, c in calendar.items()},
        "festivals": [(f.id, f.deck, f.region) for f in festivals],
        "size_tokens": tokens,
        "castellers": castellers,
        "local_tiles": [
            (t.id, t.kind, t.stars, tuple(t.widths), t.min_levels, tuple(t.uses)) for t in local_tiles
        ],
    }
    comp = Components(
        source=source,
        sha256=_fingerprint(content),
        neighbours=neighbours,
        roads=roads,
        wheels=wheels,
        skill_tiles=skill_tiles,
        calendar=calendar,
        festivals=festivals,
        size_tokens=tokens,
        castellers=castellers,
        local_tiles=local_tiles,
        provenance=marks,
    )
    _check_totals(comp)
    return comp


def parse_components_option(value: str) -> tuple[str, str | None]:
    """Split the `components` option "DIR" or "DIR#sha256=HEX" into (dir, expected hash)."""
    directory, sep, pin = value.partition("#sha256=")
    return directory, (pin.lower() if sep else None)


def components_for_option(value: str) -> Components:
    """Load the components an option names, checking a pinned fingerprint if one is given."""
    directory, pin = parse_components_option(value)
    comp = load_components(directory)
    if pin is not None and pin != comp.sha256:
        raise DataError(
            f"castell components in {directory or 'the shipped data'} changed since the game was recorded "
            f"(fingerprint {comp.sha256[:12]}..., the record expects {pin[:12]}...)"
        )
    return comp


class Festival:
    """One festival on a game's calendar: its tile (a `Components.festivals` index), its region
    and the size tokens under it (K7). Never changed once drawn at set-up."""

    __slots__ = ("tile", "region", "tokens", "sizes")

    def __init__(self, tile: int, region: int, tokens: tuple[int, ...]) -> None:
        self.tile = tile
        self.region = region
        self.tokens = tokens  # the size tokens under the tile (a size may repeat)
        self.sizes = tuple(sorted(set(tokens)))  # the sizes the audience wants, each once (K13)

    def to_json(self) -> list[Any]:
        return [self.tile, self.region, list(self.tokens)]

    @classmethod
    def from_json(cls, obj: Any) -> Festival:
        """[tile, region, [sizes]] (ranges against the components are checked in integrity.py)."""
        if type(obj) is not list or len(obj) != 3 or type(obj[2]) is not list:
            raise RecordError(f"a festival is [tile, region, [sizes]], not {obj!r}")
        tile, region, tokens = obj
        if not all(type(x) is int for x in (tile, region, *tokens)):
            raise RecordError(f"a festival holds whole numbers, not {obj!r}")
        return cls(tile, region, tuple(tokens))
