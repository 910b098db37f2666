"""Which store a `--db` value names: the one place that knows every implementation."""

from __future__ import annotations

from meeple.server.store import Store, StoreError


def open_store(url: str) -> Store:
    """A file path or `sqlite:///PATH`: the embedded SQLite store (the default);
    `postgresql://...` or `postgres://...`: the PostgreSQL store (for several processes)."""
    if url.startswith(("postgresql://", "postgres://")):
        from meeple.server.postgres_store import PostgresStore  # psycopg is needed only here

        return PostgresStore(url)
    from meeple.server.sqlite_store import SQLiteStore

    if url.startswith("sqlite:///"):
        return SQLiteStore(url.removeprefix("sqlite:///"))
    if "://" in url:
        scheme = url.split("://", 1)[0]
        raise StoreError(f"--db: unknown kind of database {scheme!r}: use a file path, sqlite:///PATH or postgresql://...")
    return SQLiteStore(url)
