"""Celtica in the browser, drawn only from the seat's view (see boards/__init__.py), as two
drawings the wrapper lays side by side on a laptop and one above the other on a phone:

- the path: the round, the piles, the druids' winding path with its sites and druids, the seat's
  cards by colour and under them the moves being chosen (how far to move a druid, the cult-site
  choice, "done");
- the parts: the display of amulet parts, then every player's parts and amulets, the seat's own
  first.

Moves sit where a player reaches for them and every control is at least 45 units (40 CSS px on
a phone) square: a colour's cards are picked, then a chip right under them says how many cards
and where the druid lands (C5); a display part is taken (C6) or bought (C11); an own part is given
up at a ruin (C7), or picked and then swapped for a display part at the end (C11).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from meeple.core.i18n import Catalog
from meeple.games.celtica.describe import COLOURS, FILL, PARTS, action_label, destination, phase_name
from meeple.server.web.boards.celtica_art import (
    CHANGED,
    FAINT,
    GOLD,
    INKED,
    PAPER,
    card,
    changed_box,
    changed_ring,
    druid,
    part_icon,
    piece,
    site,
    star,
)
from meeple.server.web.svg import el, move, name_label, pick, svg, text, text_width

if TYPE_CHECKING:
    from meeple.games.celtica.view_types import CelticaPlayer, CelticaView, Location

WIDTH = 400
PER_ROW = 5
PATH_TOP = 74
STEP_Y = 84
SITE_R = 22
#: A control's smallest side: 45 units are 40 CSS px when a drawing is 356 px wide (a phone).
TAP = 45
CHIP_W, CHIP_H, CHIPS_PER_ROW = 74, 48, 5
TILE_W, TILE_H = 76, 62
LIGHT = "#fffaf0"
SHADE = "#ece4cf"
MUTED = "#7a6f57"
#: Latin first, then Traditional Chinese faces common on phones and desktops.
FONT = {"font_family": "'Noto Sans', 'Noto Sans CJK TC', 'PingFang TC', 'Microsoft JhengHei', "
                       "'Noto Serif CJK TC', sans-serif", "fill": INKED}
#: The two drawings side by side when there is room for both (a laptop), else stacked (a phone).
LAYOUT = ("display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,340px),1fr));"
          "gap:.5rem;align-items:start")


class Moves:
    """The seat's legal moves by what they do, so each drawn thing can find its own id."""

    def __init__(self, legal: list[dict[str, Any]], view: CelticaView, cat: Catalog) -> None:
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
                self.buttons.append((number, cat.text("board.draw" if action["draw"] else "board.no_draw")))
            elif kind == "done":
                self.buttons.append((number, cat.text("board.done")))

    def givers(self) -> set[str]:
        """Own parts that can be swapped away (each is a pick)."""
        return {give for give, _ in self.swap}


@dataclass
class Changes:
    """What the step's events changed, for the `last-change` outlines."""

    druids: set[str] = field(default_factory=set)
    trails: list[tuple[str, int, int]] = field(default_factory=list)
    parts: set[tuple[int, str]] = field(default_factory=set)
    display: set[str] = field(default_factory=set)
    cards: set[int] = field(default_factory=set)

    @classmethod
    def of(cls, events: Sequence[dict[str, Any]]) -> Changes:
        found = cls()
        for event in events:
            key, params = event.get("key"), event.get("params") or {}
            who: Any = event.get("player")  # a seat for every event read here
            if key == "played":
                found.druids.add(params["colour"])
                found.trails.append((params["colour"], int(params["from"]), int(params["to"])))
                found.cards.add(who)
            elif key in ("no_effect", "druid_home"):
                found.druids.add(params["colour"])
                found.cards.add(who)
            elif key in ("took", "gave_up", "bought"):
                found.parts.add((who, params["part"]))
            elif key == "swapped":
                found.parts.update({(who, params["give"]), (who, params["take"])})
                found.display.add(params["give"])
            elif key == "display_refilled":
                found.display.update(params["parts"])
            elif key in ("dealt", "experience_drawn", "cult_drew"):
                found.cards.add(who)
        return found


