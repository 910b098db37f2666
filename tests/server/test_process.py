"""`meeple serve` as a real process, as users start it: real WebSocket clients, and SIGKILL in
the middle of games with nothing lost."""

from __future__ import annotations

import json
import time

import pytest
from websockets.sync.client import connect

from meeple.core.record import GameRecord
from tests.processes import living_members
from tests.server.clients import api, move, new_table, wait_until_version
from tests.server.live import Server

pytestmark = pytest.mark.slow  # `meeple serve` as a process


def test_a_real_websocket_client_plays_against_bots_in_worker_processes(server):
    table, (credential,) = new_table(server, "celtica", [{"kind": "human"}, {"kind": "bot", "bot": "greedy"},
                                                      {"kind": "bot", "bot": "ismcts:easy"}])
    with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table}") as ws:
        ws.send(json.dumps({"type": "hello", "credential": credential}))
        message = json.loads(ws.recv(timeout=30))
        moves = 0
        while not message.get("over") and moves < 6:
            if message["type"] == "state" and message["to_move"] == 0 and message["legal"]:
                ws.send(json.dumps({"type": "act", "version": message["version"],
                                    "action_id": message["legal"][0]["id"]}))
                moves += 1
            message = json.loads(ws.recv(timeout=60))
        assert moves == 6 or message.get("over")


def test_sigkill_mid_game_loses_nothing_and_every_table_continues(server):
    people, credentials = new_table(server, "triominos", [{"kind": "human"}, {"kind": "human"}])
    bots_only, _ = new_table(server, "castell", [{"kind": "bot", "bot": "ismcts:easy"}] * 3)
    acknowledged = None
    for _ in range(7):
        acknowledged = move(server, people, credentials)
    assert acknowledged is not None
    deadline = time.monotonic() + 60  # the bots are playing (their worker processes start first)
    while (bots_before := api(server, "GET", f"/api/tables/{bots_only}/state").json()["version"]) < 2:
        assert time.monotonic() < deadline, "the bots did not start"
        time.sleep(0.2)

    server.kill()
    server.start()

    mine = api(server, "GET", f"/api/tables/{people}/state", credentials[acknowledged["seat"]]).json()
    assert mine["version"] == acknowledged["version"]  # every acknowledged move is there
    assert mine["view"] == acknowledged["view"]  # exactly where it was
    deadline = time.monotonic() + 60
    while api(server, "GET", f"/api/tables/{bots_only}/state").json()["version"] <= bots_before:
        assert time.monotonic() < deadline, "the bots did not resume"
        time.sleep(0.2)
    with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{people}") as ws:  # clients reconnect
        ws.send(json.dumps({"type": "hello", "credential": credentials[0]}))
        assert json.loads(ws.recv(timeout=30))["version"] == acknowledged["version"]
    final = None
    for _ in range(3000):
        final = move(server, people, credentials)
        if final["over"]:
            break
    assert final is not None and final["over"]
    record = GameRecord.from_json(api(server, "GET", f"/api/tables/{people}/record").json())
    replayed = record.replay()
    assert replayed.scores() == final["result"]["scores"] and replayed.winners() == final["result"]["winners"]



def _bots_playing(server: Server) -> int:
    """Start a table of bots and wait for their first move, so the server has spawned its bot
    worker (and the worker's resource tracker); the server's process group."""
    bots_only, _ = new_table(server, "triqueta", [{"kind": "bot", "bot": "greedy"}] * 2)
    wait_until_version(server, bots_only, 1, "the bots did not start", seconds=60)
    assert server.process is not None
    group = server.process.pid
    assert len(living_members(group)) >= 2  # the server and what it spawned
    return group


def test_a_stopped_or_killed_server_leaves_none_of_its_processes_behind(tmp_path):
    """The bot worker and its resource tracker end with the server, whether it is killed (the
    tracker outlived a SIGKILLed server) or stopped, so none runs on after the suite."""
    server = Server(tmp_path)
    server.start()
    try:
        killed = _bots_playing(server)
        server.kill()
        assert living_members(killed) == []
        server.start()
        stopped = _bots_playing(server)
    finally:
        log = server.stop()
    assert "Traceback" not in log, log
    assert living_members(stopped) == []
