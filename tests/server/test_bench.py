"""`meeple bench server` runs real servers under real clients and reports what it measured (the
figures themselves are recorded in docs/performance.md, never asserted)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from meeple.server.bench import STALL_SECONDS

pytestmark = pytest.mark.slow  # `meeple bench server` runs servers under load


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "meeple", "bench", "server", *args],
                          capture_output=True, text=True, timeout=300)


def test_one_process_reports_moves_latency_and_cpu():
    done = bench("--tables", "3", "--seconds", "1", "--think", "0.01", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert (report["tables"], report["processes"], report["think_s"], report["redis"]) == (3, 1, 0.01, False)
    assert report["store"].startswith("sqlite")
    assert report["moves"] > 0 and report["refused"] == 0
    latency = report["latency_ms"]
    assert 0 < latency["p50"] <= latency["p99"] <= latency["max"]
    assert report["server_cpu_ms_per_move"] > 0
    assert report["games"] >= 0 and report["server_rss_mb"]["every_s"] > 0
    samples = report["server_rss_mb"]["samples"]
    assert samples and all(0 < mb <= report["server_peak_rss_mb"] for mb in samples)


def test_the_text_summary_shows_the_servers_memory_over_time():
    done = bench("--tables", "2", "--seconds", "1", "--think", "0.01")
    assert done.returncode == 0, done.stderr
    summary = done.stdout.splitlines()
    assert "moves/s" in summary[0] and "games)" in summary[0]
    assert summary[1].startswith("server RSS MB (largest process, every 5 s) 0s:") and ", max " in summary[1]


@pytest.mark.parametrize(("flags", "message"), [
    (["--processes", "2"], "give --redis URL"),
    (["--processes", "0"], "--processes must be 1 to 16"),
    (["--think", "-1"], "--think must be 0 to 60 seconds"),
    (["--think", "nan"], "--think must be 0 to 60 seconds"),
    (["--tables", "0"], "--tables must be 1 to 5000"),
])
def test_bad_flags_are_one_line_errors(flags, message):
    done = bench(*flags)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr


def test_two_processes_over_redis_with_seats_spread(tmp_path):
    from tests.server.services import private_redis

    with private_redis(tmp_path) as redis:
        done = bench("--tables", "4", "--seconds", "1", "--processes", "2", "--redis", redis.url, "--spread", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert (report["processes"], report["redis"], report["spread"]) == (2, True, True)
    assert report["moves"] > 0 and report["refused"] == 0


def _descendants(pid: int) -> list[int]:
    """The processes below `pid` (Linux /proc), children first."""
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found, frontier = [], [pid]
    while frontier:
        children = [child for child, parent in parents.items() if parent in frontier]
        found += children
        frontier = children
    return found


def test_a_server_that_dies_ends_the_run_at_once_with_what_the_clients_saw():
    """A seat whose connection drops is the run's error, at once; it used to surface 30 s later
    as its partner's 'heard nothing', which blamed a silent server."""
    process = subprocess.Popen([sys.executable, "-m", "meeple", "bench", "server", "--tables", "2", "--seconds", "60",
                                "--think", "0.2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not (servers := [p for p in _descendants(process.pid) if b"\0serve\0" in _cmdline(p)]):
            assert time.monotonic() < deadline and process.poll() is None, process.stderr and process.stderr.read()
            time.sleep(0.2)
        port = int(_cmdline(servers[0]).split(b"\0--port\0")[1].split(b"\0")[0])
        while not _answers(port):  # killed only once it serves, or the run rightly says it never started
            assert time.monotonic() < deadline and process.poll() is None, process.stderr and process.stderr.read()
            time.sleep(0.2)
        time.sleep(3)  # the tables are playing
        killed = time.monotonic()
        os.kill(servers[0], signal.SIGKILL)
        _, stderr = process.communicate(timeout=25)
    finally:
        process.kill()
    assert process.returncode != 0 and time.monotonic() - killed < STALL_SECONDS
    assert "Traceback" not in stderr and "heard nothing" not in stderr
    assert "meeple: error:" in stderr and ("connection closed" in stderr or "a client failed" in stderr), stderr


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0):
            return True
    except OSError:
        return False


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""
