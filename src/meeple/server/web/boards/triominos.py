"""Triominos in the browser: the player panels, the table of triangles and the seat's rack.

Drawn from the view only (see `boards/__init__.py`), with the lattice geometry and move labels
of `games/triominos/describe.py` that the terminal uses too. A placement is two taps, as at a
real table: pick a rack tile (`data-pick` = the tile's name), then one of the cells it fits
(`data-needs` = that name). Every fitting (tile, cell) pair is its own element on the cell,
holding the tile turned the way it would lie; the page shows the ones whose tile is picked.
Cells where something of the rack fits are outlined in gold, solid (other open cells: dashed),
and carry the same letters as the terminal and the move labels. Draw, pass and stop are buttons
under the rack.

Nothing is told by colour alone: each seat has a shape as well as a colour and its number
(`SEAT_SHAPES`), what the step's events changed is outlined twice (dark and white, dashed) with
the class `last-change`, and a tile just placed also carries its player's mark.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from meeple.core.i18n import Catalog
from meeple.games.triominos.describe import (
    action_label,
    cell_points,
    centre,
    number_spots,
    open_keys,
    shown_numbers,
)
from meeple.server.web import svg
from meeple.server.web.svg import el

if TYPE_CHECKING:
    from meeple.games.triominos.view_types import PlacedTile, TriominosView

EDGE = 64.0  # a tile's edge on the table, in drawing units
#: The table is never drawn smaller than this many CSS px per unit (it scrolls sideways instead),
#: so a cell (EDGE wide, EDGE·√3/2 tall) stays at least 40×40 px to tap on a phone.
MIN_SCALE = 0.75
#: ...and never larger than this (a small table is centred on the felt of a wide screen).
MAX_SCALE = 1.25
CARD_W, CARD_H = 250.0, 84.0  # one seat's card
NAME_SIZE = 18.0
RACK_W = 380.0  # the rack drawing: five tiles a row, about 0.95 px per unit on a phone
FONT = ("system-ui, 'Noto Sans', 'Noto Sans CJK TC', 'PingFang TC', 'Microsoft JhengHei', 'WenQuanYi Micro Hei', "
        "sans-serif")

FELT = "#2c6140"
FELT_EDGE = "#1f4a30"
IVORY = "#f7f0dc"
INK = "#2b2118"
BROWN = "#6b5233"
BACK = "#7a5a36"  # a tile's back (the pool, the other racks)
GOLD = "#ffd34d"
GOLD_DARK = "#b8860b"
PAPER = "#fbf7ec"
MUTED = "#6f6657"
MARK = "#1a1a1a"  # the "what changed" outline (with a white one inside it)
#: Seat colours, each with its own shape (and the seat's number inside): never colour alone.
SEAT_COLOURS = ("#c8473d", "#2f6fb5", "#cf8a12", "#7b4fa8")
SEAT_SHAPES = ("circle", "square", "diamond", "hexagon")

#: The layout: seat cards in a wrapping grid; in a wide container the cards sit beside the rack
#: and the table takes the whole width below; the table scrolls sideways rather than shrink.
#: The previews of a placement show once the page marks the move "armed" (its tile picked) and
#: cover the cell's letter; the focus rings are for keyboard play.
STYLE = (
    ".tri-wrap{container-type:inline-size}"
    ".tri-board{display:grid;gap:.5rem;grid-template-columns:minmax(0,1fr);"
    "grid-template-areas:'seats' 'table' 'rack'}"
    ".tri-seats{grid-area:seats;align-content:start;display:grid;gap:.4rem;grid-template-columns:repeat(auto-fill,minmax(170px,1fr))}"
    f".tri-scroll{{grid-area:table;overflow-x:auto;background:{FELT};border:6px solid {FELT_EDGE};border-radius:14px}}"
    ".tri-scroll svg.tri-table{margin:0 auto}"
    ".tri-board svg.tri-rack{grid-area:rack;max-width:560px}"
    "@container (min-width:700px){.tri-board.has-rack{grid-template-columns:minmax(0,1fr) minmax(0,1fr);"
    "grid-template-areas:'seats rack' 'table table'}}"
    ".tri-fit .tri-ghost{opacity:0}"
    ".tri-fit.armed .tri-ghost,.tri-fit:focus .tri-ghost{opacity:1}"
    ".tri-board .move,.tri-board .pick{cursor:pointer}"
    ".tri-board .pick:focus>polygon,.tri-board .move:focus>rect{stroke:#1a73e8;stroke-width:4}"
)

Points = list[tuple[float, float]]
Moves = list[dict[str, Any]]


def _poly(points: Points, **attrs: Any) -> str:
    return el("polygon", {"points": " ".join(f"{x:.1f},{y:.1f}" for x, y in points), **attrs})


def _label(x: float, y: float, content: str, size: float, **attrs: Any) -> str:
    values = {"x": round(x, 1), "y": round(y, 1), "font_size": round(size, 1), **attrs}
    return el("text", values, svg.text(content))


def _numbers(points: Points, numbers: list[int], size: float, fill: str = INK) -> str:
    """A tile's corner numbers, written a little inside each corner (as printed on the tiles)."""
    return "".join(
        _label(x, y, str(n), size, font_weight="bold", fill=fill, text_anchor="middle", dominant_baseline="central")
        for (x, y), n in zip(number_spots(points, 0.46), numbers)
    )


