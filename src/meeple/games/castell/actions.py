"""Castell's actions: small sequential steps with a fixed integer id range (52 ids).

A turn is a sequence of steps (K4): `Move`, `Recruit` (one casteller per step, a second step
right after the first completes the Recruit action), `Train`, the special actions
`SingleRecruit`, `ExtraMove`, `Perform` (K5, K10), and `EndTurn`. After all turns of a festival
round each player able to enter decides `Enter` or `Decline` (K8).

`Enter` and `Perform` may carry an explicit tower in their JSON form; their integer id (and
`tower=None`) means "the solver's best legal tower".

Ids:  move 0-6 · recruit 7-16 · train 17-28 · single_recruit 29-38 · extra_move 39-45 ·
      perform 46-47 · end_turn 48 · enter 49-50 · decline 51
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meeple.core.checks import is_whole, object_kind, shown
from meeple.core.errors import IllegalAction, RecordError
from meeple.core.protocol import check_action_id
from meeple.games.castell.components import NUM_REGIONS, REGIONS
from meeple.games.castell.towers.rules import MAX_SIZE, MIN_SIZE, SIZES, SKILLS, Tower

#: Train targets: the five skills, then the Special tile's free special action.
TRAIN_TARGETS: tuple[str, ...] = (*SKILLS, "special")
TRAIN_SOURCES: tuple[str, ...] = ("region", "all")
SPECIAL_TARGET = 5

MOVE0, RECRUIT0, TRAIN0, SRECRUIT0, XMOVE0, PERFORM0 = 0, 7, 17, 29, 39, 46
END_TURN_ID, ENTER0, DECLINE_ID = 48, 49, 51
NUM_ACTIONS = 52
#: Bounds on a tower written in a record, far above any legal tower (K6 allows 18 levels): a
#: larger one is malformed (RecordError) rather than merely illegal (IllegalAction K6).
RECORD_MAX_LEVELS = 40
RECORD_MAX_WIDTH = 150


@dataclass(frozen=True, slots=True)
class Move:
    """K4 Move: to an adjacent region (round 1: place the pawn anywhere)."""

    region: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "move", "region": REGIONS[self.region]}


@dataclass(frozen=True, slots=True)
class Recruit:
    """K4 Recruit: take one casteller of `size` from your region (up to 2 per Recruit action)."""

    size: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "recruit", "size": self.size}


@dataclass(frozen=True, slots=True)
class Train:
    """K4 Train from the wheel segment of your region (source 0) or All Regions (source 1);
    `target` is the skill raised (0-4, also the Practice choice) or 5 for the Special tile."""

    source: int
    target: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "train", "source": TRAIN_SOURCES[self.source], "skill": TRAIN_TARGETS[self.target]}


@dataclass(frozen=True, slots=True)
class SingleRecruit:
    """K5 special action: take one casteller of `size` from your region."""

    size: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "single_recruit", "size": self.size}


@dataclass(frozen=True, slots=True)
class ExtraMove:
    """K5 special action: one more move to an adjacent region."""

    region: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "extra_move", "region": REGIONS[self.region]}


@dataclass(frozen=True, slots=True)
class Perform:
    """K5/K10 special action: claim the local performance tile in `slot` of your region."""

    slot: int
    tower: Tower | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "perform", "slot": self.slot}
        if self.tower is not None:
            out["tower"] = [list(level) for level in self.tower]
        return out


@dataclass(frozen=True, slots=True)
class EndTurn:
    def to_json(self) -> dict[str, Any]:
        return {"type": "end_turn"}


@dataclass(frozen=True, slots=True)
class Enter:
    """K8: enter festival `slot` of this round (0 or 1) with `tower` (None: the solver's best)."""

    slot: int
    tower: Tower | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "enter", "slot": self.slot}
        if self.tower is not None:
            out["tower"] = [list(level) for level in self.tower]
        return out


@dataclass(frozen=True, slots=True)
class Decline:
    def to_json(self) -> dict[str, Any]:
        return {"type": "decline"}


Action = Move | Recruit | Train | SingleRecruit | ExtraMove | Perform | EndTurn | Enter | Decline

# Shared instances: legal_actions() hands these out instead of allocating. RECRUITS and
# SINGLE_RECRUITS are keyed by size.
MOVES = tuple(Move(r) for r in range(NUM_REGIONS))
RECRUITS: dict[int, Recruit] = {s: Recruit(s) for s in SIZES}
TRAINS = tuple(tuple(Train(src, t) for t in range(len(TRAIN_TARGETS))) for src in range(len(TRAIN_SOURCES)))
SINGLE_RECRUITS: dict[int, SingleRecruit] = {s: SingleRecruit(s) for s in SIZES}
EXTRA_MOVES = tuple(ExtraMove(r) for r in range(NUM_REGIONS))
PERFORMS = (Perform(0), Perform(1))
END_TURN = EndTurn()
ENTERS = (Enter(0), Enter(1))
DECLINE = Decline()

