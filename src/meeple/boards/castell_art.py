"""Castell's pieces drawn by code: castellers as little figures with their size on the shirt,
seat pawns each in its own shape, an emblem per region, a symbol per skill, and the outline that
marks what the last step changed.

Nothing is told by colour alone: seats differ by shape and number, skills by symbol and name,
casteller shades by the size written on them (tests/boards/test_board_castell.py checks the
colour pairs a colour-blind player confuses against these shapes).
"""

from __future__ import annotations

from typing import Any

from meeple.boards.svg import el, text

INK, PAPER, EDGE = "#3b2a1a", "#f6efdd", "#8a6a3c"
SEATS = ("#c0392b", "#2e6da4", "#2f8a3b", "#8e44ad")
#: Each seat's pawn shape, so seats differ by more than colour.
SEAT_SHAPES = ("circle", "square", "triangle", "diamond")
SKILL_COLOURS = {"balance": "#5b8fb9", "base": "#9b6b3d", "mix": "#7d9a45", "strength": "#b5523b",
                 "width": "#8c6bb1", "practice": "#d0a030", "special": "#c75d8c"}
#: Casteller shirt colours by size 1..10, light to dark (the size is written on every figure).
SHADES = ("#f3e3c3", "#ecd5aa", "#e3c48f", "#d9b076", "#cc9a5e", "#b9824a", "#a06b3b", "#87562f",
          "#6e4425", "#55331c")
#: What the last step changed: an orange outline with a soft glow, seen on any background.
CHANGE, GLOW = "#e8590c", "#ffb347"


def label(x: float, y: float, content: str, size: float = 13, **extra: Any) -> str:
    """Text in ink, centred unless `text_anchor` says otherwise."""
    values: dict[str, Any] = {"x": x, "y": y, "font_size": size, "fill": INK, "text_anchor": "middle"}
    values.update(extra)
    return el("text", values, text(content))


def seat_colour(seat: int) -> str:
    return SEATS[seat % len(SEATS)]


def _shape(kind: str, x: float, y: float, r: float, **paint: Any) -> str:
    """A circle, square, triangle or diamond of radius about `r` centred on (x, y)."""
    if kind == "circle":
        return el("circle", {"cx": x, "cy": y, "r": r, **paint})
    if kind == "square":
        s = r * 0.9
        return el("rect", {"x": x - s, "y": y - s, "width": 2 * s, "height": 2 * s, "rx": r * 0.2, **paint})
    if kind == "triangle":
        return el("path", {"d": f"M{x:.1f} {y - r * 1.15:.1f}L{x + r * 1.15:.1f} {y + r * 0.85:.1f}"
                                f"H{x - r * 1.15:.1f}Z", "stroke_linejoin": "round", **paint})
    return el("path", {"d": f"M{x:.1f} {y - r * 1.2:.1f}L{x + r * 1.1:.1f} {y:.1f}L{x:.1f} {y + r * 1.2:.1f}"
                            f"L{x - r * 1.1:.1f} {y:.1f}Z", **paint})


def pawn(x: float, y: float, seat: int, r: float = 10, **values: Any) -> str:
    """A seat's pawn (or token): its shape, colour and number."""
    kind = SEAT_SHAPES[seat % len(SEAT_SHAPES)]
    dy = r * 0.42 if kind != "triangle" else r * 0.6
    return el("g", {"data_seat": seat, "data_shape": kind, **values},
              _shape(kind, x, y, r, fill=seat_colour(seat), stroke="#fff", stroke_width=1.5),
              label(x, y + dy, str(seat + 1), r * (1.05 if kind != "triangle" else 0.9), fill="#fff",
                    font_weight="bold"))


def casteller(x: float, y: float, size: int, h: float = 24, **values: Any) -> str:
    """A casteller: head, shoulders and a black sash, the size written on the shirt; (x, y) is the
    figure's centre and `h` its height."""
    shade = SHADES[max(0, min(size, len(SHADES)) - 1)]
    w, top = h * 0.34, y - h * 0.12
    body = (f"M{x - w:.1f} {y + h / 2:.1f}V{top + h * 0.12:.1f}Q{x - w:.1f} {top:.1f} {x - w * 0.55:.1f} {top:.1f}"
            f"H{x + w * 0.55:.1f}Q{x + w:.1f} {top:.1f} {x + w:.1f} {top + h * 0.12:.1f}V{y + h / 2:.1f}Z")
    return el("g", {"data_size": size, **values},
              el("circle", {"cx": x, "cy": y - h * 0.31, "r": h * 0.17, "fill": "#f0c9a0", "stroke": INK,
                            "stroke_width": 0.8}),
              el("path", {"d": body, "fill": shade, "stroke": INK, "stroke_width": 0.8}),
              el("rect", {"x": x - w, "y": y + h * 0.36, "width": 2 * w, "height": h * 0.08, "fill": INK}),
              label(x, y + h * 0.3, str(size), h * 0.38, fill="#fff" if size >= 5 else INK, font_weight="bold"))


def size_token(x: float, y: float, size: int, r: float = 9) -> str:
    """A festival's size token: a hexagon with the size it asks for."""
    pts = " ".join(f"{x + r * c:.1f},{y + r * s:.1f}" for c, s in
                   ((1, 0), (0.5, 0.87), (-0.5, 0.87), (-1, 0), (-0.5, -0.87), (0.5, -0.87)))
    return el("g", {"data_size_token": size},
              el("polygon", {"points": pts, "fill": PAPER, "stroke": INK, "stroke_width": 1.2}),
              label(x, y + r * 0.4, str(size), r * 1.1, font_weight="bold"))


