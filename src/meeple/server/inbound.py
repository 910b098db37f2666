"""The door: what a client sends is read here, strictly, before anything else looks at it.

A request body or a WebSocket message is at most 16 KB of JSON text, every string in it Unicode
(a JSON escape such as \\ud800 makes a lone surrogate, which no database accepts) and no NaN or
Infinity (Python's reader takes them; JSON has neither). A WebSocket frame must be text. The
models (`meeple.server.models`) then check each type without coercion. Whatever fails is one
error message (`meeple.server.refusals`, docs/server.md) and changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any, TypeVar

from fastapi.routing import APIRoute
from pydantic import TypeAdapter, ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.websockets import WebSocket, WebSocketDisconnect

from meeple.core.errors import RecordError
from meeple.core.jsonio import parse_json
from meeple.server.refused import Refused

#: The largest HTTP body or WebSocket message accepted (a move is well under 1 KB).
MAX_MESSAGE_BYTES = 16 * 1024
#: WebSocket close codes (RFC 6455): a frame of a kind not understood, a message too big.
UNSUPPORTED_DATA, MESSAGE_TOO_BIG = 1003, 1009

T = TypeVar("T")


def client_json(data: str | bytes, what: str) -> Any:
    """The JSON value a client sent; RecordError names what is wrong with it."""
    value = parse_json(data, what, MAX_MESSAGE_BYTES, allow_nan=False)
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            pending += [*item, *item.values()]
        elif isinstance(item, list):
            pending += item
        elif isinstance(item, str) and not item.isascii():
            try:
                item.encode()
            except UnicodeEncodeError:
                raise RecordError(f"{what} holds a lone surrogate (\\ud800 to \\udfff): not Unicode text") from None
    return value


def describe(errors: Sequence[Mapping[str, Any]]) -> str:
    """The first of pydantic's errors in one line: where, and what is wrong (never the input)."""
    first = errors[0] if errors else {}
    if first.get("type") == "json_invalid":
        return str(first.get("ctx", {}).get("error", "not JSON"))
    where = ".".join(str(part) for part in first.get("loc", ())) or "message"
    return f"{where}: {first.get('msg', 'invalid')}"


class _StrictRequest(Request):
    async def body(self) -> bytes:
        """At most MAX_MESSAGE_BYTES, however the body arrives (a chunked upload announces no
        Content-Length for the middleware to check)."""
        if not hasattr(self, "_body"):
            chunks, size = [], 0
            async for chunk in self.stream():
                size += len(chunk)
                if size > MAX_MESSAGE_BYTES:
                    raise HTTPException(413, f"bodies are limited to {MAX_MESSAGE_BYTES} bytes")
                chunks.append(chunk)
            self._body = b"".join(chunks)
        return self._body

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            try:
                self._json = client_json(await self.body(), "the body")
            except RecordError as exc:  # FastAPI answers this one as a validation error
                raise json.JSONDecodeError(str(exc), "", 0) from None
        return self._json


class StrictRoute(APIRoute):
    """An API route whose JSON body goes through `client_json`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(_StrictRequest(request.scope, request.receive))

        return strict


class Closing(Refused):
    """A WebSocket message the connection does not survive: the error goes to the client, then
    the socket closes with `close_code`."""

    def __init__(self, code: str, message: str, close_code: int) -> None:
        super().__init__(code, message, 400)
        self.close_code = close_code


async def receive_text(websocket: WebSocket) -> str:
    """The next message: a text frame of at most MAX_MESSAGE_BYTES, else Closing (Starlette's
    own receive_text fails with a KeyError on a binary frame). WebSocketDisconnect once the
    client has gone."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text: str | None = message.get("text")
    if text is None:
        raise Closing("binary", "binary frames are not understood: send JSON as text", UNSUPPORTED_DATA)
    if len(text) > MAX_MESSAGE_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise Closing("too_large", f"messages are limited to {MAX_MESSAGE_BYTES} bytes", MESSAGE_TOO_BIG)
    return text


def read_message(text: str, adapter: TypeAdapter[T], code: str) -> T:
    """The message `text` holds, checked as strictly as an HTTP body; Refused(`code`) says what
    is wrong."""
    try:
        return adapter.validate_python(client_json(text, "the message"))
    except RecordError as exc:
        raise Refused(code, str(exc), 422) from None
    except ValidationError as exc:
        raise Refused(code, describe(exc.errors()), 422) from None
