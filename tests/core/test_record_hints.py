"""A record's "hints": the actions whose mover asked for a hint before playing, checked strictly
when read (whole numbers naming actions of the record, increasing, each once) and left out of the
file when there are none, so records without hints read and write as before."""

from __future__ import annotations

import json
from typing import Any

import pytest

from meeple.core.errors import RecordError
from meeple.core.record import GameRecord

ACTIONS: list[dict[str, Any]] = [{"type": "draw"}, {"type": "keep", "slot": 0}] * 2


def record_json(**extra: object) -> dict[str, object]:
    return {**GameRecord("triqueta", 2, 3, {}, ["a", "b"], list(ACTIONS)).to_json(), **extra}


def test_hints_are_kept_through_a_file(tmp_path):
    record = GameRecord.from_json(record_json(hints=[0, 2]))
    assert record.hints == [0, 2]
    path = tmp_path / "game.json"
    record.save(path)
    assert json.loads(path.read_text(encoding="utf-8"))["hints"] == [0, 2]
    assert GameRecord.load(path).hints == [0, 2]


def test_a_record_without_hints_leaves_the_field_out():
    record = GameRecord.from_json(record_json())
    assert record.hints == [] and "hints" not in record.to_json()


@pytest.mark.parametrize("hints, problem", [
    ("0", "must be a list"),
    ([True], "whole number"),
    ([1.0], "whole number"),
    ([-1], "numbered 0 to 3"),
    ([4], "numbered 0 to 3"),
    ([2, 1], "increasing order"),
    ([1, 1], "each action once"),
])
def test_bad_hints_are_refused_naming_the_item(hints, problem):
    with pytest.raises(RecordError, match=problem):
        GameRecord.from_json(record_json(hints=hints))


def test_hints_in_a_record_without_actions_are_refused():
    with pytest.raises(RecordError, match="no actions"):
        GameRecord.from_json({**record_json(hints=[0]), "actions": []})
