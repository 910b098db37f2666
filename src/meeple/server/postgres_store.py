"""The PostgreSQL store: one database shared by several server processes.

Why it is built this way:
- A small `psycopg_pool.ConnectionPool` (1 to 8 connections) serves the thread pool; each method
  takes a connection for one transaction and gives it back. Every connection is checked before
  it is handed out and a broken one is discarded, so when the database comes back after an
  outage the pool reconnects by itself; while it is away, a call fails within `POOL_TIMEOUT`
  with `StoreUnavailable` instead of hanging.
- Every write that depends on what is stored first locks the table's row (`SELECT ... FOR
  UPDATE`), so the check "is the table still at `expected_version`?" and the write are one
  atomic step between any number of processes; the loser gets `StaleVersion` and writes nothing.
  The version is a column of the table's row, kept equal to the number of actions.
- A write notes its transaction id before its COMMIT; if the connection breaks during the
  COMMIT, a new connection asks the database how that transaction ended (`pg_xact_status`), so
  a stored move is acknowledged and only a move that was not stored is refused.
- Reads run in one REPEATABLE READ transaction, so a table is never seen half-written.
- JSON values are stored as compact JSON text, exactly as they came (jsonb would reorder keys);
  names and chat lines as JSON strings too, since PostgreSQL text cannot hold a NUL character.
- The schema is an ordered list of migrations recorded in `schema_version`, applied at open
  under a transaction-scoped advisory lock, so several processes starting at once apply each
  migration exactly once; a database written by a newer version of the code is refused.
- Error messages name the server and database, never the user or password of the URL.

The queries both stores share are in `meeple.server.sql_store`; this module is PostgreSQL's
dialect.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import ConnectionPool, PoolTimeout

from meeple.server.sql_store import Migrations, SQLStore, dumps
from meeple.server.store import NoSuchTable, StoreError, StoreUnavailable, TableClosed, TableRow

# Migration N (1-based) is MIGRATIONS[N - 1]: a tuple of statements applied in one transaction.
# Append new migrations at the end; never edit one that has shipped.
MIGRATIONS: list[tuple[str, ...]] = [
    (
        """CREATE TABLE tables (
            id TEXT PRIMARY KEY,
            seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
            game TEXT NOT NULL,
            num_players INTEGER NOT NULL,
            seed BIGINT NOT NULL,
            options TEXT NOT NULL,
            join_code_hash TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            clock TEXT NOT NULL,
            clock_state TEXT NOT NULL,
            public BOOLEAN NOT NULL,
            finished BOOLEAN NOT NULL DEFAULT FALSE,
            version INTEGER NOT NULL
        )""",
        """CREATE TABLE seats (
            table_id TEXT NOT NULL REFERENCES tables(id),
            seat INTEGER NOT NULL,
            kind TEXT NOT NULL,
            bot TEXT,
            name TEXT NOT NULL,
            credential_hash TEXT,
            left_table BOOLEAN NOT NULL,
            PRIMARY KEY (table_id, seat)
        )""",
        """CREATE TABLE actions (
            table_id TEXT NOT NULL REFERENCES tables(id),
            idx INTEGER NOT NULL,
            action TEXT NOT NULL,
            PRIMARY KEY (table_id, idx)
        )""",
        """CREATE TABLE chat (
            table_id TEXT NOT NULL REFERENCES tables(id),
            idx INTEGER NOT NULL,
            seat INTEGER,
            name TEXT NOT NULL,
            text TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (table_id, idx)
        )""",
    ),
    # 2: when each table was last used (tables open at the upgrade count from then) and whether
    # it was closed for want of use; indexes for the lobby and for finding idle tables.
    (
        "ALTER TABLE tables ADD COLUMN touched DOUBLE PRECISION NOT NULL DEFAULT 0",
        "UPDATE tables SET touched = EXTRACT(EPOCH FROM now())",
        "ALTER TABLE tables ADD COLUMN closed BOOLEAN NOT NULL DEFAULT FALSE",
        "CREATE INDEX tables_lobby ON tables (created) WHERE public AND NOT finished AND NOT closed",
        "CREATE INDEX tables_idle ON tables (touched) WHERE NOT finished AND NOT closed",
    ),
    # 3: the moves a player asked a hint for (at a table of bots), and each finished game's review.
    (
        """CREATE TABLE hints (
            table_id TEXT NOT NULL REFERENCES tables(id),
            idx INTEGER NOT NULL,
            PRIMARY KEY (table_id, idx)
        )""",
        """CREATE TABLE reviews (
            table_id TEXT PRIMARY KEY REFERENCES tables(id),
            review TEXT NOT NULL,
            saved DOUBLE PRECISION NOT NULL
        )""",
    ),
    # 4: which process works out a table's review, how far it has got and when it last said so.
    (
        """CREATE TABLE review_claims (
            table_id TEXT PRIMARY KEY REFERENCES tables(id),
            owner TEXT NOT NULL,
            done INTEGER NOT NULL,
            total INTEGER NOT NULL,
            beat DOUBLE PRECISION NOT NULL
        )""",
    ),
]

#: Seconds a call waits for a working connection before it fails with StoreUnavailable.
POOL_TIMEOUT = 5.0
#: Seconds the pool keeps retrying one lost connection (1, 2, 4 s apart) before it gives up on
#: it; the next call then connects at once. Short, so a database back after a long outage is
#: used again within seconds, not after a long back-off.
RECONNECT_TIMEOUT = 10.0
POOL_MIN, POOL_MAX = 1, 8
#: Any fixed number, the same in every process: the advisory lock that serializes migrations.
MIGRATION_LOCK = 0x6D65_6570_6C65  # "meeple"


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def describe(url: str) -> str:
    """The URL as error messages show it: server and database, no user or password."""
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError:  # its message may quote the URL, password and all
        raise StoreError("--db: not a valid PostgreSQL URL") from None
    host = parts.get("host") or "localhost"
    port = parts.get("port") or "5432"
    return f"postgresql://{host}:{port}/{parts.get('dbname') or ''}"


def transaction_id(conn: psycopg.Connection[Any]) -> str:
    """The current transaction's id (assigning one if it has none yet)."""
    row = conn.execute("SELECT pg_current_xact_id()::text").fetchone()
    assert row is not None
    return str(row[0])


