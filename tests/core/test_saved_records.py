"""Records saved by earlier versions of meeple replay to the same final position.

The fixtures were made by the engines before the games were reshaped (one module skeleton,
fields declared once): each holds a record and what it replayed to then. A view may gain keys
later; every key it had must keep its value.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meeple.core.record import GameRecord

FIXTURES = sorted((Path(__file__).parent.parent / "fixtures" / "records").glob("*.json"))


def _contains(new: object, old: object) -> bool:
    """`new` equals `old` except that dicts in `new` may hold extra keys."""
    if isinstance(old, dict):
        return isinstance(new, dict) and all(k in new and _contains(new[k], v) for k, v in old.items())
    if isinstance(old, list):
        return isinstance(new, list) and len(new) == len(old) and all(map(_contains, new, old))
    return new == old


def test_there_are_saved_records_of_every_game() -> None:
    games = {json.loads(p.read_text())["record"]["game"] for p in FIXTURES}
    assert games == {"triqueta", "triominos", "celtica", "castell"}


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_a_saved_record_replays_to_the_same_final_position(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    state = GameRecord.from_json(data["record"]).replay()
    expected = data["expected"]
    assert state.is_terminal
    assert state.scores() == expected["scores"]
    assert state.winners() == expected["winners"]
    assert state.score_breakdown() == expected["breakdown"]
    views = [state.view(None)] + [state.view(s) for s in range(state.num_players)]
    for new, old in zip(views, expected["views"]):
        assert _contains(new, old)
