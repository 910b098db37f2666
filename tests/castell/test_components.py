"""Component data: the shipped files load with their provenance marks, a user's directory
replaces them (option `components`), bad files fail with one clear DataError, and records pin
the components they were played with."""

import os
import shutil
from pathlib import Path

import pytest

from meeple.core.errors import DataError, OptionError, RecordError
from meeple.core.record import GameRecord
from meeple.games.castell.components import DATA_DIR, FILES, REGIONS, load_components
from meeple.games.castell.state import CastellState
from tests.castell.helpers import GAME
from tests.core.test_fuzz_loaders import no_hang


def test_shipped_components_load_with_provenance():
    comp = load_components()
    assert len(comp.festivals) == 14 and len(comp.size_tokens) == 30 and sum(comp.castellers) == 150
    assert len(comp.skill_tiles) == 8 and len(comp.local_tiles) == 32
    assert set(comp.wheels) == {"standard", "advanced"}
    # Shown only in pictures: reconstructed (RULINGS: component data).
    for file in ("regions.toml", "wheel.toml", "calendar.toml", "festivals.toml", "size_tokens.toml"):
        assert comp.provenance.get(file), file
    assert "castellers.toml" not in comp.provenance  # printed in the rulebook (K2)
    for name in FILES[:-1]:
        text = (DATA_DIR / name).read_text(encoding="utf-8")
        assert "provenance" in text


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "box"
    target.mkdir()
    for name in FILES[:-1]:
        shutil.copy(DATA_DIR / name, target / name)
    return target


def test_components_option_loads_a_directory_and_pins_it(tmp_path):
    box = _copy(tmp_path)
    text = (box / "regions.toml").read_text(encoding="utf-8")
    # Add a road Tarragona-Barcelona.
    (box / "regions.toml").write_text(
        text + '\n[[connection]]\na = "tarragona"\nb = "barcelona"\nstyle = "solid"\nprovenance = "rulebook"\n',
        encoding="utf-8",
    )
    s = GAME.new_game(2, seed=3, components=str(box))
    assert REGIONS.index("barcelona") in s.components.neighbours[REGIONS.index("tarragona")]
    assert s.options["components"] == f"{box}#sha256={s.components.sha256}"
    assert s.components.sha256 != load_components().sha256
    # A record made from the state's options replays only against the same files.
    record = GameRecord("castell", 2, 3, dict(s.options), ["a", "b"], [{"type": "move", "region": "tarragona"}])
    replayed = record.replay()
    assert isinstance(replayed, CastellState)
    assert replayed.pawn[0] == REGIONS.index("tarragona")
    (box / "regions.toml").write_text(text, encoding="utf-8")  # the road is gone again
    with pytest.raises(RecordError, match="changed since the game was recorded"):
        record.replay()


def test_missing_files_fall_back_to_the_shipped_ones(tmp_path):
    box = tmp_path / "partial"
    box.mkdir()
    shutil.copy(DATA_DIR / "calendar.toml", box / "calendar.toml")
    comp = load_components(str(box))
    assert comp.sha256 == load_components().sha256


@pytest.mark.parametrize(
    "file, old, new, message",
    [
        ("regions.toml", 'id = "valls"', 'id = "girona"', "must list each of the 7 regions"),
        ("regions.toml", 'a = "tarragona"\nb = "valls"\nstyle = "solid"\nprovenance = "reconstructed"',
         'a = "tarragona"\nb = "valls"\nstyle = "wavy"\nprovenance = "reconstructed"', "style"),
        ("wheel.toml", '"all", "barcelona"', '"all", "all"', "segments"),
        ("skill_tiles.toml", 'kind = "mix"', 'kind = "juggling"', "kind must be one of"),
        ("calendar.toml", "size_tokens = 3", "size_tokens = 9", "size_tokens must be a whole number 1..3"),
        ("calendar.toml", "festivals = { 2 = 1, 3 = 1, 4 = 2 }", "festivals = { 2 = 1, 3 = 1, 4 = 7 }",
         "festival tiles of deck"),
        ("festivals.toml", 'id = "I-valls"\ndeck = "I"\nregion = "valls"',
         'id = "I-valls"\ndeck = "I"\nregion = "mataro"', "names a region twice"),
        ("festivals.toml", 'provenance = "reconstructed"', 'provenance = "guess"', "provenance"),
        ("size_tokens.toml", "count = 3", "count = 0", "count must be a whole number"),
        ("castellers.toml", "size = 1", "size = 11", "size must be a whole number 1..10"),
        ("castellers.toml", "[[casteller]]", "[[casteller", "not valid TOML"),
    ],
)
def test_bad_component_files_raise_a_clear_data_error(tmp_path, file, old, new, message):
    box = _copy(tmp_path)
    text = (box / file).read_text(encoding="utf-8")
    assert old in text
    (box / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DataError, match=message) as info:
        load_components(str(box))
    assert "\n" not in str(info.value) and file in str(info.value)


def test_components_not_a_directory(tmp_path):
    with pytest.raises(DataError, match=r"not a directory"):
        GAME.new_game(2, seed=1, components=str(tmp_path / "nowhere"))


@pytest.mark.parametrize("file", ["regions.toml", FILES[-1]])
def test_a_fifo_in_the_directory_is_refused_not_read_nor_replaced(tmp_path, file):
    box = tmp_path / "box"
    box.mkdir()
    os.mkfifo(box / file)
    with no_hang(5), pytest.raises(DataError, match=r"is a pipe \(FIFO\), not a regular file"):
        GAME.new_game(2, seed=1, components=str(box))


def test_dev_zero_as_a_component_file_or_as_the_directory_is_refused(tmp_path):
    box = tmp_path / "box"
    box.mkdir()
    (box / "wheel.toml").symlink_to("/dev/zero")
    with no_hang(5), pytest.raises(DataError, match=r"wheel.toml is a device, not a regular file"):
        GAME.new_game(2, seed=1, components=str(box))
    with no_hang(5), pytest.raises(DataError, match=r"not a directory"):
        GAME.new_game(2, seed=1, components="/dev/zero")


def test_a_directory_in_place_of_a_component_file_is_refused(tmp_path):
    box = tmp_path / "box"
    (box / "calendar.toml").mkdir(parents=True)
    with pytest.raises(DataError, match=r"calendar.toml is a directory, not a regular file"):
        load_components(str(box))


def test_bad_options_are_option_errors():
    with pytest.raises(OptionError, match="wheel"):
        GAME.new_game(2, seed=1, wheel="sideways")
    with pytest.raises(OptionError):
        GAME.new_game(5, seed=1)
    with pytest.raises(OptionError, match="performance_tokens"):
        GAME.new_game(2, seed=1, performance_tokens="some")


def test_games_on_the_shipped_components_pin_their_fingerprint_too():
    """Reproduces: records made with the built-in data pinned nothing (components: ""), so a
    corrected data file replayed them silently with other scores and once another winner."""
    state = GAME.new_game(2, seed=1)
    assert state.options["components"] == f"#sha256={load_components('').sha256}"
    record = GameRecord(game="castell", num_players=2, seed=1, options=dict(state.options))
    assert record.replay().options == state.options
    record.options["components"] = "#sha256=" + "0" * 64  # the shipped data as it was when "recorded"
    with pytest.raises((RecordError, DataError), match="changed since the game was recorded"):
        record.replay()


def test_records_from_before_the_pin_still_replay():
    record = GameRecord(game="castell", num_players=2, seed=1, options={"components": ""})
    assert not record.replay().is_terminal
