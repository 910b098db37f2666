"""The rules under the limits and the host allowlist, case by case: which address is the
client's behind proxies, which Host and Origin headers are this server's, how a client is
counted, and the counters themselves (test_limits.py holds the same over real connections)."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from meeple.server.config import ServerConfig
from meeple.server.counters import LocalCounters, RedisCounters
from meeple.server.hosts import HostPolicy, check_host_name, split_host, startup_warning
from meeple.server.limits import client_key
from meeple.server.proxies import TrustedProxies, parse_networks
from tests.server.services import free_port

PROXIES = TrustedProxies(parse_networks(["127.0.0.1", "10.0.0.0/8", "::1"]))


@pytest.mark.parametrize(("peer", "forwarded", "client"), [
    ("203.0.113.5", ["198.51.100.1"], "203.0.113.5"),  # not a proxy of ours: its header is a claim
    ("127.0.0.1", [], "127.0.0.1"),  # a proxy that forwarded nothing
    ("127.0.0.1", ["198.51.100.1"], "198.51.100.1"),
    ("127.0.0.1", ["1.2.3.4, 198.51.100.1"], "198.51.100.1"),  # the client's own hop is ignored
    ("127.0.0.1", ["1.2.3.4", "198.51.100.1, 10.1.2.3"], "198.51.100.1"),  # two proxies, two headers
    ("127.0.0.1", ["10.0.0.1, 10.0.0.2"], "10.0.0.1"),  # every hop a proxy: the first met the client
    ("::1", ["[2001:db8::1]:4711"], "2001:db8::1"),
    ("127.0.0.1", ["198.51.100.1:8080"], "198.51.100.1"),
    ("127.0.0.1", ["::ffff:198.51.100.7"], "198.51.100.7"),
    ("127.0.0.1", ["unknown"], "unknown"),
])
def test_the_client_is_the_nearest_hop_that_is_no_trusted_proxy(peer, forwarded, client):
    assert PROXIES.client(peer, forwarded) == client


def test_bad_proxy_networks_are_refused():
    with pytest.raises(ValueError, match="--forwarded-allow-ips"):
        parse_networks(["10.0.0.0/33"])


@pytest.mark.parametrize(("client", "key"), [
    (("198.51.100.1", 5000), "198.51.100.1"),
    (("2001:db8:1:2:aaaa::1", 5000), "2001:db8:1:2::/64"),  # one subscriber's /64 is one client
    (("2001:db8:1:2:bbbb::9", 5000), "2001:db8:1:2::/64"),
    (("::ffff:198.51.100.1", 5000), "198.51.100.1"),
    (None, "unknown"),
])
def test_clients_are_counted_by_address_and_ipv6_by_network(client, key):
    assert client_key(client) == key


@pytest.mark.parametrize(("header", "parsed"), [
    ("Example.COM:8000", ("example.com", 8000)),
    ("example.com.", ("example.com", None)),
    ("127.0.0.1", ("127.0.0.1", None)),
    ("[::1]:80", ("::1", 80)),
    ("evil.example:0", None),
    ("evil.example:http", None),
    ("[example.com]", None),
    ("a b", None),
    ("", None),
    ("x" * 300, None),
])
def test_host_headers_are_parsed_strictly(header, parsed):
    assert split_host(header) == parsed


def test_the_default_hosts_are_the_bound_name_loopback_and_any_address():
    policy = HostPolicy.from_config(ServerConfig(host="games.lan"))
    for header in ("games.lan:8000", "localhost:8000", "127.0.0.1:8000", "[::1]:8000", "192.0.2.4"):
        assert policy.host_allowed(header), header
    for refused in ("evil.example:8000", "localhost.evil.example", None, "games.lan:99999"):
        assert not policy.host_allowed(refused), refused
    given = HostPolicy.from_config(ServerConfig(allowed_hosts=("games.example",)))
    assert given.host_allowed("games.example") and not given.host_allowed("localhost")
    with pytest.raises(ValueError, match="--allowed-host"):
        check_host_name("games.example:443")


@pytest.mark.parametrize(("origin", "host", "allowed"), [
    (None, "localhost:8000", True),  # a program, not a page
    ("http://localhost:8000", "localhost:8000", True),
    ("http://evil.example:8000", "evil.example:8000", False),  # DNS rebinding: both the attacker's
    ("http://evil.example:8000", "localhost:8000", False),
    ("http://localhost:9000", "localhost:8000", False),  # another origin on the same machine
    ("http://192.0.2.9:8000", "192.0.2.4:8000", False),
    ("https://games.example", "games.example", True),  # behind a proxy that sets Host $host
    ("https://games.example:8443", "games.example", True),
    ("https://games.example", "games.example:443", True),
    ("https://friends.example", "games.example", True),  # --origin
    ("null", "games.example", False),
    ("ftp://games.example", "games.example", False),
])
def test_a_pages_origin_must_name_this_server_or_be_given(origin, host, allowed):
    policy = HostPolicy.from_config(ServerConfig(allowed_hosts=("games.example", "localhost"),
                                                 allowed_origins=("https://friends.example/",)))
    assert policy.origin_allowed(origin, host) is allowed


def test_serve_warns_when_it_listens_beyond_loopback_with_no_host_names():
    assert startup_warning(ServerConfig(host="127.0.0.1")) is None
    assert startup_warning(ServerConfig(host="::1")) is None
    assert startup_warning(ServerConfig(host="games.lan")) is None
    assert startup_warning(ServerConfig(host="0.0.0.0", allowed_hosts=("games.example",))) is None
    for host in ("0.0.0.0", "::", "192.0.2.4"):
        warning = startup_warning(ServerConfig(host=host))
        assert warning is not None and "--allowed-host" in warning


def test_local_windows_and_capped_sets():
    async def run() -> None:
        counters = LocalCounters()
        assert [await counters.hit("k", 2, 60) for _ in range(2)] == [None, None]
        wait = await counters.hit("k", 2, 60)
        assert wait is not None and 59 < wait <= 60
        assert await counters.hit("other", 2, 60) is None  # keys count apart
        assert await counters.hit("none", 0, 60) == 60  # a limit of 0 allows nothing
        assert await counters.reserve("s", "pending:1", 2) and await counters.reserve("s", "b", 2)
        assert not await counters.reserve("s", "c", 2)
        await counters.replace("s", "pending:1", "a")
        assert await counters.members("s") == {"a", "b"}
        await counters.remove("s", ["a"])
        assert await counters.reserve("s", "c", 2)

    asyncio.run(run())


def test_redis_counters_count_alone_while_redis_is_away():
    async def run() -> None:
        redis = Redis.from_url(f"redis://127.0.0.1:{free_port()}/0", socket_connect_timeout=1.0)
        counters = RedisCounters(redis, LocalCounters())
        try:
            assert await counters.hit("k", 1, 60) is None
            assert await counters.hit("k", 1, 60) is not None  # still limited, by this process
        finally:
            await redis.aclose()

    asyncio.run(run())
