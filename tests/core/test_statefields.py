"""The state-field machinery: one declaration gives JSON, checked decoding and a deep-enough clone."""

from __future__ import annotations

from typing import Any

import pytest

from meeple.core.errors import RecordError
from meeple.core.statefields import Derived, Shared, clone_state, decode_state, encode_state, field_names, fill_state


class Piece:
    """A mutable value type with its own JSON form and clone."""

    def __init__(self, size: int) -> None:
        self.size = size

    def to_json(self) -> int:
        return self.size

    @classmethod
    def from_json(cls, obj: Any) -> Piece:
        if type(obj) is not int:
            raise RecordError("a piece is a whole number")
        return cls(obj)

    def clone(self) -> Piece:
        return Piece(self.size)


class Record:
    """The least a class needs for the field machinery: construction from its fields, and empty."""

    def __init__(self, **fields: Any) -> None:
        if fields:
            fill_state(self, fields)

    def __post_init__(self) -> None:
        pass


class Sample(Record):
    count: int
    flag: bool
    name: str
    rows: list[list[int] | None]
    deep: list[list[list[int]]]
    pairs: tuple[tuple[int, int], ...]
    fixed: tuple[int, list[int]]
    table: dict[str, list[int]]
    maybe: int | None
    pieces: list[Piece]
    extra: Any
    data: Shared[list[int]]
    total: Derived[int]

    def __post_init__(self) -> None:
        self.total = self.count + len(self.rows)


def sample() -> Sample:
    return Sample(
        count=3, flag=True, name="x", rows=[[1, 2], None], deep=[[[1], [2, 3]]], pairs=((1, 2),),
        fixed=(7, [8]), table={"a": [1]}, maybe=None, pieces=[Piece(4)], extra={"k": [1]}, data=[9],
    )


def test_encode_writes_saved_fields_in_declaration_order_without_derived_ones() -> None:
    obj = encode_state(sample())
    assert list(obj) == ["count", "flag", "name", "rows", "deep", "pairs", "fixed", "table", "maybe",
                         "pieces", "extra", "data"]
    assert obj["pairs"] == [[1, 2]] and obj["fixed"] == [7, [8]] and obj["pieces"] == [4]


def test_decode_round_trips_and_recomputes_derived_fields() -> None:
    state = sample()
    again = decode_state(Sample, encode_state(state), {}, "sample")
    assert encode_state(again) == encode_state(state)
    assert again.pairs == ((1, 2),) and isinstance(again.pieces[0], Piece)
    assert again.total == 5


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("count", True, "count: expected a whole number, not True"),
        ("rows", [[1, "2"]], "rows[0][1]: expected a whole number"),
        ("pairs", [[1]], "pairs[0]: expected a list of 2"),
        ("table", {"a": 3}, "table.a: expected a list"),
        ("pieces", ["x"], "pieces[0]: a piece is a whole number"),
    ],
)
def test_decode_names_the_field_that_is_wrong(key: str, value: Any, message: str) -> None:
    obj = encode_state(sample())
    obj[key] = value
    with pytest.raises(RecordError, match=message.replace("[", r"\[").replace("]", r"\]")):
        decode_state(Sample, obj, {}, "sample")


def test_decode_rejects_unknown_and_missing_fields() -> None:
    obj = encode_state(sample())
    with pytest.raises(RecordError, match="unknown field 'typo'"):
        decode_state(Sample, {**obj, "typo": 1}, {}, "sample")
    del obj["name"]
    with pytest.raises(RecordError, match="missing field 'name'"):
        decode_state(Sample, obj, {}, "sample")


def test_clone_copies_every_mutable_level_and_shares_the_rest() -> None:
    state = sample()
    copy = clone_state(state)
    assert field_names(Sample) == [*encode_state(state), "total"]
    assert encode_state(copy) == encode_state(state) and copy.total == state.total
    assert copy.rows[0] is not state.rows[0] and copy.deep[0][1] is not state.deep[0][1]
    assert copy.fixed[1] is not state.fixed[1] and copy.table["a"] is not state.table["a"]
    assert copy.pieces[0] is not state.pieces[0]
    assert copy.data is state.data and copy.extra is state.extra


def test_a_type_without_a_codec_is_refused_when_the_class_is_first_used() -> None:
    class Bad(Record):
        items: set[int]

    with pytest.raises(TypeError, match="no JSON codec"):
        Bad(items={1})


def test_construction_names_a_missing_or_unknown_field() -> None:
    fields = {"count": 3, "flag": True, "name": "x", "rows": [], "deep": [], "pairs": (), "fixed": (7, [8]),
              "table": {}, "maybe": None, "pieces": [], "extra": None, "data": []}
    assert Sample(**fields).total == 3
    with pytest.raises(TypeError, match="missing the field 'name'"):
        Sample(**{k: v for k, v in fields.items() if k != "name"})
    with pytest.raises(TypeError, match="unexpected field 'total'"):
        Sample(**fields, total=1)  # a derived field is computed, never given
