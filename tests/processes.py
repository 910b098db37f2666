"""Processes the tests start. Each leads a process group of its own, so a test can end
everything it started in turn: a server's bot workers and their resource tracker, an arena's
worker pool, Ray's daemons. Ending only the process itself leaves those running after the suite.

The session checks the result (tests/conftest.py): orphans of the tests' processes are handed to
pytest instead of the machine's first process, and any still running at the end are named,
ended, and fail the run. Reads Linux's /proc, as the process tests run on Linux."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

#: Popen's keyword arguments that start the child as the leader of a new process group.
OWN_GROUP: dict[str, Any] = {"process_group": 0}
#: prctl's option that makes a process the reaper of its descendants' orphans.
PR_SET_CHILD_SUBREAPER = 36


class Process(NamedTuple):
    pid: int
    state: str
    parent: int
    group: int


def _processes() -> Iterator[Process]:
    """Every process of the machine that has not exited. An exited one whose parent reaps
    nothing stays a zombie; it holds nothing and is left out."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # it exited meanwhile
            continue
        state, parent, group = stat[stat.rindex(")") + 2:].split()[:3]  # after "pid (name) "
        if state != "Z":
            yield Process(int(entry.name), state, int(parent), int(group))


def living_members(group: int) -> list[int]:
    """The processes of process group `group` still running."""
    return [process.pid for process in _processes() if process.group == group]


def living_descendants(root: int) -> list[int]:
    """The processes still running that `root` started, or that its children started, and so on."""
    children: dict[int, list[int]] = {}
    for process in _processes():
        children.setdefault(process.parent, []).append(process.pid)
    found, waiting = [], list(children.get(root, []))
    while waiting:
        pid = waiting.pop()
        found.append(pid)
        waiting.extend(children.get(pid, []))
    return found


def command_line(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return "(ended)"


def become_subreaper() -> None:
    """Orphans of this process's descendants become its children rather than the first process's,
    so the session can find what a test left running after its own child ended."""
    ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, 1)


def end_group(process: subprocess.Popen[Any], timeout: float = 30) -> None:
    """Stop `process` with SIGTERM as a service manager would, letting it stop its own children;
    then end whatever of its group is left (see end_leftovers)."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    end_leftovers(process.pid, timeout)


def end_leftovers(group: int, timeout: float = 30) -> None:
    """SIGTERM to every living process of `group`, SIGKILL to those still running after
    `timeout` seconds; returns once none is left."""
    _end(lambda: living_members(group), lambda number: _signal_group(group, number), timeout)


def end_processes(pids: list[int], timeout: float = 10) -> None:
    """SIGTERM to each of `pids`, SIGKILL to those still running after `timeout` seconds."""
    def running() -> list[int]:
        alive = {process.pid for process in _processes()}
        return [pid for pid in pids if pid in alive]

    def send(number: signal.Signals) -> None:
        for pid in running():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, number)

    _end(running, send, timeout)


def _end(running: Callable[[], list[int]], send: Callable[[signal.Signals], None], timeout: float) -> None:
    if not running():
        return
    send(signal.SIGTERM)
    if _emptied(running, timeout):
        return
    send(signal.SIGKILL)
    if not _emptied(running, timeout):
        raise AssertionError(f"processes {running()} outlived SIGKILL")


def _emptied(running: Callable[[], list[int]], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while running():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _signal_group(group: int, number: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):  # the last one ended just now
        os.killpg(group, number)
