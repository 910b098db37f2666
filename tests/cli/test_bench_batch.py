"""`meeple bench GAME --batch N`: every step of every game counted, one clear error for an empty batch."""

import json

from typer.testing import CliRunner

from meeple.cli.app import app
from meeple.core.errors import OptionError


def test_bench_batch_counts_every_step_of_every_game():
    args = ["bench", "triqueta", "--batch", "64", "--players", "2", "--seconds", "0.3", "--json"]
    run = CliRunner().invoke(app, args)
    report = json.loads(run.stdout)
    assert report["api"] == "batch" and report["batch"] == 64 and report["players"] == 2
    assert report["steps"] % 64 == 0 and report["steps_per_s"] > 0 and report["games"] > 0
    assert set(report["time_share"]) == {"observe", "mask", "choose", "step"}


def test_bench_batch_refuses_an_empty_batch():
    # A game without a simulator: tests/highcard (every installed game has one).
    too_few = CliRunner().invoke(app, ["bench", "triqueta", "--batch", "0"])
    assert isinstance(too_few.exception, OptionError) and "--batch" in str(too_few.exception)
