"""Celtica through the `meeple` command: a board file, a saved record that replays without it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from meeple.games.celtica.board_file import default_board_text

pytestmark = pytest.mark.slow  # `meeple` as a process per test


def meeple(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "meeple", *args], input=stdin, capture_output=True, text=True,
                          timeout=120, env={"PATH": "", "COLUMNS": "100", "PYTHONIOENCODING": "utf-8"})


def test_play_on_a_board_file_and_replay_without_it(tmp_path):
    board = tmp_path / "printed.toml"
    board.write_text(default_board_text().replace('"reconstructed"', '"printed"')
                     .replace('{ kind = "cult" },\n    { kind = "castle", number = 2 },',
                              '{ kind = "castle", number = 2 },\n    { kind = "cult" },'), encoding="utf-8")
    saves = tmp_path / "records"
    result = meeple("play", "celtica", "--players", "3", "--bots", "greedy,random", "--seed", "3",
                    "--option", f"board={board}", "--save-dir", str(saves), stdin="1\n" * 3000)
    assert result.returncode == 0, result.stderr
    assert "printed board" in result.stdout
    record = next(saves.glob("celtica-*.json"))
    options = json.loads(record.read_text(encoding="utf-8"))["options"]
    assert options["board"].startswith("layout:printed:start,village 1,castle 2,cult,")
    board.unlink()
    replay = meeple("replay", str(record), "--json")
    assert replay.returncode == 0, replay.stderr


def test_bad_board_file_is_one_line_error(tmp_path):
    board = tmp_path / "bad.toml"
    board.write_text('provenance = "printed"\nlocation = [{ kind = "start" }, { kind = "goal" }]\n', encoding="utf-8")
    result = meeple("simulate", "celtica", "--players", "2", "--games", "1", "--option", f"board={board}")
    assert result.returncode != 0
    assert "Traceback" not in result.stderr and "board file" in result.stderr + result.stdout


def test_rules_in_both_languages():
    for lang, word in (("en", "amulet"), ("zh-Hant", "護符")):
        result = meeple("rules", "celtica", "--lang", lang)
        assert result.returncode == 0 and word in result.stdout
