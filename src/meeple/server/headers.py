"""Security headers on every HTTP response of `meeple serve`, pages and API alike.

The Content-Security-Policy lets a page run only the scripts this server serves as files (no
inline script, no eval), so markup that slipped into a page could not run. Styles may be inline:
the boards draw with style attributes and a <style> element inside the SVG fragments the
WebSocket sends; a style cannot run code. `connect-src 'self'` covers the page's own WebSocket.
No page may be framed (clickjacking), and no URL is sent on as a Referer (an invite link holds
the table's join code). FastAPI's Swagger page (/docs) is not served: it loads its script from
a CDN and starts it inline; the schema stays at /openapi.json.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)

HEADERS: tuple[tuple[bytes, bytes], ...] = tuple((name.encode(), value.encode()) for name, value in (
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("x-frame-options", "DENY"),  # frame-ancestors for browsers that predate it
    ("cross-origin-opener-policy", "same-origin"),
))


class SecurityHeaders:
    """ASGI middleware adding HEADERS to every HTTP response (a plain ASGI wrapper: it costs a
    list append per response, and leaves WebSockets alone)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)
