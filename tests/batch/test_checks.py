"""The action check every simulator's step shares (meeple.batch.checks): the slots that move and
their ids, or a ValueError naming what is wrong, for every game alike."""

from __future__ import annotations

import numpy as np
import pytest

import meeple
from meeple.batch import make
from meeple.batch.checks import checked_actions

MASK = np.array([[True, False, True], [False, True, False], [True, True, True]])


def test_legal_ids_come_back_with_the_slots_that_move() -> None:
    live, ids = checked_actions(np.array([2, 1, 0]), MASK)
    assert live.tolist() == [0, 1, 2] and ids.tolist() == [2, 1, 0] and ids.dtype == np.int64
    live, ids = checked_actions(np.array([2, 99, 0]), MASK, active=np.array([True, False, True]))
    assert live.tolist() == [0, 2] and ids.tolist() == [2, 0]  # an inactive game's action is ignored


@pytest.mark.parametrize(("actions", "active", "message"), [
    (np.array([1, 1, 0]), None, r"slots \[0\]: \[1\]"),
    (np.array([0, 1, 3]), None, r"slots \[2\]: \[3\]"),
    (np.array([-1, 1, 0]), None, r"slots \[0\]"),
    (np.array([0.0, 1.0, 0.0]), None, "integer action ids"),
    (np.array([True, True, False]), None, "integer action ids"),
    (np.array([0, 1]), None, "3 integer action ids"),
    (np.array([0, 1, 0]), np.array([1, 0, 1]), "active must be 3 booleans"),
    (np.array([0, 1, 0]), np.array([True, False]), "active must be 3 booleans"),
])
def test_bad_actions_are_named(actions: np.ndarray, active: np.ndarray | None, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        checked_actions(actions, MASK, active)


@pytest.mark.parametrize("game", ["triqueta", "triominos", "celtica", "castell"])
def test_every_simulator_moves_only_the_active_games(game: str) -> None:
    sim = make(meeple.load(game), 4, 2, seed=11)
    before = [sim.export(i).to_json() for i in range(4)]
    first = sim.legal_mask().argmax(1)
    active = np.array([True, False, True, False])
    sim.step(np.where(active, first, 10**6), active=active)  # the inactive games' ids are ignored
    after = [sim.export(i).to_json() for i in range(4)]
    assert after[1] == before[1] and after[3] == before[3]
    assert after[0] != before[0] and after[2] != before[2]
