"""A limit on every door, over real HTTP and WebSocket connections to a real `meeple serve` on
loopback (docs/security.md): join-code guessing, creating tables, open tables,
live connections, tables with only bots, bot levels, the client's address behind a trusted
proxy, the host allowlist against DNS rebinding, and the chat limit shared over Redis.

A test that needs several clients uses `--forwarded-allow-ips 127.0.0.1` and names each client
in X-Forwarded-For, as a reverse proxy on the same machine would."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from meeple.server.sqlite_store import SQLiteStore
from tests.server.clients import DEADLINE, api, watch
from tests.server.live import Server
from tests.server.services import free_port, private_redis

pytestmark = pytest.mark.slow  # a `meeple serve` process per test

HUMANS2 = [{"kind": "human"}, {"kind": "human"}]
BOTS_ONLY = [{"kind": "bot", "bot": "ismcts:easy"}] * 3  # castell: a game of minutes


@contextmanager
def serving(folder: Path, *args: str, name: str = "server", **kwargs: Any) -> Iterator[Server]:
    """A `meeple serve` with these flags; its log must hold no traceback."""
    server = Server(folder, name=name, args=args, **kwargs)
    server.start()
    try:
        yield server
    finally:
        log = server.stop()
    assert "Traceback" not in log, log


def post(server: Server, path: str, body: dict[str, Any], client: str | None = None,
         credential: str | None = None) -> httpx.Response:
    """POST as `client` (named in X-Forwarded-For: believed only from a trusted proxy)."""
    headers = {"X-Forwarded-For": client} if client else {}
    if credential:
        headers["Authorization"] = f"Bearer {credential}"
    response = httpx.post(f"{server.url}{path}", json=body, headers=headers, timeout=30)
    assert response.status_code < 500, response.text
    return response


def create(server: Server, seats: Sequence[dict[str, Any]] = HUMANS2, game: str = "triqueta",
           client: str | None = None) -> httpx.Response:
    return post(server, "/api/tables", {"game": game, "players": len(seats), "seats": list(seats)}, client)


def join(server: Server, table: str, code: str, client: str | None = None) -> httpx.Response:
    return post(server, f"/api/tables/{table}/join", {"join_code": code, "name": "Guest"}, client)


def limited(response: httpx.Response, code: str, retry: bool = True) -> None:
    """The answer is a 429 refusal with `code`, saying when to retry if the limit lifts by itself."""
    assert response.status_code == 429, response.text
    body = response.json()
    assert body["type"] == "error" and body["code"] == code and body["message"], body
    if retry:
        assert 1 <= int(response.headers["Retry-After"]) <= 600, response.headers
    else:
        assert "Retry-After" not in response.headers


def seat_taken(server: Server, table: str, seat: int) -> bool:
    return bool(api(server, "GET", f"/api/tables/{table}").json()["seats"][seat]["taken"])


# -- join codes ---------------------------------------------------------------------------------
def test_the_eleventh_join_attempt_in_a_minute_is_refused_and_the_right_code_with_it(tmp_path):
    with serving(tmp_path) as server:  # the defaults: 10 a minute per client and table
        created = create(server).json()
        table = created["table_id"]
        for k in range(10):
            wrong = join(server, table, f"wrong-{k}")
            assert wrong.status_code == 403 and wrong.json()["code"] == "bad_join_code", wrong.text
        limited(join(server, table, "wrong-10"), "too_many")
        # The right code is refused too while the limit holds: else a 200 among the 429s would
        # tell a guesser which code was right.
        limited(join(server, table, created["join_code"]), "too_many")
        assert not seat_taken(server, table, 1)
        other = create(server).json()  # another table: its own count
        assert join(server, other["table_id"], other["join_code"]).status_code == 200


def test_join_attempts_at_one_table_are_limited_across_clients(tmp_path):
    flags = ("--forwarded-allow-ips", "127.0.0.1", "--join-attempts", "2", "--join-attempts-per-table", "5")
    with serving(tmp_path, *flags) as server:
        created = create(server).json()
        table = created["table_id"]
        for k in range(5):  # five clients, one wrong guess each: under their own limit of 2
            assert join(server, table, "wrong", client=f"203.0.113.{k}").status_code == 403
        limited(join(server, table, "wrong", client="203.0.113.9"), "too_many")  # a sixth client
        limited(join(server, table, created["join_code"], client="203.0.113.10"), "too_many")
        assert not seat_taken(server, table, 1)
        # Per client too: a client's hops left of the one the proxy appended are its own words.
        other = create(server).json()
        for spoof in ("198.51.100.1", "198.51.100.2"):
            assert join(server, other["table_id"], "wrong", client=f"{spoof}, 203.0.113.20").status_code == 403
        limited(join(server, other["table_id"], "wrong", client="198.51.100.3, 203.0.113.20"), "too_many")
        assert join(server, other["table_id"], other["join_code"], client="203.0.113.21").status_code == 200


def test_a_forwarded_for_header_from_an_untrusted_peer_is_ignored(tmp_path):
    """Without --forwarded-allow-ips, X-Forwarded-For from loopback names nobody (uvicorn's own
    handling would believe it from 127.0.0.1)."""
    with serving(tmp_path, "--join-attempts", "3") as server:
        table = create(server).json()["table_id"]
        for k in range(3):
            assert join(server, table, "wrong", client=f"192.0.2.{k}").status_code == 403
        limited(join(server, table, "wrong", client="192.0.2.99"), "too_many")


# -- creating tables ----------------------------------------------------------------------------
def test_the_twenty_first_table_in_ten_minutes_is_refused(tmp_path):
    with serving(tmp_path) as server:  # the defaults: 20 per 10 minutes, 20 open
        for _ in range(20):
            assert create(server).status_code == 201
        refused = create(server)
        limited(refused, "too_many")
        assert int(refused.headers["Retry-After"]) <= 600
        assert len(SQLiteStore(server.db).table_ids(True)) == 20  # nothing was created


def test_a_clients_unfinished_tables_are_capped_until_one_ends(tmp_path):
    with serving(tmp_path, "--open-tables", "2", "--tables", "50") as server:
        ending = create(server, [{"kind": "human"}, {"kind": "bot", "bot": "random"}]).json()
        assert create(server).status_code == 201
        limited(create(server), "too_many_tables", retry=False)
        # Leaving hands the seat to a bot: the bots finish the game, and the slot is free again.
        assert post(server, f"/api/tables/{ending['table_id']}/leave", {}, credential=ending["credential"]
                    ).status_code == 200
        deadline = time.monotonic() + DEADLINE
        while not api(server, "GET", f"/api/tables/{ending['table_id']}/state").json()["over"]:
            assert time.monotonic() < deadline, "the bots did not finish the game"
            time.sleep(0.2)
        assert create(server).status_code == 201
        limited(create(server), "too_many_tables", retry=False)


# -- bots ---------------------------------------------------------------------------------------
def test_tables_with_only_bots_are_capped_server_wide_even_after_a_restart(tmp_path):
    flags = ("--bot-tables", "1", "--forwarded-allow-ips", "127.0.0.1")
    with serving(tmp_path, *flags) as server:
        assert create(server, BOTS_ONLY, "castell", client="203.0.113.1").status_code == 201
        limited(create(server, BOTS_ONLY, "castell", client="203.0.113.2"), "no_bot_tables", retry=False)
        assert create(server, [{"kind": "human"}, *BOTS_ONLY[:2]], "castell", client="203.0.113.2").status_code == 201
        server.kill()
        server.start()  # the bots play on, and still count
        limited(create(server, BOTS_ONLY, "castell", client="203.0.113.3"), "no_bot_tables", retry=False)


def test_with_no_bot_tables_a_table_needs_a_person_and_bots_are_the_lobbys_levels(tmp_path):
    with serving(tmp_path, "--bot-tables", "0") as server:
        limited(create(server, [{"kind": "bot", "bot": "random"}] * 2), "no_bot_tables", retry=False)
        for spec in ("ismcts:1000000", "ismcts:300", "ismcts:hard,rollout=random", "mcts"):
            refused = create(server, [{"kind": "human"}, {"kind": "bot", "bot": spec}])
            assert refused.status_code == 422 and refused.json()["code"] == "bad_table", refused.text
            assert "ismcts:hard" in refused.json()["message"]  # it says what is offered
        for spec in ("random", "greedy", "ismcts:easy", "ismcts:normal", "ISMCTS:Hard"):
            assert create(server, [{"kind": "human"}, {"kind": "bot", "bot": spec}]).status_code == 201
        assert len(SQLiteStore(server.db).table_ids(True)) == 5


# -- live connections ---------------------------------------------------------------------------
def test_websocket_connections_per_client_are_capped(tmp_path):
    with serving(tmp_path, "--websockets", "2") as server:
        table = create(server).json()["table_id"]
        with watch(server, table), watch(server, table) as second:
            with pytest.raises(InvalidStatus) as refused:
                connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table}", open_timeout=DEADLINE)
            assert refused.value.response.status_code == 429
            assert json.loads(refused.value.response.body or b"{}")["code"] == "too_many_connections"
            second.close()
            deadline = time.monotonic() + DEADLINE
            while True:  # the server frees the slot as it sees the close
                try:
                    with watch(server, table):
                        break
                except InvalidStatus:
                    assert time.monotonic() < deadline, "the closed connection's slot was not freed"
                    time.sleep(0.1)


# -- host names and origins ---------------------------------------------------------------------
def ws_status(server: Server, host: str, origin: str | None, table: str) -> int:
    """The handshake's answer to a browser whose page is at `origin` and which reached this
    server under the name `host` (the name resolved to 127.0.0.1, as in DNS rebinding)."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=DEADLINE)
    try:
        with connect(f"ws://{host}/ws/tables/{table}", sock=sock, origin=Origin(origin) if origin else None,
                     open_timeout=DEADLINE) as ws:
            ws.send(json.dumps({"type": "hello"}))
            assert json.loads(ws.recv(timeout=DEADLINE))["type"] == "state"
            return 101
    except InvalidStatus as refused:
        assert json.loads(refused.response.body or b"{}")["type"] == "error"
        return int(refused.response.status_code)


