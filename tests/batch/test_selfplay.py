"""The self-play API: the caller acts for every seat; ended games report every seat's reward."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import meeple
from meeple.batch import make
from meeple.batch.selfplay import RandomPolicy, SelfPlay, random_legal

GAME = meeple.load("triqueta")


def test_self_play_reports_each_ended_game_with_every_seats_reward() -> None:
    play = SelfPlay(make(GAME, 32, 3), seed=5)
    policy = RandomPolicy(1)
    ended_total = 0
    for _ in range(200):
        turn = play.turn()
        assert turn.obs.shape == (32, 327) and turn.mask.shape == (32, 20)
        assert np.array_equal(turn.seat, play.sim.current_player)
        assert turn.mask[np.arange(32), policy(turn)].all()
        ended = play.step(policy(turn))
        assert np.allclose(ended.rewards.sum(1), 1.0)  # T8: winners share one game's win
        assert ended.rewards.shape == (len(ended.slots), 3) and (ended.scores.max(1) >= 0).all()
        ended_total += len(ended.slots)
    assert play.episodes == ended_total > 0
    assert np.isclose(play.returns.sum(), ended_total)


def test_self_play_matches_the_engine_for_a_whole_game() -> None:
    play = SelfPlay(make(GAME, 1, 2, {"duo": True}), seed=11)
    state = GAME.new_game(2, seed=11, duo=True)
    policy = RandomPolicy(2)
    while True:
        actions = policy(play.turn())
        mover = state.current_player
        state.apply_id(int(actions[0]))
        ended = play.step(actions)
        if state.is_terminal:
            assert ended.slots.tolist() == [0] and ended.last_seat.tolist() == [mover]
            assert ended.rewards[0].tolist() == state.rewards()
            assert ended.scores[0].tolist() == state.scores()
            break
        assert ended.slots.size == 0


def test_self_play_with_the_batched_greedy_plays_the_engines_greedy_games() -> None:
    """`play` with the greedy policy on arrays for every seat: the first games to end are the
    engine's greedy self-play games of their seeds, to the final scores."""
    from meeple.batch import greedy_policy
    from meeple.core.rng import Rng
    from meeple.games.triqueta import heuristics
    from meeple.games.triqueta.state import TriquetaState

    greedy, rng = greedy_policy(GAME), np.random.default_rng(0)
    play = SelfPlay(make(GAME, 4, 3), seed=30)
    finals: dict[int, list[int]] = {}
    while len(finals) < 4:
        seeds = play.sim.seeds.copy()
        ended = play.step(greedy(play.sim, rng))
        for slot, scores in zip(ended.slots, ended.scores, strict=True):
            finals.setdefault(int(seeds[slot]), scores.tolist())
    assert sorted(finals) == [30, 31, 32, 33]
    for seed, scores in finals.items():
        state = GAME.new_game(3, seed=seed)
        assert isinstance(state, TriquetaState)
        while not state.is_terminal:
            state.apply(heuristics.choose(state, Rng(0)))
        assert state.scores() == scores
    before = play.episodes
    play.play(150, lambda turn: greedy(play.sim, rng))
    assert play.episodes > before and np.isclose(play.returns.sum(), play.episodes)


@settings(max_examples=40, deadline=None)
@given(mask=arrays(np.bool_, st.tuples(st.integers(1, 30), st.integers(1, 40))), seed=st.integers(0, 2**32))
def test_random_legal_picks_a_legal_id_in_every_row(mask: npt.NDArray[np.bool_], seed: int) -> None:
    mask[:, -1] |= ~mask.any(axis=1)  # every row has a legal action
    chosen = random_legal(mask, np.random.default_rng(seed))
    assert chosen.shape == (len(mask),)
    assert mask[np.arange(len(mask)), chosen].all()


def test_random_legal_is_uniform_over_the_legal_ids_and_refuses_empty_rows() -> None:
    mask = np.zeros((20_000, 9), bool)
    mask[:, [1, 4, 8]] = True
    mask[::2, 0] = True  # even rows: four legal ids
    chosen = random_legal(mask, np.random.default_rng(5))
    odd = np.bincount(chosen[1::2], minlength=9)
    even = np.bincount(chosen[::2], minlength=9)
    assert odd[[0, 2, 3, 5, 6, 7]].sum() == 0 and np.abs(odd[[1, 4, 8]] / 10_000 - 1 / 3).max() < 0.02
    assert np.abs(even[[0, 1, 4, 8]] / 10_000 - 1 / 4).max() < 0.02
    mask[[3, 7]] = False
    with pytest.raises(ValueError, match=r"rows \[3, 7\]"):
        random_legal(mask, np.random.default_rng(0))
