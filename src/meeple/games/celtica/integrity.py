"""Checks of a loaded Celtica state beyond the field types: sizes and ranges, every card and part
accounted for (C1), the counts that are kept beside the piles, and a pending decision the rules
can continue from (C5-C11).

The board is not checked here: `options["board"]` is checked when the options are resolved.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.checks import check_each_in_range, check_length, check_range
from meeple.core.errors import RecordError
from meeple.games.celtica.components import (
    DISPLAY_SIZE,
    DRUID_CARDS,
    EXPERIENCE_CARDS,
    NUM_COLOURS,
    NUM_PART_TYPES,
    TOTAL_PARTS,
)
from meeple.games.celtica.phases import CULT_PHASE, END_PHASE, END_REASONS, GIVE_PHASE, PLAY_PHASE, TAKE_PHASE

if TYPE_CHECKING:
    from meeple.games.celtica.state import CelticaState

#: Bound on the generator state and the round number.
BIG = 1 << 64



def _counts(items: list[int], length: int, high: int, what: str) -> None:
    """A list of `length` counts, each 0 to `high`."""
    check_length(items, length, what)
    check_each_in_range(items, 0, high, what)


def _per_seat(rows: list[list[int]], held: list[int], n: int, length: int, high: int, what: str, total: str) -> None:
    """Per seat a row of counts, and `held` the sum of each row."""
    check_length(rows, n, what)
    check_length(held, n, total)
    for seat, row in enumerate(rows):
        _counts(row, length, high, f"{what}[{seat}]")
        if held[seat] != sum(row):
            raise RecordError(f"{total}[{seat}] must be the number held in {what}[{seat}], {sum(row)}")


def _pile(items: list[int], kinds: int, high: int, what: str) -> None:
    check_range(len(items), 0, high, f"{what} size")
    check_each_in_range(items, 0, kinds - 1, what)


def component_totals(state: CelticaState) -> tuple[int, int, int]:
    """(parts, druid cards, experience cards) wherever they are; always (90, 60, 20) (C1)."""
    parts = sum(map(sum, state.parts)) + sum(state.display) + len(state.supply) + sum(state.part_discards)
    druid = sum(map(sum, state.hands)) + len(state.druid_deck) + sum(state.druid_discards)
    experience = sum(map(sum, state.experience)) + len(state.experience_deck) + sum(state.experience_discards)
    return parts, druid, experience


def validate(state: CelticaState) -> None:
    """Raise RecordError naming the field unless the just-loaded `state` is consistent."""
    n = state.num_players
    s = state
    check_range(s.rng, 0, BIG - 1, "rng")
    check_range(s.round, 1, BIG, "round")
    # Components (C1, C2): sizes, ranges, and every card and part in exactly one place.
    check_length(s.druids, NUM_COLOURS, "druids")
    for c, at in enumerate(s.druids):
        check_range(at, 0, s.goal, f"druids[{c}]")
    home = sum(1 for at in s.druids if at == s.goal)
    if s.druids_home != home:
        raise RecordError(f"druids_home must be the number of druids in the goal, {home}")
    _per_seat(s.hands, s.cards_held, n, NUM_COLOURS, DRUID_CARDS, "hands", "cards_held")
    _per_seat(s.experience, s.experience_held, n, NUM_COLOURS, EXPERIENCE_CARDS, "experience", "experience_held")
    check_length(s.parts, n, "parts")
    for seat, row in enumerate(s.parts):
        _counts(row, NUM_PART_TYPES, TOTAL_PARTS, f"parts[{seat}]")
    _counts(s.display, NUM_PART_TYPES, DISPLAY_SIZE, "display")
    if s.display_size != sum(s.display) or s.display_size > DISPLAY_SIZE:
        raise RecordError(f"display_size must be the number of parts in the display (at most {DISPLAY_SIZE})")
    _counts(s.part_discards, NUM_PART_TYPES, TOTAL_PARTS, "part_discards")
    if s.num_part_discards != sum(s.part_discards):
        raise RecordError("num_part_discards must be the number of parts in part_discards")
    _counts(s.druid_discards, NUM_COLOURS, DRUID_CARDS, "druid_discards")
    _counts(s.experience_discards, NUM_COLOURS, EXPERIENCE_CARDS, "experience_discards")
    _pile(s.supply, NUM_PART_TYPES, TOTAL_PARTS, "supply")
    _pile(s.druid_deck, NUM_COLOURS, DRUID_CARDS, "druid_deck")
    _pile(s.experience_deck, NUM_COLOURS, EXPERIENCE_CARDS, "experience_deck")
    if component_totals(s) != (TOTAL_PARTS, DRUID_CARDS, EXPERIENCE_CARDS):
        raise RecordError("parts, cards and piles must account for 90 parts, 60 druid and 20 experience cards (C1)")
    # C8: an owed colour is one the seat holds.
    check_length(s.owed_colour, n, "owed_colour")
    for seat, owed in enumerate(s.owed_colour):
        check_range(owed, -1, NUM_COLOURS - 1, f"owed_colour[{seat}]")
        if owed >= 0 and not s.hands[seat][owed]:
            raise RecordError(f"owed_colour[{seat}] must be a colour seat {seat} holds a druid card of (C8)")
    # Whose turn, and the decision pending.
    check_range(s.current, 0, n - 1, "current")
    check_range(s.phase, PLAY_PHASE, END_PHASE, "phase")
    if s.druids_home and not s.final_round:
        raise RecordError("final_round must be true once a druid is in the goal (C10)")
    p = s.current
    if s.phase == TAKE_PHASE:
        check_range(s.pending, 1, s.display_size, "pending")
    elif s.phase == GIVE_PHASE:
        check_range(s.pending, 1, sum(s.parts[p]), "pending")
    else:
        check_range(s.pending, 0, 0, "pending")
    if s.phase == PLAY_PHASE and not s.cards_held[p]:
        raise RecordError("current must hold a druid card in the play phase (C9)")
    if s.phase == CULT_PHASE and not (s.druid_deck or any(s.druid_discards)):
        raise RecordError("phase: a cult site offers a card only while one is left (C8)")
    # The end (C10, C11).
    check_range(s.ender, -1, n - 1, "ender")
    ended = s.phase == END_PHASE or s.over
    if (s.ender >= 0) != ended:
        raise RecordError("ender must be a seat exactly when the game has ended (C11)")
    if s.end_reason not in (END_REASONS if ended else ("",)):
        raise RecordError(f"end_reason must be parts, all_home or goal once the game ends, else empty, "
                          f"not {s.end_reason!r}")
    for i, seat in enumerate(s.end_queue):
        check_range(seat, 0, n - 1, f"end_queue[{i}]")
    if len(set(s.end_queue)) != len(s.end_queue):
        raise RecordError("end_queue must name each seat at most once")
    if s.phase == END_PHASE and not s.over:
        if not s.end_queue or s.end_queue[0] != p:
            raise RecordError("end_queue must start with the current seat in the end phase (C11)")
    elif s.end_queue:
        raise RecordError("end_queue must be empty outside the end phase")
    if s.over and s.phase != END_PHASE:
        raise RecordError("phase must be the end phase once the game is over")
