"""Exact tower search: the best legal tower a team can build for a goal.

One search serves every goal (festival score, tallest tower, a shape tile, a skill show). A
tower is built bottom to top; after a level is placed, everything the levels above depend on is
the *state*: the castellers left (only the sizes the levels above can still reach), the level's
width and lightest size, the unspent Balance, Base, Mix and Strength uses, and the goal's own
bookkeeping (levels so far, festival sizes present, Width uses reached).

The best continuation from a state does not depend on how the state was reached, so results are
memoized per search; branch and bound prunes a level when an upper bound on what the levels
above it can add cannot beat the best tower found so far. A memo entry is either the exact best
continuation or a proof that no continuation reaches some score (then it is recomputed if a
lower score is asked for), so pruning never changes the answer.

Ties between towers of equal goal score go to the one first in the search order (`order_key`):
bottom level first, single-size levels before Mix levels, heavier sizes first, wider levels
first, and in a Mix level more of the lighter size first; a tower before its own extensions.
The tests check score and tie-break against brute force over every tower of small teams.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeAlias

from meeple.games.castell.towers.rules import (
    BALANCE,
    BASE,
    BASIC_WIDTH,
    MAX_SIZE,
    MIX,
    STRENGTH,
    WIDTH,
    Tower,
    check_skills,
)
from meeple.games.castell.towers.tiles import LocalTile

Counts = tuple[int, ...]
#: A goal's own bookkeeping carried in the search state (hashable; its shape is the goal's).
Extra: TypeAlias = Any
# A search result: (-score, levels above). Ties keep the first found.
Best = tuple[int, Tower]

_GROUPS: tuple[tuple[int, int], ...] = tuple((s, s) for s in range(MAX_SIZE, 0, -1)) + tuple(
    (lo, lo + 1) for lo in range(MAX_SIZE - 1, 0, -2)
)  # the search order of level kinds: single sizes heavy first, then Mix pairs heavy first
_NO = -(1 << 30)  # an upper bound meaning "cannot meet the goal"


def team_counts(team: Mapping[int, int] | tuple[int, ...] | list[int] | object) -> Counts:
    """Castellers per size as an 11-tuple (index 0 unused) from either accepted team form.
    Anything else is a ValueError: the input is checked here, by value (typed `object` and `Any`
    so the compiled build does not reject it first with another error)."""
    counts: list[Any]
    if isinstance(team, Mapping):
        counts = [0] * (MAX_SIZE + 1)
        entries: list[tuple[Any, Any]] = list(team.items())
        for size, n in entries:
            if type(size) is not int or not 1 <= size <= MAX_SIZE:
                raise ValueError(f"team sizes must be 1..{MAX_SIZE}: {size!r}")
            counts[size] = n
    else:
        counts = list(team) if isinstance(team, Iterable) else []
        if len(counts) != MAX_SIZE + 1:
            raise ValueError(f"a team tuple needs {MAX_SIZE + 1} counts (index 0 unused): {team!r}")
        counts[0] = 0
    if any(type(n) is not int or n < 0 for n in counts):
        raise ValueError(f"team counts must be non-negative ints: {team!r}")
    return tuple(counts)


class _Goal(ABC):
    """What a search maximizes and when a tower may stop. Subclasses fill in the hooks.

    `extra` is the goal's own bookkeeping carried in the state (hashable). `wide_first` sets
    the search order of widths: wide first finds high festival scores early; narrow first gives
    compact tile towers."""

    wide_first = True
    # Optional method group_upper(extra, c, top, hi, n, k, strn) -> int: a bound on a whole
    # size group before its widths are tried (see FestivalGoal); None: no group pruning.
    group_upper: Callable[[Extra, Counts, int, int, int, int, int], int] | None = None

    @abstractmethod
    def start(self) -> Extra:
        """The goal's bookkeeping before any level is placed."""

    def widths_for(self, extra: Extra) -> tuple[int, int]:
        """The widths (least, most) the goal allows for the next level."""
        return 1, 1 << 30

    @abstractmethod
    def step(self, extra: Extra, lo: int, hi: int, a: int, b: int, n: int,
             base_level: bool) -> tuple[int, Extra]:
        """(score gained, new extra) for placing a level of a castellers of size lo and b of
        size hi (b = 0 unless lo != hi), n = a + b wide; base_level: over the width limit."""

    @abstractmethod
    def done(self, extra: Extra, spent: tuple[int, int, int, int]) -> bool:
        """May the tower stop here? `spent` = Balance, Base, Mix, Strength uses so far."""

    def floor(self) -> int:
        """A score every tower meeting the goal reaches (a starting bound for pruning)."""
        return _NO

    def upper(self, extra: Extra, c: Counts, top: int, n: int, k: int, bal: int, base: int,
              mix: int, strn: int) -> int:
        """An upper bound on the score the levels above a level of width n can add, when at
        most k more levels fit (`max_levels`) and they may use only sizes <= top of the
        remaining castellers `c`; _NO when they cannot meet the goal at all. bal, base, mix,
        strn: the uses left."""
        return -_NO


