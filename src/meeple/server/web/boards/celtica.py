"""Celtica in the browser: the druids' winding path, the display of amulet parts, the seat's hand
and every player's amulets, drawn only from the seat's view (see boards/__init__.py).

Moves sit where a player reaches for them: a druid on the path (or its cards in the hand) is
picked, then a card combination chip beside the hand plays it and says where it lands; a part
in the display is taken or bought; an own part is given up at a ruin, or picked and then swapped
for a display part at the end; the cult-site choice and "done" are buttons under the path.
Colours always come with the druid's letter, locations with their kind's symbol.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from meeple.core.i18n import Catalog
from meeple.games.celtica.describe import COLOURS, FILL, INK, KIND_FILL, PARTS, action_label, destination
from meeple.server.web.svg import el, move, pick, svg, text

WIDTH = 400
PER_ROW = 5
STEP_Y = 92
INKED = "#2e3b32"
PAPER = "#f5eedc"
GOLD = "#c9a227"
FAINT = "#ddd3bb"
#: Latin first, then Traditional Chinese faces common on phones and desktops.
FONT = {"font_family": "'Noto Sans', 'Noto Sans CJK TC', 'PingFang TC', 'Microsoft JhengHei', "
                       "'Noto Serif CJK TC', sans-serif", "fill": INKED}


class Moves:
    """The seat's legal moves by what they do, so each drawn thing can find its own id."""

    def __init__(self, legal: list[dict[str, Any]], view: dict[str, Any], cat: Catalog) -> None:
        self.play: dict[str, list[tuple[int, int, int]]] = {}
        self.take: dict[str, int] = {}
        self.give: dict[str, int] = {}
        self.buy: dict[str, int] = {}
        self.swap: dict[tuple[str, str], int] = {}
        self.buttons: list[tuple[int, str]] = []
        self.labels: dict[int, str] = {}
        for entry in legal:
            number, action = int(entry["id"]), entry["action"]
            kind = action.get("type")
            self.labels[number] = action_label(action, cat, view)
            if kind == "play":
                self.play.setdefault(action["colour"], []).append((action["cards"], action["experience"], number))
            elif kind == "take":
                self.take[action["part"]] = number
            elif kind == "give_up":
                self.give[action["part"]] = number
            elif kind == "buy":
                self.buy[action["part"]] = number
            elif kind == "swap":
                self.swap[(action["give"], action["take"])] = number
            elif kind == "cult":
                word = "web.draw" if action["draw"] else "web.no_draw"
                self.buttons.append((number, cat.text(word)))
            elif kind == "done":
                self.buttons.append((number, cat.text("web.done")))

    def givers(self) -> set[str]:
        """Own parts that can be swapped away (each is a pick)."""
        return {give for give, _ in self.swap}


def board(view: dict[str, Any], seat: int | None, legal: list[dict[str, Any]], cat: Catalog, events: Sequence[dict[str, Any]] = ()) -> str:
    """The table as `seat` sees it: status and path, the display, the hand, the players."""
    moves = Moves(legal, view, cat)
    parts = [_table(view, seat, moves, cat)]
    if seat is not None:
        parts.append(_hand(view, seat, moves, cat))
    parts.append(_players(view, seat, moves, cat))
    return el("div", {"class_": "celtica-board"}, *parts)


# -- the path, display and piles -----------------------------------------------------------------

def _where(index: int) -> tuple[float, float]:
    """A location's centre: the path snakes left to right, then right to left, row by row."""
    row, col = divmod(index, PER_ROW)
    if row % 2:
        col = PER_ROW - 1 - col
    return 44 + col * (WIDTH - 88) / (PER_ROW - 1), 92 + row * STEP_Y


def _table(view: dict[str, Any], seat: int | None, moves: Moves, cat: Catalog) -> str:
    locations = view["board"]
    rows = math.ceil(len(locations) / PER_ROW)
    top = 92 + (rows - 1) * STEP_Y + 62
    out = [el("rect", {"width": WIDTH, "height": 1, "fill": PAPER})]
    out.append(_status(view, seat, cat))
    points = " ".join(f"{x:g},{y:g}" for x, y in map(_where, range(len(locations))))
    out.append(el("polyline", {"points": points, "fill": "none", "stroke": "#b9a77e", "stroke_width": 14,
                               "stroke_linejoin": "round", "stroke_linecap": "round"}))
    for index, location in enumerate(locations):
        out.append(_location(index, location, cat))
    for c, colour in enumerate(COLOURS):
        out.append(_druid(view, c, colour, moves, cat))
    y = top
    if moves.buttons:
        out.append(_buttons(moves, y))
        y += 48
    out.append(_display(view, moves, cat, y))
    y += 104
    out.append(_piles(view, cat, y))
    y += 34
    height = y
    out[0] = el("rect", {"width": WIDTH, "height": height, "rx": 10, "fill": PAPER})
    return svg(WIDTH, height, [el("g", FONT, *out)], cat.text("view.board"))