def board(view: CelticaView, seat: int | None, legal: list[dict[str, Any]], cat: Catalog,
          events: Sequence[dict[str, Any]] = ()) -> str:
    """The table as `seat` sees it: the path with the seat's cards, then the parts."""
    moves = Moves(legal, view, cat)
    changes = Changes.of(events)
    return el("div", {"class_": "celtica-board", "style": LAYOUT},
              _path_drawing(view, seat, moves, changes, cat), _parts_drawing(view, seat, moves, changes, cat))


def prompt(view: CelticaView, seat: int | None, legal: list[dict[str, Any]], cat: Catalog) -> str:
    """What `seat` must do now, in words, by phase (C5-C8, C11); "" when it has no move."""
    if not legal or seat is None:
        return ""
    phase = view["phase"]
    if phase == "play":
        owed = view["players"][seat].get("must_play")
        return cat.text("prompt.play_owed", colour=owed) if owed else cat.text("prompt.play")
    if phase in ("take", "give_up"):
        return cat.text(f"prompt.{phase}", count=view["pending"])
    return cat.text(f"prompt.{phase}")


def standings(view: CelticaView, cat: Catalog) -> list[str]:
    """Each seat's complete amulets and the size of its largest incomplete one, the two things
    that decide the game (C2, C12)."""
    return [_standing(player, cat) for player in view["players"]]


def _standing(player: CelticaPlayer, cat: Catalog) -> str:
    """"2 amulets · next 7 of 9": complete amulets, then the largest incomplete one's size."""
    amulets = player["amulets"]
    if amulets["incomplete"]:
        return cat.text("standing.amulets", complete=amulets["complete"], next=amulets["incomplete"][0])
    return cat.text("standing.whole", complete=amulets["complete"])


# -- the path, the seat's cards and the moves being chosen ---------------------------------------

def _where(index: int) -> tuple[float, float]:
    """A location's centre: the path snakes left to right, then right to left, row by row."""
    row, col = divmod(index, PER_ROW)
    if row % 2:
        col = PER_ROW - 1 - col
    return 44 + col * (WIDTH - 88) / (PER_ROW - 1), PATH_TOP + row * STEP_Y


def _slot(index: int, c: int) -> tuple[float, float]:
    """Where druid `c` stands at location `index`: its own slot under the site (feet)."""
    x, y = _where(index)
    return x + (c - 2) * 15, y + SITE_R + 29


def _path_drawing(view: CelticaView, seat: int | None, moves: Moves, changes: Changes, cat: Catalog) -> str:
    locations = view["board"]
    rows = math.ceil(len(locations) / PER_ROW)
    out = [_header(view, cat)]
    points = " ".join(f"{x:g},{y:g}" for x, y in map(_where, range(len(locations))))
    out.append(el("polyline", {"points": points, "fill": "none", "stroke": "#cdbb8f", "stroke_width": 12,
                               "stroke_linejoin": "round", "stroke_linecap": "round"}))
    out += [_location(index, location, cat) for index, location in enumerate(locations)]
    out += [_trail(colour, start, end, cat) for colour, start, end in changes.trails]
    out += [_druid(view, c, colour, colour in changes.druids, cat) for c, colour in enumerate(COLOURS)]
    y: float = PATH_TOP + (rows - 1) * STEP_Y + SITE_R + 34
    if seat is not None:
        hand, y = _hand(view, seat, moves, changes, cat, y)
        out.append(hand)
    if moves.play:
        tray, y = _tray(view, moves, cat, y)
        out.append(tray)
    if moves.buttons:
        out.append(_buttons(moves, y))
        y += 56
    out.append(el("text", {"x": 12, "y": y + 12, "fill": MUTED, "font_size": 10},
                  text(cat.text("view." + view["provenance"]))))
    height = y + 20
    body = [el("rect", {"width": WIDTH, "height": height, "rx": 10, "fill": PAPER}), *out]
    return svg(WIDTH, height, [el("g", FONT, *body)], cat.text("board.drawing"))


