"""Highcard on the table page (a `meeple.server.web.boards.WebBoard`)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from meeple.core.i18n import Catalog


def board(view: dict[str, Any], seat: int | None, legal: list[dict[str, Any]], cat: Catalog,
          events: Sequence[dict[str, Any]] = ()) -> str:
    cells = "".join(
        f'<text x="{20 + 90 * k}" y="40" data-testid="card-{k}">{escape(cat.player(k))}: '
        f'{"?" if card is None else card}</text>' for k, card in enumerate(view["cards"]))
    return f'<svg viewBox="0 0 {90 * len(view["cards"]) + 40} 60" role="img" aria-label="Highcard">{cells}</svg>'


def prompt(view: dict[str, Any], seat: int | None, legal: list[dict[str, Any]], cat: Catalog) -> str:
    return "Keep or swap your card" if legal else ""


def standings(view: dict[str, Any], cat: Catalog) -> list[str]:
    return ["" for _ in view["cards"]]
