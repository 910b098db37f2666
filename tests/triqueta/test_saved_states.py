"""Saved states: exact JSON round trip, strict loading (every bad field named), clean errors."""

from __future__ import annotations

import json
from typing import Any

import pytest

from meeple.core.conformance import random_position, set_path
from meeple.core.errors import IllegalAction, RecordError
from meeple.core.rng import Rng
from meeple.core.statefields import field_names
from meeple.games.triqueta.state import TriquetaState
from tests.triqueta.helpers import GAME, new, take


def played(players: int = 3, seed: int = 4, moves: int = 20, **options: Any) -> TriquetaState:
    return random_position(GAME, players, seed, moves, **options)


def finished(players: int = 3, seed: int = 4, **options: Any) -> TriquetaState:
    state = played(players, seed, 10_000, **options)
    assert state.over
    return state


def duo_mid_draw() -> TriquetaState:
    """Seat to move has drawn two tokens (duo) and dealt with the first."""
    state = GAME.new_game(2, seed=7, duo=True)
    state.apply(state.legal_actions()[-1])  # draw
    state.apply(state.legal_actions()[0])  # place the first token
    assert state.used_kind == "place" and -1 in state.pending
    return state


# -- round trip ------------------------------------------------------------------------------
def test_json_round_trip_is_exact_after_every_action():
    state = GAME.new_game(2, seed=99, duo=True)  # T9: duo is for two players
    rng = Rng(5)
    while not state.is_terminal:
        state.step(rng.choice(state.legal_actions()))
        again = GAME.from_json(json.loads(json.dumps(state.to_json())))
        assert again.to_json() == state.to_json()
        assert again.legal_actions() == state.legal_actions()


def test_state_json_round_trips_exactly():
    for state in (new(2), played(), finished(), finished(5), finished(2, duo=True), duo_mid_draw()):
        text = json.dumps(state.to_json())
        again = GAME.from_json(json.loads(text))
        assert json.dumps(again.to_json()) == text
        assert again.players_in == state.players_in and again.duo == state.duo
        assert again.scores() == state.scores() and again.winners() == state.winners()
        assert again.score_breakdown() == state.score_breakdown()


def test_saved_fields_are_the_declared_ones():
    data = new(3).to_json()
    assert list(data) == ["game", *(f for f in field_names(TriquetaState) if f not in ("game", "duo", "players_in"))]
    assert data["over"] is False and "finished" not in data


def test_clone_is_independent_in_every_field():
    state = duo_mid_draw()
    copy = state.clone()
    for name in field_names(TriquetaState):
        assert getattr(copy, name) == getattr(state, name), name
    copy.towers[0].pop()
    copy.rows[0].append(1)  # type: ignore[union-attr]
    copy.counts[1][2] += 1
    copy.face_down[0].append(3)
    copy.out[1] = True
    copy.pending[1] = -1
    assert state.to_json() != copy.to_json()
    assert GAME.from_json(state.to_json()).to_json() == state.to_json()


# -- refused loads ---------------------------------------------------------------------------
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


def test_everyone_out_while_the_game_runs_is_refused():
    """out=[true, true, true] made apply look for the next seat forever."""
    data = new(3).to_json()
    data["out"] = [True, True, True]
    with pytest.raises(RecordError, match="rows: the rows in play must equal the players still in the round"):
        GAME.from_json(data)
    data["rows"] = [None, None, None]
    with pytest.raises(RecordError, match="out: at least one seat must still be in the round"):
        GAME.from_json(data)


def test_final_that_is_not_a_list_is_refused():
    """final=5 made score_breakdown raise TypeError."""
    for state in (new(3), finished()):
        data = state.to_json()
        data["final"] = 5
        with pytest.raises(RecordError, match="final: expected a list"):
            GAME.from_json(data)