#: Region emblems on a 24-unit grid centred on 0: what each town is known for.
EMBLEMS = {
    # Barcelona: the spires of the Sagrada Família
    "barcelona": "M-9 10V0L-7 -7L-5 0V10ZM-3 10V-4L0 -12L3 -4V10ZM5 10V0L7 -7L9 0V10Z",
    # Mataró: a sailing boat on the coast
    "mataro": "M-11 4H11L7 10H-7ZM-1 2V-11L9 2ZM-3 2L-3 -7L-9 2Z",
    # Tarragona: the arches of the Roman aqueduct
    "tarragona": "M-12 -8H12V10H8V2A3 3 0 0 0 2 2V10H-2V2A3 3 0 0 0 -8 2V10H-12Z",
    # Terrassa: a textile mill's chimney and its smoke
    "terrassa": "M-4 10L-2 -6H2L4 10ZM-12 10V2H-5V10ZM1 -9A3 3 0 1 1 7 -10A3 3 0 1 1 11 -6",
    # Valls, the home of the castells: a pinya of three, two and one
    "valls": "M-12 10A3.5 3.5 0 0 1 -5 10ZM-3.5 10A3.5 3.5 0 0 1 3.5 10ZM5 10A3.5 3.5 0 0 1 12 10Z"
             "M-8.5 2.5A3.5 3.5 0 0 1 -1.5 2.5ZM1.5 2.5A3.5 3.5 0 0 1 8.5 2.5ZM-3.5 -5A3.5 3.5 0 0 1 3.5 -5Z"
             "M0 -12A2.5 2.5 0 1 1 0 -7A2.5 2.5 0 1 1 0 -12Z",
    # Vilafranca: the bell tower of the basilica
    "vilafranca": "M-6 10V-4H6V10ZM-8 -4L0 -12L8 -4ZM-2.5 4V-1A2.5 2.5 0 0 1 2.5 -1V4Z",
    # Vilanova: the lighthouse by the sea
    "vilanova": "M-4 10L-2.5 -6H2.5L4 10ZM-4 -6V-10H4V-6ZM-12 -10L-6 -8M12 -10L6 -8M-12 -6H-6M12 -6H6",
}


def emblem(region: str, x: float, y: float, scale: float = 1, fill: str = INK) -> str:
    """A region's emblem centred on (x, y), about 24 × `scale` units."""
    return el("path", {"d": EMBLEMS.get(region, "M-8 -8H8V8H-8Z"), "fill": fill, "stroke": fill,
                       "stroke_width": 1.4, "stroke_linejoin": "round", "fill_rule": "evenodd",
                       "data_emblem": region, "transform": f"translate({x:.1f} {y:.1f}) scale({scale:g})"})


#: Skill symbols on a 20-unit grid centred on 0, drawn as strokes.
SYMBOLS = {
    "balance": "M-8 -5H8M0 -8V8M-5 8H5M-8 -5L-10 1H-6ZM8 -5L6 1H10Z",  # scales
    "base": "M-9 8H9M-9 3H9M-9 3V8M-3 3V8M3 3V8M9 3V8M-6 -2H6M-3 -7H3",  # a wide footing
    "mix": "M0 -8A8 8 0 1 0 0 8A8 8 0 1 0 0 -8ZM-8 0A8 8 0 0 0 8 0Z",  # two halves, one filled
    "strength": "M2 -9L-5 1H0L-2 9L5 -1H0Z",  # a bolt
    "width": "M-9 0H9M-5 -4L-9 0L-5 4M5 -4L9 0L5 4",  # a double arrow
    "practice": "M6 -5A7 7 0 1 0 7 2M6 -5L7 -10M6 -5L1 -4",  # going round again
    "special": "M0 -9L2.6 -3.2L9 -2.8L4 1.4L5.6 7.8L0 4.3L-5.6 7.8L-4 1.4L-9 -2.8L-2.6 -3.2Z",  # a star
}


def skill_symbol(skill: str, x: float, y: float, scale: float = 1, colour: str = "#fff") -> str:
    """A skill's symbol centred on (x, y): the skill reads without its colour."""
    filled = skill in ("strength", "special", "mix")
    return el("path", {"d": SYMBOLS.get(skill, "M-6 -6H6V6H-6Z"), "data_symbol": skill, "fill_rule": "evenodd",
                       "fill": colour if filled else "none", "stroke": colour, "stroke_width": 1.8,
                       "stroke_linecap": "round", "stroke_linejoin": "round",
                       "transform": f"translate({x:.1f} {y:.1f}) scale({scale:g})"})


def outline_rect(x: float, y: float, w: float, h: float, r: float = 6) -> str:
    """The mark of a change around a box: a glow and an orange line."""
    box: dict[str, Any] = {"x": x, "y": y, "width": w, "height": h, "rx": r, "fill": "none"}
    return (el("rect", {**box, "stroke": GLOW, "stroke_width": 7, "opacity": 0.6})
            + el("rect", {**box, "stroke": CHANGE, "stroke_width": 2.5}))


def outline_circle(x: float, y: float, r: float) -> str:
    """The mark of a change around a round piece."""
    ring: dict[str, Any] = {"cx": x, "cy": y, "r": r, "fill": "none"}
    return (el("circle", {**ring, "stroke": GLOW, "stroke_width": 7, "opacity": 0.6})
            + el("circle", {**ring, "stroke": CHANGE, "stroke_width": 2.5}))


def changed(marked: bool, mark: str, *children: str) -> str:
    """`children`, outlined by `mark` and classed `last-change` when the last step changed them."""
    if not marked:
        return "".join(children)
    return el("g", {"class_": "last-change"}, *children, mark)

