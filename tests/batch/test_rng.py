"""meeple.batch.rng gives, generator by generator, the draws of meeple.core.rng.PureRng."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from meeple.batch import rng as brng
from meeple.core.rng import PureRng

SEEDS = st.integers(0, 2**64 - 1)


@given(st.lists(SEEDS, min_size=1, max_size=20))
def test_next64_matches_each_generator(seeds: list[int]) -> None:
    states = np.array(seeds, dtype=np.uint64)
    pure = [PureRng(s) for s in seeds]
    for _ in range(5):
        assert brng.next64(states).tolist() == [r.next64() for r in pure]
    assert states.tolist() == [r.state for r in pure]


@given(st.lists(SEEDS, min_size=1, max_size=20), st.integers(1, 2**64 - 1))
def test_below_matches_including_rejections(seeds: list[int], n: int) -> None:
    states = np.array(seeds, dtype=np.uint64)
    pure = [PureRng(s) for s in seeds]
    for _ in range(4):
        assert brng.below(states, n).tolist() == [r.below(n) for r in pure]
    assert states.tolist() == [r.state for r in pure]


def test_below_redraws_only_the_rejected_generators() -> None:
    n = 2**63 + 1  # about half of all draws are rejected
    seeds = list(range(200))
    states = np.array(seeds, dtype=np.uint64)
    pure = [PureRng(s) for s in seeds]
    assert brng.below(states, n).tolist() == [r.below(n) for r in pure]
    assert states.tolist() == [r.state for r in pure]
    assert len({r.state for r in pure} - {PureRng(s).state + 0x9E3779B97F4A7C15 for s in seeds}) > 50


@given(st.integers(0, 2**64 - 1), st.integers(1, 30), st.integers(2, 60))
def test_shuffle_matches_with_a_length_per_row(first: int, rows: int, width: int) -> None:
    lengths = np.arange(rows) % (width + 1)
    items = np.tile(np.arange(width, dtype=np.int8), (rows, 1))
    brng.shuffle(brng.consecutive_states(first, rows), items, lengths)
    for i in range(rows):
        expected = list(range(width))
        head = expected[:lengths[i]]
        PureRng((first + i) % 2**64).shuffle(head)
        assert items[i].tolist() == head + expected[lengths[i]:]
