"""The training example runs end to end: a short masked-PPO run, then the arena against `random`
and `greedy`."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # trains a policy

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_triqueta_ppo.py"


def test_the_training_example_trains_and_rates_its_policy(tmp_path):
    done = subprocess.run([sys.executable, str(EXAMPLE), "--steps", "2048", "--games", "6", "--seed", "3"],
                          capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert re.search(r"^trained 2048 steps in \d+ s$", done.stdout, re.M), done.stdout
    for opponent in ("random", "greedy"):
        match = re.search(rf"^ppo vs {opponent}: win share ([0-9.]+) \[([0-9.]+), ([0-9.]+)\] over 6 games$",
                          done.stdout, re.M)
        assert match, done.stdout
        share, low, high = map(float, match.groups())
        assert 0.0 <= low <= share <= high <= 1.0
