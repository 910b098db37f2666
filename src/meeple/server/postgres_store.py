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

from meeple.server.store import (
    ChatRow,
    ListedTable,
    NoSuchTable,
    SeatRow,
    StaleVersion,
    Store,
    StoreError,
    StoreUnavailable,
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


class PostgresStore(Store):
    """A `Store` in a PostgreSQL database (`postgresql://user:password@host:port/dbname`)."""

    concurrency = POOL_MAX  # a call per pooled connection; each table's calls stay in order

    def __init__(self, url: str) -> None:
        self._url = url
        self._label = describe(url)
        self._closed = False
        self._migrate(url)  # on a connection of its own: fails fast, with the database's reason
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
            raise StoreUnavailable(f"PostgreSQL store {self._label}: the database cannot be reached") from e

    # -- connections and transactions ------------------------------------------------------

    @contextmanager
    def _errors(self, what: str) -> Iterator[None]:
        """psycopg's errors as StoreErrors: an unreachable database as StoreUnavailable."""
        try:
            yield
        except PoolTimeout as e:
            raise StoreUnavailable(
                f"PostgreSQL store {self._label}: {what}: the database cannot be reached "
                f"(no working connection within {POOL_TIMEOUT:g} s)"
            ) from e
        except psycopg.OperationalError as e:
            raise StoreUnavailable(
                f"PostgreSQL store {self._label}: {what}: the database cannot be reached ({_first_line(e)})"
            ) from e
        except psycopg.IntegrityError as e:
            raise StoreError(f"PostgreSQL store {self._label}: {what}: {_first_line(e)}") from e
        except psycopg.Error as e:
            raise StoreError(f"PostgreSQL store {self._label}: {what} failed: {_first_line(e)}") from e

    @contextmanager
    def _tx(self, what: str, write: bool = True) -> Iterator[psycopg.Connection[Any]]:
        """One transaction on a pooled connection, committed before it ends (rolled back on any
        exception). Reads see one snapshot.

        A write notes its transaction id before committing: if the connection breaks during the
        COMMIT, the database may have committed or not, and asking it (`_committed`) tells which,
        so a write is never reported failed when it was stored."""
        if self._closed:
            raise StoreError(f"PostgreSQL store {self._label}: closed")
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

    def _migrate(self, url: str) -> None:
        """Apply the migrations the database lacks, in order, in one transaction that holds an
        advisory lock: a second process starting at the same time waits, then finds them done."""
        with (
            self._errors("open"),
            psycopg.connect(url, autocommit=True, connect_timeout=int(POOL_TIMEOUT)) as conn,
            conn.transaction(),
        ):
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied DOUBLE PRECISION)"
            )
            current = self._schema_version(conn)
            for number, statements in enumerate(MIGRATIONS, start=1):
                if number <= current:
                    continue
                for statement in statements:
                    conn.execute(statement)
                conn.execute("INSERT INTO schema_version VALUES (%s, %s)", (number, time.time()))
        if current > len(MIGRATIONS):
            raise StoreError(
                f"PostgreSQL store {self._label}: schema version {current} is newer than this code knows "
                f"({len(MIGRATIONS)}); upgrade meeple to open it"
            )

    @staticmethod
    def _schema_version(conn: psycopg.Connection[Any]) -> int:
        row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
        return int(row[0] or 0) if row else 0

    @staticmethod
    def _lock(conn: psycopg.Connection[Any], table_id: str) -> int:
        """Lock the open table's row until the transaction ends; its version. NoSuchTable if
        none, TableClosed if it is closed."""
        row = conn.execute("SELECT version, closed FROM tables WHERE id = %s FOR UPDATE", (table_id,)).fetchone()
        if row is None:
            raise NoSuchTable(table_id)
        if row[1]:
            raise TableClosed(f"table {table_id!r} is closed")
        return int(row[0])

    # -- the Store interface ---------------------------------------------------------------

    def create_table(self, table: TableRow) -> None:
        with self._tx(f"create table {table.id!r}") as conn:
            conn.execute(
                "INSERT INTO tables (id, game, num_players, seed, options, join_code_hash, created, clock,"
                " clock_state, public, version, touched) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (
                    table.id,
                    table.game,
                    table.num_players,
                    table.seed,
                    dumps(table.options),
                    table.join_code_hash,
                    table.created,
                    dumps(table.clock),
                    dumps(table.clock_state),
                    table.public,
                    len(table.actions),
                    table.created,
                ),
            )
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO seats VALUES (%s, %s, %s, %s, %s, %s, %s)",
                    [(table.id, s.seat, s.kind, s.bot, dumps(s.name), s.credential_hash, s.left) for s in table.seats],
                )
                cur.executemany(
                    "INSERT INTO actions VALUES (%s, %s, %s)",
                    [(table.id, i, dumps(a)) for i, a in enumerate(table.actions)],
                )

    def load_table(self, table_id: str) -> TableRow:
        with self._tx(f"load table {table_id!r}", write=False) as conn:
            row = conn.execute(
                "SELECT id, game, num_players, seed, options, join_code_hash, created, clock, clock_state, public,"
                " closed FROM tables WHERE id = %s",
                (table_id,),
            ).fetchone()
            if row is None:
                raise NoSuchTable(table_id)
            seats = conn.execute(
                "SELECT seat, kind, bot, name, credential_hash, left_table FROM seats WHERE table_id = %s"
                " ORDER BY seat",
                (table_id,),
            ).fetchall()
            actions = conn.execute(
                "SELECT action FROM actions WHERE table_id = %s ORDER BY idx", (table_id,)
            ).fetchall()
        return table_row(row, [SeatRow(s[0], s[1], s[2], json.loads(s[3]), s[4], s[5]) for s in seats], actions)

    def table_ids(self, open_only: bool = False) -> list[str]:
        where = " WHERE NOT finished AND NOT closed" if open_only else ""
        with self._tx("list tables", write=False) as conn:
            rows = conn.execute(f"SELECT id FROM tables{where} ORDER BY created, seq").fetchall()
        return [r[0] for r in rows]

    def lobby(self, limit: int) -> list[ListedTable]:
        with self._tx("list the lobby", write=False) as conn:
            rows = conn.execute(
                "SELECT id, game, num_players, clock, version FROM tables"
                " WHERE public AND NOT finished AND NOT closed ORDER BY created DESC, seq DESC LIMIT %s",
                (limit,),
            ).fetchall()
            seats: dict[str, list[SeatRow]] = {row[0]: [] for row in rows}
            for s in conn.execute(
                "SELECT table_id, seat, kind, bot, name, credential_hash, left_table FROM seats"
                " WHERE table_id = ANY(%s) ORDER BY table_id, seat", (list(seats),),
            ):
                seats[s[0]].append(SeatRow(s[1], s[2], s[3], json.loads(s[4]), s[5], s[6]))
        return [ListedTable(r[0], r[1], r[2], seats[r[0]], json.loads(r[3]), int(r[4])) for r in rows]

    def touch(self, times: dict[str, float]) -> None:
        with self._tx("touch tables") as conn:
            conn.execute(
                "UPDATE tables t SET touched = GREATEST(t.touched, u.at)"
                " FROM unnest(%s::text[], %s::float8[]) AS u(id, at) WHERE t.id = u.id",
                (list(times), list(times.values())),
            )

    def close_idle(self, before: float) -> list[str]:
        with self._tx("close idle tables") as conn:
            rows = conn.execute(
                "UPDATE tables SET closed = TRUE WHERE NOT finished AND NOT closed AND touched < %s RETURNING id",
                (before,),
            ).fetchall()
        return [r[0] for r in rows]

    def versions(self, table_ids: list[str]) -> dict[str, int]:
        with self._tx("read versions", write=False) as conn:
            rows = conn.execute("SELECT id, version FROM tables WHERE id = ANY(%s)", (list(table_ids),)).fetchall()
        return {table_id: int(version) for table_id, version in rows}

    def update_seat(self, table_id: str, seat: SeatRow) -> None:
        """Replace one seat's row; NoSuchTable if the table is unknown, StoreError if the seat is."""
        with self._tx(f"update seat {seat.seat} of {table_id!r}") as conn:
            self._lock(conn, table_id)
            cur = conn.execute(
                "UPDATE seats SET kind = %s, bot = %s, name = %s, credential_hash = %s, left_table = %s"
                " WHERE table_id = %s AND seat = %s",
                (seat.kind, seat.bot, dumps(seat.name), seat.credential_hash, seat.left, table_id, seat.seat),
            )
            if cur.rowcount == 0:
                raise StoreError(f"table {table_id!r} has no seat {seat.seat}")

    def append_action(
        self, table_id: str, expected_version: int, action: dict[str, Any], clock_state: dict[str, Any] | None = None
    ) -> int:
        with self._tx(f"append to {table_id!r}") as conn:
            version = self._lock(conn, table_id)
            if version != expected_version:
                raise StaleVersion(f"table {table_id!r} is at version {version}, not {expected_version}")
            conn.execute("INSERT INTO actions VALUES (%s, %s, %s)", (table_id, version, dumps(action)))
            conn.execute(
                "UPDATE tables SET version = %s, clock_state = COALESCE(%s, clock_state) WHERE id = %s",
                (version + 1, None if clock_state is None else dumps(clock_state), table_id),
            )
        return version + 1

    def truncate_actions(self, table_id: str, expected_version: int, keep: int) -> int:
        """Undo: keep the first `keep` actions (0 <= keep <= version) if the table is at
        `expected_version` (else StaleVersion). Returns the new version, `keep`."""
        with self._tx(f"truncate {table_id!r}") as conn:
            version = self._lock(conn, table_id)
            if version != expected_version:
                raise StaleVersion(f"table {table_id!r} is at version {version}, not {expected_version}")
            if not 0 <= keep <= version:
                raise StoreError(f"cannot keep {keep} of {version} actions of table {table_id!r}")
            conn.execute("DELETE FROM actions WHERE table_id = %s AND idx >= %s", (table_id, keep))
            conn.execute("UPDATE tables SET version = %s WHERE id = %s", (keep, table_id))
        return keep

    def set_finished(self, table_id: str, finished: bool) -> None:
        with self._tx(f"set finished on {table_id!r}") as conn:
            if conn.execute("UPDATE tables SET finished = %s WHERE id = %s", (finished, table_id)).rowcount == 0:
                raise NoSuchTable(table_id)

    def set_clock_state(self, table_id: str, clock_state: dict[str, Any]) -> None:
        with self._tx(f"set clock of {table_id!r}") as conn:
            cur = conn.execute("UPDATE tables SET clock_state = %s WHERE id = %s", (dumps(clock_state), table_id))
            if cur.rowcount == 0:
                raise NoSuchTable(table_id)

    def add_chat(self, table_id: str, seat: int | None, name: str, text: str, at: float) -> ChatRow:
        with self._tx(f"chat on {table_id!r}") as conn:
            self._lock(conn, table_id)  # so two lines said at once get different indexes
            row = conn.execute(
                "SELECT COALESCE(MAX(idx) + 1, 0) FROM chat WHERE table_id = %s", (table_id,)
            ).fetchone()
            index = int(row[0]) if row else 0
            conn.execute(
                "INSERT INTO chat VALUES (%s, %s, %s, %s, %s, %s)",
                (table_id, index, seat, dumps(name), dumps(text), at),
            )
        return ChatRow(index, seat, name, text, at)

    def chat(self, table_id: str, since: int = 0) -> list[ChatRow]:
        with self._tx(f"read chat of {table_id!r}", write=False) as conn:
            if conn.execute("SELECT 1 FROM tables WHERE id = %s", (table_id,)).fetchone() is None:
                raise NoSuchTable(table_id)
            rows = conn.execute(
                "SELECT idx, seat, name, text, at FROM chat WHERE table_id = %s AND idx >= %s ORDER BY idx",
                (table_id, since),
            ).fetchall()
        return [ChatRow(r[0], r[1], json.loads(r[2]), json.loads(r[3]), r[4]) for r in rows]

    def close(self) -> None:
        """Close the pool's connections; the store cannot be used afterwards."""
        self._closed = True
        self._pool.close()