def _grow(points: Points, by: float) -> Points:
    """The triangle pushed outwards by `by` units from its centre (for outlines around a tile)."""
    cx, cy = centre(points)
    out = []
    for x, y in points:
        d = math.hypot(x - cx, y - cy) or 1.0
        out.append((x + (x - cx) / d * by, y + (y - cy) / d * by))
    return out


def _outline(points: Points, by: float = -2.0) -> str:
    """The "what changed" mark along a triangle's edge, dark and dashed white (seen on felt and on
    ivory alike); by default just inside the edge, so it covers no neighbour on the table."""
    line = _grow(points, by)
    return (_poly(line, fill="none", stroke=MARK, stroke_width=4, stroke_linejoin="round")
            + _poly(line, fill="none", stroke="#ffffff", stroke_width=2, stroke_dasharray="7 5",
                    stroke_linejoin="round"))


def _box(x: float, y: float, w: float, h: float) -> str:
    """The "what changed" mark around a rectangle (a count, a score)."""
    return (el("rect", {"x": round(x, 1), "y": round(y, 1), "width": round(w, 1), "height": round(h, 1), "rx": 6,
                        "fill": "none", "stroke": MARK, "stroke_width": 3})
            + el("rect", {"x": round(x, 1), "y": round(y, 1), "width": round(w, 1), "height": round(h, 1), "rx": 6,
                          "fill": "none", "stroke": "#ffffff", "stroke_width": 1.5, "stroke_dasharray": "5 4"}))


def seat_mark(seat: int, cx: float, cy: float, r: float, cat: Catalog) -> str:
    """A seat's marker: its colour, its own shape and its number (`data-shape` names the shape)."""
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    shape = SEAT_SHAPES[seat % len(SEAT_SHAPES)]
    paint: svg.Attrs = {"fill": colour, "stroke": "#ffffff", "stroke_width": 1.5}
    if shape == "circle":
        body = el("circle", {"cx": round(cx, 1), "cy": round(cy, 1), "r": round(r, 1), **paint})
    elif shape == "square":
        s = r * 0.9
        body = el("rect", {"x": round(cx - s, 1), "y": round(cy - s, 1), "width": round(2 * s, 1),
                           "height": round(2 * s, 1), "rx": round(r * 0.15, 1), **paint})
    elif shape == "diamond":
        s = r * 1.2
        body = _poly([(cx, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy)], **paint)
    else:
        s = r * 1.08
        body = _poly([(cx + s * math.cos(a), cy + s * math.sin(a)) for a in (k * math.pi / 3 for k in range(6))],
                     **paint)
    number = _label(cx, cy + 1, str(seat + 1), r * 1.05, fill="#ffffff", font_weight="bold", text_anchor="middle",
                    dominant_baseline="central")
    return el("g", {"class_": "tri-seat-mark", "data_shape": shape, "data_seat": seat},
              el("title", {}, svg.text(cat.text("web.seat_mark", seat=seat + 1))), body, number)


