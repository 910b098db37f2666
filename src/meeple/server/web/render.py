"""The HTML a table page shows, built on the server from the same things the seat's message holds
(its view, its legal moves, the events it may see, the public seat list), never from the state.

The page script swaps these fragments in: `board` (the game's SVG drawing, marking what the
message's events changed), `moves` (every legal move as a button, so the game is playable by
keyboard and screen reader; each carries its preview, the label and the score change, in
`data-preview`), `log` (new event lines; the whole log so far in a connection's first message),
`players` (the seat panels: presence, clock, running standing, who moved last), `status` (whose
turn, with what to do in words, or how many players are still awaited) and, at the end, `result`
(the score table and the winners).
"""

from __future__ import annotations

import re
from typing import Any

from meeple.boards import board_for, prompt_for, standings_for
from meeple.boards.svg import el, move, text
from meeple.core.i18n import Catalog
from meeple.core.registry import game_plugin
from meeple.core.text import event_json_text
from meeple.core.views import View

LANGUAGES = ("en", "zh-Hant")


def catalog(game: str, lang: str) -> Catalog:
    """The page's catalog: the web strings and the game's own."""
    return Catalog(["meeple.server.web", *game_plugin(game).catalogs], lang)


def move_label(game: str, action: dict[str, Any], cat: Catalog, view: View) -> str:
    return game_plugin(game).text().action_label(action, cat, view=view)


def _name(seats: list[dict[str, Any]], seat: int | None, me: int | None, cat: Catalog) -> str:
    if seat is None:
        return ""
    if seat == me:
        return cat.text("web.you")
    row = seats[seat] if 0 <= seat < len(seats) else {}
    return seat_name(row, seat, cat)


def seat_name(row: dict[str, Any], seat: int, cat: Catalog) -> str:
    """A seat's name in the page's language: a bot seat is named by its level ("Easy bot 2"), as
    the server's own name for it ("greedy 2") is a spec, not a word; a person by their name; a
    free seat by its number."""
    if row.get("kind") == "bot" and row.get("bot"):
        return cat.text("web.bot_name", level=cat.name("level", row["bot"]), seat=seat + 1)
    if not row.get("taken", True):  # a free seat: its stored name is the server's placeholder
        return cat.text("web.seat", seat=seat + 1)
    return str(row.get("name") or cat.text("web.seat", seat=seat + 1))


def player_names(seats: list[dict[str, Any]], cat: Catalog) -> list[str]:
    """Every seat's name as the drawings and events say it (a seat without one: "Seat N")."""
    return [_name(seats, k, None, cat) for k in range(len(seats))]


def fragments(game: str, message: dict[str, Any], lang: str) -> dict[str, str]:
    """The HTML fragments of one "state" message for a page in `lang`."""
    cat = catalog(game, lang)
    seat, seats, view = message["seat"], message["seats"], message["view"]
    # Boards mark the seat's own name themselves ("(you)"); events say "You" through `_you` wordings.
    cat.player_names = player_names(seats, cat)
    if message.get("status") == "waiting" and not message["over"]:
        # Nobody moves before every seat is taken: no drawing may say "Your turn" meanwhile
        # (a short word: the drawings leave room for "Your turn" only).
        cat.messages["web.your_turn"] = cat.text("web.waiting_short")
    legal: list[dict[str, Any]] = message["legal"]
    buttons = [el("button", {**move(m["id"], label := move_label(game, m["action"], cat, view)), "type": "button",
                             "data_preview": preview(label, m.get("score_change"), cat)},
                  text(label)) for m in legal]
    told = [*message.get("history", []), *message["events"]]
    lines = [el("li", {}, text(event_json_text(event, cat, you=seat))) for event in told
             if cat.has(f"event.{event['key']}")]
    to_move = message["to_move"]
    if message["over"]:
        status = cat.text("web.game_over")
    elif message.get("status") == "closed":
        status = cat.text("web.closed")
    elif message.get("status") == "waiting":  # nobody moves before every seat is taken
        status = waiting(seats, cat)
    elif to_move is not None and to_move == seat:
        task = prompt_for(game)(view, seat, legal, cat)
        status = cat.text("table.your_turn_to", task=task) if task else cat.text("web.your_turn")
    else:
        status = cat.text("web.to_move", player=_name(seats, to_move, seat, cat)) if to_move is not None else ""
    standings = [] if message["over"] else standings_for(game)(view, cat)
    parts = {
        "board": board_for(game)(view, seat, legal, cat, events=message["events"]),
        "moves": "".join(buttons),
        "log": "".join(lines),
        "players": _players(seats, to_move, seat, cat, message.get("clock"), standings, message.get("moved")),
        "status": text(status),
    }
    if message["over"]:
        parts["result"] = _result(message["result"], seats, seat, cat)
    return parts


def preview(label: str, change: int | None, cat: Catalog) -> str:
    """What a move will do, shown before the click: its label and, where the server could tell,
    the mover's score change ("+12 points", "−5 points", "no points")."""
    if change is None:
        return label
    if change > 0:
        points = cat.text("table.gain", count=change)
    elif change < 0:
        points = cat.text("table.loss", count=-change)
    else:
        points = cat.text("table.no_points")
    return cat.text("table.preview", move=label, points=points)


