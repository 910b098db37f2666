"""`meeple serve --db postgresql://...` as a real process: the database cut off mid-game (through
a TCP proxy the test owns) and given back, without restarting the server."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from meeple.core.record import GameRecord
from meeple.server.postgres_store import POOL_TIMEOUT, PostgresStore
from meeple.server.running import RETRY_SECONDS
from tests.server.clients import api, new_table
from tests.server.live import Server
from tests.server.services import POSTGRES_PORT, free_port, throwaway_postgres
from tests.server.tcp_proxy import TcpProxy
from tests.server.test_postgres_store import PASSWORD, through, until

pytestmark = pytest.mark.slow  # `meeple serve` processes over a PostgreSQL that is cut and restored

UNAVAILABLE = "the database cannot be reached: nothing was changed; try again shortly"


def test_serve_with_the_database_down_exits_with_one_clear_line(tmp_path: Path) -> None:
    url = f"postgresql://postgres:{PASSWORD}@127.0.0.1:{free_port()}/meeple"
    done = subprocess.run([sys.executable, "-m", "meeple", "serve", "--port", str(free_port()), "--db", url],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("meeple: error: PostgreSQL store postgresql://127.0.0.1:")
    assert "cannot be reached" in lines[0]
    assert PASSWORD not in done.stderr + done.stdout


def _next_move(server: Server, table: str, credentials: list[str]) -> tuple[int, dict[str, Any]]:
    """The seat to move, and the body of a move it may make now."""
    seat = api(server, "GET", f"/api/tables/{table}/state").json()["to_move"]
    mine = api(server, "GET", f"/api/tables/{table}/state", credentials[seat]).json()
    return seat, {"version": mine["version"], "action": mine["legal"][0]["action"]}


def _post(server: Server, table: str, credential: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{server.url}/api/tables/{table}/actions", json=body, timeout=60,
                      headers={"Authorization": f"Bearer {credential}"})


def test_a_cut_database_refuses_moves_and_play_resumes_when_it_is_back(tmp_path: Path) -> None:
    with throwaway_postgres() as url, TcpProxy(POSTGRES_PORT) as proxy:
        server = Server(tmp_path, db=through(proxy, url))
        server.start()
        try:
            table, credentials = new_table(server, "triqueta", [{"kind": "human"}, {"kind": "human"}])
            acknowledged: list[dict[str, Any]] = []
            for _ in range(4):
                seat, body = _next_move(server, table, credentials)
                assert _post(server, table, credentials[seat], body).status_code == 200
                acknowledged.append(body["action"])

            seat, body = _next_move(server, table, credentials)
            with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table}") as ws:
                ws.send(json.dumps({"type": "hello", "credential": credentials[seat]}))
                assert json.loads(ws.recv(timeout=30))["version"] == body["version"]
                before = api(server, "GET", f"/api/tables/{table}/state", credentials[seat]).json()
                proxy.cut()

                refused = _post(server, table, credentials[seat], body)
                assert refused.status_code == 503
                assert refused.json() == {"type": "error", "code": "unavailable", "message": UNAVAILABLE}
                ws.send(json.dumps({"type": "act", **body}))
                assert json.loads(ws.recv(timeout=60)) == {"type": "error", "code": "unavailable",
                                                           "message": UNAVAILABLE}
                assert api(server, "GET", f"/api/tables/{table}/state", credentials[seat]).json() == before

                proxy.restore()
                # The same server process: its pool reconnects on the next call.
                until(lambda: _post(server, table, credentials[seat], body).status_code == 200,
                      "no move was accepted after the database came back")
                acknowledged.append(body["action"])
                told = json.loads(ws.recv(timeout=30))  # the WebSocket hears of the move
                assert told["type"] == "state" and told["version"] == body["version"] + 1

            for _ in range(3):
                seat, body = _next_move(server, table, credentials)
                assert _post(server, table, credentials[seat], body).status_code == 200
                acknowledged.append(body["action"])
            final = api(server, "GET", f"/api/tables/{table}/state", credentials[0]).json()
        finally:
            log = server.stop()
        assert "Traceback" not in log, log
        assert PASSWORD not in log

        store = PostgresStore(url)
        try:
            row = store.load_table(table)
        finally:
            store.close()
        assert row.actions == acknowledged  # every acknowledged move once, no refused one
        replayed = GameRecord(game=row.game, num_players=row.num_players, seed=row.seed, options=row.options,
                              actions=row.actions).replay()
        assert json.loads(json.dumps(replayed.view(0))) == final["view"]  # the record is the table as played


def test_bots_wait_for_the_database_and_play_on_when_it_is_back(tmp_path: Path) -> None:
    """A bots-only table whose database goes away mid-game: the bots' moves are not stored, so
    they are made again once it is back, and the game ends with every move stored once."""
    with throwaway_postgres() as url, TcpProxy(POSTGRES_PORT) as proxy:
        server = Server(tmp_path, db=through(proxy, url))
        server.start()
        try:
            created = api(server, "POST", "/api/tables", json={
                "game": "triqueta", "players": 2, "seats": [{"kind": "bot", "bot": "ismcts:easy"}] * 2}).json()
            table = created["table_id"]
            until(lambda: api(server, "GET", f"/api/tables/{table}/state").json()["version"] >= 2,
                  "the bots did not start")
            proxy.cut()
            assert not api(server, "GET", f"/api/tables/{table}/state").json()["over"]
            time.sleep(POOL_TIMEOUT + 2 * RETRY_SECONDS + 1)  # the bots try, are refused (after the pool wait), wait
            proxy.restore()
            final = until(lambda: (s := api(server, "GET", f"/api/tables/{table}/state").json())["over"] and s,
                          "the bots did not play on after the database came back", seconds=120)
        finally:
            log = server.stop()
        assert "Traceback" not in log and "exception was never retrieved" not in log, log
        assert "waits for the database" in log  # the bots were refused while it was away

        store = PostgresStore(url)
        try:
            row = store.load_table(table)
            assert table not in store.table_ids(open_only=True)
        finally:
            store.close()
        assert row.version == final["version"]
        replayed = GameRecord(game=row.game, num_players=row.num_players, seed=row.seed, options=row.options,
                              actions=row.actions).replay()
        assert replayed.is_terminal
        assert json.loads(json.dumps(replayed.view(None))) == final["view"]
