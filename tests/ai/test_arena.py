"""The arena: fair seating, determinism across workers, JSON shape, statistics, the chart."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest

from meeple.ai.arena import plot_ratings, run_arena, seatings
from meeple.ai.match import derive_seed
from meeple.ai.ratings import (
    mean_ci95,
    openskill_ratings,
    ranks_from_results,
    t_critical_95,
    wilson_ci95,
)
from meeple.core import OptionError

BOTS3 = ["ismcts:20", "greedy", "random"]


@pytest.mark.parametrize("bots,players", [(2, 2), (3, 3), (2, 3), (3, 2), (4, 2), (2, 5), (1, 3)])
def test_seatings_put_every_bot_in_every_seat_equally(bots, players):
    plan = seatings(bots, players)
    assert len(plan) == len(set(plan))
    for seat in range(players):
        per_seat = Counter(s[seat] for s in plan)
        assert set(per_seat) == set(range(bots))
        assert len(set(per_seat.values())) == 1, f"seat {seat} is unbalanced: {per_seat}"
    total = Counter(b for s in plan for b in s)
    assert len(set(total.values())) == 1


def test_two_and_three_bot_seatings_are_all_orders():
    assert seatings(2, 2) == [(0, 1), (1, 0)]
    assert len(seatings(3, 3)) == 6


def test_run_rotates_seats_and_duplicates_deals(toy):
    result = run_arena(toy, BOTS3, 3, 12, seed=5, workers=1)
    counts = Counter(o.seating for o in result.outcomes)
    assert set(counts) == set(seatings(3, 3)) and set(counts.values()) == {2}
    for seat in range(3):
        assert sorted(Counter(o.seating[seat] for o in result.outcomes).values()) == [4, 4, 4]
    # each deal is played once in each of the 6 seatings
    assert [o.seed for o in result.outcomes] == [derive_seed(5, i // 6) for i in range(12)]
    assert all(s.appearances == 12 for s in result.summaries)
    assert result.balanced


def test_results_do_not_depend_on_the_number_of_workers(toy):
    seen: list[int] = []
    one = run_arena(toy, BOTS3, 3, 12, seed=9, workers=1, progress=seen.append)
    two = run_arena(toy, BOTS3, 3, 12, seed=9, workers=2)
    a, b = one.to_json(), two.to_json()
    assert a.pop("timing")["workers"] == 1 and b.pop("timing")["workers"] == 2
    assert a == b
    assert seen == list(range(1, 13))
    other = run_arena(toy, BOTS3, 3, 12, seed=10, workers=1).to_json()
    other.pop("timing")
    assert other["results"] != a["results"]


def test_json_has_the_documented_keys(toy):
    result = run_arena(toy, ["greedy", "random"], 2, 4, seed=1, workers=1)
    data = json.loads(json.dumps(result.to_json()))
    assert set(data) == {"game", "players", "games", "seed", "options", "bot_specs", "seatings", "balanced",
                         "bots", "seat_win_share", "results", "timing"}
    assert (data["game"], data["players"], data["games"], data["seed"]) == (toy, 2, 4, 1)
    for bot in data["bots"]:
        assert set(bot) == {"name", "index", "appearances", "wins", "win_share", "win_share_ci95", "mean_score",
                            "score_ci95", "rating"}
        assert set(bot["rating"]) == {"mu", "sigma", "ordinal"}
        low, high = bot["score_ci95"]
        assert low <= bot["mean_score"] <= high
    assert set(data["results"][0]) == {"index", "seed", "seating", "scores", "winners", "moves"}
    assert set(data["timing"]) == {"backend", "workers", "seconds", "time_capped_moves", "max_move_seconds"}
    assert math.isclose(sum(b["wins"] for b in data["bots"]), 4.0)
    assert math.isclose(sum(data["seat_win_share"]), 1.0)


def test_shared_wins_count_a_fraction(toy):
    """Identical bots with identical streams on identical seats: ties are possible in 3 players
    (1-1-1 tricks) and count 1/3 to each, so every game hands out exactly one win."""
    result = run_arena(toy, ["random", "random", "random"], 3, 30, seed=3, workers=1)
    shared = [o for o in result.outcomes if len(o.winners) > 1]
    assert shared, "expected a shared win in 30 games"
    for o in shared:
        assert math.isclose(sum(o.rewards), 1.0) and set(o.rewards) <= {0.0, 1 / len(o.winners)}
    assert math.isclose(sum(s.wins for s in result.summaries), 30.0)


def test_t_quantiles_and_mean_interval_on_known_inputs():
    assert t_critical_95(1) == 12.706 and t_critical_95(4) == 2.776 and t_critical_95(30) == 2.042
    assert t_critical_95(40) == pytest.approx(2.0211, abs=2e-3)
    assert t_critical_95(120) == pytest.approx(1.9799, abs=1e-3)
    mean, low, high = mean_ci95([1, 2, 3, 4, 5])
    half = 2.776 * math.sqrt(2.5 / 5)
    assert (mean, low, high) == pytest.approx((3.0, 3.0 - half, 3.0 + half))
    assert mean_ci95([7.0]) == (7.0, 7.0, 7.0)
    assert mean_ci95([2, 2, 2]) == (2.0, 2.0, 2.0)


def test_wilson_interval_on_known_inputs():
    assert wilson_ci95(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    low, high = wilson_ci95(0, 20)
    assert low == 0.0 and high == pytest.approx(0.1611, abs=1e-4)
    assert wilson_ci95(180, 200) == pytest.approx((0.8506, 0.9343), abs=1e-4)


def test_ranks_and_openskill_ratings():
    assert ranks_from_results([0.5, 0.5, 0.0], [3, 3, 1]) == [1, 1, 3]
    assert ranks_from_results([0.0, 1.0], [9, 2]) == [2, 1]
    assert ranks_from_results([0.0, 0.0, 1.0], [4, 6, 7]) == [3, 2, 1]
    first, second = openskill_ratings(2, [((0, 1), (1, 2))])
    assert first.mu > 25 > second.mu and first.mu + second.mu == pytest.approx(50)
    assert first.sigma < 25 / 3
    many = openskill_ratings(2, [((0, 1), (1, 2)), ((1, 0), (2, 1))] * 20)
    assert many[0].mu - 3 * many[0].sigma > many[1].mu
    assert many[0].ordinal == pytest.approx(many[0].mu - 3 * many[0].sigma)
    even = openskill_ratings(2, [((0, 1), (1, 2)), ((1, 0), (1, 2))] * 10)
    assert abs(even[0].mu - even[1].mu) < even[0].sigma / 2  # online updates favour the last winner a little


def test_plot_is_a_non_blank_png(toy, tmp_path):
    import matplotlib.image

    result = run_arena(toy, BOTS3, 3, 6, seed=2, workers=1)
    path = tmp_path / "ratings.png"
    plot_ratings(result, str(path))
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pixels = matplotlib.image.imread(str(path))
    assert pixels.shape[0] > 100 and pixels.shape[1] > 300
    assert pixels.std() > 0.05, "the chart is blank"
    assert (pixels[..., :3].min(axis=2) < 0.5).mean() > 0.005, "hardly anything is drawn"


def test_bad_arguments_are_one_line_errors(toy):
    for kwargs in ({"bots": ["nobody"]}, {"games": 0}, {"players": 9}, {"workers": 0},
                   {"options": {"nope": 1}}):
        args = {"game": toy, "bots": ["random"], "players": 2, "games": 2, "seed": 1, "workers": 1, **kwargs}
        with pytest.raises(OptionError):
            run_arena(**args)


def test_options_reach_the_games(toy):
    short = run_arena(toy, ["greedy", "random"], 2, 4, seed=1, workers=1, options={"hand": "1"})
    assert short.options == {"hand": 1} and short.to_json()["options"] == {"hand": 1}
    assert all(o.moves == 2 and sum(o.scores) == 1 for o in short.outcomes)


def test_time_capped_moves_are_reported(toy):
    result = run_arena(toy, ["ismcts:0.005s", "random"], 2, 2, seed=1, workers=1)
    assert result.to_json()["timing"]["time_capped_moves"] > 0
    assert result.to_json()["timing"]["max_move_seconds"]["ismcts:0.005s"] <= 0.05


def test_a_bot_in_several_seats_is_rated_once_per_game():
    """Bot 0 holds seats 0 and 2 and finishes first and third: its update is the mean of both."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    teams = [[model.rating()], [model.rating()], [model.rating()]]
    first, _, third = model.rate(teams, ranks=[1, 2, 3])
    rated = openskill_ratings(2, [((0, 1, 0), (1, 2, 3))])
    assert rated[0].mu == pytest.approx((first[0].mu + third[0].mu) / 2)
    assert rated[0].sigma == pytest.approx((first[0].sigma + third[0].sigma) / 2)


def test_more_seats_than_bots_in_a_real_run(toy):
    result = run_arena(toy, ["greedy", "random"], 3, 6, seed=4, workers=1)
    assert result.balanced and len(result.seatings) == 6
    assert [s.appearances for s in result.summaries] == [9, 9]
    assert math.isclose(sum(s.wins for s in result.summaries), 6.0)
