"""Celtica's pieces drawn by code, a few shapes each, legible at phone size: the sites on the
druids' path as little pictures (houses, a tower, a church, a broken wall, standing stones, an
oak), the druids as hooded figures, the five card colours each with a symbol of its own, and
the amulet parts as the pieces of an amulet they are.

Nothing is told by colour alone: every colour comes with its symbol (`data-symbol`), every site
with its picture (`data-kind`), so the board reads the same under any colour blindness.
"""

from __future__ import annotations

import math

from meeple.boards.svg import el
from meeple.games.celtica.describe import FILL, INK, KIND_FILL, PARTS

INKED = "#2e3b32"
PAPER = "#f5eedc"
GOLD = "#c9a227"
FAINT = "#ddd3bb"
#: What just changed (the step on display): a blue outline, unlike the gold of whose turn it is.
CHANGED = "#1864ab"

#: Each colour's symbol, a path drawn in a box of half-size 1 around the origin (scaled by `r`).
SYMBOL_PATHS = {
    # a sun: a disc and eight rays
    "red": "M0.42,0 A0.42,0.42 0 1 1 -0.42,0 A0.42,0.42 0 1 1 0.42,0 Z "
           + " ".join(f"M{0.6 * math.cos(a):.2f},{0.6 * math.sin(a):.2f} L{math.cos(a):.2f},{math.sin(a):.2f}"
                      for a in (k * math.pi / 4 for k in range(8))),
    # a crescent moon
    "grey": "M0.3,-0.92 A0.95,0.95 0 1 0 0.3,0.92 A0.72,0.72 0 1 1 0.3,-0.92 Z",
    # a six-armed star (snow, frost)
    "white": " ".join(f"M{-math.cos(a):.2f},{-math.sin(a):.2f} L{math.cos(a):.2f},{math.sin(a):.2f}"
                      for a in (math.pi / 2 + k * math.pi / 3 for k in range(3))),
    # an oak leaf: a pointed oval with its midrib
    "brown": "M0,-1 Q0.85,-0.2 0,0.75 Q-0.85,-0.2 0,-1 Z M0,-0.6 L0,1",
    # a mountain: a triangle
    "black": "M0,-0.9 L0.95,0.75 L-0.95,0.75 Z",
}
#: Symbols drawn as lines (stroked) rather than filled shapes.
STROKED = {"white"}
#: Line widths in the unit box: the star's and the sun's rays are lines.
STROKE = {"white": 0.24, "red": 0.18}

#: Each site's picture, drawn in a box of half-size 12 around the origin.
SITE_PATHS = {
    # a gate of two standing stones and a lintel
    "start": "M-9,9 V-5 H-4 V9 Z M4,9 V-5 H9 V9 Z M-11,-6 V-10 H11 V-6 Z",
    # two houses with pointed roofs
    "village": "M-11,8 V0 L-6,-5 L-1,0 V8 Z M1,8 V-3 L6,-8 L11,-3 V8 Z",
    # a keep with battlements and a door
    "castle": "M-10,9 V-8 H-6 V-5 H-2 V-8 H2 V-5 H6 V-8 H10 V9 H3 V3 A3,3 0 0 0 -3,3 V9 Z",
    # a church with a cross on its tower
    "monastery": "M-11,9 V0 L-4,-4 V-7 H-1 V-11 H1 V-7 H4 V-4 L11,0 V9 Z M-3,-9 H3",
    # a broken wall
    "ruin": "M-11,9 V-2 L-8,-6 L-6,-1 L-4,-8 V9 Z M-1,9 V-5 L2,-2 L4,-9 L6,-4 L8,-6 L11,-1 V9 Z",
    # three standing stones
    "cult": "M-11,9 V-1 Q-11,-5 -8,-5 Q-5,-5 -5,-1 V9 Z M-3,9 V-7 Q-3,-11 0,-11 Q3,-11 3,-7 V9 Z "
            "M5,9 V-3 Q5,-6 8,-6 Q11,-6 11,-3 V9 Z",
    # a sacred oak: a round crown on a trunk
    "goal": "M-2,10 V2 H2 V10 Z M0,-11 A8,7 0 1 1 -0.1,-11 Z",
}


def colour_symbol(colour: str, x: float, y: float, r: float) -> str:
    """The symbol of `colour` at (x, y), of half-size `r`, in the ink that shows on that colour
    (stroke widths are in the symbol's unit box, so they scale with it)."""
    ink = INK[colour]
    paint: dict[str, str | float] = {"fill": "none" if colour in STROKED else ink, "stroke": ink,
                                     "stroke_width": STROKE.get(colour, 0.06), "stroke_linecap": "round"}
    return el("path", {"d": SYMBOL_PATHS[colour], "transform": f"translate({x:g} {y:g}) scale({r:g})",
                       "data_symbol": colour, **paint})


