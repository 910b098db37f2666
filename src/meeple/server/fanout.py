"""Several `meeple serve` processes serving one set of tables: change notices and table leases.

The store stays the one source of truth (its version check already stops two moves for one
table from both applying). What several processes need besides is:
- notices: after every commit a process publishes a tiny notice (table, kind, version, its own
  origin); the others reload that table from the store and tell their own connections. A notice
  is only a hint to look: one that is lost costs a few seconds (the Hub's periodic check), never
  a move.
- leases: the bots and the clock of a table run in exactly one process, the holder of the
  table's lease, a Redis key that expires unless its holder renews it. A process that dies stops
  renewing and another takes the table over once the key expires.

`LocalFanout` is the single process of old: nothing to publish, every lease its own.
`RedisFanout` does both over Redis (pub/sub for notices, `SET NX PX` keys for leases).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

log = logging.getLogger("meeple.server.fanout")

#: The channel every process publishes its notices on and listens to.
CHANNEL = "meeple:notices"
#: A table's lease key is this prefix and the table id.
LEASE_PREFIX = "meeple:lease:"
#: The set of tables that need a runner (a bot to move or a clock to watch), so a process looks
#: for orphaned tables among these instead of loading every open table.
RUNNABLE = "meeple:runnable"
#: Queued Redis writes sent in one round trip at most.
BATCH = 256
#: A lease lapses this long after its last renewal; holders renew every RENEW_SECONDS.
LEASE_MS = 5000
RENEW_SECONDS = 1.5
#: A holder stops acting on a lease this long before it could lapse, so two holders never overlap.
LEASE_MARGIN_MS = 1000
#: Reconnecting waits at most this long between attempts.
MAX_BACKOFF_SECONDS = 5.0

# Take the lease if free, renew it if ours: one atomic step, so two processes never both hold it.
_CLAIM = """
local holder = redis.call('GET', KEYS[1])
if holder == false then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
"""
# Delete the lease only if ours (it may have lapsed and been taken by another process).
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class FanoutError(Exception):
    """The fanout cannot start (a bad URL or an unreachable Redis)."""


@dataclass(frozen=True)
class Notice:
    """Another process committed a change to `table`: `kind` is "actions" (a move or an undo),
    "seat", "clock", "chat" or "closed" (for want of use); `version` the table's version after
    it (the chat line's index for "chat", 0 for "closed")."""

    table: str
    kind: str
    version: int
    #: For one move appended: the move itself (so a process one version behind applies it
    #: without reading the store); None for anything else.
    action: dict[str, Any] | None = None


#: What a fanout calls back into the Hub with: a notice from another process, or "look at every
#: loaded table again" after notices may have been missed (Redis was unreachable).
OnNotice = Callable[[Notice], None]
OnResync = Callable[[], None]


class Fanout(ABC):
    """What the Hub needs to share tables with other processes."""

    #: Whether other processes may change the tables (the Hub then watches the store too).
    shared: bool

    @abstractmethod
    async def start(self, on_notice: OnNotice, on_resync: OnResync) -> None:
        """Begin receiving other processes' notices (the callbacks must not block)."""

    @abstractmethod
    def publish(self, table: str, kind: str, version: int, action: dict[str, Any] | None = None) -> None:
        """Tell the other processes that `table` changed (never blocks, never raises); `action`
        is the move when one was appended to reach `version`."""

    @abstractmethod
    def runnable(self, table: str, needed: bool) -> None:
        """Say whether `table` needs a runner now (never blocks, never raises)."""

    @abstractmethod
    async def runnable_sample(self, count: int) -> list[str]:
        """Up to `count` tables said to need a runner, picked at random (none if unknown)."""

    @abstractmethod
    def holds(self, table: str) -> bool:
        """Whether this process may run the table's bots and clock right now."""

    @abstractmethod
    async def claim(self, table: str) -> bool:
        """Take the table's lease if it is free (or renew it if ours); whether we hold it now."""

    @abstractmethod
    async def release(self, table: str) -> None:
        """Give the lease up (the table needs no bot or clock for now)."""

    @abstractmethod
    async def leased(self, table: str) -> bool:
        """Whether some process holds the table's lease (so no other needs to load it to take
        its bots over)."""

    @abstractmethod
    async def close(self) -> None:
        """Stop listening and give every lease up (a clean shutdown)."""


class LocalFanout(Fanout):
    """One process alone: nothing to publish, every lease its own."""

    shared = False

    async def start(self, on_notice: OnNotice, on_resync: OnResync) -> None:
        pass

    def publish(self, table: str, kind: str, version: int, action: dict[str, Any] | None = None) -> None:
        pass

    def runnable(self, table: str, needed: bool) -> None:
        pass

    async def runnable_sample(self, count: int) -> list[str]:
        return []

    def holds(self, table: str) -> bool:
        return True

    async def claim(self, table: str) -> bool:
        return True

    async def leased(self, table: str) -> bool:
        return True

    async def release(self, table: str) -> None:
        pass

    async def close(self) -> None:
        pass


def process_origin() -> str:
    """This process's name in notices and lease keys: unique even when a pid is reused."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


class RedisFanout(Fanout):
    """Notices over Redis pub/sub, leases as expiring Redis keys. Redis going away is survived:
    notices resume after reconnecting (and the Hub is asked to resync), leases not renewed in
    time are treated as lost, so no table's bots run twice."""

    shared = True

    def __init__(self, url: str) -> None:
        from redis.asyncio import Redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        try:
            self.redis: Any = Redis.from_url(url, socket_connect_timeout=2.0, socket_timeout=5.0)
            # The listener never reconnects behind our back (redis-py would, resubscribing
            # silently): a lost connection must reach `_listen`, which resyncs after it.
            # It pings when idle, so a connection that died without a word is noticed too.
            self._listener: Any = Redis.from_url(url, socket_connect_timeout=2.0, retry=Retry(NoBackoff(), 0),
                                                 health_check_interval=5)
        except ValueError as exc:
            raise FanoutError(f"--redis {_shown(url)}: {exc}") from None
        self.url = url
        self.origin = process_origin()
        self._held: dict[str, float] = {}  # table -> monotonic time until which we may act on its lease
        self._claim = self.redis.register_script(_CLAIM)
        self._release = self.redis.register_script(_RELEASE)
        self._outbox: asyncio.Queue[tuple[str, str]] | None = None  # (command, argument) to send in order
        self._tasks: list[asyncio.Task[None]] = []
        self._down = False  # Redis failed us (said once in the log until it answers again)
        self._on_resync: OnResync | None = None

    async def start(self, on_notice: OnNotice, on_resync: OnResync) -> None:
        self._on_resync = on_resync
        self._outbox = asyncio.Queue(maxsize=10_000)
        self._tasks = [asyncio.create_task(self._listen(on_notice)), asyncio.create_task(self._send()),
                       asyncio.create_task(self._renew())]

    def publish(self, table: str, kind: str, version: int, action: dict[str, Any] | None = None) -> None:
        if self._outbox is None:
            return
        fields = {"origin": self.origin, "table": table, "kind": kind, "version": version}
        if action is not None:
            fields["action"] = action
        self._queue("publish", json.dumps(fields, separators=(",", ":")))

    def runnable(self, table: str, needed: bool) -> None:
        self._queue("sadd" if needed else "srem", table)

    def _queue(self, command: str, argument: str) -> None:
        if self._outbox is None:
            return
        with contextlib.suppress(asyncio.QueueFull):  # Redis is down: the others resync when it is back
            self._outbox.put_nowait((command, argument))

    async def runnable_sample(self, count: int) -> list[str]:
        try:
            found = await self.redis.srandmember(RUNNABLE, count)
        except Exception as exc:
            self._failed("read the tables that need a runner", exc)
            return []
        self._answered()
        return [item.decode() if isinstance(item, bytes) else str(item) for item in found or ()]

    def holds(self, table: str) -> bool:
        return self._held.get(table, 0.0) > time.monotonic()

    async def claim(self, table: str) -> bool:
        asked = time.monotonic()
        try:
            granted = bool(await self._claim(keys=[LEASE_PREFIX + table], args=[self.origin, LEASE_MS]))
        except Exception as exc:
            self._failed("claim a lease", exc)
            return self.holds(table)
        self._answered()
        if granted:
            self._held[table] = asked + (LEASE_MS - LEASE_MARGIN_MS) / 1000
        else:
            self._held.pop(table, None)
        return granted

    async def release(self, table: str) -> None:
        if self._held.pop(table, None) is None:
            return
        try:
            await self._release(keys=[LEASE_PREFIX + table], args=[self.origin])
        except Exception as exc:  # it lapses by itself
            self._failed("release a lease", exc)

    async def leased(self, table: str) -> bool:
        try:
            held = bool(await self.redis.exists(LEASE_PREFIX + table))
        except Exception as exc:  # unknown: say free, and let the claim decide
            self._failed("look at a lease", exc)
            return False
        self._answered()
        return held

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []
        for table in list(self._held):
            await self.release(table)
        await self.redis.aclose()
        await self._listener.aclose()

    # -- the background work ----------------------------------------------------------------
    async def _listen(self, on_notice: OnNotice) -> None:
        """Receive the other processes' notices; resubscribe with backoff whenever Redis goes."""
        delay, lost = 0.2, False
        while True:
            pubsub = self._listener.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(CHANNEL)
                self._answered()
                if lost and self._on_resync is not None:  # notices published meanwhile were missed
                    self._on_resync()
                delay, lost = 0.2, False
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is not None and message.get("type") == "message":
                        notice = _parse(message["data"], self.origin)
                        if notice is not None:
                            on_notice(notice)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._failed("receive notices", exc)
                lost = True
            finally:
                with contextlib.suppress(Exception):  # the connection may be gone already
                    await pubsub.aclose()
            await asyncio.sleep(delay)
            delay = min(delay * 2, MAX_BACKOFF_SECONDS)

    async def _send(self) -> None:
        """Send the queued notices and runner marks in order, as many as are waiting in one round
        trip; while Redis is down they are dropped (a resync after it covers them)."""
        assert self._outbox is not None
        while True:
            batch = [await self._outbox.get()]
            while len(batch) < BATCH and not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            for attempt in (1, 2):  # a connection that Redis closed (a restart) fails once, then reconnects
                pipe = self.redis.pipeline(transaction=False)
                for command, argument in batch:
                    if command == "publish":
                        pipe.publish(CHANNEL, argument)
                    elif command == "sadd":
                        pipe.sadd(RUNNABLE, argument)
                    else:
                        pipe.srem(RUNNABLE, argument)
                try:
                    await pipe.execute()
                except Exception as exc:
                    if attempt == 2:
                        self._failed("publish a notice", exc)
                else:
                    self._answered()
                    break

    async def _renew(self) -> None:
        """Renew every lease held; one not renewed in time counts as lost."""
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            for table in list(self._held):
                await self.claim(table)

    def _failed(self, what: str, exc: Exception) -> None:
        if not self._down:
            log.warning("meeple: Redis unreachable (could not %s: %s); retrying", what, _reason(exc))
        self._down = True

    def _answered(self) -> None:
        if self._down:
            self._down = False
            log.warning("meeple: Redis reachable again")


def _parse(data: bytes | str, origin: str) -> Notice | None:
    """A notice from another process, or None (our own, or not a notice)."""
    try:
        fields = json.loads(data)
        if fields["origin"] == origin:
            return None
        action = fields.get("action")
        return Notice(str(fields["table"]), str(fields["kind"]), int(fields["version"]),
                      action if isinstance(action, dict) else None)
    except (ValueError, KeyError, TypeError):
        return None


def _reason(exc: Exception) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text


def _shown(url: str) -> str:
    """The URL as it may be printed: without a password."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return urlunsplit(parts._replace(netloc=f"***@{parts.netloc.rpartition('@')[2]}"))


def open_fanout(url: str | None) -> Fanout:
    """The fanout a `--redis` value names (none: a single process). Redis must answer now: a
    process that cannot reach it at start fails with one line rather than serve alone."""
    if not url:
        return LocalFanout()
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise FanoutError(f"--redis {_shown(url)}: use redis://HOST:PORT[/DB] (or rediss://, unix://)")
    from redis import Redis

    try:
        with Redis.from_url(url, socket_connect_timeout=2.0, socket_timeout=2.0) as probe:
            probe.ping()
    except Exception as exc:
        raise FanoutError(f"--redis {_shown(url)}: cannot reach Redis ({_reason(exc)})") from None
    return RedisFanout(url)
