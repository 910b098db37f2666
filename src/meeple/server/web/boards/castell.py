"""Castell in the browser: the seven regions as a schematic map joined by their roads, the seat's
own region up close, the skill wheel, the festival calendar, every player's public card and the
seat's own tower and player board.

Drawn from the view alone (the contract in `boards/__init__.py`). Moves sit where a player
reaches for them: a region to move there, a casteller in the pawn's region to recruit it, a
local performance tile to perform it, a wheel tile to train from it (Practice: the tile, then
the skill), a festival of this round to enter it; ending the turn and skipping a festival are
buttons. Every tap target is at least 48 units in a drawing no wider than 400 units, so 40 CSS
px or more on a 390 px phone. The art is in `castell_art`; nothing is told by colour alone.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from meeple.core.i18n import Catalog
from meeple.games.castell.describe import action_label, phase_key
from meeple.server.web.boards.castell_art import (
    EDGE,
    INK,
    PAPER,
    SKILL_COLOURS,
    casteller,
    changed,
    emblem,
    label,
    outline_circle,
    outline_rect,
    pawn,
    seat_colour,
    size_token,
    skill_symbol,
)
from meeple.server.web.svg import el, move, name_label, pick, text, text_width
from meeple.server.web.svg import svg as _svg

if TYPE_CHECKING:
    from meeple.games.castell.view_types import (
        CalendarFestival,
        CastellPlayer,
        CastellView,
        Entry,
        LocalTileView,
        Region,
    )

LAND, ROAD, SEA, GOLD = "#ead9ae", "#a8865a", "#cfe3ea", "#c8962e"
FONT = "system-ui, 'Noto Sans CJK TC', 'PingFang TC', 'Microsoft JhengHei', 'WenQuanYi Micro Hei', sans-serif"
#: Where each region's box sits on the schematic map (centre): three columns, as in the terminal;
#: Vilanova on the coast below, between Tarragona and Barcelona (K1).
MAP_AT = {
    "valls": (92, 83), "terrassa": (290, 83), "mataro": (488, 83),
    "tarragona": (92, 269), "vilafranca": (290, 269), "barcelona": (488, 269),
    "vilanova": (290, 455),
}
BOX_W, BOX_H = 164, 146
MAP_W, MAP_H = 580, 538
#: The width of the panels beside and below the map: 400 units, drawn about 355 px wide on a
#: 390 px phone, so a 48-unit target is 42 CSS px there.
PANEL_W = 400
TAP = 48
Legal = list[dict[str, Any]]
Moves = dict[str, list[dict[str, Any]]]


@dataclass
class Changes:
    """What the step on display changed, read from its events (`boards/__init__.py`)."""

    pawns: set[tuple[int, str]] = field(default_factory=set)  # (seat, region) a pawn moved to
    recruits: dict[int, list[int]] = field(default_factory=dict)  # seat -> sizes recruited
    trained: set[tuple[int, str]] = field(default_factory=set)  # (seat, skill)
    special_tile: bool = False  # the Special tile of the wheel was taken
    performed: set[int] = field(default_factory=set)  # seats that claimed a local performance
    entered: set[tuple[int, str]] = field(default_factory=set)  # (seat, region) of a festival entered
    scored: set[int] = field(default_factory=set)  # seats whose festival score was counted
    refilled: set[str] = field(default_factory=set)  # regions refilled with castellers
    new_round: bool = False


def changes(events: Sequence[dict[str, Any]]) -> Changes:
    """The marks the drawing puts on what `events` changed."""
    out = Changes()
    for event in events:
        key, who, params = event.get("key"), event["player"], event.get("params") or {}
        if key in ("place_pawn", "move", "extra_move"):
            out.pawns.add((who, params["region"]))
        elif key in ("recruit", "single_recruit"):
            out.recruits.setdefault(who, []).append(params["size"])
        elif key == "train":
            out.trained.add((who, params["skill"]))
        elif key == "train_special":
            out.special_tile = True
        elif key == "perform":
            out.performed.add(who)
        elif key == "enter":
            out.entered.add((who, params["region"]))
        elif key == "festival_score":
            out.scored.add(who)
        elif key == "refill":
            out.refilled.add(params["region"])
        elif key == "round_start":
            out.new_round = True
    return out


def _fit(content: str, room: float, size: float = 10) -> dict[str, Any]:
    """A smaller font size for a label that would run longer than `room` units at `size` (names
    vary by language; SVG text does not shrink by itself)."""
    wide = text_width(content, size)
    return {"font_size": round(size * room / wide, 1)} if wide > room else {}


def svg(width: float, height: float, children: Iterable[str], title: str) -> str:
    """A drawing in the board's font (set inside, so the SVG stands alone too)."""
    return _svg(width, height, [el("g", {"font_family": FONT}, *children)], title)


