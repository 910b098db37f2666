"""An application served by uvicorn in a thread of the test process, on a loopback port, with
its log watched: the requests cross a real socket (binary WebSocket frames included), and
whatever the server would log (uvicorn's "Exception in ASGI application", an asyncio task that
failed) is caught as a record the test can assert on. FastAPI's TestClient cannot show either:
it hands the application's exceptions to the test instead of logging them."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import uvicorn

from meeple.server.bench import free_port

#: What uvicorn's WebSocket protocol logs after a handshake refused with an HTTP answer (a 403
#: for a page of another origin): it sent the answer, but counts only an accepted or closed
#: socket as a completed handshake. The application did what ASGI asks; the line is not an error.
REFUSED_HANDSHAKE = "ASGI callable returned without completing handshake."


class Problems(logging.Handler):
    """Every log record that is an error or carries a traceback."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage() == REFUSED_HANDSHAKE and not record.exc_info:
            return
        if record.exc_info or record.levelno >= logging.ERROR:
            self.records.append(record)

    def lines(self) -> list[str]:
        """The records as the log would show them (for an assertion's message)."""
        formatter = logging.Formatter("%(name)s %(levelname)s %(message)s")
        return [formatter.format(record) for record in self.records]


class Served:
    """Where a served application answers, and what went wrong in its log."""

    def __init__(self, port: int, problems: Problems) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"
        self.problems = problems


@contextmanager
def served(app: Any) -> Iterator[Served]:
    """`app` served as `meeple serve` serves it (the same WebSocket frame limit), until the end
    of the block; the root logger's errors are collected meanwhile."""
    problems = Problems()
    root = logging.getLogger()
    root.addHandler(problems)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, ws_max_size=64 * 1024,
                                           log_config=None, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, name="served", daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=10).raise_for_status()
        yield Served(port, problems)
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        root.removeHandler(problems)