class PostgresStore(SQLStore[psycopg.Connection[Any]]):
    """A `Store` in a PostgreSQL database (`postgresql://user:password@host:port/dbname`)."""

    concurrency = POOL_MAX  # a call per pooled connection; each table's calls stay in order
    PARAM = "%s"
    REAL = "DOUBLE PRECISION"
    OPEN = "NOT finished AND NOT closed"
    LOBBY = f"public AND {OPEN}"
    ORDER = "seq"
    VERSION = "t.version"
    CLOCK_STATE = "t.clock_state"
    FROM_TABLES = "tables t"

    def __init__(self, url: str) -> None:
        self._url = url
        self.name = f"PostgreSQL store {describe(url)}"
        self._closed = False
        self._migrate()  # on a connection of its own: fails fast, with the database's reason
        self._pool = ConnectionPool(
            url,
            min_size=POOL_MIN,
            max_size=POOL_MAX,
            timeout=POOL_TIMEOUT,
            reconnect_timeout=RECONNECT_TIMEOUT,
            kwargs={"autocommit": True, "connect_timeout": int(POOL_TIMEOUT)},
            check=ConnectionPool.check_connection,
            name="meeple",
            open=False,
        )
        try:
            self._pool.open(wait=True, timeout=POOL_TIMEOUT)
        except PoolTimeout as e:
            self._pool.close()
            raise StoreUnavailable(f"{self.name}: the database cannot be reached") from e

    # -- connections and transactions ------------------------------------------------------

    @contextmanager
    def _errors(self, what: str) -> Iterator[None]:
        """psycopg's errors as StoreErrors: an unreachable database as StoreUnavailable."""
        try:
            yield
        except PoolTimeout as e:
            raise StoreUnavailable(
                f"{self.name}: {what}: the database cannot be reached "
                f"(no working connection within {POOL_TIMEOUT:g} s)"
            ) from e
        except psycopg.OperationalError as e:
            raise StoreUnavailable(f"{self.name}: {what}: the database cannot be reached ({_first_line(e)})") from e
        except psycopg.IntegrityError as e:
            raise StoreError(f"{self.name}: {what}: {_first_line(e)}") from e
        except psycopg.Error as e:
            raise StoreError(f"{self.name}: {what} failed: {_first_line(e)}") from e

    @contextmanager
    def _tx(self, what: str, write: bool = True) -> Iterator[psycopg.Connection[Any]]:
        """One transaction on a pooled connection, committed before it ends (rolled back on any
        exception). Reads see one snapshot.

        A write notes its transaction id before committing: if the connection breaks during the
        COMMIT, the database may have committed or not, and asking it (`_committed`) tells which,
        so a write is never reported failed when it was stored."""
        if self._closed:
            raise StoreError(f"{self.name}: closed")
        with self._errors(what), self._pool.connection() as conn:
            xid: str | None = None
            try:
                with conn.transaction():
                    if not write:
                        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                    yield conn
                    if write:
                        xid = transaction_id(conn)
            except psycopg.OperationalError:
                if xid is None or not self._committed(xid):
                    raise

    def _committed(self, xid: str) -> bool:
        """Whether transaction `xid`, whose COMMIT was cut off, committed; asked on a new
        connection, waiting while the database still sees it in progress."""
        deadline = time.monotonic() + POOL_TIMEOUT
        with psycopg.connect(self._url, autocommit=True, connect_timeout=int(POOL_TIMEOUT)) as conn:
            while True:
                row = conn.execute("SELECT pg_xact_status(%s::xid8)", (xid,)).fetchone()
                status = row[0] if row else None
                if status != "in progress" or time.monotonic() > deadline:
                    return status == "committed"
                time.sleep(0.05)

    @contextmanager
    def _migrating(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection of its own, in one transaction holding an advisory lock: a second
        process starting at the same time waits, then finds the migrations done."""
        with (
            self._errors("open"),
            psycopg.connect(self._url, autocommit=True, connect_timeout=int(POOL_TIMEOUT)) as conn,
            conn.transaction(),
        ):
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            yield conn

    def _migrations(self) -> Migrations:
        return MIGRATIONS

    # -- what PostgreSQL says its own way --------------------------------------------------

    def _many(self, conn: psycopg.Connection[Any], sql: str, rows: list[tuple[Any, ...]]) -> None:
        with conn.cursor() as cur:
            cur.executemany(sql.replace("?", self.PARAM), rows)

    def _batches(self, ids: list[str]) -> Iterator[tuple[str, list[Any]]]:
        yield "= ANY(?)", [ids]

    def _insert_table(self, conn: psycopg.Connection[Any], columns: dict[str, Any], table: TableRow) -> None:
        own = {"clock_state": dumps(table.clock_state), "version": len(table.actions)}
        self._insert(conn, "tables", {**columns, **own})

    def _text(self, value: str) -> str:
        return dumps(value)  # a JSON string: PostgreSQL text cannot hold a NUL character

    def _untext(self, stored: str) -> str:
        text: str = json.loads(stored)
        return text

    def _locked_version(self, conn: psycopg.Connection[Any], table_id: str) -> int:
        """Lock the open table's row until the transaction ends; its version."""
        row = conn.execute("SELECT version, closed FROM tables WHERE id = %s FOR UPDATE", (table_id,)).fetchone()
        if row is None:
            raise NoSuchTable(table_id)
        if row[1]:
            raise TableClosed(f"table {table_id!r} is closed")
        return int(row[0])

    def _lock_open(self, conn: psycopg.Connection[Any], table_id: str) -> None:
        self._locked_version(conn, table_id)

    def _moved(self, conn: psycopg.Connection[Any], table_id: str, version: int,
               clock_state: dict[str, Any] | None) -> None:
        conn.execute(
            "UPDATE tables SET version = %s, clock_state = COALESCE(%s, clock_state) WHERE id = %s",
            (version, None if clock_state is None else dumps(clock_state), table_id),
        )

    def _set_clock(self, conn: psycopg.Connection[Any], table_id: str, clock_state: dict[str, Any]) -> None:
        cur = conn.execute("UPDATE tables SET clock_state = %s WHERE id = %s", (dumps(clock_state), table_id))
        if cur.rowcount == 0:
            raise NoSuchTable(table_id)

    def touch(self, times: dict[str, float]) -> None:
        with self._tx("touch tables") as conn:
            conn.execute(
                "UPDATE tables t SET touched = GREATEST(t.touched, u.at)"
                " FROM unnest(%s::text[], %s::float8[]) AS u(id, at) WHERE t.id = u.id",
                (list(times), list(times.values())),
            )

    def close(self) -> None:
        """Close the pool's connections; the store cannot be used afterwards."""
        self._closed = True
        self._pool.close()