def site(kind: str, x: float, y: float, r: float) -> list[str]:
    """A location on the path: a disc in its kind's colour with its picture (data-kind)."""
    ring = 3 if kind in ("start", "goal") else 1.5
    return [el("circle", {"cx": x, "cy": y, "r": r, "fill": KIND_FILL.get(kind, "#eeeeee"), "stroke": INKED,
                          "stroke_width": ring}),
            el("path", {"d": SITE_PATHS[kind], "transform": f"translate({x:g} {y:g}) scale({r / 18:.3f})",
                        "fill": INKED, "data_kind": kind})]


def druid(colour: str, x: float, y: float, size: float = 1.0) -> list[str]:
    """A hooded druid standing at (x, y) (its feet), its colour's symbol on the robe."""
    def at(dx: float, dy: float) -> str:
        return f"{x + dx * size:.1f},{y + dy * size:.1f}"

    robe = (f"M{at(-7, 0)} Q{at(-6, -12)} {at(-4, -16)} Q{at(0, -27)} {at(4, -16)} "
            f"Q{at(6, -12)} {at(7, 0)} Z")
    face = f"M{at(-2.6, -16)} Q{at(0, -21)} {at(2.6, -16)} Q{at(0, -13.5)} {at(-2.6, -16)} Z"
    return [el("path", {"d": robe, "fill": FILL[colour], "stroke": INKED, "stroke_width": 1}),
            el("path", {"d": face, "fill": INKED}),
            colour_symbol(colour, x, y - 6.5 * size, 3.6 * size)]


def card(colour: str, x: float, y: float, w: float, h: float, experience: bool = False) -> list[str]:
    """A card of `colour` with its symbol; an experience card has a double border and a star."""
    out = [el("rect", {"x": x, "y": y, "width": w, "height": h, "rx": w * 0.12, "fill": FILL[colour],
                       "stroke": INKED, "stroke_width": 1.2})]
    if experience:
        out.append(el("rect", {"x": x + 2.5, "y": y + 2.5, "width": w - 5, "height": h - 5, "rx": w * 0.08,
                               "fill": "none", "stroke": INK[colour], "stroke_width": 1}))
        out.append(star(x + w - 7, y + 7, 4, INK[colour]))
    out.append(colour_symbol(colour, x + w / 2, y + h * 0.42, min(w, h) * 0.28))
    return out


def star(x: float, y: float, r: float, fill: str) -> str:
    """A four-pointed star, the mark of experience."""
    k = r * 0.3
    d = f"M{x:g},{y - r:g} L{x + k:g},{y - k:g} L{x + r:g},{y:g} L{x + k:g},{y + k:g} L{x:g},{y + r:g} " \
        f"L{x - k:g},{y + k:g} L{x - r:g},{y:g} L{x - k:g},{y - k:g} Z"
    return el("path", {"d": d, "fill": fill})


def part_icon(part: str, x: float, y: float, r: float, fill: str = GOLD) -> list[str]:
    """A part as a piece of an amulet: the centre disc or one of the eight ring segments, with
    the whole amulet's outline faint behind it so its place shows."""
    outline = el("circle", {"cx": x, "cy": y, "r": r, "fill": "none", "stroke": FAINT, "stroke_width": 1})
    return [outline, piece(part, x, y, r, fill)]


def piece(part: str, x: float, y: float, r: float, fill: str = GOLD) -> str:
    """The centre disc (a knot drawn on it) or ring segment `part` of an amulet of radius `r`."""
    index = PARTS.index(part)
    if index == 0:
        return el("circle", {"cx": x, "cy": y, "r": r * 0.42, "fill": fill, "stroke": INKED,
                             "stroke_width": 0.8, "data_part": part})
    inner = r * 0.5
    a0, a1 = math.radians(-90 + 45 * (index - 1) + 2), math.radians(-90 + 45 * index - 2)

    def at(radius: float, angle: float) -> str:
        return f"{x + radius * math.cos(angle):.2f},{y + radius * math.sin(angle):.2f}"

    d = (f"M{at(r, a0)} A{r:g},{r:g} 0 0 1 {at(r, a1)} L{at(inner, a1)} "
         f"A{inner:g},{inner:g} 0 0 0 {at(inner, a0)} Z")
    return el("path", {"d": d, "fill": fill, "stroke": INKED, "stroke_width": 0.8, "data_part": part})


def changed_box(x: float, y: float, w: float, h: float) -> str:
    """The visible outline of something the step on display changed."""
    return el("rect", {"x": x, "y": y, "width": w, "height": h, "rx": 6, "fill": "none", "stroke": CHANGED,
                       "stroke_width": 3, "class_": "change-mark"})


def changed_ring(x: float, y: float, r: float, dashed: bool = False) -> str:
    """A ring around a changed spot (dashed: where something came from)."""
    return el("circle", {"cx": x, "cy": y, "r": r, "fill": "none", "stroke": CHANGED, "stroke_width": 3,
                         "stroke_dasharray": "5 3" if dashed else None, "class_": "change-mark"})
