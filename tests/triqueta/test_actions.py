"""Actions: the fixed id table, their JSON form, malformed input."""

from __future__ import annotations

import pytest

from meeple.core.conformance import check_ids_round_trip
from meeple.core.errors import IllegalAction, RecordError
from meeple.games.triqueta.actions import ALL_ACTIONS, DRAW_ACTION, NUM_ACTIONS, Keep, Place, Take
from tests.triqueta.helpers import GAME, discard, draw, keep, new, place, take


def test_action_ids_cover_a_fixed_range():
    assert GAME.info.num_actions == 20
    state = new(5)
    for action_id in state.legal_action_ids():
        assert state.action_id(state.action_from_id(action_id)) == action_id


def test_ids_are_the_protocols_fixed_table():
    """Ids are part of the protocol: take rows 0-4, draw, place by slot then row, keep, discard."""
    state = new(2)
    expected = [
        *(take(r) for r in range(5)),
        draw,
        *(place(r, 0) for r in range(5)),
        *(place(r, 1) for r in range(5)),
        keep,
        Keep(1),
        discard(0),
        discard(1),
    ]
    assert list(ALL_ACTIONS) == expected and NUM_ACTIONS == 20
    assert [state.action_id(a) for a in expected] == list(range(20))
    assert [state.action_from_id(i) for i in range(20)] == expected
    assert state.action_id(DRAW_ACTION) == 5


def test_ids_round_trip_over_random_play():
    check_ids_round_trip(GAME.new_game(2, seed=12, duo=True), NUM_ACTIONS, walk_seed=12)  # T9: duo, 2 players


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, 99, True, "3", 2.0, None])
def test_ids_out_of_range_are_refused(bad):
    with pytest.raises(IllegalAction) as err:
        new(2).action_from_id(bad)
    assert err.value.rule == "ids"


# No Take(True): the compiled class stores a bool row as the int 1, so it is Take(1) there; a
# client's `"row": true` is refused when its JSON is read (test_malformed_actions_raise_record_error).
@pytest.mark.parametrize("bad", [("take", 0, 0), Take(9), Take(-1), Place(0, 2), "draw", None, 5, [["x"]]])
def test_action_id_of_a_non_action_is_illegal(bad):
    with pytest.raises(IllegalAction, match="is not a Triqueta action") as err:
        new(2).action_id(bad)
    assert err.value.rule == "ids"


@pytest.mark.parametrize("bad", [Take(9), Place(-1, 0), Keep(2), "draw"])
def test_applying_a_non_action_is_illegal(bad):
    with pytest.raises(IllegalAction, match="is not a Triqueta action"):
        new(2).apply(bad)


def test_slot_may_be_left_out_of_the_json():
    assert GAME.action_from_json({"type": "keep"}) is keep
    assert GAME.action_from_json({"type": "place", "row": 1}) is place(1, 0)


def test_action_json_round_trips():
    assert place(3, 1).to_json() == {"type": "place", "row": 3, "slot": 1}
    assert take(2).to_json() == {"type": "take", "row": 2}
    assert draw.to_json() == {"type": "draw"}
    for action in ALL_ACTIONS:
        decoded = GAME.action_from_json(action.to_json())
        assert decoded == action and decoded is action  # the canonical instance


@pytest.mark.parametrize(
    "raw",
    [
        {"type": "fly"},
        {"type": "take", "row": 9},
        {"type": "take", "row": "1"},
        [],
        {"type": "keep", "slot": 2},
        "draw",
        None,
        {},
        {"type": ["take"]},
        {"type": {"x": 1}},
        {"type": "take"},
        {"type": "take", "row": True},
        {"type": "take", "row": 1.0},
        {"type": "place", "row": 0, "slot": [0]},
        {"type": "place", "row": [0], "slot": 0},
        {"type": "discard", "slot": None},
        {"type": "keep", "slot": -1},
    ],
)
def test_malformed_actions_raise_record_error(raw):
    with pytest.raises(RecordError):
        GAME.action_from_json(raw)
