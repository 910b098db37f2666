"""The compiled generator and the pure one are twins: the same draws from the same state and
the same errors for the same bad input (whole games and searches: test_compiled_twins.py)."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meeple.core import rng as rng_module
from meeple.core.rng import PureRng

ROOT = Path(__file__).resolve().parents[2]


def compiled_class() -> Any:
    """The C generator: the README's set-up builds it (a C compiler is part of this machine kind);
    a missing build fails here rather than passing the twin tests against the pure one twice."""
    from meeple.core._rng import Rng

    return Rng


SEEDS = st.integers(min_value=-(2**70), max_value=2**70)
BOUNDS = st.one_of(st.integers(1, 70), st.integers(1, 2**64), st.sampled_from([2**32, 2**63, 2**64 - 1, 2**64]))


@given(seed=SEEDS, bounds=st.lists(BOUNDS, min_size=1, max_size=20))
def test_same_draws_from_the_same_seed(seed, bounds):
    compiled, pure = compiled_class()(seed), PureRng(seed)
    assert compiled.state == pure.state
    for n in bounds:
        assert compiled.next64() == pure.next64()
        assert compiled.below(n) == pure.below(n)
        assert compiled.random() == pure.random()
    assert compiled.state == pure.state


@given(seed=SEEDS, items=st.lists(st.integers(), max_size=80))
def test_same_shuffles_and_choices(seed, items):
    compiled, pure = compiled_class()(seed), PureRng(seed)
    for shuffled in (list(items), bytearray(i % 256 for i in items)):
        other = type(shuffled)(shuffled)
        compiled.shuffle(shuffled)
        pure.shuffle(other)
        assert shuffled == other
    if items:
        assert compiled.choice(items) == pure.choice(items)
        assert compiled.choice(tuple(items)) == pure.choice(tuple(items))
    assert compiled.state == pure.state


def test_twenty_thousand_seeds_draw_alike():
    compiled_rng = compiled_class()
    for seed in range(20_000):
        compiled, pure = compiled_rng(seed), PureRng(seed)
        assert [compiled.below(60 - i) for i in range(3)] == [pure.below(60 - i) for i in range(3)]


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda r: r.below(0), ValueError, "below() needs n > 0"),
    (lambda r: r.below(-3), ValueError, "below() needs n > 0"),
    (lambda r: r.choice([]), ValueError, "below() needs n > 0"),
    (lambda r: r.shuffle((3, 1, 2)), TypeError, "does not support item assignment"),
])
def test_same_errors_for_the_same_bad_input(call, error, message):
    for rng in (compiled_class()(5), PureRng(5)):
        with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
            call(rng)


def test_clone_pickle_and_state_behave_alike():
    compiled = compiled_class()(77)
    twin = compiled.clone()
    compiled.next64()
    assert twin.state == 77 and compiled.state != 77
    again = pickle.loads(pickle.dumps(compiled))
    assert (type(again), again.state) == (type(compiled), compiled.state)
    twin.state = 2**64 - 1
    assert twin.next64() == PureRng(2**64 - 1).next64()
    before = twin.state
    with pytest.raises(ValueError):
        twin.state = -1
    assert twin.state == before  # a refused state changes nothing


def test_the_process_runs_the_compiled_generator_unless_told_otherwise():
    compiled_class()
    forced_pure = os.environ.get("MEEPLE_PURE", "") not in ("", "0")
    expected = "pure" if forced_pure else "compiled"
    assert expected == rng_module.RNG_KIND
    forced = subprocess.run([sys.executable, "-c", "from meeple.core.rng import RNG_KIND, Rng; print(RNG_KIND, Rng)"],
                            env={**os.environ, "MEEPLE_PURE": "1"}, capture_output=True, text=True, check=True)
    assert forced.stdout.split()[0] == "pure"
