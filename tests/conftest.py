"""Shared test settings: hypothesis profiles sized for a 2-core CI machine, and the `server`
fixture (a real `meeple serve` process) that the process and browser tests share.

The default profile is derandomized, so CI runs the same examples every time. Set
`MEEPLE_HYPOTHESIS=explore` to draw new examples on each run when hunting for bugs."""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.server.live import Server

settings.register_profile(
    "meeple",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
settings.register_profile("explore", parent=settings.get_profile("meeple"), derandomize=False)
settings.load_profile("explore" if os.environ.get("MEEPLE_HYPOTHESIS") == "explore" else "meeple")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A real `meeple serve` over a fresh database; its log must hold no traceback."""
    running = Server(tmp_path)
    running.start()
    yield running
    log = running.stop()
    assert "Traceback" not in log, log
