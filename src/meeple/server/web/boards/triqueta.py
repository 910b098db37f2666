"""Triqueta in the browser: the towers and animal rows, the seat's face-down tokens, the players.

Drawn from the view alone (see `meeple.server.web.boards`). The moves sit where they are made at
a real table: the current tower is the draw pile, a row is taken or filled by tapping it, a
drawn token is kept by tapping the face-down space (or boxed, in the duo variant, by tapping the
box). With two drawn tokens (T9) a move is two taps: the token (`data-pick`), then where it goes
(`data-needs`). Every tap target is at least 44 units square, about 44 CSS px on a phone.

Pieces are drawn as what they are (`triqueta_art`): animal heads, token backs with the knot, the
tree tiles and the starting rock. The step on display (`events`) is outlined: the token placed,
the row taken and where its animals went, the token drawn or kept, the rock and tree taken.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from meeple.core.i18n import Catalog
from meeple.games.triqueta.components import ANIMALS, MAX_FACE_DOWN, NUM_ANIMALS, TOKENS_PER_TOWER
from meeple.games.triqueta.describe import action_label
from meeple.server.web import svg
from meeple.server.web.boards import triqueta_art as art
from meeple.server.web.svg import el

if TYPE_CHECKING:
    from meeple.games.triqueta.view_types import TriquetaPlayer, TriquetaView

#: Width of every drawing's viewBox: about a phone's width in CSS pixels, so 1 unit ~ 1 px there.
WIDTH = 360
FONT = "system-ui, -apple-system, 'Segoe UI', 'Noto Sans', 'Noto Sans CJK TC', sans-serif"
INK, MUTED, PAPER, PANEL, FELT = art.INK, "#7a6b5c", "#f6efe0", art.LIGHT, "#eadfc6"
ACCENT, GOLD, WARN, WOOD = "#1d7874", "#c38d0e", "#b23a48", "#a0764f"
#: The outline of what the step on display changed (with the class `last-change`).
CHANGE = "#e8590c"
#: Tokens per flower in a tower (the rulebook stacks 3 flowers of 5).
FLOWER = 5
ROW_HEIGHT = 50
TOKEN_R = 16
#: The side of a tap target, in units (about CSS px on a phone).
TAP = 46
TRIQUETA = 3
#: Room for a player's name in the seat panel (the markers and the score take the rest).
NAME_ROOM = 130
NAME_SIZE = 13

Key = tuple[str, int, int]


def _key(action: dict[str, Any]) -> Key:
    return (str(action["type"]), int(action.get("row", -1)), int(action.get("slot", 0)))


def _text(x: float, y: float, content: str, size: float = 12, **more: Any) -> str:
    values: dict[str, Any] = {"x": x, "y": y, "font_size": size, "fill": INK}
    values.update(more)
    return el("text", values, svg.text(content))


def _title(content: str) -> str:
    return el("title", None, svg.text(content))


def _ring(cx: float, cy: float, r: float) -> str:
    """The outline drawn around a changed piece."""
    return el("circle", {"cx": cx, "cy": cy, "r": r, "fill": "none", "stroke": CHANGE, "stroke_width": 2.6,
                         "class_": "change-ring"})


def _frame(x: float, y: float, width: float, height: float) -> str:
    """The outline drawn around a changed area (a row, a tower, a panel)."""
    return el("rect", {"x": x, "y": y, "width": width, "height": height, "rx": 9, "fill": "none", "stroke": CHANGE,
                       "stroke_width": 2.6, "class_": "change-ring"})


def _hit(x: float, y: float, width: float = TAP, height: float = TAP) -> str:
    """A transparent tap area around a piece drawn smaller than a finger."""
    return el("rect", {"x": x, "y": y, "width": width, "height": height, "fill": "transparent", "class_": "hit"})


def token(cx: float, cy: float, r: float, animal: int, cat: Catalog, hidden: bool = False,
          changed: bool = False) -> str:
    """An animal token face up: its head drawn on its colour, its name as a tooltip. `hidden`
    marks a token only this seat sees (a dashed ring: it lies face down on the table)."""
    fill, ink = art.ANIMAL_COLOURS[animal]
    edge: svg.Attrs = {"stroke": INK, "stroke_width": 1.6, "stroke_dasharray": "3 2"} if hidden else {
        "stroke": "#0007", "stroke_width": 1}
    name = cat.name("animal", animal)
    classes = f"token animal-{animal}" + (" last-change" if changed else "")
    return el("g", {"class_": classes, "data_kind": ANIMALS[animal], "data_shape": art.SHAPES[animal]},
              _title(cat.text("web.face_down_token", animal=animal) if hidden else name),
              el("circle", {"cx": cx, "cy": cy, "r": r, "fill": fill, **edge}),
              art.place(cx, cy, r * 0.86, art.head(animal, ink, fill)),
              _ring(cx, cy, r + 3.5) if changed else "")


def back(cx: float, cy: float, r: float, label: str, changed: bool = False) -> str:
    """A token face down: the knot on its back, nobody but its owner knows the animal."""
    return el("g", {"class_": "token back" + (" last-change" if changed else ""), "data_kind": "back",
                    "data_shape": "knot"},
              _title(label),
              el("circle", {"cx": cx, "cy": cy, "r": r, "fill": art.BACK, "stroke": "#0008"}),
              art.place(cx, cy, r * 0.9, art.knot(art.BACK_MARK)),
              _ring(cx, cy, r + 3) if changed else "")


def ghost(cx: float, cy: float, r: float, animal: int) -> str:
    """Where a drawn token would go: a dashed outline with the animal's head."""
    return el("g", {"class_": "ghost", "data_kind": ANIMALS[animal], "data_shape": art.SHAPES[animal]},
              el("circle", {"cx": cx, "cy": cy, "r": r, "fill": PANEL, "stroke": ACCENT, "stroke_width": 1.8,
                            "stroke_dasharray": "4 3"}),
              art.place(cx, cy, r * 0.8, art.head(animal, ACCENT, PANEL)))


