"""`meeple bench server`: a real server on loopback under many tables of clients that each move
as soon as it is their turn, measuring moves per second and the latency from sending a move to
receiving the updated view. The store's durability stays on (SQLite synchronous=FULL).

Run as `python -m meeple.server.bench --tables 200 [--seconds 20] [--game triqueta] [--json]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from meeple.core.rng import Rng


class Meter:
    """Latencies of acknowledged moves inside the measured window."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.measuring = False

    def add(self, seconds: float) -> None:
        if self.measuring:
            self.latencies.append(seconds)


async def _seat(url: str, table: str, credential: str, seat: int, meter: Meter, rng: Rng, stop: float) -> None:
    """One client: move at once when it is this seat's turn; time each move until its view."""
    async with connect(f"ws://{url}/ws/tables/{table}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "credential": credential}))
        sent: tuple[int, float] | None = None
        while True:
            message = json.loads(await ws.recv())
            if message.get("type") != "state":
                if message.get("type") == "error" and sent is not None:
                    sent = None  # refused (should not happen): move again on the next view
                continue
            now = time.perf_counter()
            if sent is not None and message["version"] > sent[0]:
                meter.add(now - sent[1])
                sent = None
            if message["over"] or time.monotonic() > stop:
                return
            if message["to_move"] == seat and message["legal"] and sent is None:
                move = message["legal"][rng.below(len(message["legal"]))]
                sent = (message["version"], time.perf_counter())
                await ws.send(json.dumps({"type": "act", "version": message["version"], "action_id": move["id"]}))


async def _table_runner(client: httpx.AsyncClient, url: str, game: str, meter: Meter, rng: Rng, stop: float) -> int:
    """Tables one after another (a new one when a game ends) until `stop`; games finished."""
    finished = 0
    while time.monotonic() < stop:
        created = (await client.post("/api/tables", json={"game": game, "players": 2,
                                                          "seats": [{"kind": "human"}, {"kind": "human"}]})).json()
        joined = (await client.post(f"/api/tables/{created['table_id']}/join",
                                    json={"join_code": created["join_code"], "name": "B"})).json()
        await asyncio.gather(
            _seat(url, created["table_id"], created["credential"], 0, meter, Rng(rng.next64()), stop),
            _seat(url, created["table_id"], joined["credential"], 1, meter, Rng(rng.next64()), stop),
        )
        finished += 1
    return finished


async def _load(url: str, tables: int, game: str, seconds: float, warmup: float) -> dict[str, Any]:
    meter = Meter()
    rng = Rng(1)
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(base_url=f"http://{url}", timeout=60, limits=limits) as client:
        stop = time.monotonic() + warmup + seconds
        runners = [asyncio.create_task(_table_runner(client, url, game, meter, Rng(rng.next64()), stop))
                   for _ in range(tables)]
        await asyncio.sleep(warmup)
        meter.measuring = True
        started = time.perf_counter()
        await asyncio.sleep(seconds)
        meter.measuring = False
        elapsed = time.perf_counter() - started
        games = sum(await asyncio.gather(*runners))
    latencies = sorted(meter.latencies)
    if not latencies:
        raise SystemExit("meeple: error: no move was acknowledged during the measurement")
    return {
        "benchmark": "server", "game": game, "tables": tables, "seconds": round(elapsed, 2),
        "moves": len(latencies), "games": games, "moves_per_s": round(len(latencies) / elapsed, 1),
        "latency_ms": {
            "p50": round(1000 * statistics.median(latencies), 2),
            "p99": round(1000 * latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))], 2),
            "max": round(1000 * latencies[-1], 2),
        },
        "store": "sqlite (synchronous=FULL)",
    }


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def run(tables: int, seconds: float, game: str, warmup: float = 3.0) -> dict[str, Any]:
    """Start `meeple serve` on loopback over a fresh database, load it, stop it; the report."""
    folder = Path(tempfile.mkdtemp(prefix="meeple-bench-"))
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "meeple", "serve", "--port", str(port), "--db", str(folder / "bench.db")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("meeple: error: the benchmark server did not start") from None
                time.sleep(0.1)
        return asyncio.run(_load(f"127.0.0.1:{port}", tables, game, seconds, warmup))
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="meeple bench server", description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200, help="tables played at once (default 200)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds (default 20)")
    parser.add_argument("--game", default="triqueta", help="the game every table plays (default triqueta)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 5000:
        parser.error("--tables must be 1 to 5000")
    if not 0 < args.seconds <= 3600:
        parser.error("--seconds must be more than 0 and at most 3600")
    report = run(args.tables, args.seconds, args.game)
    if args.json:
        print(json.dumps(report))
    else:
        latency = report["latency_ms"]
        print(f"{report['tables']} tables of {report['game']}: {report['moves_per_s']} moves/s, latency p50 "
              f"{latency['p50']} ms, p99 {latency['p99']} ms, max {latency['max']} ms ({report['moves']} moves)")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONIOENCODING", "utf-8")
    sys.exit(main())
