"""Celtica states to and from JSON, with the checks that keep a loaded state sound (every
card and part accounted for, C1)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.core.errors import RecordError

from .board import load_board
from .components import (
    DRUID_CARDS,
    EXPERIENCE_CARDS,
    NUM_COLOURS,
    NUM_PART_TYPES,
    TOTAL_PARTS,
)
from .phases import OVER

if TYPE_CHECKING:
    from .state import CelticaState

#: State fields saved as lists and as single values.
LISTS = ("pos", "hands", "ncards", "exps", "nexp", "parts", "display", "supply", "pdisc", "deck", "ddisc",
         "xdeck", "xdisc", "must", "end_queue")
SCALARS = ("home", "ndisplay", "npdisc", "phase", "player", "pending", "round", "final_round", "ender",
           "end_reason", "rng")


def to_json(s: "CelticaState") -> dict[str, Any]:
    """The whole state, hidden information included."""
    out: dict[str, Any] = {"game": "celtica", "num_players": s.num_players, "options": dict(s.options)}
    for name in LISTS:
        value = getattr(s, name)
        out[name] = [row[:] for row in value] if value and isinstance(value[0], list) else value[:]
    for name in SCALARS:
        out[name] = getattr(s, name)
    return out


def from_json(cls: type["CelticaState"], game: Any, obj: dict[str, Any]) -> "CelticaState":
    """Decode a state; RecordError (or KeyError/TypeError/ValueError) when malformed."""
    n = obj["num_players"]
    game.check_players(n)
    options = game.resolve_options(obj["options"])
    s = cls.blank(game, n, options, load_board(options["board"]))
    for name in LISTS:
        value = obj[name]
        if not isinstance(value, list):
            raise RecordError(f"Celtica state field {name!r} must be a list")
        setattr(s, name, [list(row) for row in value] if name in ("hands", "exps", "parts") else list(value))
    for name in SCALARS:
        value = obj[name]
        kind = bool if name == "final_round" else str if name == "end_reason" else int
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise RecordError(f"Celtica state field {name!r} must be a {kind.__name__}, not {value!r}")
        setattr(s, name, value)
    for name in LISTS:
        rows = getattr(s, name)
        items = [x for row in rows for x in row] if name in ("hands", "exps", "parts") else rows
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in items):
            raise RecordError(f"Celtica state field {name!r} must hold whole numbers")
    s.check_consistency()
    return s


def check_consistency(s: "CelticaState") -> None:
    """RecordError unless every component is accounted for (C1, C2) and fields fit."""
    n = s.num_players
    shapes = {"pos": NUM_COLOURS, "ncards": n, "nexp": n, "must": n, "display": NUM_PART_TYPES,
              "pdisc": NUM_PART_TYPES, "ddisc": NUM_COLOURS, "xdisc": NUM_COLOURS}
    for name, size in shapes.items():
        if len(getattr(s, name)) != size:
            raise RecordError(f"Celtica state field {name!r} must have {size} entries")
    for name, size in (("hands", NUM_COLOURS), ("exps", NUM_COLOURS), ("parts", NUM_PART_TYPES)):
        rows = getattr(s, name)
        if len(rows) != n or any(len(r) != size for r in rows):
            raise RecordError(f"Celtica state field {name!r} must be {n} rows of {size}")
    counts = [x for rows in (s.hands, s.exps, s.parts) for row in rows for x in row]
    counts += s.display + s.pdisc + s.ddisc + s.xdisc
    if min(counts) < 0:
        raise RecordError("Celtica state has a negative count")
    if not all(0 <= x < NUM_COLOURS for x in s.deck + s.xdeck) or not all(
            0 <= x < NUM_PART_TYPES for x in s.supply):
        raise RecordError("Celtica state has an unknown card colour or part type in a pile")
    if component_totals(s) != (TOTAL_PARTS, DRUID_CARDS, EXPERIENCE_CARDS):
        raise RecordError("Celtica state does not account for 90 parts, 60 druid and 20 experience cards")
    if any(not 0 <= x <= s.goal for x in s.pos) or not 0 <= s.phase <= OVER:
        raise RecordError("Celtica state has a druid off the board or an unknown phase")


def component_totals(s: "CelticaState") -> tuple[int, int, int]:
    """(parts, druid cards, experience cards) wherever they are; always (90, 60, 20) (C1)."""
    parts = sum(map(sum, s.parts)) + sum(s.display) + len(s.supply) + sum(s.pdisc)
    druid = sum(map(sum, s.hands)) + len(s.deck) + sum(s.ddisc)
    exp = sum(map(sum, s.exps)) + len(s.xdeck) + sum(s.xdisc)
    return parts, druid, exp