def tree_tile(cx: float, cy: float, size: float, cat: Catalog, changed: bool = False) -> str:
    return el("g", {"class_": "tree" + (" last-change" if changed else ""), "data_kind": "tree"},
              _title(cat.text("web.tree")), art.place(cx, cy, size / 2, art.tree()),
              _ring(cx, cy, size * 0.75) if changed else "")


def rock(cx: float, cy: float, size: float, cat: Catalog, changed: bool = False) -> str:
    return el("g", {"class_": "rock" + (" last-change" if changed else ""), "data_kind": "rock"},
              _title(cat.text("web.rock")), art.place(cx, cy, size / 2, art.rock()),
              _ring(cx, cy, size * 0.75) if changed else "")


class Moves:
    """The seat's legal moves by what they do, with their labels (ids come only from `legal`)."""

    def __init__(self, legal: list[dict[str, Any]], view: TriquetaView, cat: Catalog) -> None:
        self.by_key = {_key(m["action"]): (int(m["id"]), action_label(m["action"], cat, view)) for m in legal}
        drawn = view.get("pending") or []
        #: The drawn tokens still to deal with; with two, a move first picks its token (T9).
        self.live = [s for s, t in enumerate(drawn) if t >= 0]
        self.two = len(self.live) == 2

    def attrs(self, kind: str, row: int = -1, slot: int = 0) -> dict[str, str | int | None] | None:
        found = self.by_key.get((kind, row, slot))
        if found is None:
            return None
        needs = f"slot{slot}" if self.two and kind != "take" and kind != "draw" else None
        return svg.move(found[0], found[1], needs)

    def slots(self, kind: str, row: int = -1) -> list[int]:
        """The drawn tokens' slots that `kind` (in `row`) may move."""
        return [s for s in self.live if (kind, row, s) in self.by_key]