def get_as(server: Server, host: str) -> httpx.Response:
    return httpx.get(f"{server.url}/api/games", headers={"Host": host}, timeout=30)


def test_dns_rebinding_is_refused_on_http_and_websocket_and_the_servers_own_names_work(tmp_path):
    with serving(tmp_path) as server:
        table = create(server).json()["table_id"]
        port = server.port
        evil = f"evil.example:{port}"
        refused = get_as(server, evil)
        assert refused.status_code == 400 and refused.json()["code"] == "bad_host", refused.text
        assert httpx.post(f"{server.url}/api/tables", json={"game": "triqueta", "players": 2},
                          headers={"Host": evil}).status_code == 400
        assert ws_status(server, evil, f"http://{evil}", table) == 400  # the rebinding pair
        for name in (f"127.0.0.1:{port}", f"localhost:{port}"):  # the server's own names
            assert get_as(server, name).status_code == 200
            assert ws_status(server, name, f"http://{name}", table) == 101
        assert ws_status(server, f"127.0.0.1:{port}", None, table) == 101  # a program sends no Origin
        assert ws_status(server, f"127.0.0.1:{port}", f"http://{evil}", table) == 403  # another site's page
        assert ws_status(server, f"localhost:{port}", f"http://127.0.0.1:{port}", table) == 403  # another origin


