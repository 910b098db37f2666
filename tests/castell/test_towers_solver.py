"""The exact tower search against brute force over every tower of small random teams."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.core.rng import Rng
from meeple.games.castell.towers import (
    LocalTile,
    bench_towers,
    best_festival_tower,
    castellers_needed,
    eligible,
    festival_score,
    satisfies_tile,
    tallest_tower,
    team_counts,
    tower_for_tile,
    validate,
)
from meeple.games.castell.towers.solver import order_key
from tests.castell.helpers import SUPPLY


def all_towers(team, skills):
    """Every legal tower the team can build, by plain enumeration: each level is any
    sub-multiset of at most two distinct sizes of the castellers left; K6 legality is
    prefix-closed (a level added on top never lowers a use), so illegal prefixes are cut."""
    counts = list(team_counts(team))
    sizes = [s for s in range(1, 11) if counts[s]]
    out = []

    def levels(rem):
        avail = [s for s in sizes if rem[s]]
        for i, s in enumerate(avail):
            for k in range(1, rem[s] + 1):
                yield (s,) * k
                for t in avail[i + 1:]:
                    for j in range(1, rem[t] + 1):
                        yield (s,) * k + (t,) * j

    def grow(tower, rem):
        for level in levels(rem):
            bigger = tower + (level,)
            if not validate(bigger, skills).legal:
                continue
            out.append(bigger)
            for s in level:
                rem[s] -= 1
            grow(bigger, rem)
            for s in level:
                rem[s] += 1

    grow((), counts)
    return out


def fits(tower, team):
    need = castellers_needed(tower)
    have = team_counts(team)
    return all(n <= h for n, h in zip(need, have))


teams = st.lists(st.integers(1, 7), min_size=0, max_size=10).map(
    lambda sizes: tuple([0] + [sizes.count(s) for s in range(1, 11)])
)
skill_levels = st.tuples(*[st.integers(0, 5)] * 5)
fest_sizes = st.lists(st.integers(1, 7), min_size=0, max_size=3, unique=True).map(tuple)


@given(teams, skill_levels, fest_sizes)
@settings(max_examples=150, deadline=None)
def test_K8_best_festival_tower_matches_brute_force(team, skills, sizes):
    towers = [t for t in all_towers(team, skills) if eligible(t, sizes)]
    got = best_festival_tower(team, skills, sizes)
    if not towers:
        assert got is None
        return
    want = min(towers, key=lambda t: (-festival_score(t, sizes), order_key(t)))
    assert got == want
    assert got is not None
    assert validate(got, skills).legal and eligible(got, sizes) and fits(got, team)


@given(teams, skill_levels)
@settings(max_examples=120, deadline=None)
def test_tallest_tower_matches_brute_force(team, skills):
    towers = all_towers(team, skills)
    got = tallest_tower(team, skills)
    if not towers:
        assert got is None and sum(team) == 0
        return
    assert got == min(towers, key=lambda t: (-len(t), order_key(t)))


shapes = st.lists(st.integers(1, 4), min_size=1, max_size=5).map(
    lambda ws: tuple(sorted(ws, reverse=True))
)


@given(teams, skill_levels, shapes)
@settings(max_examples=120, deadline=None)
def test_K10_shape_tile_tower_matches_brute_force(team, skills, widths):
    tile = LocalTile("t", "shape", 3, widths, len(widths), (0,) * 5, "test")
    towers = [t for t in all_towers(team, skills) if satisfies_tile(t, skills, tile)]
    got = tower_for_tile(team, skills, tile)
    if not towers:
        assert got is None
    else:
        assert got == min(towers, key=order_key)
        assert got is not None
        assert tuple(len(level) for level in got) == widths


@given(teams, skill_levels, st.integers(1, 5), st.tuples(*[st.integers(0, 2)] * 5))
@settings(max_examples=150, deadline=None)
def test_K10_skill_show_tower_matches_brute_force(team, skills, min_levels, uses):
    tile = LocalTile("t", "skill", 3, (), min_levels, uses, "test")
    towers = [t for t in all_towers(team, skills) if satisfies_tile(t, skills, tile)]
    got = tower_for_tile(team, skills, tile)
    if not towers:
        assert got is None
    else:
        assert got == min(towers, key=lambda t: order_key(t, wide_first=False))


def test_team_as_mapping_or_tuple():
    team = {10: 3, 9: 2, 8: 2, 7: 1, 3: 2}
    as_tuple = (0, 0, 0, 2, 0, 0, 0, 1, 2, 2, 3)
    assert team_counts(team) == as_tuple
    assert best_festival_tower(team, (1, 0, 1, 1, 0), (9,)) == best_festival_tower(
        as_tuple, (1, 0, 1, 1, 0), (9,))
    assert tallest_tower(team, (2, 0, 0, 0, 1)) == tallest_tower(as_tuple, (2, 0, 0, 0, 1))


@pytest.mark.parametrize("bad", [(1, 2, 3), {11: 1}, {0: 2}, (0, -1) + (0,) * 9, {3: 1.5}])
def test_team_counts_reject_bad_teams(bad):
    with pytest.raises(ValueError):
        team_counts(bad)


def test_K8_no_festival_tower_without_a_festival_size():
    # Example G's situation: the sizes are short, so no eligible tower exists.
    team = {8: 1, 6: 3, 5: 2, 2: 2}
    assert best_festival_tower(team, (0, 0, 0, 0, 0), (6, 8)) is None
    assert best_festival_tower(team, (0, 0, 0, 0, 0), (6, 7)) is None


def test_K8_festival_tower_prefers_wide_festival_levels():
    team = {9: 6, 8: 3, 6: 2, 4: 1, 3: 1, 1: 1}
    tower = best_festival_tower(team, (0, 1, 0, 0, 0), (9,))
    assert tower is not None
    assert tower[0] == (9,) * 6 and festival_score(tower, (9,)) == 6 + len(tower)
    assert len(tower) >= 4 and validate(tower, (0, 1, 0, 0, 0)).legal


def test_solver_on_full_supply_all_skills():
    skills = (5, 5, 5, 5, 5)
    tower = best_festival_tower(SUPPLY, skills, (10, 1))
    assert tower is not None
    assert validate(tower, skills).legal and fits(tower, SUPPLY)
    # Every size-10 and size-1 casteller can join (Base and Balance make room for them).
    assert festival_score(tower, (10, 1)) == len(tower) + 24 + 8
    tall = tallest_tower(SUPPLY, skills)
    assert tall is not None
    assert validate(tall, skills).legal and len(tall) >= len(tower)


def test_bench_towers_reports_timings():
    result = bench_towers(0.5, 7)
    assert result["solves"] >= 1
    assert 0 <= result["median_ms"] <= result["p99_ms"] <= result["max_ms"]
    assert result["max_ms"] < 1000  # typically under 30 ms; generous for a busy machine


def test_tallest_possible_tower_has_18_levels():
    # 5 Base levels, then widths 8..1 (Width 5) with 5 Balance repeats; Strength and Mix
    # cannot add levels, so nothing is taller (the tile loader's limit).
    tower = tallest_tower(SUPPLY, (5, 5, 5, 5, 5))
    assert tower is not None
    assert len(tower) == 18 and validate(tower, (5, 5, 5, 5, 5)).legal


@pytest.mark.parametrize("seed", range(30))
def test_all_goals_match_brute_force_on_larger_teams(seed):
    # Seeded teams of 8..12 castellers (thousands of legal towers each), all four goals.
    rng = Rng(seed)
    top = 4 + rng.below(5)
    counts = [0] * 11
    for _ in range(8 + rng.below(5)):
        counts[1 + rng.below(top)] += 1
    team = tuple(counts)
    skills = tuple(rng.below(6) for _ in range(5))
    towers = all_towers(team, skills)
    sizes = tuple({1 + rng.below(top) for _ in range(1 + rng.below(3))})
    entries = [t for t in towers if eligible(t, sizes)]
    want = min(entries, key=lambda t: (-festival_score(t, sizes), order_key(t)), default=None)
    assert best_festival_tower(team, skills, sizes) == want
    assert tallest_tower(team, skills) == min(towers, key=lambda t: (-len(t), order_key(t)))
    shape = tuple(len(level) for level in towers[rng.below(len(towers))])
    tile = LocalTile("t", "shape", 3, shape, len(shape), (0,) * 5, "test")
    want = min((t for t in towers if satisfies_tile(t, skills, tile)), key=order_key)
    assert tower_for_tile(team, skills, tile) == want
    show = LocalTile("t", "skill", 3, (), 2 + rng.below(5),
                     tuple(rng.below(3) for _ in range(5)), "test")
    met = [t for t in towers if satisfies_tile(t, skills, show)]
    want = min(met, key=lambda t: order_key(t, wide_first=False), default=None)
    assert tower_for_tile(team, skills, show) == want
