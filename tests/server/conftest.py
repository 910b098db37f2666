"""A server application over a fresh SQLite file per test, played through FastAPI's test client."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient

from meeple.server.app import create_app
from meeple.server.botpool import BotPool
from meeple.server.config import ServerConfig
from meeple.server.sqlite_store import SQLiteStore
from meeple.server.tables import Hub

T = TypeVar("T")


def lifted_config(**settings: Any) -> ServerConfig:
    """The configuration of a test's application: the test client's host name ("testserver")
    allowed, and the per-client limits lifted (every request of a test comes from one client),
    unless the test sets them; tests/server/test_limits.py holds the defaults."""
    lifted = {"tables_per_window": 10**6, "open_tables_per_client": 10**6, "join_attempts_per_client": 10**6,
              "join_attempts_per_table": 10**6, "websockets_per_client": 10**6, "bot_tables": 10**6}
    return ServerConfig(**{"allowed_hosts": ("testserver",), **lifted, **settings})


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    # Threads instead of processes for bots: the same decisions, without starting a process
    # pool per test (the subprocess tests use the real pool).
    # The test client names the server "testserver" in its Host header.
    app = create_app(SQLiteStore(tmp_path / "meeple.db"), BotPool(executor=ThreadPoolExecutor(2)),
                     config=ServerConfig(allowed_hosts=("testserver",)))  # the limits as shipped
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def unlimited_client(tmp_path: Path) -> Iterator[TestClient]:
    """`client` with the per-client limits lifted, for a test that makes hundreds of tables."""
    app = create_app(SQLiteStore(tmp_path / "meeple.db"), BotPool(executor=ThreadPoolExecutor(2)),
                     config=lifted_config())
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


def hub_of(client: TestClient) -> Hub:
    """The application's hub (to look into its memory, or call it as the server would)."""
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def on_loop(client: TestClient, call: Callable[..., Awaitable[T]], *args: Any) -> T:
    """Await `call` on the application's event loop (a hub method is never called off it)."""
    assert client.portal is not None, "only inside `with TestClient(app)`"
    return client.portal.call(call, *args)
