"""What each seat may see, and determinized positions consistent with it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.core.conformance import canonical
from meeple.core.errors import OptionError
from meeple.core.rng import Rng
from tests.triqueta.helpers import (
    BEAR,
    DEER,
    GAME,
    OWL,
    draw,
    keep,
    new,
    set_next_draws,
    tokens_conserved,
    views_leak_nothing,
)


def test_view_shows_public_facts_to_everyone():
    state = new(3)
    view = state.view(None)
    assert view["game"] == "triqueta" and view["num_players"] == 3 and view["seat"] is None
    assert view["round"] == 1 and view["rounds"] == 4 and view["current_player"] == 0
    assert view["towers"] == [15, 15, 15, 15] and view["rows"] == [[], [], []]
    assert view["over"] is False and view["winners"] == [] and "final" not in view
    assert all("face_down" not in p for p in view["players"])


def test_only_the_drawer_sees_the_drawn_tokens_and_own_face_down():
    state = new(3)
    set_next_draws(state, [DEER, OWL])
    state.apply(draw)
    state.apply(keep)
    state.apply(draw)
    assert state.view(1)["pending"] == [OWL] and state.view(1)["used_kind"] == ""
    assert "pending" not in state.view(0) and state.view(0)["pending_count"] == 1
    assert state.view(0)["players"][0]["face_down"] == [DEER]
    assert "face_down" not in state.view(1)["players"][0]
    views_leak_nothing(state)


def test_score_with_face_down_is_only_for_its_owner():
    state = new(2)
    state.counts[0][BEAR] = 2
    state.face_down[0] = [BEAR]
    assert state.view(0)["players"][0]["score_with_face_down"] == 11  # a bear triqueta + the rock
    assert state.view(0)["players"][0]["score"] == 3  # 2 bears + the rock
    assert "score_with_face_down" not in state.view(1)["players"][0]


@pytest.mark.parametrize("seat", [-1, 2, True, "0"])
def test_views_of_seats_that_do_not_exist_are_refused(seat):
    with pytest.raises(OptionError):
        new(2).view(seat)
    with pytest.raises(OptionError):
        new(2).determinize(seat, Rng(1))
    with pytest.raises(OptionError):
        new(2).determinize(None, Rng(1))  # deliberately not a seat


@settings(max_examples=20)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    players=st.integers(min_value=2, max_value=5),
    cut=st.integers(0, 200),
)
def test_view_is_independent_of_hidden_information(seed, players, cut):
    """Two states that differ only in what a seat cannot see give that seat the same view."""
    state = GAME.new_game(players, seed=seed)
    rng = Rng(seed)
    for _ in range(cut):
        if state.is_terminal:
            break
        state.step(rng.choice(state.legal_actions()))
    for seat in range(players):
        a = state.determinize(seat, Rng(1))
        b = state.determinize(seat, Rng(2))
        assert canonical(a.view(seat)) == canonical(b.view(seat)) == canonical(state.view(seat))


@settings(max_examples=15)
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.integers(min_value=2, max_value=5))
def test_determinize_resamples_hidden_tokens(seed, players):
    """Towers are re-dealt from the unseen pool (what the observer cannot know changes)."""
    state = GAME.new_game(players, seed=seed)
    samples = {canonical(state.determinize(0, Rng(k)).towers) for k in range(5)}
    assert len(samples) > 1
    tokens_conserved(state.determinize(0, Rng(3)))