def max_levels(c: Counts, top: int, n: int, lo: int, w: int, bal: int, base: int, strn: int) -> int:
    """How many levels can still go above a level of width n and lightest size lo (K6):
    - widths never grow and fall by at least one per level except for Balance uses;
    - levels over the width limit w are the lowest ones, at most `base` more of them, and the
      others are at most w wide: at most base + w + bal levels when n > w;
    - the lightest size falls by at least one per level except at Strength uses, which raise
      it by at most one, and it stays >= 1: at most lo - 1 + 2 * strn levels;
    - every level takes a casteller of a size <= top."""
    k = n - 1 + bal
    if n > w and base + w + bal < k:
        k = base + w + bal
    by_size = lo - 1 + 2 * strn
    if by_size < k:
        k = by_size
    total = 0
    for size in range(1, top + 1):
        total += c[size]
    return total if total < k else k


class FestivalGoal(_Goal):
    """K8: score = levels + festival-size castellers; >= 4 levels, every festival size present."""

    def __init__(self, festival_sizes: tuple[int, ...]) -> None:
        self.sizes = tuple(sorted(set(festival_sizes)))
        self.bit = {s: 1 << i for i, s in enumerate(self.sizes)}
        self.full = (1 << len(self.sizes)) - 1

    def start(self) -> Extra:
        return (0, 0)

    def step(self, extra: Extra, lo: int, hi: int, a: int, b: int, n: int, base_level: bool) -> tuple[int, Extra]:
        levels, mask = extra
        gain = 1
        bit = self.bit.get(lo)
        if bit is not None:
            gain += a
            mask |= bit
        if hi != lo:
            bit = self.bit.get(hi)
            if bit is not None:
                gain += b
                mask |= bit
        return gain, (min(levels + 1, 4), mask)

    def done(self, extra: Extra, spent: tuple[int, int, int, int]) -> bool:
        return bool(extra == (4, self.full))

    def upper(self, extra: Extra, c: Counts, top: int, n: int, k: int, bal: int, base: int, mix: int,
              strn: int) -> int:
        levels, mask = extra
        if levels + k < 4:
            return _NO
        fest = self._festival_reach(c, top, n, strn, mask)
        return _NO if fest < 0 else k + min(fest, k * n)

    def _festival_reach(self, c: Counts, top: int, n: int, strn: int, mask: int) -> int:
        """At most how many festival-size castellers of sizes <= top fit in levels at most n
        wide; -1 when a festival size still missing can no longer be reached. Levels holding a
        given size are separated by Strength uses (between two of them the junctions cannot all
        make the sizes fall), so each size fills at most 1 + strn levels."""
        per_size = n * (1 + strn)
        fest = 0
        for s in self.sizes:
            if s <= top and c[s]:
                fest += c[s] if c[s] < per_size else per_size
            elif not mask & self.bit[s]:
                return -1
        return fest

    def floor(self) -> int:
        return 4 + len(self.sizes)

    def group_upper(self, extra: Extra, c: Counts, top: int, hi: int, n: int, k: int, strn: int) -> int:
        """A bound on the score of a level of sizes <= hi, at most n wide, plus the levels
        above it (at most k, of sizes <= top), before the level is placed: prunes a whole
        size group at once. Same reasoning as `upper`, with this level's castellers still in c."""
        mask = extra[1]
        if top < hi:
            top = hi
        fest = self._festival_reach(c, top, n, strn, mask)
        return _NO if fest < 0 else 1 + k + min(fest, (1 + k) * n)


