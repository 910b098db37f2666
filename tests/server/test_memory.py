"""Memory stays flat however many games are played: finished and idle tables leave the hub's
memory (their records stay in the store and load again on use), in one process too."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meeple.server.app import create_app
from meeple.server.botpool import BotPool
from meeple.server.sqlite_store import SQLiteStore
from tests.server.conftest import create, hub_of, lifted_config, state
from tests.server.test_api import _play_to_the_end

pytestmark = pytest.mark.slow  # whole games played through one application

GAMES = 25


def _eventually(done: Callable[[], bool], seconds: float = 60.0) -> bool:
    """Whether `done` comes true before a generous deadline (the hub's upkeep runs every 1.5 s
    and keeps a table at least MIN_UNLOAD_SECONDS after its last use)."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_finished_and_idle_tables_leave_the_hubs_memory_in_one_process(tmp_path: Path):
    app = create_app(SQLiteStore(tmp_path / "m.db"), BotPool(executor=ThreadPoolExecutor(2)),
                     config=lifted_config(unload_seconds=0))
    with TestClient(app) as client:
        hub = hub_of(client)
        before = len(hub.tables)
        finished = []
        for _ in range(GAMES):
            created = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
            joined = client.post(f"/api/tables/{created['table_id']}/join",
                                 json={"join_code": created["join_code"], "name": "B"}).json()
            final = _play_to_the_end(client, created["table_id"], [created["credential"], joined["credential"]])
            finished.append((created["table_id"], final["result"]))
        waiting = create(client, seats=[{"kind": "human"}, {"kind": "human"}])["table_id"]

        assert _eventually(lambda: len(hub.tables) == before), f"{len(hub.tables)} tables still loaded"
        for table, result in finished[:3]:  # the records stay, and load again on use
            assert state(client, table)["result"] == result
            assert client.get(f"/api/tables/{table}/record").status_code == 200
        assert state(client, waiting)["status"] == "waiting"
        assert waiting in hub.tables