def _header(view: CelticaView, cat: Catalog) -> str:
    """Round and phase, the piles, and why the game ended once it has."""
    line = [cat.text("view.round", round=view["round"])]
    if view["final_round"]:
        line.append(cat.text("view.final_round"))
    line.append(phase_name(view, cat))
    if view["pending"]:
        line.append(cat.text("view.pending", count=view["pending"]))
    piles = [cat.text("view.supply", count=view["supply"]), cat.text("view.druid_deck", count=view["druid_deck"]),
             cat.text("view.experience_deck", count=view["experience_deck"])]
    second = el("text", {"x": 12, "y": 37, "font_size": 11, "fill": MUTED}, text(" · ".join(piles)))
    if view["end_reason"]:  # from the end phase on, why the game ended matters more than the piles
        second = el("text", {"x": 12, "y": 37, "font_size": 11, "fill": "#8b3a3a"},
                    text(cat.name("end_reason", view["end_reason"])))
    return el("g", {"class_": "status"},
              el("text", {"x": 12, "y": 20, "font_size": 13, "font_weight": "bold"}, text(" · ".join(line))), second)


def _location(index: int, location: Location, cat: Catalog) -> str:
    """One stop on the path: its picture, its number of parts taken (+) or given up (−) and its
    place on the path."""
    x, y = _where(index)
    kind, number = location["kind"], location["number"]
    title = cat.text("board.location", at=index, location=kind)
    out = [el("title", {}, text(title)), *site(kind, x, y, SITE_R),
           el("text", {"x": x - SITE_R - 2, "y": y - SITE_R + 6, "font_size": 10, "fill": MUTED,
                       "text_anchor": "end" if x < 60 else "start"}, text(index))]
    if kind == "start":
        out[-1] = el("text", {"x": x - SITE_R + 2, "y": y - SITE_R - 3, "font_size": 10, "fill": MUTED}, text(index))
    if number:
        ruin = kind == "ruin"
        out += [el("circle", {"cx": x + 17, "cy": y - 16, "r": 9, "fill": "#8b3a3a" if ruin else "#fffaf0",
                              "stroke": INKED, "stroke_width": 1}),
                el("text", {"x": x + 17, "y": y - 12.5, "font_size": 10, "font_weight": "bold",
                            "text_anchor": "middle", "fill": "#ffffff" if ruin else INKED},
                   text(f"{'−' if ruin else '+'}{number}"))]
    return el("g", {"class_": f"location {kind}", "data_kind": kind, "data_index": index}, *out)


def _druid(view: CelticaView, c: int, colour: str, changed: bool, cat: Catalog) -> str:
    """The druid of colour `c` in its own slot under its location."""
    at = view["druids"][c]
    x, y = _slot(at, c)
    title = cat.text("board.druid", colour=colour, at=at, location=view["board"][at]["kind"])
    out = [el("title", {}, text(title)), *druid(colour, x, y, 1.1)]
    classes = "druid"
    if changed:
        classes += " last-change"
        out.append(changed_box(x - 9.5, y - 31, 19, 34))
    return el("g", {"class_": classes, "data_colour": colour}, *out)


