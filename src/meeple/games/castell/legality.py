"""Why a Castell step is illegal now: one checker per action kind, each naming its ruling.

`why_illegal(state, action)` returns `(ruling, message)` or None when the action is legal. It
matches the action's kind against the current phase: during the turns
(K4, with K1, K3, K5, K6, K10 for what the steps need) or during the festival entries (K8). The
checkers share a few small tests (the turn order K4/K5 asks of every step, a tower's K6 check).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.games.castell import actions as A
from meeple.games.castell.actions import SPACE
from meeple.games.castell.components import PRACTICE, REGIONS, SPECIAL, TILE_KINDS
from meeple.games.castell.towers.cache import needed
from meeple.games.castell.towers.rules import MAX_SKILL, SKILLS, Tower, eligible, validate
from meeple.games.castell.towers.tiles import satisfies_tile

if TYPE_CHECKING:
    from meeple.games.castell.state import CastellState

#: (ruling id, message) that forbids an action, or None: the action is legal.
Ruling = tuple[str, str] | None

#: The steps of a turn that bits of `CastellState.used` record (K4: each action once per turn).
MOVE_USED, RECRUIT_USED, TRAIN_USED, SPECIAL_USED = 1, 2, 4, 8
#: Phases of a round: the players' turns, then the festival entry decisions (K8).
PHASE_TURNS, PHASE_FESTIVAL = 0, 1


def why_illegal(state: CastellState, action: Any) -> Ruling:
    """The (ruling, message) that forbids `action` now, or None if it is legal."""
    if SPACE.id_or_none(action) is None:
        return ("actions", f"{action!r} is not a Castell action")
    if state.over:
        return ("end", "the game is over")
    festival = state.phase == PHASE_FESTIVAL
    step: A.Action = action
    match step:
        case A.Enter() | A.Decline() if not festival:
            return ("K8", "festival entries are decided after all turns of the round")
        case A.Enter():
            return _check_enter(state, step)
        case A.Decline():
            return None  # K8: entering is a choice
        case _ if festival:
            return ("K8", "after the turns only festival entries (enter or decline) are possible")
        case A.Move():
            return _check_move(state, step)
        case A.Recruit():
            return _check_recruit(state, step)
        case A.Train():
            return _check_train(state, step)
        case A.SingleRecruit():
            return _check_single_recruit(state, step)
        case A.ExtraMove():
            return _check_extra_move(state, step)
        case A.Perform():
            return _check_perform(state, step)
        case A.EndTurn():
            return _step_allowed(state, False)  # K4: once the pawn is placed and no free special is pending


# -- shared tests ---------------------------------------------------------------------------------


def _step_allowed(state: CastellState, special: bool) -> Ruling:
    """K4/K5: the pawn goes on the map first (round 1), a free special action from the Special
    tile comes before anything else, a paid special action needs a token and one per turn."""
    if state.pawn[state.current] < 0:
        return ("K4", "place your pawn (Move) before anything else in round 1")
    return _special_order(state, special)


def _special_order(state: CastellState, special: bool) -> Ruling:
    if state.free_special and not special:
        return ("K4", "first take the free special action the Special tile gave you")
    if special and not state.free_special:
        if state.used & SPECIAL_USED:
            return ("K4", "you already took a special action this turn")
        if not state.tokens_left[state.current]:
            return ("K5", "you have no special action tokens left")
    return None


def tower_problem(state: CastellState, seat: int, tower: Tower) -> Ruling:
    """K6: the tower is legal for the seat's skills and its team holds the castellers."""
    check = validate(tower, tuple(state.skills[seat]))
    if not check.legal:
        return ("K6", check.message or "illegal tower")
    have = state.teams[seat]
    for size, count in enumerate(needed(tower)):
        if count > have[size]:
            return ("K6", f"the tower needs {count} castellers of size {size}, your team has {have[size]}")
    return None


def _casteller_here(state: CastellState, size: int) -> Ruling:
    """K4/K5: a recruit takes a casteller of that size from the pawn's region."""
    region = state.pawn[state.current]
    if not state.pool[region][size]:
        return ("K4", f"no casteller of size {size} in {REGIONS[region]}")
    return None


# -- the turns (K4) -------------------------------------------------------------------------------


def _check_move(state: CastellState, action: A.Move) -> Ruling:
    """K4 Move (round 1: anywhere), K1: to a region next to the pawn's."""
    why = _special_order(state, False)
    if why is not None:
        return why
    if state.used & MOVE_USED:
        return ("K4", "you already moved this turn")
    region = state.pawn[state.current]
    if region >= 0 and action.region not in state.components.neighbours[region]:
        return ("K1", f"{REGIONS[action.region]} is not next to {REGIONS[region]}")
    return None


