"""A finished game's review as the table page shows it, built on the server in the page's
language from the stored review (`meeple.ai.review.Review`'s JSON) and the spectator's view of
the position before each move (the game is over: nothing is secret any more).

- the chart: each seat's chance of winning after each move, one line per seat told apart
  without colour too (each seat its own dash pattern and marker shape, as in the legend); every
  move is a column (`data-move`) a click on which steps the replay there, and the turning
  points are numbered badges (keyboard controls too);
- the turning points in words, the seats' mistakes, blunders and average loss;
- every move with its label (best, good, inaccuracy, mistake, blunder, forced), the mover's
  chance before and after, the preferred move when it was another, the luck and a hint mark.

Move numbers are the replay's: move k is the board after k moves, so review entry k - 1.
"""

from __future__ import annotations

import math
from typing import Any

from meeple.boards.svg import el, text
from meeple.core.i18n import Catalog
from meeple.core.registry import game_plugin
from meeple.core.views import View
from meeple.server.web.render import move_label, player_names

#: The chart's size in SVG units (it scales to its box) and its margins.
WIDTH, HEIGHT = 640.0, 250.0
LEFT, RIGHT, TOP, BOTTOM = 44.0, 14.0, 26.0, 36.0
#: Per seat: a colour (as the seat marks of the players panel), a dash pattern and a marker.
COLOURS = ("#c0392b", "#2e6da4", "#2f8f4e", "#8e5ba8", "#b8860b", "#555555")
DASHES = (None, "8 4", "2 4", "10 4 2 4", "5 2", "1 3")
SHAPES = ("circle", "square", "triangle", "diamond", "cross", "bar")
#: About how many markers a line carries (more would hide the line in a long game).
MARKERS = 24


def review_catalog(game: str, lang: str, seats: list[dict[str, Any]]) -> Catalog:
    """The page's words, the review's (labels, turning points) and the game's, with the players'
    names as the table shows them."""
    cat = Catalog(["meeple.server.web", "meeple.ai", *game_plugin(game).catalogs], lang)
    cat.player_names = player_names(seats, cat)
    return cat


def percent(chance: float) -> int:
    return round(chance * 100)


def review_html(game: str, review: dict[str, Any], before: list[View], seats: list[dict[str, Any]],
                lang: str) -> str:
    """The review's HTML; `before[k]` is the spectator's view before move k + 1."""
    cat = review_catalog(game, lang, seats)
    names = list(cat.player_names)
    moves = review["moves"]
    words = [move_label(game, entry["action"], cat, before[entry["index"]]) for entry in moves]
    points = [_turning_words(point, moves, words, cat) for point in review["turning_points"]]
    return "".join([
        el("h3", {"id": "review-chart-title"}, text(cat.text("reviewing.chart"))),
        el("p", {"class_": "review-help"}, text(cat.text("reviewing.chart_help"))),
        chart(review, names, points, cat),
        legend(names),
        el("h3", {}, text(cat.text("reviewing.turning_points"))),
        turning_list(review["turning_points"], points, cat),
        el("h3", {}, text(cat.text("reviewing.by_seat"))),
        summary(review["seats"], names, cat),
        el("h3", {}, text(cat.text("reviewing.every_move"))),
        el("ol", {"class_": "review-moves", "data_testid": "review-moves"},
           *[_move_line(entry, said, names, cat, game, before) for entry, said in zip(moves, words, strict=True)]),
    ])


def turning_list(turning: list[dict[str, Any]], said: list[str], cat: Catalog) -> str:
    """The turning points as buttons that step the replay; or, when no decision cost anything
    and no draw moved the chances beyond the estimates' noise, a sentence that says so."""
    if not turning:
        return el("p", {"class_": "review-help", "data_testid": "no-turning-points"},
                  text(cat.text("reviewing.no_turning_points")))
    return el("ol", {"class_": "turning-points", "data_testid": "turning-points"},
              *[el("li", {}, el("button", {"type": "button", "class_": "review-jump", "data_move": point["index"] + 1},
                                text(words))) for point, words in zip(turning, said, strict=True)])


def _turning_words(point: dict[str, Any], moves: list[dict[str, Any]], words: list[str], cat: Catalog) -> str:
    """A turning point in words, the players named as at the table (the stored words say
    "Player 2": a review file names no one)."""
    entry = moves[point["index"]]
    reason = cat.text("review.luck") if point["kind"] == "luck" else cat.text(f"review.label.{entry['label']}")
    return cat.text("review.turning_point", number=point["index"] + 1, player=entry["seat"],
                    move=words[point["index"]], reason=reason, points=f"{round(point['swing'] * 100):+d}")


