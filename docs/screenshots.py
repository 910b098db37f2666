"""Make the screenshots docs/web.md shows: each game mid-game, on a laptop (1366 × 768) and a
phone (390 × 844), in English and Traditional Chinese.

    .venv/bin/python docs/screenshots.py        # after `python3 dev.py test` installed Playwright

It starts `meeple serve` on a free port over a throw-away database, opens the lobby in Debian's
Chromium, creates a table of each game against bots as a player would, clicks the last offered
move a few times, and saves `docs/images/web-<game>-<lang>-<size>.png`; and a finished game's
review, `docs/images/web-review-en-<size>.png` (`screenshots.py review`: that one alone).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import sync_playwright

IMAGES = Path(__file__).resolve().parent / "images"
GAMES = ("triqueta", "triominos", "celtica", "castell")
SIZES = {"laptop": (1366, 768), "phone": (390, 844)}
#: Moves the person makes before the picture: far enough that the bots have moved too.
MOVES = {"triqueta": 4, "triominos": 3, "celtica": 3, "castell": 4}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _serve(folder: str) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "meeple", "serve", "--port", str(port),
                               "--db", f"{folder}/shots.db"], cwd=folder, stderr=subprocess.DEVNULL,
                              process_group=0)  # its bot workers end with it (os.killpg)
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if httpx.get(f"{url}/api/games", timeout=1).status_code == 200:
                return server, url
        except httpx.HTTPError:
            time.sleep(0.1)
    os.killpg(server.pid, signal.SIGKILL)
    raise SystemExit("the server did not start")


def _play(page: Any, moves: int) -> None:
    """Make `moves` moves with the last offered move (the first is often Triqueta's "take a row",
    which leaves the round), waiting for the bots after each."""
    for _ in range(moves):
        page.wait_for_selector("#moves [data-action-id]", timeout=60_000)
        version = page.locator("#table").get_attribute("data-version")
        page.locator("#moves [data-action-id]").last.click()
        page.wait_for_function("v => document.getElementById('table').dataset.version !== v", arg=version)
    page.wait_for_selector("#moves [data-action-id]", timeout=60_000)


def _finished_game(url: str) -> dict[str, Any]:
    """A Triqueta game of a person against a greedy bot, played to its end through the API (the
    person's first legal move each turn): the person's seat."""
    me: dict[str, Any] = httpx.post(f"{url}/api/tables", timeout=30, json={
        "game": "triqueta", "players": 2, "name": "Ana", "seats": [{"kind": "human"}, {"kind": "bot"}]}).json()
    auth = {"authorization": f"Bearer {me['credential']}"}
    for _ in range(2000):
        seen = httpx.get(f"{url}/api/tables/{me['table_id']}/state", headers=auth, timeout=30).json()
        if seen["over"]:
            return me
        if seen["to_move"] != me["seat"]:
            time.sleep(0.05)
            continue
        httpx.post(f"{url}/api/tables/{me['table_id']}/actions", headers=auth, timeout=30,
                   json={"version": seen["version"], "action_id": seen["legal"][0]["id"]})
    raise SystemExit("the game did not end")


def _review(browser: Any, url: str) -> None:
    """The review of a finished game (the server's default settings), the replay stepped to a
    turning point from the chart: `docs/images/web-review-en-<size>.png`."""
    me = _finished_game(url)
    for size, (width, height) in SIZES.items():
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.goto(f"{url}/favicon.ico")  # the origin, for its local storage
        page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                      [f"meeple:{me['table_id']}", json.dumps({"seats": {str(me["seat"]): me["credential"]}})])
        page.goto(f"{url}/tables/{me['table_id']}")
        page.wait_for_selector("[data-testid=game-over]")
        if page.get_by_test_id("review-start").is_visible():
            page.get_by_test_id("review-start").click()
        page.wait_for_selector("[data-testid=review-chart]", timeout=600_000)
        page.get_by_test_id("turning-point-2").click()
        page.wait_for_timeout(500)
        path = IMAGES / f"web-review-en-{size}.png"
        page.locator("#review-panel").screenshot(path=str(path))
        print(path.relative_to(IMAGES.parent.parent))
        context.close()


def main() -> None:
    """All the pictures; `screenshots.py review` makes the review's alone."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("needs Debian's chromium (apt-get install chromium fonts-noto-cjk)")
    IMAGES.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        server, url = _serve(folder)
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        try:
            _review(browser, url)
            for lang in ("en", "zh-Hant") if sys.argv[1:] != ["review"] else ():
                for game in GAMES:
                    context = browser.new_context(viewport=dict(zip(("width", "height"), SIZES["laptop"], strict=True)))
                    context.add_cookies([{"name": "lang", "value": lang, "url": url}])
                    context.add_init_script("localStorage.setItem('meeple:pace', 'instant')")
                    page = context.new_page()
                    page.goto(url)
                    page.locator(f"label:has(input[name=game][value={game}])").click()
                    page.get_by_test_id("create-table").click()
                    page.wait_for_selector("#board svg")
                    _play(page, MOVES[game])
                    for size, (width, height) in SIZES.items():
                        page.set_viewport_size({"width": width, "height": height})
                        page.wait_for_timeout(300)
                        path = IMAGES / f"web-{game}-{lang}-{size}.png"
                        page.screenshot(path=str(path))
                        print(path.relative_to(IMAGES.parent.parent))
                    context.close()
        finally:
            browser.close()
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
