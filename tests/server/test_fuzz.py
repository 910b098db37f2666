"""Fuzzing the server: the HTTP API from its own OpenAPI description (schemathesis) and the
WebSocket messages (hypothesis). No 5xx, no unhandled exception, no change from a rejected
message."""

from __future__ import annotations

import json
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error

from meeple.server.app import create_app
from meeple.server.botpool import BotPool
from meeple.server.sqlite_store import SQLiteStore
from tests.core.test_fuzz_loaders import no_hang

_FOLDER = Path(tempfile.mkdtemp(prefix="meeple-fuzz-"))
APP = create_app(SQLiteStore(_FOLDER / "fuzz.db"), BotPool(executor=ThreadPoolExecutor(1)))
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_http_api_never_fails_on_any_input(case: Any) -> None:
    case.call_and_validate(checks=[not_a_server_error])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8,
)
typed_messages = st.fixed_dictionaries(
    {"type": st.sampled_from(["act", "undo", "chat", "ping", "hello", "nope"])},  # leave: test_api
    optional={"version": json_values, "action": json_values, "action_id": json_values, "text": json_values,
              "credential": json_values, "extra": json_values},
)
messages = st.one_of(
    st.text(max_size=200),
    json_values.map(json.dumps),
    typed_messages.map(json.dumps),
)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(burst=st.lists(messages, min_size=1, max_size=5), as_spectator=st.booleans())
def test_websocket_messages_never_break_a_table(burst: list[str], as_spectator: bool) -> None:
    with no_hang(), TestClient(APP) as client:
        if not hasattr(test_websocket_messages_never_break_a_table, "table"):
            created = client.post("/api/tables", json={"game": "castell", "players": 2,
                                                       "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
            joined = client.post(f"/api/tables/{created['table_id']}/join",
                                 json={"join_code": created["join_code"], "name": "B"}).json()
            test_websocket_messages_never_break_a_table.table = (created["table_id"], joined["credential"])  # type: ignore[attr-defined]
        table, credential = test_websocket_messages_never_break_a_table.table  # type: ignore[attr-defined]
        before = client.get(f"/api/tables/{table}/state").json()
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            # Seat 1 is not to move (seat 0 is): nothing it sends can be a legal move.
            ws.send_text(json.dumps({"type": "hello"} if as_spectator else {"type": "hello", "credential": credential}))
            assert ws.receive_json()["type"] == "state"
            for text in burst:
                ws.send_text(text)
                answer = ws.receive_json()
                assert answer["type"] in ("error", "pong", "chat"), answer
                if answer["type"] == "error":
                    assert answer["code"] and answer["message"]
        after = client.get(f"/api/tables/{table}/state").json()
        assert after["version"] == before["version"] and after["view"] == before["view"]
