"""The vectorised SplitMix64 draws CelticaBatch shuffles with: PureRng's draws exactly, including the
rare path of a rejected draw (forced here by lowering the acceptance limits)."""

from __future__ import annotations

import numpy as np
import pytest

from meeple.batch import celtica as bc
from meeple.core.rng import PureRng


def _rows(seed: int, m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    pick = np.random.default_rng(seed)
    lengths = pick.integers(0, 91, size=m).astype(np.int64)
    items = np.sort(pick.integers(0, 9, size=(m, 90)), axis=1).astype(np.int8)
    states = pick.integers(0, 2**63, size=m, dtype=np.int64).astype(np.uint64) * np.uint64(3)
    return items, lengths, states


def _expected(items: np.ndarray, lengths: np.ndarray, states: np.ndarray) -> tuple[list[list[int]], list[int]]:
    rows, ends = [], []
    for r in range(len(items)):
        row = [int(x) for x in items[r, :lengths[r]]]
        rng = PureRng(int(states[r]))
        rng.shuffle(row)
        rows.append(row)
        ends.append(rng.state)
    return rows, ends


@pytest.mark.parametrize("force_rejections", [False, True])
def test_shuffle_rows_is_pure_rng_shuffle(force_rejections: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    items, lengths, states = _rows(3, 200)
    want, ends = _expected(items, lengths, states)
    if force_rejections:  # every draw looks rejected: each row takes the PureRng path
        monkeypatch.setattr(bc, "_LIMIT_M1", np.zeros_like(bc._LIMIT_M1))
    got = bc._shuffle_rows(items, lengths, states)
    assert [items[r, :lengths[r]].tolist() for r in range(len(items))] == want
    assert got.tolist() == ends


def test_below_is_pure_rng_below() -> None:
    pick = np.random.default_rng(5)
    n = pick.integers(1, 60, size=500).astype(np.int64)
    states = pick.integers(0, 2**63, size=500, dtype=np.int64).astype(np.uint64) * np.uint64(5)
    draws, after = bc._below(states, n)
    for i in range(500):
        rng = PureRng(int(states[i]))
        assert draws[i] == rng.below(int(n[i]))
        assert after[i] == rng.state
