"""The HTTP API and the WebSocket of `meeple serve` (FastAPI). docs/server.md describes both.

Acting for a seat needs its credential: `Authorization: Bearer <credential>` on HTTP, the first
message on a WebSocket (never the URL, which ends up in logs). Everything a client receives is
built from its seat's view (see `meeple.server.wire`).
"""

from __future__ import annotations

import asyncio
import gc
import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from pydantic import TypeAdapter
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from meeple.core.errors import DataError
from meeple.core.registry import usable_games
from meeple.server.botpool import BotPool
from meeple.server.collector import collect_now_and_then
from meeple.server.config import ServerConfig
from meeple.server.counters import Rate
from meeple.server.datasets import DataSets
from meeple.server.fanout import Fanout, FanoutError, open_fanout
from meeple.server.headers import SecurityHeaders
from meeple.server.hosts import HostCheck, HostPolicy
from meeple.server.inbound import MAX_MESSAGE_BYTES, Closing, StrictRoute, read_message, receive_text
from meeple.server.limits import Limits, WebSocketCap, answer_limited, client_key, counters_for
from meeple.server.models import (
    Act,
    Chat,
    ClientMessage,
    CreateTable,
    GameInfo,
    Hello,
    JoinTable,
    Leave,
    Ping,
    TableCreated,
    TableInfo,
    Undo,
    UrlWhole,
)
from meeple.server.proxies import ClientAddress, TrustedProxies, parse_networks
from meeple.server.refusals import install as install_refusals
from meeple.server.store import Store, StoreError
from meeple.server.stores import open_store
from meeple.server.tables import Hub, LiveTable, Refused
from meeple.server.web import pages
from meeple.server.wire import error_message

#: A WebSocket client may send this many messages per second on average (bursts of twice that).
MESSAGES_PER_SECOND = 20
#: Seconds a new WebSocket has to say hello.
HELLO_SECONDS = 10.0

bearer = HTTPBearer(auto_error=False, description="A seat's credential, as returned when the seat was taken.")
Credential = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
_client_message: TypeAdapter[Any] = TypeAdapter(ClientMessage)
_hello = TypeAdapter(Hello)


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


