"""`meeple bench server`: real `meeple serve` processes on loopback under many tables of clients,
measuring moves per second and the latency from sending a move to receiving the updated view.
The store's durability stays on (SQLite synchronous=FULL; PostgreSQL commits before answering).

Run as `python -m meeple.server.bench --tables 200 [--seconds 20] [--think 0] [--processes 1]
[--db URL] [--redis URL] [--game triqueta] [--json]`.

Each table has two people. With `--think S` each waits a random 0.5-1.5 x S seconds before
moving (people at a board game take seconds; 0 moves at once, which saturates the server). With
several processes, table i is served by process i mod N, as a load balancer that routes by table
id does (docs/server.md); with `--spread` its second seat connects to the next process instead,
so every move reaches the other seat through Redis (the worst case).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from meeple.core.rng import Rng

#: A client that hears nothing for this long means a server stopped telling it: the run fails.
#: After the run's end a client waits LINGER_SECONDS at most for the last news of its table.
STALL_SECONDS, LINGER_SECONDS = 30.0, 2.0
#: Clock ticks per second, for the servers' CPU time read from /proc (Linux).
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
#: The servers' resident memory is sampled this often (seconds), from the measurement's start.
RSS_EVERY = 5.0
#: How often the clients' own event loop checks how far behind it runs (seconds).
LAG_EVERY = 0.5
#: The load comes from one loopback address: the servers run with the per-client limits lifted.
UNLIMITED = ("--tables", "1000000", "--open-tables", "1000000", "--websockets", "1000000",
             "--join-attempts", "1000000", "--join-attempts-per-table", "1000000")


class Meter:
    """Latencies of acknowledged moves inside the measured window."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.measuring = False
        self.refused = 0
        self.lag = 0.0  # the most the clients' event loop ran behind (s): a busy machine, not the server

    def failure(self, what: str) -> SystemExit:
        """The run's end with `what` went wrong, and whether the clients themselves were starved."""
        starved = (f"; the clients' own event loop ran up to {self.lag:.1f} s late, so this machine was too "
                   "busy to drive this load" if self.lag >= 1.0 else "")
        return SystemExit(f"meeple: error: {what}{starved}")

    def add(self, seconds: float) -> None:
        if self.measuring:
            self.latencies.append(seconds)


class ClientFailure(Exception):
    """A client saw the run go wrong (a silent or closed connection): the run ends with its words."""


@dataclass(frozen=True)
class Load:
    """What the clients do: the game, how long a person thinks, and the servers' addresses."""

    game: str
    think: float
    hosts: tuple[str, ...]
    spread: bool = False  # the two seats of a table on two processes (else both on the table's own)


