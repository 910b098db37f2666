"""Hot-seat and memory in a real browser: the hand-over screen shows nothing of the seat that
just played (its log, status, board or moves, anywhere in the DOM), a reload or a second tab
shows the whole log and the chat, and a table still waiting for players says so."""

from __future__ import annotations

import re
from typing import Any

import pytest
from tests.server.live import Server
from tests.web.api_tables import credentials
from tests.web.test_pages import _create_from_lobby

#: The whole page as text: what is drawn (innerText) and what is not (text content, every
#: title attribute and SVG <title>), so a secret in a tooltip or a hidden element counts too.
PAGE_TEXT = """() => [document.body.innerText, document.body.textContent,
    ...[...document.querySelectorAll('[title]')].map(e => e.getAttribute('title'))].join('\\n')"""


def _hidden_items(page: Any, server: Server, table: str, seat: int) -> list[str]:
    """What `seat`'s own view holds that a spectator's does not, as the page would write it
    (rack tiles, hand cards, face-down tokens, a colour owed): read over the API."""
    credential = credentials(page, table)[seat]
    mine = page.request.get(f"{server.url}/api/tables/{table}/state",
                            headers={"authorization": f"Bearer {credential}"}).json()["view"]
    public = page.request.get(f"{server.url}/api/tables/{table}/state").json()["view"]
    items: list[str] = []

    def walk(own: Any, seen: Any) -> None:
        if isinstance(own, dict):
            for key, value in own.items():
                walk(value, seen.get(key) if isinstance(seen, dict) else None)
        elif isinstance(own, list) and isinstance(seen, list) and len(own) == len(seen):
            for a, b in zip(own, seen, strict=True):
                walk(a, b)
        elif own != seen and seen is None:
            leaves = own if isinstance(own, list) else [own]
            items.extend(str(v) for v in leaves if isinstance(v, str) and len(v) >= 3)

    walk(mine, public)
    return items


def _lines(page: Any, selector: str) -> list[str]:
    text = page.evaluate("s => [...document.querySelectorAll(s)].map(e => e.textContent).join('\\n')", selector)
    return [line.strip() for line in text.splitlines() if len(line.strip()) >= 4]


@pytest.mark.parametrize("game", ["triqueta", "triominos", "celtica", "castell"])
def test_every_hand_over_shows_nothing_of_the_last_seat(page, server, game):
    table = _create_from_lobby(page, server, game, players=2, seats={1: "human-here"})
    handovers = 0
    for _ in range(12):
        if handovers >= 3:
            break
        page.wait_for_selector("#pass:not([hidden]), #moves [data-action-id], [data-testid=game-over]")
        if page.locator("[data-testid=game-over]").count():
            break
        if page.locator("#pass").is_visible():
            page.click("#pass-ready")
            page.wait_for_selector("#moves [data-action-id]")
        seat = int(page.locator("#players li.me").get_attribute("data-seat"))
        # What this seat's screen shows now: its log lines and its board's words.
        private = [line for line in _lines(page, "#log li, #board") if "You" in line or "you" in line]
        version = page.locator("#table").get_attribute("data-version")
        page.locator("#moves [data-action-id]").first.click()
        page.wait_for_function("v => document.getElementById('table').dataset.version !== v"
                               " || !document.getElementById('pass').hidden", arg=version)
        if not page.locator("#pass").is_visible():
            continue  # the same seat moves again (a draw, a second action)
        handovers += 1
        page.wait_for_timeout(300)  # any late message for the last seat must not bring its screen back
        hidden = _hidden_items(page, server, table, seat) + private
        shown = page.evaluate(PAGE_TEXT)
        for item in hidden:
            assert item not in shown, (game, seat, item)
        for part in ("#board", "#moves", "#players", "#log"):
            assert page.locator(part).evaluate("e => e.textContent") == "", part
        status = page.locator("#status").inner_text()
        assert "Your turn" not in shown and "to move" in status, status
        assert page.locator("#pass-text").inner_text() in shown
    assert handovers >= 1, "the game handed the device over"


