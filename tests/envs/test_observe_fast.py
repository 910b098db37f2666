"""The env's observation path (`spaces.observe`, which may read the state directly) gives the
bit-identical float32 vector of `encode(view(seat), ...)`, for every seat of every position of
random games at every player count and option set, and a seat's observation is unchanged when
what it cannot see is re-dealt."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import meeple
from meeple.core.rng import Rng
from meeple.envs.encoders.blocks import BlockCache
from meeple.envs.pettingzoo import env
from meeple.envs.spaces import encoder, observe

SHORT_BOARD = "layout:printed:start,ruin 2,cult,village 3,castle 1,monastery 2,goal 4"
SETUPS: list[tuple[str, int, dict[str, Any], int]] = [
    # game, players, options, games
    *[("triqueta", n, {}, 30) for n in (2, 3, 4, 5)], ("triqueta", 2, {"duo": True}, 30),
    *[("celtica", n, {}, 6) for n in (2, 3, 4, 5)], ("celtica", 3, {"board": SHORT_BOARD}, 6),
    *[("triominos", n, {}, 2) for n in (2, 3, 4)],
    ("triominos", 2, {"drawn_tile_only": True}, 2), ("triominos", 3, {"match": True, "target": 120}, 2),
    *[("castell", n, {}, 3) for n in (2, 3, 4)],
    ("castell", 3, {"wheel": "advanced", "performance_tokens": "all", "refill": "add",
                    "prize_ties": "one_lower"}, 3),
]


def _games(name: str, players: int, options: dict[str, Any], games: int, seed: int) -> Any:
    """Every position of `games` seeded random games, the terminal ones included."""
    game = meeple.load(name)
    rng = Rng(seed)
    for g in range(games):
        state = game.new_game(players, seed=seed * 1000 + g, **options)
        while True:
            yield state
            if state.is_terminal:
                break
            actions = state.legal_actions()
            state.apply(actions[rng.below(len(actions))])


@pytest.mark.parametrize(("name", "players", "options", "games"), SETUPS)
def test_bit_identical_to_the_view_encoding(name: str, players: int, options: dict[str, Any], games: int) -> None:
    enc = None
    checked = 0
    for state in _games(name, players, options, games, seed=players):
        enc = enc or encoder(state.game)
        for seat in range(players):
            fast = observe(state, seat)
            slow = enc.encode(state.view(seat), seat, players, state.options)
            assert fast.dtype == np.float32 and fast.shape == slow.shape
            assert fast.tobytes() == slow.tobytes(), (name, seat, np.flatnonzero(fast != slow)[:10])
            checked += 1
    assert checked > 50 * players


@pytest.mark.parametrize(("name", "players", "options", "games"), SETUPS[::2])
def test_unchanged_by_redealing_what_the_seat_cannot_see(name: str, players: int, options: dict[str, Any],
                                                         games: int) -> None:
    for k, state in enumerate(_games(name, players, options, 1, seed=50 + players)):
        if k % 5:
            continue
        for seat in range(players):
            obs = observe(state, seat)
            for r in range(2):
                assert np.array_equal(obs, observe(state.determinize(seat, Rng(100 * k + r)), seat))


# game, players, options, games: whole games through the PettingZoo env (Triominos' match to 250
# ends at least one round first, so a new round's board is checked too).
ENV_GAMES: list[tuple[str, int, dict[str, Any], int]] = [
    ("triqueta", 3, {}, 2), ("celtica", 2, {}, 1), ("castell", 2, {}, 1), ("castell", 4, {"refill": "add"}, 1),
    ("triominos", 2, {"match": True, "target": 250}, 1), ("triominos", 3, {"drawn_tile_only": True}, 1),
]


@pytest.mark.parametrize(("name", "players", "options", "games"), ENV_GAMES)
def test_the_env_mask_is_the_legal_ids_at_every_step(name: str, players: int, options: dict[str, Any],
                                                     games: int) -> None:
    environment = env(name, num_players=players, action_space="engine", **options)
    rng = Rng(players)
    rounds = set()
    for g in range(games):
        environment.reset(seed=g)
        state = environment.state
        assert state is not None
        for agent in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            seat = environment.possible_agents.index(agent)
            legal = state.legal_action_ids() if state.current_player == seat else []
            assert np.flatnonzero(observation["action_mask"]).tolist() == sorted(legal)
            assert observation["action_mask"].dtype == np.int8
            view_encoding = encoder(state.game).encode(state.view(seat), seat, players, state.options)
            assert observation["observation"].tobytes() == view_encoding.tobytes()
            rounds.add(getattr(state, "round", 0))
            environment.step(None if terminated or truncated else legal[rng.below(len(legal))])
        assert state.is_terminal
    if name == "triominos" and options.get("match"):
        assert len(rounds) > 1


def test_triominos_board_entries_without_the_parent_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    """A board whose previous placements were never encoded (a state loaded or sampled mid-round,
    or the cache emptied) is encoded from all its placements, the same as through its lineage."""
    from meeple.envs.encoders import triominos as enc_t

    checked = 0
    for k, state in enumerate(_games("triominos", 3, {}, 1, seed=9)):
        if k % 7 or not state.board.history:
            continue
        monkeypatch.setattr(enc_t, "_BOARDS", BlockCache(4096))
        for seat in range(3):
            assert observe(state, seat).tobytes() == enc_t.encode(state.view(seat), seat, 3, state.options).tobytes()
        checked += 1
    assert checked > 5


@given(st.integers(1, 8), st.lists(st.integers(0, 20), max_size=60))
def test_block_cache_stays_bounded_and_makes_a_block_only_on_a_miss(limit: int, keys: list[int]) -> None:
    cache: BlockCache[int, tuple[int]] = BlockCache(limit)
    made: list[int] = []

    def make(key: int) -> tuple[int]:
        made.append(key)
        return (key,)

    for key in keys:
        missing = cache.find(key) is None
        before = len(made)
        assert cache.get(key, partial(make, key)) == (key,)
        assert len(made) == before + missing and len(cache) <= limit
        assert cache.find(key) == (key,)