def _status(view: dict[str, Any], seat: int | None, cat: Catalog) -> str:
    """Round, phase and whose turn, or the result once the game is over."""
    line = [cat.text("view.round", round=view["round"])]
    if view["final_round"]:
        line.append(cat.text("view.final_round"))
    line.append(cat.name("phase", view["phase"]))
    if view["pending"]:
        line.append(cat.text("view.pending", count=view["pending"]))
    if view["phase"] == "over":
        names = ", ".join(cat.player(w) for w in view["winners"])
        second = cat.text("web.winners", names=names)
    elif view["current_player"] == seat:
        second = cat.text("web.your_turn")
    else:
        second = cat.text("web.turn", player=view["current_player"])
    out = [el("text", {"x": 12, "y": 20, "font_size": 13}, text(" · ".join(line))),
           el("text", {"x": 12, "y": 38, "font_size": 14, "font_weight": "bold"}, text(second))]
    if view["end_reason"]:
        out.append(el("text", {"x": 12, "y": 53, "font_size": 11, "fill": "#8b3a3a"},
                      text(cat.name("end_reason", view["end_reason"]))))
    return el("g", {}, *out)


def _location(index: int, location: dict[str, Any], cat: Catalog) -> str:
    """One stop on the path: shape and colour by kind, its symbol, +n parts taken or -n given up."""
    x, y = _where(index)
    kind, number = location["kind"], location["number"]
    fill = KIND_FILL.get(kind, "#eeeeee")
    title = el("title", {}, text(f"{index}: {cat.name('location', kind)}"))
    if kind == "ruin":
        r = 22
        pts = " ".join(f"{x + r * math.cos(math.pi / 8 + k * math.pi / 4):.1f},"
                       f"{y + r * math.sin(math.pi / 8 + k * math.pi / 4):.1f}" for k in range(8))
        shape = el("polygon", {"points": pts, "fill": fill, "stroke": "#8b3a3a", "stroke_width": 2})
    elif kind == "cult":
        r = 24
        pts = f"{x:g},{y - r:g} {x + r:g},{y:g} {x:g},{y + r:g} {x - r:g},{y:g}"
        shape = el("polygon", {"points": pts, "fill": fill, "stroke": "#6a3d7a", "stroke_width": 2})
    else:
        ring = kind in ("start", "goal")
        dashed = "4 2" if kind == "start" else None
        shape = el("circle", {"cx": x, "cy": y, "r": 22, "fill": fill, "stroke": INKED,
                              "stroke_width": 3 if ring else 1.5, "stroke_dasharray": dashed})
    symbol = cat.text(f"view.symbol.{kind}")
    sign = "−" if kind == "ruin" else "+"
    out = [title, shape,
           el("text", {"x": x, "y": y + (0 if number else 5), "text_anchor": "middle", "font_size": 14,
                       "font_weight": "bold"}, text(symbol)),
           el("text", {"x": x - 26, "y": y - 18, "font_size": 9, "fill": "#7a6f57"}, text(index))]
    if number:
        out.append(el("text", {"x": x, "y": y + 14, "text_anchor": "middle", "font_size": 11},
                      text(f"{sign}{number}")))
    return el("g", {"class_": f"location {kind}"}, *out)


def _pawn(x: float, y: float, colour: str, letter: str) -> list[str]:
    """A druid: a hooded robe with the colour's letter on it."""
    robe = f"M{x - 7:g},{y + 10:g} L{x - 4:g},{y - 3:g} L{x + 4:g},{y - 3:g} L{x + 7:g},{y + 10:g} Z"
    return [el("path", {"d": robe, "fill": FILL[colour], "stroke": INKED, "stroke_width": 1}),
            el("circle", {"cx": x, "cy": y - 7, "r": 4.5, "fill": FILL[colour], "stroke": INKED, "stroke_width": 1}),
            el("text", {"x": x, "y": y + 7.5, "text_anchor": "middle", "font_size": 8, "font_weight": "bold",
                        "fill": INK[colour]}, text(letter))]


