"""The table page's fragments follow the game: the status line says what to do (the board's
prompt), the seat panels show the running standings and who moved last, the board is told the
events of the step on display, and each move button carries its preview."""

from __future__ import annotations

from typing import Any

import pytest

from meeple.core.conformance import random_position
from meeple.core.protocol import Event
from meeple.core.registry import load
from meeple.server.web import render
from meeple.server.wire import seat_message

SEATS = [{"seat": k, "kind": "human", "name": name, "taken": True, "connected": 1}
         for k, name in enumerate(["Ana", "Ben", "Cai"])]


def _message(seat: int = 0, events: list[Event] | None = None, **extra: Any) -> dict[str, Any]:
    state = load("triqueta").new_game(3, seed=5)
    return seat_message(state, seat, 0, events or [], SEATS, {"status": "playing", **extra})


def test_the_status_says_your_turn_and_what_to_do(monkeypatch):
    seen: list[Any] = []

    def prompt(view, seat, legal, cat):
        seen.append((seat, len(legal)))
        return "Take a row of tokens or draw one"

    monkeypatch.setattr(render, "prompt_for", lambda game: prompt)
    parts = render.fragments("triqueta", _message(), "en")
    assert parts["status"] == "Your turn: Take a row of tokens or draw one"
    assert seen == [(0, 4)]  # the seat and its legal moves
    assert render.fragments("triqueta", _message(), "zh-Hant")["status"].startswith("輪到你：")


def test_the_status_is_just_your_turn_without_a_prompt(monkeypatch):
    monkeypatch.setattr(render, "prompt_for", lambda game: lambda view, seat, legal, cat: "")
    assert render.fragments("triqueta", _message(), "en")["status"] == "Your turn"


@pytest.mark.parametrize("game", ["triqueta", "triominos", "celtica", "castell"])
@pytest.mark.parametrize(("lang", "your_turn"), [("en", "Your turn"), ("zh-Hant", "輪到你")])
def test_the_status_says_your_turn_once(game, lang, your_turn):
    """The page puts "Your turn: " before the board's prompt, so no prompt may say it again (a
    Castell prompt did: "Your turn: Your turn: move your pawn …")."""
    for seed in range(6):
        state = random_position(load(game), 3, seed=seed, moves=seed * 7)
        if state.is_terminal:
            continue
        seat = state.current_player
        message = seat_message(state, seat, 0, [], SEATS, {"status": "playing"})
        status = render.fragments(game, message, lang)["status"]
        assert status.startswith(your_turn) and status.count(your_turn) == 1, status


def test_the_status_of_a_seat_not_to_move_asks_no_prompt(monkeypatch):
    monkeypatch.setattr(render, "prompt_for", lambda game: pytest.fail)
    assert render.fragments("triqueta", _message(seat=1), "en")["status"] == "Ana to move"


def test_each_seat_panel_shows_its_running_standing(monkeypatch):
    monkeypatch.setattr(render, "standings_for", lambda game: lambda view, cat: ["12 points", "3 points", "none"])
    clock = {"remaining_ms": [300_000, 290_000, 280_000], "running": 0}
    for message in (_message(), _message(clock=clock)):  # with a clock in the panels too
        players = render.fragments("triqueta", message, "en")["players"]
        assert [chunk.split("</span>")[0] for chunk in players.split('<span class="standing">')[1:]] == [
            "12 points", "3 points", "none"]


def test_no_standings_show_nothing(monkeypatch):
    monkeypatch.setattr(render, "standings_for", lambda game: lambda view, cat: [])
    assert "standing" not in render.fragments("triqueta", _message(), "en")["players"]


def test_the_seat_that_moved_last_is_marked():
    players = render.fragments("triqueta", _message(moved=2), "en")["players"]
    rows = players.split("<li ")[1:]
    assert ["moved-last" in row for row in rows] == [False, False, True]
    assert "moved last" in rows[2]
    assert "moved-last" not in render.fragments("triqueta", _message(), "en")["players"]


def test_the_board_is_told_the_events_on_display(monkeypatch):
    told: list[Any] = []

    def board(*args: Any, events: Any = ()) -> str:
        told.append(events)
        return ""

    monkeypatch.setattr(render, "board_for", lambda game: board)
    render.fragments("triqueta", _message(events=[Event("draw", 1, {"count": 1})]), "en")
    assert told == [[{"key": "draw", "player": 1, "params": {"count": 1}}]]


@pytest.mark.parametrize(("change", "en", "zh"), [
    (12, "Take row 1: +12 points", "+12 分"), (1, "Take row 1: +1 point", "+1 分"),
    (-5, "Take row 1: −5 points", "−5 分"), (0, "Take row 1: no points", "不得分"),
    (None, "Take row 1", "第 1 列")])
def test_each_move_button_carries_its_preview(change, en, zh):
    message = _message()
    for move in message["legal"]:
        move["score_change"] = change
    assert f'data-preview="{en}"' in render.fragments("triqueta", message, "en")["moves"]
    assert zh in render.fragments("triqueta", message, "zh-Hant")["moves"]
