"""Triqueta's greedy bot on the batched arrays chooses exactly what `heuristics.choose` (the engine's
greedy bot) chooses. `choose` is deterministic (its ties go by a fixed rule and it never draws from
its rng), so every choice must be equal, not just among the tied best."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple
from meeple.ai.bots import GreedyBot
from meeple.batch import greedy_policy, make
from meeple.batch.protocol import BatchSimulator
from meeple.batch.selfplay import random_legal
from meeple.batch.triqueta_greedy import greedy_actions
from meeple.core.errors import OptionError
from meeple.core.rng import Rng
from meeple.games.triqueta import heuristics
from meeple.games.triqueta.actions import ALL_ACTIONS
from meeple.games.triqueta.state import TriquetaState

GAME = meeple.load("triqueta")
TABLES: list[tuple[int, dict[str, Any]]] = [(2, {"duo": False}), (2, {"duo": True}), (3, {"duo": False}),
                                            (4, {"duo": False}), (5, {"duo": False})]


def _compare(sim: BatchSimulator, steps: int, every: int, seed: int) -> Counter[str]:
    """Play `steps` steps (half the games greedy, half random each step) and compare the batched
    greedy choice of every game with `choose` on its exported state every `every` steps; the kinds
    of the choices compared."""
    rng = np.random.default_rng(seed)
    kinds: Counter[str] = Counter()
    for step in range(steps):
        chosen = greedy_actions(sim, rng)
        if step % every == 0:
            for i in range(sim.num_envs):
                state = sim.export(i)
                assert isinstance(state, TriquetaState)
                expected = state.action_id(heuristics.choose(state, Rng(i)))
                assert chosen[i] == expected, (step, i)
                kinds[type(ALL_ACTIONS[expected]).__name__] += 1
                kinds["last seat" if state.players_in == 1 and not state.pending else "other"] += 1
        mixed = np.where(rng.random(sim.num_envs) < 0.5, chosen, random_legal(sim.legal_mask(), rng))
        sim.step(mixed)
    return kinds


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_batched_greedy_is_the_engines_greedy(players: int, options: dict[str, Any]) -> None:
    kinds = _compare(make(GAME, 12, players, options, seed=50 * players), steps=45, every=3, seed=players)
    assert {"Take", "Draw", "Place", "last seat"} <= set(kinds)  # every branch of choose was compared
    assert ("Discard" in kinds) == options["duo"]


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(TABLES), size=st.sampled_from([1, 7]), seed=st.integers(0, 2**40))
def test_batched_greedy_for_odd_sizes_and_seeds(table: tuple[int, dict[str, Any]], size: int, seed: int) -> None:
    players, options = table
    _compare(make(GAME, size, players, options, seed=seed), steps=30, every=1, seed=seed % 1000)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), TABLES)
def test_many_positions_choose_as_the_engine(players: int, options: dict[str, Any]) -> None:
    # 5 tables x 200 games x 40 compared steps: 40,000 positions (the first run compared 50,000).
    kinds = _compare(make(GAME, 200, players, options, seed=9_000 + players), steps=120, every=3, seed=players)
    assert sum(kinds[k] for k in ("Take", "Draw", "Place", "Keep", "Discard")) == 200 * 40
    assert kinds["Keep"] > 0


def test_the_choice_is_the_greedy_bots_through_its_observation() -> None:
    """GreedyBot chooses on its observation's sample (the others' secrets re-dealt): the same action."""
    sim = make(GAME, 16, 3, seed=4)
    rng = np.random.default_rng(4)
    bot = GreedyBot()
    for _ in range(30):
        chosen = greedy_actions(sim, rng)
        for i in range(0, 16, 3):
            state = sim.export(i)
            assert chosen[i] == state.action_id(bot.choose(state, Rng(i)))
        sim.step(random_legal(sim.legal_mask(), rng))


@pytest.mark.parametrize(("players", "options"), [(2, {"duo": True}), (4, {"duo": False})])
def test_the_choice_reads_only_what_the_seat_to_move_sees(players: int, options: dict[str, Any]) -> None:
    """Re-dealing everything the seat to move cannot see (towers, others' face-down and returned
    tokens, tokens gone unseen) never changes its choice."""
    sim = make(GAME, 64, players, options, seed=21)
    rng = np.random.default_rng(21)
    for step in range(30):
        chosen = greedy_actions(sim, rng)
        sim.determinize(sim.current_player, seed=1000 + step)
        assert np.array_equal(greedy_actions(sim, rng), chosen)
        sim.step(np.where(rng.random(64) < 0.5, chosen, random_legal(sim.legal_mask(), rng)))


def test_games_without_a_batched_greedy_say_so() -> None:
    celtica = meeple.load("celtica")
    with pytest.raises(OptionError, match="Celtica has no batched greedy policy"):
        greedy_policy(celtica)
    assert greedy_policy(GAME) is greedy_actions
    with pytest.raises(TypeError, match="TriquetaBatch"):
        greedy_actions(make(celtica, 2, 2), np.random.default_rng(0))
