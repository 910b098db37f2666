"""Tables nobody touches (no move, no join, no connection) for `idle_close_seconds` are closed:
the API says so, moves are refused with the code "closed", the record stays readable. The store
decides, so it holds across processes and restarts."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.core.record import GameRecord
from meeple.server.app import create_app
from meeple.server.botpool import BotPool
from meeple.server.config import ServerConfig
from meeple.server.models import CreateTable, JoinTable, SeatSpec
from meeple.server.refused import Refused
from meeple.server.sqlite_store import SQLiteStore
from meeple.server.tables import Hub
from tests.server.conftest import bearer, create, hub_of, lifted_config, on_loop, state

HUMANS2 = [{"kind": "human"}, {"kind": "human"}]
HOUR = 3600.0


class Clock:
    """The hub's wall clock, moved on by hand."""

    def __init__(self) -> None:
        self.at = time.time()

    def __call__(self) -> float:
        return self.at


def _clocked(client: TestClient) -> tuple[Hub, Clock]:
    """The application's hub, its wall clock replaced by one the test moves on by hand."""
    hub = hub_of(client)
    clock = Clock()
    hub.now = clock
    return hub, clock


class Watcher:
    """A spectator's connection that keeps what it is told."""

    seat: int | None = None
    render: str | None = None

    def __init__(self) -> None:
        self.told: list[dict[str, Any]] = []

    async def send(self, message: dict[str, Any]) -> None:
        self.told.append(message)


def _app(db: Path, **config: Any) -> TestClient:
    return TestClient(create_app(SQLiteStore(db), BotPool(executor=ThreadPoolExecutor(2)),
                                 config=lifted_config(idle_close_seconds=int(HOUR), **config)))


def _two_people(client: TestClient) -> tuple[str, list[str]]:
    created = create(client, seats=HUMANS2)
    joined = client.post(f"/api/tables/{created['table_id']}/join",
                         json={"join_code": created["join_code"], "name": "Ben"}).json()
    return created["table_id"], [created["credential"], joined["credential"]]


def _move(client: TestClient, table: str, credentials: list[str]) -> Any:
    seen = state(client, table)
    mine = state(client, table, credentials[seen["to_move"]])
    return client.post(f"/api/tables/{table}/actions", headers=bearer(credentials[seen["to_move"]]),
                       json={"version": mine["version"], "action_id": mine["legal"][0]["id"]})


def test_an_untouched_table_closes_with_its_record_kept_and_a_played_one_stays_open(tmp_path):
    with _app(tmp_path / "m.db") as client:
        hub, clock = _clocked(client)
        idle, credentials = _two_people(client)
        busy, busy_credentials = _two_people(client)
        assert _move(client, idle, credentials).status_code == 200
        clock.at += HOUR - 60
        assert _move(client, busy, busy_credentials).status_code == 200  # a move: touched again
        clock.at += 120  # the first table is now idle for an hour and a minute, the second for a minute
        assert on_loop(client, hub.close_idle) == [idle]

        assert client.get(f"/api/tables/{idle}").json()["status"] == "closed"
        assert client.get(f"/api/tables/{busy}").json()["status"] == "playing"
        seen = state(client, idle)
        refused = client.post(f"/api/tables/{idle}/actions", headers=bearer(credentials[seen["to_move"]]),
                              json={"version": seen["version"], "action_id": 0})
        assert refused.status_code == 409 and refused.json() == {
            "type": "error", "code": "closed", "message": refused.json()["message"]}
        for path, body in (("chat", {"text": "hello?"}), ("undo", {"version": 1}), ("leave", None)):
            answer = client.post(f"/api/tables/{idle}/{path}", json=body, headers=bearer(credentials[0]))
            assert answer.status_code == 409 and answer.json()["code"] == "closed", (path, answer.text)
        assert state(client, idle, credentials[1])["legal"] == []
        record = client.get(f"/api/tables/{idle}/record")
        assert record.status_code == 200 and len(GameRecord.from_json(record.json()).actions) == 1
        assert _move(client, busy, busy_credentials).status_code == 200


