"""Random play across seeds and player counts never breaks an invariant."""

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.core.conformance import check_random_game
from meeple.games.triqueta.components import ANIMALS
from tests.triqueta.helpers import GAME, tokens_conserved, views_leak_nothing


def scores_consistent(state):
    breakdown = state.score_breakdown()
    for seat, parts in enumerate(breakdown):
        animals = sum(parts[a] for a in ANIMALS)
        assert parts["total"] == animals + parts["rock"] + parts["trees"] == state.scores()[seat]


def invariants(state):
    tokens_conserved(state)
    scores_consistent(state)
    views_leak_nothing(state)


@settings(max_examples=25)
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.integers(min_value=2, max_value=5), duo=st.booleans())
def test_random_games_keep_every_invariant(seed, players, duo):
    check_random_game(GAME, players, seed, {"duo": duo and players == 2}, extra=invariants, views_every=3)
