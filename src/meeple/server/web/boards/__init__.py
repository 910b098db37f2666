"""One module per game: `board(view, seat, legal, cat) -> str`, the table as `seat` sees it.

- `view` is `state.view(seat)` (JSON-safe); nothing else about the game may be read, so the
  drawing cannot show what the seat may not see (a test renders from determinized states and
  requires the same text).
- `legal` is the seat's legal moves as the server sends them (`[{"id", "action"}]`, empty when it
  is not the seat's turn); elements that make one carry `meeple.server.web.svg.move(...)`.
- `cat` is the game's message catalog (`meeple.core.i18n.Catalog`) in the page's language.
The result is HTML: one or more inline `<svg>` drawings (board, the seat's own hidden things,
the other seats' public state), with text from the catalogs.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from meeple.core.i18n import Catalog

Board = Callable[[dict[str, Any], "int | None", list[dict[str, Any]], Catalog], str]


def board_for(game: str) -> Board:
    """The board function of a game (ModuleNotFoundError for a game with no web board yet)."""
    module = importlib.import_module(f"{__name__}.{game}")
    found: Board = module.board
    return found