@dataclass
class Changes:
    """What the events of the step on display changed, as places on the drawing."""

    drew: bool = False
    placed: set[int] = field(default_factory=set)  # rows whose last token was just placed
    taken: set[int] = field(default_factory=set)  # rows just taken
    collected: dict[int, set[int]] = field(default_factory=dict)  # seat -> animals just added
    kept: set[int] = field(default_factory=set)  # seats that just kept a token face down
    boxed: set[int] = field(default_factory=set)  # seats that just returned a token to the box (T9)
    rock: int | None = None
    tree: int | None = None

    @classmethod
    def of(cls, events: Sequence[dict[str, Any]]) -> Changes:
        found = cls()
        for event in events:
            key, params = event["key"], event.get("params", {})
            seat = -1 if event.get("player") is None else int(event["player"])  # game_end has no player
            if key == "draw":
                found.drew = True
            elif key == "place":
                found.placed.add(int(params["row"]))
            elif key == "take":
                found.taken.add(int(params["row"]))
                found.collected.setdefault(seat, set()).update(params["animals"])
            elif key == "reveal":  # T7: face-down tokens added at the end
                found.collected.setdefault(seat, set()).update(params["animals"])
            elif key == "keep":
                found.kept.add(seat)
            elif key == "discard":
                found.boxed.add(seat)
            elif key == "round_end":
                found.rock = seat
            elif key == "tree":
                found.tree = seat
        return found


def _header(view: TriquetaView, seat: int | None, cat: Catalog) -> list[str]:
    """The round, and whose turn it is (the name cut to its room, T1 seating order)."""
    parts = [_text(12, 26, cat.text("ui.round", round=view["round"], rounds=view["rounds"]), 16, font_weight="bold")]
    if view["over"]:
        parts.append(_text(12, 50, cat.text("web.game_over"), 14, fill=WARN, font_weight="bold"))
    elif seat is not None and view["current_player"] == seat:
        parts.append(_text(12, 50, cat.text("web.your_turn"), 14, fill=ACCENT, font_weight="bold"))
    else:
        label = cat.text("web.to_play")
        parts.append(_text(12, 50, label, 13, fill=MUTED))
        x = 16 + svg.text_width(label, 13)
        parts.append(svg.name_label(x, 50, cat.player(view["current_player"]), 166 - x, 13, fill=ACCENT,
                                    font_weight="bold", data_room=round(166 - x, 1)))
    return parts