#: A line of a rules summary that tells the terminal's option syntax ("--option duo=true",
#: "wheel=standard|advanced: …", "drawn_tile_only (off; M6): …"): the page leaves these out, since
#: the lobby offers the options in words.
_OPTION_LINE = re.compile(r"--option|^\s*(?:-\s*)?[a-z]+(?:_[a-z]+)*\s*[=（(]")


def rules(game: str, lang: str) -> str:
    """A game's rules summary: the text `meeple rules GAME` prints, in `lang`, without the lines
    on the terminal's option syntax."""
    summary = Catalog(list(game_plugin(game).catalogs), lang).text("rules.summary").strip()
    return "\n".join(line for line in summary.splitlines() if not _OPTION_LINE.search(line))


def waiting(seats: list[dict[str, Any]], cat: Catalog) -> str:
    """"Waiting for 1 more player" / "… 2 more players": the seats nobody has taken yet."""
    count = sum(1 for row in seats if not row.get("taken"))
    return cat.text("web.waiting", count=count)


def _clock(ms: int) -> str:
    seconds = max(0, ms) // 1000
    return f"{seconds // 60}:{seconds % 60:02d}"


def _players(seats: list[dict[str, Any]], to_move: int | None, me: int | None, cat: Catalog,
             clocks: dict[str, Any] | None = None, standings: list[str] | None = None,
             moved: int | None = None) -> str:
    """The seat panels; `standings` holds each seat's running standing, `moved` is the seat whose
    move is on display."""
    rows = []
    for row in seats:
        k = row["seat"]
        marks = {"player": True, "to-move": k == to_move, "me": k == me, "moved-last": k == moved}
        classes = " ".join(name for name, on in marks.items() if on)
        # A bot seat says its level in its name; a person's seat a bot took over says so here.
        detail = cat.text("web.bot_stands_in", level=cat.name("level", row["bot"])) \
            if row.get("bot") and row.get("kind") != "bot" else ""
        # A bot (or a bot playing a left seat) is always at the table; a person is while one of
        # their connections is attached here (`connected` counts this process's connections).
        if row.get("kind") == "bot" or row.get("bot"):
            online, presence, state = "●", cat.text("web.bot_present"), "present"
        elif row.get("connected"):
            online, presence, state = "●", cat.text("web.present"), "present"
        else:
            online, presence, state = "○", cat.text("web.away"), "away"
        clock = ""
        if clocks is not None:
            ms = clocks["remaining_ms"][k]
            running = clocks.get("running") == k
            clock = el("span", {"class_": "clock running" if running else "clock", "data_ms": ms,
                                "title": cat.text("web.clock_left")}, text(_clock(ms)))
        standing = standings[k] if standings and k < len(standings) else ""
        last = el("span", {"class_": "moved-mark"}, text(cat.text("table.moved_last"))) if k == moved else ""
        rows.append(el("li", {"class_": classes, "data_seat": k},
                       el("span", {"class_": f"seat-mark seat-{k}"}, text(k + 1)),
                       el("span", {"class_": "name", "title": (name := _name(seats, k, me, cat))}, text(name)),
                       el("span", {"class_": "detail"}, text(detail)),
                       el("span", {"class_": "standing"}, text(standing)) if standing else "", last, clock,
                       el("span", {"class_": f"online {state}", "title": presence, "aria_label": presence,
                                   "role": "img", "data_presence": state}, text(online))))
    return "".join(rows)


def _result(result: dict[str, Any], seats: list[dict[str, Any]], me: int | None, cat: Catalog) -> str:
    """The final score breakdown (the same parts as `score_breakdown()`) and the winners."""
    breakdown: list[dict[str, Any]] = result["breakdown"]
    winners = set(result["winners"])
    head = [el("th", {}, text(cat.text("web.part")))] + [
        el("th", {"class_": "winner" if k in winners else None},
           el("span", {"class_": "name", "title": (name := _name(seats, k, me, cat))},
              text(name + (" ★" if k in winners else "")))) for k in range(len(breakdown))]
    keys = [k for k, v in breakdown[0].items() if isinstance(v, int | float) and not isinstance(v, bool)]
    body = []
    for key in keys:
        label = cat.text(f"score.{key}") if cat.has(f"score.{key}") else key
        cells = [el("td", {}, text(row.get(key, ""))) for row in breakdown]
        body.append(el("tr", {"class_": "total" if key == "total" else None}, el("th", {}, text(label)), *cells))
    if "total" not in keys:  # a game whose score is one of its parts (Celtica: complete amulets)
        cells = [el("td", {}, text(score)) for score in result["scores"]]
        body.append(el("tr", {"class_": "total"}, el("th", {}, text(cat.text("web.total"))), *cells))
    names = ", ".join(_name(seats, k, me, cat) for k in result["winners"])
    return (el("p", {"class_": "winners", "data_testid": "game-over"}, text(cat.text("web.winners", names=names)))
            + el("table", {"class_": "scores", "data_testid": "scores"},
                 el("thead", {}, el("tr", {}, *head)), el("tbody", {}, *body)))