def _check_recruit(state: CastellState, action: A.Recruit) -> Ruling:
    """K4 Recruit: up to two castellers, the second right after the first."""
    why = _step_allowed(state, False)
    if why is not None:
        return why
    if state.used & RECRUIT_USED and not state.recruit_open:
        return ("K4", "you already recruited this turn (up to 2, one right after the other)")
    return _casteller_here(state, action.size)


def _check_train(state: CastellState, action: A.Train) -> Ruling:
    """K4 Train with the skill tile the wheel segment faces (K3); Practice raises a skill
    already learnt, Special gives a free special action; no skill goes over level 5."""
    why = _step_allowed(state, False)
    if why is not None:
        return why
    if state.used & TRAIN_USED:
        return ("K4", "you already trained this turn")
    kind = state.facing(action.source, state.pawn[state.current])
    if kind is None:
        return ("K3", "the advanced wheel has no All Regions segment")
    level = state.skills[state.current][action.target] if action.target < len(SKILLS) else 0
    if kind < len(SKILLS) and action.target != kind:
        return ("K4", f"that wheel segment faces {TILE_KINDS[kind]}, not {A.TRAIN_TARGETS[action.target]}")
    if kind == PRACTICE and not level > 0:
        return ("K4", "Practice raises only a skill already at level 1 or more")
    if kind == SPECIAL and action.target != A.SPECIAL_TARGET:
        return ("K4", "that wheel segment faces Special: it gives a free special action")
    if kind != SPECIAL and action.target == A.SPECIAL_TARGET:
        return ("K4", f"that wheel segment faces {TILE_KINDS[kind]}, not Special")
    if kind != SPECIAL and level >= MAX_SKILL:
        return ("K4", f"{SKILLS[action.target]} is already at level {MAX_SKILL}")
    return None


def _check_single_recruit(state: CastellState, action: A.SingleRecruit) -> Ruling:
    """K5 special action: one casteller from the pawn's region."""
    return _step_allowed(state, True) or _casteller_here(state, action.size)


def _check_extra_move(state: CastellState, action: A.ExtraMove) -> Ruling:
    """K5 special action: one more move, to a region next to the pawn's."""
    why = _step_allowed(state, True)
    if why is not None:
        return why
    region = state.pawn[state.current]
    if action.region not in state.components.neighbours[region]:
        return ("K5", f"{REGIONS[action.region]} is not next to {REGIONS[region]}")
    return None


def _check_perform(state: CastellState, action: A.Perform) -> Ruling:
    """K10 special action: claim a face-up local performance tile of the pawn's region with a
    tower (K6) that meets it."""
    why = _step_allowed(state, True)
    if why is not None:
        return why
    seat = state.current
    region = state.pawn[seat]
    tile = state.region_tiles[region][action.slot]
    if tile < 0:
        return ("K10", f"the local performance in slot {action.slot + 1} of {REGIONS[region]} is taken")
    if action.tower is None:
        if state.tile_tower(seat, tile) is None:
            return ("K10", "you cannot build a tower that meets that local performance")
        return None
    why = tower_problem(state, seat, action.tower)
    if why is not None:
        return why
    if not satisfies_tile(action.tower, tuple(state.skills[seat]), state.components.local_tiles[tile]):
        return ("K10", "that tower does not meet the local performance tile")
    return None


# -- the festival entries (K8) --------------------------------------------------------------------


def _check_enter(state: CastellState, action: A.Enter) -> Ruling:
    """K8: enter a festival of this round held where the pawn stands, with an eligible tower
    (4 levels, every festival size) that is legal and built from the team (K6)."""
    seat = state.current
    fests = state.festivals[state.round]
    if action.slot >= len(fests):
        return ("K8", f"there is no festival {action.slot + 1} this round")
    fest = fests[action.slot]
    if fest.region != state.pawn[seat]:
        return ("K8", f"your pawn is not in {REGIONS[fest.region]}, where that festival is held")
    if action.tower is None:
        return None if state.best_tower(seat, fest) is not None else ("K8", "you cannot build an eligible tower")
    why = tower_problem(state, seat, action.tower)
    if why is not None:
        return why
    if not eligible(action.tower, fest.sizes):
        return ("K8", f"a festival tower needs 4 levels and every size of {list(fest.sizes)}")
    return None
