"""Triominos in the browser: the player panels, the table of triangles and the seat's rack.

Drawn from the view only (see `boards/__init__.py`), with the lattice geometry and move labels
of `games/triominos/describe.py` that the terminal uses too. A placement is two clicks, as at a
real table: pick a rack tile (`data-pick` = the tile's name), then one of the cells it fits
(`data-needs` = that name). Every fitting (tile, cell) pair is its own clickable element on the
cell, holding a faint preview of the tile turned the way it would lie; the page shows the ones
whose tile is picked. Cells where something of the rack fits are outlined in gold and carry the
same letters as the terminal and the move list. Draw, pass and stop are buttons under the rack.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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

EDGE = 64.0  # a tile's edge on the table, in drawing units
WIDTH = 480.0  # width of the panel and rack drawings (the table's drawing is at least this wide)
FONT = ("system-ui, 'Noto Sans', 'Noto Sans CJK TC', 'PingFang TC', 'Microsoft JhengHei', 'WenQuanYi Micro Hei', "
        "sans-serif")

FELT = "#2c6140"
FELT_EDGE = "#1f4a30"
IVORY = "#f7f0dc"
INK = "#2b2118"
BROWN = "#6b5233"
GOLD = "#ffd34d"
GOLD_DARK = "#b8860b"
PAPER = "#fbf7ec"
MUTED = "#7d7466"
#: Seat colours; every seat also shows its number, so colour is never the only signal.
SEAT_COLOURS = ("#c8473d", "#2f6fb5", "#cf8a12", "#7b4fa8")

#: The previews of a placement show on hover or focus, or once the page marks the move "armed"
#: (its tile picked); the rack's and buttons' focus rings are for keyboard play.
STYLE = (
    ".tri-fit .tri-ghost{opacity:0}"
    ".tri-fit:hover .tri-ghost,.tri-fit:focus .tri-ghost,.tri-fit.armed .tri-ghost{opacity:.9}"
    ".tri-board .move,.tri-board .pick{cursor:pointer}"
    ".tri-board .pick:focus>polygon,.tri-board .move:focus>rect{stroke:#1a73e8;stroke-width:4}"
)

Points = list[tuple[float, float]]


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


def _short(name: str, limit: int = 13) -> str:
    """A player name cut to fit its panel (the full name stays in the panel's tooltip)."""
    return name if len(name) <= limit else name[: limit - 1] + "…"


def board(view: dict[str, Any], seat: int | None, legal: list[dict[str, Any]], cat: Catalog, events: Sequence[dict[str, Any]] = ()) -> str:
    """The table as `seat` sees it: players, the lattice with the open cells, the seat's rack."""
    places = [m for m in legal if m["action"].get("type") == "place"]
    others = [m for m in legal if m["action"].get("type") != "place"]
    rack = view.get("rack") if seat is not None else None
    if rack is None:
        places = []  # a placement is picked from the rack; without one there is nothing to pick
    parts = [_players(view, seat, cat), _table(view, places, cat)]
    if rack is not None:
        parts.append(_rack(view, rack, places, others, cat))
    return el("div", {"class_": "tri-board"}, *parts)


def _drawing(width: float, height: float, out: list[str], label: str, left: float = 0, top: float = 0,
             kind: str = "board") -> str:
    """An SVG that fills its container's width, its text in a font with CJK glyphs."""
    return el("svg", {"xmlns": "http://www.w3.org/2000/svg",
                      "viewBox": f"{left:.1f} {top:.1f} {width:.1f} {height:.1f}", "role": "img",
                      "aria_label": label, "class_": kind},
              el("g", {"font_family": FONT}, *out))


# -- players -----------------------------------------------------------------------------------


def _status(view: dict[str, Any], seat: int | None, cat: Catalog) -> str:
    """Whose turn it is, or who won."""
    current = view.get("current_player")
    if current is None:
        winners = view.get("winners", [])
        sep = cat.text("ui.list_separator") if cat.has("ui.list_separator") else ", "
        return cat.text("view.over", who=sep.join(cat.player(w) for w in winners))
    line = cat.text("web.your_turn") if current == seat else cat.text("view.turn", who=current)
    if view.get("draws_this_turn"):
        line += "  ·  " + cat.text("view.draws", count=view["draws_this_turn"])
    return line


def _players(view: dict[str, Any], seat: int | None, cat: Catalog) -> str:
    """The heading (round, kind of game, pool) and one panel per seat: number, colour, name,
    score, tiles on the rack; the seat to play is framed in gold, winners carry a star."""
    options = view.get("options", {})
    kind = cat.text("view.match", target=options.get("target", 400)) if options.get("match") else cat.text(
        "view.single")
    heading = "  ·  ".join([cat.text("view.round", round=view.get("round", 1)), kind,
                            cat.text("view.pool", count=view.get("pool", 0))])
    current = view.get("current_player")
    winners = set(view.get("winners", [])) if current is None else set()
    scores = view.get("scores", [])
    n = len(scores)
    rows = (n + 1) // 2
    top = 62.0
    gap, card_h = 10.0, 66.0
    card_w = (WIDTH - 10 - gap) / 2
    height = top + rows * (card_h + gap)
    out = [
        el("rect", {"x": 0, "y": 0, "width": WIDTH, "height": height, "rx": 10, "fill": PAPER}),
        _label(14, 24, heading, 16, fill=MUTED),
        _label(14, 48, _status(view, seat, cat), 19, font_weight="bold", fill=INK),
    ]
    for s, score in enumerate(scores):
        x = 5 + (s % 2) * (card_w + gap)
        y = top + (s // 2) * (card_h + gap)
        colour = SEAT_COLOURS[s % len(SEAT_COLOURS)]
        turn = s == current
        name = cat.player(s)
        shown = _short(name) + (f" ({cat.text('web.you')})" if s == seat else "")
        count = view.get("rack_sizes", [0] * n)[s]
        card = [
            el("title", {}, svg.text(f"{name}: {score}")),
            el("rect", {"x": x, "y": y, "width": card_w, "height": card_h, "rx": 9, "fill": "#ffffff",
                        "stroke": GOLD_DARK if turn else "#d8cfbb", "stroke_width": 4 if turn else 1.5}),
            el("rect", {"x": x, "y": y, "width": 8, "height": card_h, "rx": 4, "fill": colour}),
            el("circle", {"cx": x + 34, "cy": y + card_h / 2, "r": 17, "fill": colour}),
            _label(x + 34, y + card_h / 2 + 1, str(s + 1), 18, fill="#fff", font_weight="bold",
                   text_anchor="middle", dominant_baseline="central"),
            _label(x + 60, y + 27, ("▶ " if turn else "") + shown, 17, fill=INK,
                   font_weight="bold" if turn else "normal"),
            _poly([(x + 61, y + 52), (x + 68, y + 40), (x + 75, y + 52)], fill="#8c7a5b"),
            _label(x + 81, y + 52, cat.text("web.rack_count", count=count), 14, fill=MUTED),
            _label(x + card_w - 14, y + 44, str(score), 28, fill=INK, font_weight="bold", text_anchor="end"),
        ]
        if s in winners:
            card.append(_label(x + card_w - 14, y + 17, "★ " + cat.text("web.winner"), 13, fill=GOLD_DARK,
                               font_weight="bold", text_anchor="end"))
        out.append(el("g", {"class_": "tri-seat", "data_seat": s}, *card))
    return _drawing(WIDTH, height, out, cat.text("view.scores"), kind="board tri-players")


# -- the table ---------------------------------------------------------------------------------


def _table(view: dict[str, Any], places: list[dict[str, Any]], cat: Catalog) -> str:
    """The lattice: placed tiles with their corner numbers (the last one gold, starred), the open
    cells with their letters (while the game goes on), and on each cell the moves that put a
    rack tile there (the opening tile's cell too, which is not yet "open")."""
    tiles = view.get("board", [])
    over = view.get("current_player") is None
    keys = {} if over else open_keys(view)
    fits: dict[tuple[int, int, str], list[dict[str, Any]]] = {}
    for move in places:
        a = move["action"]
        fits.setdefault((a["x"], a["y"], a["dir"]), []).append(move)
    cells = {where: cell_points(*where, EDGE) for where in [*keys, *(w for w in fits if w not in keys)]}
    drawn = [(t, cell_points(t["x"], t["y"], t["dir"], EDGE)) for t in tiles]
    shapes = [*cells.values(), *(p for _, p in drawn)]
    xs = [x for pts in shapes for x, _ in pts] or [0.0, EDGE]
    ys = [y for pts in shapes for _, y in pts] or [-EDGE, 0.0]
    margin, legend = 24.0, 34.0
    width = max(max(xs) - min(xs) + 2 * margin, WIDTH)
    height = max(max(ys) - min(ys) + 2 * margin, 4 * EDGE) + legend
    left = (min(xs) + max(xs)) / 2 - width / 2
    top = (min(ys) + max(ys)) / 2 - (height - legend) / 2
    if not drawn:
        top -= 30  # room for the opening note above the first cell
        height += 30
    out = [el("style", {}, STYLE),
           el("rect", {"x": round(left, 1), "y": round(top, 1), "width": round(width, 1), "height": round(height, 1),
                       "rx": 14, "fill": FELT, "stroke": FELT_EDGE, "stroke_width": 6})]
    size = EDGE * 0.25
    for where, pts in cells.items():
        playable = where in fits
        cx, cy = centre(pts)
        out.append(_poly(pts, fill=GOLD if playable else "#ffffff", fill_opacity=0.22 if playable else 0.05,
                         stroke=GOLD if playable else "#cfe3d4", stroke_width=2.5 if playable else 1,
                         stroke_dasharray=None if playable else "4 4", class_="tri-open"))
        if where in keys:
            out.append(_label(cx, cy, keys[where], size * (0.95 if playable else 0.75),
                              fill=GOLD if playable else "#cfe3d4", text_anchor="middle",
                              dominant_baseline="central", font_weight="bold" if playable else None))
    last = len(drawn) - 1
    for i, (tile, pts) in enumerate(drawn):
        lit = i == last
        shape = [
            _poly(pts, fill=GOLD if lit else IVORY, stroke=GOLD_DARK if lit else BROWN,
                  stroke_width=3.5 if lit else 1.5, stroke_linejoin="round"),
            _numbers(pts, tile["corners"], size),
        ]
        if lit:
            cx, cy = centre(pts)
            shape.append(_label(cx, cy, "★", size * 0.8, fill=GOLD_DARK, text_anchor="middle",
                                dominant_baseline="central"))
            shape.insert(0, el("title", {}, svg.text(cat.text("web.last_tile", tile=tile["tile"]))))
        out.append(el("g", {"class_": "tri-tile tri-last" if lit else "tri-tile", "data_tile": tile["tile"]}, *shape))
    for where, moves in fits.items():
        pts = cells[where]
        for move in moves:
            a = move["action"]
            attrs = {**svg.move(move["id"], action_label(a, cat, view), needs=a["tile"]), "class_": "move tri-fit"}
            ghost = el("g", {"class_": "tri-ghost"},
                       _poly(pts, fill=IVORY, stroke=GOLD, stroke_width=3, stroke_linejoin="round"),
                       _numbers(pts, shown_numbers(a["tile"], a.get("rot", 0)), size, fill=BROWN))
            out.append(el("g", attrs, _poly(pts, fill="#ffffff", fill_opacity=0), ghost))
    if not drawn:
        out.append(_label(left + width / 2, top + 30, cat.text("view.empty_board"), 17, fill="#fff",
                          text_anchor="middle"))
        opening = view.get("opening", [])
        if opening and opening[-1]:
            draws = ", ".join(f"{cat.player(s)} {t}" for s, t in opening[-1])
            out.append(_label(left + width / 2, top + 54, f"{cat.text('view.opening')}: {draws}", 14,
                              fill="#e4efe6", text_anchor="middle"))
    notes = ([cat.text("web.legend_last")] if drawn else []) + ([cat.text("web.legend_fit")] if fits else [])
    if notes:
        legend_y = top + height - legend / 2
        x = left + 20
        if drawn:
            out.append(_poly([(x, legend_y + 7), (x + 8, legend_y - 7), (x + 16, legend_y + 7)], fill=GOLD,
                             stroke=GOLD_DARK))
            x += 24
        out.append(_label(x, legend_y, "   ·   ".join(notes), 14, fill="#e4efe6", dominant_baseline="central"))
    return _drawing(width, height, out, cat.text("component.board"), left, top, kind="board tri-table")


# -- the rack ----------------------------------------------------------------------------------


def _rack(view: dict[str, Any], rack: list[str], places: list[dict[str, Any]], others: list[dict[str, Any]],
          cat: Catalog) -> str:
    """The seat's own tiles (hidden from everyone else): the ones that fit somewhere can be
    picked, the rest are dimmed while it is the seat's turn; then draw / pass / stop."""
    fitting = {m["action"]["tile"] for m in places}
    playing = bool(places or others)
    edge, step, pad = 62.0, 70.0, 16.0
    per_row = int((WIDTH - 2 * pad + step - edge) // step)
    rows = max(1, -(-len(rack) // per_row))
    top = 52.0
    button_h = 46.0
    height = top + rows * (edge * 0.87 + 14) + (button_h + 20 if others else 8)
    drawn = view.get("last_drawn")
    title = cat.text("view.rack")
    if drawn:
        title += "  ·  " + cat.text("view.last_drawn", tile=drawn)
    out = [el("rect", {"x": 0, "y": 0, "width": WIDTH, "height": round(height, 1), "rx": 10, "fill": PAPER}),
           _label(pad, 26, title, 18, font_weight="bold", fill=INK)]
    if places:
        out.append(_label(pad, 45, cat.text("web.hint"), 14, fill=MUTED))
    h = edge * 0.8660254037844386
    for i, name in enumerate(rack):
        x = pad + (i % per_row) * step
        y = top + (i // per_row) * (h + 14) + 4
        pts = [(x, y + h), (x + edge / 2, y), (x + edge, y + h)]
        new = name == drawn
        shape = [_poly(pts, fill=IVORY, stroke=GOLD_DARK if new else BROWN, stroke_width=3.5 if new else 1.5,
                       stroke_linejoin="round"),
                 _numbers(pts, shown_numbers(name, 0), edge * 0.25)]
        if new:
            shape.append(_label(x + edge / 2, y + h * 0.62, "★", edge * 0.2, fill=GOLD_DARK, text_anchor="middle",
                                dominant_baseline="central"))
        attrs: svg.Attrs
        if name in fitting:
            attrs = {**svg.pick(name, cat.text("web.pick", tile=name)), "class_": "pick tri-rack-tile"}
        else:
            attrs = {"class_": "tri-rack-tile", "opacity": 0.45 if playing else None, "data_tile": name}
            shape.insert(0, el("title", {}, svg.text(cat.text("web.no_fit", tile=name) if playing else name)))
        out.append(el("g", attrs, *shape))
    if others:
        y = height - button_h - 12
        bw = (WIDTH - 2 * pad - 12 * (len(others) - 1)) / len(others)
        for k, move in enumerate(others):
            x = pad + k * (bw + 12)
            label = action_label(move["action"], cat, view)
            out.append(el("g", svg.move(move["id"], label),
                          el("rect", {"x": round(x, 1), "y": round(y, 1), "width": round(bw, 1), "height": button_h,
                                      "rx": 10, "fill": BROWN, "stroke": INK, "stroke_width": 1.5}),
                          _label(x + bw / 2, y + button_h / 2, label, 17, fill="#fff", font_weight="bold",
                                 text_anchor="middle", dominant_baseline="central")))
    return _drawing(WIDTH, height, out, cat.text("view.rack"), kind="board tri-rack")


def prompt(view: dict[str, Any], seat: int | None, legal: list[dict[str, Any]], cat: Catalog) -> str:
    """What `seat` must do now, in words (boards/__init__.py)."""
    return ""  # TODO this session: each game's prompt


def standings(view: dict[str, Any], cat: Catalog) -> list[str]:
    """Each seat's running standing (boards/__init__.py)."""
    return []  # TODO this session: each game's standings