def test_a_watched_table_is_not_idle(tmp_path):
    with _app(tmp_path / "m.db") as client:
        hub, clock = _clocked(client)
        table, _ = _two_people(client)
        live = on_loop(client, hub.get, table)
        watcher = Watcher()
        on_loop(client, hub.attach, live, watcher)
        clock.at += 2 * HOUR
        assert on_loop(client, hub.close_idle) == []
        hub.detach(live, watcher)
        clock.at += 2 * HOUR
        assert on_loop(client, hub.close_idle) == [table]
        assert watcher.told[-1]["status"] == "playing"  # gone before the close: told nothing more


def test_a_restart_closes_the_tables_left_idle_and_does_not_bring_them_back(tmp_path):
    db = tmp_path / "m.db"
    with _app(db) as client:
        hub = hub_of(client)
        hub.now = lambda: time.time() - 2 * HOUR  # made two hours ago
        old, _ = _two_people(client)
        hub.now = time.time
        fresh, _ = _two_people(client)
    with _app(db) as client:
        hub = hub_of(client)
        assert old not in hub.tables and fresh in hub.tables  # resume_all loaded only the open one
        assert client.get(f"/api/tables/{old}").json()["status"] == "closed"
        assert client.get(f"/api/tables/{fresh}").json()["status"] == "playing"


def test_a_table_closed_by_another_process_refuses_moves_in_this_one(tmp_path):
    """Two hubs over one SQLite file, as two processes: the store's closed flag is the truth."""
    store = SQLiteStore(tmp_path / "m.db")

    async def scenario() -> None:
        here = Hub(store, BotPool(executor=ThreadPoolExecutor(1)), config=ServerConfig(idle_close_seconds=int(HOUR)))
        there = Hub(store, BotPool(executor=ThreadPoolExecutor(1)), config=ServerConfig(idle_close_seconds=int(HOUR)))
        humans = [SeatSpec(kind="human"), SeatSpec(kind="human")]
        created = await here.create(CreateTable(game="triqueta", players=2, seats=humans, public=True))
        table = await here.get(created.table_id)
        await here.join(table, JoinTable(name="Ben"))
        there.now = lambda: time.time() + 2 * HOUR
        assert await there.close_idle() == [created.table_id]
        seat = table.state.current_player
        assert seat is not None
        with pytest.raises(Refused) as refused:
            await here.act(table, seat, 0, None, 0)
        assert refused.value.code == "closed" and table.status == "closed"
        assert store.load_table(created.table_id).version == 0
        here.close()
        there.close()

    asyncio.run(scenario())


class HeldBots(BotPool):
    """Bots that decide only when let: so a table can be closed while its bot is thinking."""

    def __init__(self) -> None:
        super().__init__(executor=ThreadPoolExecutor(1))
        self.go = asyncio.Event()

    async def choose(self, game_name: str, sample: dict[str, Any], seat: int, spec: str, seed: int) -> dict[str, Any]:
        await self.go.wait()
        return await super().choose(game_name, sample, seat, spec, seed)


def test_a_bot_whose_table_is_closed_elsewhere_while_it_thinks_stops_quietly(tmp_path):
    store = SQLiteStore(tmp_path / "m.db")

    async def scenario() -> None:
        bots = HeldBots()
        here = Hub(store, bots, config=ServerConfig(idle_close_seconds=int(HOUR)))
        there = Hub(store, BotPool(executor=ThreadPoolExecutor(1)), config=ServerConfig(idle_close_seconds=int(HOUR)))
        seats = [SeatSpec(kind="bot", bot="random"), SeatSpec(kind="bot", bot="random")]
        created = await here.create(CreateTable(game="triqueta", players=2, seats=seats))
        table = here.tables[created.table_id]
        assert table.bot_task is not None and not table.bot_task.done()  # thinking
        there.now = lambda: time.time() + 2 * HOUR
        assert await there.close_idle() == [created.table_id]
        bots.go.set()
        await table.bot_task
        assert table.bot_task.exception() is None and table.status == "closed"
        assert store.load_table(created.table_id).version == 0
        here.close()
        there.close()

    asyncio.run(scenario())
