"""Board data files (ruling C3): loading, validation errors, replay without the file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from meeple.core.errors import DataError
from meeple.core.record import GameRecord
from meeple.core.rng import Rng
from meeple.games.celtica.board_file import default_board_text, load_board
from meeple.games.celtica.state import CelticaState
from tests.celtica.helpers import GAME
from tests.core.test_fuzz_loaders import no_hang

SHORT = """
provenance = "printed"
location = [
    { kind = "start" },
    { kind = "ruin", number = 1 },
    { kind = "cult" },
    { kind = "monastery", number = 2 },
    { kind = "goal", number = 1 },
]
"""


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "board.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_C3_shipped_file_is_marked_reconstructed():
    assert 'provenance = "reconstructed"' in default_board_text()
    assert GAME.new_game(2, seed=0).board.provenance == "reconstructed"


def test_C3_a_board_file_replaces_the_default(tmp_path):
    s = GAME.new_game(2, seed=4, board=write(tmp_path, SHORT))
    assert s.goal == 4 and s.board.kinds[3] == "monastery" and s.board.provenance == "printed"
    assert s.options["board"] == "layout:printed:start,ruin 1,cult,monastery 2,goal 1"
    assert s.view(0)["board"][3] == {"kind": "monastery", "number": 2}


def test_C3_layout_option_and_path_give_the_same_game(tmp_path):
    by_file = GAME.new_game(3, seed=9, board=write(tmp_path, SHORT))
    by_layout = GAME.new_game(3, seed=9, board=by_file.options["board"])
    assert by_file.to_json() == by_layout.to_json()


def test_C3_record_replays_without_the_board_file(tmp_path):
    path = write(tmp_path, SHORT)
    s = GAME.new_game(3, seed=21, board=path)
    record = GameRecord("celtica", 3, 21, options=dict(s.options))
    rng = Rng(2)
    while not s.is_terminal:
        action = rng.choice(s.legal_actions())
        s.apply(action)
        record.add(action)
    Path(path).unlink()
    assert record.replay().to_json() == s.to_json()


def test_C3_random_games_on_a_short_board_end(tmp_path):
    from meeple.core.conformance import check_random_game

    final = check_random_game(GAME, 4, 5, options={"board": write(tmp_path, SHORT)}, views_every=5)
    assert isinstance(final, CelticaState)
    assert final.is_terminal and final.druids_home >= 1


@pytest.mark.parametrize(
    "text, message",
    [
        ("provenance = \"printed\"\nlocation = [", "not valid TOML"),
        ("provenance = \"printed\"", "needs a list of tables `location`"),
        (SHORT.replace('"printed"', '"guessed"'), "provenance must be one of"),
        (SHORT.replace('kind = "cult"', 'kind = "forest"'), "unknown kind 'forest'"),
        (SHORT.replace('{ kind = "cult" }', '{ kind = "cult", number = 2 }'), "a cult takes no number"),
        (SHORT.replace('"ruin", number = 1', '"ruin"'), "a ruin needs a number from 1 to 9"),
        (SHORT.replace('number = 2', 'number = 10'), "a monastery needs a number from 1 to 9"),
        (SHORT.replace('number = 2', 'number = 0'), "a monastery needs a number from 1 to 9"),
        (SHORT.replace('{ kind = "goal", number = 1 },', ''), "the goal must be the last location"),
        (SHORT.replace('{ kind = "start" },', '{ kind = "village", number = 1 },'), "the start must be the first"),
        (SHORT.replace('{ kind = "cult" },', '{ kind = "goal", number = 1 },'), "the goal must be the last"),
        (SHORT.replace('{ kind = "cult" },', '{ kind = "cult", colour = "red" },'), "unknown key 'colour'"),
    ],
)
def test_C3_bad_board_files_raise_one_line_data_errors(tmp_path, text, message):
    with pytest.raises(DataError, match=message) as info:
        GAME.new_game(2, seed=0, board=write(tmp_path, text))
    assert "\n" not in str(info.value) and "board file" in str(info.value)


@pytest.mark.parametrize("count, ok", [(2, False), (3, True), (60, True), (61, False)])
def test_C3_path_length_is_checked(tmp_path, count, ok):
    middle = "".join('{ kind = "village", number = 1 },\n' for _ in range(count - 2))
    text = f'provenance = "printed"\nlocation = [{{ kind = "start" }},\n{middle}{{ kind = "goal", number = 3 }}]\n'
    if ok:
        assert GAME.new_game(2, seed=0, board=write(tmp_path, text)).goal == count - 1
    else:
        with pytest.raises(DataError, match="the path must have 3 to 60 locations"):
            GAME.new_game(2, seed=0, board=write(tmp_path, text))


def test_C3_missing_file_and_bad_layout(tmp_path):
    with pytest.raises(DataError, match="cannot read board file"):
        GAME.new_game(2, seed=0, board=str(tmp_path / "nope.toml"))
    with pytest.raises(DataError, match="board layout"):
        load_board("layout:printed:start,village one,goal 3")
    with pytest.raises(DataError, match="board layout"):
        load_board("layout:start,goal 3")


def test_C3_a_fifo_named_as_the_board_is_refused_at_once(tmp_path):
    fifo = tmp_path / "board.fifo"
    os.mkfifo(fifo)
    with no_hang(5), pytest.raises(DataError, match="is a pipe"):
        GAME.new_game(2, seed=0, board=str(fifo))


def test_C3_dev_zero_named_as_the_board_is_refused_without_reading_it():
    with no_hang(5), pytest.raises(DataError, match="board file /dev/zero is a device, not a regular file"):
        GAME.new_game(2, seed=0, board="/dev/zero")
