"""Regression tests for what the server once did with hostile input, each named after its
finding: 2 (a 500 on NaN, a lone surrogate or a huge `since`), 3 (strings taken for numbers,
unknown fields inside an action ignored), 4 (errors in FastAPI's shape, not the documented one)
and 7 (a binary WebSocket frame dropped the socket with a traceback). Each checks the documented
refusal `{"type": "error", "code", "message"}` and that the table did not change.

The test client keeps `raise_server_exceptions` on, so an exception the application lets out
fails the test with its traceback; finding 7 is tested over a real socket as well, where the
witness is the server's log (`tests.server.served`)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from meeple.server.app import create_app
from meeple.server.botpool import BotPool
from meeple.server.sqlite_store import SQLiteStore
from tests.server.conftest import bearer, hub_of, state
from tests.server.served import served
from tests.server.services import throwaway_postgres
from tests.server.test_fuzz import GENEROUS

HUMANS2 = [{"kind": "human"}, {"kind": "human"}]
AS_JSON = {"content-type": "application/json"}


@pytest.fixture(params=["sqlite", "postgresql"])
def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """A test client of an application over SQLite, then over a throwaway PostgreSQL database."""
    with ExitStack() as stack:
        if request.param == "sqlite":
            store: Any = SQLiteStore(tmp_path / "meeple.db")
        else:
            from meeple.server.postgres_store import PostgresStore

            store = PostgresStore(stack.enter_context(throwaway_postgres()))
        stack.callback(store.close)
        app = create_app(store, BotPool(executor=ThreadPoolExecutor(1)), config=GENEROUS)
        yield stack.enter_context(TestClient(app))


def refused(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    """The response is the documented refusal, with `status` (and `code`, if given)."""
    assert response.status_code == status, response.text
    answer: dict[str, Any] = response.json()
    assert set(answer) == {"type", "code", "message"} and answer["type"] == "error", answer
    assert answer["message"] and answer["code"] == (code or answer["code"]), answer
    return answer


def two_people(client: httpx.Client) -> tuple[str, list[str], str]:
    """A triqueta table with both seats taken: its id, the credentials and the join code."""
    created = client.post("/api/tables", json={"game": "triqueta", "players": 2, "seats": HUMANS2}).json()
    joined = client.post(f"/api/tables/{created['table_id']}/join",
                         json={"join_code": created["join_code"], "name": "B"}).json()
    return created["table_id"], [created["credential"], joined["credential"]], created["join_code"]


def everything(client: TestClient, table: str) -> tuple[dict[str, Any], list[Any]]:
    """What a refusal must leave as it was: the table and its chat."""
    return state(client, table), client.get(f"/api/tables/{table}/chat").json()


def hello(ws: Any, credential: str | None) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "hello", "credential": credential} if credential else {"type": "hello"}))
    first: dict[str, Any] = ws.receive_json()
    assert first["type"] == "state", first
    return first


# -- finding 2: a 500 on bad input ------------------------------------------------------------


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity"])
def test_finding_2_non_finite_players_are_a_422_in_the_documented_shape(client: TestClient, number: str) -> None:
    body = '{"game": "triqueta", "players": %s}' % number  # noqa: UP031 (the JSON text itself)
    answer = refused(client.post("/api/tables", content=body, headers=AS_JSON), 422, "bad_request")
    assert number in answer["message"]
    assert client.get("/api/tables").json() == []


def test_finding_2_non_finite_numbers_in_a_websocket_message_are_refused(client: TestClient) -> None:
    table, credentials, _ = two_people(client)
    before = state(client, table)
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        hello(ws, credentials[0])
        for text in ('{"type": "act", "version": NaN, "action_id": 0}',
                     '{"type": "act", "version": 0, "action": {"type": "take", "row": Infinity}}'):
            ws.send_text(text)
            assert ws.receive_json()["code"] == "bad_message"
    assert state(client, table) == before


AWKWARD = ["\ud800", "a\udfffb", "\x00", "line\nbreak", "\x1b[31m", "\u0085"]


def test_finding_2_lone_surrogates_and_control_characters_are_refused_in_every_text_field(
        any_store: TestClient) -> None:
    client = any_store
    table, credentials, join_code = two_people(client)
    before = everything(client, table)
    for bad in AWKWARD:
        _refuse_everywhere(client, table, credentials, join_code, bad)
    assert everything(client, table) == before
    assert hub_of(client).store.table_ids(True) == [table]  # nothing was created


def _refuse_everywhere(client: TestClient, table: str, credentials: list[str], join_code: str, bad: str) -> None:
    """`bad` in each text field a client fills, over HTTP and the WebSocket: refused each time.
    (json.dumps writes a lone surrogate as the escape \\ud800, exactly what a client can send.)"""
    for path, body in (("/api/tables", {"game": "triqueta", "players": 2, "name": bad}),
                       ("/api/tables", {"game": bad, "players": 2}),
                       ("/api/tables", {"game": "triqueta", "players": 2, "options": {bad: True}}),
                       ("/api/tables", {"game": "triqueta", "players": 2, "seats": [{"kind": "bot", "bot": bad}] * 2}),
                       (f"/api/tables/{table}/join", {"join_code": bad, "name": "C"}),
                       (f"/api/tables/{table}/join", {"join_code": join_code, "name": bad})):
        refused(client.post(path, content=json.dumps(body), headers=AS_JSON), 422, "bad_request")
    response = client.post(f"/api/tables/{table}/chat", content=json.dumps({"text": bad}),
                           headers={**AS_JSON, **bearer(credentials[0])})
    refused(response, 422, "bad_request")
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        hello(ws, credentials[0])
        ws.send_text(json.dumps({"type": "chat", "text": bad}))
        assert ws.receive_json()["code"] == "bad_message"
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_text(json.dumps({"type": "hello", "credential": bad}))
        assert ws.receive_json()["code"] == "bad_hello"


def test_finding_2_since_is_a_whole_number_of_at_most_63_bits(any_store: TestClient) -> None:
    client = any_store
    table, credentials, _ = two_people(client)
    client.post(f"/api/tables/{table}/chat", headers=bearer(credentials[0]), json={"text": "hi"})
    for since in (str(2**63), str(2**64), "-1", "1.0", " 1", "+1", "1e3", "0x10", "\u0663", "true", ""):
        refused(client.get(f"/api/tables/{table}/chat", params={"since": since}), 422, "bad_request")
    assert client.get(f"/api/tables/{table}/chat", params={"since": str(2**63 - 1)}).json() == []
    assert [line["text"] for line in client.get(f"/api/tables/{table}/chat", params={"since": "0"}).json()] == ["hi"]


def test_a_number_in_a_path_is_written_in_ascii_digits(client: TestClient) -> None:
    table, _, _ = two_people(client)
    for move in ("1.0", "-1", "1e3", "\u0663", str(2**63)):
        refused(client.get(f"/tables/{table}/replay/{move}"), 422, "bad_request")
    refused(client.get(f"/tables/{table}/replay/0"), 409, "not_over")  # a number: the page answers


# -- finding 3: lax types -------------------------------------------------------------------


@pytest.mark.parametrize("body", [
    {"version": "0", "action_id": "0"}, {"version": "0", "action_id": 0}, {"version": 0, "action_id": "0"},
    {"version": 0.0, "action_id": 0}, {"version": 0, "action_id": 0.0}, {"version": False, "action_id": 0},
    {"version": 0, "action_id": True}, {"version": 0, "action_id": 2**63}, {"version": 2**63, "action_id": 0},
])
def test_finding_3_a_number_must_be_a_json_integer_over_http_and_websocket(client: TestClient,
                                                                           body: dict[str, Any]) -> None:
    table, credentials, _ = two_people(client)
    before = state(client, table)
    refused(client.post(f"/api/tables/{table}/actions", headers=bearer(credentials[0]), json=body), 422,
            "bad_request")
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        hello(ws, credentials[0])
        ws.send_text(json.dumps({"type": "act", **body}))
        assert ws.receive_json()["code"] == "bad_message"
    assert state(client, table) == before


@pytest.mark.parametrize("body", [
    {"game": "triqueta", "players": "2"}, {"game": "triqueta", "players": 2.0}, {"game": "triqueta", "players": True},
    {"game": "triqueta", "players": 2, "public": 1}, {"game": "triqueta", "players": 2, "seats": {"0": {}}},
    {"game": "triqueta", "players": 2, "seats": [{"kind": "human", "extra": 1}, {"kind": "human"}]},
    {"game": "triqueta", "players": 2, "clock": "\u0663\u0660\u0660+5"},
])
def test_finding_3_creating_a_table_coerces_nothing(client: TestClient, body: dict[str, Any]) -> None:
    refused(client.post("/api/tables", json=body), 422, "bad_request")
    assert client.get("/api/tables").json() == []


def _refused_move(client: TestClient, action: dict[str, Any]) -> None:
    """`action` made by the seat to move, over HTTP and the WebSocket: refused, nothing changed."""
    table, credentials, _ = two_people(client)
    before = state(client, table)
    assert {"type": "take", "row": 0} in [move["action"] for move in state(client, table, credentials[0])["legal"]]
    refused(client.post(f"/api/tables/{table}/actions", headers=bearer(credentials[0]),
                        json={"version": before["version"], "action": action}), 422, "illegal")
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        hello(ws, credentials[0])
        ws.send_text(json.dumps({"type": "act", "version": before["version"], "action": action}))
        assert ws.receive_json()["code"] == "illegal"
    assert state(client, table) == before


@pytest.mark.parametrize("action", [
    {"type": "take", "row": 0, "extra": {}}, {"type": "take", "row": 0, "slot": 0}, {"type": "draw", "row": 0},
])
def test_finding_3_an_unknown_field_inside_an_action_is_refused(client: TestClient, action: dict[str, Any]) -> None:
    _refused_move(client, action)


@pytest.mark.parametrize("row", [True, 0.0, "0", [0], None])
def test_a_number_inside_an_action_is_never_coerced(client: TestClient, row: Any) -> None:
    _refused_move(client, {"type": "take", "row": row})


# -- finding 4: one shape for every error ---------------------------------------------------


def test_finding_4_every_error_has_the_documented_shape(client: TestClient) -> None:
    table, credentials, _ = two_people(client)
    refused(client.post("/api/tables", json={"game": "triqueta"}), 422, "bad_request")
    refused(client.post("/api/tables", json={"game": "triqueta", "players": 2, "surprise": 1}), 422, "bad_request")
    refused(client.post("/api/tables", content=b"not json", headers=AS_JSON), 422, "bad_request")
    refused(client.post("/api/tables", content=b"\xff\xfe", headers=AS_JSON), 422, "bad_request")
    refused(client.post("/api/tables", content=b"[" * 10_000 + b"]" * 10_000, headers=AS_JSON), 413, "too_large")
    refused(client.post("/api/tables", content=b"[" * 5_000 + b"]" * 5_000, headers=AS_JSON), 422, "bad_request")
    refused(client.post("/api/tables", content=b'{"players": 1' + b"0" * 5000 + b"}", headers=AS_JSON), 422)
    refused(client.get("/no/such/page"), 404, "not_found")
    refused(client.get("/static/no-such-file.js"), 404, "not_found")
    refused(client.delete(f"/api/tables/{table}"), 405, "method_not_allowed")
    refused(client.get(f"/api/tables/{table}/chat?since=x"), 422, "bad_request")
    refused(client.get("/api/tables/nope"), 404, "no_table")
    refused(client.get("/api/tables/" + "x" * 2000), 404, "no_table")
    refused(client.post(f"/api/tables/{table}/undo", headers=bearer(credentials[0]), json={}), 422, "bad_request")
    echoed = refused(client.post("/api/tables", json={"game": "triqueta", "players": 2, "x" * 10_000: 1}), 422)
    assert len(echoed["message"]) <= 300  # what the client sent is never echoed at length


def test_finding_4_a_chunked_body_is_held_to_the_same_limit(client: TestClient) -> None:
    body = json.dumps({"game": "triqueta", "players": 2, "name": "x" * 20_000}).encode()
    chunks = iter([body[:10_000], body[10_000:]])  # no Content-Length for the middleware to check
    refused(client.post("/api/tables", content=chunks, headers=AS_JSON), 413, "too_large")


# -- finding 7: binary WebSocket frames ------------------------------------------------------


def test_finding_7_a_binary_frame_is_answered_then_closed_cleanly(client: TestClient) -> None:
    table, credentials, _ = two_people(client)
    before = state(client, table)
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        hello(ws, credentials[0])
        ws.send_bytes(json.dumps({"type": "ping"}).encode())
        assert ws.receive_json()["code"] == "binary"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1003
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_bytes(b"\x00\xff")  # in place of the hello
        assert ws.receive_json()["code"] == "binary"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1003
    assert state(client, table) == before


def test_finding_7_over_a_real_socket_a_binary_frame_leaves_no_traceback_in_the_log(tmp_path: Path) -> None:
    app = create_app(SQLiteStore(tmp_path / "meeple.db"), BotPool(executor=ThreadPoolExecutor(1)), config=GENEROUS)
    with served(app) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        table, credentials, _ = two_people(http)
        for greeting in (json.dumps({"type": "hello", "credential": credentials[0]}), None):
            with connect(f"{server.ws_url}/ws/tables/{table}", open_timeout=30) as ws:
                if greeting:
                    ws.send(greeting)
                    assert json.loads(ws.recv(timeout=30))["type"] == "state"
                ws.send(b'{"type": "ping"}')
                assert json.loads(ws.recv(timeout=30))["code"] == "binary"
                with pytest.raises(ConnectionClosed) as closed:
                    ws.recv(timeout=30)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1003
        assert not server.problems.records, "\n".join(server.problems.lines())


# -- found by the fuzzers: headers the host check could not read ----------------------------


def test_a_host_or_origin_the_host_check_cannot_read_is_refused_not_a_500(tmp_path: Path) -> None:
    app = create_app(SQLiteStore(tmp_path / "meeple.db"), BotPool(executor=ThreadPoolExecutor(1)), config=GENEROUS)
    with served(app) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        for host in (b"localhost:\xb2", b"127.0.0.1:\xb9"):  # superscripts: str.isdigit() says yes, int() no
            refused(http.get("/api/games", headers=[(b"host", host)]), 400, "bad_host")
        for origin in ("http://[", "http://localhost:\xb2"):  # no URL; a port in superscript
            with pytest.raises(InvalidStatus) as denied:
                connect(f"{server.ws_url}/ws/tables/nope", open_timeout=30, origin=Origin(origin))
            assert denied.value.response.status_code == 403
            assert json.loads(denied.value.response.body or b"{}")["code"] == "bad_origin"
        assert not server.problems.records, "\n".join(server.problems.lines())
