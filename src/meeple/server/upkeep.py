"""The upkeep of the loaded tables, in every deployment: tables nobody uses leave memory (their
records stay in the store), the store hears when tables were last used, and tables nobody
touched for `ServerConfig.idle_close_seconds` are closed."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from meeple.server.following import CHECK_SECONDS
from meeple.server.live import LiveTable
from meeple.server.refused import Refused
from meeple.server.store import StoreError

if TYPE_CHECKING:
    from meeple.server.tables import Hub

#: How often each process writes when it last used its tables (moves, joins, connections) and
#: closes the tables nobody touched for `ServerConfig.idle_close_seconds`.
TOUCH_SECONDS = 30.0
#: A table stays loaded at least this long after its last use, whatever `unload_seconds` says:
#: a request or a WebSocket hello under way (10 s at most) holds the table, and must not be left
#: holding a copy the hub has forgotten.
MIN_UNLOAD_SECONDS = 15.0

log = logging.getLogger("meeple.server")


class Upkeep:
    """When the hub's tables were used, and what follows from it."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._touched: dict[str, float] = {}  # tables used since the store last heard, and when

    async def run(self) -> None:
        """The rounds: with other processes, compare the tables watched here with the store; let
        loaded tables nobody uses leave memory; every TOUCH_SECONDS, tell the store which tables
        were used and close those nobody touched for `idle_close_seconds`."""
        hub = self.hub
        last_round = time.monotonic()
        while True:
            await asyncio.sleep(CHECK_SECONDS / 2)
            if hub.fanout.shared:
                await hub.following.compare_watched()
            self.unload(time.monotonic() - max(hub.config.unload_seconds, MIN_UNLOAD_SECONDS))
            if time.monotonic() - last_round >= TOUCH_SECONDS:
                last_round = time.monotonic()
                try:
                    await self.close_idle()
                except (StoreError, Refused) as exc:  # the database is away: the next round does it
                    log.warning("meeple: cannot close the idle tables: %s", exc)

    def unload(self, unused_since: float) -> None:
        """Forget the loaded tables nobody here watches or has used since `unused_since` (a
        monotonic time) and no work keeps (bots or a clock run by this process): finished and
        idle tables leave memory, so it stays flat however many games were played. Each loads
        again from the store on use."""
        hub = self.hub
        for table in list(hub.tables.values()):
            if table.connections or table.used >= unused_since or table.busy:
                continue
            held = hub.fanout.holds(table.row.id)
            if held and table.needs_runner:
                continue
            del hub.tables[table.row.id]
            if held and hub.fanout.shared:
                hub.in_background(hub.fanout.release(table.row.id))

    def touch(self, table: LiveTable) -> None:
        """Note that `table` was used now (a move, a join, a connection)."""
        self._touched[table.row.id] = self.hub.now()

    async def close_idle(self) -> list[str]:
        """Tell the store when the tables were last used here (those with a connection: now),
        then close every open table nobody anywhere touched for `idle_close_seconds`; the store
        decides, so any process may do it and a restart forgets nothing. Loaded ones are told.
        Returns the ids closed."""
        hub = self.hub
        now = hub.now()
        touched, self._touched = self._touched, {}
        touched.update((t.row.id, now) for t in hub.tables.values() if t.connections)
        try:
            if touched:
                await hub.stored(hub.store.touch, touched)
            closed = await hub.stored(hub.store.close_idle, now - hub.config.idle_close_seconds)
        except (StoreError, Refused):
            for table_id, at in touched.items():  # said again next round
                self._touched[table_id] = max(at, self._touched.get(table_id, at))
            raise
        for table_id in closed:
            hub.fanout.publish(table_id, "closed", 0)
            table = hub.tables.get(table_id)
            if table is not None:
                async with table.lock:
                    table.row.closed = True
                    await hub.telling.broadcast(table, [])
                hub.running.kick(table)
        return closed
