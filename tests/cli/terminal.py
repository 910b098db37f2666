"""Running `meeple` as a person does: in a real pseudo-terminal, with real signals."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path


def meeple(
    *args: str, stdin: str = "", cwd: Path | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """`meeple ARGS` with `stdin` as its input; output captured as text."""
    return subprocess.run(
        [sys.executable, "-m", "meeple", *args],
        input=stdin, capture_output=True, text=True, timeout=timeout, cwd=cwd,
        env={"PATH": "", "COLUMNS": "120", "PYTHONIOENCODING": "utf-8"},
    )


class Terminal:
    """`meeple ARGS` attached to a pseudo-terminal: read the screen, type, send signals."""

    def __init__(self, *args: str, cwd: Path) -> None:
        master, slave = pty.openpty()
        self.master = master
        self.process = subprocess.Popen(
            [sys.executable, "-m", "meeple", *args],
            stdin=slave, stdout=slave, stderr=slave, cwd=cwd, close_fds=True,
            env={"PATH": "", "COLUMNS": "100", "LINES": "40", "TERM": "xterm", "PYTHONIOENCODING": "utf-8"},
        )
        os.close(slave)
        self.output = b""
        self.typed_at = 0  # where the output stood when a line was last typed

    def read_until(self, text: str, timeout: float = 60) -> str:
        """Everything printed so far, once `text` has appeared since the last thing typed
        (AssertionError if it does not)."""
        wanted = text.encode()
        deadline = time.monotonic() + timeout
        while wanted not in self.output[self.typed_at:]:
            left = deadline - time.monotonic()
            if left <= 0 or not self._read(left):
                raise AssertionError(f"{text!r} never appeared; the screen had:\n{self.text()[-2000:]}")
        return self.text()

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            chunk = os.read(self.master, 65536)
        except OSError:  # the program ended and the terminal closed
            return False
        self.output += chunk
        return bool(chunk)

    def type(self, line: str) -> None:
        self.typed_at = len(self.output)
        os.write(self.master, (line + "\r").encode())

    def interrupt(self) -> None:
        """Ctrl-C once the program waits for a key, as a person's comes. (A SIGINT that lands
        between the prompt's printing and the read starting is only seen at the next key: the
        interpreter has already checked for signals and the read does not wake for it.)"""
        self.wait_for_input()
        self.process.send_signal(signal.SIGINT)

    def wait_for_input(self, timeout: float = 30) -> None:
        """Until the program has printed nothing and slept for 0.2 s: it waits for the keyboard."""
        deadline = time.monotonic() + timeout
        quiet = 0
        while quiet < 4 and time.monotonic() < deadline and self.process.poll() is None:
            printed = self._read(0.05)
            quiet = 0 if printed or not self._sleeping() else quiet + 1

    def _sleeping(self) -> bool:
        try:
            stat = Path(f"/proc/{self.process.pid}/stat").read_text()
        except OSError:  # no /proc: the quiet output alone says so
            return True
        return stat.rpartition(")")[2].split()[0] == "S"

    def wait(self, timeout: float = 60) -> int:
        deadline = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < deadline:
            self._read(0.2)
        while self._read(0.1):
            pass
        code = self.process.wait(timeout=max(0.1, deadline - time.monotonic()))
        os.close(self.master)
        return code

    def text(self) -> str:
        return self.output.decode("utf-8", errors="replace")
