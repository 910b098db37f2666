"""Action ids and JSON forms, malformed input, and state serialization errors."""

import json

import pytest

from meeple.core.errors import IllegalAction, RecordError
from meeple.games.castell import actions as A
from tests.castell.helpers import GAME, new, placed


def test_action_ids_are_fixed_and_round_trip():
    assert GAME.info.num_actions == A.NUM_ACTIONS == 52
    s = new(3)
    for i in range(A.NUM_ACTIONS):
        action = s.action_from_id(i)
        assert s.action_id(action) == i
        assert GAME.action_from_json(json.loads(json.dumps(action.to_json()))) == action
    with pytest.raises(IllegalAction):
        s.action_from_id(52)


def test_explicit_towers_share_the_id_and_round_trip():
    action = A.Enter(1, ((10, 10, 10), (9, 9), (8,), (3,)))
    assert A.SPACE.action_id(action) == A.SPACE.action_id(A.ENTERS[1])
    assert GAME.action_from_json(action.to_json()) == action
    perform = A.Perform(0, ((9, 9, 9), (7, 7), (5,)))
    assert GAME.action_from_json(perform.to_json()) == perform
    assert "tower" not in A.ENTERS[0].to_json()


@pytest.mark.parametrize(
    "raw",
    [
        [], {"type": "fly"}, {"type": "move"}, {"type": "move", "region": "girona"},
        {"type": "recruit", "size": 11}, {"type": "recruit", "size": True},
        {"type": "train", "source": "x", "skill": "mix"},
        {"type": "perform", "slot": 2}, {"type": "enter", "slot": 0, "tower": [[9, 0]]},
        {"type": "enter", "slot": 0, "tower": "tall"}, {"type": "enter", "slot": 0, "tower": [[]]},
    ],
)
def test_malformed_actions_are_record_errors(raw):
    with pytest.raises(RecordError):
        GAME.action_from_json(raw)


def test_rejected_actions_leave_the_state_untouched():
    s = placed(where="valls")
    before = json.dumps(s.to_json(), sort_keys=True)
    rules = []
    for action in (A.Enter(0), A.DECLINE, A.MOVES[1], A.Perform(1, ((1, 1, 1, 1),))):  # 4 wide without Base
        with pytest.raises(IllegalAction) as info:
            s.apply(action)
        rules.append(info.value.rule)
        assert json.dumps(s.to_json(), sort_keys=True) == before
    assert rules == ["K8", "K8", "K1", "K6"]



@pytest.mark.parametrize("bad", [-1, 52, True, "3", 2.0, None])
def test_ids_out_of_range_are_refused(bad):
    with pytest.raises(IllegalAction, match="no Castell action id"):
        new(2).action_from_id(bad)


@pytest.mark.parametrize("thing", [None, "move", 3, object(), (1, 2)])
def test_action_id_of_a_non_action_is_illegal(thing):
    with pytest.raises(IllegalAction, match="is not a Castell action") as info:
        new(2).action_id(thing)
    assert info.value.rule == "ids"


@pytest.mark.parametrize(
    "raw",
    [
        {"type": "move", "region": ["valls"]}, {"type": "recruit", "size": [3]}, {"type": ["move"]},
        {"type": "train", "source": ["region"], "skill": "mix"}, {"type": "train", "source": "region", "skill": {}},
        {"type": "perform", "slot": [0]}, {"type": "enter", "slot": 0, "tower": [["9"]]}, "end_turn",
    ],
)
def test_wrong_types_anywhere_are_record_errors(raw):
    with pytest.raises(RecordError):
        GAME.action_from_json(raw)
