"""What the server's limits count: recent events per key (a sliding window) and capped sets of
open tables. `LocalCounters` counts in this process; `RedisCounters` counts in the Redis that
several processes share (`--redis`), so a client meets one limit however many processes serve it.

Each check-and-record is one atomic step (a Lua script in Redis, no await in between here), so
requests that arrive together cannot all slip under a limit.
"""

from __future__ import annotations

import logging
import secrets
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("meeple.server.counters")

#: Every key this module writes in Redis starts so.
PREFIX = "meeple:limit:"
#: How often (seconds) the local counters drop keys nobody has used within their window.
SWEEP_SECONDS = 60.0

# A sliding window on Redis's own clock (processes' clocks may differ): forget events older than
# the window; refuse if `limit` remain (answer: milliseconds until the oldest leaves), else record.
_HIT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit, window = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  if oldest[2] then return math.max(1, tonumber(oldest[2]) + window - now) end
  return window
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return -1
"""
# Add a member unless the set holds `cap` already; a positive ttl (ms) makes the set expire.
_RESERVE = """
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[2])
if tonumber(ARGV[3]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1
"""
# Replace a member (a reservation by the table it became).
_REPLACE = """
if redis.call('SREM', KEYS[1], ARGV[1]) == 1 then redis.call('SADD', KEYS[1], ARGV[2]) end
return 1
"""


class Counters(ABC):
    """Sliding windows and capped sets under string keys."""

    @abstractmethod
    async def hit(self, key: str, limit: int, window: float) -> float | None:
        """Record an event under `key` unless `limit` were recorded in the last `window`
        seconds: None if recorded, else the seconds until one of them leaves the window."""

    @abstractmethod
    async def reserve(self, key: str, member: str, cap: int, ttl: float = 0.0) -> bool:
        """Add `member` to the set `key` unless it holds `cap` members; whether it was added.
        A positive `ttl` forgets the whole set that many seconds after its last addition."""

    @abstractmethod
    async def replace(self, key: str, old: str, new: str) -> None:
        """Put `new` in the set in place of `old` (if `old` is still there)."""

    @abstractmethod
    async def members(self, key: str) -> set[str]:
        """The set's members."""

    @abstractmethod
    async def remove(self, key: str, members: Iterable[str]) -> None:
        """Take these members out of the set."""


class LocalCounters(Counters):
    """Counters in this process's memory; keys unused for their window are swept away."""

    def __init__(self) -> None:
        self._events: dict[str, tuple[float, deque[float]]] = {}  # key -> (window, times)
        self._sets: dict[str, set[str]] = {}
        self._expires: dict[str, float] = {}  # set key -> monotonic time it is forgotten
        self._swept = time.monotonic()

    async def hit(self, key: str, limit: int, window: float) -> float | None:
        now = time.monotonic()
        self._sweep(now)
        _, times = self._events.setdefault(key, (window, deque()))
        while times and times[0] <= now - window:
            times.popleft()
        if len(times) >= limit:
            return times[0] + window - now if times else window
        times.append(now)
        return None

    async def reserve(self, key: str, member: str, cap: int, ttl: float = 0.0) -> bool:
        now = time.monotonic()
        self._sweep(now)
        found = self._sets.setdefault(key, set())
        if len(found) >= cap:
            return False
        found.add(member)
        if ttl > 0:
            self._expires[key] = now + ttl
        return True

    async def replace(self, key: str, old: str, new: str) -> None:
        found = self._sets.get(key)
        if found is not None and old in found:
            found.discard(old)
            found.add(new)

    async def members(self, key: str) -> set[str]:
        self._sweep(time.monotonic())
        return set(self._sets.get(key, ()))

    async def remove(self, key: str, members: Iterable[str]) -> None:
        found = self._sets.get(key)
        if found is not None:
            found.difference_update(members)

    def _sweep(self, now: float) -> None:
        """Forget windows whose last event has left them and sets past their time."""
        if now - self._swept < SWEEP_SECONDS:
            return
        self._swept = now
        for key, (window, times) in list(self._events.items()):
            if not times or times[-1] <= now - window:
                del self._events[key]
        for key, until in list(self._expires.items()):
            if until <= now:
                del self._expires[key]
                self._sets.pop(key, None)
        for key, found in list(self._sets.items()):
            if not found:
                del self._sets[key]


@dataclass
class RedisCounters(Counters):
    """Counters in Redis, shared by every process on it. While Redis cannot be reached, each
    process counts alone (in `fallback`) rather than refuse everyone or let everyone through."""

    redis: Any  # a redis.asyncio.Redis client
    fallback: LocalCounters

    def __post_init__(self) -> None:
        self._hit = self.redis.register_script(_HIT)
        self._reserve = self.redis.register_script(_RESERVE)
        self._replace = self.redis.register_script(_REPLACE)
        self._down = False

    async def hit(self, key: str, limit: int, window: float) -> float | None:
        if limit <= 0:
            return window
        try:
            wait = int(await self._hit(keys=[PREFIX + key], args=[limit, max(1, round(window * 1000)), _token()]))
        except Exception as exc:
            self._failed(exc)
            return await self.fallback.hit(key, limit, window)
        self._answered()
        return None if wait < 0 else wait / 1000

    async def reserve(self, key: str, member: str, cap: int, ttl: float = 0.0) -> bool:
        try:
            added = bool(await self._reserve(keys=[PREFIX + key], args=[cap, member, round(ttl * 1000)]))
        except Exception as exc:
            self._failed(exc)
            return await self.fallback.reserve(key, member, cap, ttl)
        self._answered()
        return added

    async def replace(self, key: str, old: str, new: str) -> None:
        try:
            await self._replace(keys=[PREFIX + key], args=[old, new])
        except Exception as exc:
            self._failed(exc)
            await self.fallback.replace(key, old, new)

    async def members(self, key: str) -> set[str]:
        try:
            found = await self.redis.smembers(PREFIX + key)
        except Exception as exc:
            self._failed(exc)
            return await self.fallback.members(key)
        self._answered()
        return {item.decode() if isinstance(item, bytes) else str(item) for item in found}

    async def remove(self, key: str, members: Iterable[str]) -> None:
        gone = list(members)
        if not gone:
            return
        try:
            await self.redis.srem(PREFIX + key, *gone)
        except Exception as exc:
            self._failed(exc)
            await self.fallback.remove(key, gone)

    def _failed(self, exc: Exception) -> None:
        if not self._down:
            log.warning("meeple: Redis unreachable for the limits (%s): each process counts alone meanwhile",
                        str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
        self._down = True

    def _answered(self) -> None:
        if self._down:
            self._down = False
            log.warning("meeple: Redis reachable again for the limits")


def _token() -> str:
    """A member for one event in a Redis window, unique across processes (two events may come
    in one millisecond)."""
    return secrets.token_hex(8)


@dataclass(frozen=True)
class Rate:
    """At most `limit` events under one key in any `window` seconds."""

    counters: Counters
    limit: int
    window: float
    name: str

    async def take(self, key: str) -> float | None:
        """Record one event for `key`: None if allowed, else the seconds to wait."""
        return await self.counters.hit(f"{self.name}:{key}", self.limit, self.window)
