"""The SQL both stores share (`SQLStore`): every query the two schemas answer alike, the
decoding of rows, and the bookkeeping of migrations. A dialect beside it (`SQLiteStore`,
`PostgresStore`) supplies what differs: connections, transactions and the errors they raise,
placeholders, how a write locks its table, where a table's version and clocks live, and the
few statements only its database can say (an upsert, a batch update).

Both schemas have the same tables (`tables`, `seats`, `actions`, `chat`, `hints`, `reviews`,
`review_claims`) with the same column names; booleans are bound as Python bools (SQLite stores 1
and 0), and every JSON value is stored as compact JSON text (`dumps`), so a record reads back
exactly as it was written.
"""

from __future__ import annotations

import json
import time
from abc import abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from meeple.server.store import (
    ChatRow,
    ListedTable,
    NoSuchTable,
    ReviewClaim,
    SeatRow,
    StaleVersion,
    Store,
    StoreError,
    TableRow,
)

#: A list of migrations: migration N (1-based) is the tuple of statements at N - 1.
Migrations = list[tuple[str, ...]]


class Cursor(Protocol):
    """What the core reads of a statement's result (sqlite3's and psycopg's cursors alike)."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """What the core asks of a connection (sqlite3's and psycopg's alike)."""

    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Cursor: ...


C = TypeVar("C", bound=Connection)


def dumps(value: Any) -> str:
    """A JSON column's text: compact, the same in every store."""
    return json.dumps(value, separators=(",", ":"))


