"""Castell in the browser: the seven regions as a schematic map joined by their roads, the skill
wheel, the festival calendar, every player's public card and the seat's own team with the best
tower it can build now.

Drawn from the view alone (the contract in `boards/__init__.py`). Moves sit where a player
reaches for them: a region to move there, a casteller in the pawn's region to recruit it, a
local performance tile to perform it, a wheel tile to train from it (Practice: the tile, then
the skill), a festival of this round to enter it; ending the turn and declining are buttons.
Seat colours always come with the seat's number, skills with their name.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from meeple.core.i18n import Catalog
from meeple.games.castell.describe import action_label
from meeple.server.web.svg import el, move, pick, text
from meeple.server.web.svg import svg as _svg

INK, PAPER, LAND, EDGE, ROAD, SEA, GOLD = "#3b2a1a", "#f6efdd", "#ead9ae", "#8a6a3c", "#a8865a", "#cfe3ea", "#c8962e"
SEATS = ("#c0392b", "#2e6da4", "#2f8a3b", "#8e44ad")
FONT = "system-ui, 'Noto Sans CJK TC', 'PingFang TC', 'Microsoft JhengHei', 'WenQuanYi Micro Hei', sans-serif"
#: Where each region's box sits on the schematic map (centre): three columns, as in the terminal,
#: compact enough to read on a phone; Vilanova on the coast below, between Tarragona and Barcelona.
MAP_AT = {
    "valls": (92, 83), "terrassa": (290, 83), "mataro": (488, 83),
    "tarragona": (92, 269), "vilafranca": (290, 269), "barcelona": (488, 269),
    "vilanova": (290, 455),
}
BOX_W, BOX_H = 164, 146
MAP_W, MAP_H = 580, 538
SKILL_COLOURS = {"balance": "#5b8fb9", "base": "#9b6b3d", "mix": "#7d9a45", "strength": "#b5523b",
                 "width": "#8c6bb1", "practice": "#d0a030", "special": "#c75d8c"}

#: Casteller colours by size 1..10, light to dark (the number is on every chip as well).
CHIP_SHADES = ("#f3e3c3", "#ecd5aa", "#e3c48f", "#d9b076", "#cc9a5e", "#b9824a", "#a06b3b", "#87562f",
               "#6e4425", "#55331c")
Legal = list[dict[str, Any]]


def _seat_colour(seat: int) -> str:
    return SEATS[seat % len(SEATS)]


def _t(x: float, y: float, content: str, size: float = 13, **extra: Any) -> str:
    """Text in the board's font (centred unless `anchor` says otherwise)."""
    values: dict[str, Any] = {"x": x, "y": y, "font_size": size, "fill": INK, "text_anchor": "middle"}
    values.update(extra)
    return el("text", values, text(content))


def _fit(content: str, room: float, size: float = 10) -> dict[str, Any]:
    """A smaller font size for a label that would run longer than `room` units at `size` (names
    vary by language; SVG text does not shrink by itself). A rough width: wide glyphs 1 em."""
    wide = sum(1 if ord(ch) > 0x2E80 else 0.58 for ch in content) * size
    return {"font_size": round(size * room / wide, 1)} if wide > room else {}


def svg(width: float, height: float, children: Iterable[str], label: str) -> str:
    """A drawing in the board's font (set inside, so the SVG stands alone too)."""
    return _svg(width, height, [el("g", {"font_family": FONT}, *children)], label)


def _paper(width: float, height: float) -> str:
    """The card a drawing sits on, so it reads the same on any page background."""
    return el("rect", {"width": width, "height": height, "rx": 12, "fill": PAPER})


def _pawn(x: float, y: float, seat: int, r: float = 10) -> str:
    """A seat's pawn: its colour and its number (colour is never the only sign)."""
    return el("g", {}, el("circle", {"cx": x, "cy": y, "r": r, "fill": _seat_colour(seat), "stroke": "#fff",
                                     "stroke_width": 1.5}),
              _t(x, y + r * 0.42, str(seat + 1), r * 1.15, fill="#fff", font_weight="bold"))


