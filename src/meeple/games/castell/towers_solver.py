"""Exact tower search: the best legal tower a team can build for a goal.

One dynamic program serves every goal (festival score, tallest tower, a shape tile, a skill
show). A tower is built bottom to top; after a level is placed, everything the levels above can
depend on is the *state*:

    remaining castellers per size, the level's width and lightest size, the unspent Balance,
    Base, Mix and Strength uses, and goal bookkeeping (levels so far, festival sizes present,
    Width uses reached).

The best continuation from a state does not depend on how the state was reached, so it is
memoized per search. Ties are broken by a total order, so the answer is unique:
higher goal score, then fewer castellers, then the smaller tower as a Python tuple (levels
compared bottom first). That order decomposes level by level, which is what makes the memo
exact: the best tower from a state is its best first level followed by the best tower from the
state that level leads to.

Pruning that keeps the answer exact: only sizes the levels above could still use are part of the
memo key (sizes rise by at most one per unspent Strength use), and a festival search gives up on
a state as soon as a missing festival size can no longer be reached. The tests compare every
goal with brute force over all towers for many random small teams.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Callable

from .towers_rules import (
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

Counts = tuple[int, ...]
# A candidate answer from a state: (-score, castellers, levels above) ; smaller is better.
Best = tuple[int, int, Tower]

_GROUPS: tuple[tuple[int, int], ...] = tuple((s, s) for s in range(MAX_SIZE, 0, -1)) + tuple(
    (lo, lo + 1) for lo in range(MAX_SIZE - 1, 0, -2)
)  # single sizes, then Mix pairs (lightest, heaviest)


def team_counts(team: Mapping[int, int] | tuple[int, ...] | list[int]) -> Counts:
    """Castellers per size as an 11-tuple (index 0 unused) from either accepted team form."""
    if isinstance(team, Mapping):
        counts = [0] * (MAX_SIZE + 1)
        for size, n in team.items():
            if type(size) is not int or not 1 <= size <= MAX_SIZE:
                raise ValueError(f"team sizes must be 1..{MAX_SIZE}: {size!r}")
            counts[size] = n
    else:
        counts = list(team)
        if len(counts) != MAX_SIZE + 1:
            raise ValueError(f"a team tuple needs {MAX_SIZE + 1} counts (index 0 unused): {team!r}")
        counts[0] = 0
    if any(type(n) is not int or n < 0 for n in counts):
        raise ValueError(f"team counts must be non-negative ints: {team!r}")
    return tuple(counts)


class _Goal:
    """What a search maximizes and when a tower may stop. Subclasses fill in the hooks.

    `extra` is the goal's own bookkeeping carried in the state (hashable)."""

    def start(self) -> object:
        raise NotImplementedError

    def allowed_width(self, extra: object, n: int) -> bool:
        return True

    def step(self, extra: object, lo: int, hi: int, a: int, b: int, n: int, base_level: bool) -> tuple[int, object] | None:
        """(score gained, new extra) for placing a level, or None if the goal forbids it."""
        raise NotImplementedError

    def done(self, extra: object, spent: tuple[int, int, int, int]) -> bool:
        """May the tower stop here? `spent` = Balance, Base, Mix, Strength uses so far."""
        raise NotImplementedError

    def hopeless(self, extra: object, max_size: int) -> bool:
        """True when no continuation using sizes <= max_size can finish the goal."""
        return False

    def upper(self, extra: object, c: Counts, top: int, n: int, bal: int, strn: int) -> int:
        """An upper bound on the score the levels above a level of width n can add, when
        they may use only sizes <= top of the remaining castellers `c`."""
        return 1 << 30


def _max_levels(c: Counts, top: int, n: int, bal: int) -> int:
    """Levels that can still go above a level of width n: widths fall by one per level except
    for Balance uses, and every level takes at least one casteller."""
    k = n - 1 + bal
    total = sum(c[1:top + 1])
    return total if total < k else k


