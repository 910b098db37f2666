"""Following the other processes that serve the same tables (`meeple.server.fanout`): their
notices applied or reloaded here, every watched table compared with the store now and then in
case a notice was lost, and the sweep that takes over the tables of a process that died."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

from meeple.core.errors import MeepleError
from meeple.server.fanout import Notice
from meeple.server.live import LiveTable, record_of
from meeple.server.refused import Refused
from meeple.server.store import StoreError

if TYPE_CHECKING:
    from meeple.server.tables import Hub

#: How often unheld tables are offered for a lease (so a dead process's bots are taken over), how
#: many tables new to this process one sweep loads, and how long a table with connections may go
#: without a look at the store (in case a notice was lost).
SWEEP_SECONDS, SWEEP_LOADS, CHECK_SECONDS = 2.0, 50, 3.0
#: The sweep looks among this many tables said to need a runner; every FULL_SWEEP_SECONDS it
#: looks at every open table in the store too (Redis keeps nothing on disk: after a restart the
#: set is rebuilt, and a table only a dead process knew is found this way).
SWEEP_SAMPLE, FULL_SWEEP_SECONDS = 200, 60.0

log = logging.getLogger("meeple.server")


class Following:
    """The hub's copies of its tables kept up with the store and the other processes."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def notice(self, notice: Notice) -> None:
        """Another process changed a table: reload it if loaded here (else it loads fresh on use)."""
        table = self.hub.tables.get(notice.table)
        if table is None:
            return
        if notice.kind == "chat":
            self.hub.in_background(self._chat_from_elsewhere(table, notice.version))
        elif notice.action is not None and not table.row.clock_state:
            self.hub.in_background(self._follow(table, notice.version, notice.action))
        else:
            self.refresh(table)

    async def _follow(self, table: LiveTable, version: int, action: dict[str, Any]) -> None:
        """The move another process appended to reach `version`: applied as it comes when this
        copy is one version behind (the common case: no store read); else the store decides."""
        async with table.lock:
            if table.version >= version and not table.stale:
                return  # known already
            if table.version == version - 1 and not table.stale and await self._continue(table, [action]):
                followed = True
                table.checked = time.monotonic()  # current as of this notice: no need for a look
            else:
                followed = False
        if followed:
            self.hub.running.kick(table)
        else:
            self.refresh(table)

    def resync(self) -> None:
        """Notices may have been missed (Redis was unreachable): look at every open table again."""
        for table in list(self.hub.tables.values()):
            table.runnable = None  # Redis may have lost the set: say it again
            if not table.state.is_terminal:
                self.refresh(table)

    def refresh(self, table: LiveTable) -> None:
        """Reload `table` soon; notices arriving meanwhile are folded into the one reload."""
        table.stale = True
        if table.refresh_task is None or table.refresh_task.done():
            table.refresh_task = asyncio.create_task(self._reload(table))

    async def _reload(self, table: LiveTable) -> None:
        while table.stale:
            table.stale = False
            async with table.lock:
                await self.look_again(table)
        self.hub.running.kick(table)

    async def look_again(self, table: LiveTable) -> None:
        """Bring `table` up to the store's copy (the lock held): new actions are applied and told
        one by one, as our own moves are; anything else (an undo elsewhere) is replayed."""
        hub = self.hub
        if not hub.fanout.shared:
            return
        try:
            row = await hub.stored(hub.store.load_table, table.row.id)
        except (StoreError, Refused) as exc:  # the database is away: the next look catches up
            log.warning("meeple: cannot reload table %s: %s", table.row.id, exc)
            return
        table.checked = time.monotonic()
        table.row.hints = row.hints  # hints asked for through another process
        told = False
        if row.seats != table.row.seats or row.clock_state != table.row.clock_state or row.closed != table.row.closed:
            table.row.seats, table.row.clock_state, table.row.closed = row.seats, row.clock_state, row.closed
            told = not row.actions[table.version:]
        known = table.row.actions
        if row.actions[:len(known)] == known and await self._continue(table, row.actions[len(known):]):
            if told:
                await hub.telling.broadcast(table, [])
            return
        state = await hub.replay(record_of(row))
        table.row.actions = list(row.actions)
        table.marks = []
        table.state = state
        await hub.telling.broadcast(table, [])

    async def _continue(self, table: LiveTable, actions: list[dict[str, Any]]) -> bool:
        """Apply moves made through another process (the lock held), telling each as our own
        moves are told; False at the first that does not continue our copy (then replay)."""
        for action in actions:
            after = table.state.clone()
            mover = after.current_player
            try:
                if mover is None:
                    raise MeepleError("the game is over")
                events = after.apply(table.game.action_from_json(action))
            except MeepleError:
                return False
            table.row.actions.append(action)
            table.marks.append((mover, True))  # moves made elsewhere are checkpoints for undo here
            table.state = after
            table.last_mover = mover
            await self.hub.telling.broadcast(table, events)
        return True

    async def _chat_from_elsewhere(self, table: LiveTable, index: int) -> None:
        hub = self.hub
        try:
            lines = await hub.stored(hub.store.chat, table.row.id, index)
        except (StoreError, Refused) as exc:
            log.warning("meeple: cannot read the chat of table %s: %s", table.row.id, exc)
            return
        await hub.telling.tell_chat(table, [line for line in lines if line.index == index])

    async def sweep(self) -> None:
        """Now and then, look for tables that need a runner and have none (their process died):
        load them and take their leases, so their bots and clocks go on."""
        hub = self.hub
        last_full = time.monotonic()
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            candidates = await hub.fanout.runnable_sample(SWEEP_SAMPLE)
            if time.monotonic() - last_full > FULL_SWEEP_SECONDS:
                last_full = time.monotonic()
                try:
                    candidates += await hub.stored(hub.store.table_ids, True)
                except (StoreError, Refused) as exc:
                    log.warning("meeple: cannot list the tables: %s", exc)
            loads = 0
            for table_id in dict.fromkeys(candidates):
                if loads >= SWEEP_LOADS:
                    break
                if table_id in hub.tables or await hub.fanout.leased(table_id):
                    continue  # its bots and clock are someone's already
                loads += 1
                with contextlib.suppress(Refused):  # gone meanwhile, or the database is away
                    table = await hub.get(table_id)
                    if table.state.is_terminal:  # its end was stored while the database was away
                        await hub.commands.mark_finished(table)
            for table in list(hub.tables.values()):
                hub.running.kick(table)

    async def compare_watched(self) -> None:
        """The safety net under the notices: a table someone watches here is compared with the
        store at least every CHECK_SECONDS, so a lost notice leaves no board stale for long."""
        hub = self.hub
        due = time.monotonic() - CHECK_SECONDS
        watched = [t for t in hub.tables.values() if t.connections and not t.state.is_terminal and t.checked < due]
        if not watched:
            return
        try:
            stored = await hub.stored(hub.store.versions, [t.row.id for t in watched])
        except (StoreError, Refused) as exc:
            log.warning("meeple: cannot compare the tables with the store: %s", exc)
            stored = {}
        for table in watched:
            table.checked = time.monotonic()
            if stored.get(table.row.id, table.version) != table.version:
                self.refresh(table)
