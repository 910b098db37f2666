"""Triqueta in the browser: the towers and animal rows, the seat's face-down tokens, the players.

Drawn from the view alone (see `meeple.server.web.boards`). The moves sit where they are made at
a real table: the current tower is the draw pile, a row is taken or filled by clicking it, a
drawn token is kept by clicking the face-down spaces (or boxed, in the duo variant, by clicking
the box). Every animal token carries its catalog mark and name as well as its colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meeple.core.i18n import Catalog
from meeple.games.triqueta.components import MAX_FACE_DOWN, NUM_ANIMALS, TOKENS_PER_TOWER
from meeple.games.triqueta.describe import action_label
from meeple.server.web import svg
from meeple.server.web.svg import el

#: Width of every drawing's viewBox: about a phone's width in CSS pixels, so 1 unit ~ 1 px there.
WIDTH = 360
FONT = "system-ui, -apple-system, 'Segoe UI', 'Noto Sans', 'Noto Sans CJK TC', sans-serif"
INK, MUTED, PAPER, PANEL, FELT = "#3b2f2a", "#8a7b6c", "#f6efe0", "#fffaf0", "#eadfc6"
ACCENT, GOLD, WARN, WOOD = "#1d7874", "#d9a21b", "#b23a48", "#a0764f"
#: (fill, mark colour) per animal, in rulebook order; the mark text is what tells them apart.
ANIMAL_COLOURS = (("#efe6d2", INK), ("#e3b23c", INK), ("#c8553d", "#fff"),
                  ("#6d4c3d", "#fff"), ("#8fb8c9", INK), ("#2f3e46", "#fff"))
TOKEN_BACK = "#5b4636"
#: Tokens per flower in a tower (the rulebook stacks 3 flowers of 5).
FLOWER = 5
ROW_HEIGHT = 44
TRIQUETA = 3

Key = tuple[str, int, int]


def _key(action: dict[str, Any]) -> Key:
    return (str(action["type"]), int(action.get("row", -1)), int(action.get("slot", 0)))


def _width(text: str, size: float) -> float:
    """Rough drawn width of `text` (CJK glyphs are square, Latin ones about half as wide)."""
    return sum(size if ord(ch) > 0x2E7F else size * 0.6 for ch in text)


def _text(x: float, y: float, content: str, size: float = 12, **more: Any) -> str:
    values: dict[str, Any] = {"x": x, "y": y, "font_size": size, "fill": INK}
    values.update(more)
    return el("text", values, svg.text(content))


def token(cx: float, cy: float, r: float, animal: int, cat: Catalog, hidden: bool = False) -> str:
    """An animal token face up: its colour, its mark (e.g. "Ow", "鷹") and its name as a tooltip.
    `hidden` marks a token only this seat sees (a dashed ring: it lies face down on the table)."""
    fill, ink = ANIMAL_COLOURS[animal]
    ring: svg.Attrs = {"stroke": INK, "stroke_width": 1.6, "stroke_dasharray": "3 2"} if hidden else {"stroke": "#0006"}
    mark = cat.text(f"web.mark.{animal}")
    return el("g", {"class_": f"token animal-{animal}"},
              el("title", None, svg.text(cat.name("animal", animal))),
              el("circle", {"cx": cx, "cy": cy, "r": r, "fill": fill, **ring}),
              _text(cx, cy + r * 0.36, mark, round(r * 0.95, 1), fill=ink, text_anchor="middle", font_weight="bold"))


def back(cx: float, cy: float, r: float) -> str:
    """A token face down: nobody but its owner knows the animal."""
    return el("g", {"class_": "token back"},
              el("circle", {"cx": cx, "cy": cy, "r": r, "fill": TOKEN_BACK, "stroke": "#0008"}),
              el("circle", {"cx": cx, "cy": cy, "r": r * 0.55, "fill": "none", "stroke": "#e9d8b8",
                            "stroke_width": 1.2}))


def ghost(cx: float, cy: float, r: float, animal: int, cat: Catalog) -> str:
    """Where a drawn token would go: a dashed outline with the animal's mark."""
    return el("g", {"class_": "ghost"},
              el("circle", {"cx": cx, "cy": cy, "r": r, "fill": PANEL, "stroke": ACCENT, "stroke_width": 1.8,
                            "stroke_dasharray": "4 3"}),
              _text(cx, cy + r * 0.36, cat.text(f"web.mark.{animal}"), round(r * 0.9, 1), fill=ACCENT,
                    text_anchor="middle", font_weight="bold"))


