"""A limit on every door a client can knock on, each set by the operator (`ServerConfig`,
docs/server.md, "Limits"): join-code attempts, table creations, open tables, live connections,
tables with only bots, review and hint requests. Chat lines per seat are limited by the Hub with the same counters.

A client is its address (`meeple.server.proxies` decides it); an IPv6 client is its /64
network, which one subscriber usually holds whole. With `--redis` the rates and the open tables
are counted in Redis, shared by every process; live connections are counted per process.
"""

from __future__ import annotations

import ipaddress
import math
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from meeple.server.config import ServerConfig
from meeple.server.counters import Counters, LocalCounters, Rate, RedisCounters
from meeple.server.denial import deny
from meeple.server.fanout import Fanout, RedisFanout
from meeple.server.live import LiveTable
from meeple.server.models import CreateTable, TableCreated
from meeple.server.refused import Limited
from meeple.server.wire import error_message

#: Join attempts are counted over this many seconds.
JOIN_WINDOW = 60.0
#: A reservation of an open-table slot that was never confirmed (its process died meanwhile) is
#: dropped after this many seconds.
PENDING_SECONDS = 60.0
#: The set of unfinished tables with only bots, server-wide.
BOT_TABLES = "bot-tables"
#: A client's unfinished tables are forgotten this long after it last created one (the count is
#: checked against the store when it reaches the cap, so this only sweeps away idle clients).
OPEN_TABLES_MEMORY = 24 * 3600.0
#: A cap for counting what exists already (tables found on start).
UNCAPPED = 2**31


def client_key(client: Sequence[Any] | None) -> str:
    """The key a client's limits are counted under (from `scope["client"]`, the request's
    `client`): its address; an IPv6 address's /64 network."""
    text = str(client[0]) if client else "unknown"
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return text
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return text


def only_bots(spec: CreateTable) -> bool:
    """Whether the table would have no person at it (its bots play on the server's CPU)."""
    return spec.seats is not None and all(seat.kind == "bot" for seat in spec.seats)


def counters_for(fanout: Fanout | None) -> Counters:
    """Shared counters over the fanout's Redis, else this process's own."""
    if isinstance(fanout, RedisFanout):
        return RedisCounters(fanout.redis, LocalCounters())
    return LocalCounters()


