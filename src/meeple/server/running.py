"""Running a table's bots and clock: in the one process that holds the table's lease (taking it
when it is free), bots move one after another until a person is to move, and a person whose
time is up has their seat taken over by a bot. While the database is away, both wait and try
again."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from meeple.core.observation import Observation
from meeple.server import clock
from meeple.server.botpool import bot_seed
from meeple.server.live import LiveTable
from meeple.server.refused import Refused

if TYPE_CHECKING:
    from meeple.server.tables import Hub

#: How long a bot or a clock waits before trying again while the database cannot be reached.
RETRY_SECONDS = 1.0

log = logging.getLogger("meeple.server")


class Running:
    """The bots and clocks of the hub's tables."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def kick(self, table: LiveTable) -> None:
        """Let a bot move if one is to move, and run the clock of a person who is; in the one
        process that holds the table's lease (taking it first if it is free)."""
        fanout = self.hub.fanout
        done = table.state.is_terminal or table.row.closed
        if done and fanout.holds(table.row.id) and fanout.shared:
            self.hub.in_background(fanout.release(table.row.id))
        seat = table.state.current_player
        bot_to_move = seat is not None and table.bot_spec(seat) is not None
        needed = table.needs_runner
        # Anyone may say a table needs a runner; only the holder (or anyone, once it is over) says
        # it does not, so a copy that is behind never hides a table that needs one.
        if fanout.shared and needed != table.runnable and (needed or done or fanout.holds(table.row.id)):
            fanout.runnable(table.row.id, needed)
            table.runnable = needed
        if not needed:
            return
        if not fanout.holds(table.row.id):
            if table.claim_task is None or table.claim_task.done():
                table.claim_task = asyncio.create_task(self._claim(table))
            return
        if bot_to_move:
            if table.bot_task is None or table.bot_task.done():
                table.bot_task = asyncio.create_task(self._persist(table, self._bot_moves))
        elif table.row.clock_state and (table.clock_task is None or table.clock_task.done()):
            table.clock_task = asyncio.create_task(self._persist(table, self._watch_clock))

    async def _claim(self, table: LiveTable) -> None:
        """Take the table's free lease; having taken it, start from the store's copy."""
        fanout = self.hub.fanout
        if not fanout.holds(table.row.id):  # (it may have been taken meanwhile, on resuming)
            if not await fanout.claim(table.row.id):
                return
            async with table.lock:
                await self.hub.following.look_again(table)
        self.kick(table)

    @staticmethod
    async def _persist(table: LiveTable, work: Callable[[LiveTable], Awaitable[None]]) -> None:
        """Run a table's bots or clock; while the database cannot be reached, wait and try again
        (nothing was stored, so the move or the timeout is simply made again). A table closed
        meanwhile (by another process) ends the work."""
        while True:
            try:
                await work(table)
                return
            except Refused as refusal:
                if refusal.code == "closed":
                    table.row.closed = True
                    return
                if refusal.code != "unavailable":
                    raise
                log.warning("meeple: table %s waits for the database: %s", table.row.id, refusal)
            await asyncio.sleep(RETRY_SECONDS)

    async def _bot_moves(self, table: LiveTable) -> None:
        """Bots move one after another (each move told on its own) until a person is to move."""
        hub = self.hub
        while True:
            async with table.lock:
                seat = table.state.current_player
                if not table.needs_runner or seat is None or (spec := table.bot_spec(seat)) is None:
                    break
                version = table.version
                sample = Observation.of(table.state).sample.to_json()
            action = await hub.bots.choose(table.row.game, sample, seat, spec, bot_seed(table.row.seed, seat, version))
            async with table.lock:
                if not hub.fanout.holds(table.row.id):
                    return  # the lease lapsed (Redis unreachable): another process may run the bots now
                if table.version != version:  # an undo, a restart or another process moved the table on
                    continue
                try:
                    await hub.commands.apply(table, table.game.action_from_json(action))
                except Refused as refusal:
                    if refusal.code != "stale":
                        raise
        self.kick(table)

    async def _watch_clock(self, table: LiveTable) -> None:
        """When the running seat's time is up, a bot takes the seat over."""
        hub = self.hub
        async with table.lock:  # the first person to move after the start: their clock starts now
            running = table.clock_seat(table.state)
            if table.row.clock_state.get("seat") != running:
                await self.set_clock(table, clock.run(table.row.clock_state, running, hub.now()))
        while True:
            async with table.lock:
                if not hub.fanout.holds(table.row.id):
                    return  # another process watches this table now
                left = self._time_left(table)
                if left is None:
                    return
                if left <= 0 and hub.fanout.shared:  # be sure the time is up: another process may have moved
                    await hub.following.look_again(table)
                    left = self._time_left(table)
                    if left is None:
                        return
                if left <= 0:
                    state = table.row.clock_state
                    await hub.commands.replace(table, state["seat"], "timeout")
                    await self.set_clock(table, clock.run(state, None, hub.now()))
                    break
            await asyncio.sleep(min(left / 1000, 5.0))
        self.kick(table)

    def _time_left(self, table: LiveTable) -> int | None:
        """The running seat's milliseconds left, or None when no clock needs watching."""
        left = clock.left_ms(table.row.clock_state, self.hub.now())
        return None if left is None or not table.needs_runner else left

    async def set_clock(self, table: LiveTable, clock_state: dict[str, Any]) -> None:
        """Store new clocks and tell the other processes (the lock held)."""
        hub = self.hub
        table.row.clock_state = clock_state
        await hub.stored(hub.store.set_clock_state, table.row.id, table.row.clock_state)
        hub.fanout.publish(table.row.id, "clock", table.version)