def _back(x: float, y: float, edge: float) -> str:
    """A face-down tile (point up, left corner at x, bottom at y): brown with a pale ring."""
    h = edge * 0.866
    return (_poly([(x, y), (x + edge / 2, y - h), (x + edge, y)], fill=BACK, stroke=INK, stroke_width=1,
                  stroke_linejoin="round")
            + el("circle", {"cx": round(x + edge / 2, 1), "cy": round(y - h / 3, 1), "r": round(edge * 0.14, 1),
                            "fill": "none", "stroke": "#e8d9b8", "stroke_width": 1.2}))


# -- what the step's events changed --------------------------------------------------------------


class Changes:
    """What the events of the step on display changed, as the drawings mark it."""

    def __init__(self, events: Sequence[dict[str, Any]]) -> None:
        self.placed: dict[tuple[int, int, str], int] = {}  # cell -> who placed the tile there
        self.scores: set[int] = set()  # seats whose score moved
        self.racks: set[int] = set()  # seats whose rack grew or shrank
        self.drawn: str | None = None  # the tile this seat was told it drew
        self.pool = False
        self.turns: set[int] = set()  # seats that passed or stopped
        for event in events:
            self._note(event)

    def _note(self, event: dict[str, Any]) -> None:
        key = event.get("key")
        params = event.get("params") or event.get("args") or {}
        if key == "blocked":
            self.scores.update(range(len(params.get("racks", []))))
            return
        who = params.get("who", event.get("player"))
        if not isinstance(who, int):
            return  # an event of nobody's (a round's start or end) changes nothing drawn
        if key == "place":
            self.placed[(params["x"], params["y"], params["dir"])] = who
            self.scores.add(who)
            self.racks.add(who)
        elif key in ("bridge", "hexagon", "double_hexagon", "triple_hexagon", "went_out", "stop"):
            self.scores.add(who)
            if key == "stop":
                self.turns.add(who)
        elif key == "draw":
            self.scores.add(who)
            self.racks.add(who)
            self.pool = True
            self.drawn = params.get("tile", self.drawn)  # only in the drawer's own copy
        elif key == "pass":
            self.turns.add(who)


# -- the whole board ----------------------------------------------------------------------------


def board(view: TriominosView, seat: int | None, legal: Moves, cat: Catalog,
          events: Sequence[dict[str, Any]] = ()) -> str:
    """The table as `seat` sees it: the seats, the lattice with the open cells, the seat's rack;
    what `events` changed is outlined (class `last-change`)."""
    changes = Changes(events)
    places = [m for m in legal if m["action"].get("type") == "place"]
    others = [m for m in legal if m["action"].get("type") != "place"]
    rack = view.get("rack") if seat is not None else None
    if rack is None:
        places = []  # a placement is picked from the rack; without one there is nothing to pick
    parts = [_seats(view, seat, cat, changes), _table(view, places, cat, changes)]
    if rack is not None:
        parts.append(_rack(view, rack, places, others, cat, changes))
    inner = el("div", {"class_": "tri-board has-rack" if rack is not None else "tri-board"}, *parts)
    return el("div", {"class_": "tri-wrap"}, el("style", {}, STYLE), inner)


def _drawing(width: float, height: float, out: list[str], label: str, left: float = 0, top: float = 0,
             kind: str = "board", style: str | None = None) -> str:
    """An SVG that fills its container's width, its text in a font with CJK glyphs."""
    return el("svg", {"xmlns": "http://www.w3.org/2000/svg",
                      "viewBox": f"{left:.1f} {top:.1f} {width:.1f} {height:.1f}", "role": "img",
                      "aria_label": label, "class_": kind, "style": style},
              el("g", {"font_family": FONT}, *out))


# -- the seats ----------------------------------------------------------------------------------


def _seats(view: TriominosView, seat: int | None, cat: Catalog, changes: Changes) -> str:
    """The heading (round, kind of game, the pool) and one card per seat."""
    cards = [_heading(view, seat, cat, changes)]
    for s in range(len(view["scores"])):
        cards.append(_card(view, s, seat, cat, changes))
    return el("div", {"class_": "tri-seats"}, *cards)


