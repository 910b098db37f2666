"""A second process for the store contract tests: `python -m tests.server.store_child MODE ...`.

Modes (KIND names the backend, "sqlite" or "postgres"; URL is a `--db` value, as
`meeple.server.stores.open_store` takes it):
- `race KIND URL TABLE LABEL COUNT`: append COUNT actions {"by": LABEL, "i": i}, retrying on
  StaleVersion, to race another process on the same table.
- `open KIND URL`: print "ready", wait for a line on stdin (a starting gun, so several children
  open at the same moment), then open the store (creating its schema if needed) and close it.
- `ack KIND URL TABLE COUNT`: append {"i": version} actions and print each acknowledged new
  version on its own line, flushed, as soon as `append_action` returns (the parent kills us).
"""

from __future__ import annotations

import sys

from meeple.server.postgres_store import PostgresStore
from meeple.server.sqlite_store import SQLiteStore
from meeple.server.store import StaleVersion, Store
from meeple.server.stores import open_store as open_url

KINDS: dict[str, type[Store]] = {"sqlite": SQLiteStore, "postgres": PostgresStore}


def open_store(kind: str, url: str) -> Store:
    """The store at `url`, checked to be the implementation named `kind`."""
    store = open_url(url)
    if not isinstance(store, KINDS[kind]):
        store.close()
        raise ValueError(f"{url} is not a {kind} store")
    return store


def main(argv: list[str]) -> None:
    mode, kind, url = argv[:3]
    table_id = argv[3] if len(argv) > 3 else ""
    if mode == "open":
        print("ready", flush=True)
        sys.stdin.readline()
    store = open_store(kind, url)
    if mode == "open":
        pass
    elif mode == "race":
        label, count = argv[4], int(argv[5])
        for i in range(count):
            for _ in range(10_000):  # bounded, so a broken store fails the test instead of hanging it
                version = store.load_table(table_id).version
                try:
                    store.append_action(table_id, version, {"by": label, "i": i})
                    break
                except StaleVersion:
                    continue
            else:
                raise SystemExit(f"{label}: action {i} never got in")
    elif mode == "ack":
        version = store.load_table(table_id).version
        for _ in range(int(argv[4])):
            version = store.append_action(table_id, version, {"i": version})
            print(version, flush=True)
    else:
        raise SystemExit(f"unknown mode {mode!r}")
    store.close()


if __name__ == "__main__":
    main(sys.argv[1:])
