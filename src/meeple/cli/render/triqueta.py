"""Triqueta in the terminal: rows, collections, towers, your face-down tokens, live scores.

Everything here reads the view only (see meeple.games.triqueta.view)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from meeple.core.i18n import Catalog
from meeple.games.triqueta.describe import action_label

if TYPE_CHECKING:
    from meeple.games.triqueta.view_types import TriquetaView

__all__ = ["action_label", "board"]

ANIMAL_STYLE = ("bright_white", "yellow", "dark_orange", "red", "cyan", "magenta")


def _animal(token: int, cat: Catalog) -> Text:
    return Text(cat.name("animal", token), style=ANIMAL_STYLE[token])


def _tokens(tokens: list[int], cat: Catalog) -> Text:
    if not tokens:
        return Text("·", style="dim")
    return Text(", ").join(_animal(t, cat) for t in tokens)


def board(view: TriquetaView, cat: Catalog, seat: int | None) -> RenderableType:
    parts: list[RenderableType] = []
    current = f" ({cat.text('ui.current_tower')})"
    towers = "  ".join(
        cat.text("ui.tower", n=i + 1, count=c) + (current if i == view["current_tower"] else "")
        for i, c in enumerate(view["towers"])
    )
    parts.append(Text(cat.text("ui.round", round=view["round"], rounds=view["rounds"]), style="bold"))
    parts.append(Text(f"{cat.text('ui.towers')}: {towers}"))
    parts.append(Text(cat.text("ui.rows"), style="bold"))
    rows = Table(show_header=False, box=None, padding=(0, 1))
    rows.add_column(justify="right")
    rows.add_column()
    for index, row in enumerate(view["rows"]):
        label = cat.text("ui.row", row=index + 1)
        rows.add_row(label, Text(cat.text("ui.taken"), style="dim") if row is None else _tokens(row, cat))
    parts.append(rows)
    players = Table(show_header=True, padding=(0, 1))
    players.add_column("")
    for a in range(len(view["players"][0]["collection"])):
        players.add_column(cat.name("animal", a), justify="right", style=ANIMAL_STYLE[a])
    players.add_column(cat.text("ui.face_down"), justify="right")
    players.add_column(cat.text("ui.trees"), justify="right")
    players.add_column(cat.text("ui.score"), justify="right", style="bold")
    for index, p in enumerate(view["players"]):
        name = cat.player(index)
        if index == view["rock"]:
            name += " ◆"
        if p["out"] and not view["over"]:
            name += f" ({cat.text('ui.out')})"
        if index == view["current_player"]:
            name = f"▶ {name}"
        face_down = str(p["face_down_count"])
        if p.get("face_down"):
            face_down += " [" + ", ".join(cat.name("animal", t) for t in p["face_down"]) + "]"
        score = str(p["score"])
        if p.get("score_with_face_down", p["score"]) != p["score"]:
            score += f" ({p['score_with_face_down']})"
        players.add_row(name, *(str(c) if c else "·" for c in p["collection"]), face_down, str(p["trees"]), score)
    parts.append(players)
    drawn = [t for t in view.get("pending", ()) if t >= 0]
    if drawn:
        parts.append(Text(cat.text("ui.looking_at", animals=drawn), style="bold green"))
    return Group(*parts)
