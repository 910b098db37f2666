"""Moves: their JSON form, their ids (rotation restored from the position), malformed input."""

from __future__ import annotations

import itertools

import pytest

from meeple.core.conformance import check_ids_round_trip
from meeple.core.errors import IllegalAction, RecordError
from meeple.core.rng import Rng
from meeple.games.triominos import actions
from meeple.games.triominos.actions import DRAW, DRAW_ID, NUM_ACTIONS, PASS, STOP, Place
from meeple.games.triominos.components import INDEX
from meeple.games.triominos.geometry import NUM_WINDOW, ORIGIN, WINDOW_CELLS, cell
from tests.triominos.helpers import GAME, position


def test_ids_number_placements_by_tile_and_window_cell_then_draw_pass_stop():
    state = GAME.new_game(2, seed=5)
    assert GAME.info.num_actions == NUM_ACTIONS == 56 * NUM_WINDOW + 3
    assert state.action_id(Place(3, ORIGIN, 0)) == 3 * NUM_WINDOW
    assert [state.action_id(a) for a in (DRAW, PASS, STOP)] == [DRAW_ID, DRAW_ID + 1, DRAW_ID + 2]
    assert [state.action_from_id(i) for i in (DRAW_ID, DRAW_ID + 1, DRAW_ID + 2)] == [DRAW, PASS, STOP]


def test_action_from_id_restores_the_rotation_that_fits():
    # 1-2-3 fits down(-1,0) next to the origin 1-3-4 only turned so that it shows 2, 3, 1.
    state = position(2, [(0, 0, "up", "134")], [["1-2-3", "5-5-5"], ["0-0-0"]])
    (fitting,) = [a for a in state.legal_actions() if type(a) is Place and a.cell == cell(-1, 0, 1)]
    assert fitting.rot != 0
    assert state.action_from_id(state.action_id(fitting)) == fitting


def test_ids_round_trip_over_random_play():
    check_ids_round_trip(GAME.new_game(3, seed=12), NUM_ACTIONS, walk_seed=12)


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, True, "3", 2.0])
def test_ids_out_of_range_are_refused(bad):
    with pytest.raises(IllegalAction) as err:
        GAME.new_game(2, seed=1).action_from_id(bad)
    assert err.value.rule == "ids"


def test_action_json_round_trips():
    place = Place(INDEX["1-3-4"], cell(2, -1, 0), 2)
    assert place.to_json() == {"type": "place", "tile": "1-3-4", "x": 2, "y": -1, "dir": "up", "rot": 2}
    for action in (place, DRAW, PASS, STOP):
        assert GAME.action_from_json(action.to_json()) == action


@pytest.mark.parametrize(
    "raw",
    [
        "draw",
        {"type": "jump"},
        {"type": "place", "tile": "0-2-1", "x": 0, "y": 0, "dir": "up", "rot": 0},
        {"type": "place", "tile": "0-1-2", "x": 0, "y": 0, "dir": "left", "rot": 0},
        {"type": "place", "tile": "0-1-2", "x": 0, "y": 0, "dir": "up", "rot": 3},
        {"type": "place", "tile": "1-1-1", "x": 0, "y": 0, "dir": "up", "rot": 1},
        {"type": "place", "tile": "0-1-2", "x": 900, "y": 0, "dir": "up", "rot": 0},
        {"type": "place", "tile": "0-1-2", "x": "1", "y": 0, "dir": "up", "rot": 0},
    ],
)
def test_malformed_actions_raise_record_error(raw):
    with pytest.raises(RecordError):
        GAME.action_from_json(raw)


def test_placements_are_made_once_and_every_game_asks_ids_alike():
    state = GAME.new_game(2, seed=5)
    first = state.legal_actions()
    assert all(a is b for a, b in zip(first, GAME.new_game(2, seed=5).legal_actions()))
    assert [state.action_from_id(state.action_id(a)) for a in first] == first


def test_the_placement_cache_starts_again_past_its_bound_and_ids_stay_right():
    # Filled up to just below the real bound (a compiled module's constant cannot be patched).
    # Emptied first: an earlier test may have cached every placement this game needs.
    bound = actions.PLACES_BOUND
    actions.PLACES.clear()
    actions.SPACE.release_adopted()
    for tile, c in itertools.product(range(56), WINDOW_CELLS):
        if len(actions.PLACES) >= bound - 5:
            break
        actions.placement(tile, c, 0)
    state = GAME.new_game(3, seed=8)
    rng = Rng(8)
    smallest = bound
    while not state.is_terminal:
        legal = state.legal_actions()
        assert len(actions.PLACES) <= bound
        smallest = min(smallest, len(actions.PLACES))
        ids = state.legal_action_ids()
        assert ids == [actions.SPACE.action_id(a) for a in legal]
        assert all(state.action_from_id(i) == a for i, a in zip(ids, legal))
        state.step(legal[rng.below(len(legal))])
    assert smallest < bound - 5  # it did start again
