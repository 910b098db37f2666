"""Terminal renderers: one module per game (`board`, `action_label`, optional `svg`) plus the
generic pieces every game shares (events, score tables)."""

from __future__ import annotations

import importlib
import inspect
from types import ModuleType
from typing import Any

from rich.table import Table

from meeple.core.errors import OptionError
from meeple.core.i18n import Catalog
from meeple.core.state import State
from meeple.core.views import View


def renderer(game_name: str) -> ModuleType:
    try:
        return importlib.import_module(f"{__name__}.{game_name}")
    except ModuleNotFoundError:
        raise OptionError(f"no terminal renderer for {game_name!r}") from None


def catalog(game_name: str, lang: str) -> Catalog:
    return Catalog(["meeple.cli", f"meeple.games.{game_name}"], lang)


def action_label(module: ModuleType, action_json: dict[str, Any], cat: Catalog, view: View) -> str:
    """A move's label; renderers may take the viewer's `view` for context."""
    func = module.action_label
    if "view" in inspect.signature(func).parameters:
        return str(func(action_json, cat, view=view))
    return str(func(action_json, cat))


def breakdown_table(state: State, cat: Catalog) -> Table:
    """The per-seat score breakdown as a table (numeric parts only, in the game's order)."""
    rows = state.score_breakdown()
    winners = set(state.winners())
    table = Table(title=cat.text("ui.final_scores"), show_lines=False)
    table.add_column("")
    for seat in range(state.num_players):
        mark = " ★" if seat in winners else ""
        table.add_column(cat.player(seat) + mark, justify="right")
    keys = [k for k, v in rows[0].items() if isinstance(v, (int, float)) and not isinstance(v, bool)]
    for key in keys:
        style = "bold" if key == "total" else None
        table.add_row(cat.text(f"score.{key}"), *(str(r.get(key, "")) for r in rows), style=style)
    return table
