"""The terminal never shows a secret to the wrong person, never loses a game and never answers a
mistake with a traceback (each test reproduces one way it used to)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple import load
from meeple.cli.app import main
from meeple.cli.render import catalog
from meeple.cli.session import WIPE, move_number
from meeple.core.record import GameRecord
from meeple.core.registry import game_names
from meeple.core.rng import Rng
from meeple.core.text import event_text
from tests.cli.terminal import Terminal, meeple
from tests.processes import OWN_GROUP, end_group

pytestmark = pytest.mark.slow  # `meeple` as a process per test, some in a terminal


def _records(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json"))


def _one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("meeple: error:"), result.stderr
    return lines[0]


def test_hot_seat_wipes_screen_and_scrollback_before_the_next_person(tmp_path):
    """Reproduces: Player 1 draws and keeps a deer face down; the hand-over prompt to Player 2
    appeared with "You drew: deer" still on screen and in the scrollback."""
    screen = Terminal("play", "triqueta", "--players", "2", "--humans", "2", "--seed", "7", cwd=tmp_path)
    screen.read_until("Pass the screen to Player 1")
    screen.type("")
    screen.read_until("Move number")
    screen.type("3")  # draw
    screen.read_until("You drew: deer")
    screen.type("3")  # keep it face down
    screen.read_until("press Enter to hide your screen")
    screen.type("")
    text = screen.read_until("Pass the screen to Player 2")
    handover = text.rindex("Pass the screen to Player 2")
    wipe = text.rindex(WIPE, 0, handover)
    secret = text.rindex("deer")
    assert secret < wipe < handover  # the secret came before the wipe; nothing after it shows it
    assert "deer" not in text[wipe:handover] and "face down" not in text[wipe:handover]
    screen.interrupt()
    assert screen.wait() == 130


def test_ctrl_c_saves_the_game_and_says_where(tmp_path):
    screen = Terminal("play", "triqueta", "--players", "2", "--seed", "1", "--save-dir", "saves", cwd=tmp_path)
    screen.read_until("Move number")
    screen.type("1")
    screen.read_until("Move number")
    screen.interrupt()
    code = screen.wait()
    assert code == 130
    (path,) = _records(tmp_path / "saves")
    assert "Interrupted: the game was saved to" in screen.text() and path.name in screen.text()
    record = GameRecord.load(path)
    assert len(record.actions) >= 1 and record.players == ["human", "greedy"]
    assert "Traceback" not in screen.text()


@pytest.mark.parametrize("typed", ["①", "²", "1" * 5000, "٣"])
def test_digit_like_input_is_refused_not_a_crash(tmp_path, typed):
    result = meeple("play", "triqueta", "--players", "2", "--seed", "1", stdin=f"{typed}\nq\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Type a number from 1 to" in result.stdout
    assert "Traceback" not in result.stderr
    assert len(_records(tmp_path / "records")) == 1


def test_move_numbers_are_ascii_digits_only():
    assert move_number("12") == 12
    assert move_number("①") is None and move_number("²") is None and move_number("1" * 7) is None
    assert move_number("") is None and move_number("-1") is None


def test_play_checks_its_save_folder_before_the_game(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = meeple("play", "triqueta", "--players", "2", "--seed", "1", "--save-dir", str(blocker / "sub"),
                    stdin="1\n" * 500, cwd=tmp_path)
    assert "--save-dir" in _one_line_error(result)
    assert "Move number" not in result.stdout  # refused before a move was asked


def test_arena_checks_the_plot_path_before_playing(tmp_path):
    start = time.perf_counter()
    result = meeple("arena", "triqueta", "--bots", "random,random", "--games", "400", "--plot",
                    str(tmp_path / "missing" / "x.png"), cwd=tmp_path)
    assert "does not exist" in _one_line_error(result)
    assert time.perf_counter() - start < 30  # no games were played first


def test_an_arena_whose_chart_fails_still_prints_its_results(tmp_path, monkeypatch, capsys):
    import meeple.ai.arena
    from meeple.cli.app import main

    def disk_full(result: object, path: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(meeple.ai.arena, "plot_ratings", disk_full)
    with pytest.raises(SystemExit) as exit_:
        main(["arena", "triqueta", "--bots", "random,greedy", "--games", "4", "--workers", "1",
              "--plot", str(tmp_path / "chart.png"), "--json"])
    out, err = capsys.readouterr()
    assert exit_.value.code == 2
    chart = tmp_path / "chart.png"
    assert err.strip().splitlines()[-1] == f"meeple: error: cannot write the chart {chart}: No space left on device"
    assert json.loads(out)["game"] == "triqueta"  # the results were not lost


def test_render_checks_the_svg_path_first(tmp_path):
    record = tmp_path / "r.json"
    GameRecord(game="triqueta", num_players=2, seed=1).save(record)
    assert "does not exist" in _one_line_error(meeple("render", str(record), "--svg", str(tmp_path / "no" / "a.svg")))
    assert "is a folder" in _one_line_error(meeple("render", str(record), "--svg", str(tmp_path)))


BAD_RECORDS: dict[str, bytes] = {
    "not-utf8": b"\xff\xfe\x00garbage\x80",
    "utf16": json.dumps({"format": "meeple-record"}).encode("utf-16"),
    "nested": b"[" * 100_000,
    "huge-int": b'{"format": "meeple-record", "version": 1, "seed": ' + b"9" * 5000 + b"}",
    "upper-game": json.dumps({"format": "meeple-record", "version": 1, "game": "TRIQUETA", "num_players": 2,
                              "seed": 1, "options": {}, "players": [], "actions": []}).encode(),
    "bool-players": json.dumps({"format": "meeple-record", "version": 1, "game": "triqueta", "num_players": True,
                                "seed": 1, "options": {}, "players": [], "actions": []}).encode(),
    "negative-seed": json.dumps({"format": "meeple-record", "version": 1, "game": "triqueta", "num_players": 2,
                                 "seed": -5, "options": {}, "players": [], "actions": []}).encode(),
    "options-list": json.dumps({"format": "meeple-record", "version": 1, "game": "triqueta", "num_players": 2,
                                "seed": 1, "options": [], "players": [], "actions": []}).encode(),
    "empty": b"",
    "celtica-type-list": json.dumps({"format": "meeple-record", "version": 1, "game": "celtica", "num_players": 2,
                                     "seed": 1, "options": {}, "players": [],
                                     "actions": [{"type": ["play"]}]}).encode(),
    "triominos-tile-list": json.dumps({"format": "meeple-record", "version": 1, "game": "triominos", "num_players": 2,
                                       "seed": 1, "options": {}, "players": [],
                                       "actions": [{"type": "place", "tile": ["0-0-0"], "x": 0, "y": 0, "dir": "up",
                                                    "rot": 0}]}).encode(),
}


@pytest.mark.parametrize("name", sorted(BAD_RECORDS))
@pytest.mark.parametrize("command", [("replay",), ("replay", "--json"), ("render", "--svg", "out.svg")])
def test_a_bad_record_file_is_one_line_and_exit_2(tmp_path, name, command):
    path = tmp_path / f"{name}.json"
    path.write_bytes(BAD_RECORDS[name])
    _one_line_error(meeple(command[0], str(path), *command[1:], cwd=tmp_path))


@settings(max_examples=60)
@given(data=st.binary(max_size=200) | st.builds(lambda t: t.encode(), st.text(max_size=200)))
def test_random_bytes_given_to_the_cli_are_one_line_and_exit_2(tmp_path_factory, data):
    """Fuzz the command line's loaders in-process (the same main() the `meeple` command runs)."""
    path = tmp_path_factory.mktemp("fuzz") / "record.json"
    path.write_bytes(data)
    for argv in (["replay", str(path)], ["replay", str(path), "--json"], ["play", "--resume", str(path)]):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2, (argv, err.getvalue())
        lines = err.getvalue().strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("meeple: error:"), err.getvalue()