def _paper(width: float, height: float, stroke: str = EDGE, stroke_width: float = 1) -> str:
    """The card a drawing sits on, so it reads the same on any page background."""
    return el("rect", {"x": 1, "y": 1, "width": width - 2, "height": height - 2, "rx": 12, "fill": PAPER,
                       "stroke": stroke, "stroke_width": stroke_width})


def _sizes(counts: list[int]) -> list[int]:
    """Castellers from counts of sizes 1..10, largest first."""
    return [size for size in range(len(counts), 0, -1) for _ in range(counts[size - 1])]


def _by_type(legal: Legal) -> Moves:
    out: Moves = {}
    for entry in legal:
        out.setdefault(entry["action"].get("type", ""), []).append(entry)
    return out


def _find(entries: Iterable[dict[str, Any]], **match: Any) -> dict[str, Any] | None:
    for entry in entries:
        if all(entry["action"].get(k) == v for k, v in match.items()):
            return entry
    return None


@dataclass
class Table:
    """What every part of the drawing needs: the view, the seat, its moves by kind, the catalog
    and what the last step changed."""

    view: CastellView
    seat: int | None
    moves: Moves
    cat: Catalog
    marks: Changes

    @property
    def here(self) -> str | None:
        """The region of the seat's pawn (None: a spectator, or not placed yet)."""
        return self.view["players"][self.seat]["pawn"] if self.seat is not None else None

    def hook(self, entry: dict[str, Any] | None, needs: str | None = None) -> dict[str, Any] | None:
        """The attributes that make an element play `entry` (None: nothing to tap)."""
        if entry is None:
            return None
        return {**move(entry["id"], action_label(entry["action"], self.cat, self.view), needs),
                "style": "cursor:pointer"}


# --- the map -------------------------------------------------------------------------------


def _region(table: Table, region: Region, festivals: set[str]) -> str:
    view, cat, rid = table.view, table.cat, region["id"]
    cx, cy = MAP_AT.get(rid, (MAP_W / 2, MAP_H / 2))
    x0, y0 = cx - BOX_W / 2, cy - BOX_H / 2
    target = _find(table.moves.get("move", []), region=rid) or _find(table.moves.get("extra_move", []), region=rid)
    mine = rid == table.here
    box = el("rect", {"x": x0, "y": y0, "width": BOX_W, "height": BOX_H, "rx": 14, "fill": LAND,
                      "stroke": GOLD if target else (INK if mine else EDGE),
                      "stroke_width": 4 if target or mine else 2,
                      "stroke_dasharray": "8 4" if target else None})
    parts = [box]
    name = cat.name("region", rid)
    parts.append(emblem(rid, x0 + 18, y0 + 19, 0.8))
    parts.append(label(x0 + 34, y0 + 25, name, 16, font_weight="bold", text_anchor="start",
                       **_fit(name, BOX_W - 60, 16)))
    if rid in festivals:  # a festival here this round: its flag
        parts.append(el("path", {"d": f"M{x0 + BOX_W - 22} {y0 + 30}v-22l14 6-14 6", "fill": "#c0392b",
                                 "stroke": INK, "stroke_width": 1.2, "data_festival": rid}))
    for i, p in enumerate(p for p, pl in enumerate(view["players"]) if pl["pawn"] == rid):
        x, y = x0 + 18 + i * 28, y0 + 50
        parts.append(changed((p, rid) in table.marks.pawns, outline_circle(x, y, 15), pawn(x, y, p, 11)))
    parts.append(changed(rid in table.marks.refilled, outline_rect(x0 + 3, y0 + 66, BOX_W - 6, 52),
                         _crowd(rid, _sizes(region["castellers"]), x0, y0 + 92)))
    for i, (p, n) in enumerate((p, n) for p, n in enumerate(region["tokens"]) if n):
        tx = x0 + 16 + i * 38
        parts.append(pawn(tx, y0 + 132, p, 7, data_token=rid))
        parts.append(label(tx + 10, y0 + 136, f"×{n}", 11, text_anchor="start", font_weight="bold"))
    for slot, tile in enumerate(region["tiles"][:2]):
        if tile is not None:
            parts.append(label(x0 + BOX_W - 8 - slot * 34, y0 + 137, f"★{tile['stars']}", 12, text_anchor="end",
                               fill="#8a5a00", font_weight="bold"))
    return el("g", {**(table.hook(target) or {}), "class_": "region", "data_region": rid}, *parts)


