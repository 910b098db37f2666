"""Fuzzing every loader: random bytes, mutated records and mutated states are either accepted
(and then fully usable) or refused with one MeepleError; never another exception, never a hang,
and a refused action changes nothing."""

from __future__ import annotations

import contextlib
import json
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple
from meeple.core.conformance import canonical, random_position, set_path
from meeple.core.errors import IllegalAction, MeepleError
from meeple.core.jsonio import parse_json
from meeple.core.record import GameRecord
from meeple.core.registry import game_names
from meeple.core.rng import Rng

FIXTURES = sorted((Path(__file__).parent.parent / "fixtures" / "records").glob("*.json"))
#: A rejected or accepted input must be dealt with well within this (a hang guard, not a speed test).
HANG_SECONDS = 20


class Hang(Exception):
    pass


@contextlib.contextmanager
def no_hang(seconds: float = HANG_SECONDS) -> Iterator[None]:
    def alarm(signum: int, frame: object) -> None:
        raise Hang(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 70) | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value that a mutation can replace."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


def _use_fully(state: Any, walk: int) -> None:
    """Everything a program does with a loaded state: it must work or refuse with MeepleError."""
    for seat in [None, *range(state.num_players)]:
        json.dumps(state.view(seat))
    state.scores()
    state.score_breakdown()
    state.winners()
    rng = Rng(walk)
    for _ in range(60):
        if state.is_terminal:
            break
        legal = state.legal_actions()
        assert legal, "a game that is not over must offer a move"
        state.apply(legal[rng.below(len(legal))])


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=300))
def test_random_bytes_are_json_or_one_record_error(data):
    with no_hang(), contextlib.suppress(MeepleError):
        parse_json(data, "input")


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
@settings(max_examples=25)
@given(data=st.data())
def test_mutated_records_replay_or_are_refused(path, data):
    obj = json.loads(path.read_text(encoding="utf-8"))["record"]
    places = _paths(obj)
    where = data.draw(st.sampled_from(places))
    set_path(obj, where, data.draw(json_values))
    with no_hang():
        try:
            state = GameRecord.from_json(obj).replay()
        except MeepleError:
            return
        _use_fully(state, 1)


@pytest.mark.parametrize("name", game_names())
@settings(max_examples=60)
@given(seed=st.integers(0, 1000), moves=st.integers(0, 80), players=st.integers(2, 5), data=st.data())
def test_mutated_states_load_fully_usable_or_are_refused(name, seed, moves, players, data):
    game = meeple.load(name)
    players = min(players, game.max_players)
    saved = random_position(game, players, seed, moves).to_json()
    where = data.draw(st.sampled_from(_paths(saved)))
    set_path(saved, where, data.draw(json_values))
    with no_hang():
        try:
            state = game.from_json(saved)
        except MeepleError:
            return
        _use_fully(state, seed)


@pytest.mark.parametrize("name", game_names())
@settings(max_examples=60)
@given(seed=st.integers(0, 1000), moves=st.integers(0, 60), raw=json_values, type_name=st.text(max_size=8))
def test_random_actions_are_refused_without_changing_anything(name, seed, moves, raw, type_name):
    game = meeple.load(name)
    state = random_position(game, 3, seed, moves)
    before = canonical(state.to_json())
    candidates = [raw, {"type": type_name, "x": raw}, *(dict(a.to_json(), **({"type": type_name} if type_name else {}))
                                                       for a in state.legal_actions()[:3])]
    for obj in candidates:
        try:
            action = game.action_from_json(obj)
        except MeepleError:
            continue
        if action in state.legal_actions():
            continue
        with pytest.raises(IllegalAction):
            state.apply(action)
        assert canonical(state.to_json()) == before
    for bad in (-1, game.info.num_actions, 2**70, "3", None, 1.0, True):
        with pytest.raises(IllegalAction):
            state.action_from_id(bad)
        with pytest.raises(IllegalAction):
            state.action_id(bad)
    assert canonical(state.to_json()) == before
