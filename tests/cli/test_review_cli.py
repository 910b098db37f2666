"""`meeple review RECORD`: the table, the chart and the turning points in the terminal, the JSON,
the PNG chart, and one clear line for every mistake of the person typing it."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from rich.console import Console

import meeple
from meeple.ai.bots import make_bot
from meeple.ai.match import play_game
from meeple.ai.review import Review
from meeple.cli import app
from meeple.cli.app import main
from meeple.core.record import GameRecord


def run(*argv: str) -> tuple[int, str, str]:
    """`meeple ARGV` in this process: its exit status, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), pytest.raises(SystemExit) as exit_:
        main(list(argv))
    return int(exit_.value.code or 0), out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def game_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished two-player Triominos game between greedy bots, as a record file."""
    game = meeple.load("triominos")
    record = GameRecord(game="triominos", num_players=2, seed=4, players=["greedy", "greedy"])
    state, _ = play_game(game, [make_bot("greedy")] * 2, 4, on_action=lambda s, a: record.add(a))
    record.options = state.options
    path = tmp_path_factory.mktemp("review") / "game.json"
    record.save(path)
    return path


def test_review_json_is_one_object_with_an_entry_per_action(game_file):
    code, out, err = run("review", str(game_file), "--quick", "--workers", "1", "--seed", "3", "--json")
    assert code == 0, err
    data = json.loads(out)
    actions = len(GameRecord.load(game_file).actions)
    assert [entry["index"] for entry in data["moves"]] == list(range(actions))
    assert set(data) >= {"moves", "turning_points", "seats"} and len(data["seats"]) == 2
    assert Review.from_json(data).seed == 3
    assert "review triominos" in err  # progress goes to stderr, so stdout stays one JSON object
    two_workers = run("review", str(game_file), "--quick", "--workers", "2", "--seed", "3", "--json")
    assert json.loads(two_workers[1]) == data


def test_review_shows_a_table_the_turning_points_and_a_summary(game_file, monkeypatch):
    monkeypatch.setattr(app, "console", Console(width=200))  # the module's console keeps its first width
    code, out, err = run("review", str(game_file), "--quick", "--workers", "1")
    assert code == 0, err
    for words in ("Review of Triominos", "move played", "preferred move", "Chance of winning across the game",
                  "Turning points", "Per player", "blunders", "Player 1 (greedy)"):
        assert words in out
    assert any(bar in out for bar in "▁▂▃▄▅▆▇█")
    code, out, err = run("review", str(game_file), "--quick", "--workers", "1", "--lang", "zh-Hant")
    assert code == 0 and "轉捩點" in out and "玩家 1" in out


def test_review_plot_writes_a_png(game_file, tmp_path, monkeypatch):
    monkeypatch.setattr(app, "console", Console(width=300))
    chart = tmp_path / "chances.png"
    code, out, err = run("review", str(game_file), "--quick", "--workers", "1", "--plot", str(chart))
    assert code == 0, err
    assert chart.read_bytes().startswith(b"\x89PNG\r\n\x1a\n") and f"chart written to {chart}" in out


def one_line_error(code: int, err: str) -> str:
    lines = [line for line in err.splitlines() if not line.startswith("review ")]
    assert code == 2 and len(lines) == 1 and lines[0].startswith("meeple: error: "), err
    assert "Traceback" not in err
    return lines[0]


def test_review_of_an_unfinished_game_is_refused(game_file, tmp_path):
    record = GameRecord.load(game_file)
    record.actions = record.actions[:5]
    path = tmp_path / "unfinished.json"
    record.save(path)
    assert "not over" in one_line_error(*run("review", str(path), "--quick")[::2])


@pytest.mark.parametrize("args, problem", [
    (["review", "missing.json"], "missing.json"),
    (["review", "GAME", "--workers", "0"], "--workers"),
    (["review", "GAME", "--seconds-per-move", "-1"], "--seconds-per-move must be more than 0"),
    (["review", "GAME", "--seed", "-4"], "seed"),
    (["review", "GAME", "--lang", "fr"], "language"),
    (["review", "GAME", "--plot", "no/such/folder/chart.png"], "does not exist"),
    (["review", "GAME", "--frobnicate"], "frobnicate"),
])
def test_bad_input_is_one_line_and_exit_2(game_file, args, problem, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv = [str(game_file) if a == "GAME" else a for a in args]
    assert problem in one_line_error(*run(*argv, "--quick")[::2])


def test_a_corrupt_record_file_is_one_line(tmp_path):
    path = tmp_path / "corrupt.json"
    path.write_text('{"format": "meeple-record", "version": 1', encoding="utf-8")
    assert "corrupt.json" in one_line_error(*run("review", str(path))[::2])


def test_a_chinese_chart_draws_every_glyph_or_says_which_font_is_missing(game_file, tmp_path):
    import warnings

    from meeple.ai.plot import font_families, plot_review
    from meeple.ai.review import ReviewSettings, review_record

    review = review_record(GameRecord.load(game_file), ReviewSettings(samples=2, screening=1))
    families, warning = font_families("zh-Hant")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        said = plot_review(review, str(tmp_path / "chart.png"), "zh-Hant")
    missing = [str(w.message) for w in caught if "missing from font" in str(w.message)]
    assert said == warning
    if warning is None:  # a CJK family is installed: matplotlib falls back to it glyph by glyph
        assert len(families) == 2 and not missing, missing
    else:  # none is: the user is told, and the boxes are the ones matplotlib warns of
        assert families == ["DejaVu Sans"] and missing and "fonts-noto-cjk" in warning
    assert font_families("en") == (["DejaVu Sans"], None)