class FestivalGoal(_Goal):
    """K8: score = levels + festival-size castellers; >= 4 levels, every festival size present."""

    def __init__(self, festival_sizes: tuple[int, ...]) -> None:
        self.sizes = tuple(sorted(set(festival_sizes)))
        self.bit = {s: 1 << i for i, s in enumerate(self.sizes)}
        self.full = (1 << len(self.sizes)) - 1

    def start(self) -> object:
        return (0, 0)

    def step(self, extra, lo, hi, a, b, n, base_level):
        levels, mask = extra  # type: ignore[misc]
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

    def done(self, extra, spent):
        return extra == (4, self.full)  # type: ignore[comparison-overlap]

    def hopeless(self, extra, max_size):
        mask = extra[1]  # type: ignore[index]
        return any(s > max_size and not mask & self.bit[s] for s in self.sizes)

    def upper(self, extra, c, top, n, bal, strn):
        k = _max_levels(c, top, n, bal)
        fest = sum(c[s] for s in self.sizes if s <= top)
        return k + min(fest, k * n)


class TallestGoal(_Goal):
    """Most levels."""

    def start(self) -> object:
        return None

    def step(self, extra, lo, hi, a, b, n, base_level):
        return 1, None

    def done(self, extra, spent):
        return True

    def upper(self, extra, c, top, n, bal, strn):
        return _max_levels(c, top, n, bal)


class ShapeGoal(_Goal):
    """K10 shape tile: level widths bottom to top exactly as listed."""

    def __init__(self, widths: tuple[int, ...]) -> None:
        self.widths = widths

    def start(self) -> object:
        return 0

    def allowed_width(self, extra, n):
        return extra < len(self.widths) and self.widths[extra] == n  # type: ignore[operator]

    def step(self, extra, lo, hi, a, b, n, base_level):
        return 0, extra + 1  # type: ignore[operator]

    def done(self, extra, spent):
        return extra == len(self.widths)


class ShowGoal(_Goal):
    """K10 skill show: at least `min_levels` levels and K6 uses reaching `uses` per skill.

    Every tower meeting the tile scores minus its castellers, so the search keeps the
    smallest one (and can prune by it)."""

    def __init__(self, min_levels: int, uses: tuple[int, ...]) -> None:
        self.min_levels = min_levels
        self.uses = uses

    def start(self) -> object:
        return (0, 0)  # (levels capped at min_levels, Width uses)

    def step(self, extra, lo, hi, a, b, n, base_level):
        levels, width_uses = extra  # type: ignore[misc]
        if not base_level and n - BASIC_WIDTH > width_uses:
            width_uses = n - BASIC_WIDTH
        return -n, (min(levels + 1, self.min_levels), width_uses)

    def done(self, extra, spent):
        levels, width_uses = extra  # type: ignore[misc]
        u = self.uses
        return (levels >= self.min_levels and width_uses >= u[WIDTH] and spent[0] >= u[BALANCE]
                and spent[1] >= u[BASE] and spent[2] >= u[MIX] and spent[3] >= u[STRENGTH])

    def upper(self, extra, c, top, n, bal, strn):
        missing = self.min_levels - extra[0]  # type: ignore[index]
        if missing > _max_levels(c, top, n, bal):
            return -(1 << 30)
        return -missing  # each missing level takes at least one casteller


