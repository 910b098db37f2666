"""Telling a table's connections: each one's message built from what its seat may see (with
score previews and HTML fragments for a page), the log told so far, chat lines, and who is
connected. Nothing here changes a game."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from meeple.core.errors import MeepleError
from meeple.core.protocol import Event
from meeple.core.record import GameRecord
from meeple.core.registry import load
from meeple.server import clock
from meeple.server.live import Connection, LiveTable, person_arrives
from meeple.server.previews import SAMPLES as PREVIEW_SAMPLES
from meeple.server.previews import preview_seed, score_changes
from meeple.server.refused import Refused
from meeple.server.store import ChatRow
from meeple.server.web.render import fragments
from meeple.server.wire import error_message, seat_message

if TYPE_CHECKING:
    from meeple.server.tables import Hub


class Telling:
    """The messages of every connection of the hub's tables."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def message_for(
        self, table: LiveTable, seat: int | None, events: list[Event], render: str | None = None,
        history: list[Event] | None = None, previews: bool = True,
    ) -> dict[str, Any]:
        """One seat's "state" message (docs/server.md). `previews` adds each legal move's
        `score_change`: a few ms of search per message, so a WebSocket gets them only when it
        asked for rendered pages (a person at a page); scripts and bots have no use for them."""
        extra: dict[str, Any] = {"table": table.row.id, "status": table.status}
        if history is not None:  # the first message of a connection: the log so far, as the seat sees it
            extra["history"] = [event.for_seat(seat) for event in history]
        if table.row.clock_state:
            extra["clock"] = clock.public(table.row.clock_state, self.hub.now())
        if seat is not None:
            extra["can_undo"] = table.undo_point(seat) is not None
        extra["moved"] = table.last_mover
        message = seat_message(table.state, seat, table.version, events, table.seats_public(), extra)
        if not table.started or table.row.closed or (seat is not None and table.bot_spec(seat) is not None):
            message["legal"] = []  # nobody moves before every seat is taken; a bot plays a left seat
        elif seat is not None and message["legal"] and previews:
            changes = self._previews(table, seat)
            for move in message["legal"]:
                move["score_change"] = changes.get(move["id"])
        if render is not None:
            message["html"] = fragments(table.row.game, message, render)
        return message

    @staticmethod
    def _previews(table: LiveTable, seat: int) -> dict[int, int | None]:
        """The score change of each of `seat`'s legal moves (see `previews`), worked out once
        per state and seat, from samples seeded by the table, the version and the seat."""
        cached = table.previews
        if cached is not None and cached[0] is table.state and cached[1] == seat:
            return cached[2]
        seeds = [preview_seed(table.row.id, table.version, seat, k) for k in range(PREVIEW_SAMPLES)]
        changes = score_changes(table.state, seat, seeds)
        table.previews = (table.state, seat, changes)
        return changes

    async def history(self, record: GameRecord) -> list[list[Event]]:
        """The events of each of the record's moves, replayed in a worker thread: what a page
        that opens (or reloads) mid-game shows as its log, each event later cut by `for_seat`."""
        def build() -> list[list[Event]]:
            options = self.hub.datasets.to_server(load(record.game), record.options)
            state = replace(record, options=options, actions=[]).new_state()
            return [state.apply(state.game.action_from_json(raw)) for raw in record.actions]

        try:
            return await asyncio.to_thread(build)
        except MeepleError:
            return []  # the state itself was replayed when the table was loaded: no log is no secret

    async def told(self, table: LiveTable) -> list[Event]:
        """Everything told at the table so far, in order: the game's events with the server's
        notices (joins, seats taken over, undos) at the versions they were told at."""
        moves = await self.history(table.record())
        out = [event for version, event in table.notices if version <= 0]
        for version, events in enumerate(moves, start=1):
            out.extend(events)
            out.extend(event for at, event in table.notices if at == version)
        out.extend(event for at, event in table.notices if at > len(moves))
        return out

    async def notice_told(self, table: LiveTable, event: Event, history: list[Event] | None = None) -> None:
        """Tell a server notice to every connection (the lock held) and keep it for the log."""
        await self.broadcast(table, [event], history=history)
        table.notices.append((table.version, event))

    async def tell_chat(self, table: LiveTable, lines: list[ChatRow]) -> None:
        said = [{"index": c.index, "seat": c.seat, "name": c.name, "text": c.text} for c in lines]
        message = {"type": "chat", "lines": said}
        await asyncio.gather(*(self.send(table, c, message) for c in list(table.connections)))

    async def attach(self, table: LiveTable, conn: Connection) -> None:
        table.used = time.monotonic()
        self.hub.upkeep.touch(table)
        async with table.lock:
            past = await self.told(table)
            arrives = person_arrives(table, conn)
            table.connections.append(conn)
            await self.send(table, conn, self.message_for(table, conn.seat, [], conn.render, history=past,
                                                          previews=conn.render is not None))
            if arrives:
                # The players panel shows who is here: everybody else learns that this seat is
                # now connected (the broadcast after a join may have gone out before its WebSocket).
                await self.broadcast(table, [], to=[c for c in table.connections if c is not conn])

    def detach(self, table: LiveTable, conn: Connection) -> None:
        table.used = time.monotonic()
        if conn in table.connections:
            table.connections.remove(conn)
            if person_arrives(table, conn) and table.connections:
                self.hub.in_background(self._presence_told(table))  # the seat's last connection went

    async def _presence_told(self, table: LiveTable) -> None:
        """Tell the connections still here that a seat's person went away (players panel)."""
        async with table.lock:
            await self.broadcast(table, [])

    async def broadcast(self, table: LiveTable, events: list[Event], to: list[Connection] | None = None,
                        history: list[Event] | None = None) -> None:
        """Tell every connection of the table (or those in `to`) what it may see of `events`
        (with `history`: the whole log again, which each page shows instead of its own)."""
        readers = list(table.connections) if to is None else to
        by_reader: dict[tuple[int | None, str | None], dict[str, Any]] = {}
        for conn in readers:
            reader = (conn.seat, conn.render)
            if reader not in by_reader:
                by_reader[reader] = self.message_for(table, conn.seat, events, conn.render, history,
                                                     previews=conn.render is not None)
        await asyncio.gather(*(self.send(table, c, by_reader[(c.seat, c.render)]) for c in readers))

    async def send(self, table: LiveTable, conn: Connection, message: dict[str, Any]) -> None:
        try:
            await conn.send(message)
        except Exception:  # a connection that went away: forget it
            self.detach(table, conn)

    @staticmethod
    async def refuse(conn: Connection, error: Refused) -> None:
        await conn.send(error_message(error.code, str(error)))
