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
- A table's version is the number of its actions (read under the write lock); its clocks are
  a row of `clock_state`.
- The schema is an ordered list of migrations recorded in `schema_version`, applied in one
  `BEGIN IMMEDIATE` transaction (so two processes opening a new file apply each once); a file
  written by a newer version of the code is refused rather than misread.

The queries both stores share are in `meeple.server.sql_store`; this module is SQLite's dialect.
"""

from __future__ import annotations

import sqlite3
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

from meeple.server.sql_store import Migrations, SQLStore, dumps
from meeple.server.store import NoSuchTable, StoreError, TableClosed, TableRow

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
    # 4: the moves a player asked a hint for (at a table of bots), and each finished game's review.
    (
        """CREATE TABLE hints (
            table_id TEXT NOT NULL REFERENCES tables(id),
            idx INTEGER NOT NULL,
            PRIMARY KEY (table_id, idx)
        ) WITHOUT ROWID""",
        """CREATE TABLE reviews (
            table_id TEXT PRIMARY KEY REFERENCES tables(id),
            review TEXT NOT NULL,
            saved REAL NOT NULL
        ) WITHOUT ROWID""",
    ),
    # 5: which process works out a table's review, how far it has got and when it last said so.
    (
        """CREATE TABLE review_claims (
            table_id TEXT PRIMARY KEY REFERENCES tables(id),
            owner TEXT NOT NULL,
            done INTEGER NOT NULL,
            total INTEGER NOT NULL,
            beat REAL NOT NULL
        ) WITHOUT ROWID""",
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


class SQLiteStore(SQLStore[sqlite3.Connection]):
    """A `Store` in one SQLite file (or ":memory:" for tests)."""

    REAL = "REAL"
    OPEN = "finished = 0 AND closed = 0"  # as the partial indexes say it, so that they are used
    LOBBY = f"public = 1 AND {OPEN}"
    ORDER = "rowid"
    VERSION = "COALESCE((SELECT MAX(idx) + 1 FROM actions WHERE table_id = t.id), 0)"
    CLOCK_STATE = "c.state"
    FROM_TABLES = "tables t LEFT JOIN clock_state c ON c.table_id = t.id"

    def __init__(self, path: str | Path) -> None:
        self._path = str(path)
        self.name = f"SQLite store {self._path}"
        self._memory = self._path == ":memory:"
        self._lock = threading.RLock()  # guards _held and, for ":memory:", the one connection
        self._local = threading.local()
        self._held: weakref.WeakSet[_Held] = weakref.WeakSet()  # the live threads' connections, for close()
        self._closed = False
        self._shared = self._connect() if self._memory else None
        try:
            self._migrate()
        except StoreError:
            self.close()
            raise

    # -- connections and transactions ------------------------------------------------------

    def _connect(self) -> _Held:
        try:
            # isolation_level=None: no implicit transactions, each method says BEGIN itself.
            conn = sqlite3.connect(
                self._path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as e:
            raise StoreError(f"{self.name}: cannot open: {e}") from e
        held = _Held(conn)  # closes the connection if setting it up fails below
        try:
            conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            if not self._memory:
                self._enable_wal(conn)
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as e:
            raise StoreError(f"{self.name}: cannot set up: {e}") from e
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
            raise StoreError(f"{self.name}: cannot use WAL journal (got {mode!r})")

    @contextmanager
    def _conn(self) -> Iterator[sqlite3.Connection]:
        """This thread's connection (or the shared one, held under the lock, for ":memory:")."""
        if self._closed:
            raise StoreError(f"{self.name}: closed")
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
                raise StoreError(f"{self.name}: {what}: {e}") from e
            except sqlite3.Error as e:
                raise StoreError(f"{self.name}: {what} failed: {e}") from e

    def _migrating(self) -> AbstractContextManager[sqlite3.Connection]:
        return self._tx("migration")

    def _migrations(self) -> Migrations:
        return MIGRATIONS

    # -- what SQLite says its own way ------------------------------------------------------

    def _many(self, conn: sqlite3.Connection, sql: str, rows: list[tuple[Any, ...]]) -> None:
        conn.executemany(sql, rows)

    def _batches(self, ids: list[str]) -> Iterator[tuple[str, list[Any]]]:
        for start in range(0, len(ids), 500):  # SQLite binds at most 999 parameters
            part = ids[start:start + 500]
            yield f"IN ({','.join('?' * len(part))})", part

    def _insert_table(self, conn: sqlite3.Connection, columns: dict[str, Any], table: TableRow) -> None:
        self._insert(conn, "tables", columns)
        self._insert(conn, "clock_state", {"table_id": table.id, "state": dumps(table.clock_state)})

    def _lock_open(self, conn: sqlite3.Connection, table_id: str) -> None:
        """The transaction holds the write lock already (BEGIN IMMEDIATE): check the table."""
        row = conn.execute("SELECT closed FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            raise NoSuchTable(table_id)
        if row[0]:
            raise TableClosed(f"table {table_id!r} is closed")

    def _locked_version(self, conn: sqlite3.Connection, table_id: str) -> int:
        self._lock_open(conn, table_id)
        row = conn.execute("SELECT MAX(idx) FROM actions WHERE table_id = ?", (table_id,)).fetchone()
        return 0 if row[0] is None else int(row[0]) + 1

    def _moved(self, conn: sqlite3.Connection, table_id: str, version: int, clock_state: dict[str, Any] | None) -> None:
        if clock_state is not None:  # (the version is the actions' count: nothing to write for it)
            conn.execute("UPDATE clock_state SET state = ? WHERE table_id = ?", (dumps(clock_state), table_id))

    def _set_clock(self, conn: sqlite3.Connection, table_id: str, clock_state: dict[str, Any]) -> None:
        self._require_table(conn, table_id)
        conn.execute(
            "INSERT INTO clock_state VALUES (?, ?) ON CONFLICT (table_id) DO UPDATE SET state = excluded.state",
            (table_id, dumps(clock_state)),
        )

    def touch(self, times: dict[str, float]) -> None:
        with self._tx("touch tables") as conn:
            conn.executemany("UPDATE tables SET touched = MAX(touched, ?) WHERE id = ?",
                             [(at, table_id) for table_id, at in times.items()])

    def close(self) -> None:
        """Close every thread's connection; the store cannot be used afterwards."""
        with self._lock:
            self._closed = True
            for held in list(self._held):
                held.conn.close()
            self._held.clear()
            self._shared = None
