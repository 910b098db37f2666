"""The Celtica observation encoder: shape, range, determinism, no leak, positions differ."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from meeple.batch import celtica_layout as L
from meeple.batch.celtica_layout import P_SCALES
from meeple.core.rng import Rng
from meeple.envs.encoders import celtica as enc
from meeple.envs.encoders import celtica_blocks
from meeple.games.celtica.game import CelticaGame
from meeple.games.celtica.scoring import amulet_sizes, complete_amulets
from meeple.games.celtica.state import CelticaState

GAME = CelticaGame()
SHORT_BOARD = "layout:printed:start,ruin 2,cult,village 3,castle 1,monastery 2,goal 4"
OPTIONS: tuple[dict[str, str], ...] = ({}, {"board": SHORT_BOARD})


def positions(n: int, options: dict[str, str], games: int, seed: int) -> Iterator[CelticaState]:
    """States along random games (every fifth decision and the final one)."""
    for g in range(games):
        s = GAME.new_game(n, seed=seed + g, **options)
        rng = Rng(seed + g)
        k = 0
        while not s.is_terminal:
            if k % 5 == 0:
                yield s
            acts = s.legal_actions()
            s.step(acts[rng.below(len(acts))])
            k += 1
        yield s


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_shape_range_determinism_and_no_leak(n: int, options: dict[str, str]) -> None:
    shape = enc.shape(n, options)
    resampled = 0  # samples whose hidden hands differ from the real ones (the check has teeth)
    for i, s in enumerate(positions(n, options, games=12, seed=100 * n)):
        for seat in range(n):
            view = s.view(seat)
            x = enc.encode(view, seat, n, s.options)
            assert x.shape == shape
            assert x.dtype == np.float32
            assert np.isfinite(x).all()
            assert x.min() >= 0.0 and x.max() <= 1.0
            assert np.array_equal(x, enc.encode(s.view(seat), seat, n, s.options))
            if i % 4 == 0:
                for r in range(3):
                    other = s.determinize(seat, Rng(1000 * i + r))
                    assert np.array_equal(x, enc.encode(other.view(seat), seat, n, s.options))
                    resampled += other.hands != s.hands
    assert resampled > 0


def test_shape_per_player_count() -> None:
    assert [enc.shape(n, {})[0] for n in (2, 3, 4, 5)] == [964, 991, 1018, 1045]
    assert enc.shape(3, {"board": SHORT_BOARD}) == enc.shape(3, {})


def test_positions_differ() -> None:
    for n in (2, 3, 4, 5):
        for seed in range(10):
            s = GAME.new_game(n, seed=seed)
            rng = Rng(seed)
            seen = []
            for _ in range(10):
                seen.append(enc.encode(s.view(0), 0, n, s.options))
                acts = s.legal_actions()
                s.step(acts[rng.below(len(acts))])
            assert not np.array_equal(seen[0], seen[9])


def test_seat_relative_layout() -> None:
    """Each seat sees itself in the first player block and the current player where it sits."""
    n = 4
    s = GAME.new_game(n, seed=5)
    flags = L.PLAYER_FLAGS
    run = L.values_offset(n) + L.COMMON_VALUES
    for seat in range(n):
        x = enc.encode(s.view(seat), seat, n, s.options)
        assert s.current_player is not None
        rel = (s.current_player - seat) % n
        assert x[flags + rel * L.PF_WIDTH + L.PF_CURRENT] == 1.0
        assert sum(x[flags + j * L.PF_WIDTH + L.PF_CURRENT] for j in range(n)) == 1.0
        parts = s.view(seat)["players"][seat]["parts"]
        assert np.allclose(x[run:run + 9], np.array(parts) / 10)
        # the own hand (5 colours) sits just before the own experience cards at the run's end
        hand = s.view(seat)["players"][seat]["hand"]
        assert np.allclose(x[run - 10:run - 5], np.array(hand) / 5)


def test_board_is_encoded_and_cache_follows_the_board() -> None:
    a = GAME.new_game(2, seed=1)
    b = GAME.new_game(2, seed=1, board=SHORT_BOARD)
    xa = enc.encode(a.view(0), 0, 2, a.options)
    xb = enc.encode(b.view(0), 0, 2, b.options)
    loc = L.LOC_WIDTH
    assert xa[:L.BOARD_SIZE].reshape(-1, loc)[:, 0].sum() == len(a.view(0)["board"])
    assert xb[:L.BOARD_SIZE].reshape(-1, loc)[:, 0].sum() == 7
    assert xb[L.FLAGS + 1] == 1.0 and xa[L.FLAGS + 1] == 0.0  # printed board flag
    assert np.array_equal(xa, enc.encode(a.view(0), 0, 2, a.options))


def test_documented_offsets() -> None:
    """The offsets docs/games/celtica.md lists."""
    assert (L.BOARD_SIZE, L.DRUID_POS, L.DRUID_HOME, L.MUST_PLAY, L.PHASE) == (540, 540, 840, 845, 850)
    assert (L.END_REASON, L.FLAGS, L.PLAYER_FLAGS, L.COMMON_VALUES, L.P_VALUES) == (856, 859, 861, 49, 22)
    assert [L.values_offset(n) for n in (2, 3, 4, 5)] == [871, 876, 881, 886]


def test_finished_game_marks_over_reason_and_winners() -> None:
    for n in (2, 5):
        s = next(p for p in positions(n, {}, games=1, seed=7) if p.is_terminal)
        view = s.view(1)
        x = enc.encode(view, 1, n, s.options)
        assert x[L.PHASE + 5] == 1.0  # over
        assert x[L.END_REASON:L.END_REASON + 3].sum() == 1.0
        for q in view["winners"]:
            assert x[L.PLAYER_FLAGS + (q - 1) % n * L.PF_WIDTH + L.PF_WINNER] == 1.0
        assert x[L.PLAYER_FLAGS:L.values_offset(n)].reshape(n, 5)[:, L.PF_CURRENT].sum() == 0.0


@given(st.lists(st.integers(0, 10), min_size=9, max_size=9))
def test_a_seats_amulets_in_the_observation_follow_C2(parts: list[int]) -> None:
    """The compiled encoder's amulet values (complete amulets, then every amulet's size, largest
    first) are the rules' own (meeple.games.celtica.scoring), scaled as the layout says."""
    sizes = amulet_sizes(parts)
    expected = np.array([complete_amulets(parts) * P_SCALES[11]]
                        + [(sizes[k] if k < len(sizes) else 0) * P_SCALES[12] for k in range(10)], dtype=np.float32)
    assert np.frombuffer(celtica_blocks._amulet_block(parts), dtype=np.float32).tobytes() == expected.tobytes()