def _trail(colour: str, start: int, end: int, cat: Catalog) -> str:
    """Where a druid just went: its way along the path, a dashed ring where it left, a ring where
    it stopped."""
    points = " ".join(f"{x:g},{y:g}" for x, y in map(_where, range(start, end + 1)))
    fx, fy = _where(start)
    tx, ty = _where(end)
    return el("g", {"class_": "last-change trail", "data_colour": colour},
              el("title", {}, text(cat.text("board.moved", colour=colour, **{"from": start, "to": end}))),
              el("polyline", {"points": points, "fill": "none", "stroke": CHANGED, "stroke_width": 3,
                              "stroke_dasharray": "6 4", "stroke_linejoin": "round", "opacity": 0.8}),
              changed_ring(fx, fy, SITE_R + 4, dashed=True), changed_ring(tx, ty, SITE_R + 4))


def _hand(view: CelticaView, seat: int, moves: Moves, changes: Changes, cat: Catalog,
          y: float) -> tuple[str, float]:
    """The seat's cards by colour, one column each (a pick when that druid can move)."""
    mine = view["players"][seat]
    out = [el("text", {"x": 12, "y": y + 14, "font_size": 13, "font_weight": "bold"},
              text(cat.text("board.your_cards")))]
    if mine.get("must_play"):
        out.append(el("text", {"x": WIDTH - 12, "y": y + 14, "font_size": 11, "text_anchor": "end",
                               "fill": "#8b3a3a"}, text(cat.text("view.must_play", colour=mine["must_play"]))))
    top = y + 22
    for c, colour in enumerate(COLOURS):
        out.append(_colour_column(colour, mine["hand"][c], mine["experience"][c], 4 + c * 79, top,
                                  colour in moves.play, cat))
    if seat in changes.cards:
        out.append(el("g", {"class_": "last-change"}, changed_box(2, top - 2, WIDTH - 4, 92)))
    return el("g", {"class_": "hand"}, *out), top + 94


def _colour_column(colour: str, cards: int, extra: int, x: float, y: float, playable: bool, cat: Catalog) -> str:
    """One colour of the hand: its druid cards and experience cards with their counts."""
    faded = None if cards or extra else 0.35
    body = [el("title", {}, text(cat.text("board.druid_cards", colour=colour, cards=cards, experience=extra))),
            el("rect", {"x": x, "y": y, "width": 76, "height": 88, "rx": 8, "fill": SHADE,
                        "stroke": INKED if playable else "none", "stroke_width": 1.5}),
            el("g", {"opacity": faded}, *card(colour, x + 6, y + 6, 34, 48)),
            el("text", {"x": x + 23, "y": y + 70, "text_anchor": "middle", "font_size": 14, "font_weight": "bold"},
               text(cards)),
            el("g", {"opacity": None if extra else 0.35}, *card(colour, x + 46, y + 14, 25, 34, experience=True)),
            el("text", {"x": x + 58.5, "y": y + 70, "text_anchor": "middle", "font_size": 12}, text(extra)),
            el("text", {"x": x + 38, "y": y + 84, "text_anchor": "middle", "font_size": 10, "fill": MUTED},
               text(cat.name("colour", colour)))]
    hooks = pick(f"druid-{colour}", cat.text("board.pick_druid", colour=colour)) if playable else {"class_": "cards"}
    return el("g", {**hooks, "data_colour": colour}, *body)


def _tray(view: CelticaView, moves: Moves, cat: Catalog, y: float) -> tuple[str, float]:
    """Under the cards: a hint until a colour is picked, then that colour's chips, each a play
    saying how many cards and where the druid lands."""
    rows = max(math.ceil(len(chips) / CHIPS_PER_ROW) for chips in moves.play.values())
    height = rows * (CHIP_H + 4) + 4
    out = [el("text", {"x": WIDTH / 2, "y": y + CHIP_H / 2 + 6, "text_anchor": "middle", "font_size": 12,
                       "fill": MUTED}, text(cat.text("board.hint_play")))]
    for colour, chips in moves.play.items():
        # Once a colour is picked its chips replace the hint (shown only with them, like them).
        out.append(el("rect", {"x": 0, "y": y, "width": WIDTH, "height": height, "fill": PAPER,
                               "data_needs": f"druid-{colour}"}))
        for k, (cards, extra, number) in enumerate(sorted(chips, key=lambda chip: (chip[0] + chip[1], chip[1]))):
            row, col = divmod(k, CHIPS_PER_ROW)
            out.append(_chip(view, colour, cards, extra, number, moves, 4 + col * 79, y + 4 + row * (CHIP_H + 4)))
    return el("g", {"class_": "tray"}, *out), y + height