def _druid(view: dict[str, Any], c: int, colour: str, moves: Moves, cat: Catalog) -> str:
    """The druid of colour `c` in its own slot under its location; a pick when it can be moved."""
    x, y = _where(view["druids"][c])
    x += (c - 2) * 15
    y += 36
    letter = cat.text(f"view.druid_mark.{colour}")
    name = cat.text("web.druid", colour=colour)
    hooks: dict[str, Any] = {"class_": "druid"}
    if colour in moves.play:
        hooks = pick(f"druid-{colour}", cat.text("web.pick_druid", colour=colour))
    return el("g", hooks, el("title", {}, text(name)), *_pawn(x, y, colour, letter))


def _buttons(moves: Moves, y: float) -> str:
    """The cult-site choice and "done": plain buttons under the path."""
    out = []
    width = (WIDTH - 24 - 8 * (len(moves.buttons) - 1)) / len(moves.buttons)
    for k, (number, caption) in enumerate(moves.buttons):
        x = 12 + k * (width + 8)
        out.append(el("g", move(number, moves.labels[number]),
                      el("rect", {"x": x, "y": y, "width": width, "height": 36, "rx": 8, "fill": "#3f6b52"}),
                      el("text", {"x": x + width / 2, "y": y + 23, "text_anchor": "middle", "font_size": 13,
                                  "fill": "#ffffff"}, text(caption))))
    return el("g", {"class_": "buttons"}, *out)


def part_icon(part: str, x: float, y: float, r: float, fill: str = GOLD) -> list[str]:
    """A part as a piece of an amulet: the centre disc or one of the eight ring segments."""
    outline = [el("circle", {"cx": x, "cy": y, "r": r, "fill": "none", "stroke": FAINT, "stroke_width": 1})]
    index = PARTS.index(part)
    if index == 0:
        return outline + [el("circle", {"cx": x, "cy": y, "r": r * 0.42, "fill": fill, "stroke": INKED,
                                        "stroke_width": 0.8})]
    return outline + [_segment(index - 1, x, y, r, fill)]


def _segment(k: int, x: float, y: float, r: float, fill: str) -> str:
    """Ring segment `k` (0-7, clockwise from the top) of an amulet of radius `r`."""
    inner = r * 0.5
    a0, a1 = math.radians(-90 + 45 * k + 2), math.radians(-90 + 45 * (k + 1) - 2)

    def at(radius: float, angle: float) -> str:
        return f"{x + radius * math.cos(angle):.2f},{y + radius * math.sin(angle):.2f}"

    d = (f"M{at(r, a0)} A{r:g},{r:g} 0 0 1 {at(r, a1)} L{at(inner, a1)} "
         f"A{inner:g},{inner:g} 0 0 0 {at(inner, a0)} Z")
    return el("path", {"d": d, "fill": fill, "stroke": INKED, "stroke_width": 0.8})


def _display(view: dict[str, Any], moves: Moves, cat: Catalog, y: float) -> str:
    """The nine display spaces by part type: take or buy by clicking one, swap with the badge."""
    out = [el("text", {"x": 12, "y": y + 14, "font_size": 13, "font_weight": "bold"}, text(cat.text("view.display")))]
    pitch = (WIDTH - 16) / len(PARTS)
    for index, part in enumerate(PARTS):
        count = view["display"][index]
        x = 8 + index * pitch
        cx = x + pitch / 2
        tile = [el("rect", {"x": x + 2, "y": y + 22, "width": pitch - 4, "height": 54, "rx": 6,
                            "fill": "#fffaf0" if count else "#ece4cf", "stroke": FAINT}),
                *(part_icon(part, cx, y + 40, 13) if count else []),
                el("text", {"x": cx, "y": y + 70, "text_anchor": "middle", "font_size": 10},
                   text(f"{cat.text('view.short.' + part)}×{count}"))]
        number = moves.take.get(part, moves.buy.get(part))
        hooks = move(number, moves.labels[number]) if number is not None else {"class_": "part"}
        out.append(el("g", hooks, el("title", {}, text(cat.name("part", part))), *tile))
        for (give, take), swap_id in moves.swap.items():
            if take == part:
                out.append(el("g", move(swap_id, moves.labels[swap_id], needs=f"give-{give}"),
                              el("rect", {"x": x + 6, "y": y + 79, "width": pitch - 12, "height": 16, "rx": 4,
                                          "fill": "#3f6b52"}),
                              el("text", {"x": cx, "y": y + 91, "text_anchor": "middle", "font_size": 10,
                                          "fill": "#ffffff"}, text("⇄"))))
    return el("g", {"class_": "display"}, *out)


