"""How the process tests talk to a real `meeple serve`: REST calls, tables, moves, and
WebSocket clients, as a program using the API would."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from tests.server.live import Server

#: How long a test waits for something that should happen promptly (never a timing assertion).
DEADLINE = 30.0


def api(server: Server, method: str, path: str, credential: str | None = None, **kwargs: Any) -> Any:
    headers = {"Authorization": f"Bearer {credential}"} if credential else {}
    response = httpx.request(method, f"{server.url}{path}", headers=headers, timeout=30, **kwargs)
    assert response.status_code < 500, response.text
    return response


def new_table(server: Server, game: str, seats: list[dict[str, Any]]) -> tuple[str, list[str]]:
    """A new table with every person's seat taken: its id and the persons' credentials in seat order."""
    created = api(server, "POST", "/api/tables", json={"game": game, "players": len(seats), "seats": seats}).json()
    credentials = [created["credential"]]
    for k in range(1, sum(1 for s in seats if s["kind"] == "human")):
        joined = api(server, "POST", f"/api/tables/{created['table_id']}/join",
                     json={"join_code": created["join_code"], "name": f"P{k}"}).json()
        credentials.append(joined["credential"])
    return created["table_id"], credentials


def look(server: Server, table_id: str, credential: str | None = None) -> dict[str, Any]:
    found: dict[str, Any] = api(server, "GET", f"/api/tables/{table_id}/state", credential).json()
    return found


def move(server: Server, table_id: str, credentials: list[str]) -> dict[str, Any]:
    """One move by whichever person is to move; the answer the server acknowledged it with."""
    seat = look(server, table_id)["to_move"]
    mine = look(server, table_id, credentials[seat])
    answer: dict[str, Any] = api(server, "POST", f"/api/tables/{table_id}/actions", credentials[seat],
                                 json={"version": mine["version"], "action_id": mine["legal"][0]["id"]}).json()
    return answer


def version(server: Server, table_id: str) -> int:
    return int(look(server, table_id)["version"])


def wait_until_version(server: Server, table_id: str, above: int, what: str, seconds: float = DEADLINE) -> int:
    """Poll until the table is past version `above`; its version then."""
    deadline = time.monotonic() + seconds
    while (now := version(server, table_id)) <= above:
        assert time.monotonic() < deadline, what
        time.sleep(0.2)
    return now


@contextmanager
def watch(server: Server, table_id: str, credential: str | None = None) -> Iterator[ClientConnection]:
    """A WebSocket client of the table, past its hello and first state message."""
    with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}") as ws:
        ws.send(json.dumps({"type": "hello", "credential": credential} if credential else {"type": "hello"}))
        assert json.loads(ws.recv(timeout=DEADLINE))["type"] == "state"
        yield ws


def state_at(ws: ClientConnection, at_least: int, seconds: float = DEADLINE) -> dict[str, Any]:
    """The first state message the client receives at version `at_least` or later."""
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no state at version {at_least} arrived"
        try:
            message: dict[str, Any] = json.loads(ws.recv(timeout=left))
        except TimeoutError:
            continue
        if message["type"] == "state" and message["version"] >= at_least:
            return message


def take_turn(server: Server, table_id: str, credential: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Wait for the credential's turn (bots move meanwhile), then make its first legal move: the
    action sent and the answer that acknowledged it (or, once the game is over, ({}, the state))."""
    deadline = time.monotonic() + DEADLINE
    while True:
        mine = look(server, table_id, credential)
        if mine["over"]:
            return {}, mine
        if mine["legal"]:
            action = mine["legal"][0]["action"]
            answer = api(server, "POST", f"/api/tables/{table_id}/actions", credential,
                         json={"version": mine["version"], "action": action})
            if answer.status_code == 200:
                return action, answer.json()
            assert answer.json()["code"] == "stale", answer.text  # a bot moved first: look again
        assert time.monotonic() < deadline, "the turn did not come"
        time.sleep(0.1)
