"""Highcard installed as a separate distribution would be: a `*.dist-info` whose
`entry_points.txt` announces its plugin in the group `meeple.games`, on `sys.path` for this
process and on PYTHONPATH for the processes the tests start (the arena's workers, `meeple play`,
`meeple serve`). Nothing in meeple names it; it is gone again after the tests of this folder."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.conftest import browser, page, pytest_runtest_makereport  # noqa: F401 (the browser test's fixtures)

ROOT = Path(__file__).resolve().parents[2]
ENTRY_POINTS = "[meeple.games]\nhighcard = tests.highcard.plugin:PLUGIN\n"


@pytest.fixture(scope="module", autouse=True)
def highcard_installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    site = tmp_path_factory.mktemp("site")
    info = site / "meeple_highcard-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: meeple-highcard\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(ENTRY_POINTS, encoding="utf-8")
    added = [str(site), str(ROOT)]
    before = os.environ.get("PYTHONPATH")
    sys.path[:0] = added
    os.environ["PYTHONPATH"] = os.pathsep.join([*added, *([before] if before else [])])
    yield "highcard"
    for entry in added:
        sys.path.remove(entry)
    if before is None:
        del os.environ["PYTHONPATH"]
    else:
        os.environ["PYTHONPATH"] = before
