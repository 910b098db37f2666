"""Refusing a request before it reaches the application (a wrong host, too many connections),
with the body every refusal has: `{"type": "error", "code", "message"}`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from meeple.server.wire import error_message


async def deny(scope: dict[str, Any], send: Any, status: int, code: str, message: str,
               headers: Sequence[tuple[bytes, bytes]] = ()) -> None:
    """Answer an HTTP request, or a WebSocket handshake, with `status` and the error body. A
    handshake gets the same HTTP answer where the server can send one (uvicorn can), else it is
    closed unaccepted (the client sees 403)."""
    body = json.dumps(error_message(code, message)).encode()
    head = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *headers]
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": status, "headers": head})
        await send({"type": "http.response.body", "body": body})
    elif "websocket.http.response" in scope.get("extensions", {}):
        await send({"type": "websocket.http.response.start", "status": status, "headers": head})
        await send({"type": "websocket.http.response.body", "body": body})
    else:
        await send({"type": "websocket.close", "code": 1008, "reason": code})
