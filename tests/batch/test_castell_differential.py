"""Castell's batched simulator against the engine (issue #32): masks, seat to move, scores, every
seat's observation, the whole state (queue, entries, results and the bag's order included), game
ends and auto-resets, step by step, at 2-4 players with every option (K2 refill, K9 prize ties, K10
performance tokens, K3 wheel side, user component files); determinization (the bag, K2) as the
engine's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple
from meeple.batch import BatchSimulator, castell_towers, make, simulator_class
from meeple.batch.castell import CastellBatch
from meeple.core.errors import OptionError
from meeple.core.rng import PureRng
from meeple.envs.spaces import observe
from meeple.envs.vector import BatchVectorEnv
from tests.batch.lockstep import lockstep, played

GAME = meeple.load("castell")
#: Every option away from its default (the translation's readings and the advanced wheel side).
OTHER = {"wheel": "advanced", "performance_tokens": "all", "refill": "add", "prize_ties": "one_lower"}
#: A whole game per player count; between them every value of every rule option.
WHOLE_GAMES: list[tuple[int, dict[str, Any]]] = [
    (2, OTHER), (3, {}), (4, {"wheel": "advanced", "performance_tokens": "all"}),
]
TABLES: list[tuple[int, dict[str, Any]]] = [(p, o) for p in (2, 3, 4) for o in ({}, OTHER)]


def components_dir(root: Path) -> str:
    """User component files: a bigger bag (40 castellers of size 10), other size-token counts per
    festival (K7) and six size tokens of size 10 (a player may hold more than the encoder's bound
    of 3: the clipped value); the rest shipped."""
    sizes = [(1, 6), (2, 10), (3, 12), (4, 12), (5, 14), (6, 14), (7, 18), (8, 18), (9, 20), (10, 40)]
    (root / "castellers.toml").write_text("".join(
        f'[[casteller]]\nsize = {s}\ncount = {c}\nprovenance = "reconstructed"\n\n' for s, c in sizes))
    tokens = [(s, 6 if s == 10 else 3) for s in range(1, 11)]
    (root / "size_tokens.toml").write_text("".join(
        f'[[token]]\nsize = {s}\ncount = {c}\nprovenance = "reconstructed"\n\n' for s, c in tokens))
    rounds = [(3, "I", 2, (1, 1, 1)), (4, "I", 3, (1, 1, 2)), (5, "I", 1, (1, 2, 2)), (6, "I", 2, (1, 1, 2)),
              (7, "II", 3, (1, 2, 2)), (8, "II", 1, (1, 1, 2)), (9, "II", 2, (1, 2, 2)), (10, "II", 3, (1, 1, 1))]
    (root / "calendar.toml").write_text("".join(
        f'[[round]]\nround = {r}\ndeck = "{d}"\nsize_tokens = {k}\n'
        f'festivals = {{ 2 = {f[0]}, 3 = {f[1]}, 4 = {f[2]} }}\nprovenance = "reconstructed"\n\n'
        for r, d, k, f in rounds))
    return str(root)


@pytest.mark.parametrize(("players", "options"), WHOLE_GAMES)
def test_whole_games_play_as_the_engine(players: int, options: dict[str, Any]) -> None:
    assert lockstep("castell", 1, players, options, seed=100 * players, games=1, action_seed=players) == 1


def test_user_components_play_as_the_engine(tmp_path: Path) -> None:
    options = {"components": components_dir(tmp_path)}
    sim = make(GAME, 1, 2, options)
    assert sim.bag_capacity == 164  # type: ignore[attr-defined]  # the user's bag, not the shipped 150
    assert lockstep("castell", 1, 2, options, seed=3, games=1) == 1


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), TABLES)
def test_many_games_play_as_the_engine(players: int, options: dict[str, Any],
                                      games_per_table: Callable[[int, int], int]) -> None:
    # 6 tables x 6 games: every player count with the default and the other reading of every
    # option. The 10,000-game run: `--differential-games 10000` (1,667 games a table, 48 at
    # once; docs/performance.md has its figures).
    games = games_per_table(6, len(TABLES))
    num_envs = 6 if games <= 6 else 48
    assert lockstep("castell", num_envs, players, options, seed=9_000 + 10 * players, games=games,
                    action_seed=players) >= games


def test_a_player_board_region_holding_more_than_a_seats_tokens_is_clipped_as_the_encoder_does() -> None:
    """Found by the 10,000-game run: a performance moves every seat's special tokens in its region to
    the performer's board (K5), so a region of it can hold more than a seat's 7; the encoder divides
    by 7 and clips at 1, and the batch must too."""
    players = 4
    sim = make(GAME, 2, players, OTHER, seed=40)
    engines = [GAME.new_game(players, seed=40 + i, **OTHER) for i in range(2)]
    sim.player_board[:, 0, 2] = 9  # type: ignore[attr-defined]
    sim.player_board[:, 1, 4] = 3  # type: ignore[attr-defined]
    for state in engines:
        state.player_board_tokens[0][2] = 9
        state.player_board_tokens[1][4] = 3
    for seat in range(players):
        seen = sim.observe(np.full(2, seat))
        for i, state in enumerate(engines):
            assert np.array_equal(seen[i], observe(state, seat)), (i, seat)
    assert seen.max() <= 1.0


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(num_envs=st.sampled_from([1, 7]), table=st.sampled_from(TABLES), seed=st.integers(0, 2**40),
       action_seed=st.integers(0, 2**31))
def test_any_small_batch_plays_as_the_engine(num_envs: int, table: tuple[int, dict[str, Any]], seed: int,
                                             action_seed: int) -> None:
    players, options = table
    lockstep("castell", num_envs, players, options, seed, steps=30 // num_envs + 4, action_seed=action_seed)


def test_a_cache_that_starts_afresh_gives_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    clears: list[int] = []
    clear = castell_towers.TowerCache._clear

    def counted(cache: castell_towers.TowerCache) -> None:
        clears.append(1)
        clear(cache)

    monkeypatch.setattr(castell_towers, "MAX_ENTRIES", 40)  # cleared every few steps
    monkeypatch.setattr(castell_towers.TowerCache, "_clear", counted)
    lockstep("castell", 3, 3, {}, seed=12, steps=30)
    assert len(clears) > 3  # the first is the cache's start


@pytest.mark.slow
@settings(max_examples=1, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**40), action_seed=st.integers(0, 2**31))
def test_a_thousand_games_play_as_the_engine(table: tuple[int, dict[str, Any]], seed: int, action_seed: int) -> None:
    # One example of two steps (10-30 s: each step compares 1,000 engines); more examples would
    # draw other tables and seeds.
    players, options = table
    lockstep("castell", 1000, players, options, seed, steps=2, action_seed=action_seed)


@pytest.mark.parametrize("players", [2, 4])
def test_determinize_deals_as_the_engine_and_hides_nothing_seen(players: int) -> None:
    for steps in (0, 70):
        sim = played("castell", 8, players, {}, steps, seed=steps)
        seats = np.arange(8) % players
        before = sim.observe(seats)
        states = [sim.export(i) for i in range(8)]
        sim.determinize(seats, seed=500)
        assert np.array_equal(sim.observe(seats), before)  # the seat sees no difference
        for i, state in enumerate(states):
            expected = state.determinize(int(seats[i]), PureRng(500 + i))
            assert sim.export(i).to_json() == expected.to_json()
            assert sorted(expected.to_json()["bag"]) == sorted(state.to_json()["bag"])


def test_determinize_changes_the_bag_order() -> None:
    sim = played("castell", 50, 3, {}, 10, seed=2)
    bag = sim.bag.copy()  # type: ignore[attr-defined]
    sim.determinize(np.zeros(50, np.int64), seed=9)
    assert (sim.bag != bag).any(axis=1).mean() > 0.9  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="seat"):
        sim.determinize(np.full(50, 3), seed=9)


def test_an_illegal_action_is_refused_naming_its_slots_and_nothing_changes() -> None:
    sim = make(GAME, 5, 3, seed=4)
    state = [sim.export(i).to_json() for i in range(5)]
    actions = np.zeros(5, np.int64)  # K4: round 1 starts by placing the pawn anywhere
    actions[[1, 3]] = [48, 51]  # ending the turn before the pawn is placed; declining outside a festival
    with pytest.raises(ValueError, match=r"slots \[1, 3\]"):
        sim.step(actions)
    assert [sim.export(i).to_json() for i in range(5)] == state
    with pytest.raises(ValueError, match="slots"):
        sim.step(np.full(5, 52))
    with pytest.raises(ValueError, match="5 integer action ids"):
        sim.step(np.zeros(4, np.int64))


def test_only_active_games_move() -> None:
    sim = make(GAME, 4, 2, seed=8)
    before = [sim.export(i).to_json() for i in range(4)]
    sim.step(np.array([0, 99, 2, 99]), active=np.array([True, False, True, False]))
    after = [sim.export(i).to_json() for i in range(4)]
    assert after[1] == before[1] and after[3] == before[3]
    assert after[0]["pawn"][0] == 0 and after[2]["pawn"][0] == 2


def test_reset_starts_every_slot_from_its_seed() -> None:
    sim = played("castell", 5, 4, OTHER, 40, seed=1)
    sim.reset(77)
    for i in range(5):
        engine = GAME.new_game(4, seed=77 + i, **OTHER)
        assert sim.export(i).to_json() == engine.to_json()
        assert np.array_equal(sim.observe()[i], observe(engine, 0))


def test_the_plugin_names_the_simulator_and_options_are_checked() -> None:
    assert simulator_class(GAME) is CastellBatch
    sim = make(GAME, 2, 3)
    assert isinstance(sim, BatchSimulator) and sim.num_actions == GAME.info.num_actions == 52
    with pytest.raises(OptionError):
        make(GAME, 2, 5)
    with pytest.raises(OptionError):
        make(GAME, 2, 2, {"refill": "sometimes"})


def test_the_vector_env_plays_castell_for_one_seat() -> None:
    env = BatchVectorEnv("castell", num_envs=3, num_players=3, seat=1)
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(15):
        assert info["action_mask"].any(axis=1).all()  # the learner's seat is to move everywhere
        for i in range(3):
            assert np.array_equal(obs[i], observe(env.sim.export(i), 1))
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]])
        obs, reward, terminated, _, info = env.step(actions)
        assert not reward[~terminated].any()
