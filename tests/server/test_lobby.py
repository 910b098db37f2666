"""The lobby lists only tables someone may join or watch: public ones with a free seat or in
play. Private tables, finished ones and closed ones never show, in the API or on the page."""

from __future__ import annotations

import time

from tests.server.conftest import create, hub_of, on_loop
from tests.server.test_api import _play_to_the_end

HUMANS2 = [{"kind": "human"}, {"kind": "human"}]


def test_the_lobby_lists_public_tables_open_or_in_play_and_nothing_else(client):
    hub = hub_of(client)
    closed = create(client, seats=HUMANS2, public=True)["table_id"]
    hub.now = lambda: time.time() + 7 * 24 * 3600  # a week on: the first table closes for want of use
    assert on_loop(client, hub.close_idle) == [closed]
    hub.now = time.time

    private = create(client, seats=HUMANS2)["table_id"]
    waiting = create(client, seats=HUMANS2, public=True)["table_id"]
    playing = create(client, seats=HUMANS2, public=True)
    joined = client.post(f"/api/tables/{playing['table_id']}/join", json={"name": "Ana"}).json()
    finished = create(client, seats=HUMANS2, public=True)
    other = client.post(f"/api/tables/{finished['table_id']}/join", json={"name": "Ben"}).json()
    _play_to_the_end(client, finished["table_id"], [finished["credential"], other["credential"]])
    assert joined["seat"] == 1

    listing = client.get("/api/tables").json()
    assert [t["id"] for t in listing] == [playing["table_id"], waiting]  # newest first
    assert [t["status"] for t in listing] == ["playing", "waiting"]
    assert [s["taken"] for s in listing[0]["seats"]] == [True, True]
    assert [s["taken"] for s in listing[1]["seats"]] == [True, False]
    page = client.get("/").text
    for shown in (waiting, playing["table_id"]):
        assert f"/tables/{shown}" in page
    for hidden in (private, finished["table_id"], closed):
        assert hidden not in page


def test_the_lobby_is_the_newest_two_hundred_and_loads_no_table(unlimited_client):
    client = unlimited_client
    made = [create(client, seats=HUMANS2, public=True)["table_id"] for _ in range(205)]
    hub = hub_of(client)
    hub.unload(time.monotonic() + 1)  # as the upkeep does once they are unused
    assert hub.tables == {}
    listing = client.get("/api/tables").json()
    assert [t["id"] for t in listing] == made[::-1][:200]
    assert "/tables/" + made[-1] in client.get("/").text
    assert hub.tables == {}  # described from the stored rows, nothing loaded
