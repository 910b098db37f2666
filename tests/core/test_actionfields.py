"""Actions declared once: ids, JSON form and strict decoding derived from the declaration."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from meeple.core.action import DeclaredAction
from meeple.core.actionfields import ActionSpace, Domain, Flag, Kind, Names, Whole
from meeple.core.errors import IllegalAction, RecordError


@dataclass(frozen=True, slots=True)
class Go(DeclaredAction):
    colour: int
    steps: int


@dataclass(frozen=True, slots=True)
class Bet(DeclaredAction):
    high: bool
    stake: int
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Stop(DeclaredAction):
    pass


class Note(Domain):
    """Free text outside the id (like a tower), left out of the JSON when None."""

    def __init__(self) -> None:
        super().__init__(default=None)

    def parse(self, raw: object, what: str) -> str:
        if type(raw) is not str:
            raise RecordError(f"{what} must be text")
        return raw


SPACE: ActionSpace[Go | Bet | Stop] = ActionSpace("Sample", [
    Kind(Go, "go", colour=Names(("red", "blue", "green")), steps=Whole(1, 4, key="far")),
    Kind(Bet, "bet", high=Flag(), stake=Whole(0, 1, default=0), note=Note(), id_fields=("stake", "high")),
    Kind(Stop, "stop"),
])


def test_each_kind_takes_the_next_block_of_ids_first_field_most_significant():
    assert SPACE.num_actions == 3 * 4 + 2 * 2 + 1
    assert [SPACE.action_id(Go(c, s)) for c in range(3) for s in range(1, 5)] == list(range(12))
    assert [SPACE.action_id(Bet(h, s)) for s in range(2) for h in (False, True)] == [12, 13, 14, 15]
    assert SPACE.action_id(Stop()) == 16
    assert [SPACE.action_id(SPACE.action_from_id(i)) for i in range(17)] == list(range(17))
    assert SPACE.action_from_id(7) is SPACE.action_from_id(7) == Go(1, 4)


def test_a_field_outside_the_id_shares_the_id_of_its_default():
    assert SPACE.action_id(Bet(True, 1, "all in")) == SPACE.action_id(Bet(True, 1)) == 15
    assert SPACE.action_from_id(15) == Bet(True, 1, None)


@pytest.mark.parametrize("bad", [Go(3, 1), Go(0, 0), Go(True, 1), Bet(1, 0), "stop", None, (0, 1)])  # type: ignore[arg-type]
def test_anything_else_has_no_id(bad):
    assert SPACE.id_or_none(bad) is None
    with pytest.raises(IllegalAction, match="is not a Sample action"):
        SPACE.action_id(bad)


def test_json_is_the_type_then_each_field_in_order_under_its_key():
    assert list(Go(2, 3).to_json().items()) == [("type", "go"), ("colour", "green"), ("far", 3)]
    assert Bet(True, 0).to_json() == {"type": "bet", "high": True, "stake": 0}
    assert Bet(False, 1, "hi").to_json() == {"type": "bet", "high": False, "stake": 1, "note": "hi"}
    assert Stop().to_json() == {"type": "stop"}
    for number in range(SPACE.num_actions):
        action = SPACE.action_from_id(number)
        assert SPACE.action_from_json(action.to_json()) is action  # the id's own instance


def test_decoding_fills_defaults_and_keeps_what_is_outside_the_id():
    assert SPACE.action_from_json({"type": "bet", "high": True}) == Bet(True, 0)
    assert SPACE.action_from_json({"type": "bet", "high": True, "note": "x"}) == Bet(True, 0, "x")


@pytest.mark.parametrize(("raw", "message"), [
    ({"type": "go", "colour": "red"}, "Sample go action needs the field 'far'"),
    ({"type": "go", "colour": "pink", "far": 1}, "Sample go action field 'colour' must be one of red, blue, green"),
    ({"type": "go", "colour": "red", "far": 5}, "Sample go action field 'far' must be 1 to 4"),
    ({"type": "go", "colour": "red", "far": True}, "field 'far' must be a whole number"),
    ({"type": "go", "colour": "red", "steps": 1}, "has no field 'steps'"),
    ({"type": "bet", "high": 1}, "Sample bet action field 'high' must be true or false"),
    ({"type": "bet", "high": True, "note": 3}, "field 'note' must be text"),
    ({"type": "stop", "x": 1}, "has no field 'x'"),
    ({"type": "jump"}, "unknown Sample action type 'jump'"),
    (["stop"], "is a JSON object"),
])
def test_malformed_json_is_refused_naming_the_field(raw, message):
    with pytest.raises(RecordError, match=message):
        SPACE.action_from_json(raw)


def test_a_declaration_must_name_exactly_the_dataclass_fields():
    @dataclass(frozen=True, slots=True)
    class Hop(DeclaredAction):
        steps: int

    with pytest.raises(TypeError, match="exactly its fields"):
        Kind(Hop, "hop", step=Whole(1, 2))
    with pytest.raises(TypeError, match="deriving from DeclaredAction"):
        Kind(int, "hop")
    with pytest.raises(TypeError, match="two action spaces"):
        ActionSpace("Again", [Kind(Stop, "stop")])


def test_an_adopted_action_keeps_its_id_and_is_found_by_identity():
    noted = SPACE.adopt(Bet(False, 1, "kept"))
    assert SPACE.action_id(noted) == SPACE.id_or_none(noted) == 14
    with pytest.raises(IllegalAction):
        SPACE.adopt(Go(9, 1))