def _move_line(entry: dict[str, Any], said: str, names: list[str], cat: Catalog, game: str,
               before: list[View]) -> str:
    """One move of the list: number, mover, move, label, chance before and after, and what was
    better, the luck and the hint when there are any."""
    label = entry["label"]
    parts = [
        el("span", {"class_": "num"}, text(f"{entry['index'] + 1}.")),
        el("span", {"class_": "who"}, text(names[entry["seat"]] if entry["seat"] < len(names) else "")),
        el("span", {"class_": "what"}, text(said)),
        el("span", {"class_": f"review-label label-{label}", "data_label": label},
           text(cat.text(f"review.label.{label}"))),
        el("span", {"class_": "chance"}, text(cat.text("reviewing.chance", before=percent(entry["chance_before"]),
                                                       after=percent(entry["chance_after"])))),
    ]
    if entry["best_action"] != entry["action"] and entry["loss"] > 0:
        better = move_label(game, entry["best_action"], cat, before[entry["index"]])
        parts.append(el("span", {"class_": "better"}, text(cat.text("reviewing.better", move=better,
                                                                     chance=percent(entry["best_chance"])))))
    if entry["luck"] and abs(entry["luck"]) >= 0.005:
        parts.append(el("span", {"class_": "luck"}, text(cat.text("reviewing.luck_of",
                                                                   points=f"{round(entry['luck'] * 100):+d}"))))
    if entry.get("hint"):
        parts.append(el("span", {"class_": "hint-mark"}, text(cat.text("reviewing.hint_used"))))
    return el("li", {"data_index": entry["index"]},
              el("button", {"type": "button", "class_": f"review-jump move-{label}", "data_move": entry["index"] + 1},
                 *parts))


def summary(seats: list[dict[str, Any]], names: list[str], cat: Catalog) -> str:
    """Per seat: mistakes, blunders, the average loss of win chance (in percentage points, over
    the seat's decisions), hints. (Inaccuracies are in the list of moves: four columns fit a phone.)"""
    columns = ("mistakes", "blunders", "average_loss", "hints")
    head = el("tr", {}, el("th", {}, text(cat.text("reviewing.player"))),
              *[el("th", {"title": cat.text("reviewing.average_loss_help") if name == "average_loss" else None},
                   text(cat.text(f"reviewing.heading.{name}"))) for name in columns])
    rows = []
    for seat in seats:
        k = seat["seat"]
        cells = [el("td", {"data_column": name},
                    text(f"{seat[name] * 100:.1f}%" if name == "average_loss" else seat[name])) for name in columns]
        rows.append(el("tr", {"data_seat": k},
                       el("th", {}, el("span", {"class_": f"seat-mark seat-{k}"}, text(k + 1)),
                          el("span", {"class_": "name", "title": names[k]}, text(names[k]))), *cells))
    return el("div", {"class_": "review-seats-wrap"},
              el("table", {"class_": "scores review-seats", "data_testid": "review-seats"},
                 el("thead", {}, head), el("tbody", {}, *rows)))


# -- the chart ------------------------------------------------------------------------------------


def marker(shape: str, x: float, y: float, r: float, colour: str) -> str:
    """A seat's marker at (x, y): its shape tells the seat apart without its colour."""
    common: dict[str, str | int | float | None] = {"fill": colour, "stroke": "#ffffff", "stroke_width": 1}
    if shape == "circle":
        return el("circle", {"cx": x, "cy": y, "r": r, **common})
    if shape == "square":
        return el("rect", {"x": x - r, "y": y - r, "width": 2 * r, "height": 2 * r, **common})
    if shape == "triangle":
        return el("path", {"d": f"M{x:.1f} {y - r * 1.2:.1f}L{x + r * 1.1:.1f} {y + r * 0.8:.1f}"
                                f"L{x - r * 1.1:.1f} {y + r * 0.8:.1f}Z", **common})
    if shape == "diamond":
        return el("path", {"d": f"M{x:.1f} {y - r * 1.3:.1f}L{x + r * 1.3:.1f} {y:.1f}L{x:.1f} {y + r * 1.3:.1f}"
                                f"L{x - r * 1.3:.1f} {y:.1f}Z", **common})
    if shape == "bar":
        return el("rect", {"x": x - r * 0.5, "y": y - r * 1.3, "width": r, "height": 2.6 * r, **common})
    return el("path", {"d": f"M{x - r:.1f} {y - r:.1f}L{x + r:.1f} {y + r:.1f}M{x - r:.1f} {y + r:.1f}"
                            f"L{x + r:.1f} {y - r:.1f}", "stroke": colour, "stroke_width": 2.2, "fill": "none"})


def _ticks(total: int) -> list[int]:
    """The move numbers the axis names: 1, round steps, and the last."""
    if total <= 1:
        return [1] if total else []
    raw = total / 6
    magnitude = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    ticks = [1, *range(step, total, step)]
    if total - ticks[-1] < step / 2 and len(ticks) > 1:
        ticks.pop()
    return [*ticks, total]


