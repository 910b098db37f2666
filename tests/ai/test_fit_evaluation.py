"""Fitting a position evaluation to self-play (meeple.ai.fit_evaluation)."""

from __future__ import annotations

import math

import pytest

from meeple.ai import fit_evaluation
from meeple.ai.fit_evaluation import Position, collect, fit, log_loss, probabilities
from meeple.core.errors import OptionError
from meeple.core.rng import Rng


def synthetic(weights: list[float], count: int, seats: int, seed: int) -> list[Position]:
    """Positions whose winner is drawn from the conditional logit with `weights`."""
    rng = Rng(seed)
    out = []
    for _ in range(count):
        rows = [[rng.below(1000) / 100.0 for _ in weights] for _ in range(seats)]
        chances = probabilities(weights, rows)
        draw, winner = rng.below(1_000_000) / 1_000_000, 0
        while winner < seats - 1 and draw >= chances[winner]:
            draw -= chances[winner]
            winner += 1
        outcome = [1.0 if s == winner else 0.0 for s in range(seats)]
        out.append(Position(rows, outcome, [1.0 / seats] * seats))
    return out


def test_fit_recovers_the_weights_that_made_the_outcomes():
    truth = [0.8, -0.3, 0.0]
    found = fit(synthetic(truth, 3000, 3, seed=5))
    assert all(abs(f - t) < 0.1 for f, t in zip(found, truth)), found


def test_the_fit_predicts_better_than_uniform_chances():
    positions = synthetic([0.5, 0.5], 1500, 4, seed=6)
    weights = fit(positions[:1000])
    fitted = log_loss(lambda p: probabilities(weights, p.features), positions[1000:])
    uniform = log_loss(lambda p: p.current, positions[1000:])
    assert fitted < uniform == pytest.approx(math.log(4))


def test_collect_samples_self_play_positions_with_their_outcome(toy):
    positions = collect(toy, 3, games=4, seed=1)
    assert positions
    for pos in positions:
        assert len(pos.features) == 3 and all(len(row) == 2 for row in pos.features)
        assert sum(pos.outcome) == pytest.approx(1.0) and len(pos.current) == 3
    # every position of one game carries that game's outcome; the first of each is the deal
    assert positions[0].features == [[0.0, positions[0].features[s][1]] for s in range(3)]


def test_a_game_without_features_is_refused_by_name(capsys):
    with pytest.raises(OptionError, match="Triqueta has no features"):
        collect("triqueta", 2, games=1, seed=1)
    with pytest.raises(SystemExit, match="no features"):
        fit_evaluation.main(["triqueta", "--players", "2", "--games", "1"])


def test_main_prints_weights_for_each_table_size(toy, capsys):
    fit_evaluation.main([toy, "--players", "2", "3", "--games", "30"])
    out = capsys.readouterr().out
    assert "2 players:" in out and "3 players:" in out and "held-out log-loss" in out
    assert out.strip().splitlines()[-1].startswith("{2: (")


@pytest.mark.parametrize("argv, message", [
    (["celtica", "--players", "7", "--games", "5"], "7"),
    (["celtica", "--players", "2", "--games", "0"], "at least one self-play game"),
    (["nosuchgame", "--players", "2"], "nosuchgame"),
])
def test_bad_arguments_get_one_line_and_no_traceback(argv, message):
    with pytest.raises(SystemExit, match=message):
        fit_evaluation.main(argv)


def test_random_moves_mixed_in_change_the_games_and_repeat(toy):
    greedy = collect(toy, 3, games=3, seed=2)
    mixed = collect(toy, 3, games=3, seed=2, epsilon=0.5)
    assert collect(toy, 3, games=3, seed=2, epsilon=0.5) == mixed
    assert [p.features for p in mixed] != [p.features for p in greedy]
    with pytest.raises(OptionError, match="epsilon"):
        collect(toy, 3, games=1, seed=2, epsilon=1.5)
