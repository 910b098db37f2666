"""The Store contract: every implementation must pass the tests that take the `store` or
`backend` fixture. To add one, add to BACKENDS a context manager that gives each test a fresh,
empty store's location (and removes it afterwards), and teach `store_child.open_store` its kind.

The tests at the end are specific to SQLiteStore (its file, schema and migrations); those of
PostgresStore's schema are in test_postgres_store.py."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from meeple.server import sqlite_store
from meeple.server.sqlite_store import SQLiteStore
from meeple.server.store import (
    ChatRow,
    ListedTable,
    NoSuchTable,
    ReviewClaim,
    SeatRow,
    StaleVersion,
    Store,
    StoreError,
    TableClosed,
    TableRow,
)
from tests.server.services import throwaway_postgres
from tests.server.store_child import open_store

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Backend:
    """Where a store lives, so a test (or a child process) can open a second one on it."""

    kind: str
    url: str

    def open(self) -> Store:
        return open_store(self.kind, self.url)

    def child(self, *args: str) -> list[str]:
        """The command line for a store_child process on this backend."""
        mode, *rest = args
        return [sys.executable, "-m", "tests.server.store_child", mode, self.kind, self.url, *rest]


@contextmanager
def sqlite_backend(tmp_path: Path) -> Iterator[Backend]:
    yield Backend("sqlite", str(tmp_path / "meeple.db"))


@contextmanager
def postgres_backend(tmp_path: Path) -> Iterator[Backend]:
    with throwaway_postgres() as url:  # skips the test when the machine has no PostgreSQL
        yield Backend("postgres", url)


BACKENDS: dict[str, Callable[[Path], AbstractContextManager[Backend]]] = {
    "sqlite": sqlite_backend,
    "postgres": postgres_backend,
}


@pytest.fixture(params=sorted(BACKENDS))
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    with BACKENDS[request.param](tmp_path) as where:
        yield where


@pytest.fixture
def store(backend: Backend) -> Iterator[Store]:
    s = backend.open()
    yield s
    s.close()


def make_table(table_id: str = "t1", created: float = 1000.0, **changes: object) -> TableRow:
    table = TableRow(
        id=table_id,
        game="triqueta",
        num_players=3,
        seed=42,
        options={"board": "small", "variant": ["a", 1, None, True]},
        seats=[
            SeatRow(0, "human", None, "Ana", "hash0", False),
            SeatRow(1, "bot", "mcts:iterations=200", "Bot", None, False),
            SeatRow(2, "human", "greedy", "Bé ☃", "hash2", True),
        ],
        join_code_hash="joinhash",
        created=created,
        clock={"initial_ms": 600000, "increment_ms": 5000},
        clock_state={"remaining_ms": [1, 2, 3], "turn_started": 1234.5},
        actions=[{"type": "place", "at": [0, 1]}, {"type": "pass"}],
    )
    return replace(table, **changes)  # type: ignore[arg-type]


# -- the contract --------------------------------------------------------------------------------


def test_round_trip_of_every_field(store: Store) -> None:
    table = make_table()
    store.create_table(table)
    loaded = store.load_table("t1")
    assert loaded == table
    assert loaded.version == 2


def test_round_trip_of_defaults(store: Store) -> None:
    table = TableRow("t2", "castell", 2, 0, {}, [SeatRow(0, "human"), SeatRow(1, "bot", "random")], "", 5.0)
    store.create_table(table)
    assert store.load_table("t2") == table


def test_duplicate_id_is_refused(store: Store) -> None:
    store.create_table(make_table())
    with pytest.raises(StoreError):
        store.create_table(make_table())
    assert store.table_ids() == ["t1"]


def test_unknown_id(store: Store) -> None:
    store.create_table(make_table())
    with pytest.raises(NoSuchTable):
        store.load_table("nope")
    with pytest.raises(NoSuchTable):
        store.append_action("nope", 0, {"type": "pass"})
    with pytest.raises(NoSuchTable):
        store.truncate_actions("nope", 0, 0)
    with pytest.raises(NoSuchTable):
        store.set_finished("nope", True)
    with pytest.raises(NoSuchTable):
        store.set_clock_state("nope", {})
    with pytest.raises(NoSuchTable):
        store.add_chat("nope", None, "x", "hi", 1.0)
    with pytest.raises(NoSuchTable):
        store.chat("nope")
    with pytest.raises(NoSuchTable):
        store.update_seat("nope", SeatRow(0, "human"))


def test_update_seat(store: Store) -> None:
    table = make_table()
    store.create_table(table)
    claimed = SeatRow(1, "human", "mcts:iterations=200", "Bea", "newhash", False)
    store.update_seat("t1", claimed)
    assert store.load_table("t1").seats == [table.seats[0], claimed, table.seats[2]]
    left = replace(claimed, left=True)
    store.update_seat("t1", left)
    assert store.load_table("t1").seats[1] == left
    with pytest.raises(StoreError):
        store.update_seat("t1", SeatRow(7, "human"))


def test_append_with_right_and_stale_version(store: Store) -> None:
    store.create_table(make_table(actions=[]))
    assert store.append_action("t1", 0, {"n": 0}) == 1
    assert store.append_action("t1", 1, {"n": 1}) == 2
    for stale in (0, 1, 3):
        with pytest.raises(StaleVersion):
            store.append_action("t1", stale, {"n": "bad"}, {"bad": True})
    loaded = store.load_table("t1")
    assert loaded.actions == [{"n": 0}, {"n": 1}]
    assert loaded.clock_state == make_table().clock_state  # the failed appends wrote no clock either
    assert store.append_action("t1", 2, {"n": 2}) == 3


def test_truncate_with_right_and_stale_version(store: Store) -> None:
    store.create_table(make_table(actions=[{"n": i} for i in range(5)]))
    with pytest.raises(StaleVersion):
        store.truncate_actions("t1", 4, 2)
    assert store.load_table("t1").version == 5
    assert store.truncate_actions("t1", 5, 3) == 3
    assert store.load_table("t1").actions == [{"n": 0}, {"n": 1}, {"n": 2}]
    with pytest.raises(StaleVersion):
        store.append_action("t1", 5, {"n": "late"})
    assert store.append_action("t1", 3, {"n": "redo"}) == 4
    assert store.truncate_actions("t1", 4, 4) == 4  # keeping everything is allowed
    for bad in (-1, 5):
        with pytest.raises(StoreError):
            store.truncate_actions("t1", 4, bad)
    assert store.truncate_actions("t1", 4, 0) == 0
    assert store.load_table("t1").actions == []


def test_set_finished_and_table_ids(store: Store) -> None:
    assert store.table_ids() == []
    for i, table_id in enumerate(["b", "a", "c"]):
        store.create_table(make_table(table_id, created=100.0 + i))
    assert store.table_ids() == ["b", "a", "c"]  # oldest first, not by id
    store.set_finished("a", True)
    assert store.table_ids() == ["b", "a", "c"]
    assert store.table_ids(open_only=True) == ["b", "c"]
    store.set_finished("a", False)
    assert store.table_ids(open_only=True) == ["b", "a", "c"]


def test_the_lobby_is_open_public_tables_newest_first_without_loading_them(store: Store) -> None:
    for i, (table_id, public) in enumerate([("old", True), ("private", False), ("done", True), ("shut", True),
                                            ("new", True)]):
        store.create_table(make_table(table_id, created=100.0 + i, public=public))
    store.set_finished("done", True)
    store.touch({"old": 500.0, "new": 500.0, "private": 500.0, "done": 500.0})
    assert store.close_idle(before=300.0) == ["shut"]
    listed = store.lobby(10)
    assert [t.id for t in listed] == ["new", "old"]
    assert listed[0] == ListedTable("new", "triqueta", 3, make_table().seats, make_table().clock, 2)
    assert [t.id for t in store.lobby(1)] == ["new"]
    assert store.table_ids(open_only=True) == ["old", "private", "new"]


def test_touch_keeps_the_latest_time_and_close_idle_closes_once(store: Store) -> None:
    store.create_table(make_table("a", created=100.0))
    store.create_table(make_table("b", created=100.0))
    store.touch({"a": 400.0, "nope": 999.0})
    store.touch({"a": 200.0})  # an older report does not make it look idle
    assert store.close_idle(before=300.0) == ["b"]
    assert store.close_idle(before=300.0) == []
    assert store.load_table("b").closed and not store.load_table("a").closed
    assert sorted(store.close_idle(before=500.0)) == ["a"]


def test_a_closed_table_refuses_every_write_and_stays_readable(store: Store) -> None:
    store.create_table(make_table())
    assert store.close_idle(before=2000.0) == ["t1"]
    for write in (lambda: store.append_action("t1", 2, {"type": "pass"}), lambda: store.truncate_actions("t1", 2, 1),
                  lambda: store.update_seat("t1", SeatRow(0, "human", None, "X", "h", False)),
                  lambda: store.add_chat("t1", 0, "Ana", "hi", 1.0)):
        with pytest.raises(TableClosed):
            write()
    assert store.load_table("t1") == make_table(closed=True)


def test_clock_state(store: Store) -> None:
    store.create_table(make_table(actions=[]))
    store.append_action("t1", 0, {"n": 0}, {"remaining_ms": [9, 9, 9]})
    assert store.load_table("t1").clock_state == {"remaining_ms": [9, 9, 9]}
    store.append_action("t1", 1, {"n": 1})  # no clock given: the stored one stays
    assert store.load_table("t1").clock_state == {"remaining_ms": [9, 9, 9]}
    store.set_clock_state("t1", {"remaining_ms": [0, 9, 9], "timed_out": [0]})
    loaded = store.load_table("t1")
    assert loaded.clock_state == {"remaining_ms": [0, 9, 9], "timed_out": [0]}
    assert loaded.clock == make_table().clock


def test_chat(store: Store) -> None:
    store.create_table(make_table("t1"))
    store.create_table(make_table("t2"))
    assert store.chat("t1") == []
    rows = [store.add_chat("t1", seat, f"p{seat}", f"hello {i} ☃", 10.0 + i) for i, seat in enumerate([0, None, 2])]
    assert [r.index for r in rows] == [0, 1, 2]
    assert rows[1] == ChatRow(1, None, "pNone", "hello 1 ☃", 11.0)
    assert store.chat("t1") == rows
    assert store.chat("t1", since=1) == rows[1:]
    assert store.chat("t1", since=3) == []
    assert store.add_chat("t2", 1, "x", "other table", 20.0).index == 0
    assert store.chat("t1") == rows


def test_any_text_round_trips_even_a_nul_character(store: Store) -> None:
    """Names and chat lines come from people; the API does not forbid control characters."""
    odd = "a\x00b\n\t\u2603\U0001f3b2\\\"'"
    table = make_table(seats=[SeatRow(0, "human", None, odd, "h", False), SeatRow(1, "bot", "greedy", "x")],
                       options={"k": odd}, actions=[{"say": odd}])
    store.create_table(table)
    assert store.load_table("t1") == table
    assert store.add_chat("t1", 0, odd, odd, 1.5) == ChatRow(0, 0, odd, odd, 1.5)
    assert store.chat("t1") == [ChatRow(0, 0, odd, odd, 1.5)]


def test_a_second_store_sees_the_first_ones_writes(backend: Backend, store: Store) -> None:
    store.create_table(make_table(actions=[]))
    store.append_action("t1", 0, {"n": 0})
    other = backend.open()
    try:
        assert other.append_action("t1", 1, {"n": 1}) == 2
        with pytest.raises(StaleVersion):
            store.append_action("t1", 1, {"n": "lost"})
        assert store.load_table("t1").actions == [{"n": 0}, {"n": 1}]
    finally:
        other.close()


def test_two_threads_racing_at_the_same_version(store: Store) -> None:
    """Each round both threads append at the same version: exactly one may win."""
    rounds = 200
    store.create_table(make_table(actions=[]))
    barrier = threading.Barrier(2)
    results: dict[int, list[int | None]] = {0: [], 1: []}
    errors: list[BaseException] = []

    def racer(me: int) -> None:
        try:
            for r in range(rounds):
                barrier.wait()
                try:
                    results[me].append(store.append_action("t1", r, {"by": me, "round": r}))
                except StaleVersion:
                    results[me].append(None)
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)
            barrier.abort()

    threads = [threading.Thread(target=racer, args=(me,)) for me in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for r in range(rounds):
        outcomes = [results[0][r], results[1][r]]
        assert sorted(outcomes, key=lambda v: v is None) == [r + 1, None], f"round {r}: {outcomes}"
    actions = store.load_table("t1").actions
    assert [a["round"] for a in actions] == list(range(rounds))
    winners = [0 if results[0][r] is not None else 1 for r in range(rounds)]
    assert [a["by"] for a in actions] == winners


@pytest.mark.slow
def test_two_processes_appending_concurrently(backend: Backend, store: Store) -> None:
    count = 150
    store.create_table(make_table(actions=[]))
    children = [subprocess.Popen(backend.child("race", "t1", label, str(count)), cwd=ROOT) for label in "AB"]
    try:
        for child in children:
            assert child.wait(timeout=120) == 0
    finally:
        for child in children:
            child.kill()
            child.wait()
    actions = store.load_table("t1").actions
    assert len(actions) == 2 * count
    for label in "AB":
        assert [a["i"] for a in actions if a["by"] == label] == list(range(count))  # none lost, none twice


def race_openers(backend: Backend, count: int) -> list[tuple[str, int]]:
    """Start `count` processes that each open the store, release them at once, and return each
    one's (stderr, exit code)."""
    children = [
        subprocess.Popen(backend.child("open"), cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
        for _ in range(count)
    ]
    try:
        for child in children:
            assert child.stdout is not None and child.stdout.readline() == "ready\n"
        for child in children:  # the starting gun
            assert child.stdin is not None
            child.stdin.write("go\n")
            child.stdin.flush()
        return [(child.communicate(timeout=60)[1], child.returncode) for child in children]
    finally:
        for child in children:
            child.kill()
            child.wait()


@pytest.mark.slow
def test_several_processes_opening_a_new_store_at_once(backend: Backend) -> None:
    """Each creates the schema if it is missing: they must not trip over each other."""
    failures = [err for err, code in race_openers(backend, 8) if err and code != 0]
    assert failures == []
    store = backend.open()
    try:
        store.create_table(make_table())
        assert store.table_ids() == ["t1"]
    finally:
        store.close()


@pytest.mark.slow
def test_acknowledged_appends_survive_sigkill(backend: Backend, store: Store) -> None:
    acknowledged = 60
    store.create_table(make_table(actions=[]))
    child = subprocess.Popen(
        backend.child("ack", "t1", "100000"), cwd=ROOT, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    try:
        assert child.stdout is not None
        lines = [child.stdout.readline() for _ in range(acknowledged)]
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.kill()
        child.wait(timeout=30)
    assert [int(line) for line in lines] == list(range(1, acknowledged + 1))
    reopened = backend.open()
    try:
        actions = reopened.load_table("t1").actions
    finally:
        reopened.close()
    assert len(actions) >= acknowledged
    assert actions == [{"i": i} for i in range(len(actions))]


# -- SQLiteStore only ----------------------------------------------------------------------------


def test_sqlite_memory_store_from_several_threads() -> None:
    store = SQLiteStore(":memory:")
    store.create_table(make_table(actions=[]))

    def append(me: int) -> None:
        for i in range(50):
            while True:
                try:
                    store.append_action("t1", store.load_table("t1").version, {"by": me, "i": i})
                    break
                except StaleVersion:
                    continue

    threads = [threading.Thread(target=append, args=(me,)) for me in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert store.load_table("t1").version == 200
    store.close()


def open_files(path: Path) -> int:
    """How many descriptors this process holds on `path` (its -wal and -shm files left out)."""
    fds = Path("/proc/self/fd")
    return sum(1 for fd in fds.iterdir() if os.path.realpath(fd) == str(path.resolve()))


def test_sqlite_connections_of_ended_threads_are_closed(tmp_path: Path) -> None:
    """A server's pool retires idle worker threads: their connections must not pile up."""
    path = tmp_path / "s.db"
    store = SQLiteStore(path)
    store.create_table(make_table())
    before = open_files(path)
    for _ in range(20):
        t = threading.Thread(target=store.load_table, args=("t1",))
        t.start()
        t.join()
    # SQLite keeps one closed connection's descriptor for reuse while another connection of the
    # process holds a lock on the file (POSIX locks are per process), so allow one more.
    assert open_files(path) <= before + 1
    store.close()
    assert open_files(path) == 0


def test_sqlite_file_settings_and_compact_json(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = SQLiteStore(path)
    store.create_table(make_table(actions=[]))
    store.append_action("t1", 0, {"type": "place", "at": [0, 1]})
    store.close()
    raw = sqlite3.connect(path)
    try:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert raw.execute("SELECT action FROM actions").fetchone()[0] == '{"type":"place","at":[0,1]}'
        options = raw.execute("SELECT options FROM tables").fetchone()[0]
        assert options == '{"board":"small","variant":["a",1,null,true]}'
    finally:
        raw.close()


def schema_versions(path: Path) -> list[tuple[int, float]]:
    raw = sqlite3.connect(path)
    try:
        return raw.execute("SELECT version, applied FROM schema_version ORDER BY version").fetchall()
    finally:
        raw.close()


def check_migrations_apply_once(open_new: Callable[[], Store], module: Any,
                                versions: Callable[[], list[Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    """Every migration of `module` (a store's module) is applied once, in order, and a new one
    once to an existing database and not again on the next open (a second CREATE TABLE would
    fail). `open_new` opens the store on one database; `versions` reads its schema_version rows."""
    store = open_new()
    store.create_table(make_table())
    store.close()
    first = versions()
    assert [v for v, _ in first] == list(range(1, len(module.MIGRATIONS) + 1))
    open_new().close()
    assert versions() == first

    monkeypatch.setattr(module, "MIGRATIONS", [*module.MIGRATIONS, ("CREATE TABLE extra (x INTEGER)",)])
    open_new().close()
    store = open_new()
    assert store.load_table("t1") == make_table()
    store.close()
    second = versions()
    assert second[:-1] == first
    assert second[-1][0] == len(first) + 1


def test_migrations_are_applied_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "s.db"
    check_migrations_apply_once(lambda: SQLiteStore(path), sqlite_store, lambda: schema_versions(path), monkeypatch)


def check_the_upgrade_gives_open_tables_a_full_idle_period(open_new: Callable[[], Store], module: Any,
                                                          insert_old: Callable[[str, float], None],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A table stored before tables knew when they were last used counts as used at the upgrade,
    not at its creation long ago (else the first round would close every old open table)."""
    with monkeypatch.context() as old:
        old.setattr(module, "MIGRATIONS", module.MIGRATIONS[:CLOSE_MIGRATION[module.__name__] - 1])
        open_new().close()
    insert_old("t1", 100.0)  # created long ago, by the older code
    upgraded = time.time()
    store = open_new()
    try:
        assert store.close_idle(before=upgraded - 60) == []
        assert not store.load_table("t1").closed and store.lobby(5) == []
        assert store.close_idle(before=time.time() + 60) == ["t1"]
    finally:
        store.close()


#: The migration that added the tables' last use and closed flag, per store module.
CLOSE_MIGRATION = {"meeple.server.sqlite_store": 3, "meeple.server.postgres_store": 2}


def test_the_upgrade_counts_open_tables_as_used_now(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "s.db"

    def insert_old(table_id: str, created: float) -> None:
        with sqlite3.connect(path) as conn:
            conn.execute("INSERT INTO tables (id, game, num_players, seed, options, join_code_hash, created, clock)"
                         " VALUES (?, 'triqueta', 2, 1, '{}', 'h', ?, '{}')", (table_id, created))

    check_the_upgrade_gives_open_tables_a_full_idle_period(lambda: SQLiteStore(path), sqlite_store, insert_old,
                                                          monkeypatch)


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    SQLiteStore(path).close()
    raw = sqlite3.connect(path)
    raw.execute("INSERT INTO schema_version VALUES (?, 0)", (len(sqlite_store.MIGRATIONS) + 1,))
    raw.commit()
    raw.close()
    with pytest.raises(StoreError, match="newer"):
        SQLiteStore(path)


def test_sqlite_errors_become_store_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "s.db"
    store = SQLiteStore(path)
    store.create_table(make_table(actions=[]))
    store.close()
    monkeypatch.setattr(sqlite_store, "BUSY_TIMEOUT_MS", 100)
    store = SQLiteStore(path)
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # another writer holds the lock too long
    try:
        with pytest.raises(StoreError, match="locked") as caught:
            store.append_action("t1", 0, {"n": 0})
        assert not isinstance(caught.value, StaleVersion)
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert store.append_action("t1", 0, {"n": 0}) == 1
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.load_table("t1")
    with pytest.raises(StoreError, match="cannot open"):
        SQLiteStore(tmp_path / "no" / "such" / "dir.db")


def test_versions_of_many_tables_in_one_read(store: Store) -> None:
    store.create_table(make_table("t1"))
    store.create_table(make_table("t2", actions=[]))
    store.append_action("t2", 0, {"type": "pass"})
    ids = [f"x{i}" for i in range(1200)] + ["t1", "t2"]  # more ids than SQLite binds at once
    assert store.versions(ids) == {"t1": 2, "t2": 1}
    store.truncate_actions("t1", 2, 0)
    assert store.versions(["t1"]) == {"t1": 0}
    assert store.versions([]) == {}


def test_hints_are_kept_in_order_once_each_and_an_undo_forgets_those_it_takes_back(store: Store) -> None:
    store.create_table(make_table(hints=[1]))
    assert store.load_table("t1").hints == [1]
    store.append_action("t1", 2, {"type": "pass"})
    store.add_hint("t1", 2)
    store.add_hint("t1", 0)
    store.add_hint("t1", 2)  # asked again at the same move: noted once
    assert store.load_table("t1").hints == [0, 1, 2]
    store.truncate_actions("t1", 3, 1)
    assert store.load_table("t1").hints == [0]
    with pytest.raises(NoSuchTable):
        store.add_hint("nope", 0)


def test_a_review_is_kept_replaced_and_read_back_exactly(store: Store) -> None:
    store.create_table(make_table())
    assert store.load_review("t1") is None
    review = {"format": "meeple-review", "moves": [{"index": 0, "label": "best", "luck": -0.125}],
              "words": {"zh-Hant": "第 1 手 ☃"}}
    store.save_review("t1", review)
    assert store.load_review("t1") == review
    store.save_review("t1", {**review, "moves": []})
    assert store.load_review("t1") == {**review, "moves": []}
    with pytest.raises(NoSuchTable):
        store.load_review("nope")
    with pytest.raises(NoSuchTable):
        store.save_review("nope", review)


def test_a_review_is_claimed_by_one_process_until_it_releases_it_or_goes_quiet(backend: Backend) -> None:
    first, second = backend.open(), backend.open()  # two processes over one database
    try:
        first.create_table(make_table())
        assert first.review_claim("t1") is None
        mine = first.claim_review("t1", "a", 40, now=100.0, stale_after=60.0)
        assert mine == ReviewClaim("a", 0, 40, 100.0)
        assert second.claim_review("t1", "b", 40, now=130.0, stale_after=60.0) == mine  # a's, heard 30 s ago
        first.note_review_progress("t1", "a", 12, now=150.0)
        second.note_review_progress("t1", "b", 39, now=151.0)  # not b's: nothing changes
        assert second.review_claim("t1") == ReviewClaim("a", 12, 40, 150.0)
        assert second.claim_review("t1", "b", 40, now=209.0, stale_after=60.0).owner == "a"
        taken = second.claim_review("t1", "b", 40, now=211.0, stale_after=60.0)  # a went quiet: b takes over
        assert taken == ReviewClaim("b", 0, 40, 211.0)
        first.release_review("t1", "a")  # a's release no longer touches b's claim
        assert first.review_claim("t1") == taken
        second.release_review("t1", "b")
        assert first.review_claim("t1") is None
        assert first.claim_review("t1", "a", 40, now=212.0, stale_after=60.0).owner == "a"  # free again
        with pytest.raises(NoSuchTable):
            first.claim_review("nope", "a", 1, now=1.0, stale_after=60.0)
    finally:
        first.close()
        second.close()


def test_a_closed_table_takes_no_hint_but_keeps_and_takes_its_review(store: Store) -> None:
    store.create_table(make_table(created=1.0))
    store.save_review("t1", {"moves": [1]})
    store.touch({"t1": 1.0})
    assert store.close_idle(before=2.0) == ["t1"]
    with pytest.raises(TableClosed):
        store.add_hint("t1", 0)
    assert store.load_review("t1") == {"moves": [1]}
    store.save_review("t1", {"moves": [2]})
    assert store.load_review("t1") == {"moves": [2]}
