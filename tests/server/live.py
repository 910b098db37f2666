"""`meeple serve` as a real process on a loopback port, as users start it (for the process, browser
and load tests)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import httpx

from tests.processes import OWN_GROUP, end_group, end_leftovers
from tests.server.services import free_port


class Server:
    """One `meeple serve` process on a loopback port over a database (by default a file in
    `folder`; or any `--db` value), with `--redis` when given (several processes, one table set)
    and any other `meeple serve` flags in `args` (a test's own limits, say)."""

    def __init__(self, folder: Path, db: str | None = None, redis: str | None = None, name: str = "server",
                 args: Sequence[str] = ()) -> None:
        self.folder = folder
        self.db = db or str(folder / "meeple.db")
        self.redis = redis
        self.name = name
        self.args = list(args)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.log = open(self.folder / f"{self.name}.log", "ab")  # noqa: SIM115 (closed in stop)
        command = [sys.executable, "-m", "meeple", "serve", "--port", str(self.port), "--db", self.db]
        if self.redis:
            command += ["--redis", self.redis]
        command += self.args
        self.process = subprocess.Popen(
            command,
            cwd=self.folder, stdout=subprocess.DEVNULL, stderr=self.log,
            env={**os.environ, "PYTHONIOENCODING": "utf-8"}, **OWN_GROUP,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/api/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        """The server crashes (SIGKILL); what it had started is ended too, so nothing of the
        crashed server outlives the test."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        end_leftovers(self.process.pid)

    def stop(self) -> str:
        """Stop the server as a service manager would (SIGTERM), then what it started and left
        (its bot workers, their resource tracker); what it wrote to stderr."""
        if self.process is not None:
            end_group(self.process, timeout=60)
        self.log.close()
        return (self.folder / f"{self.name}.log").read_text(encoding="utf-8", errors="replace")


