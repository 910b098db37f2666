"""Live tables: the one place that changes a game on the server.

Every change to a table happens under the table's lock and in this order: check it against a
copy of the state, commit it to the store (which refuses a stale version), then swap the state
and tell every connection what it may see. So an accepted move is stored before anyone hears of
it, a refused one changes nothing, and a crash between the two loses nothing anyone was told.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeVar

from meeple.core.errors import MeepleError
from meeple.core.observation import Observation
from meeple.core.protocol import Event, Game
from meeple.core.record import GameRecord
from meeple.core.registry import load
from meeple.core.state import State
from meeple.core.undo import undo_start
from meeple.server import clock
from meeple.server.botpool import BotPool, bot_seed
from meeple.server.bots import offered
from meeple.server.config import ServerConfig
from meeple.server.counters import LocalCounters, Rate
from meeple.server.datasets import DataSets
from meeple.server.fanout import Fanout, LocalFanout, Notice
from meeple.server.models import CreateTable, JoinTable, SeatInfo, SeatSpec, TableCreated, TableInfo
from meeple.server.previews import SAMPLES as PREVIEW_SAMPLES
from meeple.server.previews import preview_seed, score_changes
from meeple.server.store import (
    ChatRow,
    ListedTable,
    SeatRow,
    StaleVersion,
    Store,
    StoreError,
    StoreUnavailable,
    TableClosed,
    TableRow,
)
from meeple.server.web.render import fragments
from meeple.server.wire import error_message, seat_message

T = TypeVar("T")

#: The bot that takes over a seat whose person left or ran out of time.
STAND_IN = "greedy"
#: Several processes: how often unheld tables are offered for a lease (so a dead process's bots
#: are taken over), how many tables new to this process one sweep loads, and how long a table
#: with connections may go without a look at the store (in case a notice was lost).
SWEEP_SECONDS, SWEEP_LOADS, CHECK_SECONDS = 2.0, 50, 3.0
#: The sweep looks among this many tables said to need a runner; every FULL_SWEEP_SECONDS it
#: looks at every open table in the store too (Redis keeps nothing on disk: after a restart the
#: set is rebuilt, and a table only a dead process knew is found this way).
SWEEP_SAMPLE, FULL_SWEEP_SECONDS = 200, 60.0
#: How often each process writes when it last used its tables (moves, joins, connections) and
#: closes the tables nobody touched for `ServerConfig.idle_close_seconds`.
TOUCH_SECONDS = 30.0
#: The lobby lists at most this many tables, the newest first.
LOBBY_SIZE = 200
#: A table stays loaded at least this long after its last use, whatever `unload_seconds` says:
#: a request or a WebSocket hello under way (10 s at most) holds the table, and must not be left
#: holding a copy the hub has forgotten.
MIN_UNLOAD_SECONDS = 15.0
#: How long a bot or a clock waits before trying again while the database cannot be reached.
RETRY_SECONDS = 1.0

#: What a table id may look like (ours are 12 URL-safe characters): any other is no table, and
#: never reaches the store.
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

log = logging.getLogger("meeple.server")


class Refused(Exception):
    """A request the table refuses: `code` for programs, the message for people, `status` the
    HTTP status. Nothing changed."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


