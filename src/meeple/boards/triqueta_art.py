"""Triqueta's pieces drawn by code: the six animal heads, the token back, the tree tile and the
starting rock.

Each piece is drawn in a 20-unit box centred on the origin and placed with a transform, so one
drawing serves every size (a 24-unit token in a collection, a 32-unit one in a row). An animal is
told by its head's shape (ears, antlers, horns, tusks), never by its token's colour alone: the
colours only help (tests/boards/test_board_triqueta.py checks the pairs a colour-blind player
could confuse against `SHAPES`).
"""

from __future__ import annotations

from meeple.boards.svg import el
from meeple.games.triqueta.components import ANIMALS

INK, LIGHT = "#3b2f2a", "#fffaf0"
#: Token colour and the colour of the head drawn on it, per animal in rulebook order.
ANIMAL_COLOURS = (("#efe6d2", INK), ("#e3b23c", INK), ("#c8553d", LIGHT),
                  ("#6d4c3d", LIGHT), ("#8fb8c9", INK), ("#2f3e46", LIGHT))
#: The shape that tells each animal apart (its `data-shape` on the board).
SHAPES = ("long-ears", "ear-tufts", "antlers", "tusks", "curled-horns", "round-ears")
BACK, BACK_MARK = "#5b4636", "#e9d8b8"
TREE_TILE, LEAVES, TRUNK = "#e4d9b9", "#4f7942", "#6b4b2e"
ROCK, ROCK_EDGE = "#a3a29b", "#5c5c58"

#: (silhouette paths drawn in the head's colour, detail shapes cut out in the token's colour).
_HEADS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (  # rabbit: two long ears over a round head
        ("M-4.6 -0.5C-6.2 -5 -5.2 -9.4 -3.4 -9.4C-1.7 -9.4 -1.4 -5 -1.7 -0.5Z",
         "M4.6 -0.5C6.2 -5 5.2 -9.4 3.4 -9.4C1.7 -9.4 1.4 -5 1.7 -0.5Z",
         "M0 -2.6A5.2 5.2 0 1 1 0 7.8A5.2 5.2 0 1 1 0 -2.6Z"),
        ("M-2.8 2.2a0.95 0.95 0 1 0 1.9 0a0.95 0.95 0 1 0 -1.9 0Z",
         "M0.9 2.2a0.95 0.95 0 1 0 1.9 0a0.95 0.95 0 1 0 -1.9 0Z", "M-0.9 4.4h1.8l-0.9 1.1Z"),
    ),
    (  # owl: ear tufts, big round eyes, a hooked beak
        ("M-6.8 -7.4L-3.2 -4Q0 -5.2 3.2 -4L6.8 -7.4L7 2Q6.6 8.6 0 8.6Q-6.6 8.6 -7 2Z",),
        ("M-5.4 -0.2a2.7 2.7 0 1 0 5.4 0a2.7 2.7 0 1 0 -5.4 0Z", "M0 -0.2a2.7 2.7 0 1 0 5.4 0a2.7 2.7 0 1 0 -5.4 0Z",
         "M-1.1 2.6H1.1L0 5Z"),
    ),
    (  # deer: branched antlers, long face, side ears
        ("M-1.6 -3.6L-4.4 -9.2L-3.4 -9.6L-2.6 -7.6L-6.8 -8.4L-6.6 -7.2L-2.4 -6.2L-0.6 -3.8Z",
         "M1.6 -3.6L4.4 -9.2L3.4 -9.6L2.6 -7.6L6.8 -8.4L6.6 -7.2L2.4 -6.2L0.6 -3.8Z",
         "M-3.2 -2.4L-8 -1.2L-3.2 0.8Z", "M3.2 -2.4L8 -1.2L3.2 0.8Z",
         "M-3.6 -3.8Q0 -5.4 3.6 -3.8L2.2 6Q0 8.4 -2.2 6Z"),
        ("M-2.3 -0.6a0.85 0.85 0 1 0 1.7 0a0.85 0.85 0 1 0 -1.7 0Z",
         "M0.6 -0.6a0.85 0.85 0 1 0 1.7 0a0.85 0.85 0 1 0 -1.7 0Z", "M-1 5.4h2l-1 1.3Z"),
    ),
    (  # boar: pointed ears, broad head, a flat snout with tusks
        ("M-6.2 -2.6L-5.6 -8.8L-1.8 -4.6Z", "M6.2 -2.6L5.6 -8.8L1.8 -4.6Z",
         "M-6.9 0.6A6.9 5.7 0 1 1 6.9 0.6A6.9 5.7 0 1 1 -6.9 0.6Z"),
        ("M-3.3 3.5A3.3 2.3 0 1 1 3.3 3.5A3.3 2.3 0 1 1 -3.3 3.5Z",
         "M-3.5 4.6Q-5.6 4 -5.4 1.2L-4.6 1.4Q-4.8 3.4 -3.2 3.8Z", "M3.5 4.6Q5.6 4 5.4 1.2L4.6 1.4Q4.8 3.4 3.2 3.8Z",
         "M-3.4 -1.4a0.85 0.85 0 1 0 1.7 0a0.85 0.85 0 1 0 -1.7 0Z",
         "M1.7 -1.4a0.85 0.85 0 1 0 1.7 0a0.85 0.85 0 1 0 -1.7 0Z"),
    ),
    (  # ram: a narrow face between two curled horns
        ("M-8.8 -2.6a3.5 3.5 0 1 0 7 0a3.5 3.5 0 1 0 -7 0Z", "M1.8 -2.6a3.5 3.5 0 1 0 7 0a3.5 3.5 0 1 0 -7 0Z",
         "M-2.9 -5.4Q0 -6.6 2.9 -5.4L2.1 5.6Q0 8.2 -2.1 5.6Z"),
        ("M-6.9 -2.6a1.6 1.6 0 1 0 3.2 0a1.6 1.6 0 1 0 -3.2 0Z", "M3.7 -2.6a1.6 1.6 0 1 0 3.2 0a1.6 1.6 0 1 0 -3.2 0Z",
         "M-2.1 -1.2a0.75 0.75 0 1 0 1.5 0a0.75 0.75 0 1 0 -1.5 0Z",
         "M0.6 -1.2a0.75 0.75 0 1 0 1.5 0a0.75 0.75 0 1 0 -1.5 0Z"),
    ),
    (  # bear: round ears on a round head, a pale muzzle
        ("M-7.7 -5a2.7 2.7 0 1 0 5.4 0a2.7 2.7 0 1 0 -5.4 0Z", "M2.3 -5a2.7 2.7 0 1 0 5.4 0a2.7 2.7 0 1 0 -5.4 0Z",
         "M-6.7 0.9a6.7 6.7 0 1 0 13.4 0a6.7 6.7 0 1 0 -13.4 0Z"),
        ("M-2.9 3.2A2.9 2.2 0 1 1 2.9 3.2A2.9 2.2 0 1 1 -2.9 3.2Z",
         "M-3.3 -0.8a0.9 0.9 0 1 0 1.8 0a0.9 0.9 0 1 0 -1.8 0Z", "M1.5 -0.8a0.9 0.9 0 1 0 1.8 0a0.9 0.9 0 1 0 -1.8 0Z"),
    ),
)
#: The owl's pupils and the bear's nose, drawn over the cut-outs in the head's colour.
_OVER = {1: ("M-3.9 -0.2a1.2 1.2 0 1 0 2.4 0a1.2 1.2 0 1 0 -2.4 0Z",
             "M1.5 -0.2a1.2 1.2 0 1 0 2.4 0a1.2 1.2 0 1 0 -2.4 0Z"),
         5: ("M-1.2 2.3A1.2 0.85 0 1 1 1.2 2.3A1.2 0.85 0 1 1 -1.2 2.3Z",)}

