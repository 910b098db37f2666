"""A table's WebSocket (`/ws/tables/{id}`, docs/server.md): the first message says hello (with
a seat's credential, never in the URL, which ends up in logs), then each message goes to the
hub and a refusal to this client alone; a flood closes the socket."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import TypeAdapter

from meeple.server.inbound import Closing, read_message, receive_text
from meeple.server.live import LiveTable
from meeple.server.models import Act, Chat, ClientMessage, Hello, Leave, Ping, Undo
from meeple.server.refused import Refused
from meeple.server.tables import Hub
from meeple.server.wire import error_message

#: A WebSocket client may send this many messages per second on average (bursts of twice that).
MESSAGES_PER_SECOND = 20
#: Seconds a new WebSocket has to say hello.
HELLO_SECONDS = 10.0

_client_message: TypeAdapter[Any] = TypeAdapter(ClientMessage)
_hello = TypeAdapter(Hello)


class _Socket:
    """A WebSocket client as a table sees it."""

    def __init__(self, websocket: WebSocket, seat: int | None, render: str | None) -> None:
        self.websocket = websocket
        self.seat = seat
        self.render = render

    async def send(self, message: dict[str, Any]) -> None:
        await self.websocket.send_text(json.dumps(message, separators=(",", ":")))


def router(hub: Hub) -> APIRouter:
    """The WebSocket route over `hub` (its host, origin and connection count are checked by the
    middleware before it runs)."""
    sockets = APIRouter()

    @sockets.websocket("/ws/tables/{table_id}")
    async def live(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
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

    return sockets


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
