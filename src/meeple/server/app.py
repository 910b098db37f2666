"""The application of `meeple serve` (FastAPI), assembled: the middlewares in order, the
error shapes, the HTTP API (`meeple.server.api`), the WebSocket (`meeple.server.sockets`) and the
pages (`meeple.server.web`), all over one hub of live tables. docs/server.md describes the API.
"""

from __future__ import annotations

import asyncio
import gc
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from meeple.core.errors import DataError, OptionError
from meeple.server import api, sockets
from meeple.server.botpool import BotPool
from meeple.server.collector import collect_now_and_then
from meeple.server.config import ServerConfig
from meeple.server.counters import Rate
from meeple.server.datasets import DataSets
from meeple.server.fanout import Fanout, FanoutError, open_fanout
from meeple.server.headers import SecurityHeaders
from meeple.server.hosts import HostCheck, HostPolicy
from meeple.server.inbound import MAX_MESSAGE_BYTES
from meeple.server.limits import Limits, WebSocketCap, answer_limited, counters_for
from meeple.server.proxies import ClientAddress, TrustedProxies, parse_networks
from meeple.server.refusals import install as install_refusals
from meeple.server.store import Store, StoreError
from meeple.server.stores import open_store
from meeple.server.tables import Hub
from meeple.server.web import pages
from meeple.server.wire import error_message


class _BodyLimit:
    """A body over MAX_MESSAGE_BYTES is refused before it is read. A plain ASGI wrapper:
    Starlette's BaseHTTPMiddleware left a traceback in reference cycles per request
    (meeple.server.collector)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            length = Headers(scope=scope).get("content-length")
            if length is not None and (not (length.isascii() and length.isdigit()) or int(length) > MAX_MESSAGE_BYTES):
                refusal = error_message("too_large", f"bodies are limited to {MAX_MESSAGE_BYTES} bytes")
                await JSONResponse(refusal, 413)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_app(store: Store, bots: BotPool | None = None, config: ServerConfig | None = None,
               fanout: Fanout | None = None) -> FastAPI:
    """The application over `store`, set up as the operator's `config` says: the host names it
    answers to and the pages that may open its WebSockets (`meeple.server.hosts`), the proxies
    it trusts to name the client (`meeple.server.proxies`), the limits on every door
    (`meeple.server.limits`). With a shared `fanout` (Redis), several processes serve the same
    tables (docs/server.md, "Several processes") and share the limits' counts."""
    config = config or ServerConfig()
    pool = bots or BotPool()
    counters = counters_for(fanout)
    hub = Hub(store, pool, fanout=fanout, chat=Rate(counters, config.chat_lines, config.chat_window, "chat"),
              datasets=DataSets.open(config.data_dir), config=config)
    limits = Limits(config, counters, lambda: hub.stored(store.table_ids, True))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        await hub.resume_all()
        await limits.resumed(list(hub.tables.values()))
        collecting = asyncio.create_task(collect_now_and_then())
        yield
        collecting.cancel()
        await hub.stop()
        pool.close()

    app = FastAPI(
        title="meeple", version="1", lifespan=lifespan, docs_url=None, redoc_url=None,  # see meeple.server.headers
        description="Play Triqueta, Triominos, Celtica and Castell online: tables, seats, live views, bots.",
    )
    app.state.hub = hub
    install_refusals(app)
    app.add_middleware(_BodyLimit)
    app.add_middleware(WebSocketCap, per_client=config.websockets_per_client)
    app.add_middleware(HostCheck, policy=HostPolicy.from_config(config))
    app.add_middleware(ClientAddress, proxies=TrustedProxies(parse_networks(config.forwarded_allow_ips)))
    answer_limited(app)
    app.add_middleware(SecurityHeaders)
    app.include_router(pages.router(hub))
    app.mount("/static", StaticFiles(directory=pages.STATIC), name="static")
    app.include_router(api.router(hub, limits))
    app.include_router(sockets.router(hub))
    return app


def tune_collector() -> None:
    """A server holds many long-lived objects (tables, connections). With Python's default
    thresholds a full collection scans them all every few seconds under load: pauses of 100 to
    250 ms at 1,000 tables, which set the latency's p99 (docs/performance.md). Collect the young
    generation less often and the old one far less often, and keep what start-up loaded out of
    collections altogether. Garbage without cycles is freed at once by reference counting."""
    gc.set_threshold(20_000, 50, 100)
    gc.freeze()


def create_app_from_environment() -> FastAPI:
    """The factory `meeple serve` hands to uvicorn: the configuration `meeple serve` put in the
    environment (`meeple.server.config`), else the defaults (a SQLite file meeple.db in the
    working directory, one process). A store or Redis that cannot be opened ends the process
    with one line, not a traceback; so does a data set (`--data`) that fails its game's checks,
    and review settings (MEEPLE_REVIEW) that are not settings."""
    try:
        config = ServerConfig.from_environment()
        fanout = open_fanout(config.redis)
        store = open_store(config.db)
        app = create_app(store, config=config, fanout=fanout)
    except (StoreError, FanoutError, DataError, OptionError, ValueError) as exc:
        print(f"meeple: error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    tune_collector()
    return app
