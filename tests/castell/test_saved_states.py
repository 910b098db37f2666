"""Saved states: exact JSON round trip, strict loading (every bad field named), clones."""

from __future__ import annotations

import json
from typing import Any

import pytest

from meeple.core.conformance import random_position, set_path
from meeple.core.errors import RecordError
from meeple.core.rng import Rng
from meeple.core.statefields import field_names
from meeple.games.castell.components import MAX_TEAM
from meeple.games.castell.state import CastellState
from tests.castell.helpers import GAME, new


def played(players: int = 3, seed: int = 4, moves: int = 60, **options: Any) -> CastellState:
    return random_position(GAME, players, seed, moves, **options)


def reload(data: dict[str, Any]) -> CastellState:
    return GAME.from_json(json.loads(json.dumps(data)))


@pytest.mark.parametrize("moves", [0, 30, 200, 10_000])
def test_state_json_round_trips_exactly(moves):
    state = played(moves=moves)
    data = state.to_json()
    again = reload(data)
    assert again.to_json() == data
    assert again.legal_action_ids() == state.legal_action_ids()
    assert again.view(0) == state.view(0)


def test_corrupt_states_are_record_errors():
    data = new(2).to_json()
    with pytest.raises(RecordError):
        GAME.from_json({**data, "teams": [[0] * 11]})
    with pytest.raises(RecordError):
        GAME.from_json({**data, "components_sha256": "0" * 64})
    with pytest.raises(RecordError):
        GAME.from_json({**data, "round": "eleven"})
    with pytest.raises(RecordError):
        GAME.from_json({"game": "triqueta"})


def test_a_huge_skill_tile_is_refused_on_load():
    # It used to load, then raise when the wheel turned to face it.
    data = new(2).to_json()
    data["skill_at"][2] = 10**20
    with pytest.raises(RecordError, match="skill_at"):
        reload(data)


def test_a_team_larger_than_any_game_gathers_is_refused_on_load():
    # A team of 105 castellers (taken from the bag, so the supply still adds up) made one
    # festival solve take 16.7 s.
    data = new(2).to_json()
    team, bag = data["teams"][0], data["bag"]
    while sum(team) < 105:
        team[bag.pop()] += 1
    with pytest.raises(RecordError, match=r"teams\[0\]"):
        reload(data)
    assert MAX_TEAM < 105


def test_castellers_must_add_up_to_the_supply():
    data = new(2).to_json()
    data["teams"][1][5] += 1
    with pytest.raises(RecordError, match="size 5"):
        reload(data)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("round", 11, "round"),
        ("round", 0, "round"),
        ("phase", 2, "phase"),
        ("current", 7, "current"),
        ("current", 1, "current"),
        ("first", -1, "first"),
        ("turn", 9, "turn"),
        ("used", 99, "used"),
        ("bag.0", 11, r"bag\[0\]"),
        ("pool.0.0", 1, r"pool\[0\]\[0\]"),
        ("skills.0.1", 6, r"skills\[0\]\[1\]"),
        ("pawn.1", 7, r"pawn\[1\]"),
        ("tokens_left.0", 8, r"tokens_left\[0\]"),
        ("tokens_left.0", 6, "tokens"),
        ("region_tiles.0.0", 999, r"region_tiles\[0\]\[0\]"),
        ("best.0", -1, r"best\[0\]"),
        ("festivals.3.0.0", 999, r"festivals\[3\]\[0\] tile"),
        ("festivals.3.0.2.0", 11, r"festivals\[3\]\[0\] sizes"),
        ("festivals.3.0.1", "x", "festival"),
        ("results", [3], r"results\[0\]"),
        ("options", [], "options"),
        ("options", {"wheel": "sideways"}, "wheel"),
        ("pool", [[0] * 11], "pool"),
        ("teams.0", [0] * 10, r"teams\[0\]"),
        ("skill_at", [0] * 8, "skill_at"),
        ("entries", [[0, 5, [[9]]]], r"entries\[0\] slot"),
    ],
)
def test_bad_states_are_refused_naming_the_field(path, value, message):
    data = new(2).to_json()
    set_path(data, [int(k) if k.isdigit() else k for k in path.split(".")], value)
    with pytest.raises(RecordError, match=message):
        reload(data)


def test_a_pawn_off_the_map_after_round_one_is_refused():
    data = played(2, moves=400).to_json()
    assert data["round"] > 1
    data["pawn"][0] = -1
    with pytest.raises(RecordError, match=r"pawn\[0\]"):
        reload(data)


def test_clone_is_independent_and_shares_only_what_never_changes():
    state = played(moves=100)
    copy = state.clone()
    assert copy.to_json() == state.to_json()
    names = field_names(CastellState)
    assert {"components", "wheel_side", "teams", "bag", "festivals"} <= set(names)
    assert copy.components is state.components  # loaded once, shared
    for name in names:
        value = getattr(state, name)
        if isinstance(value, list):
            assert getattr(copy, name) is not value, name
    rng = Rng(5)
    while not copy.over:
        acts = copy.legal_actions()
        copy.apply(acts[rng.below(len(acts))])
    assert reload(state.to_json()).to_json() == state.to_json()
    assert state.to_json() != copy.to_json()