def _piles(view: dict[str, Any], cat: Catalog, y: float) -> str:
    """Pile sizes and where the board comes from."""
    line = "  ·  ".join([cat.text("view.supply", count=view["supply"]),
                         cat.text("view.druid_deck", count=view["druid_deck"]),
                         cat.text("view.experience_deck", count=view["experience_deck"])])
    return el("g", {"font_size": 11},
              el("text", {"x": 12, "y": y + 6}, text(line)),
              el("text", {"x": 12, "y": y + 22, "fill": "#7a6f57", "font_size": 10},
                 text(cat.text("view." + view["provenance"]))))


# -- the seat's hand -----------------------------------------------------------------------------

def _hand(view: dict[str, Any], seat: int, moves: Moves, cat: Catalog) -> str:
    """The seat's druid and experience cards by colour; beside each colour its play chips."""
    mine = view["players"][seat]
    out = [el("text", {"x": 12, "y": 20, "font_size": 13, "font_weight": "bold"}, text(cat.text("web.your_cards")))]
    if mine.get("must_play"):
        out.append(el("text", {"x": WIDTH - 12, "y": 20, "font_size": 12, "text_anchor": "end", "fill": "#8b3a3a"},
                      text(cat.text("view.must_play", colour=mine["must_play"]))))
    y = 30.0
    shown = False
    for c, colour in enumerate(COLOURS):
        cards, extra = mine["hand"][c], mine["experience"][c]
        if not cards and not extra:
            continue
        shown = True
        chips = sorted(moves.play.get(colour, []))
        lines = max(1, math.ceil(len(chips) / 6))
        height = max(60.0, lines * 36.0 + 6)
        out.append(_colour_row(view, colour, cards, extra, chips, moves, cat, y, height))
        y += height + 6
    if not shown:
        out.append(el("text", {"x": 12, "y": y + 16, "font_size": 12}, text(cat.text("web.no_cards"))))
        y += 28
    height = y + 6
    body = [el("rect", {"width": WIDTH, "height": height, "rx": 10, "fill": PAPER}), *out]
    return svg(WIDTH, height, [el("g", FONT, *body)], cat.text("view.hand"))


def _card(x: float, y: float, colour: str, letter: str, count: int, experience: bool) -> list[str]:
    """A card of `colour` with its letter and how many are held (experience cards bear a star)."""
    w, h = (30, 42) if experience else (34, 50)
    mark = "✦" + letter if experience else letter
    return [el("rect", {"x": x, "y": y, "width": w, "height": h, "rx": 4, "fill": FILL[colour], "stroke": INKED,
                        "stroke_width": 2 if experience else 1, "stroke_dasharray": "3 2" if experience else None}),
            el("text", {"x": x + w / 2, "y": y + 17, "text_anchor": "middle", "font_size": 11, "font_weight": "bold",
                        "fill": INK[colour]}, text(mark)),
            el("text", {"x": x + w / 2, "y": y + h - 8, "text_anchor": "middle", "font_size": 12,
                        "fill": INK[colour]}, text(f"×{count}"))]


def _colour_row(view: dict[str, Any], colour: str, cards: int, extra: int, chips: list[tuple[int, int, int]],
                moves: Moves, cat: Catalog, y: float, height: float) -> str:
    """One colour of the hand: its cards (a pick when playable) and its card-combination chips."""
    letter = cat.text(f"view.druid_mark.{colour}")
    glyphs: list[str] = [el("title", {}, text(cat.name("colour", colour)))]
    if cards:
        glyphs += _card(10, y + 4, colour, letter, cards, False)
    if extra:
        glyphs += _card(48, y + 8, colour, letter, extra, True)
    hooks: dict[str, Any] = {"class_": "cards"}
    if chips:
        hooks = pick(f"druid-{colour}", cat.text("web.pick_druid", colour=colour))
    out = [el("rect", {"x": 4, "y": y, "width": WIDTH - 8, "height": height, "rx": 8, "fill": "#ece4cf"}),
           el("g", hooks, *glyphs)]
    for k, (n, e, number) in enumerate(chips):
        row, col = divmod(k, 6)
        x, cy = 84 + col * 52, y + 4 + row * 36
        to = destination(view, colour, n + e)
        where = cat.text("view.symbol." + view["board"][to]["kind"])
        out.append(el("g", move(number, moves.labels[number], needs=f"druid-{colour}"),
                      el("rect", {"x": x, "y": cy, "width": 48, "height": 32, "rx": 6, "fill": "#fffaf0",
                                  "stroke": FILL[colour] if colour != "white" else INKED, "stroke_width": 2}),
                      el("text", {"x": x + 24, "y": cy + 13, "text_anchor": "middle", "font_size": 11,
                                  "font_weight": "bold"}, text(f"{n}+{e}✦" if e else f"{n}")),
                      el("text", {"x": x + 24, "y": cy + 27, "text_anchor": "middle", "font_size": 10},
                         text(f"→{to} {where}"))))
    return el("g", {"class_": f"hand {colour}"}, *out)


