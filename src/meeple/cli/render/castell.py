"""Castell in the terminal: the map with pawns and castellers, the skill wheel, the festival
calendar, the players, and the seat's team, skills and best tower drawn as a pyramid.

Everything comes from the view, the seat's best tower too (`tower_preview`, in a seat's
view only).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from meeple.core.i18n import Catalog

# The move labels are shared with the browser. They read only a move's JSON and the catalog, never
# engine state, so this renderer still draws from the view alone (tests/castell/test_view.py
# checks that no engine module is named here; the relative import names only the labeller).
from meeple.games.castell.describe import action_label, phase_key

if TYPE_CHECKING:
    from meeple.games.castell.view_types import CastellView, Region

__all__ = ["action_label", "board", "pyramid"]

#: Where each region sits on the drawn map (row, column), roughly as on the board.
MAP_LAYOUT = {
    "valls": (0, 1), "terrassa": (0, 2), "mataro": (0, 3),
    "tarragona": (1, 0), "vilafranca": (1, 2), "barcelona": (1, 3),
    "vilanova": (2, 1),
}
SEAT_STYLES = ("bold red", "bold blue", "bold green", "bold magenta")


def _seat(cat: Catalog, seat: int) -> Text:
    return Text(cat.player(seat), style=SEAT_STYLES[seat % len(SEAT_STYLES)])


def _sizes(counts: list[int]) -> str:
    """Castellers as "9×2 7×1" from counts of sizes 1..10."""
    parts = [f"{size}×{n}" for size, n in zip(range(10, 0, -1), reversed(counts)) if n]
    return " ".join(parts) or "-"


def _region_panel(view: CastellView, cat: Catalog, region: Region) -> Panel:
    rid = region["id"]
    body = Text()
    pawns = [p for p, pl in enumerate(view["players"]) if pl["pawn"] == rid]
    for p in pawns:
        body.append("♟ ", style=SEAT_STYLES[p % 4])
        body.append(cat.player(p) + " ", style=SEAT_STYLES[p % 4])
    if pawns:
        body.append("\n")
    body.append(_sizes(region["castellers"]) + "\n")
    for tile in region["tiles"]:
        if tile is not None:
            body.append(f"{cat.name('tile', tile['kind'])} {tile['id']} ★{tile['stars']}\n", style="yellow")
    tokens = [f"{cat.player(p)}:{n}" for p, n in enumerate(region["tokens"]) if n]
    if tokens:
        body.append("● " + " ".join(tokens) + "\n", style="dim")
    body.append("↔ " + ", ".join(cat.name("region", nb) for nb in region["neighbours"]), style="dim")
    return Panel(body, title=cat.name("region", rid), width=30)


def _map(view: CastellView, cat: Catalog) -> RenderableType:
    grid = Table.grid(padding=(0, 1))
    for _ in range(4):
        grid.add_column()
    cells: list[list[RenderableType]] = [[Text("") for _ in range(4)] for _ in range(3)]
    for region in view["regions"]:
        row, col = MAP_LAYOUT.get(region["id"], (2, 3))
        cells[row][col] = _region_panel(view, cat, region)
    for line in cells:
        grid.add_row(*line)
    return Panel(grid, title=cat.text("ui.map"))


def _wheel(view: CastellView, cat: Catalog, seat: int | None) -> RenderableType:
    wheel = view["wheel"]
    table = Table(title=f"{cat.text('ui.wheel')} · {cat.name('wheel', wheel['side'])}")
    table.add_column(cat.text("ui.wheel"))
    table.add_column(cat.text("ui.facing"))
    here = view["players"][seat]["pawn"] if seat is not None else None
    for segment in wheel["segments"]:
        style = "bold" if segment in (here, "all") else ""
        table.add_row(Text(cat.name("segment", segment), style=style),
                      Text(cat.name("skill", wheel["facing"][segment]), style=style))
    return table


def _calendar(view: CastellView, cat: Catalog) -> RenderableType:
    table = Table(title=cat.text("ui.calendar"))
    table.add_column("#")
    table.add_column(cat.text("ui.festivals"))
    for entry in view["calendar"]:
        style = "bold reverse" if entry["round"] == view["round"] else ("dim" if entry["round"] < view["round"] else "")
        fests = "  ".join(
            f"{cat.name('region', f['region'])} [{' '.join(map(str, f['sizes']))}]" for f in entry["festivals"]
        )
        table.add_row(str(entry["round"]), fests or "-", style=style)
    return table


def _players(view: CastellView, cat: Catalog, seat: int | None) -> RenderableType:
    table = Table()
    table.add_column("")
    table.add_column(cat.text("ui.pawn"))
    table.add_column(cat.text("ui.team"))
    table.add_column(cat.text("ui.skills"))
    table.add_column("●")
    table.add_column(cat.text("ui.best_tower"))
    table.add_column(cat.text("ui.score"))
    for p, pl in enumerate(view["players"]):
        name = _seat(cat, p)
        if p == seat:
            name.stylize("underline")
        if p == view["current_player"]:
            name = Text("▶ ") + name
        skills = " ".join(f"{cat.name('skill', k)[:3]}{v}" for k, v in pl["skills"].items() if v) or "-"
        table.add_row(
            name, cat.name("region", pl["pawn"]) if pl["pawn"] else "-", _sizes(pl["team"]), skills,
            str(pl["special_tokens"]), str(pl["best_tower"]), str(pl["score"]["total"]),
        )
    return table


def pyramid(tower: Sequence[Sequence[int]] | None) -> Text:
    """A tower drawn top level first, each casteller as its size in brackets, centred."""
    if not tower:
        return Text("")
    rows = [" ".join(f"[{s}]" for s in level) for level in tower]
    width = max(len(r) for r in rows)
    text = Text()
    for row in reversed(rows):
        text.append(row.center(width).rstrip() + "\n", style="bold")
    return text


def _own(view: CastellView, cat: Catalog, seat: int) -> RenderableType:
    player = view["players"][seat]
    lines = Text()
    lines.append(f"{cat.text('ui.team')}: {_sizes(player['team'])}\n")
    lines.append(f"{cat.text('ui.skills')}: " + "  ".join(
        f"{cat.name('skill', k)} {v}" for k, v in player["skills"].items()) + "\n")
    lines.append(cat.text("ui.tokens", count=player["special_tokens"]) + "\n")
    held = []
    for region, board in player["board"].items():
        parts = [f"●{board['tokens']}"] if board["tokens"] else []
        parts += [cat.name("prize", v) for v in board["prizes"]]
        parts += [f"#{s}" for s in board["size_tokens"]]
        if parts:
            held.append(f"{cat.name('region', region)}: {' '.join(parts)}")
    if held:
        lines.append(f"{cat.text('ui.board')}: " + "; ".join(held) + "\n")
    if player["performances"]:
        lines.append(f"{cat.text('ui.performances')}: " + ", ".join(
            f"{t['id']} ★{t['stars']}" for t in player["performances"]) + "\n")
    score = player["score"]
    lines.append(" · ".join(f"{cat.text('score.' + k)} {v}" for k, v in score.items()) + "\n")
    shown: list[RenderableType] = [lines]
    preview = view.get("tower_preview") if view["seat"] == seat else None
    if preview is not None:
        tower = preview["tower"]
        shown.append(Panel(pyramid(tower) if tower else Text(cat.text("ui.no_tower")),
                           title=cat.text("ui.best_tower"), expand=False))
    body = Group(*shown)
    return Panel(body, title=cat.player(seat), border_style=SEAT_STYLES[seat % 4])


def board(view: CastellView, cat: Catalog, seat: int | None) -> RenderableType:
    """The Castell table as `seat` sees it (None: a spectator, shown the player to move)."""
    header = Text(cat.text("ui.round", round=view["round"], phase=phase_key(view)), style="bold")
    header.append("   " + cat.text("ui.bag", count=view["bag"]["count"]), style="dim")
    side = Table.grid(padding=(0, 2))
    side.add_row(_wheel(view, cat, seat), _calendar(view, cat))
    parts: list[RenderableType] = [header, _map(view, cat), side, _players(view, cat, seat)]
    focus = seat if seat is not None else view["current_player"]
    if focus is not None:
        parts.append(_own(view, cat, focus))
    return Group(*parts)