def test_a_device_or_huge_file_is_refused_not_read_to_the_end(tmp_path):
    assert "larger than" in _one_line_error(meeple("replay", "/dev/zero", timeout=30))  # read no further
    big = tmp_path / "big.json"
    with open(big, "wb") as handle:
        handle.truncate(64 * 1024 * 1024)
    assert "larger than" in _one_line_error(meeple("replay", str(big), timeout=30))
    assert "is a directory" in _one_line_error(meeple("replay", str(tmp_path)))


@pytest.mark.parametrize("seconds", ["nan", "inf", "-1", "0", "1e9"])
def test_bench_refuses_seconds_that_never_end(seconds):
    _one_line_error(meeple("bench", "triqueta", "--seconds", seconds, timeout=30))


@pytest.mark.parametrize("args", [["--count", "0"], ["--count", "1e3"], ["--count", "99999999"],
                                  ["--count", "5", "--part", "towers"], ["--count", "5", "--env", "pettingzoo"]])
def test_bench_refuses_a_count_it_cannot_run(args):
    _one_line_error(meeple("bench", "castell", *args, timeout=30))


def test_two_games_with_one_seed_in_one_second_keep_two_records(tmp_path):
    for _ in range(2):
        assert meeple("play", "triqueta", "--players", "2", "--seed", "5", stdin="q\n", cwd=tmp_path).returncode == 0
    assert len(_records(tmp_path / "records")) == 2


