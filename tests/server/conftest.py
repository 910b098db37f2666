"""A server application over a fresh SQLite file per test, played through FastAPI's test client."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.server.app import create_app
from meeple.server.botpool import BotPool
from meeple.server.config import ServerConfig
from meeple.server.sqlite_store import SQLiteStore


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    # Threads instead of processes for bots: the same decisions, without starting a process
    # pool per test (the subprocess tests use the real pool).
    # The test client names the server "testserver" in its Host header.
    app = create_app(SQLiteStore(tmp_path / "meeple.db"), BotPool(executor=ThreadPoolExecutor(2)),
                     config=ServerConfig(allowed_hosts=("testserver",)))
    with TestClient(app) as test_client:
        yield test_client


def bearer(credential: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {credential}"}


def create(client: TestClient, game: str = "triqueta", players: int = 2, seats: list[dict[str, Any]] | None = None,
           **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, "players": players, **extra}
    if seats is not None:
        body["seats"] = seats
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def state(client: TestClient, table: str, credential: str | None = None) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table}/state", headers=bearer(credential) if credential else {})
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found
