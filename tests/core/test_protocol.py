import json

import pytest

import meeple
from meeple.core.errors import IllegalAction, OptionError, RecordError
from meeple.core.i18n import Catalog
from meeple.core.protocol import Event, OptionSpec
from meeple.core.record import GameRecord


def test_registry_lists_and_loads_games():
    assert "triqueta" in meeple.game_names()
    game = meeple.load("Triqueta")
    assert game.name == "triqueta" and game.min_players == 2 and game.max_players == 5


def test_unknown_game_is_a_clear_error():
    with pytest.raises(OptionError, match="no game 'chess'"):
        meeple.load("chess")


@pytest.mark.parametrize("players", [1, 6, "3", True])
def test_bad_player_counts_are_rejected(players):
    with pytest.raises(OptionError):
        meeple.load("triqueta").new_game(players, seed=1)


def test_unknown_option_is_rejected():
    with pytest.raises(OptionError, match="no option 'turbo'"):
        meeple.load("triqueta").new_game(3, seed=1, turbo=True)


def test_option_values_are_coerced_and_checked():
    spec = OptionSpec("duo", False, "help")
    assert spec.coerce("true") is True and spec.coerce("off") is False
    with pytest.raises(OptionError):
        spec.coerce("maybe")
    with pytest.raises(OptionError):
        OptionSpec("size", 3, "help").coerce("big")
    with pytest.raises(OptionError):
        OptionSpec("mode", "a", "help", choices=("a", "b")).coerce("c")


def test_bad_seed_is_an_option_error():
    with pytest.raises(OptionError, match="seed"):
        meeple.load("triqueta").new_game(3, seed="abc")


def test_event_secrets_reach_only_their_seats():
    event = Event("keep", 1, {"x": 1}, {"animal": 5}, (1,))
    assert event.for_seat(1)["params"] == {"x": 1, "animal": 5}
    for seat in (None, 0, 2):
        seen = event.for_seat(seat)
        assert "animal" not in seen["params"] and seen["hidden"] is True
    json.dumps(event.for_seat(None))


def test_illegal_action_is_a_value_error_naming_the_rule():
    error = IllegalAction("T4", "too many")
    assert isinstance(error, ValueError) and error.rule == "T4" and "(T4)" in str(error)


def test_record_round_trip_and_replay(tmp_path):
    game = meeple.load("triqueta")
    state = game.new_game(3, seed=11)
    record = GameRecord("triqueta", 3, 11, dict(state.options), ["a", "b", "c"])
    for _ in range(12):
        action = state.legal_actions()[0]
        state.apply(action)
        record.add(action)
    path = tmp_path / "game.json"
    record.save(path)
    replayed = GameRecord.load(path).replay()
    assert replayed.to_json() == state.to_json()


@pytest.mark.parametrize(
    "text, message",
    [
        ("not json", "not valid JSON"),
        ('{"format": "other"}', "not a meeple game record"),
        ('{"format": "meeple-record", "version": 9}', "unsupported record version"),
        (
            '{"format": "meeple-record", "version": 1, "game": "triqueta", "num_players": "x",'
            ' "seed": 1, "options": {}, "players": [], "actions": []}',
            "num_players",
        ),
    ],
)
def test_malformed_records_are_named(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(RecordError, match=message):
        GameRecord.load(path)


def test_illegal_action_in_record_names_its_position():
    record = GameRecord("triqueta", 2, 3, {}, [], [{"type": "draw"}, {"type": "draw"}])
    with pytest.raises(RecordError, match="action 2"):
        record.replay()


def test_catalog_formats_names_players_and_lists():
    cat = Catalog(["meeple.cli", "meeple.games.triqueta"], "en")
    cat.player_names = ["Ana", "Bo"]
    assert cat.text("event.place", player=0, animal=5, row=1) == "Ana places a bear in row 2"
    assert cat.text("event.take", player=1, row=0, animals=[0, 5]) == "Bo takes row 1: rabbit, bear"
    zh = Catalog(["meeple.cli", "meeple.games.triqueta"], "zh-Hant")
    assert zh.name("animal", 5) == "熊"
    assert zh.text("event.place", player=0, animal=1, row=0).endswith("貓頭鷹放到第 1 列")


def test_unknown_language_is_rejected():
    with pytest.raises(OptionError, match="no language"):
        Catalog(["meeple.cli"], "fr")


def test_every_catalog_key_exists_in_both_languages():
    import tomllib
    from importlib import resources

    from meeple.core.i18n import _flatten

    def plural_form_chinese_lacks(key: str) -> bool:  # Chinese has only the `other` form
        return key.rsplit(".", 1)[-1] in ("zero", "one", "two", "few", "many")

    games = [package for name in meeple.game_names() for package in meeple.game_plugin(name).catalogs]
    for package in ["meeple.cli", "meeple.ai", "meeple.server.web", *games]:
        base = resources.files(package).joinpath("locale")
        en = _flatten(tomllib.loads(base.joinpath("en.toml").read_text(encoding="utf-8")))
        zh = _flatten(tomllib.loads(base.joinpath("zh-Hant.toml").read_text(encoding="utf-8")))
        # Component names that are digits in both (row numbers) may stay English.
        missing = [k for k in en if k not in zh and not en[k].isdigit() and not plural_form_chinese_lacks(k)]
        assert not missing, f"{package}: zh-Hant lacks {missing}"