assert len(_HEADS) == len(ANIMALS) == len(SHAPES) == len(ANIMAL_COLOURS)


def place(cx: float, cy: float, r: float, *children: str) -> str:
    """`children` drawn in the 20-unit box, placed at (cx, cy) with radius `r`."""
    return el("g", {"transform": f"translate({cx:g} {cy:g}) scale({r / 10:g})"}, *children)


def head(animal: int, ink: str, cut: str) -> str:
    """The animal's head in the 20-unit box: its silhouette in `ink`, eyes and snout in `cut`."""
    body, details = _HEADS[animal]
    parts = [el("path", {"d": d, "fill": ink}) for d in body]
    parts += [el("path", {"d": d, "fill": cut}) for d in details]
    parts += [el("path", {"d": d, "fill": ink}) for d in _OVER.get(animal, ())]
    return el("g", {"class_": "head"}, *parts)


def knot(colour: str) -> str:
    """The triqueta knot printed on the token backs: three interlaced loops."""
    loops = [el("circle", {"cx": x, "cy": y, "r": 3.9, "fill": "none", "stroke": colour, "stroke_width": 1.2})
             for x, y in ((0, -2.6), (-2.25, 1.3), (2.25, 1.3))]
    return el("g", {"class_": "knot"}, *loops)


def tree() -> str:
    """A tree tile: a square tile with a tree on it."""
    return el("g", {"class_": "tree-art"},
              el("rect", {"x": -9, "y": -9, "width": 18, "height": 18, "rx": 3, "fill": TREE_TILE, "stroke": TRUNK,
                          "stroke_width": 1}),
              el("rect", {"x": -1.2, "y": 1, "width": 2.4, "height": 6.5, "fill": TRUNK}),
              el("path", {"d": "M0 -7.6L5.6 1.8H-5.6Z", "fill": LEAVES}),
              el("path", {"d": "M0 -4.2L6.4 4H-6.4Z", "fill": LEAVES}))


def rock() -> str:
    """The starting rock: a rounded grey stone."""
    return el("g", {"class_": "rock-art"},
              el("path", {"d": "M-8.6 4.6Q-9.6 -1.2 -4.6 -4.6Q0.6 -7.8 5.4 -4.4Q9.8 -1 8.6 4.6Z", "fill": ROCK,
                          "stroke": ROCK_EDGE, "stroke_width": 1.2}),
              el("path", {"d": "M-4.6 -1.6Q-1.6 -4.2 2.4 -3", "fill": "none", "stroke": LIGHT, "stroke_width": 1.1,
                          "stroke_linecap": "round"}))