@pytest.mark.parametrize("options", ["", [], None, 3, "duo"])
def test_options_that_are_not_an_object_are_refused(options):
    """options "" or [] raised AttributeError."""
    data = new(3).to_json()
    data["options"] = options
    with pytest.raises(RecordError, match="options must be an object"):
        GAME.from_json(data)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("seed",), -1, "seed must be 0 to"),
        (("seed",), "7", "seed: expected a whole number"),
        (("round",), 5, "round must be 0 to 4"),
        (("round",), 4, "over must be true exactly when the 4 rounds are played"),
        (("over",), True, "over must be true exactly when the 4 rounds are played"),
        (("over",), 1, "over: expected true or false"),
        (("current",), 3, "current must be 0 to 2"),
        (("current",), True, "current: expected a whole number"),
        (("rock",), -1, "rock must be 0 to 2"),
        (("rows",), [[], []], "rows must hold 3 entries"),
        (("rows", 0), [9], r"rows\[0\]\[0\] must be 0 to 5"),
        (("rows", 0), "owl", r"rows\[0\]: expected a list"),
        (("rows", 0), None, "rows in play must equal the players still in the round"),
        (("out", 0), 0, r"out\[0\]: expected true or false"),
        (("out", 0), True, "rows in play must equal the players still in the round"),
        (("trees",), [0, 0], "trees must hold 3 entries"),
        (("trees", 0), 4, r"trees\[0\] must be 0 to 3"),
        (("trees", 0), 1, "one tree tile per round begun after the first"),
        (("counts", 0), [0] * 5, r"counts\[0\] must hold 6 entries"),
        (("counts", 0, 0), 11, r"counts\[0\]\[0\] must be 0 to 10"),
        (("face_down", 0), [0, 1, 2], r"face_down\[0\] must hold at most 2 entries"),
        (("face_down", 0), [7], r"face_down\[0\]\[0\] must be 0 to 5"),
        (("returned", 0), [1], r"returned\[0\] must be empty without the duo option"),
        (("gone",), [6], r"gone\[0\] must be 0 to 5"),
        (("towers",), [[], [], []], "towers must hold 4 entries"),
        (("towers", 0, 0), -1, r"towers\[0\]\[0\] must be 0 to 5"),
        (("pending",), [0, 1], "pending must hold at most 1 entries"),
        (("pending",), [-1], r"pending must hold a token still to deal with"),
        (("pending",), [6], r"pending\[0\] must be -1 to 5"),
        (("used_kind",), "take", "used_kind must be empty until a duo token is dealt with"),
        (("used_kind",), 3, "used_kind: expected text"),
        (("final",), [], "final must be null until the game is over"),
        (("extra",), 1, "unknown field 'extra'"),
        (("options",), {"turbo": True}, "no option 'turbo'"),
        (("num_players",), 6, "2 to 5 players"),
    ],
)
def test_bad_states_are_refused_naming_the_field(path, value, message):
    data = new(3).to_json()
    set_path(data, path, value)
    with pytest.raises(RecordError, match=message):
        GAME.from_json(data)


def test_current_seat_must_still_be_in_the_round():
    state = new(3)
    state.apply(take(0))
    data = state.to_json()
    data["current"] = 0
    with pytest.raises(RecordError, match="current: seat 0 has taken a row this round"):
        GAME.from_json(data)


def test_towers_of_later_rounds_and_past_rounds_are_checked():
    data = new(3).to_json()
    data["towers"][1], data["gone"] = data["towers"][1][1:], [data["towers"][1][0]]
    with pytest.raises(RecordError, match=r"towers\[1\] must hold 15 tokens until its round"):
        GAME.from_json(data)
    data = finished().to_json()
    data["towers"][0], data["gone"] = data["gone"][:1], data["gone"][1:]
    with pytest.raises(RecordError, match=r"towers\[0\] must be empty: its round is over"):
        GAME.from_json(data)


def test_duo_pending_tokens_and_used_kind_are_checked():
    good = duo_mid_draw().to_json()
    assert GAME.from_json(good).to_json() == good
    data = dict(good, used_kind="")
    with pytest.raises(RecordError, match="used_kind must name the first duo token's action"):
        GAME.from_json(data)
    data = dict(good, pending=[-1, -1], used_kind="place")
    with pytest.raises(RecordError, match="pending must hold a token still to deal with"):
        GAME.from_json(data)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (None, "final must hold each seat's T7 choice once the game is over"),
        ([], "final must hold 3 entries"),
        ([{"added": []}] * 3, r"final\[0\] must be an object with 'added' and 'boxed'"),
        ([{"added": "owl", "boxed": 0}] * 3, r"final\[0\].added must be a list of animals"),
        ([{"added": [9], "boxed": 0}] * 3, r"final\[0\].added\[0\] must be 0 to 5"),
        ([{"added": [3, 1], "boxed": 0}] * 3, r"final\[0\].added must be sorted"),
        ([{"added": [], "boxed": "1"}] * 3, r"final\[0\].boxed must be a whole number"),
        ([{"added": [], "boxed": 1}] * 3, r"final\[0\].boxed must be the number of tokens left face down"),
        ([{"added": [0, 0, 0], "boxed": 0}] * 3, r"final\[0\] tokens must be 0 to 2"),
        ([1, 2, 3], r"final\[0\]: expected an object"),
    ],
)
def test_bad_final_choices_are_refused(value, message):
    data = finished().to_json()
    for seat_face_down in data["face_down"]:
        seat_face_down.clear()
    data["gone"] += [t for row in finished().to_json()["face_down"] for t in row]
    assert GAME.from_json(dict(data, final=[{"added": f["added"], "boxed": 0} for f in data["final"]]))
    data["final"] = value
    with pytest.raises(RecordError, match=message):
        GAME.from_json(data)


def test_tampered_saved_states_are_record_errors():
    for good in (played().to_json(), finished().to_json(), duo_mid_draw().to_json()):
        assert GAME.from_json(good).to_json() == good
        for key in good:
            bads: tuple[Any, ...] = (None, "x", True, -5, [], {}, [True], [[]], "", 10**20)
            for bad in bads:
                data = dict(good)
                data[key] = bad
                if data == good or (key == "options" and bad == {}):  # {}: every option at its default
                    continue
                if key == "used_kind" and bad == "" and not any(t < 0 for t in good["pending"]):
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


def test_illegal_move_changes_nothing():
    state = new(3)
    state.apply(take(2))
    before = state.to_json()
    with pytest.raises(IllegalAction, match="T5"):
        state.apply(take(2))
    with pytest.raises(IllegalAction):
        state.apply(("take", 0, 0))  # type: ignore[arg-type]  # deliberately not an Action
    with pytest.raises(IllegalAction):
        state.action_from_id(99)
    assert state.to_json() == before