class TallestGoal(_Goal):
    """Most levels."""

    def start(self) -> Extra:
        return None

    def step(self, extra: Extra, lo: int, hi: int, a: int, b: int, n: int, base_level: bool) -> tuple[int, Extra]:
        return 1, None

    def done(self, extra: Extra, spent: tuple[int, int, int, int]) -> bool:
        return True

    def upper(self, extra: Extra, c: Counts, top: int, n: int, k: int, bal: int, base: int, mix: int,
              strn: int) -> int:
        return k

    def floor(self) -> int:
        return 1


class ShapeGoal(_Goal):
    """K10 shape tile: level widths bottom to top exactly as listed."""

    def __init__(self, widths: tuple[int, ...]) -> None:
        self.widths = widths

    def start(self) -> Extra:
        return 0

    def widths_for(self, extra: Extra) -> tuple[int, int]:
        if extra < len(self.widths):
            n = self.widths[extra]
            return n, n
        return 1, 0

    def step(self, extra: Extra, lo: int, hi: int, a: int, b: int, n: int, base_level: bool) -> tuple[int, Extra]:
        return 0, extra + 1

    def done(self, extra: Extra, spent: tuple[int, int, int, int]) -> bool:
        return bool(extra == len(self.widths))

    def upper(self, extra: Extra, c: Counts, top: int, n: int, k: int, bal: int, base: int, mix: int,
              strn: int) -> int:
        if len(self.widths) - extra > k:
            return _NO
        return 0  # every shape tower scores 0: the first one found is the answer

    def floor(self) -> int:
        return 0


class ShowGoal(_Goal):
    """K10 skill show: at least `min_levels` levels and K6 uses reaching `uses` per skill.
    Every such tower scores 0, so the first one in search order (narrow first) is the answer."""

    wide_first = False

    def __init__(self, min_levels: int, uses: tuple[int, ...], skills: tuple[int, ...]) -> None:
        self.min_levels = min_levels
        self.uses = uses
        self.skills = check_skills(skills)

    def start(self) -> Extra:
        # (levels capped at min_levels, Width uses, a level within the width limit placed?)
        return (0, 0, False)

    def step(self, extra: Extra, lo: int, hi: int, a: int, b: int, n: int, base_level: bool) -> tuple[int, Extra]:
        levels, width_uses, narrow = extra
        if not base_level and not narrow:
            narrow = True  # K6 Width uses: the widest level within the limit is the first one
            width_uses = max(0, n - BASIC_WIDTH)
        return 0, (min(levels + 1, self.min_levels), width_uses, narrow)

    def done(self, extra: Extra, spent: tuple[int, int, int, int]) -> bool:
        levels, width_uses, _ = extra
        u = self.uses
        return (levels >= self.min_levels and width_uses >= u[WIDTH] and spent[0] >= u[BALANCE]
                and spent[1] >= u[BASE] and spent[2] >= u[MIX] and spent[3] >= u[STRENGTH])

    def upper(self, extra: Extra, c: Counts, top: int, n: int, k: int, bal: int, base: int, mix: int,
              strn: int) -> int:
        levels, width_uses, narrow = extra
        u, full = self.uses, self.skills
        if levels + k < self.min_levels:
            return _NO
        if narrow and (width_uses < u[WIDTH] or full[BASE] - base < u[BASE]):
            return _NO  # Base levels are the lowest ones, and Width uses are fixed by then
        if u[WIDTH] > full[WIDTH] or u[BASE] - (full[BASE] - base) > base:
            return _NO
        for target, spent, left in ((u[BALANCE], full[BALANCE] - bal, bal),
                                    (u[MIX], full[MIX] - mix, mix),
                                    (u[STRENGTH], full[STRENGTH] - strn, strn)):
            if target - spent > left or target - spent > k:
                return _NO  # each level above adds at most one use of each skill
        return 0

    def floor(self) -> int:
        return 0


