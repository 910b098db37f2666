"""Random play across seeds and player counts never breaks an invariant."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.core.conformance import canonical, check_random_game
from meeple.core.rng import Rng
from meeple.games.triqueta.components import ANIMALS, TOKENS_PER_ANIMAL
from tests.triqueta.helpers import GAME


def tokens_conserved(state):
    """All 60 tokens, 10 of each animal, are somewhere: towers, rows, collections, face down,
    the drawn token, returned (T9) or gone unseen (T6)."""
    total = [0] * len(ANIMALS)
    groups = [*state.towers, *(r for r in state.rows if r), *state.face_down, *state.returned, state.gone]
    for group in groups:
        for t in group:
            total[t] += 1
    for t in state.pending:
        if t >= 0:
            total[t] += 1
    for counts in state.counts:
        for a, c in enumerate(counts):
            total[a] += c
    assert total == [TOKENS_PER_ANIMAL] * len(ANIMALS)


def scores_consistent(state):
    breakdown = state.score_breakdown()
    for seat, parts in enumerate(breakdown):
        animals = sum(parts[a] for a in ANIMALS)
        assert parts["total"] == animals + parts["rock"] + parts["trees"] == state.scores()[seat]


def views_leak_nothing(state):
    """No seat's view names another seat's face-down tokens, the drawn token, or towers."""
    for seat in [None, *range(state.num_players)]:
        view = state.view(seat)
        text = canonical(view)
        assert "towers\":[[" not in text  # only sizes
        for other in range(state.num_players):
            entry = view["players"][other]
            if other != seat:
                assert "face_down" not in entry and "returned" not in entry
        if seat != state.current_player or state.is_terminal:
            assert "pending" not in view


def invariants(state):
    tokens_conserved(state)
    scores_consistent(state)
    views_leak_nothing(state)


@settings(max_examples=25)
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.integers(min_value=2, max_value=5), duo=st.booleans())
def test_random_games_keep_every_invariant(seed, players, duo):
    check_random_game(GAME, players, seed, {"duo": duo}, extra=invariants, views_every=3)


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


def test_json_round_trip_is_exact_after_every_action():
    state = GAME.new_game(4, seed=99, duo=True)
    rng = Rng(5)
    while not state.is_terminal:
        state.step(rng.choice(state.legal_actions()))
        again = GAME.from_json(json.loads(json.dumps(state.to_json())))
        assert again.to_json() == state.to_json()
        assert again.legal_actions() == state.legal_actions()
