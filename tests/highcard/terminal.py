"""Highcard in the terminal (a `meeple.cli.render.TerminalRenderer`)."""

from __future__ import annotations

from typing import Any

from meeple.core.i18n import Catalog


def board(view: dict[str, Any], cat: Catalog, seat: int | None) -> str:
    cards = "  ".join(f"{cat.player(k)}: {'?' if c is None else c}" for k, c in enumerate(view["cards"]))
    shown = ", ".join(map(str, view["discards"])) or "-"
    return f"{cards}\nshown: {shown}  deck: {view['deck_size']}"