def _chip(x: float, y: float, size: int, hook: dict[str, Any] | None = None, r: float = 10) -> str:
    """A casteller: a head-and-shoulders figure with its size (bigger sizes darker)."""
    shade = CHIP_SHADES[max(0, min(size, len(CHIP_SHADES)) - 1)]
    body = el("g", {}, el("circle", {"cx": x, "cy": y, "r": r, "fill": shade, "stroke": EDGE}),
              _t(x, y + r * 0.4, str(size), r * 1.1, fill="#fff" if size >= 5 else INK, font_weight="bold"))
    if hook is None:
        return body
    return el("g", hook, el("circle", {"cx": x, "cy": y, "r": r + 3, "fill": "none", "stroke": GOLD,
                                       "stroke_width": 2.5}), body)


def _sizes(counts: list[int]) -> list[int]:
    """Castellers from counts of sizes 1..10, largest first."""
    return [size for size in range(len(counts), 0, -1) for _ in range(counts[size - 1])]


def _by_type(legal: Legal) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for entry in legal:
        out.setdefault(entry["action"].get("type", ""), []).append(entry)
    return out


def _hook(entry: dict[str, Any] | None, cat: Catalog, needs: str | None = None) -> dict[str, Any] | None:
    """The move attributes of a legal entry (None: nothing to click)."""
    if entry is None:
        return None
    return {**move(entry["id"], action_label(entry["action"], cat), needs), "style": "cursor:pointer"}


def _find(entries: Iterable[dict[str, Any]], **match: Any) -> dict[str, Any] | None:
    for entry in entries:
        if all(entry["action"].get(k) == v for k, v in match.items()):
            return entry
    return None


# --- the map -------------------------------------------------------------------------------


