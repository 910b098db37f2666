"""Who the client is: the peer's address, or behind a trusted reverse proxy, the address that
proxy says it served.

This is the one place that reads X-Forwarded-For (`meeple serve` runs uvicorn with its own proxy
handling off, which would otherwise trust the header from any loopback peer). The header is read
only from a peer in `--forwarded-allow-ips`, right to left: every proxy appends the address it
was reached from, so the first hop that is not a trusted proxy is the client, and anything left
of it is whatever the client chose to send.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

#: Longer X-Forwarded-For hops are no address: such a hop is cut to this length.
MAX_HOP = 64


def parse_networks(values: Iterable[str]) -> tuple[IPNetwork, ...]:
    """`--forwarded-allow-ips` values: addresses or CIDR networks (ValueError names a bad one)."""
    networks = []
    for value in values:
        try:
            networks.append(ipaddress.ip_network(value.strip(), strict=False))
        except ValueError:
            raise ValueError(f"--forwarded-allow-ips {value!r}: not an address or network such as 10.0.0.0/8") from None
    return tuple(networks)


def parse_address(text: str) -> IPAddress | None:
    """An address as a peer or a proxy gives it (an IPv4-mapped IPv6 address as IPv4; a port
    after it dropped), or None."""
    text = text.strip()
    if text.startswith("["):  # [v6] or [v6]:port
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:  # v4:port
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


@dataclass(frozen=True)
class TrustedProxies:
    """The reverse proxies whose X-Forwarded-For is believed."""

    networks: tuple[IPNetwork, ...] = ()

    def trusts(self, address: IPAddress | None) -> bool:
        return address is not None and any(address in network for network in self.networks)

    def client(self, peer: str, forwarded: list[str]) -> str:
        """The client's address, given the peer's and the X-Forwarded-For header values."""
        if not self.trusts(parse_address(peer)):
            return peer
        hops = [hop.strip() for value in forwarded for hop in value.split(",") if hop.strip()]
        for hop in reversed(hops):
            address = parse_address(hop)
            if not self.trusts(address):
                return str(address) if address is not None else hop[:MAX_HOP]
        # Every hop is a proxy of ours (so each is an address): the first one met the client.
        return str(parse_address(hops[0])) if hops else peer


class ClientAddress:
    """ASGI middleware: `scope["client"]` becomes the client's address as `TrustedProxies` sees
    it, for everything after it (the limits, the logs)."""

    def __init__(self, app: Any, proxies: TrustedProxies) -> None:
        self.app = app
        self.proxies = proxies

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        peer = scope.get("client")
        if scope["type"] in ("http", "websocket") and peer and self.proxies.networks:
            forwarded = [value.decode("latin-1") for name, value in scope["headers"] if name == b"x-forwarded-for"]
            client = self.proxies.client(str(peer[0]), forwarded)
            if client != peer[0]:
                scope = {**scope, "client": (client, 0)}
        await self.app(scope, receive, send)
