"""The table page's small things: the favicon answers on every page, and the players panel
shows who is at the table truly (a bot always is; a person while connected), with a text
alternative for the mark in both languages."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from meeple.server.web.render import _players, catalog
from tests.server.conftest import create


def test_the_favicon_answers_with_an_image_under_the_security_headers(client):
    answer = client.get("/favicon.ico")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("image/svg+xml")
    assert answer.content.lstrip().startswith(b"<svg") and b"<script" not in answer.content
    assert "img-src 'self'" in answer.headers["content-security-policy"]
    linked = client.get("/static/favicon.svg")
    assert linked.status_code == 200 and linked.content == answer.content


def test_every_page_links_the_icon(client):
    table = create(client, public=True)["table_id"]
    for path in ("/", f"/tables/{table}"):
        page = client.get(path).text
        assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page


def _seat(seat: int, kind: str = "human", bot: str | None = None, connected: int = 0) -> dict[str, Any]:
    return {"seat": seat, "kind": kind, "bot": bot, "name": f"P{seat}", "taken": True, "left": False,
            "connected": connected}


def _presence(html: str) -> dict[int, tuple[str, str, str]]:
    """seat -> (presence state, text alternative, mark), checking the mark's attributes."""
    out = {}
    for seat, item in re.findall(r'(?s)<li [^>]*data-seat="(\d+)"[^>]*>(.*?)</li>', html):
        span = re.search(r'<span class="online (\w+)"([^>]*)>(.)</span>', item)
        assert span is not None, item
        attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', span.group(2)))
        assert attrs["title"] == attrs["aria-label"] and attrs["role"] == "img"
        assert attrs["data-presence"] == span.group(1)
        out[int(seat)] = (span.group(1), attrs["aria-label"], span.group(3))
    return out


@pytest.mark.parametrize("lang, bot, here, away", [
    ("en", "a bot: always at the table", "at the table", "not connected"),
    ("zh-Hant", "電腦：一直在桌上", "在桌上", "未連線"),
])
def test_the_panel_shows_bots_present_and_people_as_connected(lang, bot, here, away):
    seats = [_seat(0, connected=1), _seat(1, "bot", "greedy"), _seat(2), _seat(3, connected=2)]
    shown = _presence(_players(seats, 0, 0, catalog("triqueta", lang)))
    assert shown == {0: ("present", here, "●"), 1: ("present", bot, "●"), 2: ("away", away, "○"),
                     3: ("present", here, "●")}


def test_a_left_seat_played_by_a_bot_is_present():
    seats = [_seat(0, connected=1), {**_seat(1), "left": True, "bot": "greedy"}]
    assert _presence(_players(seats, 0, 0, catalog("triqueta", "en")))[1][0] == "present"


def _hello(ws, credential: str | None) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "hello", "credential": credential, "render": "en"}))
    message: dict[str, Any] = ws.receive_json()
    return message


def _next_state(ws) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "state":
            return message


def test_a_bot_seat_is_present_over_the_wire(client):
    created = create(client, "triqueta", 2, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    with client.websocket_connect(f"/ws/tables/{created['table_id']}") as ws:
        first = _hello(ws, created["credential"])
        assert _presence(first["html"]["players"])[1][0] == "present"
        assert _presence(first["html"]["players"])[0][0] == "present"  # me, connected


def test_a_friend_who_joins_shows_present_once_connected_and_away_once_gone(client):
    created = create(client, "triqueta", 2, seats=[{"kind": "human"}, {"kind": "human"}])
    table = created["table_id"]
    with client.websocket_connect(f"/ws/tables/{table}") as host:
        _hello(host, created["credential"])
        joined = client.post(f"/api/tables/{table}/join", json={"join_code": created["join_code"], "name": "Ana"})
        assert joined.status_code == 200, joined.text
        told = _next_state(host)  # the join, before Ana's page has connected
        assert told["seats"][1]["connected"] == 0 and _presence(told["html"]["players"])[1][0] == "away"
        with client.websocket_connect(f"/ws/tables/{table}") as friend:
            mine = _hello(friend, joined.json()["credential"])
            assert _presence(mine["html"]["players"])[1][0] == "present"
            arrived = _next_state(host)
            assert arrived["seats"][1]["connected"] == 1
            assert _presence(arrived["html"]["players"])[1] == ("present", "at the table", "●")
        gone = _next_state(host)
        assert gone["seats"][1]["connected"] == 0
        assert _presence(gone["html"]["players"])[1] == ("away", "not connected", "○")


def test_a_second_tab_or_a_spectator_tells_nobody(client):
    """Only a seat's first connection (or its last going) changes the panel."""
    created = create(client, "triqueta", 2, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    table = created["table_id"]
    with client.websocket_connect(f"/ws/tables/{table}") as tab1:
        _hello(tab1, created["credential"])
        with client.websocket_connect(f"/ws/tables/{table}") as tab2, \
                client.websocket_connect(f"/ws/tables/{table}") as watcher:
            assert _hello(tab2, created["credential"])["seats"][0]["connected"] == 2
            assert _hello(watcher, None)["seat"] is None
        tab1.send_text(json.dumps({"type": "ping"}))
        assert tab1.receive_json() == {"type": "pong"}  # nothing was sent to tab1 meanwhile