def _chip(view: CelticaView, colour: str, cards: int, extra: int, number: int, moves: Moves,
          x: float, y: float) -> str:
    """One play: its cards (druid + experience) and where the druid lands."""
    to = destination(view, colour, cards + extra)
    kind = view["board"][to]["kind"]
    count = f"{cards} + {extra}" if extra else f"{cards}"
    body = [el("rect", {"x": x, "y": y, "width": CHIP_W, "height": CHIP_H, "rx": 7, "fill": LIGHT,
                        "stroke": FILL[colour] if colour != "white" else INKED, "stroke_width": 2.5}),
            el("text", {"x": x + 8, "y": y + 20, "font_size": 14, "font_weight": "bold"}, text(count))]
    if extra:
        body.append(star(x + 12 + text_width(count, 14), y + 15, 5, GOLD))
    body += [el("text", {"x": x + 8, "y": y + 40, "font_size": 13}, text(f"→ {to}")),
             *site(kind, x + CHIP_W - 15, y + CHIP_H - 15, 11)]
    return el("g", {**move(number, moves.labels[number], needs=f"druid-{colour}"), "data_colour": colour}, *body)


def _buttons(moves: Moves, y: float) -> str:
    """The cult-site choice and "done": wide buttons under the cards."""
    out = []
    width = (WIDTH - 24 - 8 * (len(moves.buttons) - 1)) / len(moves.buttons)
    for k, (number, caption) in enumerate(moves.buttons):
        x = 12 + k * (width + 8)
        out.append(el("g", move(number, moves.labels[number]),
                      el("rect", {"x": x, "y": y + 4, "width": width, "height": 48, "rx": 8, "fill": "#3f6b52"}),
                      el("text", {"x": x + width / 2, "y": y + 33, "text_anchor": "middle", "font_size": 14,
                                  "font_weight": "bold", "fill": "#ffffff"}, text(caption))))
    return el("g", {"class_": "buttons"}, *out)


# -- the display and every player's parts -------------------------------------------------------

def _grid(index: int, x0: float, y0: float, w: float, h: float) -> tuple[float, float]:
    """Tile `index` of the nine part types in two rows (five, then four centred): nine in one
    row would be too narrow to tap on a phone."""
    row, col = divmod(index, 5)
    pitch = w + 3
    return x0 + col * pitch + (pitch / 2 if row else 0), y0 + row * (h + 4)


def _parts_drawing(view: CelticaView, seat: int | None, moves: Moves, changes: Changes, cat: Catalog) -> str:
    out = [_display(view, moves, changes, cat)]
    y: float = 28 + 2 * (TILE_H + 4) + 10
    order = list(range(len(view["players"])))
    if seat is not None:
        order = [seat] + [k for k in order if k != seat]
    for index in order:
        panel, y = _panel(view, index, index == seat, moves, changes, cat, y)
        out.append(panel)
    height = y + 4
    body = [el("rect", {"width": WIDTH, "height": height, "rx": 10, "fill": PAPER}), *out]
    return svg(WIDTH, height, [el("g", FONT, *body)], cat.text("board.parts_drawing"))