class _Socket:
    """A WebSocket client as a table sees it."""

    def __init__(self, websocket: WebSocket, seat: int | None, render: str | None) -> None:
        self.websocket = websocket
        self.seat = seat
        self.render = render

    async def send(self, message: dict[str, Any]) -> None:
        await self.websocket.send_text(json.dumps(message, separators=(",", ":")))


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
    app.router.route_class = StrictRoute
    install_refusals(app)
    app.add_middleware(_BodyLimit)
    app.add_middleware(WebSocketCap, per_client=config.websockets_per_client)
    app.add_middleware(HostCheck, policy=HostPolicy.from_config(config))
    app.add_middleware(ClientAddress, proxies=TrustedProxies(parse_networks(config.forwarded_allow_ips)))
    answer_limited(app)
    app.add_middleware(SecurityHeaders)
    app.include_router(pages.router(hub))
    app.mount("/static", StaticFiles(directory=pages.STATIC), name="static")

    async def table_or_404(table_id: str) -> LiveTable:
        return await hub.get(table_id)

    async def seat(table: LiveTable, auth: HTTPAuthorizationCredentials | None) -> int:
        return await hub.seat_for(table, auth.credentials if auth else None)

    @app.get("/api/games", response_model=list[GameInfo], summary="The games and their rule options")
    async def list_games() -> list[GameInfo]:
        out = []
        for game in usable_games():
            out.append(GameInfo(
                name=game.name, title=game.title, min_players=game.min_players, max_players=game.max_players,
                options=[{"name": s.name, "default": s.default, "help": s.help,
                          "choices": hub.datasets.choices(game.name, s)} for s in game.option_specs],
            ))
        return out

    @app.post("/api/tables", response_model=TableCreated, status_code=201, summary="Create a table")
    async def create_table(spec: CreateTable, caller: Request) -> TableCreated:
        return await limits.new_table(client_key(caller.client), spec, lambda: hub.create(spec))

    @app.get("/api/tables", response_model=list[TableInfo], summary="Open public tables, newest first (no secrets)")
    async def list_tables() -> list[TableInfo]:
        return await hub.listing()

    @app.get("/api/tables/{table_id}", response_model=TableInfo, summary="One table (no secrets)")
    async def table_info(table_id: str) -> TableInfo:
        return hub.info(await table_or_404(table_id))

    @app.post("/api/tables/{table_id}/join", response_model=TableCreated, summary="Take a free seat")
    async def join(table_id: str, request: JoinTable, caller: Request) -> TableCreated:
        table = await table_or_404(table_id)
        await limits.join(client_key(caller.client), table_id)
        return await hub.join(table, request)

    @app.get("/api/tables/{table_id}/state", summary="What a seat (or, without a credential, a spectator) sees")
    async def table_state(table_id: str, auth: Credential) -> dict[str, Any]:
        table = await table_or_404(table_id)
        return hub.message_for(table, await seat(table, auth) if auth else None, [])

    @app.post("/api/tables/{table_id}/actions", summary="Make a move as the credential's seat")
    async def act(table_id: str, move: Act, auth: Credential) -> dict[str, Any]:
        table = await table_or_404(table_id)
        me = await seat(table, auth)
        await hub.act(table, me, move.version, move.action, move.action_id)
        return hub.message_for(table, me, [])

    @app.post("/api/tables/{table_id}/undo", summary="Take back your own moves of this turn")
    async def undo(table_id: str, request: Undo, auth: Credential) -> dict[str, Any]:
        table = await table_or_404(table_id)
        me = await seat(table, auth)
        await hub.undo(table, me, request.version)
        return hub.message_for(table, me, [])

    @app.post("/api/tables/{table_id}/leave", summary="Leave: a bot plays your seat from now on")
    async def leave(table_id: str, auth: Credential) -> dict[str, Any]:
        table = await table_or_404(table_id)
        await hub.leave(table, await seat(table, auth))
        return {"left": True}

    @app.post("/api/tables/{table_id}/chat", summary="Say something at the table")
    async def chat(table_id: str, request: Chat, auth: Credential) -> dict[str, Any]:
        table = await table_or_404(table_id)
        await hub.chat(table, await seat(table, auth), request.text)
        return {"said": True}

    @app.get("/api/tables/{table_id}/chat", summary="The table's chat")
    async def read_chat(table_id: str, since: UrlWhole = 0) -> list[dict[str, Any]]:
        table = await table_or_404(table_id)
        lines = await hub.stored(store.chat, table.row.id, since)
        return [{"index": c.index, "seat": c.seat, "name": c.name, "text": c.text} for c in lines]

    @app.get("/api/tables/{table_id}/record", summary="The game record, once the game is over or closed")
    async def record(table_id: str) -> dict[str, Any]:
        table = await table_or_404(table_id)
        if not (table.state.is_terminal or table.row.closed):
            raise Refused("not_over", "the record is available when the game is over", 409)
        return table.record().to_json()

    @app.websocket("/ws/tables/{table_id}")
    async def live(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()  # (its host, origin and connections were checked by the middleware)
        try:
            table = await hub.get(table_id)
            hello = read_message(await asyncio.wait_for(receive_text(websocket), HELLO_SECONDS), _hello, "bad_hello")
            me = await hub.seat_for(table, hello.credential) if hello.credential else None
        except (TimeoutError, Refused) as exc:
            refusal = exc if isinstance(exc, Refused) else Refused("bad_hello",
                                                                   f"say hello within {HELLO_SECONDS:.0f} seconds")
            await websocket.send_text(json.dumps(error_message(refusal.code, str(refusal))))
            await websocket.close(code=refusal.close_code if isinstance(refusal, Closing) else 1008)
            return
        except WebSocketDisconnect:
            return
        conn = _Socket(websocket, me, hello.render)
        await hub.attach(table, conn)
        try:
            await _serve(websocket, conn, hub, table)
        except WebSocketDisconnect:
            pass
        finally:
            hub.detach(table, conn)

    return app


async def _serve(websocket: WebSocket, conn: _Socket, hub: Hub, table: LiveTable) -> None:
    """One client's messages, each answered alone when refused; a flood closes the socket."""
    loop = asyncio.get_running_loop()
    allowance, last = 2.0 * MESSAGES_PER_SECOND, loop.time()
    while True:
        try:
            text = await receive_text(websocket)
        except Closing as closing:
            await hub.refuse(conn, closing)
            await websocket.close(code=closing.close_code)
            return
        now = loop.time()
        allowance = min(2.0 * MESSAGES_PER_SECOND, allowance + (now - last) * MESSAGES_PER_SECOND)
        last = now
        if allowance < 1:
            await conn.send(error_message("flood", "too many messages: slow down"))
            await websocket.close(code=1008)
            return
        allowance -= 1
        try:
            await _dispatch(read_message(text, _client_message, "bad_message"), conn, hub, table)
        except Refused as error:
            await hub.refuse(conn, error)


async def _dispatch(message: Any, conn: _Socket, hub: Hub, table: LiveTable) -> None:
    if isinstance(message, Ping):
        await conn.send({"type": "pong"})
        return
    if isinstance(message, Chat):
        await hub.chat(table, conn.seat, message.text)
        return
    if conn.seat is None:
        raise Refused("spectator", "a spectator cannot act: say hello with a seat's credential", 403)
    if isinstance(message, Act):
        await hub.act(table, conn.seat, message.version, message.action, message.action_id)
    elif isinstance(message, Undo):
        await hub.undo(table, conn.seat, message.version)
    elif isinstance(message, Leave):
        await hub.leave(table, conn.seat)


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
    with one line, not a traceback; so does a data set (`--data`) that fails its game's checks."""
    config = ServerConfig.from_environment()
    try:
        fanout = open_fanout(config.redis)
        store = open_store(config.db)
        app = create_app(store, config=config, fanout=fanout)
    except (StoreError, FanoutError, DataError) as exc:
        print(f"meeple: error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    tune_collector()
    return app