def search(team: Mapping[int, int] | tuple[int, ...], skills: tuple[int, ...], goal: _Goal) -> Tower | None:
    """The best tower for `goal` (order: score, then fewer castellers, then smaller tuple)."""
    counts = team_counts(team)
    levels = check_skills(skills)
    w = BASIC_WIDTH + levels[WIDTH]
    full = (levels[BALANCE], levels[BASE], levels[MIX], levels[STRENGTH])
    # memo[key] = (result, need): `result` is exact when it is not None or need <= 0 ... see below
    memo: dict[tuple, tuple[Best | None, int]] = {}
    step, done, allowed, hopeless, upper = goal.step, goal.done, goal.allowed_width, goal.hopeless, goal.upper

    def best(c: Counts, n_prev: int, lo_prev: int, bal: int, base: int, mix: int, strn: int,
             extra: object, need: int) -> Best | None:
        """Best continuation above a level of width n_prev, lightest size lo_prev (0 = ground),
        if its score reaches `need`; None if none does (then no promise about lower scores)."""
        found: Best | None = None
        if n_prev and done(extra, (full[0] - bal, full[1] - base, full[2] - mix, full[3] - strn)):
            if need <= 0:
                found = (0, 0, ())
                need = 0
        for lo, hi in _GROUPS:
            if lo != hi and not mix:
                continue
            if n_prev:
                if hi < lo_prev:
                    s_cost = 0
                elif hi <= lo_prev + 1 and strn:
                    s_cost = 1
                else:
                    continue
                nmax = n_prev if bal else n_prev - 1
            else:
                s_cost = 0
                nmax = 1 << 30
            ca = c[lo]
            avail = ca if lo == hi else ca + c[hi]
            if nmax > avail:
                nmax = avail
            if not base and nmax > w:
                nmax = w
            if lo != hi and (not ca or not c[hi]):
                continue
            m_cost = 1 if lo != hi else 0
            strn2 = strn - s_cost
            mix2 = mix - m_cost
            for n in range(nmax, 0 if lo == hi else 1, -1):
                if not allowed(extra, n):
                    continue
                b_cost = 1 if n == n_prev else 0
                base_level = n > w
                base2 = base - 1 if base_level else base
                bal2 = bal - b_cost
                if lo == hi:
                    splits: range | tuple[int, ...] = (n,)
                else:
                    splits = range(min(ca, n - 1), max(1, n - c[hi]) - 1, -1)
                for a in splits:
                    b = n - a
                    moved = step(extra, lo, hi, a, b, n, base_level)
                    if moved is None:
                        continue
                    gain, extra2 = moved
                    if lo == hi:
                        c2 = c[:lo] + (c[lo] - n,) + c[lo + 1:]
                    else:
                        c2 = c[:lo] + (c[lo] - a, c[hi] - b) + c[hi + 1:]
                    # Sizes the levels above can reach: below `lo`, or climbing one size per
                    # Strength use through sizes still on hand.
                    top = lo - 1
                    if strn2:
                        top = lo
                        while top < MAX_SIZE and top - lo < strn2 and c2[top + 1]:
                            top += 1
                    if hopeless(extra2, top):
                        continue
                    sub_need = need - gain
                    if upper(extra2, c2, top, n, bal2, strn2) < sub_need:
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
                    level = (lo,) * a + (hi,) * b
                    cand = (sub[0] - gain, sub[1] + n, (level,) + sub[2])
                    if found is None or cand < found:
                        found = cand
                        need = -cand[0]
        return found

    result = best(counts, 0, 0, *full, goal.start(), -(1 << 30))
    return None if result is None else result[2]


def brute_force_towers(team: Mapping[int, int] | tuple[int, ...], skills: tuple[int, ...],
                       legal: Callable[[Tower], bool]) -> list[Tower]:
    """Every tower the team can build that `legal` accepts, by plain enumeration (for tests).

    Levels are any sub-multisets of at most two distinct sizes of the remaining castellers;
    `legal` must be prefix-closed (K6 legality is: adding levels above never lowers a use)."""
    counts = list(team_counts(team))
    out: list[Tower] = []
    sizes = [s for s in range(1, MAX_SIZE + 1) if counts[s]]

    def levels_from(rem: list[int]):
        avail = [s for s in sizes if rem[s]]
        for i, s in enumerate(avail):
            for k in range(1, rem[s] + 1):
                yield (s,) * k
            for t in avail[i + 1:]:
                for k in range(1, rem[s] + 1):
                    for j in range(1, rem[t] + 1):
                        yield (s,) * k + (t,) * j

    def grow(tower: Tower, rem: list[int]) -> None:
        for level in levels_from(rem):
            t2 = tower + (level,)
            if not legal(t2):
                continue
            out.append(t2)
            for s in level:
                rem[s] -= 1
            grow(t2, rem)
            for s in level:
                rem[s] += 1

    grow((), counts)
    return out
