"""Helpers of the language and phone tests: tables made and played through the HTTP API (fast:
no clicking), and a browser page opened as one of their seats."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
from tests.server.live import Server

#: 40 characters, as long as a name may be (CreateTable's `Name`).
LONG_NAME = "Bartholomew-Maximilian Fitzgerald-Smythe"
#: 20 wide characters: twice as wide as Latin letters.
CJK_NAME = "歐陽明月長風萬里送秋雁對此可以酣高樓蓬萊"


def create(server: Server, game: str, players: int = 2, name: str = "Ana", bot: str = "random",
           open_seats: int = 0, **extra: Any) -> dict[str, Any]:
    """A table with a person in seat 0, `open_seats` free seats for people, and bots in the rest."""
    seats = [{"kind": "human"}] * (1 + open_seats) + [{"kind": "bot", "bot": bot}] * (players - 1 - open_seats)
    answer = httpx.post(f"{server.url}/api/tables", json={"game": game, "players": players, "seats": seats,
                                                          "name": name, **extra}, timeout=30)
    answer.raise_for_status()
    created: dict[str, Any] = answer.json()
    return created


def join(server: Server, table: dict[str, Any], name: str) -> dict[str, Any]:
    answer = httpx.post(f"{server.url}/api/tables/{table['table_id']}/join",
                        json={"join_code": table["join_code"], "name": name}, timeout=30)
    answer.raise_for_status()
    joined: dict[str, Any] = answer.json()
    return joined


def _state(server: Server, seat: dict[str, Any]) -> dict[str, Any]:
    answer = httpx.get(f"{server.url}/api/tables/{seat['table_id']}/state",
                       headers={"authorization": f"Bearer {seat['credential']}"}, timeout=30)
    answer.raise_for_status()
    state: dict[str, Any] = answer.json()
    return state


def play(server: Server, seats: list[dict[str, Any]], moves: int = 10**6, seconds: float = 300) -> None:
    """Make each person's first legal move whenever one of `seats` is to move (the bots play
    themselves), `moves` times or until the game is over."""
    deadline = time.monotonic() + seconds
    made = 0
    while made < moves:
        assert time.monotonic() < deadline, "the game did not get on"
        state = _state(server, seats[0])
        if state["over"]:
            return
        mover = next((s for s in seats if s["seat"] == state["to_move"]), None)
        if mover is None:
            time.sleep(0.05)  # a bot's turn
            continue
        legal = (state if mover is seats[0] else _state(server, mover))["legal"]  # seat 0's own state is at hand
        httpx.post(f"{server.url}/api/tables/{mover['table_id']}/actions", timeout=30,
                   json={"version": state["version"], "action_id": legal[0]["id"]},
                   headers={"authorization": f"Bearer {mover['credential']}"})
        made += 1


def credentials(page: Any, table: str) -> dict[int, str]:
    """The credentials the page keeps for `table`, by seat (where the lobby leaves them)."""
    saved = page.evaluate("k => JSON.parse(localStorage.getItem(k) || '{}')", f"meeple:{table}")
    return {int(seat): credential for seat, credential in saved.get("seats", {}).items()}


def open_as(page: Any, server: Server, seat: dict[str, Any]) -> None:
    """The table page as `seat`'s browser shows it (its credential where the lobby leaves it)."""
    page.goto(f"{server.url}/favicon.ico")  # the origin, for its local storage
    stored = {"seats": {str(seat["seat"]): seat["credential"]}, "join_code": seat.get("join_code")}
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"meeple:{seat['table_id']}", json.dumps(stored)])
    page.goto(f"{server.url}/tables/{seat['table_id']}")
    page.wait_for_selector("#board svg")