def _heading(view: TriominosView, seat: int | None, cat: Catalog, changes: Changes) -> str:
    """Round and kind of game, whose turn (or who won), and the pool as a stack of tile backs."""
    options = view["options"]
    kind = cat.text("view.match", target=options["target"]) if options["match"] else cat.text("view.single")
    pool = view["pool"]
    out = [el("rect", {"x": 0, "y": 0, "width": CARD_W, "height": CARD_H, "rx": 10, "fill": PAPER,
                       "stroke": "#d8cfbb"}),
           _label(12, 22, svg.clip(cat.text("view.round", round=view["round"]) + " · " + kind, CARD_W - 24, 14),
                  14, fill=MUTED),
           # The status may name players: cut to its room, whole in a tooltip, like a name.
           svg.name_label(12, 46, _status(view, seat, cat), CARD_W - 24, 17, font_weight="bold", fill=INK)]
    stack = ([_back(12 + 5 * k, 76 - 3 * k, 22) for k in range(min(3, pool))] if pool else
             [_poly([(12, 76), (23, 57), (34, 76)], fill="none", stroke=MUTED, stroke_dasharray="3 3")])
    icon = [el("title", {}, svg.text(cat.text("web.pool_title", count=pool))), *stack,
            _label(52, 70, cat.text("view.pool", count=pool), 14, fill=INK)]
    if changes.pool:
        icon.append(_box(6, 55, 46 + svg.text_width(cat.text("view.pool", count=pool), 14) + 10, 25))
    out.append(el("g", {"class_": "tri-pool last-change" if changes.pool else "tri-pool", "data_count": pool},
                  *icon))
    return _drawing(CARD_W, CARD_H, out, cat.text("component.pool"), kind="board tri-heading")


def _status(view: TriominosView, seat: int | None, cat: Catalog) -> str:
    """Whose turn it is (the draws so far are in the prompt and the log), or that the game is over."""
    current = view["current_player"]
    if current is None:
        return cat.text("web.over")  # the winners' cards carry the ★
    return cat.text("web.your_turn") if current == seat else cat.text("view.turn", who=current)


def _card(view: TriominosView, s: int, seat: int | None, cat: Catalog, changes: Changes) -> str:
    """One seat: its mark (colour, shape, number), name, score and tiles on the rack; the seat to
    play is framed in gold with a ▶, winners carry a ★."""
    turn = s == view["current_player"]
    won = s in view["winners"]
    score = view["scores"][s]
    count = view["rack_sizes"][s]
    name = cat.player(s)
    out = [el("title", {}, svg.text(f"{name}: {cat.text('standing.points', count=score)}")),
           el("rect", {"x": 0, "y": 0, "width": CARD_W, "height": CARD_H, "rx": 10, "fill": "#ffffff",
                       "stroke": GOLD_DARK if turn else "#d8cfbb", "stroke_width": 4 if turn else 1.5}),
           seat_mark(s, 28, 30, 16, cat)]
    x = 54.0
    if turn or won:
        out.append(_label(x, 28, "▶" if turn else "★", 16, fill=GOLD_DARK, dominant_baseline="central"))
        x += 20
    you = f" ({cat.text('web.you')})" if s == seat else ""
    # "(you)" sits at the card's right edge, a little apart: the widths are estimates, and a
    # name cut with an ellipsis ends in a glyph wider than most.
    room = CARD_W - 12 - x - (svg.text_width(you, NAME_SIZE) + 10 if you else 0)
    out.append(svg.name_label(x, 36, name, room, NAME_SIZE, fill=INK, class_="tri-name"))
    if you:
        out.append(_label(CARD_W - 12, 36, you, NAME_SIZE, fill=MUTED, text_anchor="end"))
    rack = cat.text("web.rack_count", count=count)
    mark = [_back(14, 76, 22), _label(44, 72, rack, 16, fill=MUTED)]
    if s in changes.racks:
        mark.append(_box(8, 50, 44 + svg.text_width(rack, 16), 30))
    out.append(el("g", {"class_": "tri-rack-count last-change" if s in changes.racks else "tri-rack-count"}, *mark))
    points = str(score)
    shown = [_label(CARD_W - 14, 72, points, 26, fill=INK, font_weight="bold", text_anchor="end")]
    if s in changes.scores:
        w = svg.text_width(points, 26) + 12
        shown.append(_box(CARD_W - 8 - w, 48, w, 32))
    out.append(el("g", {"class_": "tri-score last-change" if s in changes.scores else "tri-score"}, *shown))
    classes = "tri-seat" + (" last-change" if s in changes.turns else "")
    if s in changes.turns:
        out.append(_box(2, 2, CARD_W - 4, CARD_H - 4))
    return _drawing(CARD_W, CARD_H, [el("g", {"class_": classes, "data_seat": s}, *out)],
                    cat.text("web.seat_mark", seat=s + 1), kind="board tri-card")