def search(
    team: Mapping[int, int] | tuple[int, ...], skills: tuple[int, ...], goal: _Goal
) -> Tower | None:
    """The tower with the highest goal score, ties to the first in search order; None if no
    tower meets the goal."""
    counts = team_counts(team)
    levels = check_skills(skills)
    w = BASIC_WIDTH + levels[WIDTH]
    full = (levels[BALANCE], levels[BASE], levels[MIX], levels[STRENGTH])
    # memo[state key] = (result, need): result None means "no continuation scores >= need".
    memo: dict[tuple[Any, ...], tuple[Best | None, int]] = {}
    wide_first = goal.wide_first
    group_upper = goal.group_upper

    def best(c: Counts, n_prev: int, lo_prev: int, bal: int, base: int, mix: int, strn: int,
             extra: object, need: int) -> Best | None:
        """Best continuation above a level of width n_prev and lightest size lo_prev (both 0 on
        the ground) if it scores at least `need`, else None."""
        found: Best | None = None
        if n_prev and need <= 0 and goal.done(
            extra, (full[0] - bal, full[1] - base, full[2] - mix, full[3] - strn)
        ):
            found = (0, ())
            need = 1
        n_lo, n_hi = goal.widths_for(extra)
        for lo, hi in _GROUPS:
            if lo != hi and not mix:
                continue
            if n_prev:
                if hi < lo_prev:
                    s_cost = 0
                elif hi <= lo_prev + 1 and strn:
                    s_cost = 1  # K6 Strength: above at most one size heavier than below
                else:
                    continue
                nmax = n_prev if bal else n_prev - 1  # K6 Balance: equal widths
            else:
                s_cost = 0
                nmax = n_hi
            ca = c[lo]
            if lo == hi:
                avail = ca
            elif not ca or not c[hi]:
                continue
            else:
                avail = ca + c[hi]
            if nmax > avail:
                nmax = avail
            if nmax > n_hi:
                nmax = n_hi
            if not base and nmax > w:
                nmax = w  # K6 Base: only Base levels go over the width limit
            strn2 = strn - s_cost
            mix2 = mix - 1 if lo != hi else mix
            if group_upper is not None:
                top = lo + strn2 if lo + strn2 < MAX_SIZE else MAX_SIZE
                k = max_levels(c, top, nmax, lo, w, bal, base, strn2)
                if group_upper(extra, c, top, hi, nmax, k, strn2) < need:
                    continue
            nmin = n_lo if lo == hi or n_lo > 1 else 2
            # Widths nmax down to nmin (wide first) or up; in a Mix level, the lighter size's
            # castellers a from the most down: counted loops, which mypyc compiles without range
            # objects.
            for i in range(nmax - nmin + 1):
                n = nmax - i if wide_first else nmin + i
                base_level = n > w
                base2 = base - 1 if base_level else base
                bal2 = bal - 1 if n == n_prev else bal
                a_most = n if lo == hi else min(ca, n - 1)
                a_least = n if lo == hi else max(1, n - c[hi])
                for j in range(a_most - a_least + 1):
                    a = a_most - j
                    b = n - a
                    gain, extra2 = goal.step(extra, lo, hi, a, b, n, base_level)
                    rest = list(c)
                    rest[lo] = c[lo] - a
                    if b:
                        rest[hi] = c[hi] - b
                    c2 = tuple(rest)
                    # Sizes the levels above can reach: below lo, or one size higher per
                    # Strength use, climbing through sizes still on hand.
                    top = lo - 1
                    if strn2:
                        top = lo
                        while top < MAX_SIZE and top - lo < strn2 and c2[top + 1]:
                            top += 1
                    sub_need = need - gain
                    k = max_levels(c2, top, n, lo, w, bal2, base2, strn2)
                    if goal.upper(extra2, c2, top, n, k, bal2, base2, mix2, strn2) < sub_need:
                        continue
                    key = (c2[1:top + 1], n, lo, bal2, base2, mix2, strn2, extra2)
                    hit = memo.get(key)
                    if hit is not None and (hit[0] is not None or hit[1] <= sub_need):
                        sub = hit[0]
                        if sub is not None and -sub[0] < sub_need:
                            sub = None
                    else:
                        sub = best(c2, n, lo, bal2, base2, mix2, strn2, extra2, sub_need)
                        memo[key] = (sub, sub_need)
                    if sub is None:
                        continue
                    found = (sub[0] - gain, ((lo,) * a + (hi,) * b,) + sub[1])
                    need = 1 - found[0]  # only a strictly higher score replaces it
        return found

    try:
        result = best(counts, 0, 0, *full, goal.start(), goal.floor())
    finally:
        # `best` refers to itself through its closure: a reference cycle that would keep the
        # memo and the goal alive until the garbage collector runs. A search (ISMCTS) that
        # pauses the collector would then pile up every solve's leftovers and free them all
        # inside its time budget. Breaking the cycle frees them here, by reference counting.
        best = None  # type: ignore[assignment]
    return None if result is None else result[1]


