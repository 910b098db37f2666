"""The rulebook's worked examples H, I, J, K (ruling K12) and the scoring tables (K8, K9, K11),
computed by the engine's scoring functions."""

from meeple.games.castell.scoring import (
    REGION_VARIETY,
    final_breakdown,
    prizes,
    region_variety,
    size_token_points,
    size_token_winners,
)
from meeple.games.castell.towers import festival_score, validate


def test_K12_example_H_tower_scores_12():
    # Fernanda at Valls, festival sizes 3 and 9: 6 levels, two 3s and four 9s -> 6 + 4 + 2 = 12.
    tower = ((9, 9, 9), (9, 10), (7,), (5,), (3,), (3,))
    assert validate(tower, (5, 5, 5, 5, 0)).legal
    assert festival_score(tower, (3, 9)) == 12


def test_K12_example_I_tied_firsts_take_second_prize():
    # Arno 17, Fernanda 9, Jordan 17: Arno and Jordan take the medal (3), Fernanda the ribbon (1).
    assert prizes([17, 9, 17]) == [3, 1, 3]


def test_K9_prize_table_by_entrants():
    assert prizes([12]) == [1]
    assert prizes([12, 8]) == [3, 1]
    assert prizes([8, 12, 10]) == [1, 5, 3]
    assert prizes([8, 12, 10, 4]) == [1, 5, 3, 0]
    assert prizes([]) == []


def test_K9_prize_ties_one_lower_takes_one_place_below_the_tie():
    """K9 (amended), option prize_ties=one_lower: the translation's wording. It differs from
    K9 only when three or more entrants tie."""
    assert prizes([17, 17, 9], "one_lower") == prizes([17, 17, 9]) == [3, 3, 1]  # example I
    assert prizes([10, 10], "one_lower") == [1, 1]
    assert prizes([10, 10, 10], "one_lower") == [3, 3, 3]  # K9: 1, 1, 1
    assert prizes([10, 7, 7, 7], "one_lower") == [5, 1, 1, 1]  # K9: 5, 0, 0, 0
    assert prizes([9, 9, 9, 9], "one_lower") == [3, 3, 3, 3]  # K9: 0 each
    assert prizes([10, 7, 7], "one_lower") == [5, 1, 1]
    assert prizes([12], "one_lower") == [1]


def test_K9_ties_take_the_lowest_place_of_their_group():
    assert prizes([10, 10]) == [1, 1]
    assert prizes([10, 10, 10]) == [1, 1, 1]
    assert prizes([10, 7, 7]) == [5, 1, 1]
    assert prizes([10, 7, 7, 7]) == [5, 0, 0, 0]
    assert prizes([9, 9, 5, 5]) == [3, 3, 0, 0]


def test_K12_example_J_size_token_claims():
    # Mataró and Jordan, tokens 2, 7, 10: Jordan more 10s, Mataró more 2s, equal 7s -> discarded.
    mataro = [0] * 11
    jordan = [0] * 11
    mataro[2], mataro[7], mataro[10] = 2, 1, 1
    jordan[2], jordan[7], jordan[10] = 1, 1, 3
    assert size_token_winners([mataro, jordan], (2, 7, 10)) == [0, None, 1]


def test_K9_size_token_single_entrant_and_three_way():
    one = [0] * 11
    one[4] = 1
    assert size_token_winners([one], (4, 4)) == [0, 0]
    a, b, c = [0] * 11, [0] * 11, [0] * 11
    a[5], b[5], c[5] = 2, 3, 3
    assert size_token_winners([a, b, c], (5,)) == [None]
    c[5] = 4
    assert size_token_winners([a, b, c], (5,)) == [2]


def test_K11_region_variety_table():
    assert [region_variety(k) for k in range(1, 8)] == [0, 1, 3, 5, 7, 10, 14]
    assert REGION_VARIETY[0] == 0


def test_K11_size_tokens_two_per_size_one_per_duplicate():
    assert size_token_points([]) == 0
    assert size_token_points([3]) == 2
    assert size_token_points([3, 3]) == 3
    assert size_token_points([3, 3, 3, 4]) == 6


def test_K12_example_K_final_score_65():
    # Arno: best 18, 4 regions (5), prizes 5+5+3+1+1+1 = 16, 5 distinct + 2 duplicate sizes (12),
    # performance stars 4+5+5 = 14: 65.
    parts = final_breakdown(18, 4, [5, 5, 3, 1, 1, 1], [1, 2, 2, 5, 7, 7, 9], [4, 5, 5])
    assert parts == {"best_tower": 18, "region_variety": 5, "prizes": 16, "size_tokens": 12, "stars": 14,
                     "total": 65}
