"""Views show each seat only what it may see; determinize re-deals only what the observer cannot see."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.core.conformance import random_position
from meeple.core.errors import OptionError
from meeple.core.rng import Rng
from meeple.games.triominos.actions import DRAW
from meeple.games.triominos.components import NAME
from tests.triominos.helpers import GAME, position, tiles_accounted, views_leak_nothing


def test_a_seat_sees_its_own_rack_and_the_tile_it_just_drew_only():
    state = position(2, [(0, 0, "up", "001")], [["5-5-5", "4-4-4"], ["3-3-3"]], draw_next="2-2-2")
    state.apply(DRAW)
    mine, theirs, spectator = state.view(0), state.view(1), state.view(None)
    assert mine["rack"] == ["2-2-2", "4-4-4", "5-5-5"] and mine["last_drawn"] == "2-2-2"
    assert theirs["rack"] == ["3-3-3"] and "last_drawn" not in theirs
    assert "rack" not in spectator and "last_drawn" not in spectator
    assert mine["rack_sizes"] == theirs["rack_sizes"] == [3, 1] and mine["pool"] == len(state.pool)
    views_leak_nothing(state)


def test_views_name_no_hidden_tile_during_play():
    state = GAME.new_game(4, seed=6, match=True, target=100)
    rng = Rng(6)
    while not state.is_terminal:
        views_leak_nothing(state)
        acts = state.legal_actions()
        state.apply(acts[rng.below(len(acts))])
    views_leak_nothing(state)
    assert state.view(None)["current_player"] is None and state.view(0)["winners"] == state.winners()


def test_view_and_determinize_refuse_a_missing_seat():
    state = GAME.new_game(2, seed=1)
    with pytest.raises(OptionError):
        state.view(2)
    with pytest.raises(OptionError):
        state.determinize(-1, Rng(1))


def test_determinize_keeps_the_state_it_samples_from():
    state = GAME.new_game(3, seed=2)
    before = state.to_json()
    sample = state.determinize(1, Rng(3))
    assert state.to_json() == before
    assert sample.board is not state.board and sample.racks[1] == state.racks[1]
    assert [NAME[t] for t in sorted(sample.racks[1])] == state.view(1)["rack"]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), steps=st.integers(0, 60))
def test_determinize_keeps_what_the_observer_knows(seed, players, steps):
    state = random_position(GAME, players, seed, steps, walk_seed=seed)
    opened = {t for go in state.opening for _, t in go}
    for observer in range(players):
        sample = state.determinize(observer, Rng(seed + observer))
        tiles_accounted(sample)
        assert sample.racks[observer] == state.racks[observer]
        assert sample.board.history == state.board.history
        assert [len(r) for r in sample.racks] == [len(r) for r in state.racks]
        assert len(sample.pool) == len(state.pool)
        for seat in range(players):
            if seat != observer:
                # M8: opening tiles went back to the pool after the deal; a seat holds at most as
                # many of them as it drew since.
                assert len(opened & set(sample.racks[seat])) <= state.drawn[seat]
        assert json.dumps(sample.view(observer)) == json.dumps(state.view(observer))


def test_determinize_resamples_hidden_tiles():
    state = GAME.new_game(3, seed=21)
    seen = {tuple(sorted(state.determinize(0, Rng(i)).racks[1])) for i in range(20)}
    assert len(seen) > 10


def test_draw_events_hide_the_tile_from_other_seats():
    state = GAME.new_game(2, seed=3)
    state.apply(state.legal_actions()[0])
    while True:
        acts = state.legal_actions()
        draw = [a for a in acts if a.to_json()["type"] == "draw"]
        if draw:
            break
        state.apply(acts[0])
    drawer = state.current
    (event,) = state.apply(draw[0])
    assert "tile" in event.for_seat(drawer)["params"]
    for seat in (None, 1 - drawer):
        assert "tile" not in event.for_seat(seat)["params"] and event.for_seat(seat)["hidden"]