def test_a_hot_seat_log_keeps_each_seat_its_own_lines_once(page, server):
    """Triominos draws are secret: each seat's log names its own draws and never twice."""
    _create_from_lobby(page, server, "triominos", players=2, seats={1: "human-here"})
    for _ in range(4):
        page.wait_for_selector("#pass:not([hidden]), #moves [data-action-id]")
        if page.locator("#pass").is_visible():
            page.click("#pass-ready")
            page.wait_for_selector("#moves [data-action-id]")
        version = page.locator("#table").get_attribute("data-version")
        page.locator("#moves [data-action-id]").first.click()
        page.wait_for_function("v => document.getElementById('table').dataset.version !== v"
                               " || !document.getElementById('pass').hidden", arg=version)
    if page.locator("#pass").is_visible():
        page.click("#pass-ready")
    page.wait_for_selector("#moves [data-action-id], [data-testid=game-over]")
    lines = page.locator("#log li").all_inner_texts()
    version = int(page.locator("#table").get_attribute("data-version"))
    assert lines and len(lines) <= version + 2, lines  # one line per event, not one per socket


def _say(page: Any, text: str) -> None:
    page.fill("#chat-text", text)
    page.locator("#chat-form button").click()
    page.wait_for_function("t => document.getElementById('chat').textContent.includes(t)", arg=text)


def test_a_reload_and_a_second_tab_show_the_whole_log_and_the_chat(page, server):
    table = _create_from_lobby(page, server, "triqueta", players=2)
    for _ in range(3):
        page.wait_for_selector("#moves [data-action-id], [data-testid=game-over]")
        version = page.locator("#table").get_attribute("data-version")
        page.locator("#moves [data-action-id]").first.click()
        page.wait_for_function("v => document.getElementById('table').dataset.version !== v", arg=version)
    page.wait_for_selector("#moves [data-action-id]")  # my turn: nothing changes until I move
    _say(page, "hello table")
    _say(page, "second line")
    log = page.locator("#log li").all_inner_texts()
    chat = page.locator("#chat li").all_inner_texts()
    assert len(log) >= 3 and len(chat) == 2
    page.reload()
    page.wait_for_selector("#moves [data-action-id]")
    page.wait_for_function("n => document.querySelectorAll('#chat li').length >= n", arg=len(chat))
    assert page.locator("#log li").all_inner_texts() == log
    assert page.locator("#chat li").all_inner_texts() == chat
    other = page.context.new_page()  # a second tab of the same browser: the same seat
    other.goto(f"{server.url}/tables/{table}")
    other.wait_for_selector("#moves [data-action-id]")
    other.wait_for_function("n => document.querySelectorAll('#chat li').length >= n", arg=len(chat))
    assert other.locator("#log li").all_inner_texts() == log
    assert other.locator("#chat li").all_inner_texts() == chat
    other.close()


@pytest.mark.parametrize(("lang", "friends", "wording"), [
    ("en", 1, "Waiting for 1 more player"), ("en", 2, "Waiting for 2 more players"),
    ("zh-Hant", 2, "還在等待 2 位玩家"),
])
def test_a_table_waiting_for_friends_says_so_with_a_real_count(page, server, lang, friends, wording):
    page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
    _create_from_lobby(page, server, "triqueta", players=friends + 1,
                       seats=dict.fromkeys(range(1, friends + 1), "human"))
    page.wait_for_selector("#invite:not([hidden])")
    page.wait_for_function("() => document.getElementById('status').textContent.length > 0")
    status = page.locator("#status").inner_text()
    assert status == wording
    shown = page.evaluate(PAGE_TEXT)
    assert "Your turn" not in shown and "輪到你" not in shown  # nor in the board's drawing
    invite = page.locator("#invite").inner_text()
    assert wording in invite and "…" not in invite
    assert re.search(r"\d", invite)
    assert page.locator("#moves [data-action-id]").count() == 0
