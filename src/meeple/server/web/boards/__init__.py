"""One module per game, each with three functions the table page is built from:

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
  when it is not the seat's turn); elements that make one carry `meeple.server.web.svg.move(...)`.
- `cat` is the game's message catalog (`meeple.core.i18n.Catalog`) in the page's language.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

from meeple.core.i18n import Catalog

View = dict[str, Any]
Legal = list[dict[str, Any]]
Board = Callable[..., str]
Prompt = Callable[[View, "int | None", Legal, Catalog], str]
Standings = Callable[[View, Catalog], list[str]]


def _module(game: str) -> ModuleType:
    """A game's board module (ModuleNotFoundError for a game with no web board yet)."""
    return importlib.import_module(f"{__name__}.{game}")


def board_for(game: str) -> Board:
    """The drawing function of a game."""
    found: Board = _module(game).board
    return found


def prompt_for(game: str) -> Prompt:
    """What the seat must do now, in words."""
    found: Prompt = _module(game).prompt
    return found


def standings_for(game: str) -> Standings:
    """Each seat's running standing."""
    found: Standings = _module(game).standings
    return found
