"""The training examples run end to end: a short masked-PPO run (the one-env example with
sb3-contrib, the batched one with its own PyTorch PPO on the VectorEnv against greedy opponents),
then the arena against `random` and `greedy`. A longer run of either only trains longer: the
measured runs are in docs/ai.md."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # trains a policy

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _run(script: str, *args: str, cwd: Path) -> str:
    # Stable-Baselines3 makes a log folder for every run, in the system's temporary folder unless told.
    env = {**os.environ, "SB3_LOGDIR": str(cwd / "sb3-log")}
    done = subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True,
                          timeout=600, cwd=cwd, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _check_ratings(stdout: str, games: int) -> None:
    for opponent in ("random", "greedy"):
        match = re.search(rf"^ppo vs {opponent}: win share ([0-9.]+) \[([0-9.]+), ([0-9.]+)\] over {games} games$",
                          stdout, re.M)
        assert match, stdout
        share, low, high = map(float, match.groups())
        assert 0.0 <= low <= share <= high <= 1.0


def test_the_training_example_trains_and_rates_its_policy(tmp_path):
    stdout = _run("train_triqueta_ppo.py", "--steps", "2048", "--games", "6", "--seed", "3", cwd=tmp_path)
    assert re.search(r"^trained 2048 steps in \d+ s \(\d+ s of CPU\)$", stdout, re.M), stdout
    _check_ratings(stdout, 6)


def test_the_batched_training_example_trains_and_rates_its_policy(tmp_path):
    stdout = _run("train_triqueta_batch_ppo.py", "--steps", "2048", "--envs", "64", "--horizon", "16",
                  "--games", "4", "--seed", "3", cwd=tmp_path)
    assert re.search(r"^trained 2048 steps in \d+ s \(\d+ s of CPU\)$", stdout, re.M), stdout
    match = re.search(r"^win share in training vs greedy, last 2 updates: ([0-9.]+) over (\d+) games$", stdout, re.M)
    assert match and 0.0 <= float(match[1]) <= 1.0 and int(match[2]) > 0, stdout
    _check_ratings(stdout, 4)
