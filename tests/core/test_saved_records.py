"""Records saved by earlier versions of meeple replay to the same final position.

The fixtures were made by the engines before the games were reshaped (one module skeleton,
fields declared once): each holds a record and what it replayed to then. A view may gain keys
later; every key it had must keep its value, under today's name (`as_today`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from meeple.core.record import GameRecord
from meeple.core.registry import load

FIXTURES = sorted((Path(__file__).parent.parent / "fixtures" / "records").glob("*.json"))


def _contains(new: object, old: object) -> bool:
    """`new` equals `old` except that dicts in `new` may hold extra keys."""
    if isinstance(old, dict):
        return isinstance(new, dict) and all(k in new and _contains(new[k], v) for k, v in old.items())
    if isinstance(old, list):
        return isinstance(new, list) and len(new) == len(old) and all(map(_contains, new, old))
    return new == old


def as_today(view: dict[str, Any]) -> dict[str, Any]:
    """An old view in today's names: the envelope every view shares (meeple.core.views) calls
    Triqueta's `finished` and `viewer` and Castell's `you` `over` and `seat`, a finished game
    has no `phase`, and Triominos' open cells and opening draws became records."""
    view = dict(view)
    for old, new in (("finished", "over"), ("viewer", "seat"), ("you", "seat")):
        if old in view:
            view[new] = view.pop(old)
    if view.get("phase") == "over":
        view["phase"] = None
    if view["game"] == "triominos":
        view["open"] = [{"x": x, "y": y, "dir": d} for x, y, d in view["open"]]
        view["opening"] = [[{"seat": s, "tile": t} for s, t in go] for go in view["opening"]]
    return view


def test_old_view_names_are_read_as_today():
    old = {"game": "triominos", "seat": 0, "phase": "over", "open": [[1, -1, "up"]], "opening": [[[0, "0-0-0"]]]}
    assert as_today(old) == {"game": "triominos", "seat": 0, "phase": None, "open": [{"x": 1, "y": -1, "dir": "up"}],
                             "opening": [[{"seat": 0, "tile": "0-0-0"}]]}
    assert as_today({"game": "triqueta", "finished": True, "viewer": None}) == {"game": "triqueta", "over": True,
                                                                                "seat": None}


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
        assert _contains(new, as_today(old))


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_saved_actions_are_written_back_as_they_were_saved(path: Path) -> None:
    """Each game's actions are declared once (meeple.core.actionfields) and their JSON form is
    the one records, the server's wire and the browser have always read: key for key, in order."""
    record = json.loads(path.read_text(encoding="utf-8"))["record"]
    game = load(record["game"])
    for raw in record["actions"]:
        assert list(game.action_from_json(raw).to_json().items()) == list(raw.items())
