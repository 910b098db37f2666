"""Bad serialized states and moves give clear errors and change nothing."""

import pytest

from meeple.core.errors import IllegalAction, RecordError
from tests.triqueta.helpers import GAME, new, take


def test_corrupt_state_json_is_rejected():
    data = new(3).to_json()
    data["towers"][0].append(5)  # a 61st token
    with pytest.raises(RecordError, match="accounted"):
        GAME.from_json(data)


def test_state_json_of_another_game_is_rejected():
    data = new(3).to_json()
    data["game"] = "celtica"
    with pytest.raises(RecordError):
        GAME.from_json(data)


def test_truncated_state_json_is_rejected():
    data = new(3).to_json()
    del data["rows"]
    with pytest.raises(RecordError, match="missing field 'rows'"):
        GAME.from_json(data)


@pytest.mark.parametrize(
    "raw", [{"type": "fly"}, {"type": "take", "row": 9}, {"type": "take", "row": "1"}, [], {"type": "keep", "slot": 2}]
)
def test_malformed_moves_are_rejected(raw):
    with pytest.raises(RecordError):
        GAME.action_from_json(raw)


def test_illegal_move_changes_nothing():
    state = new(3)
    state.apply(take(2))
    before = state.to_json()
    with pytest.raises(IllegalAction, match="T5"):
        state.apply(take(2))
    with pytest.raises(IllegalAction):
        state.apply(("take", 0, 0))
    with pytest.raises(IllegalAction):
        state.action_from_id(99)
    assert state.to_json() == before


def test_action_ids_cover_a_fixed_range():
    assert GAME.num_actions(2) == GAME.num_actions(5) == 20
    state = new(5)
    for action_id in state.legal_action_ids():
        assert state.action_id(state.action_from_id(action_id)) == action_id