def _display(view: CelticaView, moves: Moves, changes: Changes, cat: Catalog) -> str:
    """The display by part type: a part is taken or bought by tapping it; once an own part is
    picked for a swap, the tiles it can be swapped for are covered by swap buttons."""
    out = [el("text", {"x": 12, "y": 20, "font_size": 13, "font_weight": "bold"}, text(cat.text("view.display")))]
    swaps = [(give, take, number) for (give, take), number in moves.swap.items()]
    for index, part in enumerate(PARTS):
        count = view["display"][index]
        x, y = _grid(index, 4, 28, TILE_W, TILE_H)
        tile = _tile(part, count, x, y, TILE_W, TILE_H, 19, cat)
        if part in changes.display:
            tile.append(changed_box(x + 1.5, y + 1.5, TILE_W - 3, TILE_H - 3))
        number = moves.take.get(part, moves.buy.get(part))
        hooks: dict[str, Any] = move(number, moves.labels[number]) if number is not None else {"class_": "part"}
        if part in changes.display:
            hooks["class_"] += " last-change"
        out.append(el("g", {**hooks, "data_part": part}, *tile))
        for give, take, swap_id in swaps:
            if take == part:
                out.append(_swap_cover(give, part, swap_id, moves, x, y, cat))
    return el("g", {"class_": "display"}, *out)


def _tile(part: str, count: int, x: float, y: float, w: float, h: float, r: float, cat: Catalog) -> list[str]:
    """A part type's tile: the piece in its place in an amulet, its short name in the corner and
    how many there are (an empty tile is shaded)."""
    out = [el("title", {}, text(cat.name("part", part))),
           el("rect", {"x": x, "y": y, "width": w, "height": h, "rx": 6, "fill": LIGHT if count else SHADE,
                       "stroke": FAINT}),
           el("text", {"x": x + 4, "y": y + 11, "font_size": 9, "fill": MUTED}, text(cat.text("view.short." + part)))]
    if count:
        out += part_icon(part, x + w / 2, y + r + 4, r)
    out.append(el("text", {"x": x + w / 2, "y": y + h - 5, "text_anchor": "middle", "font_size": 11,
                           "font_weight": "bold" if count else None, "fill": INKED if count else MUTED},
                  text(f"×{count}")))
    return out


def _swap_cover(give: str, take: str, number: int, moves: Moves, x: float, y: float, cat: Catalog) -> str:
    """The second click of a swap: it covers the display tile of the part taken."""
    return el("g", {**move(number, moves.labels[number], needs=f"give-{give}"), "data_part": take},
              el("rect", {"x": x, "y": y, "width": TILE_W, "height": TILE_H, "rx": 7, "fill": "#3f6b52"}),
              *part_icon(take, x + TILE_W / 2, y + 22, 16, fill="#f3e3a6"),
              el("text", {"x": x + TILE_W / 2, "y": y + TILE_H - 6, "text_anchor": "middle", "font_size": 12,
                          "font_weight": "bold", "fill": "#ffffff"}, text("⇄ " + cat.text("board.swap_here"))))


def _panel(view: CelticaView, index: int, own: bool, moves: Moves, changes: Changes, cat: Catalog,
           y: float) -> tuple[str, float]:
    """A player: name and marks, cards held, parts by type and the amulets they make."""
    player = view["players"][index]
    turn = view["current_player"] == index
    won = index in view["winners"]
    marks = [cat.text("board.you")] if own else []
    if turn:
        marks.append(cat.text("board.to_act"))
    if won:
        marks.append("★ " + cat.text("board.winner"))
    if player["owes_card"]:
        marks.append(cat.text("view.owes_card"))
    mark_line = " · ".join(marks)
    room = WIDTH - 28 - (text_width(mark_line, 11) + 12 if marks else 0)
    tiles, tiles_end = _parts(player["parts"], index, own, moves, changes, cat, y + 48)
    amulets_end = tiles_end + 40
    out = [el("rect", {"x": 4, "y": y, "width": WIDTH - 8, "height": amulets_end - y, "rx": 10, "fill": LIGHT,
                       "stroke": GOLD if turn or won else FAINT, "stroke_width": 3 if turn or won else 1}),
           name_label(14, y + 21, cat.player(index), room, 14, font_weight="bold", data_room=f"{room:g}"),
           el("text", {"x": WIDTH - 14, "y": y + 20, "font_size": 11, "text_anchor": "end"}, text(mark_line)),
           _cards_held(player, index in changes.cards, cat, y + 28),
           tiles, _amulets(player, cat, tiles_end)]
    classes = "player" + (" current" if turn else "") + (" own" if own else "")
    return el("g", {"class_": classes, "data_seat": index}, *out), amulets_end + 6


