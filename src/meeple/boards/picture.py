"""A board as one standalone SVG document (`meeple render --svg`): the spectator's table drawn by
the game's web board, so the terminal's picture and the browser's are one drawing.

A board returns HTML: one or more inline `<svg>` drawings in boxes the page's style sheet lays
out, sometimes with a line of text between them (a status). The picture keeps the drawings and
that text and lays them out in rows, as the page's wrapping boxes would; it sets the page's font
and background itself, so the file looks the same opened alone. It holds no HTML, no script, no
style sheet and no external reference.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass

from meeple.boards import board_for
from meeple.boards.svg import text_width
from meeple.core.i18n import Catalog
from meeple.core.plugin import PluginError
from meeple.core.registry import game_plugin
from meeple.core.views import View

SVG_NS = "http://www.w3.org/2000/svg"
#: The page's font and card colour (server/web/static/style.css), which the drawings inherit there.
FONT = '"Noto Sans", "Noto Sans CJK TC", system-ui, sans-serif'
INK = "#2b2a33"
PAPER = "#fffdf8"
GAP = 8
#: Drawings are placed side by side until a row is this wide (or as wide as the widest drawing).
ROW_WIDTH = 820
TEXT_SIZE = 16
#: HTML elements whose content is not text a person reads.
SKIPPED = frozenset({"style", "script", "template"})


@dataclass(frozen=True, slots=True)
class Drawing:
    """One of the board's `<svg>` drawings and its size in its own units."""

    element: ET.Element
    width: float
    height: float


@dataclass(frozen=True, slots=True)
class Line:
    """A line of the board's HTML text (a status), drawn across a row of its own."""

    words: str
    height: float = TEXT_SIZE * 1.6


def spectator_picture(game: str, view: View, cat: Catalog) -> str:
    """The table as a spectator sees it (`view` is `state.view(None)`), as an SVG document.
    OptionError when the game has no web board; PluginError when its board's HTML is not
    well-formed or holds a drawing without a size."""
    found = game_plugin(game)
    html = board_for(game)(view, None, [], cat)
    try:
        return standalone_svg(html, found.info.title)
    except ValueError as exc:
        raise PluginError(f"game plugin {game!r}: its board {found.board!r} cannot be a picture ({exc})") from None


def standalone_svg(html: str, title: str) -> str:
    """The drawings and text of a board's `html` stacked in one SVG document named `title`.
    ValueError when `html` is not well-formed or a drawing has no viewBox or size."""
    try:
        root = ET.fromstring(f"<div>{html}</div>")
    except ET.ParseError as exc:
        raise ValueError(f"not well-formed: {exc}") from None
    for element in root.iter():  # the drawings' namespace is the document's: written once, on it
        element.tag = element.tag.removeprefix(f"{{{SVG_NS}}}")
    width, height, placed = _layout(list(_pieces(root)))
    document = ET.Element("svg", {"xmlns": SVG_NS, "viewBox": f"0 0 {width:g} {height:g}", "width": f"{width:g}",
                                        "height": f"{height:g}", "font-family": FONT, "fill": INK})
    ET.SubElement(document, "title").text = title
    ET.SubElement(document, "rect", {"width": "100%", "height": "100%", "fill": PAPER})
    document.extend(placed)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(document, encoding="unicode")


def _pieces(node: ET.Element) -> Iterator[Drawing | Line]:
    """The drawings and text lines under `node`, in reading order."""
    if node.tag == "svg":
        yield _drawing(node)
        return
    if node.tag in SKIPPED:
        return
    yield from _line(node.text)
    for child in node:
        yield from _pieces(child)
        yield from _line(child.tail)


def _line(text: str | None) -> Iterator[Line]:
    words = " ".join((text or "").split())
    if words:
        yield Line(words)


def _drawing(element: ET.Element) -> Drawing:
    box = element.get("viewBox")
    try:
        if box is not None:
            _, _, width, height = (float(part) for part in box.replace(",", " ").split())
        else:
            width, height = float(element.get("width", "")), float(element.get("height", ""))
    except ValueError:
        raise ValueError(f"a drawing's size cannot be read (viewBox {box!r})") from None
    return Drawing(element, width, height)


def _layout(pieces: list[Drawing | Line]) -> tuple[float, float, list[ET.Element]]:
    """Rows of drawings (each row as tall as its tallest), a text line on a row of its own; the
    document's width and height and its placed elements."""
    limit = max([ROW_WIDTH, *(p.width for p in pieces if isinstance(p, Drawing))])
    placed: list[ET.Element] = []
    x = y = float(GAP)
    row_height = 0.0
    widest = 0.0
    for piece in pieces:
        starts_a_row = isinstance(piece, Line) or x + piece.width > GAP + limit
        if starts_a_row and x > GAP:
            y, x, row_height = y + row_height + GAP, float(GAP), 0.0
        match piece:
            case Line(words, height):
                label = ET.Element("text", {"x": f"{GAP:g}", "y": f"{y + TEXT_SIZE:g}", "font-size": f"{TEXT_SIZE:g}"})
                label.text = words
                placed.append(label)
                widest = max(widest, GAP + text_width(words, TEXT_SIZE))
                y += height + GAP
            case Drawing(element, width, height):
                element.attrib.update({"x": f"{x:g}", "y": f"{y:g}", "width": f"{width:g}", "height": f"{height:g}"})
                placed.append(element)
                widest = max(widest, x + width)
                x += width + GAP
                row_height = max(row_height, height)
    return max(widest, float(GAP)) + GAP, y + row_height + GAP, placed