# -- the table ----------------------------------------------------------------------------------


def _table(view: TriominosView, places: Moves, cat: Catalog, changes: Changes) -> str:
    """The lattice: placed tiles with their corner numbers (the ones the step placed outlined and
    marked with their player's mark), the open cells with their letters (while the game goes on),
    and on each cell the moves that put a rack tile there (the opening tile's cell too, which is
    not yet "open")."""
    tiles = view["board"]
    keys = {} if view["over"] else open_keys(view)
    fits: dict[tuple[int, int, str], Moves] = {}
    for move in places:
        a = move["action"]
        fits.setdefault((a["x"], a["y"], a["dir"]), []).append(move)
    cells = {where: cell_points(*where, EDGE) for where in [*keys, *(w for w in fits if w not in keys)]}
    drawn = [(t, cell_points(t["x"], t["y"], t["dir"], EDGE)) for t in tiles]
    shapes = [*cells.values(), *(p for _, p in drawn)]
    xs = [x for pts in shapes for x, _ in pts] or [0.0, EDGE]
    ys = [y for pts in shapes for _, y in pts] or [-EDGE, 0.0]
    margin, legend = 24.0, 34.0
    width = max(max(xs) - min(xs) + 2 * margin, 460.0)
    height = max(max(ys) - min(ys) + 2 * margin, 3 * EDGE) + legend
    left = (min(xs) + max(xs)) / 2 - width / 2
    top = (min(ys) + max(ys)) / 2 - (height - legend) / 2
    if not drawn:
        top -= 30  # room for the opening note above the first cell
        height += 30
    out = [el("rect", {"x": round(left, 1), "y": round(top, 1), "width": round(width, 1), "height": round(height, 1),
                       "fill": FELT})]
    size = EDGE * 0.25
    for where, pts in cells.items():
        out.append(_open_cell(where, pts, keys.get(where), where in fits, size))
    # The tiles the step placed go last, so their outline and mark lie on top.
    drawn.sort(key=lambda item: (item[0]["x"], item[0]["y"], item[0]["dir"]) in changes.placed)
    for tile, pts in drawn:
        out.append(_tile(tile, pts, changes, size, cat))
    for where, moves in fits.items():
        pts = cells[where]
        for move in moves:
            out.append(_fit(move, pts, size, cat, view))
    if not drawn:
        out.extend(_opening_note(view, left + width / 2, top, cat))
    notes = ([cat.text("web.legend_last")] if changes.placed else []) + ([cat.text("web.legend_fit")] if fits else [])
    if notes:
        out.append(_label(left + 20, top + height - legend / 2, "  ·  ".join(notes), 14, fill="#e4efe6",
                          dominant_baseline="central"))
    style = f"min-width:{round(width * MIN_SCALE)}px;max-width:{round(width * MAX_SCALE)}px"
    return el("div", {"class_": "tri-scroll"},
              _drawing(width, height, out, cat.text("component.board"), left, top, kind="board tri-table",
                       style=style))


def _open_cell(where: tuple[int, int, str], pts: Points, key: str | None, playable: bool, size: float) -> str:
    """An empty cell next to the board: gold and solid where a rack tile fits, else pale and
    dashed; its letter names it in the move labels."""
    out = [_poly(pts, fill=GOLD if playable else "#ffffff", fill_opacity=0.22 if playable else 0.05,
                 stroke=GOLD if playable else "#cfe3d4", stroke_width=2.5 if playable else 1,
                 stroke_dasharray=None if playable else "4 4")]
    if key is not None:
        cx, cy = centre(pts)
        out.append(_label(cx, cy, key, size * (0.95 if playable else 0.75), fill=GOLD if playable else "#cfe3d4",
                          text_anchor="middle", dominant_baseline="central",
                          font_weight="bold" if playable else None))
    return el("g", {"class_": "tri-open", "data_fits": "yes" if playable else "no"}, *out)


