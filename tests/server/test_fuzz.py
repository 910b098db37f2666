"""Fuzzing the server over a real socket (`tests.server.served`), on SQLite and on PostgreSQL:
the HTTP API from its own OpenAPI description (schemathesis, valid and invalid requests), then
the inputs most likely to break a server (hypothesis) over HTTP and the WebSocket: NaN and
Infinity as raw JSON text, lone surrogates and other Unicode edge cases, integers beyond 64
bits, deep nesting, strings near and over the 16 KB limit, invalid UTF-8, binary frames.

Every answer is below 500 and strict JSON; every error has the one documented shape
`{"type": "error", "code", "message"}`; a refused request leaves the table as it was; and the
server logs no error and no traceback (uvicorn logs an application's exception where a client
would only see a dropped connection, so the log is the witness, not the answer alone)."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from meeple.server.app import create_app
from meeple.server.botpool import BotPool
from meeple.server.config import ServerConfig
from meeple.server.sqlite_store import SQLiteStore
from tests.server.served import Served, served
from tests.server.services import throwaway_postgres

pytestmark = pytest.mark.slow  # a served application fuzzed over HTTP and WebSocket

#: The fuzzers create many tables from one address: no rate limit may get in their way.
GENEROUS = ServerConfig(tables_per_window=10**6, open_tables_per_client=10**6, join_attempts_per_client=10**6,
                        join_attempts_per_table=10**6, bot_tables=10**6, websockets_per_client=10**6,
                        allowed_hosts=("testserver",))  # the test client's name (addresses are always let in)
LIMIT = 16 * 1024
FUZZ = settings(deadline=None, suppress_health_check=list(HealthCheck))

SCHEMA = schemathesis.openapi.from_dict(
    create_app(SQLiteStore(Path(tempfile.mkdtemp(prefix="meeple-fuzz-")) / "schema.db")).openapi())


@dataclass
class Live:
    """A served application and two tables on it, both seats taken by people at each: `table`
    for the tests that require it unchanged, `spare` for the schema's requests (which may leave
    a seat to a bot, whose moves come later)."""

    server: Served
    http: httpx.Client
    table: str
    credentials: list[str]
    spare: str
    spare_credential: str

    def look(self) -> dict[str, Any]:
        answer: dict[str, Any] = self.http.get(f"/api/tables/{self.table}/state").json()
        return answer

    def clean_log(self) -> None:
        assert not self.server.problems.records, "\n".join(self.server.problems.lines())


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def live(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    with ExitStack() as stack:
        if request.param == "sqlite":
            store: Any = SQLiteStore(tmp_path_factory.mktemp("fuzz") / "fuzz.db")
        else:
            from meeple.server.postgres_store import PostgresStore

            store = PostgresStore(stack.enter_context(throwaway_postgres()))
        stack.callback(store.close)
        # The test trusts itself as a reverse proxy, so X-Forwarded-For is read (and fuzzed) too.
        config = replace(GENEROUS, forwarded_allow_ips=("127.0.0.1",))
        server = stack.enter_context(served(create_app(store, BotPool(executor=ThreadPoolExecutor(1)), config=config)))
        http = stack.enter_context(httpx.Client(base_url=server.url, timeout=30))
        tables = []
        for _ in range(2):
            created = http.post("/api/tables", json={
                "game": "triqueta", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
            joined = http.post(f"/api/tables/{created['table_id']}/join",
                               json={"join_code": created["join_code"], "name": "B"}).json()
            tables.append((created["table_id"], [created["credential"], joined["credential"]]))
        yield Live(server, http, *tables[0], spare=tables[1][0], spare_credential=tables[1][1][1])


def _strict_json(body: bytes) -> Any:
    def refuse(name: str) -> Any:
        raise AssertionError(f"the answer holds {name}, which is not JSON")

    return json.loads(body, parse_constant=refuse)


def assert_answer(status: int, body: bytes, content_type: str = "application/json") -> None:
    """No 5xx; strict JSON; an error in the one shape."""
    assert status < 500, body[:500]
    if status < 400:
        if content_type.startswith("application/json"):
            _strict_json(body)
        return
    answer = _strict_json(body)
    assert set(answer) == {"type", "code", "message"} and answer["type"] == "error", answer
    assert isinstance(answer["code"], str) and answer["code"] and isinstance(answer["message"], str), answer
    assert len(answer["message"]) <= 300, answer
    answer["message"].encode("utf-8")


# -- the API as its schema describes it --------------------------------------------------------


@SCHEMA.parametrize()
@SCHEMA.given(real=st.booleans())
@settings(FUZZ, max_examples=30)
def test_the_http_api_never_fails_on_any_input(case: Any, real: bool, live: Live) -> None:
    headers = {}
    if real:  # half the requests reach a real table, as its second seat
        if case.path_parameters and "table_id" in case.path_parameters:
            case.path_parameters["table_id"] = live.spare
        headers["Authorization"] = f"Bearer {live.spare_credential}"
    response = case.call(base_url=live.server.url, headers=headers)
    assert_answer(response.status_code, response.content, "".join(response.headers.get("content-type", [])))
    live.clean_log()


# -- the inputs that break servers -------------------------------------------------------------

#: Text no server should choke on: lone surrogates, NUL and other controls, noncharacters,
#: astral characters, combining marks, direction overrides, a byte-order mark.
awkward_text = st.one_of(
    st.text(st.characters(codec=None), max_size=20),
    st.sampled_from(["\ud800", "a\udfffb", "\x00", "\u0085", "\ufffe\uffff", "\U0001f3b2" * 3, "e\u0301",
                     "\u202eevil", "\ufeff", "\r\n", "\\", '"', ""]),
)
#: Raw JSON text for one value: what Python's reader takes but JSON has not, numbers past
#: 64 bits, numbers of the wrong kind, awkward text (escaped, so even a lone surrogate is sent),
#: deep nesting, and strings just under and over the body limit.
raw_values = st.one_of(
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-0.0", "1.0", "0.5", "true", "false", "null",
                     "[]", "{}", '"0"', '"1"', str(2**63 - 1), str(2**63), str(2**64), str(-(2**63) - 1),
                     "1" + "0" * 400, "9" * 4400]),
    st.integers(-(2**80), 2**80).map(str),
    awkward_text.map(json.dumps),
    st.integers(1, 5000).map(lambda n: "[" * n + "]" * n),
    st.integers(1, 2000).map(lambda n: '{"a":' * n + "0" + "}" * n),
    st.integers(-40, 40).map(lambda n: json.dumps("x" * (LIMIT - 40 + n))),
)


def _object(fields: dict[str, str]) -> str:
    """A JSON object's text from its keys and its values' raw text."""
    return "{" + ",".join(f"{json.dumps(k)}:{v}" for k, v in fields.items()) + "}"


def _bodies(base: dict[str, str]) -> st.SearchStrategy[bytes]:
    """`base` (field: raw JSON text) with one field's value replaced by a raw value, or one
    field added, or the whole body replaced; as bytes, sometimes not UTF-8 at all."""
    def joined(fields: dict[str, str]) -> bytes:
        return _object(fields).encode()

    return st.one_of(
        st.tuples(st.sampled_from(sorted(base)), raw_values).map(lambda kv: joined({**base, kv[0]: kv[1]})),
        st.tuples(awkward_text, raw_values).map(lambda kv: joined({**base, kv[0]: kv[1]})),
        raw_values.map(str.encode),
        st.sampled_from([b"\xed\xa0\x80", b"\xff\xfe{}", b'{"name": "\xc3"}', b"", b"\x00"]),
    )


def _action_bodies(version: int) -> st.SearchStrategy[bytes]:
    """Moves with an awkward value inside the action (or an unknown field there)."""
    base = {"type": '"take"', "row": "0"}
    inner = st.one_of(
        st.tuples(st.sampled_from(sorted(base)), raw_values).map(lambda kv: {**base, kv[0]: kv[1]}),
        st.tuples(awkward_text, raw_values).map(lambda kv: {**base, kv[0]: kv[1]}),
    )
    return inner.map(lambda fields: f'{{"version":{version},"action":{_object(fields)}}}'.encode())


@st.composite
def http_requests(draw: st.DrawFn, live: Live, version: int) -> tuple[str, str, bytes, int | None]:
    """(method, path, body, seat whose credential goes along or None)."""
    table = f"/api/tables/{live.table}"
    kind = draw(st.sampled_from(["create", "join", "act", "act-inside", "undo", "chat", "since", "path"]))
    if kind == "create":
        return "POST", "/api/tables", draw(_bodies({"game": '"triqueta"', "players": "2", "name": '"A"',
                                                    "clock": '"none"'})), None
    if kind == "join":
        return "POST", f"{table}/join", draw(_bodies({"join_code": '"abc"', "name": '"C"', "seat": "1"})), None
    if kind == "act":
        body = draw(_bodies({"version": str(version), "action_id": "0"}))
        return "POST", f"{table}/actions", body, draw(st.sampled_from([0, 1]))
    if kind == "act-inside":
        return "POST", f"{table}/actions", draw(_action_bodies(version)), draw(st.sampled_from([0, 1]))
    if kind == "undo":
        return "POST", f"{table}/undo", draw(_bodies({"version": str(version)})), draw(st.sampled_from([0, 1]))
    if kind == "chat":
        return "POST", f"{table}/chat", draw(_bodies({"text": '"hi"'})), draw(st.sampled_from([0, 1]))
    value = quote(draw(st.one_of(raw_values.map(str.encode),
                                 awkward_text.map(lambda s: s.encode("utf-8", "surrogatepass"))))[:3000], safe="")
    if kind == "since":
        return "GET", f"{table}/chat?since={value}", b"", None
    return "GET", f"/api/tables/{value}", b"", None


@settings(FUZZ, max_examples=80)
@given(data=st.data(), transfer=st.sampled_from(["sized", "chunked"]))
def test_awkward_http_inputs_are_refused_in_one_shape_and_change_nothing(live: Live, data: st.DataObject,
                                                                         transfer: str) -> None:
    before = live.look()
    method, path, body, seat = data.draw(http_requests(live, before["version"]))
    headers = {"content-type": "application/json"}
    if seat is not None:
        headers["Authorization"] = f"Bearer {live.credentials[seat]}"
    content: Any = body if transfer == "sized" else iter([body[:len(body) // 2], body[len(body) // 2:]])
    response = live.http.request(method, path, content=content, headers=headers)
    assert_answer(response.status_code, response.content, response.headers.get("content-type", ""))
    if response.status_code >= 400:
        after = live.look()
        assert (after["version"], after["view"]) == (before["version"], before["view"])
    live.clean_log()


#: WebSocket messages: awkward JSON text, a message with an awkward field, or a binary frame.
#: (No leave: it hands the seat to a bot, whose moves would change the table later.)
ws_messages = st.one_of(
    raw_values,
    st.tuples(st.sampled_from(["act", "undo", "chat", "ping", "hello"]),
              st.sampled_from(["version", "action_id", "action", "text", "type", "credential", "extra"]),
              raw_values.filter(lambda text: text != '"leave"')).map(lambda t: f'{{"type":"{t[0]}","{t[1]}":{t[2]}}}'),
    st.tuples(st.sampled_from(["row", "type", "extra"]), raw_values).map(
        lambda kv: f'{{"type":"act","version":0,"action":{{"type":"take","row":0,"{kv[0]}":{kv[1]}}}}}'),
    st.binary(max_size=64),
)


def _answer(ws: Any) -> tuple[dict[str, Any] | None, int | None]:
    """The next message (None once closed) and, once closed, the close code the server sent."""
    try:
        return _strict_json(ws.recv(timeout=30).encode()), None
    except ConnectionClosed as closed:
        assert closed.rcvd is not None, "the server dropped the connection without a close frame"
        return None, closed.rcvd.code


#: How the server closes a socket after an error: a binary frame, a message too big, and any
#: error before the hello was accepted.
CLOSE_CODES = {"binary": 1003, "too_large": 1009}


@settings(FUZZ, max_examples=50)
@given(burst=st.lists(ws_messages, min_size=1, max_size=4), hello=st.booleans(), seat=st.sampled_from([0, 1, None]))
def test_awkward_websocket_messages_are_refused_in_one_shape_and_change_nothing(
        live: Live, burst: list[str | bytes], hello: bool, seat: int | None) -> None:
    before = live.look()
    with connect(f"{live.server.ws_url}/ws/tables/{live.table}", open_timeout=30) as ws:
        if hello:  # else the first awkward message stands for the hello
            ws.send(json.dumps({"type": "hello"} if seat is None else {"type": "hello",
                                                                       "credential": live.credentials[seat]}))
            first, _ = _answer(ws)
            assert first is not None and first["type"] == "state"
        for message in burst:
            ws.send(message)
            answer, _ = _answer(ws)
            if answer is None:  # closed: only after an error said why
                break
            assert answer["type"] in ("error", "pong", "chat", "state"), answer
            if answer["type"] == "error":
                assert set(answer) == {"type", "code", "message"} and answer["code"], answer
                assert (answer["code"] == "binary") == isinstance(message, bytes), answer
                if answer["code"] in CLOSE_CODES or not hello:
                    assert _answer(ws) == (None, CLOSE_CODES.get(answer["code"], 1008))
                    break
            elif answer["type"] == "state" and not hello:
                hello = True  # the first message was a valid hello after all
            if answer["type"] == "state" and answer["version"] != before["version"]:
                before = live.look()  # a legal move, made by the seat to move: a new baseline
    after = live.look()
    assert (after["version"], after["view"]) == (before["version"], before["view"])
    live.clean_log()


#: Header values as HTTP carries them (Latin-1 without control characters or a space at either
#: end: anything else the HTTP parser refuses before the application sees it), and the awkward
#: ones for a host, an origin or a forwarded address: brackets left open, a port written in
#: superscript digits (which str.isdigit takes and int() does not), no port, a huge one.
header_text = st.one_of(
    st.text(st.characters(codec="latin-1", exclude_categories=["Cc"]), max_size=60).map(str.strip),
    st.sampled_from(["127.0.0.1:\xb2", "localhost:\xb3", "[::1", "[::1]x", "[", "::1", "localhost:0",
                     "localhost:99999",
                     "http://[", "http://[::1", "http://localhost:\xb2", "http://127.0.0.1:\xb9", "null", "file://",
                     "1.2.3.4, unknown", ",,,", "a" * 300, "Bearer", "Bearer \xff"]),
)


@settings(FUZZ, max_examples=60)
@given(host=header_text, origin=header_text, forwarded=header_text, authorization=header_text)
def test_awkward_headers_are_refused_in_one_shape(live: Live, host: str, origin: str, forwarded: str,
                                                  authorization: str) -> None:
    headers = [(b"host", host.encode("latin-1")), (b"origin", origin.encode("latin-1")),
               (b"x-forwarded-for", forwarded.encode("latin-1")), (b"authorization", authorization.encode("latin-1"))]
    response = live.http.get(f"/api/tables/{live.table}/state", headers=headers)
    assert_answer(response.status_code, response.content, response.headers.get("content-type", ""))
    if origin.isascii() and origin.isprintable() and forwarded.isascii() and forwarded.isprintable():
        try:
            with connect(f"{live.server.ws_url}/ws/tables/{live.table}", open_timeout=30,
                         origin=Origin(origin) if origin else None,
                         additional_headers={"X-Forwarded-For": forwarded}) as ws:
                ws.send(json.dumps({"type": "hello"}))
                assert _answer(ws)[0] is not None
        except InvalidStatus as refusal:
            assert_answer(refusal.response.status_code, bytes(refusal.response.body or b"{}"))
    live.clean_log()