def order_key(tower: Tower, wide_first: bool = True) -> tuple[tuple[int, int, int], ...]:
    """The search order as a sort key (smaller = earlier): for each level, bottom first,
    (group: single sizes 10..1 then Mix pairs 9-10..1-2; width, descending if wide_first;
    castellers of the lighter size, descending). Among towers of equal goal score the search
    returns the one with the smallest key (a tower comes before its own extensions)."""
    key = []
    for level in tower:
        lo, hi = min(level), max(level)
        group = MAX_SIZE - lo if lo == hi else MAX_SIZE + (MAX_SIZE - hi) // 2
        key.append((group, -len(level) if wide_first else len(level), -level.count(lo)))
    return tuple(key)


# -- the goals the engine asks for ------------------------------------------------------------


def best_festival_tower(
    team: Mapping[int, int] | tuple[int, ...], skills: tuple[int, ...], festival_sizes: Iterable[int]
) -> Tower | None:
    """The legal tower with the highest K8 festival score that K8 lets enter (>= 4 levels, every
    festival size present), or None. Ties go to the first tower in the search order
    (`order_key`: bottom level first, heavier and wider levels first)."""
    return search(team, skills, FestivalGoal(tuple(festival_sizes)))


def tallest_tower(team: Mapping[int, int] | tuple[int, ...], skills: tuple[int, ...]) -> Tower | None:
    """The legal tower with the most levels (None for an empty team). Ties go to the first
    tower in the search order (`order_key`)."""
    return search(team, skills, TallestGoal())


def tower_for_tile(team: Mapping[int, int] | tuple[int, ...], skills: tuple[int, ...], tile: LocalTile) -> Tower | None:
    """A legal tower meeting a K10 tile, or None if the team and skills cannot build one.
    Of several, the first in the search order (`order_key`; skill shows try narrow levels
    first, which keeps their towers compact)."""
    goal: _Goal = ShapeGoal(tile.widths) if tile.kind == "shape" else ShowGoal(tile.min_levels, tile.uses, skills)
    return search(team, skills, goal)