async def _seat(host: str, table: str, credential: str, seat: int, load: Load, meter: Meter, rng: Rng,
                stop: float) -> None:
    """One person: when it is this seat's turn, think, then move; time each move until its view."""
    async with connect(f"ws://{host}/ws/tables/{table}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "credential": credential}))
        sent: tuple[int, float] | None = None
        last = -1
        while True:
            try:
                text = await asyncio.wait_for(ws.recv(), min(STALL_SECONDS, stop - time.monotonic() + LINGER_SECONDS))
            except TimeoutError:
                if time.monotonic() > stop:  # the other seat, on another process, saw the end of the run first
                    return
                raise ClientFailure(f"table {table} seat {seat} at {host} heard nothing for {STALL_SECONDS:.0f} s "
                                    f"after version {last} (a server stopped telling it)") from None
            except ConnectionClosed as closed:
                raise ClientFailure(f"table {table} seat {seat} at {host}: the connection closed after version "
                                    f"{last} ({closed})") from None
            message = json.loads(text)
            last = message.get("version", last)
            if message.get("type") != "state":
                if message.get("type") == "error" and sent is not None:
                    meter.refused += 1
                    sent = None  # refused (should not happen): move again on the next view
                continue
            now = time.perf_counter()
            if sent is not None and message["version"] > sent[0]:
                meter.add(now - sent[1])
                sent = None
            if message["over"] or time.monotonic() > stop:
                return
            if message["to_move"] == seat and message["legal"] and sent is None:
                if load.think:
                    await asyncio.sleep(load.think * (0.5 + rng.below(1001) / 1000))
                move = message["legal"][rng.below(len(message["legal"]))]
                sent = (message["version"], time.perf_counter())
                await ws.send(json.dumps({"type": "act", "version": message["version"], "action_id": move["id"]}))


async def _table_runner(clients: list[httpx.AsyncClient], index: int, load: Load, meter: Meter, rng: Rng,
                        stop: float) -> int:
    """Tables one after another (a new one when a game ends) until `stop`; games finished."""
    finished = 0
    count = len(load.hosts)
    home = index % count
    other = (home + 1) % count if load.spread else home
    while time.monotonic() < stop:
        created = await _post(clients[home], "/api/tables", {
            "game": load.game, "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
        joined = await _post(clients[other], f"/api/tables/{created['table_id']}/join",
                             {"join_code": created["join_code"], "name": "B"})
        seats = [
            asyncio.create_task(_seat(load.hosts[home], created["table_id"], created["credential"], 0, load, meter,
                                      Rng(rng.next64()), stop)),
            asyncio.create_task(_seat(load.hosts[other], created["table_id"], joined["credential"], 1, load, meter,
                                      Rng(rng.next64()), stop)),
        ]
        try:
            await asyncio.gather(*seats)
        finally:  # one seat failed: the other, left waiting for its move, must not outlive it
            for task in seats:
                task.cancel()
        finished += 1
    return finished


async def _post(client: httpx.AsyncClient, path: str, body: dict[str, Any]) -> Any:
    """POST and the answer's JSON; a connection the server closed as it was reused (an idle
    keep-alive timing out) is tried again on a new one, twice at most."""
    for _ in range(2):
        with contextlib.suppress(httpx.TransportError):
            return await _post_once(client, path, body)
    return await _post_once(client, path, body)  # a third failure ends the run


async def _post_once(client: httpx.AsyncClient, path: str, body: dict[str, Any]) -> Any:
    answer = await client.post(path, json=body)
    answer.raise_for_status()
    return answer.json()


def _cpu_seconds(pids: list[int]) -> float | None:
    """User + system CPU seconds of these processes so far (None where /proc is not there)."""
    total = 0
    try:
        for pid in pids:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    except OSError:
        return None
    return total / TICKS


def _memory_mb(pids: list[int], field: str) -> float | None:
    """The largest of these processes' /proc status `field` (VmRSS now, VmHWM its peak), in MB
    (None where /proc is not there)."""
    sizes = []
    try:
        for pid in pids:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith(f"{field}:"):
                    sizes.append(int(line.split()[1]) / 1024)
    except OSError:
        return None
    return round(max(sizes), 1) if sizes else None


async def _sample_rss(pids: list[int], samples: list[float]) -> None:
    """The servers' resident memory every RSS_EVERY seconds (a leak shows as a rising series,
    which the peak alone cannot tell from a high start)."""
    while (rss := _memory_mb(pids, "VmRSS")) is not None:
        samples.append(rss)
        await asyncio.sleep(RSS_EVERY)


async def _watch_lag(meter: Meter) -> None:
    """Record how late the clients' event loop wakes up: a late loop means the machine cannot
    drive this load, and a stall it reports says nothing about the server."""
    loop = asyncio.get_running_loop()
    while True:
        due = loop.time() + LAG_EVERY
        await asyncio.sleep(LAG_EVERY)
        meter.lag = max(meter.lag, loop.time() - due)


async def _until_failure(runners: list[asyncio.Task[int]], seconds: float, meter: Meter) -> None:
    """Wait `seconds`, or end the run at once with the first client that failed (its own words)."""
    done, _ = await asyncio.wait(runners, timeout=seconds, return_when=asyncio.FIRST_EXCEPTION)
    for task in done:
        error = task.exception()
        if isinstance(error, ClientFailure):
            raise meter.failure(str(error)) from None
        if error is not None:
            raise meter.failure(f"a client failed: {error!r}") from None


async def _measure(load: Load, tables: int, seconds: float, warmup: float, pids: list[int]) -> dict[str, Any]:
    meter = Meter()
    rng = Rng(1)
    limits = httpx.Limits(max_connections=64)
    clients = [httpx.AsyncClient(base_url=f"http://{host}", timeout=120, limits=limits) for host in load.hosts]
    lag = asyncio.create_task(_watch_lag(meter))
    runners: list[asyncio.Task[int]] = []
    try:
        stop = time.monotonic() + warmup + seconds
        runners = [asyncio.create_task(_table_runner(clients, i, load, meter, Rng(rng.next64()), stop))
                   for i in range(tables)]
        await _until_failure(runners, warmup, meter)
        meter.measuring = True
        started, cpu_before = time.perf_counter(), _cpu_seconds(pids)
        rss: list[float] = []
        sampler = asyncio.create_task(_sample_rss(pids, rss))
        await _until_failure(runners, seconds, meter)
        sampler.cancel()
        meter.measuring = False
        elapsed, cpu_after = time.perf_counter() - started, _cpu_seconds(pids)
        games = sum(await asyncio.gather(*runners))
    finally:
        lag.cancel()
        for task in runners:
            task.cancel()
        await asyncio.gather(*runners, return_exceptions=True)
        for client in clients:
            await client.aclose()
    latencies = sorted(meter.latencies)
    if not latencies:
        raise SystemExit("meeple: error: no move was acknowledged during the measurement")
    report: dict[str, Any] = {
        "seconds": round(elapsed, 2), "moves": len(latencies), "games": games, "refused": meter.refused,
        "moves_per_s": round(len(latencies) / elapsed, 1),
        "latency_ms": {
            "p50": round(1000 * statistics.median(latencies), 2),
            "p99": round(1000 * latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))], 2),
            "max": round(1000 * latencies[-1], 2),
        },
    }
    report["client_lag_max_s"] = round(meter.lag, 3)
    if cpu_before is not None and cpu_after is not None:
        report["server_cpu_ms_per_move"] = round(1000 * (cpu_after - cpu_before) / len(latencies), 3)
    peak = _memory_mb(pids, "VmHWM")
    if peak is not None:
        report["server_peak_rss_mb"] = peak
    if rss:
        report["server_rss_mb"] = {"every_s": RSS_EVERY, "samples": rss}
    return report


