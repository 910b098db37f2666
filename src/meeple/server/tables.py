"""The live tables of this server process (`Hub`): loaded from the store on first use, kept
while in use, each changed under its own lock. The hub is the one door the application and the
pages use; the work behind it is split by job:

- `meeple.server.commands`: create, join, act, undo, chat, leave (checked on a copy, committed,
  then applied and told);
- `meeple.server.telling`: each connection's messages, the log, chat lines, presence;
- `meeple.server.running`: bots and clocks, in the process that holds the table's lease;
- `meeple.server.following`: other processes' changes, the sweep for orphaned tables;
- `meeple.server.upkeep`: unused tables leave memory, idle ones close;
- `meeple.server.reviews`: a finished game's review, and hints at tables of bots.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any, TypeVar

from meeple.core.errors import MeepleError
from meeple.core.protocol import Event
from meeple.core.record import GameRecord
from meeple.core.registry import load
from meeple.core.state import State
from meeple.server import clock
from meeple.server.botpool import BotPool
from meeple.server.commands import Commands
from meeple.server.config import ServerConfig
from meeple.server.counters import LocalCounters, Rate
from meeple.server.datasets import DataSets
from meeple.server.fanout import Fanout, LocalFanout
from meeple.server.following import Following
from meeple.server.live import Connection, LiveTable, record_of
from meeple.server.lobby import LOBBY_SIZE, listed, table_info
from meeple.server.models import CreateTable, JoinTable, TableCreated, TableInfo
from meeple.server.refused import Refused, closed_refusal
from meeple.server.reviews import Reviews
from meeple.server.running import Running
from meeple.server.store import Store, StoreError, StoreUnavailable, TableClosed
from meeple.server.telling import Telling
from meeple.server.upkeep import Upkeep

__all__ = ["Hub", "Refused"]  # (the pages take both from here)

T = TypeVar("T")

#: What a table id may look like (ours are 12 URL-safe characters): any other is no table, and
#: never reaches the store.
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

log = logging.getLogger("meeple.server")


class Hub:
    """All tables of this server process, loaded from the store on first use."""

    def __init__(self, store: Store, bots: BotPool, now: Callable[[], float] = time.time,
                 fanout: Fanout | None = None, chat: Rate | None = None, datasets: DataSets | None = None,
                 config: ServerConfig | None = None) -> None:
        self.store = store
        self.bots = bots
        self.now = now
        self.fanout = fanout or LocalFanout()
        self.config = config or ServerConfig()
        #: Chat lines per seat (shared between processes when `chat` counts in Redis).
        self.chat_rate = chat or Rate(LocalCounters(), self.config.chat_lines, self.config.chat_window, "chat")
        self.datasets = datasets or DataSets()
        self.tables: dict[str, LiveTable] = {}
        self.commands = Commands(self)
        self.telling = Telling(self)
        self.running = Running(self)
        self.following = Following(self)
        self.upkeep = Upkeep(self)
        self.reviews = Reviews(self)
        self._store_thread: ThreadPoolExecutor | None = None
        self._background: set[asyncio.Task[None]] = set()

    # -- the store and the rules ----------------------------------------------------------------
    async def stored(self, call: Callable[..., T], *args: Any) -> T:
        """Run a store call off the event loop, in one of `store.concurrency` threads (a table's
        writes stay in order: each is awaited under the table's lock). A database that cannot be
        reached is a refusal: the store wrote nothing, so the table is unchanged."""
        if self._store_thread is None:
            self._store_thread = ThreadPoolExecutor(max_workers=self.store.concurrency, thread_name_prefix="store")
        try:
            return await asyncio.get_running_loop().run_in_executor(self._store_thread, call, *args)
        except StoreUnavailable:
            raise Refused("unavailable", "the database cannot be reached: nothing was changed; try again shortly",
                          503) from None
        except TableClosed:  # closed meanwhile, maybe by another process
            raise closed_refusal() from None

    async def replay(self, record: GameRecord) -> State[Any]:
        """The state a table's record reaches (see `replay_with_mover`)."""
        state, _ = await self.replay_with_mover(record)
        return state

    async def replay_with_mover(self, record: GameRecord) -> tuple[State[Any], int | None]:
        """The state a table's record reaches and the seat that made its last move (a loaded
        table's `moved`). Built in a worker thread (it may read the operator's data files, and
        replays every move), with the data sets the record names mapped to their files; a record
        this server cannot play is a refusal naming no path."""
        def build() -> tuple[State[Any], int | None]:
            mapped = replace(record, options=self.datasets.to_server(load(record.game), record.options))
            to_move = [mapped.new_state().current_player] if mapped.actions else []
            state = mapped.replay(on_step=lambda index, action, after: to_move.append(after.current_player))
            return state, to_move[-2] if len(to_move) >= 2 else None

        try:
            return await asyncio.to_thread(build)
        except MeepleError as exc:
            raise Refused("unplayable", self.datasets.hide(f"this table cannot be played here: {exc}"), 503) from None

    # -- tables ---------------------------------------------------------------------------------
    async def get(self, table_id: str) -> LiveTable:
        """The table, loaded from the store unless it is loaded already (Refused 404 if none)."""
        table = self.tables.get(table_id)
        if table is not None:
            table.used = time.monotonic()
            return table
        if not TABLE_ID.fullmatch(table_id):
            raise Refused("no_table", f"no table {table_id!r}", 404)
        try:
            row = await self.stored(self.store.load_table, table_id)
        except Refused:
            raise
        except Exception:  # NoSuchTable, or an id the store cannot even look up
            raise Refused("no_table", f"no table {table_id!r}", 404) from None
        state, mover = await self.replay_with_mover(record_of(row))
        table = self.tables.get(table_id)  # loaded meanwhile by another request
        if table is None:
            table = LiveTable(row=row, game=load(row.game), state=state, last_mover=mover)
            self.tables[table_id] = table
            self.running.kick(table)
        return table

    def info(self, table: LiveTable) -> TableInfo:
        return table_info(table)

    async def listing(self) -> list[TableInfo]:
        """The lobby: the open public tables, newest first, read from the store (one query;
        no table is loaded to describe it)."""
        return [listed(row, self.tables.get(row.id)) for row in await self.stored(self.store.lobby, LOBBY_SIZE)]

    # -- commands and connections (see the modules named above) ---------------------------------
    async def create(self, spec: CreateTable) -> TableCreated:
        return await self.commands.create(spec)

    async def seat_for(self, table: LiveTable, credential: str | None) -> int:
        return await self.commands.seat_for(table, credential)

    async def join(self, table: LiveTable, request: JoinTable) -> TableCreated:
        return await self.commands.join(table, request)

    async def leave(self, table: LiveTable, seat: int) -> None:
        await self.commands.leave(table, seat)

    async def act(self, table: LiveTable, seat: int, version: int, action: dict[str, Any] | None,
                  action_id: int | None) -> None:
        await self.commands.act(table, seat, version, action, action_id)

    async def undo(self, table: LiveTable, seat: int, version: int) -> None:
        await self.commands.undo(table, seat, version)

    async def chat(self, table: LiveTable, seat: int | None, text: str) -> None:
        await self.commands.chat(table, seat, text)

    def message_for(self, table: LiveTable, seat: int | None, events: list[Event]) -> dict[str, Any]:
        return self.telling.message_for(table, seat, events)

    async def attach(self, table: LiveTable, conn: Connection) -> None:
        await self.telling.attach(table, conn)

    def detach(self, table: LiveTable, conn: Connection) -> None:
        self.telling.detach(table, conn)

    async def refuse(self, conn: Connection, error: Refused) -> None:
        await self.telling.refuse(conn, error)

    def unload(self, unused_since: float) -> None:
        self.upkeep.unload(unused_since)

    async def close_idle(self) -> list[str]:
        return await self.upkeep.close_idle()

    # -- life -----------------------------------------------------------------------------------
    async def start(self) -> None:
        """Start the upkeep (tables leave memory, idle ones close) and, with other processes,
        sharing the tables with them."""
        if self.fanout.shared:
            await self.fanout.start(self.following.notice, self.following.resync)
            self.in_background(self.following.sweep())
        self.in_background(self.upkeep.run())

    async def resume_all(self) -> None:
        """After a start: close the tables left unused too long, then bring back every open
        table, so bots and clocks carry on."""
        try:
            await self.close_idle()
        except (StoreError, Refused) as exc:  # the upkeep tries again every round
            log.warning("meeple: cannot close the idle tables: %s", exc)
        for table_id in await self.stored(self.store.table_ids, True):
            try:
                table = await self.get(table_id)
            except Refused as refusal:  # its data set is gone: the others carry on
                log.warning("meeple: table %s is not resumed: %s", table_id, refusal)
                continue
            # Do not charge the downtime; with several processes, only if none was watching the clock.
            if table.row.clock_state.get("seat") is not None and await self.fanout.claim(table_id):
                async with table.lock:
                    await self.running.set_clock(
                        table, clock.run(table.row.clock_state, table.row.clock_state["seat"], self.now()))

    def in_background(self, work: Awaitable[None]) -> None:
        """Run `work` as a task the hub keeps until it ends (and cancels on `stop`)."""
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def stop(self) -> None:
        """A clean shutdown: stop listening, give the leases up, then close."""
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)
        await self.fanout.close()
        self.close()

    def close(self) -> None:
        """Stop the bots and clocks and forget the loaded tables (they load again on use, so an
        application served again after a shutdown, as in tests, starts clean)."""
        for table in self.tables.values():
            for task in (table.bot_task, table.clock_task):
                if task is not None:
                    task.cancel()
        self.tables.clear()
        if self._store_thread is not None:
            self._store_thread.shutdown(wait=True)
            self._store_thread = None

