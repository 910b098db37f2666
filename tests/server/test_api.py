"""A table played through the HTTP API and the WebSocket alone, as a client program would."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.core.record import GameRecord
from tests.server.conftest import bearer, create, state

HUMANS2 = [{"kind": "human"}, {"kind": "human"}]
FORBIDDEN_KEYS = ("seed", "rng", "credential", "credential_hash", "join_code", "join_code_hash", "actions")


def _keys(value: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            found.add(key)
            found |= _keys(item)
    elif isinstance(value, list):
        for item in value:
            found |= _keys(item)
    return found


def _two_people(client: TestClient, game: str = "triqueta", players: int = 2, **extra: Any) -> tuple[str, list[str]]:
    created = create(client, game, players, seats=[{"kind": "human"}] * players, **extra)
    credentials = [created["credential"]]
    for k in range(1, players):
        joined = client.post(f"/api/tables/{created['table_id']}/join",
                             json={"join_code": created["join_code"], "name": f"Friend {k}"})
        assert joined.status_code == 200, joined.text
        assert joined.json()["seat"] == k
        credentials.append(joined.json()["credential"])
    return created["table_id"], credentials


def _play_to_the_end(client: TestClient, table: str, credentials: list[str], limit: int = 5000) -> dict[str, Any]:
    for _ in range(limit):
        seen = state(client, table)
        if seen["over"]:
            return seen
        seat = seen["to_move"]
        mine = state(client, table, credentials[seat])
        move = mine["legal"][0]
        response = client.post(f"/api/tables/{table}/actions", headers=bearer(credentials[seat]),
                               json={"version": mine["version"], "action_id": move["id"]})
        assert response.status_code == 200, response.text
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", ["triqueta", "triominos", "celtica", "castell"])
def test_a_whole_game_through_the_api_and_its_record_replays(client, game):
    table, credentials = _two_people(client, game)
    assert client.get(f"/api/tables/{table}/record").status_code == 409  # not before the end
    final = _play_to_the_end(client, table, credentials)
    record = client.get(f"/api/tables/{table}/record")
    assert record.status_code == 200
    replayed = GameRecord.from_json(record.json()).replay()
    assert replayed.is_terminal
    assert replayed.scores() == final["result"]["scores"] and replayed.winners() == final["result"]["winners"]


def test_the_game_starts_when_every_person_is_seated(client):
    created = create(client, seats=HUMANS2)
    table = created["table_id"]
    seen = state(client, table, created["credential"])
    assert seen["status"] == "waiting" and seen["legal"] == []
    refused = client.post(f"/api/tables/{table}/actions", headers=bearer(created["credential"]),
                          json={"version": 0, "action_id": 0})
    assert refused.status_code == 409 and refused.json()["code"] == "waiting"
    assert client.post(f"/api/tables/{table}/join", json={"join_code": "wrong", "name": "x"}).status_code == 403
    client.post(f"/api/tables/{table}/join", json={"join_code": created["join_code"], "name": "Ana"})
    assert state(client, table, created["credential"])["status"] == "playing"
    full = client.post(f"/api/tables/{table}/join", json={"join_code": created["join_code"], "name": "Late"})
    assert full.status_code == 409 and full.json()["code"] == "table_full"


def test_listing_and_spectators_hold_no_secrets(client):
    created = create(client, "triominos", 2, public=True)
    listing = client.get("/api/tables").json()
    assert [t["id"] for t in listing] == [created["table_id"]]
    assert created["credential"] not in json.dumps(listing) and created["join_code"] not in json.dumps(listing)
    watched = state(client, created["table_id"])
    assert watched["seat"] is None and watched["legal"] == []
    assert not _keys(watched) & set(FORBIDDEN_KEYS), _keys(watched) & set(FORBIDDEN_KEYS)


def test_a_stale_or_illegal_move_is_refused_and_changes_nothing(client):
    table, credentials = _two_people(client)
    before = state(client, table)
    for body, code in (({"version": before["version"] + 1, "action_id": 0}, "stale"),
                       ({"version": before["version"], "action_id": 19}, "illegal"),
                       ({"version": before["version"], "action": {"type": "take", "row": 9}}, "illegal"),
                       ({"version": before["version"], "action": {"type": ["take"]}}, "illegal"),
                       ({"version": before["version"]}, "bad_action")):
        response = client.post(f"/api/tables/{table}/actions", headers=bearer(credentials[0]), json=body)
        assert response.status_code in (409, 422), response.text
        assert response.json()["code"] == code
    assert state(client, table) == before


def test_a_credential_acts_only_for_its_own_seat(client):
    table, credentials = _two_people(client)
    other = client.post(f"/api/tables/{table}/actions", headers=bearer(credentials[1]),
                        json={"version": 0, "action_id": 5})
    assert other.status_code == 409 and other.json()["code"] == "not_your_turn"
    for headers in ({}, bearer("not-a-credential")):
        response = client.post(f"/api/tables/{table}/actions", headers=headers, json={"version": 0, "action_id": 5})
        assert response.status_code == 401
    _, second = _two_people(client)
    assert client.get(f"/api/tables/{table}/state", headers=bearer(second[0])).status_code == 401


def test_unknown_fields_wrong_types_and_big_bodies_are_refused(client):
    assert client.post("/api/tables", json={"game": "triqueta", "players": 2, "surprise": 1}).status_code == 422
    assert client.post("/api/tables", json={"game": "triqueta", "players": "two"}).status_code == 422
    assert client.post("/api/tables", json={"game": "chess", "players": 2}).status_code == 422
    duo3 = {"game": "triqueta", "players": 3, "options": {"duo": True}}
    assert client.post("/api/tables", json=duo3).status_code == 422
    as_json = {"content-type": "application/json"}
    assert client.post("/api/tables", content=b"{" * 20_000, headers=as_json).status_code == 413
    assert client.post("/api/tables", content=b"not json", headers=as_json).status_code == 422
    assert client.get("/api/tables/nope").status_code == 404


def test_bots_move_on_the_server_and_each_move_arrives_on_its_own(client):
    created = create(client, "triqueta", 3, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"},
                                                   {"kind": "bot", "bot": "random"}])
    table, credential = created["table_id"], created["credential"]
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_text(json.dumps({"type": "hello", "credential": credential}))
        first = ws.receive_json()
        assert first["type"] == "state" and first["seat"] == 0 and first["to_move"] == 0
        ws.send_text(json.dumps({"type": "act", "version": first["version"], "action_id": first["legal"][0]["id"]}))
        versions = []
        while True:
            message = ws.receive_json()
            if message["type"] == "undo":  # my move revealed nothing: I may take it back
                continue
            assert message["type"] == "state"
            versions.append(message["version"])
            if message["to_move"] == 0 or message["over"]:
                break
        assert versions == list(range(first["version"] + 1, versions[-1] + 1))  # one message per move
        assert versions[-1] >= first["version"] + 2  # both bots moved


def test_websocket_second_tab_and_spectator_see_moves_live(client):
    table, credentials = _two_people(client)
    with client.websocket_connect(f"/ws/tables/{table}") as tab1, \
            client.websocket_connect(f"/ws/tables/{table}") as tab2, \
            client.websocket_connect(f"/ws/tables/{table}") as watcher:
        tab1.send_text(json.dumps({"type": "hello", "credential": credentials[0]}))
        tab2.send_text(json.dumps({"type": "hello", "credential": credentials[0]}))
        watcher.send_text(json.dumps({"type": "hello"}))
        start = tab1.receive_json()
        assert tab2.receive_json()["view"] == start["view"]  # (the connection counts differ)
        assert watcher.receive_json()["seat"] is None
        tab1.send_text(json.dumps({"type": "act", "version": start["version"], "action_id": start["legal"][-1]["id"]}))
        moved = [tab1.receive_json(), tab2.receive_json(), watcher.receive_json()]
        assert {m["version"] for m in moved} == {start["version"] + 1}
        assert moved[0]["view"] == moved[1]["view"]
        assert moved[2]["seat"] is None and moved[2]["legal"] == []


def test_websocket_errors_go_to_the_sender_alone_and_change_nothing(client):
    table, credentials = _two_people(client)
    with client.websocket_connect(f"/ws/tables/{table}") as me, client.websocket_connect(f"/ws/tables/{table}") as you:
        me.send_text(json.dumps({"type": "hello", "credential": credentials[0]}))
        start = me.receive_json()
        you.send_text(json.dumps({"type": "hello", "credential": credentials[1]}))
        you.receive_json()
        assert me.receive_json()["seats"][1]["connected"] == 1  # told that seat 1 is here now
        for bad in ("not json", json.dumps({"type": "act"}), json.dumps({"type": "dance"}),
                    json.dumps({"type": "act", "version": start["version"], "action_id": 0, "extra": 1}),
                    json.dumps({"type": "act", "version": start["version"] + 3, "action_id": 0}),
                    json.dumps({"type": "act", "version": start["version"], "action_id": 999})):
            me.send_text(bad)
            answer = me.receive_json()
            assert answer["type"] == "error" and answer["code"], answer
        you.send_text(json.dumps({"type": "act", "version": start["version"], "action_id": 0}))
        assert you.receive_json()["code"] == "not_your_turn"
        me.send_text(json.dumps({"type": "ping"}))
        assert me.receive_json() == {"type": "pong"}  # nothing else was sent to me meanwhile
    assert state(client, table)["version"] == start["version"]


def test_websocket_hello_must_come_first_and_be_valid(client):
    table, _ = _two_people(client)
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_text(json.dumps({"type": "hello", "credential": "forged"}))
        assert ws.receive_json()["code"] == "bad_credential"
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_text("[]")
        assert ws.receive_json()["code"] == "bad_hello"


def test_websocket_refuses_other_origins(client):
    table, _ = _two_people(client)
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect), \
            client.websocket_connect(f"/ws/tables/{table}", headers={"origin": "http://evil.example"}) as ws:
        ws.receive_json()
    with client.websocket_connect(f"/ws/tables/{table}", headers={"origin": "http://testserver"}) as ws:
        ws.send_text(json.dumps({"type": "hello"}))
        assert ws.receive_json()["type"] == "state"


def test_oversized_messages_and_floods_close_the_socket_and_leave_the_table_unharmed(client):
    table, credentials = _two_people(client)
    from starlette.websockets import WebSocketDisconnect

    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_text(json.dumps({"type": "hello", "credential": credentials[0]}))
        ws.receive_json()
        ws.send_text(json.dumps({"type": "chat", "text": "x" * 20_000}))
        assert ws.receive_json()["code"] == "too_large"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_text(json.dumps({"type": "hello", "credential": credentials[0]}))
        ws.receive_json()
        codes = []
        with pytest.raises(WebSocketDisconnect):
            for _ in range(200):
                ws.send_text(json.dumps({"type": "ping"}))
            while True:
                codes.append(ws.receive_json().get("code"))
        assert "flood" in codes
    assert state(client, table)["version"] == 0


def test_chat_is_plain_text_bounded_and_rate_limited(client):
    table, credentials = _two_people(client)
    say = f"/api/tables/{table}/chat"
    assert client.post(say, headers=bearer(credentials[0]), json={"text": "<b>hi</b> & <script>"}).status_code == 200
    assert client.post(say, headers=bearer(credentials[0]), json={"text": "x" * 501}).status_code == 422
    assert client.post(say, headers=bearer(credentials[0]), json={"text": "   "}).status_code == 422
    lines = client.get(say).json()
    assert lines[0]["text"] == "<b>hi</b> & <script>" and lines[0]["seat"] == 0  # stored as typed, never as HTML
    codes = [client.post(say, headers=bearer(credentials[1]), json={"text": f"{k}"}).status_code for k in range(7)]
    assert codes[:5] == [200] * 5 and codes[5] == 429


def test_a_person_who_leaves_is_replaced_by_a_bot_and_everyone_is_told(client):
    table, credentials = _two_people(client)
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_text(json.dumps({"type": "hello", "credential": credentials[1]}))
        ws.receive_json()
        assert client.post(f"/api/tables/{table}/leave", headers=bearer(credentials[0])).status_code == 200
        again = client.post(f"/api/tables/{table}/leave", headers=bearer(credentials[0]))
        assert again.status_code == 409 and again.json()["code"] == "left"  # every request is answered
        told = ws.receive_json()
        assert [e["key"] for e in told["events"]] == ["seat_replaced"]
        assert told["seats"][0]["left"] and told["seats"][0]["bot"] == "greedy"
        while True:  # the bot now plays seat 0 until seat 1 is to move
            message = ws.receive_json()
            if message["to_move"] == 1 or message["over"]:
                break
        assert message["version"] >= 1


def test_a_person_out_of_time_is_replaced_by_a_bot(client):
    table, credentials = _two_people(client, clock="1+0")
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_text(json.dumps({"type": "hello", "credential": credentials[1]}))
        first = ws.receive_json()
        assert first["clock"]["running"] == 0
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            message = ws.receive_json()
            if any(e["key"] == "seat_replaced" for e in message.get("events", [])):
                assert message["events"][0]["params"]["reason"] == "timeout"
                break
        else:
            raise AssertionError("seat 0 was not replaced after its second ran out")


def _first_of(legal: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(m for m in legal if m["action"]["type"] == kind)


def test_undo_takes_back_a_public_move_and_every_seat_sees_the_old_position(client):
    """Castell: placing the pawn reveals nothing, so it can be taken back (core.undo's rule)."""
    table, credentials = _two_people(client, "castell")
    before = [state(client, table, c) for c in credentials]
    assert not before[0]["can_undo"]
    moved = client.post(f"/api/tables/{table}/actions", headers=bearer(credentials[0]),
                        json={"version": 0, "action": _first_of(before[0]["legal"], "move")["action"]})
    assert moved.status_code == 200
    deadline = time.monotonic() + 30  # the move is examined in a worker; undo is offered once it is
    while not state(client, table, credentials[0])["can_undo"]:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert not state(client, table, credentials[1])["can_undo"]  # not the other seat's move
    theirs = client.post(f"/api/tables/{table}/undo", headers=bearer(credentials[1]), json={"version": 1})
    assert theirs.status_code == 409
    undone = client.post(f"/api/tables/{table}/undo", headers=bearer(credentials[0]), json={"version": 1})
    assert undone.status_code == 200, undone.text
    after = [state(client, table, c) for c in credentials]
    assert [a["version"] for a in after] == [0, 0]
    assert [a["view"] for a in after] == [b["view"] for b in before]


def test_a_draw_is_a_checkpoint_undo_cannot_cross(client):
    """Triqueta: drawing shows the drawer a hidden token, so nothing before it comes back."""
    table, credentials = _two_people(client, "triqueta")
    seen = state(client, table, credentials[0])
    client.post(f"/api/tables/{table}/actions", headers=bearer(credentials[0]),
                json={"version": 0, "action": _first_of(seen["legal"], "draw")["action"]})
    after = state(client, table, credentials[0])
    assert not after["can_undo"]
    refused = client.post(f"/api/tables/{table}/undo", headers=bearer(credentials[0]), json={"version": 1})
    assert refused.status_code == 409 and refused.json()["code"] == "no_undo"
    assert state(client, table, credentials[0])["version"] == 1


def test_undo_is_refused_once_the_next_player_has_moved(client):
    table, credentials = _two_people(client, "castell")
    for seat in (0, 1):
        seen = state(client, table, credentials[seat])
        move = _first_of(seen["legal"], "move")["action"]
        assert client.post(f"/api/tables/{table}/actions", headers=bearer(credentials[seat]),
                           json={"version": seen["version"], "action": move}).status_code == 200
        seen = state(client, table, credentials[seat])
        end = _first_of(seen["legal"], "end_turn")["action"]
        assert client.post(f"/api/tables/{table}/actions", headers=bearer(credentials[seat]),
                           json={"version": seen["version"], "action": end}).status_code == 200
    assert not state(client, table, credentials[0])["can_undo"]  # seat 1 has acted since
    undone = client.post(f"/api/tables/{table}/undo", headers=bearer(credentials[1]), json={"version": 4})
    assert undone.status_code == 200, undone.text  # seat 0 has not acted yet
    assert state(client, table, credentials[1])["version"] == 2


def _hello(credentials: list[str], seat: int | None) -> str:
    return json.dumps({"type": "hello", **({"credential": credentials[seat]} if seat is not None else {})})


@pytest.mark.parametrize("game", ["triominos", "celtica"])
def test_a_late_connection_hears_the_whole_log_as_its_seat_may_see_it(client, game):
    """A reload or a second tab: the first message's `history` is exactly what a connection
    open from the start heard, event by event, for that seat (secret draws stay secret)."""
    table, credentials = _two_people(client, game)
    heard: dict[int | None, list[dict[str, Any]]] = {0: [], 1: [], None: []}
    sockets = {seat: client.websocket_connect(f"/ws/tables/{table}") for seat in heard}
    opened = {seat: socket.__enter__() for seat, socket in sockets.items()}
    try:
        for seat, ws in opened.items():
            ws.send_text(_hello(credentials, seat))
            # Before any move, the log holds the server's own notice of the join.
            heard[seat] = ws.receive_json()["history"]
            assert heard[seat] == [{"key": "joined", "player": 1, "params": {"name": "Friend 1"}}]
        for _ in range(8):
            seen = state(client, table)
            mover = seen["to_move"]
            mine = state(client, table, credentials[mover])
            move = next((m for m in mine["legal"] if m["action"]["type"] == "draw"), mine["legal"][0])  # a secret
            client.post(f"/api/tables/{table}/actions", headers=bearer(credentials[mover]),
                        json={"version": mine["version"], "action_id": move["id"]})
            for seat, ws in opened.items():
                message = ws.receive_json()
                while message["type"] != "state" or message["version"] != mine["version"] + 1:
                    message = ws.receive_json()  # chat, or a seat arriving (the players panel)
                heard[seat] += message["events"]
    finally:
        for socket in sockets.values():
            socket.__exit__(None, None, None)
    assert heard[0] and not any(event.get("private") for event in heard[None])  # a spectator hears no secret
    for seat in heard:
        with client.websocket_connect(f"/ws/tables/{table}") as late:
            late.send_text(_hello(credentials, seat))
            assert late.receive_json()["history"] == heard[seat], seat


@pytest.mark.parametrize("game", ["triqueta", "triominos", "celtica", "castell"])
def test_the_replay_names_the_players_by_their_names(client, game):
    """The replay of a finished game draws each seat with its player's name, as the table did,
    never a placeholder such as "P0" or "Won by P1"."""
    table, credentials = _two_people(client, game)
    _play_to_the_end(client, table, credentials)
    for move in (0, 1, client.get(f"/api/tables/{table}").json()["version"]):
        page = client.get(f"/tables/{table}/replay/{move}")
        assert page.status_code == 200, page.text
        assert "Friend 1" in page.text, move
        assert not re.search(r"\bP[0-9]\b", page.text), move
