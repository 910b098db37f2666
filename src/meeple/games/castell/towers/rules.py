"""Castell tower rules: the K6 validator and the K8 festival score.

A tower is a tuple of levels, bottom to top; a level is a tuple of casteller sizes 1..10
(kept non-decreasing by convention; the validator does not depend on the order inside a level).
Skill levels come as 5 ints 0..5 in `SKILLS` order. Ruling K6 turns the rulebook's skill
descriptions into "uses" per skill; a tower is legal iff every skill's uses fit its level.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from meeple.core.values import rebuild_by_fields

SKILLS: tuple[str, ...] = ("balance", "base", "mix", "strength", "width")
BALANCE, BASE, MIX, STRENGTH, WIDTH = range(5)
MAX_SKILL = 5
MIN_SIZE, MAX_SIZE = 1, 10
#: Casteller sizes in order, and the length of a count-per-size list (index 0 unused).
SIZES: tuple[int, ...] = tuple(range(MIN_SIZE, MAX_SIZE + 1))
COUNTS_LEN = MAX_SIZE + 1
BASIC_WIDTH = 3  # rulebook basic rule 3: at most 3 castellers side by side

Tower = tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class TowerCheck:
    """Outcome of `validate`: legality, the K6 uses, and where and why it fails."""

    legal: bool
    uses: tuple[int, int, int, int, int]
    rule: str | None = None
    level: int | None = None
    message: str | None = None

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return rebuild_by_fields(self)  # copy and pickle in the compiled build too


def check_skills(skills: Iterable[int]) -> tuple[int, int, int, int, int]:
    """Skill levels as a 5-tuple; a ValueError for anything else (a caller bug, not user input)."""
    levels: tuple[Any, ...] = tuple(skills)  # Any: checked here, by value, in either build
    if len(levels) != len(SKILLS) or any(
        type(x) is not int or not 0 <= x <= MAX_SKILL for x in levels
    ):
        raise ValueError(
            f"skills must be {len(SKILLS)} ints 0..{MAX_SKILL} in order {SKILLS}: {levels!r}"
        )
    return levels


def mix_pair(size: int) -> tuple[int, int]:
    """The Mix pair {1,2},{3,4},...,{9,10} holding `size`."""
    lo = size - 1 + (size & 1)  # odd member
    return lo, lo + 1


def _fail(uses: list[int], rule: str, level: int | None, message: str) -> TowerCheck:
    return TowerCheck(False, tuple(uses), rule, level, message)  # type: ignore[arg-type]


def validate(tower: object, skills: Iterable[int]) -> TowerCheck:
    """Check a tower against ruling K6 for the given skill levels.

    Structural faults no skill can fix (no levels, an empty level, a size outside 1..10, a level
    mixing sizes that are not one Mix pair, an upper level wider than the one below, an upper
    level more than one size heavier than the lightest casteller below) stop the scan: `uses`
    then counts the levels below the fault. Otherwise `uses` counts the whole tower and a skill
    over its level fails at the level where its uses first exceed it (junction faults name the
    upper level).

    `tower` may be anything (a record's or a player's input): its form is checked here, and it
    is typed `object` so the compiled build checks it here too, with the same answers.
    """
    levels = check_skills(skills)
    w = BASIC_WIDTH + levels[WIDTH]
    uses = [0, 0, 0, 0, 0]
    first_over: tuple[str, int, str] | None = None
    if not isinstance(tower, tuple):
        return _fail(uses, "K6-form", None, "a tower is a tuple of levels (tuples of sizes)")
    if not tower:
        return _fail(uses, "K6-empty", None, "a tower needs at least one level")
    prev_n = prev_lo = 0
    for i, level in enumerate(tower):
        if not isinstance(level, tuple):
            return _fail(uses, "K6-form", i, f"level {i} is not a tuple of sizes")
        if not level:
            return _fail(uses, "K6-empty", i, f"level {i} holds no castellers")
        if any(type(s) is not int or not MIN_SIZE <= s <= MAX_SIZE for s in level):
            return _fail(uses, "K6-form", i,
                         f"level {i}: sizes must be ints {MIN_SIZE}..{MAX_SIZE}")
        lo, hi = min(level), max(level)
        n = len(level)
        faults: list[tuple[int, str, str]] = []  # (skill, rule, message) for uses added here
        if lo != hi:
            if mix_pair(lo) != (lo, hi):
                return _fail(uses, "K6-one-size", i,
                             f"level {i} mixes sizes {lo} and {hi}, which are not a Mix pair")
            uses[MIX] += 1
            faults.append((MIX, "K6-mix", f"level {i} mixes sizes {lo} and {hi}"))
        if i:
            if n > prev_n:
                return _fail(uses, "K6-narrower", i,
                             f"level {i} ({n} castellers) is wider than level {i - 1} ({prev_n})")
            if n == prev_n:
                uses[BALANCE] += 1
                faults.append((BALANCE, "K6-balance", f"level {i} is as wide as level {i - 1}"))
            if hi > prev_lo + 1:
                return _fail(uses, "K6-lighter", i,
                             f"level {i} holds size {hi} above size {prev_lo}: "
                             "more than one size heavier")
            if hi >= prev_lo:
                uses[STRENGTH] += 1
                faults.append((STRENGTH, "K6-strength",
                               f"level {i} holds size {hi} above size {prev_lo}"))
        if n > w:
            uses[BASE] += 1
            faults.append((BASE, "K6-base",
                           f"level {i} holds {n} castellers, over the width limit {w}"))
        elif n - BASIC_WIDTH > uses[WIDTH]:
            uses[WIDTH] = n - BASIC_WIDTH  # never over levels[WIDTH], since n <= w
        if first_over is None:
            for skill, rule, message in faults:
                if uses[skill] > levels[skill]:
                    first_over = (rule, i, f"{message}: {SKILLS[skill]} used "
                                  f"{uses[skill]} times, skill level {levels[skill]}")
                    break
        prev_n, prev_lo = n, lo
    if first_over is not None:
        return _fail(uses, *first_over)
    return TowerCheck(True, tuple(uses))  # type: ignore[arg-type]


def tower_uses(tower: Tower, width_level: int = 0) -> tuple[int, int, int, int, int] | None:
    """The K6 uses of `tower` for a player whose Width skill is `width_level`, ignoring every
    other limit; None if no skill levels make the tower legal (a structural fault).

    K6 makes Width and Base uses depend on the Width level (a level wider than 3 + Width needs
    Base), so the answer takes it as a parameter; the default 0 is the basic rule's width 3.
    """
    check = validate(tower, (MAX_SKILL, MAX_SKILL, MAX_SKILL, MAX_SKILL, width_level))
    if check.legal or check.rule in ("K6-balance", "K6-base", "K6-mix", "K6-strength"):
        return check.uses
    return None


def festival_score(tower: Tower, festival_sizes: Iterable[int]) -> int:
    """K8: one point per level plus one per casteller whose size is a festival size (K13: a
    size the festival shows twice counts once)."""
    wanted = set(festival_sizes)
    return len(tower) + sum(1 for level in tower for s in level if s in wanted)


def eligible(tower: Tower, festival_sizes: Iterable[int]) -> bool:
    """K8 entry needs: at least 4 levels and at least one casteller of every festival size.

    Legality (K6) is checked separately by `validate`.
    """
    present = {s for level in tower for s in level}
    return len(tower) >= 4 and all(s in present for s in festival_sizes)


def castellers_needed(tower: Tower) -> tuple[int, ...]:
    """Castellers per size (index 0 unused) that building `tower` takes."""
    counts = [0] * (MAX_SIZE + 1)
    for level in tower:
        for s in level:
            counts[s] += 1
    return tuple(counts)
