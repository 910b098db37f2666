"""`GameInfo.game_length(n)` bounds every game at `n` seats: random and greedy games over many
seeds stay within it, and where a longest game is easy to build it reaches the bound exactly."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.ai.bots import make_bot
from meeple.core import registry
from meeple.core.errors import OptionError
from meeple.core.rng import Rng
from tests.core.test_plugins import option_variants


def tables(name: str) -> list[tuple[int, dict[str, Any]]]:
    """Every player count with every option variant that fits it."""
    game = meeple.load(name)
    found = []
    for players in range(game.min_players, game.max_players + 1):
        for options in option_variants(game):
            try:
                game.check_options(players, game.resolve_options(options))
            except OptionError:
                continue
            found.append((players, options))
    return found


def played_length(name: str, players: int, options: dict[str, Any], bot: str, seed: int, cap: int) -> int:
    """Actions of one game where every seat plays `bot`, stopped once past `cap`."""
    state, rng, player, moves = meeple.load(name).new_game(players, seed=seed, **options), Rng(seed), make_bot(bot), 0
    while not state.is_terminal and moves <= cap:
        state.step(player.choose(state, rng))
        moves += 1
    return moves


@pytest.mark.slow
@pytest.mark.parametrize("name", registry.game_names())
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 1000), bot=st.sampled_from(["random", "greedy"]))
def test_random_and_greedy_games_stay_within_the_bound(name, seed, pick, bot):
    players, options = tables(name)[pick % len(tables(name))]
    bound = meeple.load(name).info.game_length(players)
    assert played_length(name, players, options, bot, seed, bound) <= bound, (players, options)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_triqueta_the_longest_game_reaches_the_bound(players):
    """T5: the last seat in draws and places or keeps every token of the tower before taking its
    row; seats take rows only when nothing else is legal, so every round is 2 x 15 + players."""
    game = meeple.load("triqueta")
    state, moves = game.new_game(players, seed=players), 0
    while not state.is_terminal:
        legal = state.legal_actions()
        state.step(next((a for a in legal if a.to_json()["type"] != "take"), legal[0]))
        moves += 1
    assert moves == game.info.game_length(players) == 4 * (30 + players)
