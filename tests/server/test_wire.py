"""The conformance check of the engines, carried to the wire: every message the server sends a
seat is unchanged when everything hidden from that seat is re-sampled (`determinize`), so no
message can carry another seat's secret, the seed or the record."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from meeple.core.conformance import canonical
from meeple.core.registry import game_names
from meeple.core.rng import Rng
from meeple.core.state import State
from meeple.server.botpool import BotPool
from meeple.server.live import LiveTable
from meeple.server.models import CreateTable, SeatSpec
from meeple.server.previews import SAMPLES, preview_seed, score_changes
from meeple.server.sqlite_store import SQLiteStore
from meeple.server.tables import Hub
from meeple.server.wire import legal_moves

pytestmark = pytest.mark.slow  # whole games, each message compared across re-sampled worlds

#: What the determinized world must reproduce exactly.
SEAT_PARTS = ("view", "to_move", "over", "result", "version", "seat")


class Recorder:
    """A connection that keeps every message with the state it was built from. A seat's asks for
    pages (`render`), as a person's browser does, so its messages carry the moves' previews."""

    def __init__(self, table: LiveTable, seat: int | None) -> None:
        self.table = table
        self.seat = seat
        self.render: str | None = None if seat is None else "en"
        self.seen: list[tuple[dict[str, Any], State[Any]]] = []

    async def send(self, message: dict[str, Any]) -> None:
        json.dumps(message)  # everything sent is JSON
        self.seen.append((message, self.table.state.clone()))


async def _play(game: str, players: int, seed: int, folder: Path) -> list[Recorder]:
    hub = Hub(SQLiteStore(folder / f"{game}-{players}-{seed}.db"), BotPool(executor=ThreadPoolExecutor(1)))
    seats = [SeatSpec(kind="human")] + [SeatSpec(kind="bot", bot="random")] * (players - 1)
    created = await hub.create(CreateTable(game=game, players=players, seats=seats))
    table = await hub.get(created.table_id)
    recorders = [Recorder(table, seat) for seat in [None, *range(players)]]
    for recorder in recorders:
        await hub.attach(table, recorder)
    rng = Rng(seed)
    for _ in range(3000):
        if table.bot_task is not None:
            await table.bot_task
        if table.state.is_terminal:
            break
        legal = table.state.legal_actions()
        move = legal[rng.below(len(legal))]
        await hub.act(table, 0, table.version, move.to_json(), None)
    if table.bot_task is not None:
        await table.bot_task
    hub.close()
    return recorders


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("players", [2, 3])
def test_every_message_is_the_same_in_every_world_the_seat_cannot_tell_apart(game, players, tmp_path):
    recorders = asyncio.run(_play(game, players, seed=players * 11, folder=tmp_path))
    checked = 0
    for recorder in recorders:
        seat = recorder.seat
        assert recorder.seen, "every connection hears of the table"
        for index, (message, state) in enumerate(recorder.seen):
            text = json.dumps(message)
            assert '"seed"' not in text and '"rng"' not in text and "credential" not in text
            if message["type"] != "state":
                assert set(message) <= {"type", "version", "can_undo"}, message  # undo notes say no more
                continue
            if seat is None:
                continue  # a spectator's view is checked by the engines' conformance tests
            other = state.determinize(seat, Rng(1000 + index))
            for part in SEAT_PARTS:
                rebuilt = {
                    "view": other.view(seat), "to_move": other.current_player, "over": other.is_terminal,
                    "version": message["version"], "seat": seat,
                    "result": {"scores": other.scores(), "winners": other.winners(),
                               "breakdown": other.score_breakdown()} if other.is_terminal else None,
                }[part]
                assert canonical(message.get(part)) == canonical(rebuilt), (game, seat, part)
            if message["legal"]:  # with each move's score change, worked out again in the other world
                seeds = [preview_seed(recorder.table.row.id, message["version"], seat, k) for k in range(SAMPLES)]
                changes = score_changes(other, seat, seeds)
                rebuilt_legal = [{**m, "score_change": changes.get(m["id"])} for m in legal_moves(other, seat)]
                assert canonical(message["legal"]) == canonical(rebuilt_legal)
            checked += 1
    assert checked > 10
