"""Real services for the scale-out tests: a throwaway PostgreSQL database and a private Redis.

A test that needs a service the machine lacks skips with one line, and fails instead when the
`CI` variable is set (CI runs on a machine that has them)."""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from meeple.server.bench import free_port as free_port  # the tests take ports from here
from tests.processes import OWN_GROUP, end_group

POSTGRES_HOST, POSTGRES_PORT = "127.0.0.1", 5432
#: The maintenance connection that creates and drops the throwaway databases (trust auth).
POSTGRES_ADMIN = f"postgresql://postgres@{POSTGRES_HOST}:{POSTGRES_PORT}/postgres"


def missing(what: str) -> None:
    """Skip with one line, or fail under CI, where every service must be present."""
    if os.environ.get("CI"):
        pytest.fail(f"{what} (CI must have it)")
    pytest.skip(what)


def reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1.0):
            return True
    except OSError:
        return False


@contextmanager
def throwaway_postgres() -> Iterator[str]:
    """A new, empty database on the machine's PostgreSQL for one test; dropped afterwards."""
    if not reachable(POSTGRES_HOST, POSTGRES_PORT):
        missing(f"PostgreSQL is not running at {POSTGRES_HOST}:{POSTGRES_PORT}")
    import psycopg

    name = f"meeple_test_{secrets.token_hex(6)}"
    with psycopg.connect(POSTGRES_ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgresql://postgres@{POSTGRES_HOST}:{POSTGRES_PORT}/{name}"
    finally:
        with psycopg.connect(POSTGRES_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class PrivateRedis:
    """A redis-server of the test's own on a free loopback port (nothing kept on disk), so a test
    may stop and restart it without touching the machine's Redis."""

    def __init__(self, folder: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            missing("redis-server is not installed")
        self.binary = str(binary)
        self.folder = folder
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **OWN_GROUP,
        )
        deadline = time.monotonic() + 20
        while not reachable("127.0.0.1", self.port):
            if time.monotonic() > deadline:
                raise AssertionError("redis-server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            end_group(self.process, timeout=20)
        self.process = None


@contextmanager
def private_redis(folder: Path) -> Iterator[PrivateRedis]:
    redis = PrivateRedis(folder)
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()
