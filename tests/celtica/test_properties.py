"""Random games (hypothesis over seeds and player counts) through the shared conformance
check, plus Celtica's own invariants."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.core.conformance import canonical, check_random_game
from meeple.core.state import State
from meeple.games.celtica.integrity import component_totals
from meeple.games.celtica.phases import PLAY_PHASE
from meeple.games.celtica.state import CelticaState
from tests.celtica.helpers import GAME


def invariants(state: State[Any]) -> None:
    assert isinstance(state, CelticaState)
    s = state
    # C1: 90 parts, 60 druid cards, 20 experience cards, always
    assert component_totals(s) == (90, 60, 20)
    assert s.cards_held == [sum(h) for h in s.hands] and s.experience_held == [sum(h) for h in s.experience]
    assert s.display_size == sum(s.display) <= 9 and s.num_part_discards == sum(s.part_discards)
    assert s.druids_home == sum(1 for p in s.druids if p == s.goal)
    assert all(min(row) >= 0 for rows in (s.hands, s.experience, s.parts) for row in rows)
    for seat, owed in enumerate(s.owed_colour):
        assert owed < 0 or s.hands[seat][owed] >= 1  # C8: the owed card is still in hand
    if not s.over and s.phase == PLAY_PHASE:
        assert s.cards_held[s.current] > 0  # C9: only players with druid cards take turns
    # views: no seat sees another's hand or owed colour; nobody sees pile orders
    for seat in [None, *range(s.num_players)]:
        view = s.view(seat)
        for other, entry in enumerate(view["players"]):
            if other != seat:
                assert "hand" not in entry and "experience" not in entry and "must_play" not in entry
        text = canonical(view)
        assert '"deck"' not in text and '"rng"' not in text
    if s.over:
        assert s.winners() and s.scores() == [min(p) for p in s.parts]


@settings(max_examples=24, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5))
def test_random_games_keep_every_invariant(seed, players):
    final = check_random_game(GAME, players, seed, extra=invariants, views_every=3)
    assert isinstance(final, CelticaState)
    assert final.end_reason in ("goal", "all_home", "parts")


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5))
def test_fast_path_matches_checked_path(seed, players):
    from meeple.core.rng import Rng

    a = GAME.new_game(players, seed=seed)
    b = GAME.new_game(players, seed=seed)
    rng = Rng(seed)
    while not a.is_terminal:
        legal = a.legal_actions()
        action = legal[rng.below(len(legal))]
        a.step(action)
        b.apply(action)
    assert canonical(a.to_json()) == canonical(b.to_json())
    invariants(a)


_SPACE = st.one_of(
    st.tuples(st.sampled_from(["village", "castle", "monastery", "ruin"]), st.integers(1, 9)),
    st.just(("cult", 0)),
)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5),
       spaces=st.lists(_SPACE, min_size=1, max_size=24), goal=st.integers(1, 9))
def test_random_games_on_random_boards(seed, players, spaces, goal):
    """C3: any valid board file plays to a sound end, replayable from its stored layout."""
    locs = ["start"] + [kind if n == 0 else f"{kind} {n}" for kind, n in spaces] + [f"goal {goal}"]
    layout = "layout:printed:" + ",".join(locs)
    final = check_random_game(GAME, players, seed, options={"board": layout}, extra=invariants, views_every=7)
    assert isinstance(final, CelticaState)
    assert final.options["board"] == layout and final.goal == len(locs) - 1
