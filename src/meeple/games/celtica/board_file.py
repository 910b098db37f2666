"""The druids' path as data (ruling C3): reading and validating board files and layouts.

A board is a sequence of locations; each has a kind and (for find sites, ruins and the goal) a
number. The shipped default is a reconstruction (C3). A user passes another board as the game
option `board`: either a path to a TOML file like `board.toml`, or an inline layout string
`layout:<provenance>:<loc>,<loc>,...` (each <loc> is `kind` or `kind N`). New games store the
inline layout in `state.options["board"]`, so a record made from a state's options replays
without the file (and is unaffected if the shipped default is corrected later).
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources

from meeple.core.checks import is_whole
from meeple.core.datafile import read_data_text
from meeple.core.errors import DataError
from meeple.games.celtica.components import (
    KIND_ACTION,
    LAYOUT_PREFIX,
    MAX_LENGTH,
    MAX_NUMBER,
    MIN_LENGTH,
    NUMBERED_KINDS,
    PROVENANCES,
    Board,
)


def board_from_locations(raw: list[tuple[object, object]], provenance: object, source: str) -> Board:
    """A Board from (kind, number) pairs, or DataError naming the first problem."""
    if type(provenance) is not str or provenance not in PROVENANCES:
        raise DataError(f"{source}: provenance must be one of {', '.join(PROVENANCES)}, not {provenance!r}")
    if not MIN_LENGTH <= len(raw) <= MAX_LENGTH:
        raise DataError(f"{source}: the path must have {MIN_LENGTH} to {MAX_LENGTH} locations "
                        f"(start, spaces, goal; C3 has 19), not {len(raw)}")
    kinds: list[str] = []
    numbers: list[int] = []
    last = len(raw) - 1
    for index, (kind, number) in enumerate(raw):
        where = f"{source}: location {index}"
        if type(kind) is not str or kind not in KIND_ACTION:
            raise DataError(f"{where}: unknown kind {kind!r} (kinds: {', '.join(KIND_ACTION)})")
        if (kind == "start") != (index == 0):
            raise DataError(f"{where}: the start must be the first location and only the first")
        if (kind == "goal") != (index == last):
            raise DataError(f"{where}: the goal must be the last location and only the last")
        needs_number = kind in NUMBERED_KINDS
        if needs_number:
            if not is_whole(number) or not 1 <= number <= MAX_NUMBER:
                raise DataError(f"{where}: a {kind} needs a number from 1 to {MAX_NUMBER}, not {number!r}")
        elif number is not None:
            raise DataError(f"{where}: a {kind} takes no number (got {number!r})")
        kinds.append(kind)
        numbers.append(number if is_whole(number) else 0)
    return Board(tuple(kinds), tuple(numbers), provenance)


def parse_toml(text: str, source: str) -> Board:
    """A Board from the text of a board file."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{source}: not valid TOML ({exc})") from None
    locations = data.get("location")
    if not isinstance(locations, list) or not all(isinstance(loc, dict) for loc in locations):
        raise DataError(f"{source}: needs a list of tables `location` (see the shipped board.toml)")
    for index, loc in enumerate(locations):
        extra = sorted(set(loc) - {"kind", "number"})
        if extra:
            raise DataError(f"{source}: location {index}: unknown key {extra[0]!r}")
    raw = [(loc.get("kind"), loc.get("number")) for loc in locations]
    return board_from_locations(raw, data.get("provenance"), source)


def parse_layout(text: str) -> Board:
    """A Board from the inline form `layout:<provenance>:<loc>,<loc>,...`."""
    body = text[len(LAYOUT_PREFIX):]
    provenance, sep, locs = body.partition(":")
    if not sep:
        raise DataError("board layout: expected 'layout:<provenance>:<kind> <n>,<kind>,...'")
    raw: list[tuple[object, object]] = []
    for index, item in enumerate(locs.split(",")):
        parts = item.split()
        if len(parts) == 1:
            raw.append((parts[0], None))
        elif len(parts) == 2 and parts[1].isdigit():
            raw.append((parts[0], int(parts[1])))
        else:
            raise DataError(f"board layout: location {index}: expected 'kind' or 'kind N', not {item!r}")
    return board_from_locations(raw, provenance, "board layout")


def default_board_text() -> str:
    return resources.files("meeple.games.celtica").joinpath("board.toml").read_text(encoding="utf-8")


def load_board(option: str) -> Board:
    """The board named by the `board` option: "" is the shipped default, a `layout:` string is
    decoded, anything else is a path to a TOML board file (read afresh each time, so an edited
    file is seen; layouts and the default are cached)."""
    if option == "" or option.startswith(LAYOUT_PREFIX):
        return _cached_board(option)
    return parse_toml(read_data_text(option, f"board file {option}"), f"board file {option}")


@lru_cache(maxsize=64)
def _cached_board(option: str) -> Board:
    if option == "":
        return parse_toml(default_board_text(), "default board.toml")
    return parse_layout(option)
