"""The pages: the lobby (`/`), a table (`/tables/{id}`) and a finished game's replay and review
fragments.

Pages are Jinja2 templates filled on the server; everything that changes during a game arrives
over the table's WebSocket as HTML fragments (see `render`). The language is the `lang` cookie
(set by the language switch), else English.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse
from jinja2 import Environment, PackageLoader, select_autoescape

from meeple.boards import board_for
from meeple.core.i18n import Catalog
from meeple.core.protocol import OptionSpec
from meeple.core.registry import load, usable_games
from meeple.server.bots import OFFERED
from meeple.server.datasets import DataSets
from meeple.server.models import TableInfo, UrlWhole
from meeple.server.tables import Hub, Refused
from meeple.server.web.render import LANGUAGES, catalog, player_names, rules, seat_name
from meeple.server.web.review import review_html

STATIC = Path(__file__).parent / "static"
#: The templates ship with the package: loaded once, never looked at on disk again (Jinja's
#: auto_reload would stat the file on the event loop for every page).
_templates = Environment(loader=PackageLoader("meeple.server.web", "templates"), autoescape=select_autoescape(),
                         auto_reload=False)


def language(request: Request) -> str:
    lang = request.cookies.get("lang", "en")
    return lang if lang in LANGUAGES else "en"


#: The lobby's clock choices (Fischer: base seconds + seconds gained per move), "none" first.
CLOCKS = ("none", "300+5", "900+10")


def game_title(game: str, cat: Catalog) -> str:
    """A game's title in the page's language: its catalog's `title` (some catalogs call it
    `game`), else the game's own."""
    key = next((k for k in ("title", "game") if k in cat.messages), None)
    return cat.text(key) if key else load(game).title


def _words(cat: Catalog, key: str, fallback: str) -> str:
    """The catalog's words for `key`; the game's own text until its catalog has them."""
    return cat.text(key) if cat.has(key) else fallback


def _option(spec: OptionSpec, choices: list[Any], cat: Catalog) -> dict[str, Any]:
    """One rule option as the lobby offers it: its name, help and choices in the page's language
    (keys `option.<name>.name`, `.help`, `.choice.<value>`; "" is the shipped data)."""
    key = f"option.{spec.name}"
    shipped = cat.text("web.shipped_data")
    return {"name": spec.name, "label": _words(cat, f"{key}.name", spec.name),
            "help": _words(cat, f"{key}.help", spec.help), "default": spec.default,
            "kind": type(spec.default).__name__,
            "choices": [(c, _words(cat, f"{key}.choice.{c}", str(c) if c != "" else shipped)) for c in choices]}


def _games(lang: str, datasets: DataSets) -> list[dict[str, Any]]:
    """The games the lobby offers: every installed game whose plugin loads (a broken one is a
    warning in the server's log, not a broken lobby)."""
    out = []
    for game in usable_games():
        name = game.name
        cat = catalog(name, lang)
        choices = {s.name: datasets.choices(name, s) for s in game.option_specs}
        out.append({
            "name": name, "title": game_title(name, cat), "min": game.min_players, "max": game.max_players,
            "options": [_option(s, choices[s.name], cat) for s in game.option_specs
                        # free text is for the command line; a file option is offered once the
                        # operator offers data sets for it
                        if not isinstance(s.default, str) or len(choices[s.name]) > 1],
            "summary": cat.text("rules.summary").strip().splitlines()[0] if cat.has("rules.summary") else "",
            "rules": rules(name, lang),
        })
    return out


def clock_words(rule: str, cat: Catalog) -> str:
    """A clock rule ("300+5") in words ("5 min, +5 s a move"); "none" is no clock."""
    if rule == "none":
        return cat.text("web.no_clock")
    base, increment = (int(part) for part in rule.split("+"))
    return cat.text("web.clock_choice", minutes=f"{base / 60:g}", seconds=increment)


def _listed(tables: list[TableInfo], lang: str) -> list[dict[str, Any]]:
    """The lobby's open tables in the page's language: title, player count, status, seat names."""
    out = []
    for info in tables:
        cat = catalog(info.game, lang)
        seats = [s.model_dump() for s in info.seats]
        out.append({"id": info.id, "title": game_title(info.game, cat), "public": info.public,
                    "status": info.status, "players": cat.text("web.players_count", count=info.players),
                    "status_words": cat.text(f"web.status.{info.status}"),
                    "seats": [{"name": seat_name(s, s["seat"], cat), "taken": s["taken"]} for s in seats]})
    return out


def router(hub: Hub) -> APIRouter:
    pages = APIRouter(include_in_schema=False)

    def page(name: str, request: Request, **values: Any) -> HTMLResponse:
        lang = language(request)
        cat = Catalog(["meeple.server.web"], lang)
        # Refusals in the page's language, by code: the scripts show these, never the server's English.
        refusals = {key.removeprefix("refusal."): text for key, text in cat.messages.items()
                    if key.startswith("refusal.")}
        html = _templates.get_template(name).render(t=cat.text, lang=lang, languages=LANGUAGES, word=cat.name,
                                                    refusals=refusals, **values)
        return HTMLResponse(html)

    @pages.get("/favicon.ico")
    async def favicon() -> FileResponse:
        """The icon browsers ask for on every page (base.html links the same file)."""
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml",
                            headers={"cache-control": "public, max-age=86400"})

    @pages.get("/", response_class=HTMLResponse)
    async def lobby(request: Request) -> HTMLResponse:
        lang = language(request)
        cat = Catalog(["meeple.server.web"], lang)
        return page("lobby.html", request, games=_games(lang, hub.datasets), tables=_listed(await hub.listing(), lang),
                    default_game="triqueta", levels=OFFERED,
                    clocks=[(rule, clock_words(rule, cat)) for rule in CLOCKS])

    @pages.get("/tables/{table_id}", response_class=HTMLResponse)
    async def table(request: Request, table_id: str) -> HTMLResponse:
        live = await hub.get(table_id)
        title = game_title(live.row.game, catalog(live.row.game, language(request)))
        return page("table.html", request, table=hub.info(live).model_copy(update={"title": title}),
                    rules=rules(live.row.game, language(request)))

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

    @pages.get("/tables/{table_id}/review", response_class=HTMLResponse)
    async def review(request: Request, table_id: str) -> HTMLResponse:
        """The stored review of a finished game in the page's language (meeple.server.web.review)."""
        live = await hub.get(table_id)
        stored = await hub.reviews.stored_review(live)
        before = await hub.reviews.views(live)
        html = await asyncio.to_thread(review_html, live.row.game, stored, before, live.seats_public(),
                                       language(request))
        return HTMLResponse(html)

    return pages
