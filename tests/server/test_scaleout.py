"""Several `meeple serve` processes over one database and one Redis (docs/server.md, "Several
processes"): moves reach the clients of every process, two moves at once never both apply, and
when a process is killed or Redis restarts, play goes on with nothing lost or applied twice."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest

from meeple.core.record import GameRecord
from meeple.server.store import TableRow
from meeple.server.stores import open_store
from tests.server.clients import api, look, move, new_table, state_at, take_turn, version, wait_until_version, watch
from tests.server.live import Server
from tests.server.services import PrivateRedis, free_port, private_redis, throwaway_postgres

pytestmark = pytest.mark.slow  # several `meeple serve` processes over Redis

Cluster = tuple[PrivateRedis, Server, Server]


@contextmanager
def database(kind: str, folder: Path) -> Iterator[str]:
    """The `--db` both processes share: a SQLite file, or a throwaway PostgreSQL database."""
    if kind == "sqlite":
        yield str(folder / "meeple.db")
    else:
        with throwaway_postgres() as url:
            yield url


@pytest.fixture(params=["sqlite", "postgres"])
def cluster(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Cluster]:
    """Two processes, A and B, on one database (each kind) and a private Redis; no traceback in
    their logs."""
    with private_redis(tmp_path) as redis, database(request.param, tmp_path) as db:
        a = Server(tmp_path, db=db, redis=redis.url, name="a")
        b = Server(tmp_path, db=db, redis=redis.url, name="b")
        a.start()
        b.start()
        try:
            yield redis, a, b
        finally:
            logs = [a.stop(), b.stop()]
    for log in logs:
        assert "Traceback" not in log, log


def stored(server: Server, table_id: str) -> TableRow:
    """The table as the database holds it (read beside the running servers)."""
    store = open_store(server.db)
    try:
        return store.load_table(table_id)
    finally:
        store.close()


def at_once(*calls: Callable[[], httpx.Response]) -> list[httpx.Response]:
    """Make the calls from as many threads, released together."""
    start = threading.Barrier(len(calls))

    def call(made: Callable[[], httpx.Response]) -> httpx.Response:
        start.wait()
        return made()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(call, calls))


def replays(row: TableRow) -> Any:
    """The stored record replayed with every rule checked (an action applied twice, or one in
    the wrong place, would be refused)."""
    return GameRecord(game=row.game, num_players=row.num_players, seed=row.seed, options=row.options,
                      actions=row.actions).replay()


@pytest.mark.parametrize("url", ["bogus://host", "redis://127.0.0.1:{port}/0"])
def test_a_bad_or_unreachable_redis_stops_the_server_with_one_line(tmp_path, url):
    url = url.format(port=free_port())  # nothing listens there
    done = subprocess.run(
        [sys.executable, "-m", "meeple", "serve", "--port", str(free_port()), "--db", str(tmp_path / "m.db"),
         "--redis", url], capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert done.returncode != 0
    assert done.stderr.strip().splitlines() == [done.stderr.strip()], done.stderr
    assert done.stderr.startswith(f"meeple: error: --redis {url}: ")


def test_a_move_through_one_process_reaches_the_clients_of_the_other(cluster):
    _, a, b = cluster
    table_id, credentials = new_table(a, "triqueta", [{"kind": "human"}, {"kind": "human"}])
    with watch(b, table_id, credentials[1]) as on_b, watch(a, table_id, credentials[0]) as on_a:
        for k, (through, watcher) in enumerate([(a, on_b), (b, on_a), (a, on_b), (b, on_a)]):
            acknowledged = move(through, table_id, credentials)
            assert acknowledged["version"] == k + 1
            seen = state_at(watcher, acknowledged["version"])
            assert (seen["version"], seen["to_move"]) == (acknowledged["version"], acknowledged["to_move"])


def test_two_moves_at_once_through_two_processes_never_both_apply(cluster):
    _, a, b = cluster
    table_id, credentials = new_table(a, "triqueta", [{"kind": "human"}, {"kind": "human"}])
    for round_ in range(6):
        at = version(a, table_id)
        wait_until_version(b, table_id, at - 1, "B did not catch up")
        seat = look(a, table_id)["to_move"]
        legal = look(a, table_id, credentials[seat])["legal"]
        sent = {a.name: legal[0]["action"], b.name: legal[-1]["action"]}
        order = (a, b) if round_ % 2 else (b, a)
        answers = dict(zip([s.name for s in order], at_once(*(
            partial(api, s, "POST", f"/api/tables/{table_id}/actions", credentials[seat],
                    json={"version": at, "action": sent[s.name]}) for s in order)), strict=True))
        codes = sorted(r.status_code for r in answers.values())
        assert codes == [200, 409], {n: r.text for n, r in answers.items()}
        winner = next(n for n, r in answers.items() if r.status_code == 200)
        loser = next(r for r in answers.values() if r.status_code == 409)
        assert loser.json()["code"] == "stale"
        row = stored(a, table_id)
        assert row.version == at + 1 and row.actions[at] == sent[winner]
    replays(stored(a, table_id))


def test_when_a_process_is_killed_the_other_takes_over_its_bots_and_clients(cluster):
    _, a, b = cluster
    bots_only, _ = new_table(a, "castell", [{"kind": "bot", "bot": "ismcts:easy"}] * 3)
    person, (credential,) = new_table(a, "triqueta", [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    acknowledged: list[tuple[int, dict[str, Any]]] = []
    with watch(a, person, credential) as client:
        for _ in range(3):
            action, answer = take_turn(a, person, credential)
            acknowledged.append((answer["version"], action))
        state_at(client, acknowledged[-1][0])
    before = wait_until_version(a, bots_only, 1, "the bots did not start", seconds=60)

    a.kill()

    wait_until_version(b, bots_only, before, "B did not take over the bots", seconds=60)
    with watch(b, person, credential) as client:  # the client reconnects to B and plays on
        while True:
            action, answer = take_turn(b, person, credential)
            if not action:
                break
            acknowledged.append((answer["version"], action))
            state_at(client, answer["version"])
    row = stored(b, person)
    assert replays(row).is_terminal
    for after, action in acknowledged:  # every acknowledged move is in the record, where it was told
        assert row.actions[after - 1] == action
    assert [v for v, _ in acknowledged] == sorted({v for v, _ in acknowledged})
    replays(stored(b, bots_only))


def test_after_redis_restarts_the_processes_catch_up_and_bots_go_on(cluster):
    redis, a, b = cluster
    bots_only, _ = new_table(a, "castell", [{"kind": "bot", "bot": "ismcts:easy"}] * 3)
    table_id, credentials = new_table(a, "triqueta", [{"kind": "human"}, {"kind": "human"}])
    with watch(b, table_id, credentials[0]) as on_b:
        acknowledged = move(a, table_id, credentials)
        state_at(on_b, acknowledged["version"])

        redis.stop()
        acknowledged = move(a, table_id, credentials)  # no notice can tell B: its periodic look must
        assert state_at(on_b, acknowledged["version"])["to_move"] == acknowledged["to_move"]
        redis.start()

        acknowledged = move(a, table_id, credentials)
        assert state_at(on_b, acknowledged["version"])["to_move"] == acknowledged["to_move"]
        acknowledged = move(b, table_id, credentials)
        wait_until_version(a, table_id, acknowledged["version"] - 1, "A did not hear of B's move")
    going = version(b, bots_only)
    wait_until_version(b, bots_only, going, "the bots did not go on after Redis came back", seconds=60)
    replays(stored(a, table_id))
    replays(stored(a, bots_only))
