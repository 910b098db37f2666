"""A game's web board (the plugin's part "board", a `WebBoard`; a module with these three
functions satisfies it): what the table page is built from.

- `board(view, seat, legal, cat, events=()) -> str`: the table as `seat` sees it (HTML: one or
  more inline `<svg>` drawings: board, the seat's own hidden things, the other seats' public
  state, with text from the catalogs). `events` are the JSON events of the step on display, as
  `seat` may see them (the server's `events` field); the drawing marks what they changed (the
  last tile, row, druid, casteller) with the class `last-change`.
- `prompt(view, seat, legal, cat) -> str`: what `seat` must do now, in words ("Take a row of
  tokens or draw one"), or "" when it is not the seat's turn.
- `standings(view, cat) -> list[str]`: each seat's running score or standing in a few words
  ("12 points", "best tower 18"), shown in the seat panels during the game.

The arguments:
- `view` is `state.view(seat)` (JSON-safe); nothing else about the game may be read, so the
  drawing cannot show what the seat may not see (a test renders from determinized states and
  requires the same text).
- `legal` is the seat's legal moves as the server sends them (`[{"id", "action", ...}]`, empty
  when it is not the seat's turn); elements that make one carry `meeple.boards.svg.move(...)`.
- `cat` is the game's message catalog (`meeple.core.i18n.Catalog`) in the page's language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, Protocol, runtime_checkable

from meeple.core.i18n import Catalog
from meeple.core.plugin import GamePlugin
from meeple.core.registry import game_plugin
from meeple.core.views import View  # what the server holds; each board reads its game's own TypedDict

Legal = list[dict[str, Any]]
Board = Callable[..., str]
Prompt = Callable[[View, "int | None", Legal, Catalog], str]
Standings = Callable[[View, Catalog], list[str]]


@runtime_checkable
class WebBoard(Protocol):
    """A game's drawings and words for the table page."""

    def board(self, view: View, seat: int | None, legal: Legal, cat: Catalog,
              events: Sequence[dict[str, Any]] = ()) -> str:
        """The table as `seat` sees it, as HTML (inline SVG)."""

    def prompt(self, view: View, seat: int | None, legal: Legal, cat: Catalog) -> str:
        """What `seat` must do now, in words ("" when it is not its turn)."""

    def standings(self, view: View, cat: Catalog) -> list[str]:
        """Each seat's running standing in a few words."""


def web_board(game: str) -> WebBoard:
    """The game's web board, checked; OptionError when its plugin names none."""
    return _web_board(game_plugin(game))


@cache
def _web_board(found_plugin: GamePlugin) -> WebBoard:
    return found_plugin.required_part("board", WebBoard, "board(...), prompt(...) and standings(...)", "web board")


def board_for(game: str) -> Board:
    """The drawing function of a game."""
    return web_board(game).board


def prompt_for(game: str) -> Prompt:
    """What the seat must do now, in words."""
    return web_board(game).prompt


def standings_for(game: str) -> Standings:
    """Each seat's running standing."""
    return web_board(game).standings
