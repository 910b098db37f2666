"""The game review's calibration: the fit, the hook, the data files, and the measurement."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.ai.review import ReviewSettings, review_move
from meeple.ai.review_calibration import (
    EDGE,
    Logistic,
    _calibration,
    calibrate,
    calibrate_shares,
    calibration_of,
    calibration_text,
    logit,
    map_for,
    parse_calibration,
    sigmoid,
)
from meeple.ai.review_estimate import stream
from meeple.ai.review_fit import brier, fit_logistic, meets_goal, reliability
from meeple.ai.review_measure import measure, raw_chance, spread
from meeple.cli.app import main
from meeple.core import registry
from meeple.core.errors import OptionError
from meeple.core.plugin import PluginError
from meeple.core.record import GameRecord
from meeple.core.registry import game_names, game_plugin, load
from meeple.core.rng import Rng
from tests.ai import ai_toygame

chances = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
maps = st.builds(Logistic, st.floats(min_value=0.05, max_value=10.0), st.floats(min_value=-10.0, max_value=10.0))


# -- the fit ---------------------------------------------------------------------------------------


def test_the_fit_recovers_a_known_map_from_its_expected_outcomes():
    truth = Logistic(0.7, 0.3)
    raws = [k / 200 for k in range(2, 199)]
    fitted = fit_logistic(raws, [truth(x) for x in raws])
    assert fitted.slope == pytest.approx(0.7, abs=0.01) and fitted.intercept == pytest.approx(0.3, abs=0.01)


def test_the_fit_recovers_a_known_map_from_sampled_wins_and_losses():
    rng = random.Random(3)
    truth = Logistic(1.6, -0.4)
    raws = [rng.uniform(0.02, 0.98) for _ in range(6000)]
    outcomes = [1.0 if rng.random() < truth(x) else 0.0 for x in raws]
    fitted = fit_logistic(raws, outcomes)
    assert fitted.slope == pytest.approx(1.6, abs=0.15) and fitted.intercept == pytest.approx(-0.4, abs=0.1)


def test_calibrated_chances_of_an_overconfident_estimate_meet_the_goal_on_other_positions():
    rng = random.Random(5)
    truth = Logistic(0.5, 0.0)  # a stated 90% wins about 75%

    def positions(n: int) -> tuple[list[float], list[float]]:
        raws = [rng.uniform(0.02, 0.98) for _ in range(n)]
        return raws, [1.0 if rng.random() < truth(x) else 0.0 for x in raws]

    raws, outcomes = positions(4000)
    fitted = fit_logistic(raws, outcomes)
    held_raws, held_outcomes = positions(4000)
    assert not meets_goal(reliability(held_raws, held_outcomes))
    calibrated = [fitted(x) for x in held_raws]
    assert meets_goal(reliability(calibrated, held_outcomes))
    assert brier(calibrated, held_outcomes) < brier(held_raws, held_outcomes)


def test_the_fit_refuses_chances_that_say_nothing_or_the_opposite():
    with pytest.raises(OptionError, match="out of bounds"):
        fit_logistic([0.2, 0.8] * 50, [1.0, 0.0] * 50)
    with pytest.raises(OptionError, match="as many outcomes"):
        fit_logistic([0.5], [])


def test_a_reliability_table_counts_each_bin_and_its_wins():
    table = reliability([0.05, 0.05, 0.72, 0.78, 1.0], [0.0, 1.0, 1.0, 0.5, 1.0])
    assert [(b.low, b.count) for b in table] == [(0.0, 2), (0.7, 2), (0.9, 1)]
    assert table[0].observed == 0.5 and table[1].observed == 0.75 and table[1].mean_estimate == pytest.approx(0.75)
    assert table[0].ci95[0] < 0.5 < table[0].ci95[1]
    assert brier([0.5] * 4, [0.0, 1.0, 1.0, 0.0]) == 0.25


# -- the hook --------------------------------------------------------------------------------------


def test_the_hook_is_the_identity_for_a_game_without_calibration_data(toy):
    assert calibration_of(toy) == {}
    assert calibrate(0.37, 2, toy) == 0.37 and calibrate(1.2, 2, toy) == 1.0
    assert calibrate_shares([0.3, 0.6, 0.2], 1, 3, toy) == [0.3, 0.6, 0.2]


def test_a_game_s_data_file_maps_its_player_counts_and_leaves_the_others(toy_with_data):
    assert calibration_of(toy_with_data) == {"default": {2: Logistic(0.5, 0.2)}, "quick": {2: Logistic(0.4, 0.1),
                                                                                           3: Logistic(0.6, 0.0)}}
    assert calibrate(0.5, 2, toy_with_data) == pytest.approx(sigmoid(0.2))
    assert calibrate(0.9, 2, toy_with_data) == pytest.approx(sigmoid(0.5 * logit(0.9) + 0.2))
    assert calibrate(0.9, 2, toy_with_data, "quick") == pytest.approx(sigmoid(0.4 * logit(0.9) + 0.1))
    assert calibrate(0.25, 4, toy_with_data) == 0.25 and calibrate(0.25, 4, toy_with_data, "quick") == 0.25
    assert calibrate_shares([0.9, 0.1], 0, 2, toy_with_data) == pytest.approx(
        [calibrate(0.9, 2, toy_with_data), 1 - calibrate(0.9, 2, toy_with_data)])


def test_a_setting_without_its_own_map_uses_the_other_setting_s(toy_with_data):
    assert map_for(toy_with_data, 3, "default") == map_for(toy_with_data, 3, "quick") == Logistic(0.6, 0.0)
    assert calibrate(0.7, 3, toy_with_data) == pytest.approx(sigmoid(0.6 * logit(0.7)))
    assert map_for(toy_with_data, 4, "default") is None


def test_a_review_s_chances_go_through_the_map_of_its_setting(toy_with_data):
    assert ReviewSettings.default().calibrated_as == "default"
    assert ReviewSettings.quick().calibrated_as == "quick"
    assert ReviewSettings(samples=2, screening=1).calibrated_as == "quick"  # as noisy as quick's, or noisier
    assert ReviewSettings(samples=24, screening=4).calibrated_as == "default"


def test_the_hook_leaves_a_player_count_its_data_does_not_name():
    for name in game_names():
        info = game_plugin(name).info
        for players in range(info.min_players, info.max_players + 1):
            if map_for(name, players) is None:
                assert calibrate(0.123, players, name) == 0.123 == calibrate(0.123, players, name, "quick")


@given(maps, chances)
def test_a_map_keeps_chances_in_the_unit_interval_and_rises(found, raw):
    assert 0.0 <= found(raw) <= 1.0
    assert found(min(1.0, raw + 0.05)) >= found(raw)


@given(maps, st.lists(chances, min_size=2, max_size=5), st.data())
def test_calibrated_shares_stay_in_the_unit_interval_and_add_up_to_one(found, shares, data):
    seat = data.draw(st.integers(0, len(shares) - 1))
    calibrated = found.shares(shares, seat)
    assert all(0.0 <= x <= 1.0 for x in calibrated)
    assert sum(calibrated) == pytest.approx(1.0)
    assert calibrated[seat] == found(shares[seat])


def test_the_shipped_calibrations_cover_two_players_of_every_game_and_review_with_them():
    for name in ("triqueta", "triominos", "celtica", "castell"):
        assert 2 in calibration_of(name)["default"] and 2 in calibration_of(name)["quick"], name
    record = _finished("triqueta", seed=4)
    entry = review_move(record.to_json(), 5, ReviewSettings.quick(), 9)
    assert all(0.0 <= x <= 1.0 for x in entry["chances"]) and sum(entry["chances"]) == pytest.approx(1.0, abs=1e-3)
    assert entry["chances"][entry["seat"]] == entry["chance_after"]


# -- the data files --------------------------------------------------------------------------------


def test_a_data_file_round_trips_through_its_text():
    maps_ = {"default": {2: Logistic(0.8123, -0.0456, 'fitted on "some" games, 第 1 手')},
             "quick": {2: Logistic(0.7, 0.1), 4: Logistic(1.25, 0.5)}}
    parsed = parse_calibration(calibration_text(maps_, ["a header"]), 2, 5)
    assert parsed == maps_ and parsed["default"][2].fitted == maps_["default"][2].fitted


@pytest.mark.parametrize(("text", "problem"), [
    ("[quick.players.2\nslope = 1", "is not TOML"),
    ("slope = 1.0\n", "needs [SETTING.players.N] tables (SETTING one of default, quick)"),
    ("[players.2]\nslope = 1.0\nintercept = 0.0\n", "needs [SETTING.players.N] tables"),
    ("[fast.players.2]\nslope = 1.0\nintercept = 0.0\n", "needs [SETTING.players.N] tables"),
    ("[quick.players.9]\nslope = 1.0\nintercept = 0.0\n", "names '9' players at the quick setting (2 to 5 play it)"),
    ("[quick.players.two]\nslope = 1.0\nintercept = 0.0\n", "names 'two' players"),
    ("[default.players.2]\nslope = 1.0\n", "needs a slope and an intercept"),
    ("[default.players.2]\nslope = 1.0\nintercept = 0.0\nextra = 1\n", "and nothing else, for 2 players"),
    ("[quick.players.2]\nslope = -1.0\nintercept = 0.0\n", "slope of -1.0 for 2 players at the quick setting"),
    ("[quick.players.2]\nslope = '1'\nintercept = 0.0\n", "slope of '1'"),
    ("[quick.players.2]\nslope = 1.0\nintercept = 99\n", "intercept of 99"),
    ("[quick.players.2]\nslope = 1.0\nintercept = 0\nfitted = 3\n", "fitted note of 3"),
])
def test_a_bad_data_file_is_one_clear_error(text, problem):
    with pytest.raises(PluginError, match="the calibration") as error:
        parse_calibration(text, 2, 5)
    assert problem in str(error.value) and "\n" not in str(error.value)


def test_a_plugin_naming_a_bad_or_missing_data_file_is_an_error_naming_the_plugin_and_file(tmp_path, monkeypatch):
    package = tmp_path / "calibration_probe"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "bad.toml").write_text("[quick.players.2]\nslope = 0\nintercept = 0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    plugin = game_plugin("triqueta")
    for target, problem in (("calibration_probe:bad.toml", "slope of 0"),
                            ("calibration_probe:missing.toml", "cannot be read (FileNotFoundError")):
        with pytest.raises(PluginError) as error:
            _calibration(dataclasses.replace(plugin, calibration=target))
        message = str(error.value)
        assert message.startswith(f"game plugin 'triqueta': its calibration '{target}'") and problem in message


# -- the measurement -------------------------------------------------------------------------------


def test_positions_are_spread_one_to_each_stretch_of_the_game():
    picks = spread(100, 10, Rng(1))
    assert [p // 10 for p in picks] == list(range(10))
    assert spread(4, 10, Rng(1)) == [0, 1, 2, 3]


@pytest.mark.parametrize("name", ["triqueta", "triominos", "celtica", "castell"])
def test_the_raw_chance_measured_is_the_one_the_review_reports_before_calibration(name):
    record = _finished(name, seed=2)
    state = record.new_state()
    index = len(record.actions) // 3
    for done in record.actions[:index]:
        state.apply(state.game.action_from_json(done))
    action = state.game.action_from_json(record.actions[index])
    raw = raw_chance(state, action, ReviewSettings.quick(), stream(11, index))
    entry = review_move(record.to_json(), index, ReviewSettings.quick(), 11)
    assert entry["chance_after"] == round(calibrate(raw, 2, name, "quick"), 4)


def test_a_measurement_fits_on_some_games_and_measures_on_others():
    found = measure("triqueta", 2, games=3, positions=12, seed=5, fit_games=3, bots=("random", "greedy"), workers=1)
    assert found.per_game == 4 and len(found.held_out) == 12 and len(found.fit) == 12
    assert {p.game for p in found.fit} == {0, 1, 2} and {p.game for p in found.held_out} == {3, 4, 5}
    assert all(0 <= p.index < p.moves and 0.0 <= p.raw <= 1.0 and p.outcome in (0.0, 0.5, 1.0) for p in found.held_out)
    report = json.loads(json.dumps(found.to_json()))
    held = report["held_out"]
    assert held["baseline_brier"] <= 0.25 and sum(b["count"] for b in held["raw"]["table"]) == 12
    assert report["fitted"] is not None or report["fit_error"]


def test_a_measurement_refuses_bad_arguments_before_playing():
    for kwargs, problem in (({"setting": "slow"}, "quick or default"), ({"bots": ("nobot",)}, "nobot"),
                            ({"fit_games": -1}, "no negative"),):
        with pytest.raises(OptionError, match=problem):
            measure("triqueta", 2, games=2, positions=4, seed=1, **kwargs)
    with pytest.raises(OptionError, match="at least one position per game"):
        measure("triqueta", 2, games=5, positions=4, seed=1)


def test_the_command_writes_a_data_file_the_hook_reads_and_keeps_its_other_maps(tmp_path, capsys):
    target = tmp_path / "calibration.toml"
    target.write_text(calibration_text({"quick": {3: Logistic(0.9, 0.1)}, "default": {2: Logistic(1.1, 0.2)}},
                                       ["earlier"]))
    code = _run(["review-calibration", "triqueta", "--games", "4", "--fit-games", "4", "--positions", "16",
                 "--bots", "random,greedy", "--workers", "1", "--json", "--write", str(target)])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    written = parse_calibration(target.read_text(), 2, 5)
    assert written["quick"][3] == Logistic(0.9, 0.1) and written["default"] == {2: Logistic(1.1, 0.2)}
    assert written["quick"][2] == Logistic(report["fitted"]["slope"], report["fitted"]["intercept"])
    assert "16 positions of 4 self-play games (random, greedy), seed 1; held out" in written["quick"][2].fitted


def test_the_command_stops_at_a_bad_data_file_before_playing_and_leaves_it(tmp_path, capsys):
    target = tmp_path / "calibration.toml"
    target.write_text("[quick.players.2]\nslope = 'steep'\nintercept = 0\n")
    code = _run(["review-calibration", "triqueta", "--games", "400", "--write", str(target)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "slope of 'steep'" in err and str(target) in err
    assert "steep" in target.read_text()
    assert _run(["review-calibration", "triqueta", "--fit-games", "0", "--write", str(tmp_path / "new.toml")]) == 2
    assert "--write needs a fit" in capsys.readouterr().err and not (tmp_path / "new.toml").exists()


# -- helpers ---------------------------------------------------------------------------------------


@pytest.fixture
def toy_with_data(tmp_path, monkeypatch) -> Iterator[str]:
    """The toy trick game with a calibration data file for two players, registered."""
    package = tmp_path / "toy_calibration"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from dataclasses import replace\n"
        "from tests.ai.ai_toygame import PLUGIN as TOY\n"
        "PLUGIN = replace(TOY, calibration='toy_calibration:calibration.toml')\n")
    (package / "calibration.toml").write_text(calibration_text(
        {"default": {2: Logistic(0.5, 0.2)}, "quick": {2: Logistic(0.4, 0.1), 3: Logistic(0.6, 0.0)}}, ["a toy"]))
    monkeypatch.syspath_prepend(str(tmp_path))
    with registry.registered(ai_toygame.NAME, "toy_calibration:PLUGIN") as name:
        yield name


def _run(argv: list[str]) -> int:
    with pytest.raises(SystemExit) as done:
        main(argv)
    code = done.value.code
    assert isinstance(code, int)
    return code


def _finished(name: str, seed: int) -> GameRecord:
    from meeple.ai.bots import make_bot
    from meeple.ai.match import play_game

    record = GameRecord(game=name, num_players=2, seed=seed, players=["greedy", "random"])
    play_game(load(name), [make_bot("greedy"), make_bot("random")], seed, on_action=lambda s, a: record.add(a))
    return record


@settings(max_examples=30, deadline=None)
@given(chances)
def test_the_identity_map_changes_only_chances_too_near_zero_or_one_for_a_logit(raw):
    assert Logistic(1.0, 0.0)(raw) == pytest.approx(min(1 - EDGE, max(EDGE, raw)))