def _tile(tile: PlacedTile, pts: Points, changes: Changes, size: float, cat: Catalog) -> str:
    """A placed tile; outlined, with its player's mark, when the step on display placed it."""
    where = (tile["x"], tile["y"], tile["dir"])
    shape = [_poly(pts, fill=IVORY, stroke=BROWN, stroke_width=1.5, stroke_linejoin="round"),
             _numbers(pts, tile["corners"], size)]
    if where not in changes.placed:
        return el("g", {"class_": "tri-tile", "data_tile": tile["tile"]}, *shape)
    who = changes.placed[where]
    cx, cy = centre(pts)
    title = cat.text("web.last_tile", who=cat.player(who), tile=tile["tile"])
    shape = [el("title", {}, svg.text(title)), *shape, _outline(pts), seat_mark(who, cx, cy, size * 0.55, cat)]
    return el("g", {"class_": "tri-tile last-change", "data_tile": tile["tile"]}, *shape)


def _fit(move: dict[str, Any], pts: Points, size: float, cat: Catalog, view: TriominosView) -> str:
    """One placement on its cell: a transparent target (the whole triangle) and the tile as it
    would lie, which covers the cell's letter once its tile is picked."""
    a = move["action"]
    attrs = {**svg.move(move["id"], action_label(a, cat, view), needs=a["tile"]), "class_": "move tri-fit"}
    ghost = el("g", {"class_": "tri-ghost"},
               _poly(pts, fill=IVORY, stroke=GOLD_DARK, stroke_width=3, stroke_linejoin="round"),
               _numbers(pts, shown_numbers(a["tile"], a.get("rot", 0)), size, fill=BROWN))
    return el("g", attrs, _poly(pts, fill="#ffffff", fill_opacity=0), ghost)


def _opening_note(view: TriominosView, x: float, top: float, cat: Catalog) -> list[str]:
    """Above the empty table: the opener places any tile, and who drew what to decide it (M8)."""
    out = [_label(x, top + 30, cat.text("view.empty_board"), 17, fill="#ffffff", text_anchor="middle")]
    opening = view["opening"]
    if opening and opening[-1]:
        sep = cat.text("ui.list_separator") if cat.has("ui.list_separator") else ", "
        draws = sep.join(f"{cat.player(draw['seat'])} {draw['tile']}" for draw in opening[-1])
        out.append(svg.name_label(x, top + 54, f"{cat.text('view.opening')}: {draws}", 420, 14, fill="#e4efe6",
                                  text_anchor="middle"))
    return out


# -- the rack -----------------------------------------------------------------------------------


