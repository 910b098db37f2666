"""Make the screenshots docs/web.md shows: each game mid-game, on a laptop (1366 × 768) and a
phone (390 × 844), in English and Traditional Chinese.

    .venv/bin/python docs/screenshots.py        # after `python3 dev.py test` installed Playwright

It starts `meeple serve` on a free port over a throw-away database, opens the lobby in Debian's
Chromium, creates a table of each game against bots as a player would, clicks the last offered
move a few times, and saves `docs/images/web-<game>-<lang>-<size>.png`.
"""

from __future__ import annotations

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


def main() -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("needs Debian's chromium (apt-get install chromium fonts-noto-cjk)")
    IMAGES.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        server, url = _serve(folder)
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        try:
            for lang in ("en", "zh-Hant"):
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