class Limits:
    """The per-client and server-wide limits on joining and creating tables. `open_ids` lists
    the unfinished tables in the store (the truth a cap is checked against when it is reached:
    tables end in any process, or are closed for idleness)."""

    def __init__(self, config: ServerConfig, counters: Counters,
                 open_ids: Callable[[], Awaitable[Iterable[str]]]) -> None:
        self.config = config
        self.counters = counters
        self.open_ids = open_ids
        self.joins = Rate(counters, config.join_attempts_per_client, JOIN_WINDOW, "join")
        self.table_joins = Rate(counters, config.join_attempts_per_table, JOIN_WINDOW, "table-join")
        self.creations = Rate(counters, config.tables_per_window, config.create_window, "create")
        self.reviews = Rate(counters, config.review_requests_per_minute, 60.0, "review")

    async def review(self, client: str) -> None:
        """Count a request for a review or a hint (each may set the workers to work)."""
        wait = await self.reviews.take(client)
        if wait is not None:
            raise Limited("too_many", f"at most {self.reviews.limit} review and hint requests a minute: "
                                      "try again later", wait)

    async def join(self, client: str, table_id: str) -> None:
        """Count a join attempt at `table_id` (any attempt: a right code is refused too while
        the limit holds, or it would tell a guesser which code was right)."""
        wait = await self.joins.take(f"{client}:{table_id}")
        if wait is not None:
            raise Limited("too_many", f"at most {self.joins.limit} join attempts a minute at one table: "
                                      "try again later", wait)
        wait = await self.table_joins.take(table_id)
        if wait is not None:
            raise Limited("too_many", f"at most {self.table_joins.limit} join attempts a minute at this table "
                                      "from everyone: try again later", wait)

    async def new_table(self, client: str, spec: CreateTable,
                        create: Callable[[], Awaitable[TableCreated]]) -> TableCreated:
        """Create a table with `create` if this client may: its creations in the window, its
        unfinished tables and, for a table with only bots, the server's."""
        wait = await self.creations.take(client)
        if wait is not None:
            raise Limited("too_many", f"at most {self.creations.limit} new tables every "
                                      f"{self.creations.window:g} seconds: try again later", wait)
        if only_bots(spec) and self.config.bot_tables == 0:
            raise Limited("no_bot_tables", "this server plays no tables without a person at them")
        held: list[tuple[str, str]] = []
        try:
            held.append(await self._reserve(
                f"open:{client}", self.config.open_tables_per_client, OPEN_TABLES_MEMORY,
                f"at most {self.config.open_tables_per_client} unfinished tables of yours at once: "
                "finish one first", "too_many_tables"))
            if only_bots(spec):
                held.append(await self._reserve(
                    BOT_TABLES, self.config.bot_tables, 0,
                    f"this server plays at most {self.config.bot_tables} tables without a person at once: "
                    "seat yourself, or try again later", "no_bot_tables"))
            created = await create()
        except BaseException:
            for key, token in held:
                await self.counters.remove(key, [token])
            raise
        for key, token in held:
            await self.counters.replace(key, token, created.table_id)
        return created

    async def resumed(self, tables: Iterable[LiveTable]) -> None:
        """Count the unfinished tables with only bots found on start (they play on)."""
        for table in tables:
            if not table.state.is_terminal and all(seat.kind == "bot" for seat in table.row.seats):
                await self.counters.reserve(BOT_TABLES, table.row.id, UNCAPPED)

    async def _reserve(self, key: str, cap: int, ttl: float, message: str, code: str) -> tuple[str, str]:
        """A slot in the capped set `key`, held by a token until the table exists; at the cap,
        tables the store says are over are dropped first."""
        token = f"pending:{time.time():.0f}:{secrets.token_hex(6)}"
        if await self.counters.reserve(key, token, cap, ttl):
            return key, token
        held = await self.counters.members(key)
        still_open = set(await self.open_ids())
        now = time.time()
        await self.counters.remove(key, [member for member in held if _gone(member, still_open, now)])
        if await self.counters.reserve(key, token, cap, ttl):
            return key, token
        raise Limited(code, message)


def _gone(member: str, still_open: set[str], now: float) -> bool:
    """Whether a member of a capped set no longer holds a slot: a table that is over, or a
    reservation never confirmed."""
    if member.startswith("pending:"):
        return now - float(member.split(":")[1]) > PENDING_SECONDS
    return member not in still_open


class WebSocketCap:
    """ASGI middleware: at most `per_client` live WebSockets from one client in this process;
    one more is refused at the handshake (429, `too_many_connections`)."""

    def __init__(self, app: Any, per_client: int) -> None:
        self.app = app
        self.per_client = per_client
        self.open: dict[str, int] = {}

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        key = client_key(scope.get("client"))
        if self.open.get(key, 0) >= self.per_client:
            await deny(scope, send, 429, "too_many_connections",
                       f"at most {self.per_client} live connections from one address: close one first")
            return
        self.open[key] = self.open.get(key, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.open[key] -= 1
            if not self.open[key]:
                del self.open[key]


def answer_limited(app: FastAPI) -> None:
    """Answer a `Limited` refusal as any refusal, with `Retry-After` when it lifts by itself."""

    @app.exception_handler(Limited)
    async def limited(request: Request, error: Limited) -> JSONResponse:
        headers = {"Retry-After": str(max(1, math.ceil(error.retry_after)))} if error.retry_after is not None else {}
        return JSONResponse(error_message(error.code, str(error)), status_code=error.status, headers=headers)
