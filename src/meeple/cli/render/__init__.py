"""Terminal renderers: one per game, the plugin's part "terminal" (`TerminalRenderer`), plus the
generic pieces every game shares (events, score tables). A move's words come from the game's own
text (its plugin's `describe`), the same in the terminal and the browser."""

from __future__ import annotations

from functools import cache
from typing import Any, Protocol, runtime_checkable

from rich.console import RenderableType
from rich.table import Table

from meeple.core.i18n import Catalog
from meeple.core.plugin import GamePlugin
from meeple.core.registry import game_plugin
from meeple.core.state import State
from meeple.core.views import View


@runtime_checkable
class TerminalRenderer(Protocol):
    """Draws a game in the terminal (a module with this function satisfies it)."""

    def board(self, view: Any, cat: Catalog, seat: int | None) -> RenderableType:
        """The table as `seat` sees it (None: a spectator), from `view(seat)` only."""


def renderer(game_name: str) -> TerminalRenderer:
    """The game's terminal renderer, checked; OptionError when its plugin names none."""
    return _renderer(game_plugin(game_name))


@cache
def _renderer(game: GamePlugin) -> TerminalRenderer:
    return game.required_part("terminal", TerminalRenderer, "board(view, cat, seat)", "terminal renderer")


def catalog(game_name: str, lang: str) -> Catalog:
    """The terminal's messages and the game's own, in `lang`."""
    return Catalog(["meeple.cli", *game_plugin(game_name).catalogs], lang)


def action_label(game_name: str, action_json: dict[str, Any], cat: Catalog, view: View) -> str:
    """A move's label, in the words of the game's text, with the viewer's `view` for context."""
    return game_plugin(game_name).text().action_label(action_json, cat, view=view)


def breakdown_table(state: State[Any], cat: Catalog) -> Table:
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
