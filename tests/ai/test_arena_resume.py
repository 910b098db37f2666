"""`meeple arena ... --resume FILE`: a stopped run continues, and its results are those of a run
that was never stopped; a journal of another run, or a file that is not one, changes nothing."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from typing import Any

import pytest

from meeple.ai.arena import run_arena
from meeple.core.errors import OptionError
from tests.processes import OWN_GROUP, end_leftovers

ARGS: dict[str, Any] = {"game": "triqueta", "bots": ["greedy", "random", "ismcts:20"], "players": 3, "games": 12,
                        "seed": 4}


def results(result: Any) -> dict[str, Any]:
    """Everything but the timings, which no two runs share."""
    report: dict[str, Any] = result.to_json()
    del report["timing"]
    return report


class Stop(Exception):
    pass


def test_a_stopped_run_continues_to_the_same_results(tmp_path):
    journal = tmp_path / "arena.jsonl"
    whole = run_arena(**ARGS, workers=1)

    def stop_after_five(done: int) -> None:
        if done == 5:
            raise Stop

    with pytest.raises(Stop):
        run_arena(**ARGS, workers=1, progress=stop_after_five, journal=journal)
    assert len(journal.read_text().splitlines()) == 1 + 5
    played: list[int] = []
    resumed = run_arena(**ARGS, workers=2, progress=played.append, journal=journal)
    assert played[0] == 5 and played[-1] == 12  # the five were not played again
    assert results(resumed) == results(whole)
    assert len(journal.read_text().splitlines()) == 1 + 12
    again = run_arena(**ARGS, workers=1, journal=journal)  # a finished journal: nothing left to play
    assert results(again) == results(whole)


@pytest.mark.slow
def test_a_killed_run_resumes_and_a_cut_line_is_dropped(tmp_path):
    journal = tmp_path / "arena.jsonl"
    command = [sys.executable, "-m", "meeple", "arena", "triqueta", "--bots", "ismcts:60,greedy", "--games", "16",
               "--seed", "2", "--workers", "2", "--json", "--resume", str(journal)]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, **OWN_GROUP)
    deadline = time.monotonic() + 120
    while not (journal.exists() and len(journal.read_text().splitlines()) >= 4):
        assert time.monotonic() < deadline and child.poll() is None, "the arena did not start"
        time.sleep(0.05)
    child.send_signal(signal.SIGKILL)
    child.wait()
    end_leftovers(child.pid)  # its worker pool
    with open(journal, "a") as handle:
        handle.write('{"index": 9, "se')  # a line a kill cut short
    resumed = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
    whole = json.loads(subprocess.run(command[:-2], capture_output=True, text=True, check=True).stdout)
    del resumed["timing"], whole["timing"]
    assert resumed == whole
    lines = journal.read_text().splitlines()
    assert len(lines) == 1 + 16 and sorted(json.loads(line)["index"] for line in lines[1:]) == list(range(16))


@pytest.mark.parametrize(("content", "message"), [
    ('{"arena_journal": 1, "game": "celtica", "bots": ["greedy"], "players": 2, "games": 1, "seed": 1, '
     '"options": {}}\n', "the journal of another arena run (it differs in bots, game, games, options, players, seed)"),
    ("not json\n", "not valid JSON"),
    ('{"a": 1}\n', "is not an arena journal"),
    ("[1, 2]\n", "is not an arena journal"),
])
def test_a_journal_of_another_run_or_none_is_refused_unchanged(tmp_path, content, message):
    journal = tmp_path / "arena.jsonl"
    journal.write_text(content)
    with pytest.raises(OptionError, match="--resume") as error:
        run_arena(**ARGS, workers=1, journal=journal)
    assert message in str(error.value)
    assert journal.read_text() == content


def test_a_bad_game_line_is_refused_unchanged(tmp_path):
    journal = tmp_path / "arena.jsonl"
    run_arena(**{**ARGS, "games": 2}, workers=1, journal=journal)
    lines = journal.read_text().splitlines()
    tampered = json.loads(lines[2])
    tampered["scores"] = "many"
    content = "\n".join([lines[0], lines[1], json.dumps(tampered)]) + "\n"
    journal.write_text(content)
    with pytest.raises(OptionError, match="not a finished game"):
        run_arena(**{**ARGS, "games": 2}, workers=1, journal=journal)
    assert journal.read_text() == content


def test_the_command_line_says_what_is_wrong_in_one_line(tmp_path):
    journal = tmp_path / "arena.jsonl"
    journal.write_text("garbage\n")
    done = subprocess.run([sys.executable, "-m", "meeple", "arena", "triqueta", "--bots", "greedy,random",
                           "--games", "2", "--resume", str(journal)], capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--resume" in done.stderr and "not valid JSON" in done.stderr
    done = subprocess.run([sys.executable, "-m", "meeple", "arena", "triqueta", "--bots", "greedy,random",
                           "--games", "2", "--resume", str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 2 and "is a directory" in done.stderr
