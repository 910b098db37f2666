"""The greedy heuristic and the evaluation for search."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meeple.ai.bots import make_bot
from meeple.ai.heuristics import heuristics_of
from meeple.ai.match import play_game
from meeple.core.rng import Rng
from meeple.core.shares import softmax_shares
from meeple.games.celtica import heuristics
from meeple.games.celtica.actions import BUY, DONE, GIVE, PLAY, TAKE
from meeple.games.celtica.phases import END_PHASE
from tests.celtica.helpers import BROWN, GAME, GREY, RED, WHITE, hand, position, turn


def test_heuristics_module_is_registered():
    assert heuristics_of(GAME) is heuristics


def test_greedy_beats_random():
    greedy, rand = make_bot("greedy"), make_bot("random")
    wins = 0.0
    games = 24
    for i in range(games):
        seats = [greedy if seat == i % 3 else rand for seat in range(3)]
        _, result = play_game(GAME, seats, seed=100 + i)
        wins += result.win_shares()[i % 3]
    assert wins / games >= 0.75


def test_greedy_takes_the_part_that_completes_an_amulet():
    mine = [1, 1, 1, 1, 1, 1, 1, 1, 0]  # only outer 8 is missing
    s = position(druids=(0, 0, 0, 0, 0), hands=[hand(RED), hand(GREY), hand(GREY)],
                 parts=[mine, [0] * 9, [0] * 9], display=[2, 2, 1, 1, 1, 0, 0, 0, 2])
    s.apply(PLAY[RED][1][0])
    assert heuristics.choose(s, Rng(0)) == TAKE[8]


def test_greedy_gives_up_its_least_useful_parts():
    mine = [3, 1, 1, 1, 1, 1, 1, 1, 0]  # the extra centres are worth least
    s = position(druids=(7, 0, 0, 0, 0), hands=[hand(RED), hand(GREY), hand(GREY)], parts=[mine, [0] * 9, [0] * 9])
    s.apply(PLAY[RED][1][0])
    assert heuristics.choose(s, Rng(0)) == GIVE[0]


def test_greedy_avoids_a_ruin_for_a_find_site():
    mine = [1, 1, 1, 1, 1, 0, 0, 0, 0]
    # red: one step to a ruin 2 (7 -> 8); white: one step to a castle 2 (8 -> 9)
    s = position(druids=(7, 0, 8, 0, 0), hands=[hand(RED, WHITE), hand(GREY), hand(GREY)],
                 parts=[mine, [0] * 9, [0] * 9])
    assert heuristics.choose(s, Rng(0)) == PLAY[WHITE][1][0]


def test_greedy_spends_experience_cards_where_they_complete_an_amulet():
    mine = [1, 1, 1, 1, 1, 1, 1, 1, 0]
    s = position(druids=(17, 0, 0, 0, 0), hands=[hand(RED), [0] * 5, [0] * 5],
                 experience=[hand(BROWN, BROWN), [0] * 5, [0] * 5],
                 parts=[mine, [0] * 9, [0] * 9], display=[0, 0, 0, 0, 0, 0, 0, 0, 0], supply_top=[1, 2, 3, 4, 8, 5, 6])
    turn(s, RED, 1)  # takes three parts at the goal; the display is refilled
    assert s.phase == END_PHASE and s.current_player == 0
    assert s.display[8] >= 1
    choice = heuristics.choose(s, Rng(0))
    assert choice == BUY[8]


def test_greedy_stops_when_nothing_helps():
    s = position(druids=(17, 0, 0, 0, 0), hands=[hand(RED), [0] * 5, [0] * 5],
                 experience=[hand(BROWN), [0] * 5, [0] * 5],
                 parts=[[1] * 9, [0] * 9, [0] * 9], display=[0] * 9, supply_top=[0, 0, 0, 0, 0, 0, 0, 0, 0])
    turn(s, RED, 1)
    assert s.phase == END_PHASE and s.display == [9] + [0] * 8  # nothing to take: refilled with centres
    assert heuristics.choose(s, Rng(0)) == DONE  # swapping anything for a centre only loses


def test_greedy_decides_only_from_what_it_may_see():
    for seed in range(6):
        s = GAME.new_game(4, seed=seed)
        rng = Rng(seed)
        for _ in range(40):
            if s.is_terminal:
                break
            p = s.current
            sample = s.determinize(p, Rng(seed + 99))
            assert heuristics.choose(s, Rng(7)) == heuristics.choose(sample, Rng(7))
            s.apply(rng.choice(s.legal_actions()))


def test_evaluate_gives_chances_in_0_1():
    s = position(parts=[[2] * 9, [1] * 9, [0] * 9], hands=[hand(RED), hand(GREY), hand(GREY)])
    values = heuristics.evaluate(s)
    assert len(values) == 3 and all(0.0 <= v <= 1.0 for v in values)
    assert abs(sum(values) - 1.0) < 1e-9 and values[0] > values[1] > values[2]
    turn(s, RED, 1)
    end = GAME.new_game(2, seed=1)
    rng = Rng(1)
    while not end.is_terminal:
        end.apply(rng.choice(end.legal_actions()))
    assert heuristics.evaluate(end) == end.rewards()


def test_evaluation_weights_cover_every_table_size_and_feature():
    assert set(heuristics.EVALUATION_WEIGHTS) == set(range(GAME.min_players, GAME.max_players + 1))
    assert all(len(w) == len(heuristics.FEATURE_NAMES) for w in heuristics.EVALUATION_WEIGHTS.values())
    s = position(parts=[[1] * 9, [2, 1, 0, 0, 0, 0, 0, 0, 0], [0] * 9], druids=(9, 3, 0, 0, 0),
                 hands=[hand(RED)] * 3)
    rows = heuristics.features(s)
    assert rows[0][:3] == [heuristics.potential([1] * 9), 1.0, 9.0]
    assert rows[0][5] == 0.5 and rows[0][6] == 0.0  # progress 9 of 18, not the final round (C10)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_evaluate_is_the_softmax_of_the_weighted_features(n):
    # evaluate folds the feature products into its weights for speed; it must agree with the
    # features the weights were fitted to (meeple.ai.fit_evaluation).
    weights = heuristics.EVALUATION_WEIGHTS[n]
    s = GAME.new_game(n, seed=n)
    rng = Rng(n)
    for _ in range(120):
        if s.is_terminal:
            break
        worths = [sum(w * x for w, x in zip(weights, row)) for row in heuristics.features(s)]
        assert heuristics.evaluate(s) == pytest.approx(softmax_shares(worths, 1.0), abs=1e-12)
        s.apply(rng.choice(s.legal_actions()))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_evaluate_prefers_more_turns_and_experience_cards(n):
    # Cards in hand are turns still to come this round (C9); experience cards lengthen moves (C5)
    # and buy parts at the end (C11): with all else equal, more of either is a better chance.
    even = position(n, hands=[hand(RED)] * n)
    more_cards = position(n, hands=[hand(RED, RED)] + [hand(RED)] * (n - 1))
    more_experience = position(n, hands=[hand(RED)] * n, experience=[hand(GREY)] + [hand()] * (n - 1))
    assert heuristics.evaluate(even)[0] == pytest.approx(1.0 / n)
    assert heuristics.evaluate(more_cards)[0] > 1.0 / n
    assert heuristics.evaluate(more_experience)[0] > 1.0 / n


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_evaluate_in_the_final_round_prefers_the_completed_amulet(n):
    # C12: complete amulets decide first. Seat 0 completes an amulet with the part seat 1 holds
    # as its second of a kind.
    complete, almost = [1] * 9, [2, 1, 1, 1, 1, 1, 1, 1, 0]
    s = position(n, druids=(18, 5, 0, 0, 0), parts=[complete, almost] + [[0] * 9] * (n - 2),
                 hands=[hand(RED)] * n)
    chances = heuristics.evaluate(s)
    assert chances[0] > chances[1]


@given(st.lists(st.integers(min_value=0, max_value=10), min_size=9, max_size=9),
       st.lists(st.integers(min_value=0, max_value=3), min_size=9, max_size=9),
       st.integers(min_value=0, max_value=4))
def test_memoised_amulet_arithmetic_matches_its_definition(counts, display, n):
    # The search leans on these memos; they must answer exactly what the plain C2 sums would.
    def size_above(c, level):
        return sum(1 for x in c if x > level)

    for t in range(9):
        size = size_above(counts, counts[t])
        assert heuristics.gain(counts, t) == heuristics.WEIGHT[size + 1] - heuristics.WEIGHT[size]
        if counts[t]:
            size = size_above(counts, counts[t] - 1)
            assert heuristics.loss(counts, t) == heuristics.WEIGHT[size] - heuristics.WEIGHT[size - 1]
    assert heuristics.potential(counts) == sum(
        heuristics.WEIGHT[size_above(counts, k)] for k in range(max(counts)))
    mine, shown, expected = list(counts), list(display), 0.0
    for _ in range(n):
        options = [t for t in range(9) if shown[t]]
        if not options:
            break
        t = max(options, key=lambda u: heuristics.gain(mine, u))
        expected += heuristics.gain(mine, t)
        mine[t] += 1
        shown[t] -= 1
    assert heuristics.best_takes(counts, display, n) == expected


def test_heuristic_caches_are_bounded_by_memory():
    """Each memo holds at most CACHE_BYTES: its largest entry (keys of every part type at a high
    count, with functools' link of about 120 bytes) fits ENTRY_BYTES."""
    from meeple.core.memo import deep_size
    from meeple.games.celtica import heuristics
    from meeple.games.celtica.components import NUM_PART_TYPES

    counts = tuple(range(1000, 1000 + NUM_PART_TYPES))  # large ints: no shared small-int objects
    display = tuple(range(2000, 2000 + NUM_PART_TYPES))
    largest = [
        ((counts,), heuristics._potential(counts)),
        ((counts,), heuristics._gains(counts)),
        ((counts,), heuristics._losses(counts)),
        ((counts, display, 3000), heuristics._best_takes(counts, display, 3)),
    ]
    for entry in largest:
        assert deep_size(entry) + 120 <= heuristics.ENTRY_BYTES
    for cached in (heuristics._potential, heuristics._gains, heuristics._losses, heuristics._best_takes):
        maxsize = cached.cache_info().maxsize
        assert maxsize is not None and maxsize * heuristics.ENTRY_BYTES <= heuristics.CACHE_BYTES
