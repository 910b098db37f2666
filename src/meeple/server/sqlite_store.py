"""The embedded store: one SQLite file, safe for a thread pool and for several processes.

Why it is built this way:
- WAL journal and `synchronous=FULL`: readers never block the writer, and a commit is on disk
  (the WAL fsynced) before the method returns, so an acknowledged move survives a crash.
- Every write runs in `BEGIN IMMEDIATE`: the write lock is taken before the version is read, so
  the check "is the table still at `expected_version`?" and the insert are one atomic step, even
  between two processes on the same file. The loser gets `StaleVersion` and writes nothing.
- One connection per thread (a `sqlite3.Connection` must not be used by two threads at once);
  `busy_timeout` makes a writer wait for the lock instead of failing at once. ":memory:" is one
  database per connection, so it uses a single connection behind a lock instead.
- The schema is an ordered list of migrations recorded in `schema_version`; a file written by a
  newer version of the code is refused rather than misread.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from meeple.server.store import (
    ChatRow,
    ListedTable,
    NoSuchTable,
    SeatRow,
    StaleVersion,
    Store,
    StoreError,
    TableClosed,
    TableRow,
    dumps,
    table_row,
)

# Migration N (1-based) is MIGRATIONS[N - 1]: a tuple of statements applied in one transaction.
# Append new migrations at the end; never edit one that has shipped.
MIGRATIONS: list[tuple[str, ...]] = [
    (
        """CREATE TABLE tables (
            id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            num_players INTEGER NOT NULL,
            seed INTEGER NOT NULL,
            options TEXT NOT NULL,
            join_code_hash TEXT NOT NULL,
            created REAL NOT NULL,
            clock TEXT NOT NULL,
            finished INTEGER NOT NULL DEFAULT 0
        )""",
        """CREATE TABLE seats (
            table_id TEXT NOT NULL REFERENCES tables(id),
            seat INTEGER NOT NULL,
            kind TEXT NOT NULL,
            bot TEXT,
            name TEXT NOT NULL,
            credential_hash TEXT,
            left_table INTEGER NOT NULL,
            PRIMARY KEY (table_id, seat)
        ) WITHOUT ROWID""",
        """CREATE TABLE actions (
            table_id TEXT NOT NULL REFERENCES tables(id),
            idx INTEGER NOT NULL,
            action TEXT NOT NULL,
            PRIMARY KEY (table_id, idx)
        ) WITHOUT ROWID""",
        """CREATE TABLE chat (
            table_id TEXT NOT NULL REFERENCES tables(id),
            idx INTEGER NOT NULL,
            seat INTEGER,
            name TEXT NOT NULL,
            text TEXT NOT NULL,
            at REAL NOT NULL,
            PRIMARY KEY (table_id, idx)
        ) WITHOUT ROWID""",
        """CREATE TABLE clock_state (
            table_id TEXT PRIMARY KEY REFERENCES tables(id),
            state TEXT NOT NULL
        ) WITHOUT ROWID""",
    ),
    # 2: tables anyone may join from the lobby, without the join code.
    ("ALTER TABLE tables ADD COLUMN public INTEGER NOT NULL DEFAULT 0",),
    # 3: when each table was last used (tables open at the upgrade count from then) and whether
    # it was closed for want of use; indexes for the lobby and for finding idle tables.
    (
        "ALTER TABLE tables ADD COLUMN touched REAL NOT NULL DEFAULT 0",
        "UPDATE tables SET touched = (julianday('now') - 2440587.5) * 86400.0",
        "ALTER TABLE tables ADD COLUMN closed INTEGER NOT NULL DEFAULT 0",
        "CREATE INDEX tables_lobby ON tables (created) WHERE public = 1 AND finished = 0 AND closed = 0",
        "CREATE INDEX tables_idle ON tables (touched) WHERE finished = 0 AND closed = 0",
    ),
]

BUSY_TIMEOUT_MS = 10_000  # how long a writer waits for another writer before giving up


class _Held:
    """One thread's connection. The thread-local owns it, so when the thread ends (a pool's idle
    worker exits) it is collected and its connection closed instead of leaking."""

    __slots__ = ("__weakref__", "conn")

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __del__(self) -> None:
        self.conn.close()


class SQLiteStore(Store):
    """A `Store` in one SQLite file (or ":memory:" for tests)."""

    def __init__(self, path: str | Path) -> None:
        self._path = str(path)
        self._memory = self._path == ":memory:"
        self._lock = threading.RLock()  # guards _held and, for ":memory:", the one connection
        self._local = threading.local()
        self._held: weakref.WeakSet[_Held] = weakref.WeakSet()  # the live threads' connections, for close()
        self._closed = False
        self._shared = self._connect() if self._memory else None
        self._migrate()

    # -- connections and transactions ------------------------------------------------------

    def _connect(self) -> _Held:
        try:
            # isolation_level=None: no implicit transactions, each method says BEGIN itself.
            conn = sqlite3.connect(
                self._path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as e:
            raise StoreError(f"SQLite store {self._path}: cannot open: {e}") from e
        held = _Held(conn)  # closes the connection if setting it up fails below
        try:
            conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            if not self._memory:
                self._enable_wal(conn)
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as e:
            raise StoreError(f"SQLite store {self._path}: cannot set up: {e}") from e
        with self._lock:
            self._held.add(held)
        return held

    def _enable_wal(self, conn: sqlite3.Connection) -> None:
        """Switch the file to WAL. Switching needs an exclusive lock and SQLite does not wait
        for it (no busy handler), so several processes opening a new file at once retry here."""
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        while True:
            try:
                mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                break
            except sqlite3.OperationalError as e:
                if "locked" not in str(e) or time.monotonic() > deadline:
                    raise
                time.sleep(0.005)
        if mode != "wal":
            raise StoreError(f"SQLite store {self._path}: cannot use WAL journal (got {mode!r})")

    @contextmanager
    def _conn(self) -> Iterator[sqlite3.Connection]:
        """This thread's connection (or the shared one, held under the lock, for ":memory:")."""
        if self._closed:
            raise StoreError(f"SQLite store {self._path}: closed")
        if self._shared is not None:
            with self._lock:
                yield self._shared.conn
            return
        held: _Held | None = getattr(self._local, "held", None)
        if held is None:
            held = self._local.held = self._connect()
        yield held.conn

    @contextmanager
    def _tx(self, what: str, write: bool = True) -> Iterator[sqlite3.Connection]:
        """One transaction, committed before it ends; sqlite3 errors become StoreError.

        Writes take the write lock up front (IMMEDIATE) so a read-then-write cannot race;
        reads use a deferred transaction for a consistent snapshot."""
        with self._conn() as conn:
            try:
                conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                try:
                    yield conn
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
            except sqlite3.IntegrityError as e:
                raise StoreError(f"SQLite store {self._path}: {what}: {e}") from e
            except sqlite3.Error as e:
                raise StoreError(f"SQLite store {self._path}: {what} failed: {e}") from e

    def _migrate(self) -> None:
        """Apply the migrations this file lacks, each once, in order, in its own transaction.

        The version is re-read inside each write transaction, so two processes opening a new
        file at the same time cannot both apply a migration."""
        with self._conn() as conn:
            try:
                conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied REAL)")
            except sqlite3.Error as e:
                raise StoreError(f"SQLite store {self._path}: cannot create schema_version: {e}") from e
        for number, statements in enumerate(MIGRATIONS, start=1):
            with self._tx(f"migration {number}") as conn:
                current = self._schema_version(conn)
                if current >= number:
                    continue
                for statement in statements:
                    conn.execute(statement)
                conn.execute("INSERT INTO schema_version VALUES (?, ?)", (number, time.time()))
        with self._tx("schema check", write=False) as conn:
            current = self._schema_version(conn)
        if current > len(MIGRATIONS):
            self.close()
            raise StoreError(
                f"SQLite store {self._path}: schema version {current} is newer than this code knows "
                f"({len(MIGRATIONS)}); upgrade meeple to open it"
            )

    @staticmethod
    def _schema_version(conn: sqlite3.Connection) -> int:
        row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
        return int(row[0] or 0)

    def _require_table(self, conn: sqlite3.Connection, table_id: str) -> None:
        if conn.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone() is None:
            raise NoSuchTable(table_id)

    def _require_open(self, conn: sqlite3.Connection, table_id: str) -> None:
        row = conn.execute("SELECT closed FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            raise NoSuchTable(table_id)
        if row[0]:
            raise TableClosed(f"table {table_id!r} is closed")

    def _version(self, conn: sqlite3.Connection, table_id: str) -> int:
        self._require_open(conn, table_id)
        row = conn.execute("SELECT MAX(idx) FROM actions WHERE table_id = ?", (table_id,)).fetchone()
        return 0 if row[0] is None else int(row[0]) + 1

    # -- the Store interface ---------------------------------------------------------------

    def create_table(self, table: TableRow) -> None:
        with self._tx(f"create table {table.id!r}") as conn:
            conn.execute(
                "INSERT INTO tables (id, game, num_players, seed, options, join_code_hash, created, clock, public,"
                " touched) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    table.id,
                    table.game,
                    table.num_players,
                    table.seed,
                    dumps(table.options),
                    table.join_code_hash,
                    table.created,
                    dumps(table.clock),
                    int(table.public),
                    table.created,
                ),
            )
            conn.executemany(
                "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(table.id, s.seat, s.kind, s.bot, s.name, s.credential_hash, int(s.left)) for s in table.seats],
            )
            conn.executemany(
                "INSERT INTO actions VALUES (?, ?, ?)",
                [(table.id, i, dumps(a)) for i, a in enumerate(table.actions)],
            )
            conn.execute("INSERT INTO clock_state VALUES (?, ?)", (table.id, dumps(table.clock_state)))

    def load_table(self, table_id: str) -> TableRow:
        with self._tx(f"load table {table_id!r}", write=False) as conn:
            row = conn.execute(
                "SELECT t.id, game, num_players, seed, options, join_code_hash, created, clock, c.state, public,"
                " closed FROM tables t LEFT JOIN clock_state c ON c.table_id = t.id WHERE t.id = ?",
                (table_id,),
            ).fetchone()
            if row is None:
                raise NoSuchTable(table_id)
            seats = conn.execute(
                "SELECT seat, kind, bot, name, credential_hash, left_table FROM seats WHERE table_id = ? ORDER BY seat",
                (table_id,),
            ).fetchall()
            actions = conn.execute(
                "SELECT action FROM actions WHERE table_id = ? ORDER BY idx", (table_id,)
            ).fetchall()
        return table_row(row, [SeatRow(s[0], s[1], s[2], s[3], s[4], bool(s[5])) for s in seats], actions)

    def table_ids(self, open_only: bool = False) -> list[str]:
        where = " WHERE finished = 0 AND closed = 0" if open_only else ""
        with self._tx("list tables", write=False) as conn:
            rows = conn.execute(f"SELECT id FROM tables{where} ORDER BY created, rowid").fetchall()
        return [r[0] for r in rows]

    def lobby(self, limit: int) -> list[ListedTable]:
        with self._tx("list the lobby", write=False) as conn:
            rows = conn.execute(
                "SELECT id, game, num_players, clock,"
                " COALESCE((SELECT MAX(idx) + 1 FROM actions WHERE table_id = t.id), 0) FROM tables t"
                " WHERE public = 1 AND finished = 0 AND closed = 0 ORDER BY created DESC, rowid DESC LIMIT ?",
                (limit,),
            ).fetchall()
            seats: dict[str, list[SeatRow]] = {row[0]: [] for row in rows}
            ids = list(seats)
            for start in range(0, len(ids), 500):  # SQLite binds at most 999 parameters
                part = ids[start:start + 500]
                for s in conn.execute(
                    "SELECT table_id, seat, kind, bot, name, credential_hash, left_table FROM seats"
                    f" WHERE table_id IN ({','.join('?' * len(part))}) ORDER BY table_id, seat", part,
                ):
                    seats[s[0]].append(SeatRow(s[1], s[2], s[3], s[4], s[5], bool(s[6])))
        return [ListedTable(r[0], r[1], r[2], seats[r[0]], json.loads(r[3]), r[4]) for r in rows]

    def touch(self, times: dict[str, float]) -> None:
        with self._tx("touch tables") as conn:
            conn.executemany("UPDATE tables SET touched = MAX(touched, ?) WHERE id = ?",
                             [(at, table_id) for table_id, at in times.items()])

    def close_idle(self, before: float) -> list[str]:
        with self._tx("close idle tables") as conn:
            rows = conn.execute(
                "UPDATE tables SET closed = 1 WHERE finished = 0 AND closed = 0 AND touched < ? RETURNING id",
                (before,),
            ).fetchall()
        return [r[0] for r in rows]

    def versions(self, table_ids: list[str]) -> dict[str, int]:
        found: dict[str, int] = {}
        with self._tx("read versions", write=False) as conn:
            for start in range(0, len(table_ids), 500):  # SQLite binds at most 999 parameters
                part = table_ids[start:start + 500]
                marks = ",".join("?" * len(part))
                found.update((table_id, 0) for (table_id,) in conn.execute(
                    f"SELECT id FROM tables WHERE id IN ({marks})", part))
                found.update(conn.execute(
                    f"SELECT table_id, COUNT(*) FROM actions WHERE table_id IN ({marks}) GROUP BY table_id", part))
        return found

    def update_seat(self, table_id: str, seat: SeatRow) -> None:
        """Replace one seat's row; NoSuchTable if the table is unknown, StoreError if the seat is."""
        with self._tx(f"update seat {seat.seat} of {table_id!r}") as conn:
            self._require_open(conn, table_id)
            cur = conn.execute(
                "UPDATE seats SET kind = ?, bot = ?, name = ?, credential_hash = ?, left_table = ?"
                " WHERE table_id = ? AND seat = ?",
                (seat.kind, seat.bot, seat.name, seat.credential_hash, int(seat.left), table_id, seat.seat),
            )
            if cur.rowcount == 0:
                raise StoreError(f"table {table_id!r} has no seat {seat.seat}")

    def append_action(
        self, table_id: str, expected_version: int, action: dict[str, Any], clock_state: dict[str, Any] | None = None
    ) -> int:
        with self._tx(f"append to {table_id!r}") as conn:
            version = self._version(conn, table_id)
            if version != expected_version:
                raise StaleVersion(f"table {table_id!r} is at version {version}, not {expected_version}")
            conn.execute("INSERT INTO actions VALUES (?, ?, ?)", (table_id, version, dumps(action)))
            if clock_state is not None:
                conn.execute("UPDATE clock_state SET state = ? WHERE table_id = ?", (dumps(clock_state), table_id))
        return version + 1

    def truncate_actions(self, table_id: str, expected_version: int, keep: int) -> int:
        """Undo: keep the first `keep` actions (0 <= keep <= version) if the table is at
        `expected_version` (else StaleVersion). Returns the new version, `keep`."""
        with self._tx(f"truncate {table_id!r}") as conn:
            version = self._version(conn, table_id)
            if version != expected_version:
                raise StaleVersion(f"table {table_id!r} is at version {version}, not {expected_version}")
            if not 0 <= keep <= version:
                raise StoreError(f"cannot keep {keep} of {version} actions of table {table_id!r}")
            conn.execute("DELETE FROM actions WHERE table_id = ? AND idx >= ?", (table_id, keep))
        return keep

    def set_finished(self, table_id: str, finished: bool) -> None:
        with self._tx(f"set finished on {table_id!r}") as conn:
            if conn.execute("UPDATE tables SET finished = ? WHERE id = ?", (int(finished), table_id)).rowcount == 0:
                raise NoSuchTable(table_id)

    def set_clock_state(self, table_id: str, clock_state: dict[str, Any]) -> None:
        with self._tx(f"set clock of {table_id!r}") as conn:
            self._require_table(conn, table_id)
            conn.execute(
                "INSERT INTO clock_state VALUES (?, ?) ON CONFLICT (table_id) DO UPDATE SET state = excluded.state",
                (table_id, dumps(clock_state)),
            )

    def add_chat(self, table_id: str, seat: int | None, name: str, text: str, at: float) -> ChatRow:
        with self._tx(f"chat on {table_id!r}") as conn:
            self._require_open(conn, table_id)
            row = conn.execute("SELECT COALESCE(MAX(idx) + 1, 0) FROM chat WHERE table_id = ?", (table_id,)).fetchone()
            index = int(row[0])
            conn.execute("INSERT INTO chat VALUES (?, ?, ?, ?, ?, ?)", (table_id, index, seat, name, text, at))
        return ChatRow(index, seat, name, text, at)

    def chat(self, table_id: str, since: int = 0) -> list[ChatRow]:
        with self._tx(f"read chat of {table_id!r}", write=False) as conn:
            self._require_table(conn, table_id)
            rows = conn.execute(
                "SELECT idx, seat, name, text, at FROM chat WHERE table_id = ? AND idx >= ? ORDER BY idx",
                (table_id, since),
            ).fetchall()
        return [ChatRow(*r) for r in rows]

    def close(self) -> None:
        """Close every thread's connection; the store cannot be used afterwards."""
        with self._lock:
            self._closed = True
            for held in list(self._held):
                held.conn.close()
            self._held.clear()
            self._shared = None