def _region(view: dict[str, Any], region: dict[str, Any], moves: dict[str, list[dict[str, Any]]],
            here: str | None, festivals: set[str], cat: Catalog) -> str:
    rid = region["id"]
    cx, cy = MAP_AT.get(rid, (MAP_W / 2, MAP_H / 2))
    x0, y0 = cx - BOX_W / 2, cy - BOX_H / 2
    target = _find(moves.get("move", []), region=rid) or _find(moves.get("extra_move", []), region=rid)
    mine = rid == here
    box = el("rect", {"x": x0, "y": y0, "width": BOX_W, "height": BOX_H, "rx": 14, "fill": LAND,
                      "stroke": GOLD if target else (INK if mine else EDGE),
                      "stroke_width": 4 if target or mine else 2,
                      "stroke_dasharray": "8 4" if target else None})
    parts = [el("g", _hook(target, cat) or {}, box)]
    parts.append(_t(cx, y0 + 20, cat.name("region", rid), 17, font_weight="bold"))
    if rid in festivals:
        parts.append(el("path", {"d": f"M{x0 + 10} {y0 + 24}v-18l14 5-14 5", "fill": "#c0392b",
                                 "stroke": INK, "stroke_width": 1.2}))
    pawns = [p for p, pl in enumerate(view["players"]) if pl["pawn"] == rid]
    for i, p in enumerate(pawns):
        parts.append(_pawn(x0 + 16 + i * 23, y0 + 38, p))
    placed = [(p, n) for p, n in enumerate(region["tokens"]) if n]
    for i, (p, n) in enumerate(placed):
        tx = x0 + 14 + i * 37
        parts.append(el("rect", {"x": tx - 8, "y": y0 + 98, "width": 16, "height": 16, "rx": 3,
                                 "fill": _seat_colour(p), "stroke": "#fff"}))
        parts.append(_t(tx, y0 + 110.5, str(p + 1), 10.5, fill="#fff", font_weight="bold"))
        parts.append(_t(tx + 10, y0 + 111, f"×{n}", 10, text_anchor="start", font_weight="bold"))
    recruits = (moves.get("recruit", []) or moves.get("single_recruit", [])) if mine else []
    for i, size in enumerate(_sizes(region["castellers"])[:14]):
        hook = _hook(_find(recruits, size=size), cat)
        parts.append(_chip(x0 + 14 + (i % 7) * 22.5, y0 + 62 + (i // 7) * 22, size, hook, r=9.5))
    performs = moves.get("perform", []) if mine else []
    for slot, tile in enumerate(region["tiles"][:2]):
        tx = x0 + 4 + slot * 79
        if tile is None:
            continue
        hook = _hook(_find(performs, slot=slot), cat)
        label = f"★{tile['stars']} {cat.name('tile', tile['kind'])}"
        card = el("g", {}, el("rect", {"x": tx, "y": y0 + 119, "width": 77, "height": 22, "rx": 4, "fill": PAPER,
                                       "stroke": GOLD if hook else EDGE, "stroke_width": 2.5 if hook else 1}),
                  _t(tx + 38.5, y0 + 134.5, label, 10, **_fit(label, 72, 10)))
        parts.append(el("g", hook, card) if hook else card)
    return el("g", {"class_": "region"}, *parts)


def _map(view: dict[str, Any], moves: dict[str, list[dict[str, Any]]], here: str | None, cat: Catalog) -> str:
    sea = el("path", {"d": f"M0 {MAP_H} L0 400 C70 430 150 470 196 {MAP_H} Z "
                           f"M384 {MAP_H} C430 470 500 420 {MAP_W} 400 L{MAP_W} {MAP_H} Z", "fill": SEA})
    roads = []
    for a, b, style in view["roads"]:
        (ax, ay), (bx, by) = MAP_AT.get(a, (0, 0)), MAP_AT.get(b, (0, 0))
        roads.append(el("line", {"x1": ax, "y1": ay, "x2": bx, "y2": by, "stroke": ROAD, "stroke_width": 7,
                                 "stroke_linecap": "round", "stroke_dasharray": "12 8" if style == "dashed" else None}))
    festivals = {f["region"] for entry in view["calendar"] if entry["round"] == view["round"]
                 for f in entry["festivals"]}
    regions = [_region(view, r, moves, here, festivals, cat) for r in view["regions"]]
    return svg(MAP_W, MAP_H, [el("rect", {"width": MAP_W, "height": MAP_H, "fill": PAPER, "rx": 12}), sea, *roads,
                              *regions], cat.text("ui.map"))


# --- the wheel and the calendar ------------------------------------------------------------


def _wheel(view: dict[str, Any], moves: dict[str, list[dict[str, Any]]], here: str | None, cat: Catalog) -> str:
    wheel = view["wheel"]
    segments = wheel["segments"]
    cx, cy, r_in, r_out = 200, 190, 92, 160
    parts = [el("circle", {"cx": cx, "cy": cy, "r": r_out + 6, "fill": PAPER, "stroke": EDGE, "stroke_width": 2})]
    trains = moves.get("train", [])
    chips: list[str] = []
    step = 2 * math.pi / max(1, len(segments))
    for i, segment in enumerate(segments):
        a0, a1 = -math.pi / 2 + (i - 0.5) * step, -math.pi / 2 + (i + 0.5) * step
        mid = (a0 + a1) / 2
        kind = wheel["facing"].get(segment, "")
        source = "all" if segment == "all" else "region" if segment == here else None
        options = [e for e in trains if e["action"].get("source") == source] if source else []
        hook: dict[str, Any] | None = None
        if len(options) == 1:
            hook = _hook(options[0], cat)
        elif options:
            key = f"train-{source}"
            hook = {**pick(key, f"{cat.text('ui.wheel')}: {cat.name('skill', kind)}"), "style": "cursor:pointer"}
            chips.append(_train_choices(options, key, len(chips), cat))
        wedge = _wedge(cx, cy, r_in + 4, r_out, a0, a1)
        tile = el("path", {"d": wedge, "fill": SKILL_COLOURS.get(kind, LAND), "stroke": GOLD if hook else "#fff",
                           "stroke_width": 4 if hook else 2})
        tx, ty = cx + math.cos(mid) * (r_in + r_out) / 2, cy + math.sin(mid) * (r_in + r_out) / 2
        label = _t(tx, ty + 4, cat.name("skill", kind), 12, fill="#fff", font_weight="bold")
        parts.append(el("g", hook or {}, tile, label))
        inner = _wedge(cx, cy, 22, r_in, a0, a1)
        lit = segment == here or segment == "all"
        parts.append(el("path", {"d": inner, "fill": "#fff8e6" if lit else LAND, "stroke": EDGE, "stroke_width": 1}))
        sx, sy = cx + math.cos(mid) * (r_in * 0.62), cy + math.sin(mid) * (r_in * 0.62)
        turn = math.degrees(mid) + (180 if math.cos(mid) < -1e-6 else 0)
        name = cat.name("segment", segment)
        parts.append(_t(sx, sy + 4, name, 10.5, font_weight="bold" if lit else None,
                        transform=f"rotate({turn:.1f} {sx:.1f} {sy:.1f})", **_fit(name, 64, 10.5)))
    parts.append(el("circle", {"cx": cx, "cy": cy, "r": 20, "fill": EDGE}))
    parts.append(_t(cx, cy + 5, str(view["round"]), 15, fill="#fff", font_weight="bold"))
    height = 370 + 34 * len(chips)
    title = _t(cx, 18, f"{cat.text('ui.wheel')} · {cat.name('wheel', wheel['side'])}", 14, font_weight="bold")
    dial = el("g", {"transform": "translate(0 6)"}, *parts)
    return svg(400, height, [_paper(400, height), title, dial, *chips], cat.text("ui.wheel"))


def _wedge(cx: float, cy: float, r0: float, r1: float, a0: float, a1: float) -> str:
    """An annular sector as an SVG path."""
    def pt(r: float, a: float) -> str:
        return f"{cx + r * math.cos(a):.1f} {cy + r * math.sin(a):.1f}"
    return f"M{pt(r0, a0)} L{pt(r1, a0)} A{r1} {r1} 0 0 1 {pt(r1, a1)} L{pt(r0, a1)} A{r0} {r0} 0 0 0 {pt(r0, a0)} Z"


def _train_choices(options: Legal, key: str, row: int, cat: Catalog) -> str:
    """The skills a Practice (or any many-choice) tile can raise: the second click after the tile."""
    y = 372 + row * 34
    parts = []
    width = 380 / max(1, len(options))
    for i, entry in enumerate(options):
        skill = entry["action"].get("skill", "")
        x = 10 + i * width
        parts.append(el("g", _hook(entry, cat, needs=key) or {},
                        el("rect", {"x": x + 2, "y": y, "width": width - 4, "height": 28, "rx": 6,
                                    "fill": SKILL_COLOURS.get(skill, LAND), "stroke": GOLD, "stroke_width": 2}),
                        _t(x + width / 2, y + 19, "+ " + cat.name("skill", skill), 12, fill="#fff",
                           font_weight="bold")))
    return el("g", {}, *parts)


def _calendar(view: dict[str, Any], moves: dict[str, list[dict[str, Any]]], cat: Catalog) -> str:
    rows = view["calendar"]
    entries = view["festival"]["entries"]
    scored = {r["festival"]: [e["seat"] for e in r["entrants"]] for r in view["results"]}
    height = 40 + 40 * len(rows)
    parts = [_paper(400, height), _t(200, 22, cat.text("ui.calendar"), 14, font_weight="bold")]
    for i, row in enumerate(rows):
        y = 34 + i * 40
        now, past = row["round"] == view["round"], row["round"] < view["round"]
        parts.append(el("rect", {"x": 4, "y": y, "width": 392, "height": 36, "rx": 6,
                                 "fill": "#fff3c9" if now else PAPER, "stroke": GOLD if now else EDGE,
                                 "stroke_width": 2.5 if now else 1, "opacity": 0.55 if past else 1}))
        parts.append(_t(22, y + 24, str(row["round"]), 15, font_weight="bold"))
        for slot, fest in enumerate(row["festivals"]):
            x = 44 + slot * 176
            hook = _hook(_find(moves.get("enter", []), slot=slot), cat) if now else None
            card = [el("rect", {"x": x, "y": y + 4, "width": 170, "height": 28, "rx": 5, "fill": LAND,
                                "stroke": GOLD if hook else EDGE, "stroke_width": 3 if hook else 1}),
                    el("path", {"d": f"M{x + 8} {y + 26}v-16l11 4-11 4", "fill": "#c0392b"}),
                    _t(x + 24, y + 23, cat.name("region", fest["region"]), 12, text_anchor="start")]
            for k, size in enumerate(fest["sizes"]):
                card.append(_chip(x + 110 + k * 20, y + 18, size, r=8.5))
            seen = scored.get(fest["id"]) or ([e["seat"] for e in entries if e["slot"] == slot] if now else [])
            for j, who in enumerate(seen):
                card.append(_pawn(x + 160 - j * 16, y + 5, who, r=7.5))
            parts.append(el("g", hook, *card) if hook else el("g", {}, *card))
    return svg(400, height, parts, cat.text("ui.calendar"))


# --- the players ---------------------------------------------------------------------------


def _player_card(view: dict[str, Any], p: int, seat: int | None, cat: Catalog) -> str:
    player = view["players"][p]
    turn = view["current_player"] == p
    parts = [el("rect", {"x": 2, "y": 2, "width": 356, "height": 136, "rx": 10, "fill": PAPER,
                         "stroke": _seat_colour(p) if turn else EDGE, "stroke_width": 4 if turn else 1.5})]
    parts.append(_pawn(22, 24, p, 12))
    name = cat.player(p) + (f" ({cat.text('ui.you')})" if p == seat else "")
    parts.append(_t(42, 29, name, 15, text_anchor="start", font_weight="bold"))
    if turn:
        parts.append(_t(350, 29, "▶ " + cat.text("web.to_play"), 12, text_anchor="end", fill=_seat_colour(p),
                        font_weight="bold"))
    elif view["phase"] == "over" and p in view["winners"]:
        parts.append(_t(350, 29, "♛ " + cat.text("web.winner"), 13, text_anchor="end", fill=GOLD, font_weight="bold"))
    where = cat.name("region", player["pawn"]) if player["pawn"] else "-"
    parts.append(_t(12, 52, f"{cat.text('ui.pawn')}: {where}", 12, text_anchor="start"))
    parts.append(_t(350, 52, f"{cat.text('ui.score')} {player['score']['total']}", 14, text_anchor="end",
                    font_weight="bold"))
    for i, size in enumerate(_sizes(player["team"])[:15]):
        parts.append(_chip(16 + i * 21, 72, size, r=9))
    extra = len(_sizes(player["team"])) - 15
    if extra > 0:
        parts.append(_t(350, 77, f"+{extra}", 12, text_anchor="end", font_weight="bold"))
    for i, (skill, level) in enumerate(player["skills"].items()):
        x = 8 + i * 70
        parts.append(el("rect", {"x": x, "y": 90, "width": 66, "height": 20, "rx": 4,
                                 "fill": SKILL_COLOURS.get(skill, LAND), "opacity": 1 if level else 0.35}))
        parts.append(_t(x + 33, 104, f"{cat.name('skill', skill)} {level}", 11, fill="#fff" if level else INK,
                        font_weight="bold"))
    summary = (f"{cat.text('ui.tokens', count=player['special_tokens'])} · "
               f"{cat.text('ui.best_tower')} {player['best_tower']}")
    parts.append(_t(12, 130, summary, 11.5, text_anchor="start"))
    return el("div", {"class_": "castell-card", "style": "flex:1 1 300px;max-width:480px"},
              svg(360, 140, parts, cat.player(p)))


def _own(view: dict[str, Any], seat: int, cat: Catalog) -> str:
    """The seat's own table: player board holdings, score breakdown and the tower it can build."""
    player = view["players"][seat]
    preview = view.get("tower_preview") or {}
    tower = preview.get("tower")
    levels = len(tower) if tower else 0
    widest = max((len(level) for level in tower), default=0) if tower else 0
    width = max(360, 40 + widest * 26)
    tower_h = 24 * levels
    parts = [_t(width / 2, 20, cat.text("ui.best_tower"), 14, font_weight="bold")]
    if preview.get("festival"):
        parts.append(_t(width / 2, 38, cat.text("web.festival_tower", region=preview["region"],
                                                 score=preview["score"]), 12))
    base_y = 52 + tower_h
    if tower:
        for k, level in enumerate(tower):
            y = base_y - k * 24
            for j, size in enumerate(level):
                x = width / 2 + (j - (len(level) - 1) / 2) * 24
                parts.append(_chip(x, y - 10, size, r=10.5))
    else:
        parts.append(_t(width / 2, 60, cat.text("ui.no_tower"), 12))
        base_y = 70
    y = base_y + 22
    score = player["score"]
    lines = [" · ".join(f"{cat.text('score.' + k)} {v}" for k, v in score.items() if k != "total")]
    held = []
    for region, board in player["board"].items():
        bits = [f"●{board['tokens']}"] if board["tokens"] else []
        bits += [cat.name("prize", v) for v in board["prizes"]] + [f"#{s}" for s in board["size_tokens"]]
        if bits:
            held.append(f"{cat.name('region', region)} {' '.join(bits)}")
    if held:
        lines.append(f"{cat.text('ui.board')}: " + "; ".join(held))
    if player["performances"]:
        lines.append(f"{cat.text('ui.performances')}: " + " ".join(f"★{t['stars']}" for t in player["performances"]))
    for line in lines:
        for chunk in _wrap(line, 58):
            parts.append(_t(12, y, chunk, 11.5, text_anchor="start"))
            y += 17
    return svg(width, y + 4, [el("rect", {"width": width, "height": y + 4, "rx": 10, "fill": PAPER,
                                          "stroke": _seat_colour(seat), "stroke_width": 3}), *parts],
               cat.text("ui.best_tower"))


def _wrap(line: str, width: int) -> list[str]:
    """Lines of at most `width` characters (SVG text does not wrap by itself)."""
    return [line[i:i + width] for i in range(0, len(line), width)] or [""]


# --- the whole table -----------------------------------------------------------------------


def _status(view: dict[str, Any], seat: int | None, legal: Legal, cat: Catalog) -> str:
    """The header line and the buttons for the moves that have no place on the board."""
    words = [cat.text("ui.round", round=view["round"], phase=view["phase"]),
             cat.text("ui.bag", count=view["bag"]["count"])]
    if view["phase"] == "over":
        names = ", ".join(cat.player(p) for p in view["winners"])
        words.append(cat.text("web.winners", names=names))
    elif view["current_player"] is not None:
        who = view["current_player"]
        words.append(cat.text("web.your_turn") if who == seat else cat.text("web.turn_of", player=who))
    buttons = []
    for entry in legal:
        if entry["action"].get("type") in ("end_turn", "decline"):
            hook = _hook(entry, cat) or {}
            buttons.append(el("button", {**hook, "type": "button", "class_": "move castell-button"},
                              text(action_label(entry["action"], cat))))
    return el("div", {"class_": "castell-status"}, el("p", {}, text(" · ".join(words))), *buttons)


def board(view: dict[str, Any], seat: int | None, legal: Legal, cat: Catalog, events: Sequence[dict[str, Any]] = ()) -> str:
    """The Castell table as `seat` sees it (None: a spectator)."""
    moves = _by_type(legal)
    here = view["players"][seat]["pawn"] if seat is not None else None
    cards = [_player_card(view, p, seat, cat) for p in range(len(view["players"]))]
    side = el("div", {"style": "display:flex;flex-wrap:wrap;gap:8px"},
              el("div", {"style": "flex:1 1 300px;max-width:480px"}, _wheel(view, moves, here, cat)),
              el("div", {"style": "flex:1 1 300px;max-width:480px"}, _calendar(view, moves, cat)))
    drawn_map = el("div", {"style": "max-width:720px"}, _map(view, moves, here, cat))
    parts = [_status(view, seat, legal, cat), drawn_map, side,
             el("div", {"style": "display:flex;flex-wrap:wrap;gap:8px"}, *cards)]
    if seat is not None:
        parts.append(el("div", {"style": "max-width:560px"}, _own(view, seat, cat)))
    return el("div", {"class_": "castell", "style": f"font-family:{FONT};color:{INK}"}, *parts)


def prompt(view: dict[str, Any], seat: int | None, legal: list[dict[str, Any]], cat: Catalog) -> str:
    """What `seat` must do now, in words (boards/__init__.py)."""
    return ""  # TODO this session: each game's prompt


def standings(view: dict[str, Any], cat: Catalog) -> list[str]:
    """Each seat's running standing (boards/__init__.py)."""
    return []  # TODO this session: each game's standings
