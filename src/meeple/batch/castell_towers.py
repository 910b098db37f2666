"""The Castell tower solver for N games at once, through a cache keyed by arrays.

The engine asks its solver (`meeple.games.castell.towers.cache`) for the best festival tower, a
tower meeting a local performance tile and the tallest tower of a team. The batch asks the very
same functions, once per distinct (team, skills, goal) it has not met before, and keeps every
answer in sorted key arrays, so a step looks all its games up with `searchsorted` and no Python
loop over games (issue #32: "the tower solver may run per team through a cache, as long as
results are identical"). Towers are interned: an answer is a tower id (-1: no tower), and the
per-tower numbers the rules need (levels, castellers per size) are arrays indexed by that id,
whose last row (zeros) is what id -1 reads.

Keys: a team (castellers per size) becomes an int64 in mixed radix, then a dense team id (its own
sorted table); (team id, skills, goal) becomes one int64. Goals are 0 (tallest), 1 + sizes bitmask
(a festival) or FESTIVAL_GOALS + tile index (a local performance tile).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from meeple.games.castell.components import MAX_TEAM, Components
from meeple.games.castell.towers.cache import best_for_festival, tallest, tower_for
from meeple.games.castell.towers.rules import COUNTS_LEN, MAX_SKILL, SIZES, SKILLS, Tower, castellers_needed

I64 = npt.NDArray[np.int64]
TALLEST = 0
FESTIVAL_GOALS = 1 + (1 << len(SIZES))
_SKILL_RADIX = MAX_SKILL + 1
_SKILL_CODES = _SKILL_RADIX ** len(SKILLS)
_SKILL_WEIGHTS = _SKILL_RADIX ** np.arange(len(SKILLS) - 1, -1, -1, dtype=np.int64)
#: Past this many cached answers the cache starts afresh (memory stays bounded; answers are pure).
MAX_ENTRIES = 1 << 22


class _SortedMap:
    """int64 keys -> int64 values in sorted arrays; looked up many at a time."""

    def __init__(self) -> None:
        self.keys: I64 = np.zeros(0, dtype=np.int64)
        self.values: I64 = np.zeros(0, dtype=np.int64)

    def get(self, keys: I64) -> tuple[I64, npt.NDArray[np.bool_]]:
        """The values of `keys` and which were found (values of the others are undefined)."""
        if not self.keys.size:
            return np.zeros(len(keys), dtype=np.int64), np.zeros(len(keys), dtype=bool)
        pos = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
        found: npt.NDArray[np.bool_] = self.keys[pos] == keys
        return self.values[pos], found

    def add(self, keys: I64, values: I64) -> None:
        """New keys (sorted, distinct, not present yet) with their values; np.insert places keys
        that share an insertion point in their given (sorted) order."""
        at = np.searchsorted(self.keys, keys)
        self.keys = np.insert(self.keys, at, keys)
        self.values = np.insert(self.values, at, values)


class TowerCache:
    """The solver's towers for many (team, skills, goal) at once, identical to the engine's."""

    def __init__(self, components: Components) -> None:
        self.tiles = components.local_tiles
        # a team's castellers of a size never pass the box's count or MAX_TEAM: at most 48 ** 10 keys
        bounds = [min(components.castellers[s], MAX_TEAM) + 1 for s in SIZES]
        weights = [1]
        for radix in reversed(bounds[1:]):
            weights.insert(0, weights[0] * radix)
        self._team_weights = np.array(weights, dtype=np.int64)
        self._goals = FESTIVAL_GOALS + len(self.tiles)
        self.towers: list[Tower] = []
        self._tower_ids: dict[Tower, int] = {}
        # one row per tower, then a row of zeros that id -1 (no tower) reads
        self.levels: I64 = np.zeros(1, dtype=np.int64)
        self.counts: I64 = np.zeros((1, COUNTS_LEN), dtype=np.int64)
        self._clear()

    def _clear(self) -> None:
        self._teams = _SortedMap()
        self._answers = _SortedMap()
        self._next_team = 0

    def tower_id(self, tower: Tower | None) -> int:
        """The id of `tower` (-1 for None), interned."""
        if tower is None:
            return -1
        known = self._tower_ids.get(tower)
        if known is not None:
            return known
        tid = self._tower_ids[tower] = len(self.towers)
        self.towers.append(tower)
        return tid

    def _grow(self) -> None:
        """Extend `levels` and `counts` to the towers interned since the last call."""
        have = len(self.levels) - 1
        if have == len(self.towers):
            return
        new = self.towers[have:]
        levels = np.array([len(t) for t in new], dtype=np.int64)
        counts = np.array([castellers_needed(t) for t in new], dtype=np.int64)
        self.levels = np.concatenate([self.levels[:-1], levels, self.levels[-1:]])
        self.counts = np.concatenate([self.counts[:-1], counts, self.counts[-1:]])

    def _team_ids(self, teams: I64) -> I64:
        keys = teams[:, 1:].astype(np.int64) @ self._team_weights
        ids, found = self._teams.get(keys)
        if not found.all():
            new = np.unique(keys[~found])
            fresh = self._next_team + np.arange(len(new), dtype=np.int64)
            self._next_team += len(new)
            self._teams.add(new, fresh)
            ids, found = self._teams.get(keys)
        return ids

    def lookup(self, teams: npt.NDArray[Any], skills: npt.NDArray[Any], goals: npt.NDArray[Any]) -> I64:
        """Tower ids (-1: none) for rows of teams (M, 11), skills (M, 5) and goals (M,)."""
        if not len(goals):
            return np.zeros(0, dtype=np.int64)
        if len(self._answers.keys) > MAX_ENTRIES:
            self._clear()
        teams = np.asarray(teams, dtype=np.int64)
        skills = np.asarray(skills, dtype=np.int64)
        goals = np.asarray(goals, dtype=np.int64)
        keys = (self._team_ids(teams) * _SKILL_CODES + skills @ _SKILL_WEIGHTS) * self._goals + goals
        ids, found = self._answers.get(keys)
        if found.all():
            return ids
        missing = np.flatnonzero(~found)
        new, first = np.unique(keys[missing], return_index=True)
        rows = missing[first]
        questions = zip(teams[rows].tolist(), skills[rows].tolist(), goals[rows].tolist())
        answers = np.array([self._solve(tuple(t), tuple(s), g) for t, s, g in questions], dtype=np.int64)
        self._answers.add(new, answers)
        self._grow()
        ids, _ = self._answers.get(keys)
        return ids

    def _solve(self, counts: tuple[int, ...], levels: tuple[int, ...], goal: int) -> int:
        """One uncached question, asked of the engine's own (memoised) solver."""
        if goal == TALLEST:
            return self.tower_id(tallest(counts, levels))
        if goal < FESTIVAL_GOALS:
            mask = goal - 1
            sizes = tuple(s for s in SIZES if mask >> (s - 1) & 1)
            return self.tower_id(best_for_festival(counts, levels, sizes))
        return self.tower_id(tower_for(counts, levels, self.tiles[goal - FESTIVAL_GOALS]))
