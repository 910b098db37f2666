"""Building SVG and HTML as text, safely: every text and attribute value is escaped, so nothing a
player types (a name, a chat line) can become markup.

Elements a person clicks to move carry the stable hooks the page script and the browser tests
use: `data-action-id` (the move's integer id), and for moves made in two clicks (a Triominos tile,
then a cell) `data-pick` on the first element and `data-needs` (the picked key) on the second.
Every such element is also a keyboard control (`role="button"`, `tabindex="0"`) with an
`aria-label`, so the board is playable without a mouse.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape

Attrs = Mapping[str, str | int | float | None]


def esc(text: object) -> str:
    """`text` as safe element content or attribute value."""
    return escape(str(text), quote=True)


def attrs(values: Attrs) -> str:
    """` name="value"` pairs; None values are left out, underscores in names become hyphens."""
    parts = []
    for name, value in values.items():
        if value is None:
            continue
        key = name.rstrip("_").replace("_", "-")
        shown = f"{value:g}" if isinstance(value, float) else value
        parts.append(f' {key}="{esc(shown)}"')
    return "".join(parts)


def el(tag: str, values: Attrs | None = None, *children: str) -> str:
    """An element with escaped attributes around already-built children (use `text` for text)."""
    inner = "".join(children)
    if not inner and tag not in ("text", "title", "div", "span", "button", "g", "p", "li", "ul", "td", "th"):
        return f"<{tag}{attrs(values or {})}/>"
    return f"<{tag}{attrs(values or {})}>{inner}</{tag}>"


def text(content: object) -> str:
    """Escaped text content."""
    return esc(content)


def move(action_id: int, label: str, needs: str | None = None) -> dict[str, str | int | None]:
    """The attributes that make an element make the move `action_id` when clicked or pressed."""
    return {"data_action_id": action_id, "data_needs": needs, "role": "button", "tabindex": 0,
            "aria_label": label, "class_": "move"}


def pick(key: str, label: str) -> dict[str, str | int | None]:
    """The attributes of the first click of a two-click move (it selects `key`)."""
    return {"data_pick": key, "role": "button", "tabindex": 0, "aria_label": label, "class_": "pick"}


def svg(width: float, height: float, children: Iterable[str], label: str) -> str:
    """A scalable SVG drawing (it fills its container's width; `label` names it for screen readers)."""
    return el("svg", {"xmlns": "http://www.w3.org/2000/svg", "viewBox": f"0 0 {width:g} {height:g}",
                      "role": "img", "aria_label": label, "class_": "board"}, *children)


def text_width(content: str, size: float) -> float:
    """A rough width of `content` at font size `size` (SVG text does not wrap or shrink by itself):
    wide (CJK) glyphs 1 em, others 0.58 em."""
    return sum(1.0 if ord(ch) > 0x2E80 else 0.58 for ch in content) * size


def clip(content: str, room: float, size: float) -> str:
    """`content`, cut with an ellipsis to fit `room` units at `size`."""
    if text_width(content, size) <= room:
        return content
    while content and text_width(content + "…", size) > room:
        content = content[:-1]
    return content.rstrip() + "…"


def name_label(x: float, y: float, name: str, room: float, size: float, **values: str | int | float | None) -> str:
    """A player's name as SVG text that never runs out of its `room`: cut with an ellipsis when too
    long, the whole name in a tooltip (`<title>`) and in `data-name`."""
    shown = clip(name, room, size)
    tooltip = el("title", {}, text(name)) if shown != name else ""
    return el("text", {"x": x, "y": y, "font_size": size, "data_name": name, **values}, tooltip + text(shown))