def chart(review: dict[str, Any], names: list[str], turning: list[str], cat: Catalog) -> str:
    """The chart of every seat's chance of winning after each move (see the module docstring)."""
    moves = review["moves"]
    total = max(1, len(moves))
    seats = review["num_players"]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(k: float) -> float:  # move k (1-based) at the middle of its column
        return LEFT + (k - 0.5) * plot_w / total

    def y(chance: float) -> float:
        return TOP + (1.0 - chance) * plot_h

    parts = [el("title", {}, text(cat.text("reviewing.chart"))),
             el("desc", {}, text(cat.text("reviewing.chart_help")))]
    for level in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(el("line", {"x1": LEFT, "x2": WIDTH - RIGHT, "y1": y(level), "y2": y(level),
                                 "class_": "grid" if level not in (0.0, 1.0) else "grid edge"}))
        if level in (0.0, 0.5, 1.0):
            parts.append(el("text", {"x": LEFT - 6, "y": y(level) + 4, "text_anchor": "end", "class_": "tick"},
                            text(f"{percent(level)}%")))
    for k in _ticks(len(moves)):
        parts.append(el("text", {"x": x(k), "y": HEIGHT - BOTTOM + 15, "text_anchor": "middle", "class_": "tick"},
                        text(k)))
    parts.append(el("text", {"x": LEFT + plot_w / 2, "y": HEIGHT - 5, "text_anchor": "middle", "class_": "axis"},
                    text(cat.text("reviewing.axis_move"))))
    parts.append(el("text", {"x": LEFT, "y": 14, "text_anchor": "start", "class_": "axis"},
                    text(cat.text("reviewing.axis_chance"))))
    every = max(1, math.ceil(len(moves) / MARKERS))
    for seat in range(seats):
        colour, dash, shape = COLOURS[seat % len(COLOURS)], DASHES[seat % len(DASHES)], SHAPES[seat % len(SHAPES)]
        line = [(x(k + 1), y(entry["chances"][seat])) for k, entry in enumerate(moves)]
        points = " ".join(f"{px:.1f},{py:.1f}" for px, py in line)
        marks = [marker(shape, px, py, 3.2, colour) for k, (px, py) in enumerate(line)
                 if k % every == 0 or k == len(line) - 1]
        parts.append(el("g", {"class_": f"seat-line seat-line-{seat}", "data_seat": seat, "aria_hidden": "true"},
                        el("polyline", {"points": points, "fill": "none", "stroke": colour, "stroke_width": 2,
                                        "stroke_dasharray": dash, "stroke_linejoin": "round"}), *marks))
    # Every move a column to click (its tooltip says each seat's chance after it).
    for k, entry in enumerate(moves, start=1):
        chances = ", ".join(cat.text("reviewing.seat_chance", player=names[s] if s < len(names) else s + 1,
                                     chance=percent(c)) for s, c in enumerate(entry["chances"]))
        parts.append(el("rect", {"x": LEFT + (k - 1) * plot_w / total, "y": TOP, "width": plot_w / total,
                                 "height": plot_h, "class_": "hit", "data_move": k},
                        el("title", {}, text(cat.text("reviewing.column", n=k, chances=chances)))))
    for number, (point, said) in enumerate(zip(review["turning_points"], turning, strict=True), start=1):
        k = point["index"] + 1
        parts.append(el("g", {"class_": "turn", "data_move": k, "role": "button", "tabindex": 0, "aria_label": said,
                              "data_testid": f"turning-point-{number}"},
                        el("title", {}, text(said)),
                        el("line", {"x1": x(k), "x2": x(k), "y1": TOP - 8, "y2": TOP + plot_h, "class_": "turn-line"}),
                        el("circle", {"cx": x(k), "cy": TOP - 10, "r": 8, "class_": "turn-badge"}),
                        el("text", {"x": x(k), "y": TOP - 6.5, "text_anchor": "middle", "class_": "turn-number"},
                           text(number))))
    return el("svg", {"xmlns": "http://www.w3.org/2000/svg", "viewBox": f"0 0 {WIDTH:g} {HEIGHT:g}",
                      "class_": "review-chart", "role": "group", "aria_labelledby": "review-chart-title",
                      "data_testid": "review-chart", "data_moves": len(moves)}, *parts)


def legend(names: list[str]) -> str:
    """Which line is whose: each seat's dash pattern and marker beside its name."""
    items = []
    for seat, name in enumerate(names):
        colour, dash, shape = COLOURS[seat % len(COLOURS)], DASHES[seat % len(DASHES)], SHAPES[seat % len(SHAPES)]
        sample = el("svg", {"xmlns": "http://www.w3.org/2000/svg", "viewBox": "0 0 44 14", "class_": "legend-line",
                            "aria_hidden": "true"},
                    el("line", {"x1": 2, "x2": 42, "y1": 7, "y2": 7, "stroke": colour, "stroke_width": 2,
                                "stroke_dasharray": dash}),
                    marker(shape, 22, 7, 3.6, colour))
        items.append(el("li", {"data_seat": seat}, sample, el("span", {"class_": "name", "title": name}, text(name))))
    return el("ul", {"class_": "review-legend"}, *items)
