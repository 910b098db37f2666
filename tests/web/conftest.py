"""Browser tests: a real `meeple serve` process and Playwright driving Debian's Chromium (never a
browser downloaded by Playwright). Without Chromium the tests skip with one line, except under CI,
where they fail. A failing test leaves a screenshot in `test-screenshots/`."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.server.live import Server

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-screenshots"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
PHONE = {"width": 390, "height": 844}


def _require_browser() -> Any:
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("browser tests need Debian's chromium (python3 dev.py test installs it as root)")
        pytest.skip("browser tests skipped: no chromium on this machine (apt-get install chromium fonts-noto-cjk)")
    from playwright.sync_api import sync_playwright

    return sync_playwright


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_playwright = _require_browser()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )
        yield launched
        launched.close()


def _checked_page(browser: Any, request: pytest.FixtureRequest, **context_options: Any) -> Iterator[Any]:
    """A page in a new browser context: others' moves show at once (a test of the pace chooses
    its own), a failing test leaves a screenshot, and a Content-Security-Policy violation fails."""
    context = browser.new_context(**context_options)
    context.add_init_script("localStorage.getItem('meeple:pace') || localStorage.setItem('meeple:pace', 'instant')")
    opened = context.new_page()
    opened.set_default_timeout(20_000)
    console: list[str] = []
    opened.on("console", lambda message: console.append(message.text))
    yield opened
    failed = getattr(request.node, "rep_call", None)
    if failed is not None and failed.failed:
        SCREENSHOTS.mkdir(exist_ok=True)
        opened.screenshot(path=str(SCREENSHOTS / f"{request.node.name}.png"), full_page=True)
    context.close()
    assert [text for text in console if "Content Security Policy" in text] == []  # no page broke the policy


@pytest.fixture
def page(browser: Any, server: Server, request: pytest.FixtureRequest) -> Iterator[Any]:
    yield from _checked_page(browser, request, viewport={"width": 1200, "height": 900})


@pytest.fixture
def phone(browser: Any, server: Server, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A touch-screen phone's page at 390 × 844."""
    yield from _checked_page(browser, request, viewport=PHONE, has_touch=True, is_mobile=True)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    setattr(item, f"rep_{report.when}", report)