def _rack(view: TriominosView, rack: list[str], places: Moves, others: Moves, cat: Catalog, changes: Changes) -> str:
    """The seat's own tiles (hidden from everyone else): the ones that fit somewhere can be
    picked, the rest are dimmed while it is the seat's turn; then draw / pass / stop."""
    fitting = {m["action"]["tile"] for m in places}
    playing = bool(places or others)
    edge, step, pad = 62.0, 72.0, 12.0
    per_row = int((RACK_W - 2 * pad + step - edge) // step)
    rows = max(1, -(-len(rack) // per_row))
    top = 52.0 if places else 38.0
    button_h = 48.0
    h = edge * 0.8660254037844386
    height = top + rows * (h + 16) + (len(others) * (button_h + 10) + 6 if others else 6)
    drawn = view.get("last_drawn")
    out = [el("rect", {"x": 0, "y": 0, "width": RACK_W, "height": round(height, 1), "rx": 10, "fill": PAPER}),
           _label(pad, 26, cat.text("view.rack"), 18, font_weight="bold", fill=INK)]
    if places:
        out.append(_label(pad, 45, svg.clip(cat.text("web.hint"), RACK_W - 2 * pad, 13), 13, fill=MUTED))
    for i, name in enumerate(rack):
        x = pad + (i % per_row) * step
        y = top + (i // per_row) * (h + 16) + 6
        out.append(_rack_tile(name, x, y, edge, name in fitting, playing, name == drawn,
                              name == changes.drawn, cat))
    y = height - len(others) * (button_h + 10) - 2
    for move in others:
        label = action_label(move["action"], cat, view)
        out.append(el("g", svg.move(move["id"], label),
                      el("rect", {"x": pad, "y": round(y, 1), "width": RACK_W - 2 * pad, "height": button_h,
                                  "rx": 10, "fill": BROWN, "stroke": INK, "stroke_width": 1.5}),
                      _label(RACK_W / 2, y + button_h / 2, svg.clip(label, RACK_W - 4 * pad, 17), 17, fill="#ffffff",
                             font_weight="bold", text_anchor="middle", dominant_baseline="central")))
        y += button_h + 10
    return _drawing(RACK_W, height, out, cat.text("view.rack"), kind="board tri-rack")


def _rack_tile(name: str, x: float, y: float, edge: float, fits: bool, playing: bool, new: bool, changed: bool,
               cat: Catalog) -> str:
    """One rack tile: pickable if it fits somewhere, dimmed if not (on the seat's turn); the tile
    just drawn says so in words under it, and is outlined when the step on display drew it."""
    h = edge * 0.8660254037844386
    pts = [(x, y + h), (x + edge / 2, y), (x + edge, y + h)]
    shape = [_poly(pts, fill=IVORY, stroke=BROWN, stroke_width=1.5, stroke_linejoin="round"),
             _numbers(pts, shown_numbers(name, 0), edge * 0.25)]
    if changed:
        shape.append(_outline(pts, by=6))  # outside: a rack tile has no neighbour to cover
    if new:
        shape.append(_label(x + edge / 2, y + h + 11, cat.text("web.drawn"), 11, fill=INK, text_anchor="middle",
                            font_weight="bold"))
    classes = "tri-rack-tile" + (" last-change" if changed else "")
    attrs: svg.Attrs
    if fits:
        attrs = {**svg.pick(name, cat.text("web.pick", tile=name)), "class_": f"pick {classes}"}
    else:
        attrs = {"class_": classes, "opacity": 0.45 if playing else None, "data_tile": name}
        shape.insert(0, el("title", {}, svg.text(cat.text("web.no_fit", tile=name) if playing else name)))
    return el("g", attrs, *shape)


# -- words for the page -------------------------------------------------------------------------


def prompt(view: TriominosView, seat: int | None, legal: Moves, cat: Catalog) -> str:
    """What `seat` must do now, in words (boards/__init__.py): open, place or draw, draw again,
    place or stop after the third draw (M6), pass on an empty pool (M7); "" when not its turn."""
    if not legal or seat is None:
        return ""
    kinds = {m["action"].get("type") for m in legal}
    can_place = "place" in kinds
    if not view["board"]:
        return cat.text("prompt.open")  # M8: the opener places any tile
    left = 3 - view["draws_this_turn"]
    if "stop" in kinds:
        return cat.text("prompt.place_or_stop" if can_place else "prompt.stop")
    if "pass" in kinds:
        return cat.text("prompt.place_or_pass" if can_place else "prompt.pass")
    if left == 3:
        return cat.text("prompt.place" if can_place else "prompt.draw")
    if not can_place:
        return cat.text("prompt.draw_again", left=left)
    if view["options"]["drawn_tile_only"] and "last_drawn" in view:
        return cat.text("prompt.place_only_drawn", tile=view["last_drawn"], left=left)
    return cat.text("prompt.place_drawn", left=left)


def standings(view: TriominosView, cat: Catalog) -> list[str]:
    """Each seat's running standing (boards/__init__.py): points and tiles left on the rack; in a
    match (M10) the total, then this round's points."""
    match = view["options"]["match"]
    out = []
    for score, size, breakdown in zip(view["scores"], view["rack_sizes"], view["breakdown"], strict=True):
        parts = [cat.text("standing.points", count=score)]
        if match and breakdown["rounds"]:
            this_round = breakdown["rounds"][-1]["total"]
            parts.append(cat.text("standing.round", round=view["round"],
                                  points=cat.text("standing.points", count=this_round)))
        parts.append(cat.text("standing.tiles", count=size))
        out.append(" · ".join(parts))
    return out
