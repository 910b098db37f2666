"""Saved states: exact JSON round trip, strict loading (every bad field named), deep-enough clones."""

from __future__ import annotations

import json
from typing import Any

import pytest

from meeple.core.conformance import random_position, set_path
from meeple.core.errors import RecordError
from meeple.core.rng import Rng
from meeple.core.statefields import field_names
from meeple.games.triominos.components import INDEX
from meeple.games.triominos.state import TriominosState
from tests.triominos.helpers import GAME, position


def played(players: int = 3, seed: int = 4, moves: int = 20, **options: Any) -> TriominosState:
    return random_position(GAME, players, seed, moves, **options)


def test_state_json_round_trips_exactly():
    for state in (GAME.new_game(2, seed=1), played(), played(2, seed=9, moves=10_000, match=True, target=150)):
        text = json.dumps(state.to_json())
        again = GAME.from_json(json.loads(text))
        assert json.dumps(again.to_json()) == text
        assert again.legal_actions() == state.legal_actions()
        assert again.board.fits == state.board.fits and again.board.open == state.board.open


def test_impossible_board_in_a_saved_state_is_a_record_error():
    data = position(2, [(0, 0, "up", "134")], [["1-2-3"], ["5-5-5"]]).to_json()
    data["board"].append(["2-2-3", 5, 5, 0, 0])  # not touching anything
    data["pool"].remove(INDEX["2-2-3"])
    with pytest.raises(RecordError):
        GAME.from_json(data)
    data = position(2, [(0, 0, "up", "134")], [["1-2-3"], ["5-5-5"]]).to_json()
    data["pool"].append(INDEX["1-2-3"])  # a tile twice
    with pytest.raises(RecordError):
        GAME.from_json(data)


def test_tampered_saved_states_are_record_errors():
    state = GAME.new_game(3, seed=4)
    rng = Rng(2)
    for _ in range(20):
        acts = state.legal_actions()
        state.apply(acts[rng.below(len(acts))])
    good = state.to_json()
    assert GAME.from_json(good).to_json() == good
    for key in good:
        bads: tuple[Any, ...] = (None, "x", True, -5, [], {})
        for bad in bads:
            data = dict(good)
            data[key] = bad
            if data == good or (key == "options" and bad == {}):  # {}: every option at its default
                continue
            if key == "over_target" and isinstance(bad, bool):  # a total may have passed and dropped
                continue
            try:
                GAME.from_json(data)
            except RecordError:
                continue
            raise AssertionError(f"{key}={bad!r} was accepted")
        data = dict(good)
        del data[key]
        with pytest.raises(RecordError):
            GAME.from_json(data)
    data = dict(good, totals=[t + 1 for t in good["totals"]])
    with pytest.raises(RecordError):
        GAME.from_json(data)



@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("rng",), -1, "rng must be 0 to"),
        (("round",), 0, "round must be 1 to"),
        (("pool", 0), 56, r"pool\[0\] must be 0 to 55"),
        (("racks",), [[]], "racks must hold 3 entries"),
        (("racks", 1, 0), "1-2-3", r"racks\[1\]\[0\]: expected a whole number"),
        (("board",), [["1-2-3", 0, 0, 0, 1]], "board: placement 0: tile 1-2-3 breaks M2"),
        (("board",), [["9-9-9", 0, 0, 0, 0]], "board: placement 0: no tile '9-9-9'"),
        (("board",), [["1-2-3", 99, 0, 0, 0]], "board: placement 0 x must be -30 to 30"),
        (("board",), [["1-2-3", 0, 0]], r"board: placement 0 must be \[tile, x, y, d, rot\]"),
        (("current",), 3, "current must be 0 to 2"),
        (("over",), 1, "over: expected true or false"),
        (("over",), True, "over must be true exactly when the last round has ended"),
        (("draws",), 4, "draws must be 0 to 3"),
        (("last_drawn",), 60, "last_drawn must be -1 to 55"),
        (("last_drawn",), None, "last_drawn: expected a whole number"),
        (("idle",), 4, "idle must be 0 to 3"),
        (("drawn", 2), -1, r"drawn\[2\] must be 0 to 56"),
        (("opening",), [], "opening must hold the round's opening draw"),
        (("opening", 0, 0, 0), 7, r"opening\[0\]\[0\] seat must be 0 to 2"),
        (("opening", 0, 0), [0], r"opening\[0\]\[0\]: expected a list of 2"),
        (("opener",), 5, "opener must be 0 to 2"),
        (("parts",), [], "parts must hold 1 entries"),
        (("parts", 0, 0), [0], r"parts\[0\]\[0\] must hold 10 entries"),
        (("totals", 0), 1, "totals must equal the sum of the score parts"),
        (("over_target",), "no", "over_target: expected true or false"),
        (("results",), [1], r"results\[0\]: expected an object"),
        (("results",), [{}, {}], "results must hold one object per finished round"),
        (("options",), {"target": 0}, "option 'target' must be at least 1"),
        (("extra",), 1, "unknown field 'extra'"),
    ],
)
def test_bad_states_are_refused_naming_the_field(path, value, message):
    data = played().to_json()
    set_path(data, path, value)
    with pytest.raises(RecordError, match=message):
        GAME.from_json(data)


def test_last_drawn_must_be_on_the_movers_rack():
    state = position(2, [(0, 0, "up", "001")], [["5-5-5", "4-4-4"], ["3-3-3"]], draws=1, last_drawn="4-4-4")
    data = state.to_json()
    assert GAME.from_json(data).last_drawn == INDEX["4-4-4"]
    data["last_drawn"] = INDEX["3-3-3"]
    with pytest.raises(RecordError, match="last_drawn must be a tile the player to move drew"):
        GAME.from_json(data)


def test_over_target_must_be_set_once_a_total_exceeds_the_target():
    data = position(2, [(0, 0, "up", "134")], [["1-2-3"], ["5-5-5"]], totals=[400, 0], match=True).to_json()
    assert data["over_target"] is False
    data["totals"][0] += 1
    data["parts"][0][0][0] += 1
    with pytest.raises(RecordError, match="over_target must be true"):
        GAME.from_json(data)


def test_clone_copies_every_field_deeply_enough():
    state = played(3, moves=30, match=True, target=150)
    copy = state.clone()
    assert set(field_names(TriominosState)) == {
        "game", "num_players", "options", "current", "over", "rng", "round", "pool", "racks", "board", "draws",
        "last_drawn", "idle", "drawn", "opening", "opener", "totals", "parts", "over_target", "results",
        "drawn_tile_only", "match", "target",
    }
    for name in field_names(TriominosState):
        assert getattr(copy, name) == getattr(state, name) or name == "board", name
    assert copy.to_json() == state.to_json()
    # Everything play changes in place is copied, down to the innermost list.
    assert copy.pool is not state.pool and copy.racks is not state.racks
    assert all(a is not b for a, b in zip(copy.racks, state.racks))
    assert copy.drawn is not state.drawn and copy.totals is not state.totals
    assert copy.parts[-1][0] is not state.parts[-1][0] and copy.results is not state.results
    board, original = copy.board, state.board
    assert board is not original and board.history is not original.history
    for table in ("occ", "vnum", "fill", "open", "fits", "placed"):
        mine, theirs = getattr(board, table), getattr(original, table)
        assert mine is not theirs and mine == theirs
    assert all(a is not b for a, b in zip(board.fits, original.fits))
    # Playing on the copy leaves the original as it was.
    before = state.to_json()
    rng = Rng(5)
    while not copy.is_terminal:
        acts = copy.legal_actions()
        copy.step(acts[rng.below(len(acts))])
    assert state.to_json() == before