# -- the players ---------------------------------------------------------------------------------

def _players(view: dict[str, Any], seat: int | None, moves: Moves, cat: Catalog) -> str:
    """A panel per player: name and marks, card counts, parts by type and the amulets they make."""
    out = []
    y = 6.0
    for index, player in enumerate(view["players"]):
        height = 138.0
        out.append(_panel(view, index, player, index == seat, moves, cat, y, height))
        y += height + 8
    height = y
    return svg(WIDTH, height, [el("g", FONT, *out)], cat.text("view.amulets"))


def _panel(view: dict[str, Any], index: int, player: dict[str, Any], own: bool, moves: Moves, cat: Catalog,
           y: float, height: float) -> str:
    turn = view["phase"] != "over" and view["current_player"] == index
    won = view["phase"] == "over" and index in view["winners"]
    marks = []
    if own:
        marks.append(cat.text("web.you"))
    if turn:
        marks.append(cat.text("view.to_act"))
    if won:
        marks.append("★ " + cat.text("view.winner"))
    if player["owes_card"]:
        marks.append(cat.text("view.owes_card"))
    out = [el("rect", {"x": 4, "y": y, "width": WIDTH - 8, "height": height, "rx": 10, "fill": PAPER,
                       "stroke": GOLD if turn or won else FAINT, "stroke_width": 3 if turn or won else 1}),
           el("text", {"x": 14, "y": y + 20, "font_size": 14, "font_weight": "bold"}, text(cat.player(index))),
           el("text", {"x": WIDTH - 14, "y": y + 20, "font_size": 11, "text_anchor": "end"},
              text(" · ".join(marks))),
           el("text", {"x": 14, "y": y + 38, "font_size": 11},
              text(cat.text("web.holding", druid=player["druid_cards"], experience=player["experience_cards"],
                            complete=player["amulets"]["complete"])))]
    pitch = (WIDTH - 24) / len(PARTS)
    for t, part in enumerate(PARTS):
        count = player["parts"][t]
        x = 12 + t * pitch
        cx = x + pitch / 2
        tile = [el("rect", {"x": x + 2, "y": y + 46, "width": pitch - 4, "height": 44, "rx": 5,
                            "fill": "#fffaf0" if count else "#ece4cf", "stroke": FAINT}),
                *(part_icon(part, cx, y + 62, 11) if count else []),
                el("text", {"x": cx, "y": y + 86, "text_anchor": "middle", "font_size": 9},
                   text(f"{cat.text('view.short.' + part)}×{count}"))]
        hooks: dict[str, Any] = {"class_": "part"}
        if own and part in moves.give:
            hooks = move(moves.give[part], moves.labels[moves.give[part]])
        elif own and part in moves.givers():
            hooks = pick(f"give-{part}", cat.text("web.pick_give", part=part))
        out.append(el("g", hooks, el("title", {}, text(cat.name("part", part))), *tile))
    out.append(_amulets(player["parts"], y + 96, cat))
    return el("g", {"class_": "player" + (" current" if turn else "")}, *out)


def _amulets(counts: list[int], y: float, cat: Catalog) -> str:
    """The player's amulets as the rules build them: amulet k holds type t when count[t] > k."""
    out = []
    total = max(counts) if counts else 0
    for k in range(total):
        x = 30 + k * 36
        if x > WIDTH - 20:
            break
        whole = all(c > k for c in counts)
        out.append(el("circle", {"cx": x, "cy": y + 18, "r": 16, "fill": "#fffaf0" if not whole else "#f3e3a6",
                                 "stroke": GOLD if whole else FAINT, "stroke_width": 2 if whole else 1}))
        for t, part in enumerate(PARTS):
            if counts[t] > k:
                out.extend(part_icon(part, x, y + 18, 15)[1:])
    if not total:
        out.append(el("text", {"x": 14, "y": y + 22, "font_size": 11}, text(cat.text("view.nothing"))))
    return el("g", {"class_": "amulets"}, el("title", {}, text(cat.text("view.amulets"))), *out)


def prompt(view: dict[str, Any], seat: int | None, legal: list[dict[str, Any]], cat: Catalog) -> str:
    """What `seat` must do now, in words (boards/__init__.py)."""
    return ""  # TODO this session: each game's prompt


def standings(view: dict[str, Any], cat: Catalog) -> list[str]:
    """Each seat's running standing (boards/__init__.py)."""
    return []  # TODO this session: each game's standings