BY_ID: tuple[Action, ...] = (
    *MOVES, *RECRUITS.values(), *TRAINS[0], *TRAINS[1], *SINGLE_RECRUITS.values(), *EXTRA_MOVES, *PERFORMS,
    END_TURN, *ENTERS, DECLINE,
)
assert len(BY_ID) == NUM_ACTIONS


def action_from_id(number: object) -> Action:
    """The action with id `number` (Enter and Perform without a tower: the solver's choice)."""
    return BY_ID[check_action_id(number, NUM_ACTIONS, "Castell")]


def action_id(action: object) -> int:
    """The integer id; explicit towers share the id of the solver's choice."""
    if type(action) is Move:
        return MOVE0 + action.region
    if type(action) is Recruit:
        return RECRUIT0 + action.size - 1
    if type(action) is Train:
        return TRAIN0 + 6 * action.source + action.target
    if type(action) is SingleRecruit:
        return SRECRUIT0 + action.size - 1
    if type(action) is ExtraMove:
        return XMOVE0 + action.region
    if type(action) is Perform:
        return PERFORM0 + action.slot
    if type(action) is EndTurn:
        return END_TURN_ID
    if type(action) is Enter:
        return ENTER0 + action.slot
    if type(action) is Decline:
        return DECLINE_ID
    raise IllegalAction("ids", f"{action!r} is not a Castell action")


# -- JSON decoding ----------------------------------------------------------------------------

#: The fields each kind of action may carry besides its type (`tower` may be left out).
FIELDS = {"move": ("region",), "recruit": ("size",), "train": ("source", "skill"), "single_recruit": ("size",),
          "extra_move": ("region",), "perform": ("slot", "tower"), "end_turn": (), "enter": ("slot", "tower"),
          "decline": ()}


def _field(obj: dict[str, Any], key: str) -> Any:
    if key not in obj:
        raise RecordError(f"castell action {obj['type']!r} needs {key!r}")
    return obj[key]


def _size(obj: dict[str, Any]) -> int:
    size = _field(obj, "size")
    if not is_whole(size) or not MIN_SIZE <= size <= MAX_SIZE:
        raise RecordError(f"castell action size must be {MIN_SIZE}..{MAX_SIZE}, not {shown(size)}")
    return size


def _region(obj: dict[str, Any]) -> int:
    region = _field(obj, "region")
    if type(region) is not str or region not in REGIONS:
        raise RecordError(f"castell action region must be one of {', '.join(REGIONS)}, not {shown(region)}")
    return REGIONS.index(region)


def _slot(obj: dict[str, Any]) -> int:
    slot = _field(obj, "slot")
    if not is_whole(slot) or slot not in (0, 1):
        raise RecordError(f"castell action slot must be 0 or 1, not {shown(slot)}")
    return slot


def _tower(obj: dict[str, Any]) -> Tower | None:
    raw = obj.get("tower")
    if raw is None:
        return None
    ok = isinstance(raw, list) and 0 < len(raw) <= RECORD_MAX_LEVELS
    levels = []
    for level in raw if ok else ():
        if not isinstance(level, list) or not 0 < len(level) <= RECORD_MAX_WIDTH:
            ok = False
            break
        if not all(is_whole(x) and MIN_SIZE <= x <= MAX_SIZE for x in level):
            ok = False
            break
        levels.append(tuple(sorted(level)))
    if not ok:
        raise RecordError("castell tower must be a list of levels, each a non-empty list of sizes 1..10")
    return tuple(levels)


def action_from_json(obj: Any) -> Action:
    """Decode an action's JSON form; RecordError names what is malformed."""
    kind = object_kind(obj, FIELDS, "castell action")
    if kind == "move":
        return MOVES[_region(obj)]
    if kind == "recruit":
        return RECRUITS[_size(obj)]
    if kind == "train":
        source, target = _field(obj, "source"), _field(obj, "skill")
        if source not in TRAIN_SOURCES or target not in TRAIN_TARGETS:
            raise RecordError(f"castell train needs source in {TRAIN_SOURCES} and skill in {TRAIN_TARGETS}")
        return TRAINS[TRAIN_SOURCES.index(source)][TRAIN_TARGETS.index(target)]
    if kind == "single_recruit":
        return SINGLE_RECRUITS[_size(obj)]
    if kind == "extra_move":
        return EXTRA_MOVES[_region(obj)]
    if kind == "perform":
        tower = _tower(obj)
        return PERFORMS[_slot(obj)] if tower is None else Perform(_slot(obj), tower)
    if kind == "end_turn":
        return END_TURN
    if kind == "enter":
        tower = _tower(obj)
        return ENTERS[_slot(obj)] if tower is None else Enter(_slot(obj), tower)
    return DECLINE