def free_port() -> int:
    """A loopback port free at this moment (for a server about to start)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _start(db: str, redis: str | None, folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [sys.executable, "-m", "meeple", "serve", "--port", str(port), "--db", db, *UNLIMITED]
    if redis:
        command += ["--redis", redis]
    log = open(folder / f"server-{port}.log", "wb")  # noqa: SIM115 (the child keeps it; closed at exit)
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log, cwd=folder)
    return process, f"127.0.0.1:{port}"


def _wait_ready(process: subprocess.Popen[bytes], host: str, folder: Path) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(f"http://{host}/api/games", timeout=1)
            return
        except httpx.HTTPError:
            if time.monotonic() > deadline or process.poll() is not None:
                logs = " ".join(p.read_text(errors="replace").strip() for p in folder.glob("server-*.log"))
                raise SystemExit(f"meeple: error: a benchmark server did not start: {logs[-500:]}") from None
            time.sleep(0.1)


def run(tables: int, seconds: float, game: str, processes: int = 1, db: str | None = None,
        redis: str | None = None, think: float = 0.0, warmup: float | None = None,
        spread: bool = False) -> dict[str, Any]:
    """Start the servers on loopback (over `db`, or a fresh SQLite file), load them, stop them."""
    folder = Path(tempfile.mkdtemp(prefix="meeple-bench-"))
    database = db or str(folder / "bench.db")
    started = [_start(database, redis, folder) for _ in range(processes)]
    try:
        for process, host in started:
            _wait_ready(process, host, folder)
        load = Load(game=game, think=think, hosts=tuple(host for _, host in started), spread=spread)
        # Long enough for every table to be created and every seat connected before measuring.
        settle = warmup if warmup is not None else 3.0 + tables / 200 + 2 * think
        report = asyncio.run(_measure(load, tables, seconds, settle, [p.pid for p, _ in started]))
    finally:
        for process, _ in started:
            process.send_signal(signal.SIGTERM)
        for process, _ in started:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
    store = "postgresql" if database.startswith(("postgresql://", "postgres://")) else "sqlite (synchronous=FULL)"
    return {"benchmark": "server", "game": game, "tables": tables, "processes": processes, "think_s": think,
            "store": store, "redis": bool(redis), "spread": spread and processes > 1, **report}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="meeple bench server", description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200, help="tables played at once (default 200)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds (default 20)")
    parser.add_argument("--think", type=float, default=0.0, help="mean seconds a person thinks (default 0)")
    parser.add_argument("--processes", type=int, default=1, help="server processes (default 1; more need --redis)")
    parser.add_argument("--db", default=None, help="the servers' --db (default a fresh SQLite file)")
    parser.add_argument("--redis", default=None, help="the servers' --redis (needed for several processes)")
    parser.add_argument("--spread", action="store_true", help="a table's two seats on two processes")
    parser.add_argument("--game", default="triqueta", help="the game every table plays (default triqueta)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 5000:
        parser.error("--tables must be 1 to 5000")
    if not 0 < args.seconds <= 3600:
        parser.error("--seconds must be more than 0 and at most 3600")
    if not 0 <= args.think <= 60:
        parser.error("--think must be 0 to 60 seconds")
    if not 1 <= args.processes <= 16:
        parser.error("--processes must be 1 to 16")
    if args.processes > 1 and not args.redis:
        parser.error("several --processes share their tables through Redis: give --redis URL")
    report = run(args.tables, args.seconds, args.game, args.processes, args.db, args.redis, args.think,
                 spread=args.spread)
    if args.json:
        print(json.dumps(report))
    else:
        latency = report["latency_ms"]
        print(f"{report['tables']} tables of {report['game']} on {report['processes']} process(es)"
              f"{' (seats spread)' if report['spread'] else ''}, "
              f"{report['store']}, think {report['think_s']} s: {report['moves_per_s']} moves/s, latency p50 "
              f"{latency['p50']} ms, p99 {latency['p99']} ms, max {latency['max']} ms ({report['moves']} moves, "
              f"{report['games']} games)")
        if "server_rss_mb" in report:
            print(rss_summary(report["server_rss_mb"]))
    return 0


def rss_summary(rss: dict[str, Any], points: int = 12) -> str:
    """The RSS series in one line: about `points` evenly spaced samples, the last and the max."""
    samples, every = rss["samples"], rss["every_s"]
    step = max(1, len(samples) // points)
    shown = " ".join(f"{every * i:.0f}s:{samples[i]:.0f}" for i in range(0, len(samples), step))
    return (f"server RSS MB (largest process, every {every:g} s) {shown}; last {samples[-1]:.1f}, "
            f"max {max(samples):.1f}")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONIOENCODING", "utf-8")
    sys.exit(main())
