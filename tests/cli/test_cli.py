"""The `meeple` command through real subprocesses, as a person would run it."""

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # `meeple` as a process per test


def meeple(*args, stdin: str = "", cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "meeple", *args],
        input=stdin, capture_output=True, text=True, timeout=120, cwd=cwd,
        env={"PATH": "", "COLUMNS": "120", "PYTHONIOENCODING": "utf-8"},
    )


def test_simulate_json_is_deterministic_apart_from_timing():
    args = ["simulate", "triqueta", "--players", "3", "--bots", "greedy,random", "--games", "12", "--seed", "4",
            "--json"]
    first, second = meeple(*args), meeple(*args)
    assert first.returncode == 0, first.stderr
    a, b = json.loads(first.stdout), json.loads(second.stdout)
    for report in (a, b):
        assert {"game", "players", "games", "seed", "bots", "wins", "mean_score", "games_per_s"} <= set(report)
        report.pop("games_per_s")
    assert a == b
    assert a["bots"] == ["greedy", "random"] and abs(sum(a["wins"].values()) - 1) < 1e-9


def test_bench_json_reports_throughput():
    result = meeple("bench", "triqueta", "--players", "4", "--seconds", "0.3", "--json")
    report = json.loads(result.stdout)
    assert report["game"] == "triqueta" and report["players"] == 4
    assert report["games_per_s"] > 0 and report["actions_per_s"] > report["games_per_s"]


def test_bench_count_is_a_fixed_workload_for_instruction_counts():
    playouts = [json.loads(meeple("bench", "triqueta", "--players", "3", "--count", "25", "--json").stdout)
                for _ in range(2)]
    assert [p["games"] for p in playouts] == [25, 25] and playouts[0]["actions"] == playouts[1]["actions"]
    search = json.loads(meeple("bench", "triqueta", "--players", "2", "--bot", "ismcts", "--count", "300",
                               "--json").stdout)
    assert search["iterations"] == 300


def test_bench_towers_reports_solver_percentiles():
    report = json.loads(meeple("bench", "castell", "--part", "towers", "--seconds", "0.5", "--json").stdout)
    assert report["solves"] > 0 and 0 < report["median_ms"] <= report["p99_ms"] <= report["max_ms"]
    assert meeple("bench", "triqueta", "--part", "towers").returncode == 2


def test_play_against_bots_saves_a_record_that_replays(tmp_path):
    # Always choose move 1; the game ends and the record is saved.
    result = meeple("play", "triqueta", "--players", "3", "--bots", "greedy,random", "--seed", "7",
                    "--save-dir", str(tmp_path), stdin="1\n" * 400)
    assert result.returncode == 0, result.stderr
    assert "Final scores" in result.stdout and "Winner" in result.stdout
    (path,) = tmp_path.glob("triqueta-*.json")
    replay = meeple("replay", str(path), "--json")
    assert replay.returncode == 0, replay.stderr
    assert json.loads(replay.stdout)["terminal"] is True
    shown = meeple("replay", str(path))
    assert "total" in shown.stdout


def test_play_accepts_every_bot_and_level(tmp_path):
    result = meeple("play", "triqueta", "--players", "5", "--bots", "ismcts:easy,ismcts:normal,ismcts:hard,greedy",
                    "--seed", "2", "--save-dir", str(tmp_path), stdin="q\n")
    assert result.returncode == 0, result.stderr
    for seat in ("ismcts:easy", "ismcts:normal", "ismcts:hard", "greedy"):
        assert seat in result.stdout
    whole = meeple("play", "triqueta", "--players", "2", "--bots", "ismcts:easy", "--seed", "5",
                   "--save-dir", str(tmp_path), stdin="1\n" * 400)
    assert whole.returncode == 0, whole.stderr
    assert "Final scores" in whole.stdout


def test_play_saves_when_input_ends(tmp_path):
    result = meeple("play", "triqueta", "--seed", "3", "--save-dir", str(tmp_path), stdin="4\n")
    assert result.returncode == 0
    (path,) = tmp_path.glob("*.json")
    assert json.loads(path.read_text())["actions"][0] == {"type": "draw"}