def _towers(view: TriquetaView, moves: Moves, changes: Changes, cat: Catalog) -> str:
    """The four round towers; the current one is the draw pile (a move when drawing is legal)."""
    parts = []
    for index, count in enumerate(view["towers"]):
        cx = 194 + index * 46
        current = index == view["current_tower"] and not view["over"]
        layers = -(-count // FLOWER)
        stack = [el("ellipse", {"cx": cx, "cy": 50 - layer * 8, "rx": 16, "ry": 7.5, "fill": art.BACK,
                                "stroke": art.BACK_MARK, "stroke_width": 0.8}) for layer in range(layers)]
        if not layers:
            stack.append(el("ellipse", {"cx": cx, "cy": 50, "rx": 16, "ry": 7.5, "fill": "none", "stroke": MUTED,
                                        "stroke_dasharray": "3 2"}))
        if index > view["current_tower"]:  # its tree tile is still on top (taken when its round starts, T3)
            stack.append(tree_tile(cx, 50 - max(layers - 1, 0) * 8 - 14, 16, cat))
        label = _text(cx, 72, str(count), 11, text_anchor="middle", fill=INK if current else MUTED)
        attrs: dict[str, Any] = {"class_": "tower" + (" current" if current else ""),
                                 "opacity": 1 if current or index > view["current_tower"] else 0.45}
        ring = []
        draw = moves.attrs("draw") if current else None
        if current:  # the frame: when drawing is the move, a tap anywhere inside it draws
            ring.append(el("rect", {"x": cx - TAP / 2, "y": 10, "width": TAP, "height": 84 if draw else 68, "rx": 9,
                                    "fill": "transparent", "stroke": GOLD, "stroke_width": 2,
                                    "pointer_events": "all" if draw else None}))
        if draw:
            attrs.update(draw)
            attrs["class_"] = "tower current move"
            ring.append(el("rect", {"x": cx - 20, "y": 76, "width": 40, "height": 15, "rx": 7.5, "fill": ACCENT}))
            ring.append(_text(cx, 87.5, cat.text("web.draw_pile"), 10, fill="#fff", text_anchor="middle",
                              font_weight="bold"))
        if current and changes.drew:
            attrs["class_"] += " last-change"
            ring.append(_frame(cx - TAP / 2 - 3, 7, TAP + 6, 74))
        parts.append(el("g", attrs, _title(cat.text("ui.tower", n=index + 1, count=count)), *ring, *stack, label))
    return "".join(parts)


def _row_target(index: int, slot: int, x: float, y: float, animal: int, moves: Moves) -> str:
    """Placing drawn token `slot` in row `index` with two tokens drawn (T9): the whole row is the
    target, shown once that token is picked."""
    cy = y + (ROW_HEIGHT - 4) / 2
    return el("g", dict(moves.attrs("place", index, slot) or {}),
              el("rect", {"x": 8, "y": y, "width": WIDTH - 16, "height": ROW_HEIGHT - 4, "rx": 8, "fill": "transparent",
                          "stroke": ACCENT, "stroke_width": 2.2}),
              ghost(x, cy, TOKEN_R, animal), *_cue(cy, "+"))


def _cue(cy: float, sign: str) -> list[str]:
    return [el("circle", {"cx": WIDTH - 30, "cy": cy, "r": 12, "fill": ACCENT}),
            _text(WIDTH - 30, cy + 5, sign, 15, fill="#fff", text_anchor="middle", font_weight="bold")]


def _row(index: int, row: list[int] | None, y: float, view: TriquetaView, moves: Moves, changes: Changes,
         cat: Catalog) -> str:
    """One animal row: its marker, its tokens, and the move it offers (take it, or place here)."""
    cy = y + (ROW_HEIGHT - 4) / 2
    marker = el("g", {"class_": "marker"},
                el("rect", {"x": 14, "y": y + 7, "width": 26, "height": ROW_HEIGHT - 18, "rx": 4, "fill": WOOD,
                            "stroke": "#6b4b2e"}),
                _text(27, cy + 5, cat.name("row", index), 14, fill="#fff", text_anchor="middle", font_weight="bold"))
    box = (8, y, WIDTH - 16, ROW_HEIGHT - 4)
    if row is None:
        just = index in changes.taken
        return el("g", {"class_": "row taken" + (" last-change" if just else ""), "data_row": index,
                        "opacity": 1 if just else 0.55},
                  el("rect", {"x": box[0], "y": box[1], "width": box[2], "height": box[3], "rx": 8, "fill": "none",
                              "stroke": MUTED, "stroke_dasharray": "5 4"}),
                  _text(52, cy + 4, cat.text("ui.taken"), 12, fill=MUTED, font_style="italic"),
                  _frame(*box) if just else "")
    drawn = view.get("pending") or []
    single = moves.slots("place", index) if not moves.two else []
    take = moves.attrs("take", index)
    whole = take or (moves.attrs("place", index, single[0]) if single else None)
    spots = len(row) + (1 if single or moves.two else 0)
    step = min(36.0, (WIDTH - 130) / max(spots, 1))
    last = len(row) - 1 if index in changes.placed else -1
    inner = [token(66 + i * step, cy, TOKEN_R, t, cat, changed=i == last) for i, t in enumerate(row)]
    if not row and not moves.slots("place", index):
        inner.append(_text(56, cy + 4, cat.text("web.empty_row"), 11, fill=MUTED, font_style="italic"))
    if single:
        inner.append(ghost(66 + len(row) * step, cy, TOKEN_R, drawn[single[0]]))
    open_to_move = bool(whole or moves.slots("place", index))
    frame: svg.Attrs = {"x": box[0], "y": box[1], "width": box[2], "height": box[3], "rx": 8, "fill": FELT,
                        "stroke": ACCENT if open_to_move else "#cdbb98", "stroke_width": 2.2 if open_to_move else 1}
    cue = _cue(cy, "↑" if take else "+") if whole else []
    targets = [_row_target(index, slot, 66 + len(row) * step, y, drawn[slot], moves)
               for slot in moves.slots("place", index)] if moves.two else []
    attrs: dict[str, Any] = {"class_": "row", "data_row": index}
    if whole:
        attrs.update(whole)
        attrs["class_"] = "row move"
    return el("g", attrs, _title(cat.text("ui.row", row=cat.name("row", index))), el("rect", frame), marker,
              *inner, *cue, *targets)


def _drawn(view: TriquetaView, y: float, moves: Moves, changes: Changes, cat: Catalog) -> list[str]:
    """The tokens the drawer looks at (only the drawer sees them); with two (T9), each is a pick."""
    drawn = view.get("pending")
    if drawn is None:
        count = view["pending_count"]
        return [back(28, y + 20, 15, cat.text("ui.face_down"), changed=changes.drew),
                _text(52, y + 25, cat.text("web.looking", count=count), 12)]
    label = cat.text("web.drawn")
    parts = [_text(12, y + 25, label, 13, font_weight="bold")]
    x = 44 + svg.text_width(label, 13)
    for slot, animal in enumerate(drawn):
        if animal < 0:
            continue
        piece = token(x, y + 20, TOKEN_R, animal, cat, changed=changes.drew)
        if moves.two:
            name = cat.name("animal", animal)
            piece = el("g", svg.pick(f"slot{slot}", cat.text("web.choose", animal=animal)),
                       _hit(x - TAP / 2, y + 20 - TAP / 2), piece, _title(name))
        parts.append(piece)
        x += TAP + 6
    if moves.two:
        parts.append(_text(x - 8, y + 25, cat.text("web.pick_hint"), 11, fill=MUTED))
    return parts


def _board(view: TriquetaView, seat: int | None, moves: Moves, changes: Changes, cat: Catalog) -> str:
    """Round, whose turn, the towers, the rows and the tokens being looked at."""
    rows = view["rows"]
    top = 116
    parts = [*_header(view, seat, cat), _towers(view, moves, changes, cat)]
    if view["over"]:  # every row was taken: what the face-down tokens did instead (T7)
        rows = []
        parts.extend(_final(view, top - 12, changes, cat))
        top += len(view["players"]) * FINAL_ROW + 10
    else:
        parts.append(_text(12, top - 8, cat.text("ui.rows"), 12, fill=MUTED, font_weight="bold"))
    for index, row in enumerate(rows):
        parts.append(_row(index, row, top + index * ROW_HEIGHT, view, moves, changes, cat))
    height = top + len(rows) * ROW_HEIGHT
    if view["pending_count"] and not view["over"]:
        parts.extend(_drawn(view, height, moves, changes, cat))
        height += 46
    body = el("rect", {"x": 0, "y": 0, "width": WIDTH, "height": height + 8, "rx": 12, "fill": PAPER})
    return svg.svg(WIDTH, height + 8, [el("g", {"font_family": FONT}, body, *parts)], cat.text("web.board"))


FINAL_ROW = 34


def _final(view: TriquetaView, y: float, changes: Changes, cat: Catalog) -> list[str]:
    """The end (T7): each seat's face-down tokens added to its collection or boxed, its score,
    and the winners (T8)."""
    parts = [_text(12, y, cat.text("web.final"), 12, fill=MUTED, font_weight="bold")]
    for seat, (p, final) in enumerate(zip(view["players"], view["final"], strict=True)):
        top = y + 8 + seat * FINAL_ROW
        cy = top + FINAL_ROW / 2
        winner = seat in view["winners"]
        parts.append(el("rect", {"x": 8, "y": top, "width": WIDTH - 16, "height": FINAL_ROW - 4, "rx": 8,
                                 "fill": PANEL, "stroke": GOLD if winner else "#d8c9a8"}))
        parts.append(svg.name_label(18, cy + 4, cat.player(seat), 118, 12, font_weight="bold", fill=INK,
                                    data_room=118))
        x = 156.0
        for animal in final["added"]:
            parts.append(token(x, cy - 2, 11, animal, cat, changed=animal in changes.collected.get(seat, set())))
            x += 26
        for _ in range(final["boxed"]):
            parts.append(back(x, cy - 2, 11, cat.text("web.boxed_at_end")))
            x += 26
        if not final["added"] and not final["boxed"]:
            parts.append(_text(x - 10, cy + 2, cat.text("web.no_face_down"), 11, fill=MUTED, font_style="italic"))
        star = "★ " if winner else ""
        parts.append(_text(WIDTH - 18, cy + 3, star + cat.text("standing.points", count=p["score"]), 13,
                           text_anchor="end", font_weight="bold", fill=GOLD if winner else INK))
    return parts


def _keep_targets(view: TriquetaView, cx: float, moves: Moves) -> list[str]:
    """Keeping a drawn token face down (T4): the next free space, one target per keepable token
    (with two drawn, T9, each shows once its token is picked)."""
    drawn = view.get("pending") or []
    return [el("g", {**(moves.attrs("keep", -1, slot) or {}), "class_": "keep move"},
               el("rect", {"x": cx - TAP / 2, "y": 72 - TAP / 2, "width": TAP, "height": TAP, "rx": 10,
                           "fill": PANEL, "stroke": ACCENT, "stroke_width": 2.2}),
               ghost(cx, 72, 17, drawn[slot])) for slot in moves.slots("keep")]


def _box(view: TriquetaView, me: TriquetaPlayer, moves: Moves, changed: bool, cat: Catalog) -> list[str]:
    """The duo variant's box (T9): the tokens this seat returned, and where a drawn one goes."""
    drawn = view.get("pending") or []
    x0 = 122
    parts = [_text(x0, 44, cat.text("web.box"), 11, fill=MUTED),
             el("rect", {"x": x0, "y": 49, "width": WIDTH - x0 - 12, "height": TAP, "rx": 8, "fill": FELT,
                         "stroke": "#cdbb98"}, _title(cat.text("web.returned")))]
    x = x0 + 4.0
    for slot in moves.slots("discard"):
        parts.append(el("g", dict(moves.attrs("discard", -1, slot) or {}), _hit(x, 49),
                        ghost(x + TAP / 2, 72, 15, drawn[slot])))
    if moves.slots("discard"):
        x += TAP + 4
    returned = me.get("returned", [])
    step = min(30.0, (WIDTH - 12 - x - 16) / max(len(returned), 1))
    for n, animal in enumerate(returned):
        parts.append(token(x + 15 + n * step, 72, 13, animal, cat, hidden=True,
                           changed=changed and n == len(returned) - 1))
    return parts


def _hand(view: TriquetaView, seat: int, moves: Moves, changes: Changes, cat: Catalog) -> str:
    """The seat's own face-down tokens (and in the duo variant those it returned to the box),
    and where a drawn token goes to be kept or boxed."""
    me = view["players"][seat]
    parts = [_text(12, 22, cat.text("web.hand"), 14, font_weight="bold")]
    preview = me.get("score_with_face_down", me["score"])
    if preview != me["score"]:
        parts.append(_text(WIDTH - 12, 22, cat.text("web.preview", score=preview), 12, fill=MUTED, text_anchor="end"))
    parts.append(_text(12, 44, cat.text("ui.face_down"), 11, fill=MUTED))
    face_down = me.get("face_down", [])
    for spot in range(MAX_FACE_DOWN):
        cx = 34 + spot * 52
        if spot < len(face_down):
            just = seat in changes.kept and spot == len(face_down) - 1
            parts.append(token(cx, 72, 17, face_down[spot], cat, hidden=True, changed=just))
        elif spot == len(face_down):
            parts.append(el("circle", {"cx": cx, "cy": 72, "r": 17, "fill": "none", "stroke": MUTED,
                                       "stroke_dasharray": "3 3"}, _title(cat.text("web.face_down_slot"))))
            parts.extend(_keep_targets(view, cx, moves))
        else:
            parts.append(el("circle", {"cx": cx, "cy": 72, "r": 17, "fill": "none", "stroke": MUTED,
                                       "stroke_dasharray": "3 3"}, _title(cat.text("web.face_down_slot"))))
    if view["duo"] or me.get("returned"):
        parts.extend(_box(view, me, moves, seat in changes.boxed, cat))
    body = el("rect", {"x": 0, "y": 0, "width": WIDTH, "height": 104, "rx": 12, "fill": PAPER})
    return svg.svg(WIDTH, 104, [el("g", {"font_family": FONT}, body, *parts)], cat.text("web.hand"))


def _collection(p: TriquetaPlayer, y: float, just: set[int], cat: Catalog) -> list[str]:
    """A seat's animals by kind: a token per kind with its count; a triqueta (exactly 3) ringed in
    gold and marked ✓, more than 3 marked with a minus (they cost points)."""
    parts = []
    for animal in range(NUM_ANIMALS):
        count = p["collection"][animal]
        cx = 24 + animal * 38
        if not count:
            parts.append(el("g", {"opacity": 0.22}, token(cx, y, 12, animal, cat)))
            continue
        parts.append(token(cx, y, 12, animal, cat, changed=animal in just))
        if count == TRIQUETA:
            parts.append(el("circle", {"cx": cx, "cy": y, "r": 14.5, "fill": "none", "stroke": GOLD,
                                       "stroke_width": 2}))
        badge = WARN if count > TRIQUETA else (GOLD if count == TRIQUETA else INK)
        mark = {TRIQUETA: "✓"}.get(count, str(count) if count < TRIQUETA else f"{count}!")
        parts.append(el("g", {"class_": "count"},
                        _title(cat.text("web.count", count=count, animal=animal)),
                        el("rect", {"x": cx + 4, "y": y - 17, "width": 17, "height": 13, "rx": 6.5, "fill": badge}),
                        _text(cx + 12.5, y - 7, mark, 9.5, fill="#fff", text_anchor="middle", font_weight="bold")))
    return parts


def _name(index: int, y: float, seat: int | None, cat: Catalog, parts: list[str]) -> float:
    """The seat's name cut to its room (and "(you)" kept in sight beside it); returns where the
    markers after it may start."""
    you = f"({cat.text('web.you')})" if index == seat else ""
    room = NAME_ROOM - (svg.text_width(you, 11) + 4 if you else 0)
    name = cat.player(index)
    parts.append(svg.name_label(26, y, name, room, NAME_SIZE, font_weight="bold", fill=INK, data_room=room))
    # Bold Latin glyphs run up to a fifth wider than `text_width` reckons (DejaVu Sans Bold).
    x = 26 + svg.text_width(svg.clip(name, room, NAME_SIZE), NAME_SIZE) * 1.2 + 6
    if you:
        parts.append(_text(x, y, you, 11, fill=MUTED))
        x += svg.text_width(you, 11) + 6
    return x


def _player(index: int, p: TriquetaPlayer, y: float, view: TriquetaView, seat: int | None, changes: Changes,
            cat: Catalog) -> str:
    """One seat's panel: name and markers (turn, starting rock, tree tiles, out), score, collection."""
    current = index == view["current_player"] and not view["over"]
    winner = view["over"] and index in view["winners"]
    height = 72
    parts = [el("rect", {"x": 4, "y": y, "width": WIDTH - 8, "height": height - 6, "rx": 10, "fill": PANEL,
                         "stroke": GOLD if current or winner else "#d8c9a8", "stroke_width": 2.5 if current else 1})]
    if current:
        parts.append(_text(11, y + 21, "▶", 12, fill=GOLD))
    x = _name(index, y + 21, seat, cat, parts)
    if view["rock"] == index:
        parts.append(rock(x + 10, y + 16, 18, cat, changed=changes.rock == index))
        x += 24
    for n in range(p["trees"]):
        parts.append(tree_tile(x + 9, y + 16, 16, cat, changed=changes.tree == index and n == p["trees"] - 1))
        x += 20
    if winner:
        parts.append(el("g", {"class_": "winner"}, _title(cat.text("web.winner")),
                        _text(x + 4, y + 21, "★", 15, fill=GOLD)))
    elif p["out"] and not view["over"]:
        parts.append(_text(x + 4, y + 21, cat.text("ui.out"), 11, fill=MUTED, font_style="italic"))
    parts.append(el("g", {"class_": "score"}, _title(cat.text("web.score_note")),
                    _text(WIDTH - 16, y + 24, str(p["score"]), 20, text_anchor="end", font_weight="bold"),
                    _text(WIDTH - 16, y + 40, cat.text("ui.score"), 10, fill=MUTED, text_anchor="end")))
    parts.extend(_collection(p, y + 48, changes.collected.get(index, set()), cat))
    if not view["over"]:
        for n in range(p["face_down_count"]):
            just = index in changes.kept and n == p["face_down_count"] - 1
            parts.append(back(256 + n * 26, y + 48, 10, cat.text("ui.face_down"), changed=just))
    boxed = index in changes.boxed and index != seat  # returned unseen (T9): the panel is what changed
    if boxed:
        parts.append(_frame(2, y - 2, WIDTH - 4, height - 2))
    classes = "player" + (" current" if current else "") + (" last-change" if boxed else "")
    return el("g", {"class_": classes, "data_seat": index}, *parts)


def _players(view: TriquetaView, seat: int | None, changes: Changes, cat: Catalog) -> str:
    players = view["players"]
    height = 24 + len(players) * 72
    parts = [el("rect", {"x": 0, "y": 0, "width": WIDTH, "height": height, "rx": 12, "fill": PAPER}),
             _text(12, 18, cat.text("web.players"), 12, fill=MUTED, font_weight="bold")]
    for index, p in enumerate(players):
        parts.append(_player(index, p, 24 + index * 72, view, seat, changes, cat))
    return svg.svg(WIDTH, height, [el("g", {"font_family": FONT}, *parts)], cat.text("web.players"))


#: Two columns when there is room (the towers and rows beside the seat's tokens and the players
#: on a laptop), one above the other on a phone; each drawing grows with the width it gets.
LAYOUT = "display:flex;flex-wrap:wrap;gap:8px;align-items:flex-start"
COLUMN = "flex:1 1 330px;min-width:0;max-width:620px;display:flex;flex-direction:column;gap:8px"


def board(view: TriquetaView, seat: int | None, legal: list[dict[str, Any]], cat: Catalog,
          events: Sequence[dict[str, Any]] = ()) -> str:
    """The table as `seat` sees it (None: a spectator), with its legal moves on the board and
    what `events` changed outlined."""
    moves = Moves(legal, view, cat)
    changes = Changes.of(events)
    side = [_players(view, seat, changes, cat)]
    if seat is not None and not view["over"]:  # at the end face-down tokens are scored (T7)
        side.insert(0, _hand(view, seat, moves, changes, cat))
    return el("div", {"class_": "board-triqueta", "style": LAYOUT},
              el("div", {"style": COLUMN}, _board(view, seat, moves, changes, cat)),
              el("div", {"style": COLUMN}, *side))


assert TOKENS_PER_TOWER % FLOWER == 0


def prompt(view: TriquetaView, seat: int | None, legal: list[dict[str, Any]], cat: Catalog) -> str:
    """What `seat` must do now, in words, from its legal moves: take or draw (T5: the tower may be
    empty, the last row may be the only one), then what to do with the drawn token(s) (T4, T9)."""
    if not legal or seat is None:
        return ""
    kinds = {m["action"]["type"] for m in legal}
    drawn = view.get("pending") or []
    live = [t for t in drawn if t >= 0]
    if "take" in kinds or "draw" in kinds:
        return _prompt_turn(view, kinds, cat)
    if len(live) == 2:  # T9: two tokens, two different actions
        choices = [cat.text(f"prompt.kind.{k}") for k in ("place", "keep", "discard") if k in kinds]
        return cat.text("prompt.duo_two", first=live[0], second=live[1],
                        choices=cat.text("prompt.or").join(choices))
    if drawn and len(drawn) == 2:  # T9: the second token, with what is left to do
        choices = [cat.text(f"prompt.kind.{k}") for k in ("place", "keep", "discard") if k in kinds]
        return cat.text("prompt.duo_second", animal=live[0], choices=cat.text("prompt.or").join(choices))
    return cat.text("prompt.place_or_keep" if "keep" in kinds else "prompt.place", animal=live[0])


def _prompt_turn(view: TriquetaView, kinds: set[str], cat: Catalog) -> str:
    rows = sum(r is not None for r in view["rows"])
    if "draw" not in kinds:  # T5: the tower is empty
        return cat.text("prompt.empty", count=rows)
    two = view["duo"] and view["towers"][view["current_tower"]] >= 2
    if rows == 1:  # T5: the last one in may go on drawing
        return cat.text("prompt.last_two" if two else "prompt.last")
    return cat.text("prompt.choose_two" if two else "prompt.choose")


def standings(view: TriquetaView, cat: Catalog) -> list[str]:
    """Each seat's score so far as the rules count it from what is on the table (its collection,
    the rock, tree tiles); face-down tokens count only at the end (T7), so they are named beside
    the score, not added: nobody may know what they are."""
    found = []
    for p in view["players"]:
        text = cat.text("standing.points", count=p["score"])
        hidden = p["face_down_count"] if not view["over"] else 0
        if hidden:
            text += cat.text("standing.face_down", count=hidden)
        found.append(text)
    return found
