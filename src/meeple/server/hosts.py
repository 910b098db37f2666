"""Which host names the server answers to, and which pages may open its WebSockets.

DNS rebinding: a page at evil.example, whose name the attacker then points at this server's
address, is same-origin with itself, so its browser sends `Host: evil.example` and
`Origin: http://evil.example`. Comparing the two proves nothing; the Host itself must be one
of this server's names (`--allowed-host`; by default the name it was bound to and localhost).
An IP address in Host is always accepted: a page reaches an IP literal only at that address, so
no name can be rebound there. A browser's Origin must then name the same allowed host (a page
of this server) or be one of `--origin`.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from meeple.server.config import ServerConfig
from meeple.server.denial import deny

#: The names a loopback server answers to besides its IP addresses.
LOOPBACK_NAMES = frozenset({"localhost"})
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
_NAME = re.compile(r"^[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*$")


def is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def split_host(value: str) -> tuple[str, int | None] | None:
    """A Host header or an origin's host[:port] as (host in lower case, without brackets or a
    final dot; the port or None), or None if it is neither a name nor an address."""
    value = value.strip().lower()
    port: str | None = None
    if value.startswith("["):
        host, _, rest = value[1:].partition("]")
        if rest:
            if not rest.startswith(":"):
                return None
            port = rest[1:]
        if not (":" in host and is_ip(host)):
            return None
    elif value.count(":") == 1:
        host, _, port = value.partition(":")
    else:
        host = value
    host = host.removesuffix(".")
    if port is not None and not (port.isascii() and port.isdigit() and 0 < int(port) < 65536):
        return None
    if not (is_ip(host) if ":" in host else _NAME.match(host) and len(host) <= 253):
        return None
    return host, int(port) if port is not None else None


def check_host_name(value: str) -> str:
    """An `--allowed-host` value as compared (ValueError if it is no host name or address)."""
    parsed = split_host(value)
    if parsed is None or parsed[1] is not None:
        raise ValueError(f"--allowed-host {value!r}: give a host name or address without a port, such as games.example")
    return parsed[0]


def _bound_name(config: ServerConfig) -> str | None:
    """The host name `--host` gave, if a name (an address is accepted as any address is)."""
    parsed = split_host(config.host)
    return parsed[0] if parsed is not None and not is_ip(parsed[0]) else None


@dataclass(frozen=True)
class HostPolicy:
    """The host names this server answers to and the other origins whose pages may connect."""

    names: frozenset[str]
    origins: frozenset[str] = frozenset()

    @classmethod
    def from_config(cls, config: ServerConfig) -> HostPolicy:
        names = {check_host_name(name) for name in config.allowed_hosts}
        if not names:
            names = {*LOOPBACK_NAMES, *filter(None, [_bound_name(config)])}
        return cls(frozenset(names), frozenset(origin.strip().lower().rstrip("/") for origin in config.allowed_origins))

    def allows(self, host: str) -> bool:
        return is_ip(host) or host in self.names

    def host_allowed(self, header: str | None) -> bool:
        parsed = split_host(header) if header is not None else None
        return parsed is not None and self.allows(parsed[0])

    def origin_allowed(self, origin: str | None, header: str | None) -> bool:
        """Whether a WebSocket from a page of `origin` may connect through Host `header`.
        Programs send no Origin (they present credentials anyway); browsers always do."""
        if origin is None:
            return True
        if origin.strip().lower().rstrip("/") in self.origins:
            return True
        try:
            parts = urlsplit(origin.strip().lower())
        except ValueError:  # "http://[" is no URL
            return False
        theirs, ours = split_host(parts.netloc), split_host(header or "")
        if parts.scheme not in ("http", "https") or theirs is None or ours is None:
            return False
        if theirs[0] != ours[0] or not self.allows(theirs[0]):
            return False
        # A proxy may name the site without its port (nginx's $host): the host name decides then.
        return ours[1] is None or (theirs[1] or DEFAULT_PORTS[parts.scheme]) == ours[1]


def startup_warning(config: ServerConfig) -> str | None:
    """What `meeple serve` should tell an operator who listens beyond loopback without naming
    the host names people will use (those would all be refused)."""
    if config.allowed_hosts or _bound_name(config) is not None:
        return None
    bound = split_host(config.host)
    if bound is not None and ipaddress.ip_address(bound[0]).is_loopback:
        return None
    return (f"listening on {config.host} without --allowed-host: only requests naming this server by an IP "
            "address or localhost are answered; give --allowed-host NAME for each name people use")


class HostCheck:
    """ASGI middleware: a request naming another host is refused (400, `bad_host`); a WebSocket
    from a page of another origin too (403, `bad_origin`)."""

    def __init__(self, app: Any, policy: HostPolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            hosts = [value.decode("latin-1") for name, value in scope["headers"] if name == b"host"]
            host = hosts[0] if len(hosts) == 1 else None
            if not self.policy.host_allowed(host):
                await deny(scope, send, 400, "bad_host",
                           "this server does not answer to that host name (see its --allowed-host)")
                return
            origins = [value.decode("latin-1") for name, value in scope["headers"] if name == b"origin"]
            if scope["type"] == "websocket" and not (len(origins) <= 1 and self.policy.origin_allowed(
                    origins[0] if origins else None, host)):
                await deny(scope, send, 403, "bad_origin",
                           "pages from that origin may not connect here (its operator lists others with --origin)")
                return
        await self.app(scope, receive, send)
