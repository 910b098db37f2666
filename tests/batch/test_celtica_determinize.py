"""CelticaBatch.determinize: the engine's determinize, game by game, and a seat's observation unchanged
by re-dealing what it cannot see (hidden hands, pile orders, owed colours: C8; the view in view.py)."""

from __future__ import annotations

import numpy as np
import pytest

from meeple.batch.celtica import CelticaBatch
from meeple.core.rng import Rng
from meeple.games.celtica.game import CelticaGame

GAME = CelticaGame()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_determinize_is_the_engines_and_hides_nothing_new(players: int) -> None:
    batch = CelticaBatch(40, players, seed=31 * players)
    pick = np.random.default_rng(players)
    changed = owed = 0
    for round_ in range(8):
        for _ in range(15):
            mask = batch.legal_mask()
            batch.step((pick.random(mask.shape) * mask).argmax(axis=1))
        seats = pick.integers(0, players, size=batch.num_envs)
        before = batch.observe(seats).copy()  # observe returns a buffer the next call reuses
        states = [batch.export(i) for i in range(batch.num_envs)]
        owed += sum(any(c >= 0 and q != seats[i] for q, c in enumerate(s.owed_colour)) for i, s in enumerate(states))
        batch.determinize(seats, seed=round_ * 1000)
        assert np.array_equal(batch.observe(seats), before)
        for i, s in enumerate(states):
            want = s.determinize(int(seats[i]), Rng(round_ * 1000 + i))
            got = batch.export(i)
            assert got.to_json() == want.to_json(), (round_, i)
            changed += got.hands != s.hands
    assert changed > 0 and owed > 0  # hands were re-dealt and owed colours redrawn: the check has teeth
