"""Triominos on the screen: a text drawing of the lattice, the move list labels, and an SVG.

Everything here reads the view only (see meeple.games.triominos.view). Lattice point (x, y) is
drawn at text column 4x + 2y and text row -2y, so rows of points are two lines apart and each
triangle is three characters wide:

        3───4             ▲ up (x, y): points (x, y), (x, y+1), (x+1, y)
       / \\*/ \\           ▼ down (x, y): points (x, y+1), (x+1, y+1), (x+1, y)
      1───2───5           '*' marks the last tile placed
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from meeple.core.i18n import Catalog
from meeple.games.triominos.describe import KEYS, action_label, cell_points, number_spots, open_keys
from meeple.games.triominos.describe import corners as _corners

if TYPE_CHECKING:
    from meeple.games.triominos.view_types import TriominosView

__all__ = ["KEYS", "action_label", "ascii_board", "board", "open_keys", "svg"]

LAST_STYLE = "bold yellow"
EDGE_STYLE = "grey62"
KEY_STYLE = "cyan"


def ascii_board(view: TriominosView) -> list[list[tuple[str, str]]]:
    """The board as rows of (character, style) cells; [] for an empty board."""
    tiles = view["board"]
    if not tiles:
        return []
    marks: dict[tuple[int, int], tuple[str, str]] = {}
    last = len(tiles) - 1

    def put(row: int, col: int, ch: str, style: str) -> None:
        old = marks.get((row, col))
        if old is None or style == LAST_STYLE or (old[1] == EDGE_STYLE and style != EDGE_STYLE):
            marks[(row, col)] = (ch, style)

    for i, tile in enumerate(tiles):
        x, y, up = tile["x"], tile["y"], tile["dir"] == "up"
        style = LAST_STYLE if i == last else EDGE_STYLE
        row, col = -2 * y, 4 * x + 2 * y
        if up:
            for c in range(col + 1, col + 4):
                put(row, c, "─", style)
            put(row - 1, col + 1, "/", style)
            put(row - 1, col + 3, "\\", style)
            if i == last:
                put(row - 1, col + 2, "*", LAST_STYLE)
        else:
            for c in range(col + 3, col + 6):
                put(row - 2, c, "─", style)
            put(row - 1, col + 3, "\\", style)
            put(row - 1, col + 5, "/", style)
            if i == last:
                put(row - 1, col + 4, "*", LAST_STYLE)
        for (px, py), number in zip(_corners(x, y, up), tile["corners"]):
            put(-2 * py, 4 * px + 2 * py, str(number), "bold" if i != last else LAST_STYLE)
    for (x, y, d), key in open_keys(view).items():
        row, col = -2 * y - 1, 4 * x + 2 * y + (2 if d == "up" else 4)
        put(row, col, key, KEY_STYLE)
    rows = [r for r, _ in marks]
    cols = [c for _, c in marks]
    top, left = min(rows), min(cols)
    grid = [[(" ", "")] * (max(cols) - left + 1) for _ in range(max(rows) - top + 1)]
    for (r, c), mark in marks.items():
        grid[r - top][c - left] = mark
    return grid


def _board_text(view: TriominosView, cat: Catalog) -> Text:
    grid = ascii_board(view)
    if not grid:
        return Text(cat.text("view.empty_board"))
    text = Text()
    for row in grid:
        for ch, style in row:
            text.append(ch, style=style or None)
        text.append("\n")
    text.append(cat.text("view.last_move"), style="dim")
    return text


def board(view: TriominosView, cat: Catalog, seat: int | None) -> RenderableType:
    """The table as `seat` sees it: header, the lattice drawing, scores and racks."""
    options = view["options"]
    header = [cat.text("view.round", round=view["round"])]
    if options["match"]:
        header.append(cat.text("view.match", target=options["target"]))
    else:
        header.append(cat.text("view.single"))
    header.append(cat.text("view.pool", count=view["pool"]))
    current = view["current_player"]
    if current is not None:
        header.append(cat.text("view.turn", who=current))
        if view["draws_this_turn"]:
            header.append(cat.text("view.draws", count=view["draws_this_turn"]))
    else:
        names = ", ".join(cat.player(w) for w in view["winners"])
        header.append(cat.text("view.over", who=names))
    scores = Table(show_header=True, box=None, pad_edge=False)
    scores.add_column("")
    scores.add_column(cat.text("view.scores"), justify="right")
    scores.add_column(cat.text("view.racks"), justify="right")
    for s, (score, size) in enumerate(zip(view["scores"], view["rack_sizes"])):
        name = cat.player(s)
        style = "bold" if s == current else ""
        scores.add_row(Text(name, style=style), str(score), str(size))
    parts: list[RenderableType] = [Text("  ·  ".join(header), style="bold"), _board_text(view, cat), scores]
    if "rack" in view:
        rack = Text(cat.text("view.rack") + ": ", style="bold")
        rack.append("  ".join(view["rack"]))
        if "last_drawn" in view:
            rack.append("   (" + cat.text("view.last_drawn", tile=view["last_drawn"]) + ")", style="dim")
        parts.append(rack)
    return Group(*parts)


# -- SVG ---------------------------------------------------------------------------------------

SCALE = 60.0
MARGIN = 40.0
HEADER = 40.0
FILL = "#f4ecd8"
LAST_FILL = "#ffd34d"
STROKE = "#5b4a2f"


def svg(view: TriominosView, cat: Catalog) -> str:
    """A picture of the table: triangles with their corner numbers, the last tile highlighted,
    and the scores along the top."""
    tiles = view["board"]
    shapes = []
    for tile in tiles:
        pts = cell_points(tile["x"], tile["y"], tile["dir"], SCALE)
        shapes.append((pts, tile["corners"]))
    xs = [x for pts, _ in shapes for x, _ in pts] or [0.0]
    ys = [y for pts, _ in shapes for _, y in pts] or [0.0]
    left, top = min(xs) - MARGIN, min(ys) - MARGIN - HEADER
    width = max(max(xs) - min(xs) + 2 * MARGIN, 420.0)
    height = max(ys) - min(ys) + 2 * MARGIN + HEADER
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="{left:.1f} {top:.1f} {width:.1f} {height:.1f}" font-family="sans-serif">',
        f'<rect x="{left:.1f}" y="{top:.1f}" width="{width:.1f}" height="{height:.1f}" fill="#2f6b3a"/>',
    ]
    last = len(shapes) - 1
    for i, (pts, numbers) in enumerate(shapes):
        fill = LAST_FILL if i == last else FILL
        width_px = 3 if i == last else 1.5
        poly = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        out.append(f'<polygon points="{poly}" fill="{fill}" stroke="{STROKE}" stroke-width="{width_px}"/>')
        for (tx, ty), number in zip(number_spots(pts), numbers):
            out.append(
                f'<text x="{tx:.1f}" y="{ty:.1f}" font-size="{SCALE * 0.22:.0f}" font-weight="bold" '
                f'fill="#222" text-anchor="middle" dominant-baseline="central">{number}</text>'
            )
    line = "   ".join(f"{cat.player(s)}: {score}" for s, score in enumerate(view["scores"]))
    title = cat.text("view.round", round=view["round"])
    out.append(
        f'<text x="{left + 12:.1f}" y="{top + 26:.1f}" font-size="18" fill="#fff">{escape(title + "   " + line)}</text>'
    )
    out.append("</svg>")
    return "\n".join(out)