class SQLStore(Store, Generic[C]):
    """A `Store` over SQL: the queries; a subclass is one database's dialect."""

    #: The placeholder the driver takes; the core writes "?" and the dialect's is put in.
    PARAM: ClassVar[str] = "?"
    #: The type of a floating-point column (schema_version.applied).
    REAL: ClassVar[str]
    #: A table neither finished nor closed, and an open public one (as the lobby's index says it).
    OPEN: ClassVar[str]
    LOBBY: ClassVar[str]
    #: What orders tables created at the same instant (their order of insertion).
    ORDER: ClassVar[str]
    #: A table's version over `tables t`, and where its clock state is read from.
    VERSION: ClassVar[str]
    CLOCK_STATE: ClassVar[str]
    FROM_TABLES: ClassVar[str]

    #: How error messages name this store ("SQLite store PATH"), never with a password.
    name: str

    # -- what a dialect supplies ---------------------------------------------------------------

    @abstractmethod
    def _tx(self, what: str, write: bool = True) -> AbstractContextManager[C]:
        """One transaction, committed before it ends; the driver's errors as StoreErrors that
        say `what` failed. A write's transaction excludes other writers of what it reads."""

    @abstractmethod
    def _migrating(self) -> AbstractContextManager[C]:
        """The transaction migrations run in, one process at a time."""

    @abstractmethod
    def _migrations(self) -> Migrations:
        """This dialect's schema, as migrations."""

    @abstractmethod
    def _many(self, conn: C, sql: str, rows: list[tuple[Any, ...]]) -> None:
        """Run one statement (written with "?") for each of `rows`."""

    @abstractmethod
    def _batches(self, ids: list[str]) -> Iterator[tuple[str, list[Any]]]:
        """`ids` as conditions on a column ("IN (?, ?)" or "= ANY(?)") with their parameters,
        in as many batches as the driver needs."""

    @abstractmethod
    def _insert_table(self, conn: C, columns: dict[str, Any], table: TableRow) -> None:
        """Insert a new table's row (`columns`, with the dialect's own) and its clock state."""

    @abstractmethod
    def _lock_open(self, conn: C, table_id: str) -> None:
        """Keep other writers off the table until the transaction ends; NoSuchTable if there is
        none, TableClosed if it is closed."""

    @abstractmethod
    def _locked_version(self, conn: C, table_id: str) -> int:
        """`_lock_open`, and the table's version."""

    @abstractmethod
    def _moved(self, conn: C, table_id: str, version: int, clock_state: dict[str, Any] | None) -> None:
        """The table's actions now number `version`; store `clock_state` with them unless None."""

    @abstractmethod
    def _set_clock(self, conn: C, table_id: str, clock_state: dict[str, Any]) -> None:
        """Store the table's clocks; NoSuchTable if there is no such table."""

    def _text(self, value: str) -> str:
        """A name or a chat line as stored (PostgreSQL text cannot hold every string)."""
        return value

    def _untext(self, stored: str) -> str:
        return stored

    # -- the shared part -------------------------------------------------------------------------

    def _run(self, conn: C, sql: str, params: Sequence[Any] | None = None) -> Cursor:
        """Execute `sql`, written with "?" placeholders, in the driver's own."""
        if self.PARAM != "?":
            sql = sql.replace("?", self.PARAM)
        return conn.execute(sql) if params is None else conn.execute(sql, params)

    def _migrate(self) -> None:
        """Apply the migrations the database lacks, each once, in order, in one transaction
        that one process at a time runs; a database written by newer code is refused."""
        migrations = self._migrations()
        with self._migrating() as conn:
            self._run(conn, "CREATE TABLE IF NOT EXISTS schema_version"
                            f" (version INTEGER PRIMARY KEY, applied {self.REAL})")
            row = self._run(conn, "SELECT MAX(version) FROM schema_version").fetchone()
            current = int(row[0] or 0)
            for number, statements in enumerate(migrations[current:], start=current + 1):
                for statement in statements:
                    self._run(conn, statement)
                self._run(conn, "INSERT INTO schema_version VALUES (?, ?)", (number, time.time()))
        if current > len(migrations):
            raise StoreError(f"{self.name}: schema version {current} is newer than this code knows "
                             f"({len(migrations)}); upgrade meeple to open it")

    def _seat(self, row: Sequence[Any]) -> SeatRow:
        """A seat from (seat, kind, bot, name, credential_hash, left_table)."""
        return SeatRow(row[0], row[1], row[2], self._untext(row[3]), row[4], bool(row[5]))

    def _require_table(self, conn: C, table_id: str) -> None:
        if self._run(conn, "SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone() is None:
            raise NoSuchTable(table_id)

    def create_table(self, table: TableRow) -> None:
        with self._tx(f"create table {table.id!r}") as conn:
            self._insert_table(conn, {
                "id": table.id, "game": table.game, "num_players": table.num_players, "seed": table.seed,
                "options": dumps(table.options), "join_code_hash": table.join_code_hash, "created": table.created,
                "clock": dumps(table.clock), "public": table.public, "touched": table.created,
            }, table)
            self._many(conn, "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?)",
                       [(table.id, s.seat, s.kind, s.bot, self._text(s.name), s.credential_hash, s.left)
                        for s in table.seats])
            self._many(conn, "INSERT INTO actions VALUES (?, ?, ?)",
                       [(table.id, i, dumps(a)) for i, a in enumerate(table.actions)])
            self._many(conn, "INSERT INTO hints VALUES (?, ?)", [(table.id, i) for i in sorted(set(table.hints))])

    def _insert(self, conn: C, into: str, columns: dict[str, Any]) -> None:
        """One row of `columns` into the table named `into`."""
        self._run(conn, f"INSERT INTO {into} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                  list(columns.values()))

    def load_table(self, table_id: str) -> TableRow:
        with self._tx(f"load table {table_id!r}", write=False) as conn:
            row = self._run(
                conn,
                f"SELECT t.id, game, num_players, seed, options, join_code_hash, created, clock, {self.CLOCK_STATE},"
                f" public, closed FROM {self.FROM_TABLES} WHERE t.id = ?",
                (table_id,),
            ).fetchone()
            if row is None:
                raise NoSuchTable(table_id)
            seats = self._run(
                conn, "SELECT seat, kind, bot, name, credential_hash, left_table FROM seats WHERE table_id = ?"
                      " ORDER BY seat", (table_id,),
            ).fetchall()
            actions = self._run(conn, "SELECT action FROM actions WHERE table_id = ? ORDER BY idx",
                                (table_id,)).fetchall()
            hints = self._run(conn, "SELECT idx FROM hints WHERE table_id = ? ORDER BY idx", (table_id,)).fetchall()
        table = _table_row(row, [self._seat(s) for s in seats], actions)
        table.hints = [int(h[0]) for h in hints]
        return table

    def table_ids(self, open_only: bool = False) -> list[str]:
        where = f" WHERE {self.OPEN}" if open_only else ""
        with self._tx("list tables", write=False) as conn:
            rows = self._run(conn, f"SELECT id FROM tables{where} ORDER BY created, {self.ORDER}").fetchall()
        return [r[0] for r in rows]

    def lobby(self, limit: int) -> list[ListedTable]:
        with self._tx("list the lobby", write=False) as conn:
            rows = self._run(
                conn,
                f"SELECT t.id, game, num_players, clock, {self.VERSION} FROM tables t WHERE {self.LOBBY}"
                f" ORDER BY created DESC, {self.ORDER} DESC LIMIT ?",
                (limit,),
            ).fetchall()
            seats: dict[str, list[SeatRow]] = {row[0]: [] for row in rows}
            for condition, params in self._batches(list(seats)):
                for s in self._run(conn, "SELECT table_id, seat, kind, bot, name, credential_hash, left_table"
                                         f" FROM seats WHERE table_id {condition} ORDER BY table_id, seat", params):
                    seats[s[0]].append(self._seat(s[1:]))
        return [ListedTable(r[0], r[1], r[2], seats[r[0]], json.loads(r[3]), int(r[4])) for r in rows]

    def close_idle(self, before: float) -> list[str]:
        with self._tx("close idle tables") as conn:
            rows = self._run(conn, f"UPDATE tables SET closed = ? WHERE {self.OPEN} AND touched < ? RETURNING id",
                             (True, before)).fetchall()
        return [r[0] for r in rows]

    def versions(self, table_ids: list[str]) -> dict[str, int]:
        found: dict[str, int] = {}
        with self._tx("read versions", write=False) as conn:
            for condition, params in self._batches(table_ids):
                found.update((table_id, int(version)) for table_id, version in self._run(
                    conn, f"SELECT t.id, {self.VERSION} FROM tables t WHERE t.id {condition}", params))
        return found

    def update_seat(self, table_id: str, seat: SeatRow) -> None:
        """Replace one seat's row; NoSuchTable if the table is unknown, StoreError if the seat is."""
        with self._tx(f"update seat {seat.seat} of {table_id!r}") as conn:
            self._lock_open(conn, table_id)
            cur = self._run(
                conn, "UPDATE seats SET kind = ?, bot = ?, name = ?, credential_hash = ?, left_table = ?"
                      " WHERE table_id = ? AND seat = ?",
                (seat.kind, seat.bot, self._text(seat.name), seat.credential_hash, seat.left, table_id, seat.seat),
            )
            if cur.rowcount == 0:
                raise StoreError(f"table {table_id!r} has no seat {seat.seat}")

    def append_action(
        self, table_id: str, expected_version: int, action: dict[str, Any], clock_state: dict[str, Any] | None = None
    ) -> int:
        with self._tx(f"append to {table_id!r}") as conn:
            version = self._locked_version(conn, table_id)
            _check_version(table_id, version, expected_version)
            self._run(conn, "INSERT INTO actions VALUES (?, ?, ?)", (table_id, version, dumps(action)))
            self._moved(conn, table_id, version + 1, clock_state)
        return version + 1

    def truncate_actions(self, table_id: str, expected_version: int, keep: int) -> int:
        """Undo: keep the first `keep` actions (0 <= keep <= version) if the table is at
        `expected_version` (else StaleVersion). Returns the new version, `keep`."""
        with self._tx(f"truncate {table_id!r}") as conn:
            version = self._locked_version(conn, table_id)
            _check_version(table_id, version, expected_version)
            if not 0 <= keep <= version:
                raise StoreError(f"cannot keep {keep} of {version} actions of table {table_id!r}")
            self._run(conn, "DELETE FROM actions WHERE table_id = ? AND idx >= ?", (table_id, keep))
            self._run(conn, "DELETE FROM hints WHERE table_id = ? AND idx >= ?", (table_id, keep))
            self._moved(conn, table_id, keep, None)
        return keep

    def set_finished(self, table_id: str, finished: bool) -> None:
        with self._tx(f"set finished on {table_id!r}") as conn:
            if self._run(conn, "UPDATE tables SET finished = ? WHERE id = ?", (finished, table_id)).rowcount == 0:
                raise NoSuchTable(table_id)

    def set_clock_state(self, table_id: str, clock_state: dict[str, Any]) -> None:
        with self._tx(f"set clock of {table_id!r}") as conn:
            self._set_clock(conn, table_id, clock_state)

    def add_hint(self, table_id: str, index: int) -> None:
        with self._tx(f"note a hint on {table_id!r}") as conn:
            self._lock_open(conn, table_id)
            self._run(conn, "INSERT INTO hints VALUES (?, ?) ON CONFLICT DO NOTHING", (table_id, index))

    def save_review(self, table_id: str, review: dict[str, Any]) -> None:
        with self._tx(f"keep the review of {table_id!r}") as conn:
            self._require_table(conn, table_id)
            self._run(conn, "INSERT INTO reviews VALUES (?, ?, ?) ON CONFLICT (table_id) DO UPDATE"
                            " SET review = excluded.review, saved = excluded.saved",
                      (table_id, dumps(review), time.time()))

    def load_review(self, table_id: str) -> dict[str, Any] | None:
        with self._tx(f"read the review of {table_id!r}", write=False) as conn:
            self._require_table(conn, table_id)
            row = self._run(conn, "SELECT review FROM reviews WHERE table_id = ?", (table_id,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def claim_review(self, table_id: str, owner: str, total: int, now: float, stale_after: float) -> ReviewClaim:
        with self._tx(f"claim the review of {table_id!r}") as conn:
            self._require_table(conn, table_id)
            self._run(conn, "INSERT INTO review_claims VALUES (?, ?, 0, ?, ?) ON CONFLICT (table_id) DO UPDATE"
                            " SET owner = excluded.owner, done = 0, total = excluded.total, beat = excluded.beat"
                            " WHERE review_claims.owner = excluded.owner OR review_claims.beat < ?",
                      (table_id, owner, total, now, now - stale_after))
            claim = self._claim(conn, table_id)
        assert claim is not None  # (inserted, or another's kept, in this transaction)
        return claim

    def review_claim(self, table_id: str) -> ReviewClaim | None:
        with self._tx(f"read the review claim of {table_id!r}", write=False) as conn:
            return self._claim(conn, table_id)

    def _claim(self, conn: C, table_id: str) -> ReviewClaim | None:
        row = self._run(conn, "SELECT owner, done, total, beat FROM review_claims WHERE table_id = ?",
                        (table_id,)).fetchone()
        return None if row is None else ReviewClaim(str(row[0]), int(row[1]), int(row[2]), float(row[3]))

    def note_review_progress(self, table_id: str, owner: str, done: int, now: float) -> None:
        with self._tx(f"note the review progress of {table_id!r}") as conn:
            self._run(conn, "UPDATE review_claims SET done = ?, beat = ? WHERE table_id = ? AND owner = ?",
                      (done, now, table_id, owner))

    def release_review(self, table_id: str, owner: str) -> None:
        with self._tx(f"release the review claim of {table_id!r}") as conn:
            self._run(conn, "DELETE FROM review_claims WHERE table_id = ? AND owner = ?", (table_id, owner))

    def add_chat(self, table_id: str, seat: int | None, name: str, text: str, at: float) -> ChatRow:
        with self._tx(f"chat on {table_id!r}") as conn:
            self._lock_open(conn, table_id)  # so two lines said at once get different indexes
            row = self._run(conn, "SELECT COALESCE(MAX(idx) + 1, 0) FROM chat WHERE table_id = ?",
                            (table_id,)).fetchone()
            index = int(row[0])
            self._run(conn, "INSERT INTO chat VALUES (?, ?, ?, ?, ?, ?)",
                      (table_id, index, seat, self._text(name), self._text(text), at))
        return ChatRow(index, seat, name, text, at)

    def chat(self, table_id: str, since: int = 0) -> list[ChatRow]:
        with self._tx(f"read chat of {table_id!r}", write=False) as conn:
            self._require_table(conn, table_id)
            rows = self._run(
                conn, "SELECT idx, seat, name, text, at FROM chat WHERE table_id = ? AND idx >= ? ORDER BY idx",
                (table_id, since),
            ).fetchall()
        return [ChatRow(r[0], r[1], self._untext(r[2]), self._untext(r[3]), r[4]) for r in rows]


def _check_version(table_id: str, version: int, expected: int) -> None:
    if version != expected:
        raise StaleVersion(f"table {table_id!r} is at version {version}, not {expected}")


def _table_row(row: Sequence[Any], seats: list[SeatRow], actions: Iterable[Sequence[Any]]) -> TableRow:
    """A `TableRow` from the stored columns (id, game, num_players, seed, options,
    join_code_hash, created, clock, clock_state, public, closed), its seats, and its actions'
    JSON texts in order; a missing clock state is an empty one."""
    return TableRow(
        id=row[0],
        game=row[1],
        num_players=row[2],
        seed=row[3],
        options=json.loads(row[4]),
        seats=seats,
        join_code_hash=row[5],
        created=row[6],
        clock=json.loads(row[7]),
        clock_state=json.loads(row[8]) if row[8] is not None else {},
        actions=[json.loads(action[0]) for action in actions],
        public=bool(row[9]),
        closed=bool(row[10]),
    )