class Moves:
    """The seat's legal moves by what they do, with their labels (ids come only from `legal`)."""

    def __init__(self, legal: list[dict[str, Any]], view: dict[str, Any], cat: Catalog) -> None:
        self.by_key = {_key(m["action"]): (int(m["id"]), action_label(m["action"], cat, view)) for m in legal}

    def attrs(self, kind: str, row: int = -1, slot: int = 0) -> dict[str, str | int | None] | None:
        found = self.by_key.get((kind, row, slot))
        return None if found is None else svg.move(found[0], found[1])


def _status(view: dict[str, Any], seat: int | None, cat: Catalog) -> str:
    if view["finished"]:
        winners = ", ".join(cat.player(w) for w in view.get("winners", []))
        return f'{cat.text("web.game_over")} · ★ {winners}' if winners else cat.text("web.game_over")
    if seat is not None and view["current_player"] == seat:
        return cat.text("web.your_turn")
    return cat.text("web.turn", player=view["current_player"])


def _towers(view: dict[str, Any], moves: Moves, cat: Catalog) -> str:
    """The four round towers; the current one is the draw pile (a move when drawing is legal)."""
    parts = []
    for index, count in enumerate(view["towers"]):
        cx = 196 + index * 42
        current = index == view["current_tower"] and not view["finished"]
        layers = -(-count // FLOWER)
        stack = [el("ellipse", {"cx": cx, "cy": 44 - layer * 7, "rx": 15, "ry": 7, "fill": TOKEN_BACK,
                                "stroke": "#e9d8b8", "stroke_width": 0.8}) for layer in range(layers)]
        if not layers:
            stack.append(el("ellipse", {"cx": cx, "cy": 44, "rx": 15, "ry": 7, "fill": "none", "stroke": MUTED,
                                        "stroke_dasharray": "3 2"}))
        if index > view["current_tower"]:  # its tree tile is still on top (taken when its round starts)
            top = 44 - max(layers - 1, 0) * 7 - 9
            stack.append(el("path", {"d": f"M{cx} {top - 12} l8 12 h-16 z", "fill": "#4f7942", "stroke": "#2d4a26"},
                            el("title", None, svg.text(cat.text("web.tree")))))
        title = el("title", None, svg.text(cat.text("ui.tower", n=index + 1, count=count)))
        label = _text(cx, 66, str(count), 11, text_anchor="middle", fill=INK if current else MUTED)
        attrs: dict[str, Any] = {"class_": "tower" + (" current" if current else ""),
                                 "opacity": 1 if current or index > view["current_tower"] else 0.45}
        ring = []
        draw = moves.attrs("draw") if current else None
        if current:  # the frame: when drawing is the move, a click anywhere inside it draws
            ring.append(el("rect", {"x": cx - 20, "y": 14, "width": 40, "height": 58, "rx": 8, "fill": "none",
                                    "stroke": GOLD, "stroke_width": 2, "pointer_events": "all" if draw else None}))
        if draw:
            attrs.update(draw)
            attrs["class_"] = "tower current move"
            ring.append(el("rect", {"x": cx - 20, "y": 74, "width": 40, "height": 16, "rx": 8, "fill": ACCENT}))
            ring.append(_text(cx, 86, cat.text("web.draw_pile"), 10, fill="#fff", text_anchor="middle",
                              font_weight="bold"))
        parts.append(el("g", attrs, title, *ring, *stack, label))
    return "".join(parts)


def _row(index: int, row: list[int] | None, y: float, view: dict[str, Any], moves: Moves, cat: Catalog) -> str:
    """One animal row: its marker, its tokens, and the move it offers (take it, or place here)."""
    marker = el("g", {"class_": "marker"},
                el("rect", {"x": 14, "y": y + 6, "width": 26, "height": ROW_HEIGHT - 12, "rx": 4, "fill": WOOD,
                            "stroke": "#6b4b2e"}),
                _text(27, y + ROW_HEIGHT / 2 + 5, cat.name("row", index), 14, fill="#fff", text_anchor="middle",
                      font_weight="bold"))
    if row is None:
        return el("g", {"class_": "row taken", "opacity": 0.55},
                  el("rect", {"x": 8, "y": y, "width": WIDTH - 16, "height": ROW_HEIGHT - 4, "rx": 8, "fill": "none",
                              "stroke": MUTED, "stroke_dasharray": "5 4"}),
                  _text(52, y + ROW_HEIGHT / 2 + 3, cat.text("ui.taken"), 12, fill=MUTED, font_style="italic"))
    cy = y + (ROW_HEIGHT - 4) / 2
    live = [s for s, t in enumerate(view.get("pending", [])) if t >= 0]
    slots = [s for s, t in enumerate(view.get("pending", [])) if t >= 0 and moves.attrs("place", index, s)]
    spots = len(row) + len(slots)
    step = min(34.0, (WIDTH - 110) / max(spots, 1))
    inner = [token(64 + i * step, cy, 15, t, cat) for i, t in enumerate(row)]
    if not row and not slots:
        inner.append(_text(52, cy + 4, cat.text("web.empty_row"), 11, fill=MUTED, font_style="italic"))
    take = moves.attrs("take", index)
    whole = take or (moves.attrs("place", index, live[0]) if len(live) == 1 else None)
    for n, slot in enumerate(slots):
        x = 64 + (len(row) + n) * step
        if whole:
            inner.append(ghost(x, cy, 15, view["pending"][slot], cat))
        else:  # two drawn tokens (T9): each has its own place in the row
            inner.append(el("g", dict(moves.attrs("place", index, slot) or {}),
                            ghost(x, cy, 15, view["pending"][slot], cat)))
    open_to_move = bool(whole or slots)
    frame: svg.Attrs = {"x": 8, "y": y, "width": WIDTH - 16, "height": ROW_HEIGHT - 4, "rx": 8, "fill": FELT,
                        "stroke": ACCENT if open_to_move else "#cdbb98", "stroke_width": 2.2 if open_to_move else 1}
    cue = []
    if whole:
        sign = "↑" if take else "+"
        cue = [el("circle", {"cx": WIDTH - 28, "cy": cy, "r": 11, "fill": ACCENT}),
               _text(WIDTH - 28, cy + 5, sign, 15, fill="#fff", text_anchor="middle", font_weight="bold")]
    attrs: dict[str, Any] = {"class_": "row"}
    if whole:
        attrs.update(whole)
        attrs["class_"] = "row move"
    return el("g", attrs, el("rect", frame), marker, *inner, *cue)


def _board(view: dict[str, Any], seat: int | None, moves: Moves, cat: Catalog) -> str:
    """Round, whose turn, the towers, the rows and the token being looked at."""
    rows = view["rows"]
    top = 108
    parts = [el("rect", {"x": 0, "y": 0, "width": WIDTH, "height": 1, "fill": "none"}),
             _text(12, 26, cat.text("ui.round", round=view["round"], rounds=view["rounds"]), 16, font_weight="bold"),
             _text(12, 48, _status(view, seat, cat), 13, fill=ACCENT if not view["finished"] else WARN,
                   font_weight="bold"),
             _towers(view, moves, cat),
             ]
    if view["finished"]:  # every row was taken: the header and the players tell the end
        rows, top = [], top - 12
    else:
        parts.append(_text(12, top - 8, cat.text("ui.rows"), 12, fill=MUTED, font_weight="bold"))
    for index, row in enumerate(rows):
        parts.append(_row(index, row, top + index * ROW_HEIGHT, view, moves, cat))
    height = top + len(rows) * ROW_HEIGHT
    drawn = view.get("pending")
    if view["pending_count"] and not view["finished"]:
        y = height + 4
        if drawn is not None:
            parts.append(_text(12, y + 22, cat.text("web.drawn"), 13, font_weight="bold"))
            x = 40 + _width(cat.text("web.drawn"), 13)
            for t in drawn:
                if t >= 0:
                    parts.append(token(x, y + 17, 16, t, cat))
                    x += 38
        else:
            parts.append(back(24, y + 17, 14))
            parts.append(_text(46, y + 22, cat.text("web.looking", player=view["current_player"],
                                                   count=view["pending_count"]), 12))
        height = y + 40
    body = el("rect", {"x": 0, "y": 0, "width": WIDTH, "height": height + 8, "rx": 12, "fill": PAPER})
    return svg.svg(WIDTH, height + 8, [el("g", {"font_family": FONT}, body, *parts)], cat.text("web.board"))


def _hand(view: dict[str, Any], seat: int, moves: Moves, cat: Catalog) -> str:
    """The seat's own face-down tokens (and in the duo variant those it returned to the box),
    and where a drawn token goes to be kept or boxed."""
    me = view["players"][seat]
    parts = [_text(12, 22, cat.text("web.hand"), 14, font_weight="bold")]
    preview = me.get("score_with_face_down", me["score"])
    if not view["finished"] and preview != me["score"]:
        parts.append(_text(WIDTH - 12, 22, cat.text("web.preview", score=preview), 12, fill=MUTED, text_anchor="end"))
    drawn = view.get("pending") or []
    parts.append(_text(12, 44, cat.text("ui.face_down"), 11, fill=MUTED))
    face_down = me.get("face_down", [])
    keep = [s for s, t in enumerate(drawn) if t >= 0 and moves.attrs("keep", -1, s)]
    targets = []
    for spot in range(MAX_FACE_DOWN):
        cx = 30 + spot * 42
        if spot < len(face_down):
            parts.append(token(cx, 70, 16, face_down[spot], cat, hidden=True))
            continue
        parts.append(el("circle", {"cx": cx, "cy": 70, "r": 16, "fill": "none", "stroke": MUTED,
                                   "stroke_dasharray": "3 3"},
                        el("title", None, svg.text(cat.text("web.face_down_slot")))))
        if spot != len(face_down) or not keep:
            continue
        if len(keep) == 1:
            targets.append(el("g", {**(moves.attrs("keep", -1, keep[0]) or {}), "class_": "keep move"},
                              el("rect", {"x": cx - 22, "y": 48, "width": 44, "height": 44, "rx": 10,
                                          "fill": PANEL, "stroke": ACCENT, "stroke_width": 2.2}),
                              ghost(cx, 70, 16, drawn[keep[0]], cat)))
            continue
        # two drawn tokens (T9): one target each, over the free spaces
        step, radius = (42, 16) if spot == 0 else (30, 13)
        for n, slot in enumerate(keep):
            targets.append(el("g", dict(moves.attrs("keep", -1, slot) or {}),
                              ghost(cx + n * step, 70, radius, drawn[slot], cat)))
    parts.extend(targets)
    returned = me.get("returned", [])
    box = [s for s, t in enumerate(drawn) if t >= 0 and moves.attrs("discard", -1, s)]
    if view["duo"] or returned:
        x0 = 130
        parts.append(_text(x0, 44, cat.text("web.box"), 11, fill=MUTED))
        parts.append(el("rect", {"x": x0, "y": 50, "width": WIDTH - x0 - 12, "height": 40, "rx": 8, "fill": FELT,
                                 "stroke": "#cdbb98"}, el("title", None, svg.text(cat.text("web.returned")))))
        x = x0 + 22
        for t in returned:
            parts.append(token(x, 70, 14, t, cat, hidden=True))
            x += 32
        for slot in box:
            parts.append(el("g", dict(moves.attrs("discard", -1, slot) or {}), ghost(x, 70, 14, drawn[slot], cat)))
            x += 32
    body = el("rect", {"x": 0, "y": 0, "width": WIDTH, "height": 100, "rx": 12, "fill": PAPER})
    return svg.svg(WIDTH, 100, [el("g", {"font_family": FONT}, body, *parts)], cat.text("web.hand"))


def _player(index: int, p: dict[str, Any], y: float, view: dict[str, Any], seat: int | None, cat: Catalog) -> str:
    """One seat's panel: name and markers (turn, starting rock, tree tiles, out), score, collection."""
    current = index == view["current_player"] and not view["finished"]
    winner = view["finished"] and index in view.get("winners", [])
    height = 66
    parts = [el("rect", {"x": 4, "y": y, "width": WIDTH - 8, "height": height - 6, "rx": 10, "fill": PANEL,
                         "stroke": GOLD if current or winner else "#d8c9a8", "stroke_width": 2.5 if current else 1})]
    name = cat.player(index)
    if index == seat:
        name += f" ({cat.text('web.you')})"
    if current:
        parts.append(_text(12, y + 20, "▶", 12, fill=GOLD))
    x = 26.0
    parts.append(_text(x, y + 20, name, 13, font_weight="bold"))
    x += _width(name, 13) + 6
    if view["rock"] == index:
        parts.append(el("g", {"class_": "rock"}, el("title", None, svg.text(cat.text("web.rock"))),
                        el("ellipse", {"cx": x + 9, "cy": y + 15, "rx": 9, "ry": 6, "fill": "#9a9a94",
                                       "stroke": "#5c5c58"})))
        x += 24
    for _ in range(p["trees"]):
        parts.append(el("path", {"d": f"M{x + 7} {y + 7} l7 13 h-14 z", "fill": "#4f7942", "stroke": "#2d4a26"},
                        el("title", None, svg.text(cat.text("web.tree")))))
        x += 17
    if winner:
        parts.append(_text(x + 2, y + 20, "★ " + cat.text("web.winner"), 12, fill=GOLD, font_weight="bold"))
    elif p["out"] and not view["finished"]:
        parts.append(_text(x + 2, y + 20, cat.text("ui.out"), 11, fill=MUTED, font_style="italic"))
    parts.append(_text(WIDTH - 16, y + 24, str(p["score"]), 20, text_anchor="end", font_weight="bold"))
    parts.append(_text(WIDTH - 16, y + 40, cat.text("ui.score"), 10, fill=MUTED, text_anchor="end"))
    for animal in range(NUM_ANIMALS):
        count = p["collection"][animal]
        cx = 24 + animal * 38
        cy = y + 42
        if not count:
            parts.append(el("g", {"opacity": 0.22}, token(cx, cy, 12, animal, cat)))
            continue
        parts.append(token(cx, cy, 12, animal, cat))
        if count == TRIQUETA:
            parts.append(el("circle", {"cx": cx, "cy": cy, "r": 14.5, "fill": "none", "stroke": GOLD,
                                       "stroke_width": 2}))
        badge = WARN if count > TRIQUETA else INK
        parts.append(el("circle", {"cx": cx + 12, "cy": cy - 9, "r": 7, "fill": badge}))
        parts.append(_text(cx + 12, cy - 5.5, str(count), 9.5, fill="#fff", text_anchor="middle", font_weight="bold"))
    if not view["finished"]:
        for n in range(p["face_down_count"]):
            parts.append(el("g", {}, el("title", None, svg.text(cat.text("ui.face_down"))),
                            back(254 + n * 22, y + 42, 9)))
    return el("g", {"class_": "player" + (" current" if current else "")}, *parts)


def _players(view: dict[str, Any], seat: int | None, cat: Catalog) -> str:
    players = view["players"]
    height = 24 + len(players) * 66
    parts = [el("rect", {"x": 0, "y": 0, "width": WIDTH, "height": height, "rx": 12, "fill": PAPER}),
             _text(12, 18, cat.text("web.players"), 12, fill=MUTED, font_weight="bold")]
    for index, p in enumerate(players):
        parts.append(_player(index, p, 24 + index * 66, view, seat, cat))
    return svg.svg(WIDTH, height, [el("g", {"font_family": FONT}, *parts)], cat.text("web.players"))


def board(view: dict[str, Any], seat: int | None, legal: list[dict[str, Any]], cat: Catalog, events: Sequence[dict[str, Any]] = ()) -> str:
    """The table as `seat` sees it (None: a spectator), with its legal moves on the board."""
    moves = Moves(legal, view, cat)
    cell = {"style": "flex:1 1 320px;max-width:560px"}
    parts = [el("div", cell, _board(view, seat, moves, cat))]
    if seat is not None and not view["finished"]:  # at the end face-down tokens are scored (T7)
        parts.append(el("div", cell, _hand(view, seat, moves, cat)))
    parts.append(el("div", cell, _players(view, seat, cat)))
    layout = "display:flex;flex-wrap:wrap;gap:8px;align-items:flex-start"
    return el("div", {"class_": "board-triqueta", "style": layout}, *parts)


assert TOKENS_PER_TOWER % FLOWER == 0


def prompt(view: dict[str, Any], seat: int | None, legal: list[dict[str, Any]], cat: Catalog) -> str:
    """What `seat` must do now, in words (boards/__init__.py)."""
    return ""  # TODO this session: each game's prompt


def standings(view: dict[str, Any], cat: Catalog) -> list[str]:
    """Each seat's running standing (boards/__init__.py)."""
    return []  # TODO this session: each game's standings
