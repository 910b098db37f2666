"""K6 tower validator and K8 festival scoring, with the rulebook's examples A-H."""

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.games.castell.towers import (
    SKILLS,
    castellers_needed,
    eligible,
    festival_score,
    tallest_tower,
    tower_uses,
    validate,
)
from tests.castell.helpers import SUPPLY

NONE = (0, 0, 0, 0, 0)


def skills(balance=0, base=0, mix=0, strength=0, width=0):
    return (balance, base, mix, strength, width)


def widths(tower):
    return tuple(len(level) for level in tower)


# --- the basic rules (rulebook "疊人塔": one size per level, smaller and fewer above, width 3)


def test_skills_order():
    assert SKILLS == ("balance", "base", "mix", "strength", "width")


def test_basic_rules_tower_is_legal_without_skills():
    check = validate(((9, 9, 9), (6, 6), (2,)), NONE)
    assert check.legal and check.uses == NONE and check.rule is None


def test_basic_rules_allow_at_most_3_levels_of_width_3():
    # Example A's aside: without skills the tallest tower has 3 levels and width 3.
    tower = tallest_tower(SUPPLY, NONE)
    assert tower is not None
    assert len(tower) == 3 and widths(tower) == (3, 2, 1)
    assert not validate(((9, 9, 9, 9), (6, 6, 6), (5, 5), (2,)), NONE).legal


def test_basic_rule_1_one_size_per_level():
    check = validate(((9, 9, 8),), skills(mix=5))
    assert not check.legal and check.rule == "K6-one-size" and check.level == 0


def test_basic_rule_2_upper_level_smaller_size():
    check = validate(((5, 5, 5), (6, 6)), NONE)
    assert not check.legal and check.rule == "K6-strength" and check.level == 1
    check = validate(((5, 5, 5), (7, 7)), skills(strength=5))
    assert not check.legal and check.rule == "K6-lighter" and check.level == 1


def test_basic_rule_2_upper_level_fewer_castellers():
    check = validate(((5, 5), (3, 3, 3)), skills(balance=5))
    assert not check.legal and check.rule == "K6-narrower" and check.level == 1


def test_basic_rule_3_width_3():
    check = validate(((9, 9, 9, 9),), NONE)
    assert not check.legal and check.rule == "K6-base" and check.level == 0
    assert validate(((9, 9, 9),), NONE).legal


# --- K6 structure


def test_K6_needs_a_level():
    assert validate((), NONE).rule == "K6-empty"


def test_K6_every_level_holds_a_casteller():
    check = validate(((3, 3), ()), NONE)
    assert check.rule == "K6-empty" and check.level == 1


@pytest.mark.parametrize("bad", [((0,),), ((11,),), (("3",),), ((3.0,),), [(3,)], ((3,), [2])])
def test_K6_sizes_are_ints_1_to_10(bad):
    check = validate(bad, (5, 5, 5, 5, 5))
    assert not check.legal and check.rule == "K6-form"


@pytest.mark.parametrize("pair", [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10)])
def test_K6_mix_pairs(pair):
    check = validate((pair,), skills(mix=1))
    assert check.legal and check.uses == skills(mix=1)


@pytest.mark.parametrize("level", [(2, 3), (4, 5), (8, 9), (1, 3), (1, 2, 3)])
def test_K6_mix_only_within_a_pair(level):
    check = validate((level,), skills(mix=5))
    assert not check.legal and check.rule == "K6-one-size"


def test_K6_strength_allows_at_most_one_size_heavier_than_the_lightest_below():
    # Mixed level below: its lightest casteller counts.
    assert validate(((5, 6, 6), (6, 6)), skills(mix=1, strength=1)).legal
    check = validate(((5, 6, 6), (7, 7)), skills(mix=1, strength=5))
    assert check.rule == "K6-lighter" and check.level == 1
    # Mixed level above: its heaviest casteller counts.
    check = validate(((6, 6, 6), (5, 6)), skills(mix=1, strength=1))
    assert check.legal and check.uses == skills(mix=1, strength=1)
    assert validate(((6, 6, 6), (5, 6)), skills(mix=1)).rule == "K6-strength"


def test_K6_strength_one_use_per_junction():
    check = validate(((5, 5, 5), (6, 6), (7,)), skills(strength=2))
    assert check.legal and check.uses == skills(strength=2)


def test_K6_failure_names_the_first_level_over_the_limit():
    check = validate(((8, 8, 8), (8, 8, 8), (8, 8, 8), (8, 8)), skills(balance=1, strength=5))
    assert check.rule == "K6-balance" and check.level == 2
    assert check.uses == skills(balance=2, strength=3)  # counted over the whole tower
    assert check.message is not None and "balance" in check.message


def test_K6_bad_skills_are_a_caller_error():
    with pytest.raises(ValueError):
        validate(((1,),), (0, 0, 0, 0))
    with pytest.raises(ValueError):
        validate(((1,),), (0, 0, 0, 0, 6))


