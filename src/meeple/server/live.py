"""A table as this process holds it while it is in use (`LiveTable`), and the connections that
watch it: the state every part of the hub reads and changes under the table's lock."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from meeple.core.protocol import Event, Game
from meeple.core.record import GameRecord
from meeple.core.state import State
from meeple.core.undo import undo_start
from meeple.server.models import SeatInfo
from meeple.server.store import SeatRow, TableRow

#: The bot that takes over a seat whose person left or ran out of time.
STAND_IN = "greedy"


class Connection(Protocol):
    """A live client: WebSocket or test double. `seat` is None for a spectator; a browser page
    sets `render` to its language and receives HTML fragments too."""

    seat: int | None
    render: str | None

    async def send(self, message: dict[str, Any]) -> None: ...


@dataclass
class LiveTable:
    row: TableRow
    game: Game[Any, Any]
    state: State[Any]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: list[Connection] = field(default_factory=list)
    bot_task: asyncio.Task[None] | None = None
    clock_task: asyncio.Task[None] | None = None
    #: Per action played since this process loaded the table: (seat that made it, whether it
    #: revealed anything). Actions from before the load count as checkpoints for undo.
    marks: list[tuple[int, bool]] = field(default_factory=list)
    marking: set[asyncio.Task[None]] = field(default_factory=set)  # marks still being decided
    # Several processes: another process changed the table (reload it), the task doing so, the
    # task claiming the table's lease, and when the table was last compared with the store.
    stale: bool = False
    refresh_task: asyncio.Task[None] | None = None
    claim_task: asyncio.Task[None] | None = None
    checked: float = 0.0
    runnable: bool | None = None  # what this process last said of its need for a runner
    used: float = field(default_factory=time.monotonic)  # last asked for (Hub.get) or connected to
    #: The server's own events (joins, bots taking seats over, undos), each with the version it
    #: was told at, so a page that opens again shows them among the game's events. Kept while
    #: this process holds the table (they are not in the game record).
    notices: list[tuple[int, Event]] = field(default_factory=list)
    #: The seat whose move reached the current version (None: unknown, or an undo came last).
    last_mover: int | None = None
    #: The score previews of the current state: (the state they were worked out on, the seat,
    #: move id -> change), so the connections of one seat in several languages share the work.
    previews: tuple[State[Any], int, dict[int, int | None]] | None = None
    #: The hint being worked out or given at this table: (the version it is for, its answer).
    hint: tuple[int, asyncio.Future[dict[str, Any]]] | None = None

    @property
    def busy(self) -> bool:
        """Whether work on the table is under way in this process (so it must stay loaded)."""
        tasks = (self.bot_task, self.clock_task, self.refresh_task, self.claim_task, *self.marking)
        return self.lock.locked() or any(task is not None and not task.done() for task in tasks)

    def undo_point(self, seat: int) -> int | None:
        """Where `seat`'s undo would go back to (core.undo's rule over the marks), or None."""
        if self.state.is_terminal or not self.started:
            return None
        start = undo_start(self.marks, seat)
        return None if start is None else self.version - len(self.marks) + start

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def started(self) -> bool:
        return all(s.kind == "bot" or s.credential_hash for s in self.row.seats)

    @property
    def status(self) -> Literal["waiting", "playing", "over", "closed"]:
        if self.state.is_terminal:
            return "over"
        if self.row.closed:
            return "closed"
        return "playing" if self.started else "waiting"

    @property
    def needs_runner(self) -> bool:
        """Whether the table needs a process to run it: a bot to move or a clock to watch."""
        if not self.started or self.state.is_terminal or self.row.closed:
            return False
        seat = self.state.current_player
        return bool((seat is not None and self.bot_spec(seat) is not None) or self.row.clock_state)

    def record(self) -> GameRecord:
        return record_of(self.row)

    def bot_spec(self, seat: int) -> str | None:
        """The bot that plays `seat` now (a bot seat, or a person's seat taken over)."""
        row = self.row.seats[seat]
        if row.kind == "bot" or row.left:
            return row.bot or STAND_IN
        return None

    def clock_seat(self, state: State[Any]) -> int | None:
        """The seat whose clock runs in `state`: the person to move (a bot has no clock)."""
        seat = state.current_player
        return None if seat is None or self.bot_spec(seat) is not None else seat

    def seats_public(self) -> list[dict[str, Any]]:
        counts: dict[int | None, int] = {}
        for conn in self.connections:
            counts[conn.seat] = counts.get(conn.seat, 0) + 1
        return [seat_info(s, counts.get(s.seat, 0)).model_dump() for s in self.row.seats]


def seat_info(seat: SeatRow, connected: int) -> SeatInfo:
    """A seat as everyone may see it, with how many connections it has here."""
    return SeatInfo(seat=seat.seat, kind=seat.kind, bot=seat.bot if (seat.kind == "bot" or seat.left) else None,
                    name=seat.name, taken=seat.kind == "bot" or bool(seat.credential_hash), left=seat.left,
                    connected=connected)


def person_arrives(table: LiveTable, conn: Connection) -> bool:
    """Whether `conn` is (or was) the only connection of a seated person: attaching it or
    detaching it changes what the players panel shows. Spectators and bots are not told."""
    if conn.seat is None or table.bot_spec(conn.seat) is not None:
        return False
    return not any(c.seat == conn.seat for c in table.connections if c is not conn)


def seat_label(seat: SeatRow) -> str:
    """How a record names a seat: "human" or the bot spec, as `meeple play` records do."""
    return seat.bot or STAND_IN if (seat.kind == "bot") else "human"


def record_of(row: TableRow) -> GameRecord:
    """A table's game record as clients get it: its options name data sets, never paths; its
    hints are the actions made after a hint (one asked for the move still to come is not yet one)."""
    return GameRecord(
        game=row.game, num_players=row.num_players, seed=row.seed, options=dict(row.options),
        players=[seat_label(s) for s in row.seats], actions=list(row.actions),
        hints=sorted(index for index in set(row.hints) if index < len(row.actions)),
    )