def test_the_allowed_hosts_behind_a_proxy_and_the_warning_when_none_are_given(tmp_path):
    flags = ("--allowed-host", "games.example", "--origin", "https://friends.example")
    with serving(tmp_path, *flags, name="proxied") as server:
        table = create(server).json()["table_id"]
        assert get_as(server, "games.example").status_code == 200  # nginx's Host $host: no port
        assert get_as(server, f"localhost:{server.port}").status_code == 400  # the list replaces the defaults
        assert get_as(server, f"127.0.0.1:{server.port}").status_code == 200  # an address cannot be rebound
        assert ws_status(server, "games.example", "https://games.example", table) == 101
        assert ws_status(server, "games.example", "https://friends.example", table) == 101
        assert ws_status(server, "games.example", "https://evil.example", table) == 403
    with serving(tmp_path, "--host", "0.0.0.0", name="everywhere") as server:
        assert get_as(server, f"games.example:{server.port}").status_code == 400
        assert get_as(server, f"127.0.0.1:{server.port}").status_code == 200
    warnings = [line for line in (tmp_path / "everywhere.log").read_text().splitlines() if "warning" in line]
    assert len(warnings) == 1 and "--allowed-host" in warnings[0], warnings
    assert "warning" not in (tmp_path / "proxied.log").read_text()


# -- several processes --------------------------------------------------------------------------
def test_the_chat_and_join_limits_are_shared_by_processes_over_one_redis(tmp_path):
    flags = ("--chat-lines", "3", "--chat-window", "60", "--join-attempts", "2")
    db = str(tmp_path / "meeple.db")
    with private_redis(tmp_path) as redis, \
            serving(tmp_path, *flags, db=db, redis=redis.url, name="a") as a, \
            serving(tmp_path, *flags, db=db, redis=redis.url, name="b") as b:
        created = create(a).json()
        table, credential = created["table_id"], created["credential"]
        said = [post(server, f"/api/tables/{table}/chat", {"text": f"line {k}"}, credential=credential).status_code
                for k, server in enumerate((a, b, a))]
        assert said == [200, 200, 200]
        for server in (b, a):
            limited(post(server, f"/api/tables/{table}/chat", {"text": "one more"}, credential=credential), "too_fast")
        assert join(a, table, "wrong").status_code == 403
        assert join(b, table, "wrong").status_code == 403
        limited(join(a, table, created["join_code"]), "too_many")


@pytest.mark.parametrize(("flags", "message"), [
    (["--forwarded-allow-ips", "10.0.0.0/33"], "--forwarded-allow-ips '10.0.0.0/33': not an address or network"),
    (["--allowed-host", "games.example:443"], "--allowed-host 'games.example:443': give a host name"),
    (["--tables-window", "0"], "--tables-window must be 1 second or more"),
    (["--join-attempts", "-1"], "--join-attempts must be 0 or more"),
    (["--review", "fast"], "--review must be one of default, quick, not 'fast'"),
    (["--review-seconds-per-move", "0"], "--review-seconds-per-move must be more than 0 and at most 3600"),
    (["--review-seconds-per-move", "nan"], "--review-seconds-per-move must be more than 0 and at most 3600"),
    (["--reviews-running", "-1"], "--reviews-running must be 0 or more"),
])
def test_a_bad_setting_stops_serve_with_one_line(tmp_path, flags, message):
    done = subprocess.run([sys.executable, "-m", "meeple", "serve", "--port", str(free_port()), *flags],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith(f"meeple: error: {message}"), done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
