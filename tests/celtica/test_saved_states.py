"""Saved states: exact JSON round trip, strict loading (every bad field named), deep-enough clones."""

from __future__ import annotations

import json
from typing import Any

import pytest

from meeple.core.conformance import random_position
from meeple.core.errors import RecordError
from meeple.core.rng import Rng
from meeple.core.statefields import field_names
from meeple.games.celtica.phases import END_PHASE, TAKE_PHASE
from meeple.games.celtica.state import CelticaState
from tests.celtica.helpers import GAME, RED, hand, position, turn


def played(players: int = 3, seed: int = 4, moves: int = 40) -> CelticaState:
    return random_position(GAME, players, seed, moves)


def finished(players: int = 3, seed: int = 4) -> CelticaState:
    return played(players, seed, moves=10_000)


def load_with(state: CelticaState, **changes: Any) -> CelticaState:
    data = state.to_json()
    data.update(changes)
    return GAME.from_json(json.loads(json.dumps(data)))


# -- round trip ------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_to_json_from_json_round_trip_exactly(players):
    for state in (GAME.new_game(players, seed=1), played(players, moves=25), finished(players)):
        text = json.dumps(state.to_json())
        back = GAME.from_json(json.loads(text))
        assert json.dumps(back.to_json()) == text
        assert back.view(0) == state.view(0) and back.legal_actions() == state.legal_actions()


def test_a_loaded_state_plays_on_like_the_original():
    state = played(moves=30)
    back = GAME.from_json(state.to_json())
    rng_a, rng_b = Rng(9), Rng(9)
    while not state.is_terminal:
        legal = state.legal_actions()
        assert back.legal_actions() == legal
        state.step(legal[rng_a.below(len(legal))])
        back.step(legal[rng_b.below(len(legal))])
    assert back.to_json() == state.to_json()


def test_clone_is_independent_and_copies_every_field():
    state = played(moves=30)
    copy = state.clone()
    for name in field_names(CelticaState):
        assert getattr(copy, name) == getattr(state, name), name
    copy.hands[0][0] += 1
    copy.druids[0] += 1
    copy.supply.append(0)
    copy.owed_colour[0] = 3
    assert state.to_json() != copy.to_json()
    assert GAME.from_json(state.to_json()).to_json() == state.to_json()


# -- loading checks (moved from the board-file tests) ------------------------------------------------
def test_from_json_rejects_a_state_that_loses_components():
    s = position(hands=[hand(RED), hand(RED), hand(RED)])
    data = s.to_json()
    data["supply"] = data["supply"][1:]
    with pytest.raises(RecordError, match="90 parts"):
        GAME.from_json(data)
    turn(s, RED, 1)
    assert GAME.from_json(s.to_json()).to_json() == s.to_json()


def test_from_json_rejects_wrong_field_types():
    s = position(hands=[hand(RED), hand(RED), hand(RED)])
    for field, value in (("final_round", 1), ("phase", "play"), ("druids", [0, 0, 0, 0, "x"]), ("hands", 3),
                         ("druid_deck", s.druid_deck[:-1] + [7]), ("part_discards", [-1] + s.part_discards[1:])):
        data = s.to_json()
        data[field] = value
        with pytest.raises(RecordError):
            GAME.from_json(data)


# -- the known bad loads: each a RecordError naming the field ------------------------------------------
def test_a_seat_that_does_not_exist_is_rejected():
    """`player=7` used to load and raise IndexError at the first move."""
    with pytest.raises(RecordError, match="current"):
        load_with(GAME.new_game(3, seed=1), current=7)
    with pytest.raises(RecordError, match="current"):
        load_with(GAME.new_game(3, seed=1), current=-1)


def test_an_owed_colour_that_does_not_exist_is_rejected():
    """`must=[9,-1,-1]` used to load and raise IndexError in legal_actions."""
    with pytest.raises(RecordError, match=r"owed_colour\[0\]"):
        load_with(GAME.new_game(3, seed=1), owed_colour=[9, -1, -1])
    with pytest.raises(RecordError, match="owed_colour"):
        load_with(GAME.new_game(3, seed=1), owed_colour=[-1, -1])


def test_an_owed_colour_the_seat_does_not_hold_is_rejected():
    s = position(hands=[hand(RED), hand(RED), hand(RED)])
    with pytest.raises(RecordError, match=r"owed_colour\[0\]"):
        load_with(s, owed_colour=[1, -1, -1])
    assert load_with(s, owed_colour=[0, -1, -1]).legal_actions()


@pytest.mark.parametrize(("field", "value", "named"), [
    ("phase", 9, "phase"),
    ("phase", TAKE_PHASE, "pending"),
    ("pending", 3, "pending"),
    ("druids", [0, 0, 0, 0, 99], r"druids\[4\]"),
    ("druids", [0, 0, 0, 0], "druids"),
    ("druids_home", 1, "druids_home"),
    ("cards_held", [5, 5, 4], r"cards_held\[2\]"),
    ("experience_held", [0, 0, 1], r"experience_held\[2\]"),
    ("display_size", 8, "display_size"),
    ("num_part_discards", 1, "num_part_discards"),
    ("round", 0, "round"),
    ("rng", -1, "rng"),
    ("ender", 1, "ender"),
    ("ender", 5, "ender"),
    ("end_reason", "goal", "end_reason"),
    ("end_queue", [0], "end_queue"),
    ("parts", [[0] * 9] * 3, "90 parts"),
    ("hands", [[5, 0, 0, 0, 0]] * 2, "hands"),
    ("supply", [9], "supply"),
])
def test_inconsistent_fields_are_rejected_by_name(field, value, named):
    with pytest.raises(RecordError, match=named):
        load_with(GAME.new_game(3, seed=1), **{field: value})


def test_a_druid_in_the_goal_needs_the_final_round():
    s = finished()
    assert s.druids_home >= 1 or s.end_reason == "parts"
    data = s.to_json()
    if s.druids_home:
        data["final_round"] = False
        with pytest.raises(RecordError, match="final_round"):
            GAME.from_json(data)


def test_game_over_and_the_end_phase_are_checked():
    s = finished()
    assert s.over and s.phase == END_PHASE and s.end_queue == []
    with pytest.raises(RecordError, match="end_queue"):
        load_with(s, end_queue=[0])
    with pytest.raises(RecordError, match="ender"):
        load_with(s, ender=-1)
    with pytest.raises(RecordError, match="end_reason"):
        load_with(s, end_reason="bored")
    with pytest.raises(RecordError, match="phase"):
        load_with(s, phase=TAKE_PHASE, pending=1)


@pytest.mark.parametrize("options", ["", [], {"board": 3}, {"size": 1}, {"board": "layout:nonsense"}])
def test_bad_options_are_record_errors(options):
    with pytest.raises(RecordError):
        load_with(GAME.new_game(2, seed=1), options=options)


def test_unknown_and_missing_fields_are_named():
    data = GAME.new_game(2, seed=1).to_json()
    data["pdisc"] = [0] * 9
    with pytest.raises(RecordError, match="unknown field 'pdisc'"):
        GAME.from_json(data)
    data = GAME.new_game(2, seed=1).to_json()
    del data["owed_colour"]
    with pytest.raises(RecordError, match="missing field 'owed_colour'"):
        GAME.from_json(data)
