"""The HTTP API under /api (docs/server.md): games, tables, seats, moves, chat, records, reviews
and hints. Acting
for a seat needs its credential as `Authorization: Bearer <credential>`."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from meeple.core.registry import usable_games
from meeple.server.inbound import StrictRoute
from meeple.server.limits import Limits, client_key
from meeple.server.live import LiveTable
from meeple.server.models import (
    Act,
    Chat,
    CreateTable,
    GameInfo,
    HintRequest,
    JoinTable,
    TableCreated,
    TableInfo,
    Undo,
    UrlWhole,
)
from meeple.server.refused import Refused
from meeple.server.tables import Hub

bearer = HTTPBearer(auto_error=False, description="A seat's credential, as returned when the seat was taken.")
Credential = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def router(hub: Hub, limits: Limits) -> APIRouter:
    """The API's routes over `hub`, each door behind its `limits`."""
    api = APIRouter(route_class=StrictRoute)

    async def table_or_404(table_id: str) -> LiveTable:
        return await hub.get(table_id)

    async def seat(table: LiveTable, auth: HTTPAuthorizationCredentials | None) -> int:
        return await hub.seat_for(table, auth.credentials if auth else None)

    @api.get("/api/games", response_model=list[GameInfo], summary="The games and their rule options")
    async def list_games() -> list[GameInfo]:
        out = []
        for game in usable_games():
            out.append(GameInfo(
                name=game.name, title=game.title, min_players=game.min_players, max_players=game.max_players,
                options=[{"name": s.name, "default": s.default, "help": s.help,
                          "choices": hub.datasets.choices(game.name, s)} for s in game.option_specs],
            ))
        return out

    @api.post("/api/tables", response_model=TableCreated, status_code=201, summary="Create a table")
    async def create_table(spec: CreateTable, caller: Request) -> TableCreated:
        return await limits.new_table(client_key(caller.client), spec, lambda: hub.create(spec))

    @api.get("/api/tables", response_model=list[TableInfo], summary="Open public tables, newest first (no secrets)")
    async def list_tables() -> list[TableInfo]:
        return await hub.listing()

    @api.get("/api/tables/{table_id}", response_model=TableInfo, summary="One table (no secrets)")
    async def table_info(table_id: str) -> TableInfo:
        return hub.info(await table_or_404(table_id))

    @api.post("/api/tables/{table_id}/join", response_model=TableCreated, summary="Take a free seat")
    async def join(table_id: str, request: JoinTable, caller: Request) -> TableCreated:
        table = await table_or_404(table_id)
        await limits.join(client_key(caller.client), table_id)
        return await hub.join(table, request)

    @api.get("/api/tables/{table_id}/state", summary="What a seat (or, without a credential, a spectator) sees")
    async def table_state(table_id: str, auth: Credential) -> dict[str, Any]:
        table = await table_or_404(table_id)
        return hub.message_for(table, await seat(table, auth) if auth else None, [])

    @api.post("/api/tables/{table_id}/actions", summary="Make a move as the credential's seat")
    async def act(table_id: str, move: Act, auth: Credential) -> dict[str, Any]:
        table = await table_or_404(table_id)
        me = await seat(table, auth)
        await hub.act(table, me, move.version, move.action, move.action_id)
        return hub.message_for(table, me, [])

    @api.post("/api/tables/{table_id}/undo", summary="Take back your own moves of this turn")
    async def undo(table_id: str, request: Undo, auth: Credential) -> dict[str, Any]:
        table = await table_or_404(table_id)
        me = await seat(table, auth)
        await hub.undo(table, me, request.version)
        return hub.message_for(table, me, [])

    @api.post("/api/tables/{table_id}/leave", summary="Leave: a bot plays your seat from now on")
    async def leave(table_id: str, auth: Credential) -> dict[str, Any]:
        table = await table_or_404(table_id)
        await hub.leave(table, await seat(table, auth))
        return {"left": True}

    @api.post("/api/tables/{table_id}/chat", summary="Say something at the table")
    async def chat(table_id: str, request: Chat, auth: Credential) -> dict[str, Any]:
        table = await table_or_404(table_id)
        await hub.chat(table, await seat(table, auth), request.text)
        return {"said": True}

    @api.get("/api/tables/{table_id}/chat", summary="The table's chat")
    async def read_chat(table_id: str, since: UrlWhole = 0) -> list[dict[str, Any]]:
        table = await table_or_404(table_id)
        lines = await hub.stored(hub.store.chat, table.row.id, since)
        return [{"index": c.index, "seat": c.seat, "name": c.name, "text": c.text} for c in lines]

    @api.get("/api/tables/{table_id}/record", summary="The game record, once the game is over or closed")
    async def record(table_id: str) -> dict[str, Any]:
        table = await table_or_404(table_id)
        if not (table.state.is_terminal or table.row.closed):
            raise Refused("not_over", "the record is available when the game is over", 409)
        return table.record().to_json()

    async def reader(table: LiveTable, auth: HTTPAuthorizationCredentials | None) -> None:
        """A review is for the table's seats and spectators: without a credential, a spectator;
        with one, it must be a seat's of this table."""
        if auth is not None:
            await seat(table, auth)

    @api.post("/api/tables/{table_id}/review", summary="Review the finished game (worked out once, then stored)")
    async def start_review(table_id: str, auth: Credential, caller: Request) -> dict[str, Any]:
        table = await table_or_404(table_id)
        await reader(table, auth)
        await limits.review(client_key(caller.client))
        return await hub.reviews.start(table)

    @api.get("/api/tables/{table_id}/review", summary="The review's progress, or the review once done")
    async def review(table_id: str, auth: Credential) -> dict[str, Any]:
        table = await table_or_404(table_id)
        await reader(table, auth)
        return await hub.reviews.status(table)

    @api.post("/api/tables/{table_id}/hint", summary="A hint for your move, at a table where the others are bots")
    async def hint(table_id: str, request: HintRequest, auth: Credential, caller: Request) -> dict[str, Any]:
        table = await table_or_404(table_id)
        me = await seat(table, auth)
        await limits.review(client_key(caller.client))
        return await hub.reviews.hint(table, me, request.version)

    return api
