"""What a move will do, before the click: the score change sent with each legal move is worked
out from the mover's own information only, the same whatever the unseen tiles, cards and tokens
are; and the server's own notices (a join, an undo) stay in the log a reload shows."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.core.conformance import random_position
from meeple.core.registry import load
from meeple.core.rng import Rng
from meeple.server.previews import preview_seed, score_changes
from tests.server.conftest import bearer, create, state

GAMES = ("triqueta", "triominos", "celtica", "castell")
#: Positions along a game: the start, the middle and near the end of a random walk.
WALKS = (0, 5, 17, 40, 90)


def _positions(game: str) -> list[Any]:
    found = []
    for seed in (1, 2):
        for moves in WALKS:
            position = random_position(load(game), 3, seed, moves, walk_seed=seed * 7 + moves)
            if not position.is_terminal:
                found.append(position)
    return found


@pytest.mark.parametrize("game", GAMES)
def test_a_preview_is_the_same_whatever_the_unseen_things_are(game):
    """Two states the mover cannot tell apart (the true one and a re-dealt one: the same view)
    get the same preview: it cannot say anything about what the mover does not see."""
    compared = 0
    for position in _positions(game):
        seat = position.current_player
        seeds = [preview_seed("table", 3, seat, k) for k in range(2)]
        for redeal in (11, 12):
            other = position.determinize(seat, Rng(redeal))
            assert other.view(seat) == position.view(seat)
            assert score_changes(other, seat, seeds) == score_changes(position, seat, seeds)
            compared += 1
    assert compared >= 6


@pytest.mark.parametrize("game", GAMES)
def test_every_legal_move_has_a_preview_for_the_seat_to_move(game):
    for position in _positions(game):
        seat = position.current_player
        changes = score_changes(position, seat, [preview_seed("t", 0, seat, 0)])
        assert set(changes) == set(position.legal_action_ids())
        assert score_changes(position, (seat + 1) % 3, [1]) == {}  # not that seat's turn: nothing


def test_a_preview_is_the_mover_s_score_change():
    """Triqueta's row taking (T-rules: a pair of one animal scores its two-token value) shows the
    change the move makes: the samples agree, so the figure is sent."""
    game = load("triqueta")
    for seed in range(40):
        position = random_position(game, 3, seed, 12, walk_seed=seed)
        if position.is_terminal:
            continue
        seat = position.current_player
        changes = score_changes(position, seat, [preview_seed("t", 12, seat, k) for k in range(2)])
        for action in position.legal_actions():
            after = position.clone()
            after.apply(action)
            change = changes[position.action_id(action)]
            if action.to_json()["type"] == "take":  # nothing unseen decides what a row scores
                assert change == after.scores()[seat] - position.scores()[seat]


def _two_people(client: TestClient, game: str) -> tuple[str, list[str]]:
    created = create(client, game, 2, seats=[{"kind": "human"}, {"kind": "human"}])
    joined = client.post(f"/api/tables/{created['table_id']}/join",
                         json={"join_code": created["join_code"], "name": "Ben"}).json()
    return created["table_id"], [created["credential"], joined["credential"]]


def test_the_state_message_sends_each_legal_move_s_score_change_to_the_seat_to_move(client):
    table, credentials = _two_people(client, "triqueta")
    mine = state(client, table, credentials[0])
    assert mine["to_move"] == 0 and mine["legal"]
    assert all("score_change" in move for move in mine["legal"])
    assert all(move["score_change"] is None or isinstance(move["score_change"], int) for move in mine["legal"])
    assert state(client, table, credentials[1])["legal"] == []  # not Ben's turn: no moves, no previews


def _first_message(client: TestClient, table: str, credential: str, render: str | None) -> dict[str, Any]:
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        hello = {"type": "hello", "credential": credential, **({"render": render} if render else {})}
        ws.send_text(json.dumps(hello))
        while True:
            message: dict[str, Any] = json.loads(ws.receive_text())
            if message["type"] == "state":
                return message


def test_only_a_page_s_websocket_pays_for_previews(client):
    """A script's or a bot's WebSocket (no `render`) gets the moves without `score_change`: the
    search behind it costs milliseconds per message that only a person at a page needs."""
    table, credentials = _two_people(client, "triqueta")
    plain = _first_message(client, table, credentials[0], None)
    page = _first_message(client, table, credentials[0], "en")
    assert plain["legal"] and all("score_change" not in move for move in plain["legal"])
    assert page["legal"] and all("score_change" in move for move in page["legal"])


def test_a_bot_s_seat_gets_no_previews(client):
    created = create(client, "castell", 2, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    table = created["table_id"]
    seen = state(client, table, created["credential"])
    assert seen["legal"] and all("score_change" in move for move in seen["legal"])
    client.post(f"/api/tables/{table}/leave", headers=bearer(created["credential"]))
    assert all("score_change" not in move for move in state(client, table, created["credential"])["legal"])


def test_the_history_holds_the_join_and_the_undo_in_order(client):
    """The server's own notices are in the log a late connection (a reload) hears, in order with
    the game's events: the join before any move, the undo after the moves kept."""
    table, credentials = _two_people(client, "castell")
    seen = state(client, table, credentials[0])  # seat 0 moves without revealing anything
    move = next(m for m in seen["legal"] if m["action"]["type"] == "move")
    client.post(f"/api/tables/{table}/actions", headers=bearer(credentials[0]),
                json={"version": seen["version"], "action_id": move["id"]})
    deadline = time.monotonic() + 10
    while not (seen := state(client, table, credentials[0]))["can_undo"]:  # decided in a worker
        assert time.monotonic() < deadline
        time.sleep(0.05)
    undone = client.post(f"/api/tables/{table}/undo", headers=bearer(credentials[0]), json={"version": seen["version"]})
    assert undone.status_code == 200, undone.text
    with client.websocket_connect(f"/ws/tables/{table}") as late:
        late.send_text(json.dumps({"type": "hello", "credential": credentials[1]}))
        history = late.receive_json()["history"]
    keys = [event["key"] for event in history]
    assert keys[0] == "joined" and keys[-1] == "undo", keys
    assert history[0]["params"]["name"] == "Ben" and history[-1]["player"] == 0