class Limited(Refused):
    """A refusal because a limit is reached (HTTP 429): `retry_after` seconds until it lifts,
    or None if it lifts when something ends (an open table, a connection)."""

    def __init__(self, code: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(code, message, 429)
        self.retry_after = retry_after


def closed_refusal() -> Refused:
    return Refused("closed", "this table was closed after going unused: its record stays readable, "
                             "but nothing can change it now", 409)


def secret_hash(secret: str) -> str:
    """Credentials and join codes are stored only as this hash (they are 128+ random bits, so a
    plain SHA-256 is enough)."""
    return hashlib.sha256(secret.encode()).hexdigest()


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
    def status(self) -> str:
        if self.state.is_terminal:
            return "over"
        if self.row.closed:
            return "closed"
        return "playing" if self.started else "waiting"

    def record(self) -> GameRecord:
        return record_of(self.row)

    def bot_spec(self, seat: int) -> str | None:
        """The bot that plays `seat` now (a bot seat, or a person's seat taken over)."""
        row = self.row.seats[seat]
        if row.kind == "bot" or row.left:
            return row.bot or STAND_IN
        return None

    def seats_public(self) -> list[dict[str, Any]]:
        counts: dict[int | None, int] = {}
        for conn in self.connections:
            counts[conn.seat] = counts.get(conn.seat, 0) + 1
        return [
            SeatInfo(seat=s.seat, kind=s.kind, bot=s.bot if (s.kind == "bot" or s.left) else None, name=s.name,
                     taken=s.kind == "bot" or bool(s.credential_hash), left=s.left,
                     connected=counts.get(s.seat, 0)).model_dump()
            for s in self.row.seats
        ]


def _person_arrives(table: LiveTable, conn: Connection) -> bool:
    """Whether `conn` is (or was) the only connection of a seated person: attaching it or
    detaching it changes what the players panel shows. Spectators and bots are not told."""
    if conn.seat is None or table.bot_spec(conn.seat) is not None:
        return False
    return not any(c.seat == conn.seat for c in table.connections if c is not conn)


def seat_label(seat: SeatRow) -> str:
    """How a record names a seat: "human" or the bot spec, as `meeple play` records do."""
    return seat.bot or STAND_IN if (seat.kind == "bot") else "human"


def record_of(row: TableRow) -> GameRecord:
    """A table's game record as clients get it: its options name data sets, never paths."""
    return GameRecord(
        game=row.game, num_players=row.num_players, seed=row.seed, options=dict(row.options),
        players=[seat_label(s) for s in row.seats], actions=list(row.actions),
    )


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
        self._touched: dict[str, float] = {}  # tables used since the store last heard, and when
        self._store_thread: ThreadPoolExecutor | None = None
        self._background: set[asyncio.Task[None]] = set()

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
    async def create(self, spec: CreateTable) -> TableCreated:
        try:
            game = load(spec.game)
            game.check_players(spec.players)
            options = self.datasets.from_client(game, spec.options)
            rule = clock.parse_clock(spec.clock)
            seats = self._seats(spec)
        except MeepleError as exc:
            raise Refused("bad_table", str(exc), 422) from None
        seed = secrets.randbits(63)
        try:  # off the event loop: it may read the operator's data files
            state = await asyncio.to_thread(lambda: game.new_game(spec.players, seed=seed, **options))
        except MeepleError as exc:
            raise Refused("bad_table", self.datasets.hide(str(exc)), 422) from None
        credential, join_code = secrets.token_urlsafe(32), secrets.token_urlsafe(6)
        creator = next((s for s in seats if s.kind == "human"), None)
        if creator is not None:
            creator.name, creator.credential_hash = spec.name, secret_hash(credential)
        row = TableRow(
            id=secrets.token_urlsafe(9), game=game.name, num_players=spec.players, seed=seed,
            options=self.datasets.to_stored(game, state.options), seats=seats, join_code_hash=secret_hash(join_code),
            created=self.now(),
            clock={"rule": spec.clock}, clock_state=clock.start(rule, spec.players) if rule else {},
            public=spec.public,
        )
        await self.stored(self.store.create_table, row)
        table = LiveTable(row=row, game=game, state=state)
        self.tables[row.id] = table
        await self._started(table)
        return TableCreated(table_id=row.id, seat=creator.seat if creator else -1,
                            credential=credential if creator else "", join_code=join_code)

    def _seats(self, spec: CreateTable) -> list[SeatRow]:
        given: list[SeatSpec | None] = list(spec.seats) if spec.seats else [None] * spec.players
        if len(given) != spec.players:
            raise MeepleError(f"seats lists {len(given)} seats for {spec.players} players")
        seats = []
        for index, seat in enumerate(given):
            if seat is None:
                kind, bot = ("human", None) if index == 0 else ("bot", STAND_IN)
            else:
                kind, bot = seat.kind, seat.bot
            if kind == "bot":
                bot = offered(bot or STAND_IN)  # a level the lobby offers; anything else refused here
            elif bot is not None:
                raise MeepleError(f"seat {index}: a person's seat names no bot")
            name = f"{bot} {index + 1}" if bot else f"Player {index + 1}"
            seats.append(SeatRow(seat=index, kind=kind, bot=bot, name=name))
        return seats

    async def get(self, table_id: str) -> LiveTable:
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
            await self._started(table)
        return table

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
                    table.row.clock_state = clock.run(table.row.clock_state, table.row.clock_state["seat"], self.now())
                    await self.stored(self.store.set_clock_state, table_id, table.row.clock_state)
                    self.fanout.publish(table_id, "clock", table.version)

    def info(self, table: LiveTable) -> TableInfo:
        return TableInfo(
            id=table.row.id, game=table.row.game, title=table.game.title, players=table.row.num_players,
            seats=[SeatInfo(**s) for s in table.seats_public()], status=table.status,  # type: ignore[arg-type]
            version=table.version, clock=table.row.clock.get("rule", "none"), public=table.row.public,
        )

    async def listing(self) -> list[TableInfo]:
        """The lobby: the open public tables, newest first, read from the store (one query;
        no table is loaded to describe it)."""
        return [self._listed(row) for row in await self.stored(self.store.lobby, LOBBY_SIZE)]

    def _listed(self, row: ListedTable) -> TableInfo:
        loaded = self.tables.get(row.id)
        connected = [c.seat for c in loaded.connections] if loaded else []
        seats = [SeatInfo(seat=s.seat, kind=s.kind, bot=s.bot if (s.kind == "bot" or s.left) else None, name=s.name,
                          taken=s.kind == "bot" or bool(s.credential_hash), left=s.left,
                          connected=connected.count(s.seat)) for s in row.seats]
        return TableInfo(
            id=row.id, game=row.game, title=load(row.game).title, players=row.num_players, seats=seats,
            status="playing" if all(s.taken for s in seats) else "waiting", version=row.version,
            clock=row.clock.get("rule", "none"), public=True,
        )

    # -- seats ----------------------------------------------------------------------------------
    def seat_of(self, table: LiveTable, credential: str | None) -> int:
        """The seat a credential acts for (Refused 401 if it is none of this table's)."""
        if credential:
            digest = secret_hash(credential)
            for seat in table.row.seats:
                if seat.credential_hash is not None and secrets.compare_digest(seat.credential_hash, digest):
                    return seat.seat
        raise Refused("bad_credential", "that credential does not act for a seat of this table", 401)

    async def seat_for(self, table: LiveTable, credential: str | None) -> int:
        """`seat_of`, after a look at the store if the seat was taken through another process."""
        try:
            return self.seat_of(table, credential)
        except Refused:
            if not (credential and self.fanout.shared):
                raise
        async with table.lock:
            await self._look_again(table)
        return self.seat_of(table, credential)

    async def join(self, table: LiveTable, request: JoinTable) -> TableCreated:
        async with table.lock:
            invited = request.join_code is not None and secrets.compare_digest(
                table.row.join_code_hash, secret_hash(request.join_code))
            if not (invited or table.row.public):
                raise Refused("bad_join_code", "that join code is not this table's", 403)
            if table.row.closed:
                raise closed_refusal()
            free = next((s for s in table.row.seats if s.kind == "human" and not s.credential_hash
                         and request.seat in (None, s.seat)), None)
            if free is None:
                raise Refused("table_full", "every seat of this table is taken")
            credential = secrets.token_urlsafe(32)
            updated = SeatRow(seat=free.seat, kind="human", name=request.name, credential_hash=secret_hash(credential))
            await self.stored(self.store.update_seat, table.row.id, updated)
            self.fanout.publish(table.row.id, "seat", table.version)
            table.row.seats[free.seat] = updated
            self._touch(table)
            await self._notice_told(table, Event("joined", free.seat, {"name": request.name}))
        await self._started(table)
        return TableCreated(table_id=table.row.id, seat=free.seat, credential=credential,
                            join_code=request.join_code or "")

    async def leave(self, table: LiveTable, seat: int, reason: str = "left") -> None:
        async with table.lock:
            if table.row.closed:
                raise closed_refusal()
            if table.bot_spec(seat) is not None:
                raise Refused("left", "a bot already plays this seat")
            await self._replace(table, seat, reason)
        self._kick(table)

    async def _replace(self, table: LiveTable, seat: int, reason: str) -> None:
        row = table.row.seats[seat]
        if row.left or row.kind == "bot":
            return
        updated = SeatRow(seat=seat, kind="human", bot=STAND_IN, name=row.name, credential_hash=row.credential_hash,
                          left=True)
        await self.stored(self.store.update_seat, table.row.id, updated)
        self.fanout.publish(table.row.id, "seat", table.version)
        table.row.seats[seat] = updated
        await self._notice_told(table, Event("seat_replaced", seat, {"reason": reason, "bot": STAND_IN}))

    # -- moves ----------------------------------------------------------------------------------
    async def act(self, table: LiveTable, seat: int, version: int, action: dict[str, Any] | None,
                  action_id: int | None) -> None:
        async with table.lock:
            if version != table.version:  # the client may have seen a move made through another process
                await self._look_again(table)
            self._check_turn(table, seat, version)
            if table.bot_spec(seat) is not None:
                raise Refused("not_your_turn", "a bot plays this seat now")
            if (action is None) == (action_id is None):
                raise Refused("bad_action", "send exactly one of action (JSON) and action_id", 422)
            try:
                if action_id is not None:
                    move = table.state.action_from_id(action_id)
                else:
                    move = table.game.action_from_json(action)
            except MeepleError as exc:
                raise Refused("illegal", str(exc), 422) from None
            await self._apply(table, move)
        self._kick(table)

    def _check_turn(self, table: LiveTable, seat: int, version: int) -> None:
        if not table.started:
            raise Refused("waiting", "the game starts when every seat is taken")
        if table.state.is_terminal:
            raise Refused("over", "the game is over")
        if table.row.closed:
            raise closed_refusal()
        if version != table.version:
            raise Refused("stale", f"the table is at move {table.version}, not {version}: look again")
        if table.state.current_player != seat:
            raise Refused("not_your_turn", f"it is seat {table.state.current_player}'s turn")

    async def _apply(self, table: LiveTable, move: Any) -> None:
        """Check on a copy, commit, then swap and tell (see the module docstring)."""
        after = table.state.clone()
        try:
            events = after.apply(move)
        except MeepleError as exc:
            raise Refused("illegal", str(exc), 422) from None
        mover = table.state.current_player
        assert mover is not None  # checked by the caller: the game is not over
        before = table.state
        clocks = table.row.clock_state
        rule = clock.parse_clock(table.row.clock.get("rule", "none"))
        if rule is not None and clocks:
            now = self.now()
            clocks = clock.stop(clocks, rule, now) if clocks.get("seat") == mover else clock.run(clocks, None, now)
            clocks = clock.run(clocks, self._clock_seat(table, after), now)
        try:
            await self.stored(self.store.append_action, table.row.id, table.version, move.to_json(), clocks)
        except StaleVersion:
            await self._look_again(table)  # so the client's next look is current
            raise Refused("stale", "another move was accepted first: look again") from None
        except Refused as refusal:
            if refusal.code == "closed":  # closed by another process: this copy says so from now on
                table.row.closed = True
            raise
        self.fanout.publish(table.row.id, "actions", table.version + 1, move.to_json())
        table.row.actions.append(move.to_json())
        self._touch(table)
        # Until the worker has decided, the move counts as a reveal (undo offered late, never
        # wrongly). Bots never take moves back, so their moves are not examined.
        table.marks.append((mover, True))
        if table.bot_spec(mover) is None and not any(event.secret for event in events):
            task = asyncio.create_task(self._mark(table, len(table.row.actions) - 1, before, move))
            table.marking.add(task)
            task.add_done_callback(table.marking.discard)
        table.row.clock_state = clocks
        table.state = after
        table.last_mover = mover
        if after.is_terminal:
            await self._mark_finished(table)
        await self._broadcast(table, events)

    async def _mark_finished(self, table: LiveTable) -> None:
        """Take a finished table off the open list. The move is stored already, so a database
        that is away now is no refusal: the flag is set again when the table next loads."""
        try:
            await self.stored(self.store.set_finished, table.row.id, True)
        except Refused as refusal:
            log.warning("meeple: table %s is over but not yet marked so: %s", table.row.id, refusal)

    def _clock_seat(self, table: LiveTable, state: State[Any]) -> int | None:
        seat = state.current_player
        return None if seat is None or table.bot_spec(seat) is not None else seat

    async def _mark(self, table: LiveTable, index: int, before: State[Any], move: Any) -> None:
        """Decide in a worker whether the move at `index` revealed anything; if not, the mover
        may take it back, and their connections are told so."""
        revealed = await self.bots.revealed(table.row.game, before.to_json(), move.to_json())
        async with table.lock:
            offset = table.version - len(table.marks)
            position = index - offset
            if revealed or not 0 <= position < len(table.marks) or table.row.actions[index] != move.to_json():
                return  # it revealed, or an undo or a restart moved the table on
            mover = table.marks[position][0]
            table.marks[position] = (mover, False)
            if table.undo_point(mover) is not None:
                note = {"type": "undo", "version": table.version, "can_undo": True}
                await asyncio.gather(*(self._send(table, c, note) for c in list(table.connections) if c.seat == mover))

    async def undo(self, table: LiveTable, seat: int, version: int) -> None:
        if table.marking:  # a move being examined may be the one to take back: wait for it
            await asyncio.gather(*table.marking, return_exceptions=True)
        async with table.lock:
            if version != table.version:
                await self._look_again(table)
            if table.row.closed:
                raise closed_refusal()
            if table.state.is_terminal or not table.started:
                raise Refused("no_undo", "there is nothing to take back")
            if version != table.version:
                raise Refused("stale", f"the table is at move {table.version}, not {version}: look again")
            keep = table.undo_point(seat)
            if keep is None:
                raise Refused("no_undo", "nothing of yours can be taken back now (a draw or a reveal, or the "
                                         "next player has moved)")
            state = await self.replay(replace(table.record(), actions=table.row.actions[:keep]))
            try:
                await self.stored(self.store.truncate_actions, table.row.id, table.version, keep)
            except StaleVersion:
                await self._look_again(table)
                raise Refused("stale", "another move was accepted first: look again") from None
            self.fanout.publish(table.row.id, "actions", keep)
            self._touch(table)
            taken = table.version - keep
            del table.row.actions[keep:]
            del table.marks[len(table.marks) - taken:]
            table.state = state
            table.last_mover = None
            # The notices told after the version gone back to stay, in order, at that version;
            # every page gets the log again, so the taken-back moves leave it as a reload shows it.
            table.notices = [(min(version, keep), event) for version, event in table.notices]
            past = await self.told(table)
            await self._notice_told(table, Event("undo", seat, {"actions": taken}), history=past)
        self._kick(table)

    # -- chat -----------------------------------------------------------------------------------
    async def chat(self, table: LiveTable, seat: int | None, text: str) -> None:
        text = text.strip()
        if not text:
            raise Refused("empty_chat", "say something", 422)
        if table.row.closed:
            raise closed_refusal()
        rate = self.chat_rate
        wait = await rate.take(f"{table.row.id}:{'spectators' if seat is None else seat}")
        if wait is not None:
            raise Limited("too_fast", f"at most {rate.limit} messages every {rate.window:g} seconds", wait)
        now = self.now()
        name = table.row.seats[seat].name if seat is not None else "spectator"
        line = await self.stored(self.store.add_chat, table.row.id, seat, name, text, now)
        self.fanout.publish(table.row.id, "chat", line.index)
        await self._tell_chat(table, [line])

    async def _tell_chat(self, table: LiveTable, lines: list[ChatRow]) -> None:
        said = [{"index": c.index, "seat": c.seat, "name": c.name, "text": c.text} for c in lines]
        message = {"type": "chat", "lines": said}
        await asyncio.gather(*(self._send(table, c, message) for c in list(table.connections)))

    # -- telling --------------------------------------------------------------------------------
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
            extra["clock"] = clock.public(table.row.clock_state, self.now())
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

    def _previews(self, table: LiveTable, seat: int) -> dict[int, int | None]:
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
            options = self.datasets.to_server(load(record.game), record.options)
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

    async def _notice_told(self, table: LiveTable, event: Event, history: list[Event] | None = None) -> None:
        """Tell a server notice to every connection (the lock held) and keep it for the log."""
        await self._broadcast(table, [event], history=history)
        table.notices.append((table.version, event))

    async def attach(self, table: LiveTable, conn: Connection) -> None:
        table.used = time.monotonic()
        self._touch(table)
        async with table.lock:
            past = await self.told(table)
            arrives = _person_arrives(table, conn)
            table.connections.append(conn)
            await self._send(table, conn, self.message_for(table, conn.seat, [], conn.render, history=past,
                                                            previews=conn.render is not None))
            if arrives:
                # The players panel shows who is here: everybody else learns that this seat is
                # now connected (the broadcast after a join may have gone out before its WebSocket).
                await self._broadcast(table, [], to=[c for c in table.connections if c is not conn])

    def detach(self, table: LiveTable, conn: Connection) -> None:
        table.used = time.monotonic()
        if conn in table.connections:
            table.connections.remove(conn)
            if _person_arrives(table, conn) and table.connections:
                self._in_background(self._presence_told(table))  # the seat's last connection went

    async def _presence_told(self, table: LiveTable) -> None:
        """Tell the connections still here that a seat's person went away (players panel)."""
        async with table.lock:
            await self._broadcast(table, [])

    async def _broadcast(self, table: LiveTable, events: list[Event], to: list[Connection] | None = None,
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
        await asyncio.gather(*(self._send(table, c, by_reader[(c.seat, c.render)]) for c in readers))

    async def _send(self, table: LiveTable, conn: Connection, message: dict[str, Any]) -> None:
        try:
            await conn.send(message)
        except Exception:  # a connection that went away: forget it
            self.detach(table, conn)

    async def refuse(self, conn: Connection, error: Refused) -> None:
        await conn.send(error_message(error.code, str(error)))

    # -- bots and clocks ------------------------------------------------------------------------
    async def _started(self, table: LiveTable) -> None:
        self._kick(table)

    def _kick(self, table: LiveTable) -> None:
        """Let a bot move if one is to move, and run the clock of a person who is; in the one
        process that holds the table's lease (taking it first if it is free)."""
        done = table.state.is_terminal or table.row.closed
        if done and self.fanout.holds(table.row.id) and self.fanout.shared:
            self._in_background(self.fanout.release(table.row.id))
        seat = table.state.current_player
        bot_to_move = seat is not None and table.bot_spec(seat) is not None
        needed = self._needs_runner(table)
        # Anyone may say a table needs a runner; only the holder (or anyone, once it is over) says
        # it does not, so a copy that is behind never hides a table that needs one.
        if (self.fanout.shared and needed != table.runnable
                and (needed or done or self.fanout.holds(table.row.id))):
            self.fanout.runnable(table.row.id, needed)
            table.runnable = needed
        if not needed:
            return
        if not self.fanout.holds(table.row.id):
            if table.claim_task is None or table.claim_task.done():
                table.claim_task = asyncio.create_task(self._claim(table))
            return
        if bot_to_move:
            if table.bot_task is None or table.bot_task.done():
                table.bot_task = asyncio.create_task(self._persist(table, self._bot_moves))
        elif table.row.clock_state and (table.clock_task is None or table.clock_task.done()):
            table.clock_task = asyncio.create_task(self._persist(table, self._watch_clock))

    @staticmethod
    def _needs_runner(table: LiveTable) -> bool:
        """Whether the table needs a process to run it: a bot to move or a clock to watch."""
        if not table.started or table.state.is_terminal or table.row.closed:
            return False
        seat = table.state.current_player
        return bool((seat is not None and table.bot_spec(seat) is not None) or table.row.clock_state)

    async def _persist(self, table: LiveTable, work: Callable[[LiveTable], Awaitable[None]]) -> None:
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
        while True:
            async with table.lock:
                seat = table.state.current_player
                if not self._needs_runner(table) or seat is None or (spec := table.bot_spec(seat)) is None:
                    break
                version = table.version
                sample = Observation.of(table.state).sample.to_json()
            action = await self.bots.choose(table.row.game, sample, seat, spec, bot_seed(table.row.seed, seat, version))
            async with table.lock:
                if not self.fanout.holds(table.row.id):
                    return  # the lease lapsed (Redis unreachable): another process may run the bots now
                if table.version != version:  # an undo, a restart or another process moved the table on
                    continue
                try:
                    await self._apply(table, table.game.action_from_json(action))
                except Refused as refusal:
                    if refusal.code != "stale":
                        raise
        self._kick(table)

    async def _watch_clock(self, table: LiveTable) -> None:
        """When the running seat's time is up, a bot takes the seat over."""
        async with table.lock:  # the first person to move after the start: their clock starts now
            running = self._clock_seat(table, table.state)
            if table.row.clock_state.get("seat") != running:
                table.row.clock_state = clock.run(table.row.clock_state, running, self.now())
                await self.stored(self.store.set_clock_state, table.row.id, table.row.clock_state)
                self.fanout.publish(table.row.id, "clock", table.version)
        while True:
            async with table.lock:
                if not self.fanout.holds(table.row.id):
                    return  # another process watches this table now
                state = table.row.clock_state
                left = clock.left_ms(state, self.now())
                if left is None or not self._needs_runner(table):
                    return
                if left <= 0 and self.fanout.shared:  # be sure the time is up: another process may have moved
                    await self._look_again(table)
                    state = table.row.clock_state
                    left = clock.left_ms(state, self.now())
                    if left is None or not self._needs_runner(table):
                        return
                if left <= 0:
                    seat = state["seat"]
                    await self._replace(table, seat, "timeout")
                    table.row.clock_state = clock.run(state, None, self.now())
                    await self.stored(self.store.set_clock_state, table.row.id, table.row.clock_state)
                    self.fanout.publish(table.row.id, "clock", table.version)
                    break
            await asyncio.sleep(min(left / 1000, 5.0))
        self._kick(table)

    # -- several processes (meeple.server.fanout) ------------------------------------------------
    async def start(self) -> None:
        """Start the upkeep (tables leave memory, idle ones close) and, with other processes,
        sharing the tables with them."""
        if self.fanout.shared:
            await self.fanout.start(self._notice, self._resync)
            self._in_background(self._sweep())
        self._in_background(self._check())

    async def stop(self) -> None:
        """A clean shutdown: stop listening, give the leases up, then close."""
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)
        await self.fanout.close()
        self.close()

    def _in_background(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _notice(self, notice: Notice) -> None:
        """Another process changed a table: reload it if loaded here (else it loads fresh on use)."""
        table = self.tables.get(notice.table)
        if table is None:
            return
        if notice.kind == "chat":
            self._in_background(self._chat_from_elsewhere(table, notice.version))
        elif notice.action is not None and not table.row.clock_state:
            self._in_background(self._follow(table, notice.version, notice.action))
        else:
            self._refresh(table)

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
            self._kick(table)
        else:
            self._refresh(table)

    def _resync(self) -> None:
        """Notices may have been missed (Redis was unreachable): look at every open table again."""
        for table in list(self.tables.values()):
            table.runnable = None  # Redis may have lost the set: say it again
            if not table.state.is_terminal:
                self._refresh(table)

    def _refresh(self, table: LiveTable) -> None:
        """Reload `table` soon; notices arriving meanwhile are folded into the one reload."""
        table.stale = True
        if table.refresh_task is None or table.refresh_task.done():
            table.refresh_task = asyncio.create_task(self._reload(table))

    async def _reload(self, table: LiveTable) -> None:
        while table.stale:
            table.stale = False
            async with table.lock:
                await self._look_again(table)
        self._kick(table)

    async def _look_again(self, table: LiveTable) -> None:
        """Bring `table` up to the store's copy (the lock held): new actions are applied and told
        one by one, as our own moves are; anything else (an undo elsewhere) is replayed."""
        if not self.fanout.shared:
            return
        try:
            row = await self.stored(self.store.load_table, table.row.id)
        except (StoreError, Refused) as exc:  # the database is away: the next look catches up
            log.warning("meeple: cannot reload table %s: %s", table.row.id, exc)
            return
        table.checked = time.monotonic()
        told = False
        if row.seats != table.row.seats or row.clock_state != table.row.clock_state or row.closed != table.row.closed:
            table.row.seats, table.row.clock_state, table.row.closed = row.seats, row.clock_state, row.closed
            told = not row.actions[table.version:]
        known = table.row.actions
        if row.actions[:len(known)] == known and await self._continue(table, row.actions[len(known):]):
            if told:
                await self._broadcast(table, [])
            return
        state = await self.replay(record_of(row))
        table.row.actions = list(row.actions)
        table.marks = []
        table.state = state
        await self._broadcast(table, [])

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
            await self._broadcast(table, events)
        return True

    async def _chat_from_elsewhere(self, table: LiveTable, index: int) -> None:
        try:
            lines = await self.stored(self.store.chat, table.row.id, index)
        except (StoreError, Refused) as exc:
            log.warning("meeple: cannot read the chat of table %s: %s", table.row.id, exc)
            return
        await self._tell_chat(table, [line for line in lines if line.index == index])

    async def _claim(self, table: LiveTable) -> None:
        """Take the table's free lease; having taken it, start from the store's copy."""
        if not self.fanout.holds(table.row.id):  # (it may have been taken meanwhile, on resuming)
            if not await self.fanout.claim(table.row.id):
                return
            async with table.lock:
                await self._look_again(table)
        self._kick(table)

    async def _sweep(self) -> None:
        """Now and then, look for tables that need a runner and have none (their process died):
        load them and take their leases, so their bots and clocks go on."""
        last_full = time.monotonic()
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            candidates = await self.fanout.runnable_sample(SWEEP_SAMPLE)
            if time.monotonic() - last_full > FULL_SWEEP_SECONDS:
                last_full = time.monotonic()
                try:
                    candidates += await self.stored(self.store.table_ids, True)
                except (StoreError, Refused) as exc:
                    log.warning("meeple: cannot list the tables: %s", exc)
            loads = 0
            for table_id in dict.fromkeys(candidates):
                if loads >= SWEEP_LOADS:
                    break
                if table_id in self.tables or await self.fanout.leased(table_id):
                    continue  # its bots and clock are someone's already
                loads += 1
                with contextlib.suppress(Refused):  # gone meanwhile, or the database is away
                    table = await self.get(table_id)
                    if table.state.is_terminal:  # its end was stored while the database was away
                        await self._mark_finished(table)
            for table in list(self.tables.values()):
                self._kick(table)

    async def _check(self) -> None:
        """The upkeep, in every deployment: with other processes, compare the tables watched
        here with the store; let loaded tables nobody uses leave memory (their records stay in
        the store); every TOUCH_SECONDS, tell the store which tables were used and close those
        nobody touched for `idle_close_seconds`."""
        last_round = time.monotonic()
        while True:
            await asyncio.sleep(CHECK_SECONDS / 2)
            if self.fanout.shared:
                await self._compare_watched()
            self.unload(time.monotonic() - max(self.config.unload_seconds, MIN_UNLOAD_SECONDS))
            if time.monotonic() - last_round >= TOUCH_SECONDS:
                last_round = time.monotonic()
                try:
                    await self.close_idle()
                except (StoreError, Refused) as exc:  # the database is away: the next round does it
                    log.warning("meeple: cannot close the idle tables: %s", exc)

    async def _compare_watched(self) -> None:
        """The safety net under the notices: a table someone watches here is compared with the
        store at least every CHECK_SECONDS, so a lost notice leaves no board stale for long."""
        due = time.monotonic() - CHECK_SECONDS
        watched = [t for t in self.tables.values() if t.connections and not t.state.is_terminal and t.checked < due]
        if not watched:
            return
        try:
            stored = await self.stored(self.store.versions, [t.row.id for t in watched])
        except (StoreError, Refused) as exc:
            log.warning("meeple: cannot compare the tables with the store: %s", exc)
            stored = {}
        for table in watched:
            table.checked = time.monotonic()
            if stored.get(table.row.id, table.version) != table.version:
                self._refresh(table)

    def unload(self, unused_since: float) -> None:
        """Forget the loaded tables nobody here watches or has used since `unused_since` (a
        monotonic time) and no work keeps (bots or a clock run by this process): finished and
        idle tables leave memory, so it stays flat however many games were played. Each loads
        again from the store on use."""
        for table in list(self.tables.values()):
            if table.connections or table.used >= unused_since or table.busy:
                continue
            held = self.fanout.holds(table.row.id)
            if held and self._needs_runner(table):
                continue
            del self.tables[table.row.id]
            if held and self.fanout.shared:
                self._in_background(self.fanout.release(table.row.id))

    def _touch(self, table: LiveTable) -> None:
        self._touched[table.row.id] = self.now()

    async def close_idle(self) -> list[str]:
        """Tell the store when the tables were last used here (those with a connection: now),
        then close every open table nobody anywhere touched for `idle_close_seconds`; the store
        decides, so any process may do it and a restart forgets nothing. Loaded ones are told.
        Returns the ids closed."""
        now = self.now()
        touched, self._touched = self._touched, {}
        touched.update((t.row.id, now) for t in self.tables.values() if t.connections)
        try:
            if touched:
                await self.stored(self.store.touch, touched)
            closed = await self.stored(self.store.close_idle, now - self.config.idle_close_seconds)
        except (StoreError, Refused):
            for table_id, at in touched.items():  # said again next round
                self._touched[table_id] = max(at, self._touched.get(table_id, at))
            raise
        for table_id in closed:
            self.fanout.publish(table_id, "closed", 0)
            table = self.tables.get(table_id)
            if table is not None:
                async with table.lock:
                    table.row.closed = True
                    await self._broadcast(table, [])
                self._kick(table)
        return closed

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


async def run_refusal(conn: Connection, hub: Hub, call: Awaitable[None]) -> None:
    """Await a table call; a refusal goes to this client alone."""
    try:
        await call
    except Refused as error:
        await hub.refuse(conn, error)