def _finish_by_choosing_first_moves(path: Path) -> GameRecord:
    result = meeple("play", "--resume", str(path), stdin="1\n" * 3000)
    assert result.returncode == 0, result.stderr
    return GameRecord.load(path)


@pytest.mark.parametrize("humans", [1, 2])
def test_resume_continues_a_saved_game_with_the_same_seats(tmp_path, humans):
    inputs = "\n1\n" * 3 + "q\n" if humans == 2 else "1\n1\nq\n"
    first = meeple("play", "triqueta", "--players", "3", "--humans", str(humans),
                   "--seed", "11", stdin=inputs, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    (path,) = _records(tmp_path / "records")
    saved = GameRecord.load(path)
    assert saved.actions and not saved.replay().is_terminal
    done = _finish_by_choosing_first_moves(path)
    assert done.actions[: len(saved.actions)] == saved.actions
    assert done.players == saved.players and done.seed == saved.seed and done.options == saved.options
    assert done.replay().is_terminal
    again = meeple("play", "--resume", str(path))
    assert "is over" in _one_line_error(again)


def test_resume_refuses_flags_the_record_already_fixes(tmp_path):
    record = tmp_path / "r.json"
    GameRecord(game="triqueta", num_players=2, seed=1, players=["human", "greedy"]).save(record)
    assert "--resume" in _one_line_error(meeple("play", "--resume", str(record), "--seed", "3"))
    assert "--resume" in _one_line_error(meeple("play", "triqueta", "--resume", str(record)))


def test_closed_standard_input_saves_the_game(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "meeple", "play", "triqueta", "--players", "2", "--seed", "1"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path, pass_fds=(), stdin=None,
        preexec_fn=lambda: os.close(0), env={"PATH": "", "PYTHONIOENCODING": "utf-8"},
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "No more input" in result.stdout
    assert len(_records(tmp_path / "records")) == 1


def test_ctrl_c_stops_an_arena_with_one_line(tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-m", "meeple", "arena", "castell", "--bots", "ismcts:normal,greedy", "--games", "40",
         "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        env={"PATH": "", "PYTHONIOENCODING": "utf-8"}, **OWN_GROUP,
    )
    time.sleep(4)  # the workers are playing
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    end_group(process)
    assert process.returncode == 130
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert err.strip().splitlines()[-1] == "meeple: interrupted"


def test_arena_workers_are_capped_by_cores_and_games():
    from meeple.ai.backends import usable_workers

    assert usable_workers(500, 3) <= 3
    assert usable_workers(500, 1000) <= (os.cpu_count() or 1)
    assert usable_workers(1, 10) == 1


THIRD_PERSON_AFTER_YOU = re.compile(
    r"\bYou (draws|takes|places|keeps|returns|adds|boxes|moves|plays|gives|finds|swaps|earns|passes|opens|starts"
    r"|is|has)\b",
    re.IGNORECASE,
)


@pytest.mark.parametrize("name", game_names())
def test_the_one_person_at_the_table_is_addressed_as_you_in_good_english(name):
    """Reproduces: "You draws", "You takes" in a game against bots."""
    game = load(name)
    cat = catalog(name, "en")
    cat.player_names = ["You", "Player 2 (greedy)", "Player 3 (greedy)"]
    state = game.new_game(3, seed=4)
    rng = Rng(4)
    seen = 0
    while not state.is_terminal and seen < 400:
        legal = state.legal_actions()
        for event in state.apply(legal[rng.below(len(legal))]):
            text = event_text(event, 0, cat, you=0)
            assert not THIRD_PERSON_AFTER_YOU.search(text), text
            assert "event." not in text
            seen += 1


@pytest.mark.parametrize("name", game_names())
def test_every_you_wording_has_the_placeholders_of_its_event(name):
    import tomllib
    from importlib import resources

    text = resources.files(f"meeple.games.{name}").joinpath("locale/en.toml").read_text("utf-8")
    events = tomllib.loads(text)["event"]
    fields = re.compile(r"\{(\w+)")

    def used(message: str | dict[str, str]) -> set[str]:  # a plural table: every form but `by`
        forms = [message] if isinstance(message, str) else [v for k, v in message.items() if k != "by"]
        return {name for form in forms for name in fields.findall(form)}

    for key, text in events.items():
        if key.endswith("_you"):
            assert used(text) <= used(events[key.removesuffix("_you")]), key