def _cards_held(player: CelticaPlayer, changed: bool, cat: Catalog, y: float) -> str:
    """How many druid and experience cards a player holds (the colours are secret)."""
    out = [el("rect", {"x": 14, "y": y + 1, "width": 11, "height": 15, "rx": 2, "fill": "#6d5a3a",
                       "stroke": INKED, "stroke_width": 0.8}),
           el("rect", {"x": 28, "y": y + 3, "width": 10, "height": 13, "rx": 2, "fill": LIGHT, "stroke": INKED,
                       "stroke_width": 0.8}),
           star(33, y + 9.5, 4, GOLD),
           el("text", {"x": 44, "y": y + 13, "font_size": 11},
              text(cat.text("board.holding", druid=player["druid_cards"], experience=player["experience_cards"])))]
    if changed:
        return el("g", {"class_": "last-change cards-held"}, *out, changed_box(10, y - 1, 190, 20))
    return el("g", {"class_": "cards-held"}, *out)


def _parts(counts: list[int], index: int, own: bool, moves: Moves, changes: Changes, cat: Catalog,
           y: float) -> tuple[str, float]:
    """A player's parts by type: the seat's own as tappable tiles in two rows (given up at a ruin,
    or picked to swap), everybody else's in one compact row."""
    out = []
    w, h = (TILE_W - 3, 50) if own else ((WIDTH - 24) / len(PARTS) - 2, 44)
    for t, part in enumerate(PARTS):
        count = counts[t]
        x, ty = _grid(t, 12, y, w, h) if own else (12 + t * (w + 2), y)
        tile = _tile(part, count, x, ty, w, h, 14 if own else 12, cat)
        hooks: dict[str, Any] = {"class_": "part"}
        if own and part in moves.give:
            hooks = move(moves.give[part], moves.labels[moves.give[part]])
        elif own and part in moves.givers():
            hooks = pick(f"give-{part}", cat.text("board.pick_give", part=part))
        if (index, part) in changes.parts:
            hooks["class_"] += " last-change"
            tile.append(changed_box(x + 1, ty + 1, w - 2, h - 2))
        out.append(el("g", {**hooks, "data_part": part}, *tile))
    end = y + (2 * (h + 4) if own else h + 4)
    return el("g", {"class_": "parts"}, *out), end


def _amulets(player: CelticaPlayer, cat: Catalog, y: float) -> str:
    """The player's amulets as the rules build them (C2: amulet k holds type t when count[t] > k),
    complete ones gilded, with the running standing beside them."""
    counts = player["parts"]
    out = []
    shown = min(max(counts), 6) if counts else 0
    for k in range(shown):
        x = 30 + k * 32
        whole = all(c > k for c in counts)
        out.append(el("circle", {"cx": x, "cy": y + 16, "r": 14, "fill": "#f3e3a6" if whole else LIGHT,
                                 "stroke": GOLD if whole else FAINT, "stroke_width": 2 if whole else 1}))
        out += [piece(part, x, y + 16, 13) for t, part in enumerate(PARTS) if counts[t] > k]
    out.append(el("text", {"x": WIDTH - 14, "y": y + 21, "font_size": 12, "font_weight": "bold",
                           "text_anchor": "end"}, text(_standing(player, cat))))
    return el("g", {"class_": "amulets"}, el("title", {}, text(cat.text("view.amulets"))), *out)
