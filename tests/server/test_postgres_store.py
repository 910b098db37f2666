"""PostgresStore beyond the Store contract (test_store.py runs that on it): its migrations, and
what it does when the database cannot be reached (through a TCP proxy the test cuts)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from meeple.server import postgres_store
from meeple.server.postgres_store import PostgresStore
from meeple.server.store import StaleVersion, StoreError, StoreUnavailable
from meeple.server.stores import open_store
from tests.server.services import POSTGRES_PORT, free_port, throwaway_postgres
from tests.server.tcp_proxy import TcpProxy
from tests.server.test_store import (
    Backend,
    check_migrations_apply_once,
    check_the_upgrade_gives_open_tables_a_full_idle_period,
    make_table,
    race_openers,
)

pytestmark = pytest.mark.slow  # a real PostgreSQL, cut and restored

#: Put in the URLs: trust authentication ignores it, and no message may show it.
PASSWORD = "not-shown-anywhere"


@pytest.fixture
def url() -> Iterator[str]:
    with throwaway_postgres() as where:
        yield where


def schema_versions(url: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT version, applied FROM schema_version ORDER BY version").fetchall()


def through(proxy: TcpProxy, url: str) -> str:
    """`url` reached through the proxy, with a password in it."""
    return url.replace("postgres@", f"postgres:{PASSWORD}@").replace(f":{POSTGRES_PORT}/", f":{proxy.port}/")


def until(check: Any, what: str, seconds: float = 30.0) -> Any:
    """Poll `check()` until it returns something true (a deadline, not a timing assertion)."""
    deadline = time.monotonic() + seconds
    while not (result := check()):
        assert time.monotonic() < deadline, what
        time.sleep(0.1)
    return result


def test_postgres_urls_open_a_postgres_store(url: str) -> None:
    for spelling in (url, url.replace("postgresql://", "postgres://")):
        store = open_store(spelling)
        assert isinstance(store, PostgresStore)
        store.close()


def test_migrations_are_applied_once(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    check_migrations_apply_once(lambda: PostgresStore(url), postgres_store, lambda: schema_versions(url), monkeypatch)


def test_the_upgrade_counts_open_tables_as_used_now(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def insert_old(table_id: str, created: float) -> None:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("INSERT INTO tables (id, game, num_players, seed, options, join_code_hash, created, clock,"
                         " clock_state, public, version) VALUES (%s, 'triqueta', 2, 1, '{}', 'h', %s, '{}', '{}',"
                         " FALSE, 0)", (table_id, created))

    check_the_upgrade_gives_open_tables_a_full_idle_period(lambda: PostgresStore(url), postgres_store, insert_old,
                                                          monkeypatch)


def test_newer_schema_is_refused(url: str) -> None:
    PostgresStore(url).close()
    with psycopg.connect(url) as conn:
        conn.execute("INSERT INTO schema_version VALUES (%s, 0)", (len(postgres_store.MIGRATIONS) + 1,))
    with pytest.raises(StoreError, match="newer than this code knows") as caught:
        PostgresStore(url)
    assert not isinstance(caught.value, StoreUnavailable)


def test_two_processes_creating_the_schema_at_once_apply_each_migration_once(url: str) -> None:
    outcomes = race_openers(Backend("postgres", url), 2)
    assert outcomes == [("", 0), ("", 0)]
    assert [v for v, _ in schema_versions(url)] == list(range(1, len(postgres_store.MIGRATIONS) + 1))


def test_an_unreachable_database_is_one_clear_error_without_the_password() -> None:
    closed = f"postgresql://postgres:{PASSWORD}@127.0.0.1:{free_port()}/meeple"
    with pytest.raises(StoreUnavailable, match="cannot be reached") as caught:
        open_store(closed)
    assert PASSWORD not in str(caught.value)
    with pytest.raises(StoreError, match="not a valid PostgreSQL URL") as bad:
        open_store(f"postgresql://postgres:{PASSWORD}@127.0.0.1:5432/x?sslmode=nonsense&bad param")
    assert PASSWORD not in str(bad.value)


def test_a_cut_database_refuses_writes_then_the_pool_recovers_by_itself(url: str) -> None:
    with TcpProxy(POSTGRES_PORT) as proxy:
        store = PostgresStore(through(proxy, url))
        try:
            store.create_table(make_table(actions=[]))
            assert store.append_action("t1", 0, {"n": 0}) == 1
            proxy.cut()
            for call, args in ((store.append_action, ("t1", 1, {"n": "refused"})), (store.load_table, ("t1",)),
                               (store.add_chat, ("t1", 0, "Ana", "lost?", 1.0))):
                with pytest.raises(StoreUnavailable, match="cannot be reached") as caught:
                    call(*args)
                assert PASSWORD not in str(caught.value)
            proxy.restore()
            # Without a new store: the pool replaces its broken connections when asked again.
            until(lambda: _appended(store, 1, {"n": 1}), "the store did not recover")
            with pytest.raises(StaleVersion):
                store.append_action("t1", 1, {"n": "stale"})
            loaded = store.load_table("t1")
            assert loaded.actions == [{"n": 0}, {"n": 1}]  # nothing the cut refused was written
            assert store.chat("t1") == []
        finally:
            store.close()


def _appended(store: PostgresStore, version: int, action: dict[str, Any]) -> bool:
    try:
        store.append_action("t1", version, action)
    except StoreUnavailable:
        return False
    return True


def test_a_commit_whose_answer_is_lost_is_reported_as_it_ended(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The connection breaks during the COMMIT: the store asks the database how it ended, so a
    stored write is acknowledged, and one that was not is refused."""
    with TcpProxy(POSTGRES_PORT) as proxy:
        store = PostgresStore(through(proxy, url))
        try:
            store.create_table(make_table(actions=[]))
            noted = postgres_store.transaction_id

            def answer_lost(conn: psycopg.Connection[Any]) -> str:  # the COMMIT reaches the database
                xid = noted(conn)
                proxy.lose_replies(0.5)
                return xid

            monkeypatch.setattr(postgres_store, "transaction_id", answer_lost)
            assert store.append_action("t1", 0, {"n": 0}) == 1

            def never_sent(conn: psycopg.Connection[Any]) -> str:  # the COMMIT never leaves
                xid = noted(conn)
                proxy.cut()
                proxy.restore()
                return xid

            monkeypatch.setattr(postgres_store, "transaction_id", never_sent)
            with pytest.raises(StoreUnavailable):
                store.append_action("t1", 1, {"n": "lost"})
            monkeypatch.setattr(postgres_store, "transaction_id", noted)
            assert store.load_table("t1").actions == [{"n": 0}]
            assert store.append_action("t1", 1, {"n": 1}) == 2
        finally:
            store.close()
