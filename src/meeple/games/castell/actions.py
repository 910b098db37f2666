"""Castell's actions, declared once (meeple.core.actionfields): small sequential steps with a
fixed integer id range (52 ids).

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

from meeple.core.action import DeclaredAction
from meeple.core.actionfields import ActionSpace, Domain, Kind, Names, Whole
from meeple.core.checks import is_whole
from meeple.core.errors import RecordError
from meeple.games.castell.components import REGIONS
from meeple.games.castell.towers.rules import MAX_SIZE, MIN_SIZE, SKILLS, Tower

#: Train targets: the five skills, then the Special tile's free special action.
TRAIN_TARGETS: tuple[str, ...] = (*SKILLS, "special")
TRAIN_SOURCES: tuple[str, ...] = ("region", "all")
SPECIAL_TARGET = 5
#: Bounds on a tower written in a record, far above any legal tower (K6 allows 18 levels): a
#: larger one is malformed (RecordError) rather than merely illegal (IllegalAction K6).
RECORD_MAX_LEVELS = 40
RECORD_MAX_WIDTH = 150


@dataclass(frozen=True, slots=True)
class Move(DeclaredAction):
    """K4 Move: to an adjacent region (round 1: place the pawn anywhere)."""

    region: int


@dataclass(frozen=True, slots=True)
class Recruit(DeclaredAction):
    """K4 Recruit: take one casteller of `size` from your region (up to 2 per Recruit action)."""

    size: int


@dataclass(frozen=True, slots=True)
class Train(DeclaredAction):
    """K4 Train from the wheel segment of your region (source 0) or All Regions (source 1);
    `target` is the skill raised (0-4, also the Practice choice) or 5 for the Special tile."""

    source: int
    target: int


@dataclass(frozen=True, slots=True)
class SingleRecruit(DeclaredAction):
    """K5 special action: take one casteller of `size` from your region."""

    size: int


@dataclass(frozen=True, slots=True)
class ExtraMove(DeclaredAction):
    """K5 special action: one more move to an adjacent region."""

    region: int


@dataclass(frozen=True, slots=True)
class Perform(DeclaredAction):
    """K5/K10 special action: claim the local performance tile in `slot` of your region."""

    slot: int
    tower: Tower | None = None


@dataclass(frozen=True, slots=True)
class EndTurn(DeclaredAction):
    """K4: end the turn."""


@dataclass(frozen=True, slots=True)
class Enter(DeclaredAction):
    """K8: enter festival `slot` of this round (0 or 1) with `tower` (None: the solver's best)."""

    slot: int
    tower: Tower | None = None


@dataclass(frozen=True, slots=True)
class Decline(DeclaredAction):
    """K8: stay out of this round's festivals."""


Action = Move | Recruit | Train | SingleRecruit | ExtraMove | Perform | EndTurn | Enter | Decline


class TowerField(Domain):
    """An explicit tower: levels bottom up, each a list of casteller sizes; left out (None),
    the solver's best tower. Not part of the id."""

    def __init__(self) -> None:
        super().__init__(default=None)

    def write(self, value: Any, name: str, out: dict[str, Any]) -> None:
        out[name] = [list(level) for level in value]

    def parse(self, raw: Any, what: str) -> Tower | None:
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
            raise RecordError(f"{what} must be a list of levels, each a non-empty list of sizes "
                              f"{MIN_SIZE}..{MAX_SIZE}")
        return tuple(levels)


_REGION = Names(REGIONS)
_SIZE = Whole(MIN_SIZE, MAX_SIZE)
_SLOT = Whole(0, 1)
SPACE: ActionSpace[Action] = ActionSpace("Castell", [
    Kind(Move, "move", region=_REGION),
    Kind(Recruit, "recruit", size=_SIZE),
    Kind(Train, "train", source=Names(TRAIN_SOURCES), target=Names(TRAIN_TARGETS, key="skill")),
    Kind(SingleRecruit, "single_recruit", size=_SIZE),
    Kind(ExtraMove, "extra_move", region=_REGION),
    Kind(Perform, "perform", slot=_SLOT, tower=TowerField(), id_fields=("slot",)),
    Kind(EndTurn, "end_turn"),
    Kind(Enter, "enter", slot=_SLOT, tower=TowerField(), id_fields=("slot",)),
    Kind(Decline, "decline"),
])
NUM_ACTIONS = SPACE.num_actions
#: Every action an id stands for (Enter and Perform without a tower: the solver's choice).
BY_ID: tuple[Action, ...] = tuple(SPACE.all_actions())
action_from_json = SPACE.action_from_json

# The space's own instances, which legal_actions() hands out instead of allocating (and whose
# ids search finds by identity). RECRUITS and SINGLE_RECRUITS are keyed by size.
MOVES = tuple(SPACE.block(Move))
RECRUITS: dict[int, Action] = {action.size: action for action in SPACE.block(Recruit) if isinstance(action, Recruit)}
_TRAINS = SPACE.block(Train)
TRAINS = (tuple(_TRAINS[:len(TRAIN_TARGETS)]), tuple(_TRAINS[len(TRAIN_TARGETS):]))
SINGLE_RECRUITS: dict[int, Action] = {action.size: action for action in SPACE.block(SingleRecruit)
                                      if isinstance(action, SingleRecruit)}
EXTRA_MOVES = tuple(SPACE.block(ExtraMove))
PERFORMS = tuple(SPACE.block(Perform))
END_TURN = SPACE.block(EndTurn)[0]
ENTERS = tuple(SPACE.block(Enter))
DECLINE = SPACE.block(Decline)[0]