# --- K6: every skill at its limit is legal, one more use is not


@pytest.mark.parametrize("k", range(5))
def test_K6_balance_limit(k):
    tower = ((10, 10, 10),) + tuple((9 - i,) * 3 for i in range(k)) + ((2, 2), (1,))
    check = validate(tower, skills(balance=k))
    assert check.legal and check.uses == skills(balance=k)
    taller = tower[:1] + ((9,) * 3,) + tuple((8 - i,) * 3 for i in range(k)) + tower[-2:]
    over = validate(taller, skills(balance=k))
    assert not over.legal and over.rule == "K6-balance" and over.level == k + 1


@pytest.mark.parametrize("k", range(5))
def test_K6_base_limit(k):
    base = tuple((10 - i,) * (20 - i) for i in range(k))
    tower = base + ((4, 4, 4), (3, 3), (1,))
    check = validate(tower, skills(base=k))
    assert check.legal and check.uses == skills(base=k)
    over = validate(base + ((4,) * 4, (3, 3), (1,)), skills(base=k))
    assert not over.legal and over.rule == "K6-base" and over.level == k
    assert over.uses == skills(base=k + 1)


@pytest.mark.parametrize("k", range(5))
def test_K6_mix_limit(k):
    pairs = ((9, 10), (7, 8), (5, 6), (3, 4), (1, 2))
    tower = tuple((p[0],) * (5 - i) + (p[1],) for i, p in enumerate(pairs[:k])) + ((1,),) * (k == 0)
    check = validate(tower, skills(mix=k, width=3))
    assert check.legal and check.uses[2] == k
    over = tuple((p[0],) * (6 - i) + (p[1],) for i, p in enumerate(pairs[:k + 1]))
    check = validate(over, skills(mix=k, width=4))
    assert not check.legal and check.rule == "K6-mix" and check.level == k


@pytest.mark.parametrize("k", range(5))
def test_K6_strength_limit(k):
    tower = ((10,) * 7,) + tuple((9,) * (6 - i) for i in range(k + 1))
    check = validate(tower, skills(strength=k, width=4))
    assert check.legal and check.uses == skills(strength=k, width=4)
    over = tower + ((9,),)
    check = validate(over, skills(strength=k, width=4))
    assert not check.legal and check.rule == "K6-strength" and check.level == k + 2


@pytest.mark.parametrize("k", range(6))
def test_K6_width_limit(k):
    tower = ((9,) * (3 + k), (5, 5), (1,))
    check = validate(tower, skills(width=k))
    assert check.legal and check.uses == skills(width=k)
    wider = ((9,) * (4 + k), (5, 5), (1,))
    over = validate(wider, skills(width=k))
    assert not over.legal and over.rule == "K6-base" and over.level == 0
    assert validate(wider, skills(width=k, base=1)).uses == skills(base=1)


def test_K6_width_uses_count_only_levels_within_the_limit():
    # Over-wide levels are Base levels; Width uses come from the widest other level.
    check = validate(((10,) * 12, (9,) * 5, (5, 5), (1,)), skills(base=1, width=2))
    assert check.legal and check.uses == skills(base=1, width=2)


def reference_uses(tower, levels):
    """K6 read straight from the ruling: the uses, or None if no skill makes it legal."""
    w = 3 + levels[4]
    pairs = [{1, 2}, {3, 4}, {5, 6}, {7, 8}, {9, 10}]
    for level in tower:
        if len(set(level)) > 1 and set(level) not in pairs:
            return None
    for below, above in pairwise(tower):
        if len(above) > len(below) or max(above) > min(below) + 1:
            return None
    junctions = list(pairwise(tower))
    within = [len(level) for level in tower if len(level) <= w]
    return (
        sum(len(above) == len(below) for below, above in junctions),
        sum(len(level) > w for level in tower),
        sum(len(set(level)) == 2 for level in tower),
        sum(max(above) >= min(below) for below, above in junctions),
        max(0, max(within, default=0) - 3),
    )


@given(st.lists(st.lists(st.integers(1, 10), min_size=1, max_size=6), min_size=1, max_size=6),
       st.tuples(*[st.integers(0, 5)] * 5))
@settings(max_examples=400, deadline=None)
def test_K6_legal_iff_uses_within_skills(raw, levels):
    tower = tuple(tuple(sorted(level)) for level in raw)
    check = validate(tower, levels)
    want = reference_uses(tower, levels)
    assert tower_uses(tower, levels[4]) == want
    if want is None:
        assert not check.legal
    else:
        assert check.uses == want
        assert check.legal == all(u <= s for u, s in zip(want, levels))
    if not check.legal:
        assert check.rule is not None and check.rule.startswith("K6-") and check.message and check.level is not None