def _crowd(rid: str, crowd: list[int], x0: float, y: float) -> str:
    """A region's castellers on the map: large while they fit one row, two smaller rows when not."""
    if len(crowd) <= 5:
        figures = [casteller(x0 + 20 + i * 31, y, size, 44) for i, size in enumerate(crowd)]
    else:
        figures = [casteller(x0 + 13 + (i % 7) * 22.8, y - 12 + (i // 7) * 26, size, 25)
                   for i, size in enumerate(crowd[:14])]
    if len(crowd) > 14:
        figures.append(label(x0 + BOX_W - 6, y + 22, f"+{len(crowd) - 14}", 11, text_anchor="end"))
    return el("g", {"data_castellers": rid}, *figures)


def _map(table: Table) -> str:
    view = table.view
    sea = el("path", {"d": f"M0 {MAP_H} L0 400 C70 430 150 470 196 {MAP_H} Z "
                           f"M384 {MAP_H} C430 470 500 420 {MAP_W} 400 L{MAP_W} {MAP_H} Z", "fill": SEA})
    roads = []
    for a, b, style in view["roads"]:
        (ax, ay), (bx, by) = MAP_AT.get(a, (0, 0)), MAP_AT.get(b, (0, 0))
        roads.append(el("line", {"x1": ax, "y1": ay, "x2": bx, "y2": by, "stroke": ROAD, "stroke_width": 7,
                                 "stroke_linecap": "round", "stroke_dasharray": "12 8" if style == "dashed" else None}))
    festivals = {f["region"] for entry in view["calendar"] if entry["round"] == view["round"]
                 for f in entry["festivals"]}
    regions = [_region(table, r, festivals) for r in view["regions"]]
    return svg(MAP_W, MAP_H, [el("rect", {"width": MAP_W, "height": MAP_H, "fill": PAPER, "rx": 12}), sea, *roads,
                              *regions], table.cat.text("ui.map"))


# --- the seat's own region up close ----------------------------------------------------------


def _here(table: Table) -> str:
    """The region where the seat's pawn stands, large enough to tap: its castellers (recruit)
    and its local performance tiles (perform)."""
    cat, rid = table.cat, table.here
    region = next((r for r in table.view["regions"] if r["id"] == rid), None)
    if region is None:
        return svg(PANEL_W, 50, [_paper(PANEL_W, 50), label(PANEL_W / 2, 31, cat.text("ui.nowhere"), 14)],
                   cat.text("ui.nowhere"))
    heading = cat.text("ui.here", region=rid)
    parts = [emblem(region["id"], 22, 22, 0.9), label(40, 28, heading, 15, font_weight="bold", text_anchor="start",
                                             **_fit(heading, PANEL_W - 50, 15))]
    recruits = table.moves.get("recruit", []) or table.moves.get("single_recruit", [])
    crowd = _sizes(region["castellers"])
    per_row, cell = 7, 55
    for i, size in enumerate(crowd):
        x, y = 10 + (i % per_row) * cell, 42 + (i // per_row) * (cell + 4)
        hook = table.hook(_find(recruits, size=size))
        figure = casteller(x + cell / 2, y + 29, size, 46)
        if hook:
            ring = el("rect", {"x": x + 1, "y": y + 1, "width": cell - 3, "height": cell + 2, "rx": 8,
                               "fill": "#fff8e6", "stroke": GOLD, "stroke_width": 2.5})
            parts.append(el("g", hook, ring, figure))
        else:
            parts.append(figure)
    if not crowd:
        parts.append(label(PANEL_W / 2, 70, cat.text("ui.nothing"), 13))
    y = 42 + max(1, math.ceil(len(crowd) / per_row)) * (cell + 4) + 6
    performs = table.moves.get("perform", [])
    tiles = [(slot, tile) for slot, tile in enumerate(region["tiles"][:2]) if tile is not None]
    for k, (slot, tile) in enumerate(tiles):
        parts.append(_local_tile(table, tile, 8 + k * 196, y, table.hook(_find(performs, slot=slot))))
    height = y + (62 if tiles else 0) + 4
    return svg(PANEL_W, height, [_paper(PANEL_W, height, INK, 2), *parts], heading)


def _local_tile(table: Table, tile: LocalTileView, x: float, y: float, hook: dict[str, Any] | None) -> str:
    """A local performance tile: its kind, its stars and what it asks (level widths or skills)."""
    cat = table.cat
    name = cat.name("tile", tile["kind"])
    parts = [el("rect", {"x": x, "y": y, "width": 188, "height": 56, "rx": 6, "fill": "#fff8e6" if hook else LAND,
                         "stroke": GOLD if hook else EDGE, "stroke_width": 3 if hook else 1}),
             label(x + 8, y + 20, name, 13, text_anchor="start", font_weight="bold", **_fit(name, 120, 13)),
             label(x + 180, y + 20, f"★{tile['stars']}", 14, text_anchor="end", fill="#8a5a00", font_weight="bold")]
    if tile["kind"] == "shape":  # the level widths, bottom to top, drawn as a little tower
        for k, width in enumerate(tile["widths"][:8]):
            for j in range(width):
                parts.append(el("rect", {"x": x + 94 - width * 4 + j * 8, "y": y + 49 - 3.6 * k, "width": 7,
                                         "height": 3, "fill": EDGE}))
    else:
        uses = [(s, n) for s, n in zip(("balance", "base", "mix", "strength", "width"), tile["uses"], strict=False)
                if n]
        parts.append(label(x + 8, y + 45, f"≥{tile['min_levels']}", 12, text_anchor="start", font_weight="bold"))
        for k, (skill, n) in enumerate(uses):
            sx = x + 46 + k * 36
            parts.append(el("circle", {"cx": sx, "cy": y + 40, "r": 9, "fill": SKILL_COLOURS[skill]}))
            parts.append(skill_symbol(skill, sx, y + 40, 0.7))
            parts.append(label(sx + 12, y + 45, str(n), 11, text_anchor="start", font_weight="bold"))
    return el("g", hook, *parts) if hook else el("g", {}, *parts)


# --- the wheel and the calendar ------------------------------------------------------------


def _wheel(table: Table) -> str:
    view, cat = table.view, table.cat
    wheel = view["wheel"]
    segments = wheel["segments"]
    cx, cy, r_in, r_out = 200, 190, 92, 160
    parts = [el("circle", {"cx": cx, "cy": cy, "r": r_out + 6, "fill": PAPER, "stroke": EDGE, "stroke_width": 2})]
    trains = table.moves.get("train", [])
    chips: list[str] = []
    step = 2 * math.pi / max(1, len(segments))
    for i, segment in enumerate(segments):
        a0, a1 = -math.pi / 2 + (i - 0.5) * step, -math.pi / 2 + (i + 0.5) * step
        mid = (a0 + a1) / 2
        kind = wheel["facing"].get(segment, "")
        source = "all" if segment == "all" else "region" if segment == table.here else None
        options = [e for e in trains if e["action"].get("source") == source] if source else []
        hook: dict[str, Any] | None = None
        if len(options) == 1:
            hook = table.hook(options[0])
        elif options:
            key = f"train-{source}"
            hook = {**pick(key, f"{cat.text('ui.wheel')}: {cat.name('skill', kind)}"), "style": "cursor:pointer"}
            chips.append(_train_choices(table, options, key, len(chips)))
        wedge = _wedge(cx, cy, r_in + 4, r_out, a0, a1)
        tile = el("path", {"d": wedge, "fill": SKILL_COLOURS.get(kind, LAND), "stroke": GOLD if hook else "#fff",
                           "stroke_width": 4 if hook else 2})
        # the symbol above the name, whichever way the wedge points
        tx, ty = cx + math.cos(mid) * (r_in + r_out + 4) / 2, cy + math.sin(mid) * (r_in + r_out + 4) / 2
        sx, sy = tx, ty - 10
        name = cat.name("skill", kind)
        face = [tile, skill_symbol(kind, sx, sy, 0.9),
                label(tx, ty + 14, name, 11.5, fill="#fff", font_weight="bold", **_fit(name, 56, 11.5))]
        special = kind == "special" and table.marks.special_tile
        mark = outline_circle(sx, sy, 12)
        parts.append(el("g", {**(hook or {}), "data_skill": kind}, changed(special, mark, *face)))
        inner = _wedge(cx, cy, 22, r_in, a0, a1)
        lit = segment == table.here or segment == "all"
        parts.append(el("path", {"d": inner, "fill": "#fff8e6" if lit else LAND, "stroke": EDGE, "stroke_width": 1}))
        lx, ly = cx + math.cos(mid) * (r_in * 0.62), cy + math.sin(mid) * (r_in * 0.62)
        turn = math.degrees(mid) + (180 if math.cos(mid) < -1e-6 else 0)
        where = cat.name("segment", segment)
        parts.append(label(lx, ly + 4, where, 10.5, font_weight="bold" if lit else None,
                           transform=f"rotate({turn:.1f} {lx:.1f} {ly:.1f})", **_fit(where, 64, 10.5)))
    parts.append(changed(table.marks.new_round, outline_circle(cx, cy, 22),
                         el("circle", {"cx": cx, "cy": cy, "r": 20, "fill": EDGE}),
                         label(cx, cy + 5, str(view["round"]), 15, fill="#fff", font_weight="bold")))
    height = 376 + (TAP + 6) * len(chips)
    title = label(cx, 22, f"{cat.text('ui.wheel')} · {cat.name('wheel', wheel['side'])}", 14, font_weight="bold")
    dial = el("g", {"transform": "translate(0 10)"}, *parts)
    return svg(PANEL_W, height, [_paper(PANEL_W, height), title, dial, *chips], cat.text("ui.wheel"))


def _wedge(cx: float, cy: float, r0: float, r1: float, a0: float, a1: float) -> str:
    """An annular sector as an SVG path."""
    def pt(r: float, a: float) -> str:
        return f"{cx + r * math.cos(a):.1f} {cy + r * math.sin(a):.1f}"
    return f"M{pt(r0, a0)} L{pt(r1, a0)} A{r1} {r1} 0 0 1 {pt(r1, a1)} L{pt(r0, a1)} A{r0} {r0} 0 0 0 {pt(r0, a0)} Z"


def _train_choices(table: Table, options: Legal, key: str, row: int) -> str:
    """The skills a Practice (or any many-choice) tile can raise: the second tap after the tile."""
    y = 372 + row * (TAP + 6)
    parts = []
    width = (PANEL_W - 20) / max(1, len(options))
    for i, entry in enumerate(options):
        skill = entry["action"].get("skill", "")
        x = 10 + i * width
        name = "+ " + table.cat.name("skill", skill)
        parts.append(el("g", {**(table.hook(entry, needs=key) or {}), "data_skill": skill},
                        el("rect", {"x": x + 2, "y": y, "width": width - 4, "height": TAP, "rx": 6,
                                    "fill": SKILL_COLOURS.get(skill, LAND), "stroke": GOLD, "stroke_width": 2}),
                        skill_symbol(skill, x + width / 2, y + 14, 0.7),
                        label(x + width / 2, y + 38, name, 11, fill="#fff", font_weight="bold",
                              **_fit(name, width - 8, 11))))
    return el("g", {}, *parts)


def _calendar(table: Table) -> str:
    view, cat = table.view, table.cat
    rows = view["calendar"]
    entries = view["festival"]["entries"]
    scored = {r["festival"]: [e["seat"] for e in r["entrants"]] for r in view["results"]}
    row_h = TAP + 8
    height = 44 + row_h * len(rows)
    parts = [_paper(PANEL_W, height), label(PANEL_W / 2, 26, cat.text("ui.calendar"), 14, font_weight="bold")]
    for i, row in enumerate(rows):
        y = 38 + i * row_h
        now, past = row["round"] == view["round"], row["round"] < view["round"]
        parts.append(el("rect", {"x": 4, "y": y, "width": PANEL_W - 8, "height": row_h - 4, "rx": 6,
                                 "fill": "#fff3c9" if now else PAPER, "stroke": GOLD if now else EDGE,
                                 "stroke_width": 2.5 if now else 1, "opacity": 0.55 if past else 1}))
        parts.append(label(22, y + 30, str(row["round"]), 15, font_weight="bold"))
        # an entry that closed the round is shown in the results of the round just ended
        fresh = now or (table.marks.new_round and row["round"] == view["round"] - 1)
        for slot, fest in enumerate(row["festivals"]):
            parts.append(_festival(table, fest, slot, 42 + slot * 176, y + 2, now, fresh, scored, entries))
    return svg(PANEL_W, height, parts, cat.text("ui.calendar"))


def _festival(table: Table, fest: CalendarFestival, slot: int, x: float, y: float, now: bool, fresh: bool,
              scored: dict[str, list[int]], entries: list[Entry]) -> str:
    """One festival of the calendar: its region, its size tokens and who entered it."""
    hook = table.hook(_find(table.moves.get("enter", []), slot=slot)) if now else None
    name = table.cat.name("region", fest["region"])
    card = [el("rect", {"x": x, "y": y, "width": 172, "height": TAP, "rx": 5, "fill": "#fff8e6" if hook else LAND,
                        "stroke": GOLD if hook else EDGE, "stroke_width": 3 if hook else 1}),
            emblem(fest["region"], x + 14, y + 16, 0.6),
            label(x + 28, y + 21, name, 12, text_anchor="start", **_fit(name, 80, 12))]
    for k, size in enumerate(fest["sizes"]):
        card.append(size_token(x + 120 + k * 19, y + 16, size, 8.5))
    seen = scored.get(fest["id"]) or ([e["seat"] for e in entries if e["slot"] == slot] if now else [])
    for j, who in enumerate(seen):
        px = x + 14 + j * 20
        card.append(changed(fresh and (who, fest["region"]) in table.marks.entered, outline_circle(px, y + 34, 10),
                            pawn(px, y + 34, who, 7)))
    return el("g", {**(hook or {}), "data_festival": fest["id"]}, *card)


# --- the players ---------------------------------------------------------------------------


def _player_card(table: Table, p: int) -> str:
    view, cat, marks = table.view, table.cat, table.marks
    player = view["players"][p]
    turn = view["current_player"] == p
    width, height = 360, 162
    parts = [_paper(width, height, seat_colour(p) if turn else EDGE, 4 if turn else 1.5), pawn(22, 26, p, 12)]
    right = ""
    if turn:
        right = "▶ " + cat.text("web.to_play")
        parts.append(label(width - 10, 31, right, 12, text_anchor="end", fill=seat_colour(p), font_weight="bold"))
    elif p in view["winners"]:
        right = "♛ " + cat.text("web.winner")
        parts.append(label(width - 10, 31, right, 13, text_anchor="end", fill="#8a5a00", font_weight="bold"))
    name = cat.player(p) + (f" ({cat.text('ui.you')})" if p == table.seat else "")
    room = width - 10 - text_width(right, 13) - 12 - 42
    parts.append(name_label(42, 31, name, room, 15, fill=INK, font_weight="bold", data_room=f"{room:.1f}"))
    if player["pawn"]:
        parts.append(emblem(player["pawn"], 22, 56, 0.6))
        parts.append(label(38, 61, cat.name("region", player["pawn"]), 12, text_anchor="start"))
    else:
        parts.append(label(12, 61, f"{cat.text('ui.pawn')}: {cat.text('ui.not_placed')}", 12, text_anchor="start"))
    standing = _standing(player, cat)
    parts.append(changed(p in marks.scored, outline_rect(width - 14 - text_width(standing, 13), 45,
                                                         text_width(standing, 13) + 8, 22),
                         label(width - 10, 61, standing, 13, text_anchor="end", font_weight="bold",
                               data_standing=p)))
    fresh = set(marks.recruits.get(p, []))
    held = [(size, n) for size, n in reversed(list(enumerate(player["team"], start=1))) if n]
    for i, (size, n) in enumerate(held):  # one figure per size, largest first, with its count
        x = 16 + i * 35
        figure = casteller(x, 84, size, 30) + (label(x + 10.5, 99, f"×{n}", 9.5, text_anchor="start",
                                                    font_weight="bold") if n > 1 else "")
        parts.append(changed(size in fresh, outline_rect(x - 12, 67, 35, 35, 4), figure))
    for i, (skill, level) in enumerate(player["skills"].items()):
        x = 6 + i * 70
        chip = [el("rect", {"x": x, "y": 106, "width": 66, "height": 24, "rx": 4,
                            "fill": SKILL_COLOURS.get(skill, LAND), "opacity": 1 if level else 0.35}),
                skill_symbol(skill, x + 12, 118, 0.6, "#fff" if level else INK),
                label(x + 40, 123, str(level), 14, fill="#fff" if level else INK, font_weight="bold"),
                el("title", {}, text(f"{cat.name('skill', skill)} {level}"))]
        parts.append(el("g", {"data_skill": skill, "aria_label": f"{cat.name('skill', skill)} {level}"},
                        changed((p, skill) in marks.trained, outline_rect(x - 2, 104, 70, 28, 5), *chip)))
    summary = cat.text("ui.tokens", count=player["special_tokens"])
    stars = sum(t["stars"] for t in player["performances"])
    if stars:
        summary += " · ★" + " ★".join(str(t["stars"]) for t in player["performances"])
    parts.append(changed(p in marks.performed, outline_rect(6, 137, text_width(summary, 12) + 12, 20),
                         label(12, 152, summary, 12, text_anchor="start")))
    return el("div", {"class_": "castell-card", "style": "flex:1 1 300px;max-width:420px"},
              svg(width, height, parts, cat.player(p)))


def _standing(player: CastellPlayer, cat: Catalog) -> str:
    """A player's points so far as K11 counts them (best festival tower, region variety, prizes,
    size tokens and stars), with the best festival tower (K8) beside them once there is one."""
    total, best = player["score"]["total"], player["best_tower"]
    if best:
        return cat.text("standing.points_best", count=total, best=best)
    return cat.text("standing.points", count=total)


def _own(table: Table) -> str:
    """The seat's own tower and player board: the tallest tower it can build now (or its best for
    this round's festival where its pawn stands), its best festival tower so far (K8) and the
    score parts so far (K11)."""
    assert table.seat is not None
    cat = table.cat
    player = table.view["players"][table.seat]
    preview = table.view.get("tower_preview")
    tower = (preview["tower"] if preview else None) or []
    if preview and preview["festival"]:
        heading = cat.text("web.festival_tower", region=preview["region"], score=preview["score"])
    else:
        heading = f"{cat.text('ui.tower_now')} · {cat.text('ui.tower_levels', count=len(tower))}"
    parts = [label(PANEL_W / 2, 24, heading, 13, font_weight="bold", data_tower_levels=len(tower),
                   **_fit(heading, PANEL_W - 20, 13))]
    base_y = 44 + 30 * len(tower)
    for k, level in enumerate(tower):
        for j, size in enumerate(level):
            x = PANEL_W / 2 + (j - (len(level) - 1) / 2) * 24
            parts.append(casteller(x, base_y - k * 30 - 14, size, 28))
    if not tower:
        parts.append(label(PANEL_W / 2, 56, cat.text("ui.no_tower"), 12))
        base_y = 66
    y = base_y + 24
    best = cat.text("ui.best_festival_tower", best=player["best_tower"])
    parts.append(label(12, y, best, 13, text_anchor="start", font_weight="bold", data_best=player["best_tower"]))
    y += 20
    score = player["score"]
    parts_so_far = ((k, v) for k, v in score.items() if k not in ("total", "best_tower"))  # best: the line above
    lines = [" · ".join(f"{cat.text('score.' + k)} {v}" for k, v in parts_so_far)]
    held = []
    for region, board in player["board"].items():
        bits = [f"●{board['tokens']}"] if board["tokens"] else []
        bits += [cat.name("prize", v) for v in board["prizes"]] + [f"#{s}" for s in board["size_tokens"]]
        if bits:
            held.append(f"{cat.name('region', region)} {' '.join(bits)}")
    if held:
        lines.append(f"{cat.text('ui.board')}: " + cat.text("ui.list_separator").join(held))
    for line in lines:
        for chunk in _wrap(line, PANEL_W - 24, 12):
            parts.append(label(12, y, chunk, 12, text_anchor="start"))
            y += 17
    height = y + 6
    return svg(PANEL_W, height, [_paper(PANEL_W, height, seat_colour(table.seat), 3), *parts], heading)


def _wrap(line: str, room: float, size: float) -> list[str]:
    """Lines no wider than `room` at `size`, broken at spaces where there are any (SVG text does
    not wrap by itself)."""
    out: list[str] = []
    current = ""
    for word in line.split(" "):
        trial = f"{current} {word}" if current else word
        if text_width(trial, size) <= room:
            current = trial
            continue
        if current:
            out.append(current)
        while text_width(word, size) > room:  # a long run without spaces (Chinese): cut it
            cut = max(1, int(len(word) * room / text_width(word, size)))
            out.append(word[:cut])
            word = word[cut:]
        current = word
    return [*out, current] if current else out or [""]


# --- the whole table -----------------------------------------------------------------------


def _status(table: Table, legal: Legal) -> str:
    """The header line and the buttons for the moves that have no place on the board."""
    view, cat = table.view, table.cat
    words = [cat.text("ui.round", round=view["round"], phase=phase_key(view)),
             cat.text("ui.bag", count=view["bag"]["count"])]
    buttons = []
    for entry in legal:
        if entry["action"].get("type") in ("end_turn", "decline"):
            hook = table.hook(entry) or {}
            buttons.append(el("button", {**hook, "type": "button", "class_": "move castell-button",
                                         "style": "min-height:44px;min-width:44px;padding:0 1rem;font-weight:600"},
                              text(action_label(entry["action"], cat, view))))
    return el("div", {"class_": "castell-status", "style": "display:flex;flex-wrap:wrap;gap:8px;align-items:center"},
              el("p", {"style": "margin:0;flex:1 1 200px"}, text(" · ".join(words))), *buttons)


def board(view: CastellView, seat: int | None, legal: Legal, cat: Catalog,
          events: Sequence[dict[str, Any]] = ()) -> str:
    """The Castell table as `seat` sees it (None: a spectator); `events` are marked."""
    table = Table(view, seat, _by_type(legal), cat, changes(events))
    column = "flex:1 1 300px;max-width:420px;display:flex;flex-direction:column;gap:8px"
    beside = [_here(table)] if seat is not None else []
    top = el("div", {"style": "display:flex;flex-wrap:wrap;gap:8px;align-items:flex-start"},
             el("div", {"style": "flex:3 1 340px;max-width:640px"}, _map(table)),
             el("div", {"style": column}, *beside, _wheel(table)))
    below = [_calendar(table)] + ([_own(table)] if seat is not None else [])
    middle = el("div", {"style": "display:flex;flex-wrap:wrap;gap:8px;align-items:flex-start"},
                *(el("div", {"style": "flex:1 1 300px;max-width:480px"}, part) for part in below))
    cards = el("div", {"style": "display:flex;flex-wrap:wrap;gap:8px"},
               *(_player_card(table, p) for p in range(len(view["players"]))))
    return el("div", {"class_": "castell", "style": f"font-family:{FONT};color:{INK};display:grid;gap:8px"},
              _status(table, legal), top, middle, cards)


def prompt(view: CastellView, seat: int | None, legal: Legal, cat: Catalog) -> str:
    """What `seat` must do now, in words: place the pawn (round 1, K4), the turn's actions still
    open (K4, K5), or enter or skip a festival (K8); "" when it is not the seat's turn."""
    if seat is None or not legal:
        return ""
    kinds = {entry["action"].get("type") for entry in legal}
    if kinds & {"enter", "decline"}:
        preview = view.get("tower_preview")
        if preview and preview["festival"] and "enter" in kinds:
            return cat.text("prompt.festival", region=preview["region"], score=preview["score"])
        return cat.text("prompt.festival_none")
    if view["players"][seat]["pawn"] is None:
        return cat.text("prompt.place")
    things = [cat.text(f"doing.{thing}") for thing in _open_actions(view, kinds)]
    if not things:
        return cat.text("prompt.nothing_left")
    return cat.text("prompt.turn", things=cat.text("ui.list_separator").join(things))


def _open_actions(view: CastellView, kinds: set[Any]) -> list[str]:
    """The parts of a turn (K4, K5) the seat may still do, in the rulebook's order."""
    out = []
    if "move" in kinds:
        out.append("move")
    if "recruit" in kinds:
        out.append("recruit_again" if view["turn"]["recruit_open"] else "recruit")
    if "train" in kinds:
        out.append("train")
    if kinds & {"single_recruit", "extra_move", "perform"}:
        out.append("special")
    return out


def standings(view: CastellView, cat: Catalog) -> list[str]:
    """Each seat's points so far (K11) and best festival tower (K8), from the view alone."""
    return [_standing(player, cat) for player in view["players"]]
