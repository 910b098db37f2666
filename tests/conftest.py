"""Shared test settings: hypothesis profiles sized for a 2-core CI machine, the `slow` mark of the
tests the quick lane leaves out, and the `server` fixture (a real `meeple serve` process) that the
process and browser tests share.

The default profile is derandomized, so CI runs the same examples every time. Set
`MEEPLE_HYPOTHESIS=explore` to draw new examples on each run when hunting for bugs."""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.processes import become_subreaper, command_line, end_processes, living_descendants
from tests.server.live import Server

settings.register_profile(
    "meeple",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
settings.register_profile("explore", parent=settings.get_profile("meeple"), derandomize=False)
settings.load_profile("explore" if os.environ.get("MEEPLE_HYPOTHESIS") == "explore" else "meeple")


#: Fixtures that make a test slow whatever it does with them: a browser, `meeple serve` as a process.
SLOW_FIXTURES = {"browser", "server"}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--differential-games", type=int, default=None, metavar="N",
        help="games each batched simulator's many-games differential test plays against its engine, spread "
             "over its tables (the issue's run: 10000; the suite's own sizes when not given)",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark `slow` every test using a slow fixture, so the quick lane (-m "not slow") leaves out
    each new browser or live-server test without being told."""
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


def pytest_sessionstart(session: pytest.Session) -> None:
    become_subreaper()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Nothing a test started may outlive the suite: what is left is named, ended, and fails the
    run. This process's own multiprocessing resource tracker is pytest's, and ends with it."""
    from multiprocessing import resource_tracker

    if session.config.pluginmanager.hasplugin("dsession"):
        return  # pytest-xdist's controller: each worker checks what its own tests started
    own_tracker = getattr(resource_tracker._resource_tracker, "_pid", None)
    left = [pid for pid in living_descendants(os.getpid()) if pid != own_tracker]
    if not left:
        return
    named = [f"{pid} {command_line(pid)[:200]}" for pid in left]
    end_processes(left)
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    write = reporter.write_line if reporter is not None else print
    write("")  # after the progress line
    write(f"started by the tests and still running at the end, now ended ({len(left)}):")
    for line in named:
        write(f"  {line}")
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A real `meeple serve` over a fresh database; its log must hold no traceback."""
    running = Server(tmp_path)
    running.start()
    yield running
    log = running.stop()
    assert "Traceback" not in log, log
