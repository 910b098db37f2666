"""Actions: ids, JSON (every malformed field a RecordError), and what `apply` refuses."""

from __future__ import annotations

from typing import Any, cast

import pytest

from meeple import _native as native
from meeple.core.errors import IllegalAction, RecordError
from meeple.games.celtica.actions import DONE, PLAY, TAKE, Play, action_from_json
from tests.celtica.helpers import GAME, GREY, RED, hand, position


def play(s, colour, cards, exp=0):
    return s.apply(PLAY[colour][cards][exp])


def test_action_ids_and_json_round_trip():
    from meeple.games.celtica.actions import BY_ID, NUM_ACTIONS

    assert GAME.info.num_actions == NUM_ACTIONS == 411
    s = GAME.new_game(3, seed=1)
    for i, action in enumerate(BY_ID):
        assert GAME.action_from_json(action.to_json()) == action and s.action_id(action) == i
    with pytest.raises(IllegalAction):
        s.action_from_id(NUM_ACTIONS)
    bad: object
    for bad in ({"type": "play", "colour": "pink", "cards": 1, "experience": 0}, {"type": "take"},
                {"type": "cult", "draw": 1}, {"type": "fly"}, [], {"type": "done", "x": 1}):
        with pytest.raises(RecordError):
            GAME.action_from_json(bad)


def test_wrong_phase_names_the_rule():
    s = position(druids=(0, 0, 0, 0, 0), hands=[hand(RED), hand(GREY), hand(GREY)])
    with pytest.raises(IllegalAction, match="C5"):
        s.apply(TAKE[0])
    play(s, RED, 1)
    with pytest.raises(IllegalAction, match="C6"):
        s.apply(PLAY[GREY][1][0])
    with pytest.raises(IllegalAction, match="C6"):
        s.apply(DONE)
    assert isinstance(s.legal_actions()[0], type(TAKE[0]))
    assert isinstance(PLAY[0][1][0], Play)


def test_malformed_action_values_are_rejected_without_change():
    from meeple.games.celtica.actions import Cult

    s = GAME.new_game(3, seed=2)
    before = s.to_json()
    bads: list[Any] = [Play(7, 1, 0), Play(0, 0, 0), Play(0, 13, 0), Play(0, 1, 5), Cult(False), "play", None]
    for bad in bads:
        with pytest.raises(IllegalAction):
            s.apply(bad)
    assert s.to_json() == before


def test_a_field_of_the_wrong_type_never_reaches_the_rules():
    s = GAME.new_game(3, seed=2)
    before = s.to_json()
    try:
        wrong_type = Play(cast(Any, "red"), 1, 0)
    except TypeError:
        assert native.MODE == "compiled"  # the compiled class refuses it itself
    else:
        with pytest.raises(IllegalAction):
            s.apply(wrong_type)
    assert s.to_json() == before


@pytest.mark.parametrize("bad", [
    {"type": ["play"]}, {"type": {"play": 1}}, {"type": "play", "colour": ["red"], "cards": 1, "experience": 0},
    {"type": "play", "colour": "red", "cards": [1], "experience": 0},
    {"type": "play", "colour": "red", "cards": 1, "experience": {"n": 0}},
    {"type": "play", "colour": "red", "cards": True, "experience": 0}, {"type": "take", "part": ["centre"]},
    {"type": "swap", "give": {}, "take": "part1"},
    {"type": "cult", "draw": [True]}, {"type": "buy", "part": None}, {1: 2, "type": "done"}, "play", None,
])
def test_a_field_of_the_wrong_type_is_a_record_error(bad):
    with pytest.raises(RecordError):
        action_from_json(bad)


@pytest.mark.parametrize("thing", ["play", None, 3, {"type": "done"}, object()])
def test_action_id_of_a_non_action_is_illegal(thing):
    s = GAME.new_game(2, seed=1)
    with pytest.raises(IllegalAction, match="is not a Celtica action"):
        s.action_id(thing)


def test_action_from_id_checks_the_range():
    s = GAME.new_game(2, seed=1)
    bads: list[Any] = [-1, 411, True, "3", 2.0]
    for bad in bads:
        with pytest.raises(IllegalAction, match="0 to 410"):
            s.action_from_id(bad)
    assert s.action_from_id(410) == DONE and s.action_id(DONE) == 410