def test_hot_seat_asks_to_pass_the_screen(tmp_path):
    result = meeple("play", "triqueta", "--players", "2", "--humans", "2", "--seed", "1",
                    "--save-dir", str(tmp_path), stdin="\n1\n\n1\n" + "\n1\n" * 200)
    assert result.returncode == 0
    assert "Pass the screen to Player 2" in result.stdout


def test_play_in_chinese(tmp_path):
    result = meeple("play", "triqueta", "--lang", "zh-Hant", "--seed", "2", "--save-dir", str(tmp_path), stdin="q\n")
    assert "輪到你了" in result.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["play", "chess"], "no game 'chess'"),
        (["simulate", "triqueta", "--players", "9"], "2 to 5 players"),
        (["simulate", "triqueta", "--players", "3", "--bots", "genius"], "no bot 'genius'"),
        (["simulate", "triqueta", "--players", "3", "--games", "0"], "--games"),
        (["simulate", "triqueta", "--players", "3", "--option", "turbo=1"], "no option 'turbo'"),
        (["bench", "triqueta", "--seconds", "fast"], "Invalid value"),
        (["bench", "triqueta", "--frobnicate"], "No such option"),
        (["rules", "triqueta", "--lang", "fr"], "no language"),
        (["replay", "missing.json"], "cannot read"),
        (["play", "triqueta", "--players", "3", "--bots", "greedy"], "--bots names 1 bot"),
    ],
)
def test_user_mistakes_give_one_line_and_status_2(args, message):
    result = meeple(*args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert "Traceback" not in result.stderr


def test_replay_of_a_corrupt_record_names_the_problem(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "meeple-record", "version": 1, "game": "triqueta", "num_players": 2,
                                "seed": 1, "options": {}, "players": [], "actions": [{"type": "keep", "slot": 0}]}))
    result = meeple("replay", str(path))
    assert result.returncode == 2
    assert "action 1" in result.stderr and "draw a token" in result.stderr
    path.write_text("{broken")
    assert "not valid JSON" in meeple("replay", str(path)).stderr


@pytest.mark.parametrize("lang, text", [("en", "exactly 3 of a kind"), ("zh-Hant", "三結")])
def test_rules_summary_in_both_languages(lang, text):
    result = meeple("rules", "triqueta", "--lang", lang)
    assert result.returncode == 0 and text in result.stdout


def test_games_lists_triqueta():
    assert "triqueta" in meeple("games").stdout


def test_games_lists_the_amended_rulings_options():
    """T9, K2, K9 (amended): the options are listed with the game."""
    listing = meeple("games").stdout
    for option in ("--option duo=False", "--option refill=top_up", "--option prize_ties=lowest"):
        assert option in listing


def test_duo_at_three_players_is_an_option_error():
    result = meeple("play", "triqueta", "--players", "3", "--option", "duo=true", stdin="q\n")
    assert result.returncode == 2
    assert result.stderr.strip() == "meeple: error: option duo (T9) is for two players, not 3"


def test_arena_json_is_deterministic_and_plots(tmp_path):
    args = ["arena", "triqueta", "--bots", "ismcts:20,greedy,random", "--players", "3", "--games", "6",
            "--seed", "2", "--workers", "2", "--json", "--plot", str(tmp_path / "r.png")]
    first, second = meeple(*args), meeple(*args)
    assert first.returncode == 0, first.stderr
    a, b = json.loads(first.stdout), json.loads(second.stdout)
    a.pop("timing"), b.pop("timing")
    assert a == b and a["balanced"] is True
    assert [bot["name"] for bot in a["bots"]] == ["ismcts:20", "greedy", "random"]
    assert (tmp_path / "r.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # stderr is a pipe here, not a terminal: progress comes as plain lines, ending at the total
    progress = first.stderr.strip().splitlines()
    assert progress and progress[-1].startswith("triqueta: 6/6 games"), first.stderr


def test_bench_bot_reports_search_speed():
    result = meeple("bench", "triqueta", "--players", "2", "--bot", "ismcts", "--seconds", "0.3", "--json")
    report = json.loads(result.stdout)
    assert report["iterations"] > 0 and report["iterations_per_s"] > 0


def test_bot_specs_with_settings_survive_the_comma_list():
    result = meeple("simulate", "triqueta", "--players", "2", "--bots", "ismcts:10,rollout=greedy,random",
                    "--games", "2", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["bots"] == ["ismcts:10,rollout=greedy", "random"]