@given(st.integers(1, 4), st.integers(1, 9), st.tuples(*[st.integers(0, 5)] * 5))
@settings(max_examples=200, deadline=None)
def test_K6_legal_shaped_towers_agree_with_reference(top, size, levels):
    # Random towers rarely pass the structural checks; these always do, so uses get exercised.
    built: list[tuple[int, ...]] = []
    n = 1
    for i in range(top + 3):
        built.append((max(1, size - i // 2),) * n)
        n += i % 2
    tower = tuple(reversed(built))
    check = validate(tower, levels)
    assert reference_uses(tower, levels) == check.uses
    assert check.legal == all(u <= s for u, s in zip(check.uses, levels))


def test_tower_uses_depends_on_the_width_level():
    tower = ((9,) * 6, (5, 5), (1,))
    assert tower_uses(tower) == skills(base=1)
    assert tower_uses(tower, 3) == skills(width=3)
    assert tower_uses(((5, 5), (6, 6, 6))) is None


# --- the rulebook's examples


def test_example_A_balance_2_allows_5_levels():
    tower = tallest_tower(SUPPLY, skills(balance=2))
    assert tower is not None
    assert len(tower) == 5 and validate(tower, skills(balance=2)).legal
    five = ((10, 10, 10), (9, 9, 9), (8, 8), (7, 7), (6,))
    assert validate(five, skills(balance=2)).legal
    assert validate(five, skills(balance=1)).rule == "K6-balance"
    four = tallest_tower(SUPPLY, skills(balance=1))
    assert four is not None and len(four) == 4


def test_example_B_base_1_frees_the_bottom_level_only():
    tower = ((9,) * 10, (8, 8, 8), (7, 7), (6,))
    assert validate(tower, skills(base=1)).legal
    assert validate(tower, NONE).rule == "K6-base"
    two_wide = ((9,) * 10, (8,) * 5, (7, 7), (6,))
    check = validate(two_wide, skills(base=1))
    assert check.rule == "K6-base" and check.level == 1


def test_example_C_mix_9_with_10_and_balance():
    tower = ((9, 9, 10), (7, 7, 7), (5, 5), (3,))
    assert validate(tower, skills(balance=1, mix=1)).uses == skills(balance=1, mix=1)
    assert validate(tower, skills(balance=1, mix=1)).legal
    assert validate(tower, skills(balance=1)).rule == "K6-mix"
    assert validate(tower, skills(mix=1)).rule == "K6-balance"


def test_example_D_strength_and_balance_stack_equal_sizes():
    tower = ((5, 5, 5), (5, 5, 5), (5, 5, 5), (4, 4), (3,))
    check = validate(tower, skills(balance=2, strength=2))
    assert check.legal and check.uses == skills(balance=2, strength=2)
    check = validate(tower, skills(balance=2, strength=1))
    assert check.rule == "K6-strength" and check.level == 2


def test_example_E_width_4_adds_4_per_level():
    tower = ((10,) * 7, (9,) * 6, (8,) * 5, (7,) * 4)
    check = validate(tower, skills(width=4))
    assert check.legal and check.uses == skills(width=4)
    assert validate(tower, skills(width=3)).rule == "K6-base"


def test_example_F_terrassa_tower_uses():
    # At least 6 levels using Strength 1, Base 1 and Mix 2 (Width 2 makes room for 6 levels).
    tower = ((9,) * 8 + (10,), (7, 7, 7, 7, 8), (7, 7, 7, 7), (5, 5, 5), (3, 3), (1,))
    check = validate(tower, skills(base=1, mix=2, strength=1, width=2))
    assert check.legal and len(tower) == 6
    assert check.uses == skills(base=1, mix=2, strength=1, width=2)


def test_example_G_not_eligible_below_4_levels():
    tower = ((8, 8, 8), (6, 6), (5,))
    assert validate(tower, NONE).legal and not eligible(tower, (6, 8))
    assert eligible(((8, 8, 8, 8), (6, 6, 6), (5, 5), (4,)), (6, 8))


def test_K8_eligible_needs_every_festival_size():
    tower = ((10, 10, 10), (8, 8), (6,), (5,))
    assert eligible(tower, (8, 6, 5)) and not eligible(tower, (8, 7))
    assert eligible(tower, ())


def test_example_H_score_12():
    tower = ((10,) * 5, (9, 9, 9, 9), (7, 7, 7), (3, 3), (2,), (1,))
    assert validate(tower, skills(balance=1, width=2)).legal
    assert festival_score(tower, (3, 9)) == 6 + 4 + 2 == 12


def test_K8_score_counts_each_festival_size_once():
    tower = ((9, 9, 9), (3, 3), (1,))
    assert festival_score(tower, (3, 3, 9)) == 3 + 5
    assert festival_score(tower, ()) == 3


def test_castellers_needed():
    assert castellers_needed(((9, 9, 10), (3,))) == (0, 0, 0, 1, 0, 0, 0, 0, 0, 2, 1)
