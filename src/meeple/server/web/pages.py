"""The pages: the lobby (`/`), a table (`/tables/{id}`) and a finished game's replay fragments.

Pages are Jinja2 templates filled on the server; everything that changes during a game arrives
over the table's WebSocket as HTML fragments (see `render`). The language is the `lang` cookie
(set by the language switch), else English.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse
from jinja2 import Environment, PackageLoader, select_autoescape

from meeple.core.i18n import Catalog
from meeple.core.registry import games, load
from meeple.server.bots import OFFERED
from meeple.server.datasets import DataSets
from meeple.server.models import UrlWhole
from meeple.server.tables import Hub, Refused
from meeple.server.web.boards import board_for
from meeple.server.web.render import LANGUAGES, catalog, player_names, rules

STATIC = Path(__file__).parent / "static"
#: The templates ship with the package: loaded once, never looked at on disk again (Jinja's
#: auto_reload would stat the file on the event loop for every page).
_templates = Environment(loader=PackageLoader("meeple.server.web", "templates"), autoescape=select_autoescape(),
                         auto_reload=False)


def language(request: Request) -> str:
    lang = request.cookies.get("lang", "en")
    return lang if lang in LANGUAGES else "en"


def _games(lang: str, datasets: DataSets) -> list[dict[str, Any]]:
    out = []
    for name in games():
        game = load(name)
        cat = catalog(name, lang)
        choices = {s.name: datasets.choices(name, s) for s in game.option_specs}
        out.append({
            "name": name, "title": game.title, "min": game.min_players, "max": game.max_players,
            "options": [{"name": s.name, "default": s.default, "help": s.help, "choices": choices[s.name],
                         "kind": type(s.default).__name__} for s in game.option_specs
                        # free text is for the command line; a file option is offered once the
                        # operator offers data sets for it
                        if not isinstance(s.default, str) or len(choices[s.name]) > 1],
            "summary": cat.text("rules.summary").strip().splitlines()[0] if cat.has("rules.summary") else "",
            "rules": rules(name, lang),
        })
    return out


def router(hub: Hub) -> APIRouter:
    pages = APIRouter(include_in_schema=False)

    def page(name: str, request: Request, **values: Any) -> HTMLResponse:
        lang = language(request)
        cat = Catalog(["meeple.server.web"], lang)
        html = _templates.get_template(name).render(t=cat.text, lang=lang, languages=LANGUAGES, **values)
        return HTMLResponse(html)

    @pages.get("/favicon.ico")
    async def favicon() -> FileResponse:
        """The icon browsers ask for on every page (base.html links the same file)."""
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml",
                            headers={"cache-control": "public, max-age=86400"})

    @pages.get("/", response_class=HTMLResponse)
    async def lobby(request: Request) -> HTMLResponse:
        return page("lobby.html", request, games=_games(language(request), hub.datasets), tables=await hub.listing(),
                    default_game="triqueta", levels=OFFERED)

    @pages.get("/tables/{table_id}", response_class=HTMLResponse)
    async def table(request: Request, table_id: str) -> HTMLResponse:
        live = await hub.get(table_id)
        return page("table.html", request, table=hub.info(live), rules=rules(live.row.game, language(request)))

    @pages.get("/tables/{table_id}/replay/{move}", response_class=HTMLResponse)
    async def replay(request: Request, table_id: str, move: UrlWhole) -> HTMLResponse:
        """The board after `move` moves, as a spectator saw it: only once the game is over."""
        live = await hub.get(table_id)
        if not live.state.is_terminal:
            raise Refused("not_over", "the replay is available when the game is over", 409)
        record = live.record()
        if not 0 <= move <= len(record.actions):
            raise Refused("no_move", f"the game has moves 0 to {len(record.actions)}", 404)
        record.actions = record.actions[:move]
        state = await hub.replay(record)
        cat = catalog(live.row.game, language(request))
        cat.player_names = player_names(live.seats_public(), cat)  # the players' names, never "P0"
        return HTMLResponse(board_for(live.row.game)(state.view(None), None, [], cat))

    return pages
