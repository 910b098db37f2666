"""Terminal rendering of a Celtica view: the path with its druids, the display, the piles and
each player's amulets, built only from the view a seat receives."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from meeple.core.i18n import Catalog
from meeple.games.celtica.describe import COLOURS, FILL, KIND_FILL, PARTS, action_label, phase_name

if TYPE_CHECKING:
    from meeple.games.celtica.view_types import CelticaView

__all__ = ["action_label", "board", "svg"]

STYLE = {"red": "bold red", "grey": "bold bright_black", "white": "bold white", "brown": "bold yellow",
         "black": "bold black on white"}
SYMBOL = {"start": "S", "village": "V", "castle": "C", "monastery": "M", "ruin": "R", "cult": "+", "goal": "G"}
KIND_STYLE = {"ruin": "bold red", "cult": "bold magenta", "goal": "bold yellow", "start": "dim"}


def _path(view: CelticaView, cat: Catalog) -> Table:
    """The path left to right: location number, kind symbol with its number, then the druids
    standing there stacked below."""
    board_locs = view["board"]
    table = Table(title=cat.text("view.board"), show_header=False, box=None, padding=(0, 0, 0, 1), pad_edge=False)
    for _ in board_locs:
        table.add_column(justify="center", no_wrap=True)
    table.add_row(*(Text(str(i), style="dim") for i in range(len(board_locs))))
    table.add_row(*(Text(cat.text(f"view.symbol.{loc['kind']}") + (str(loc["number"]) if loc["number"] else ""),
                         style=KIND_STYLE.get(loc["kind"], "")) for loc in board_locs))
    stacks: list[list[str]] = [[] for _ in board_locs]
    for colour, pos in zip(COLOURS, view["druids"]):
        stacks[pos].append(colour)
    for level in range(max(len(stack) for stack in stacks)):
        table.add_row(*(Text(cat.text(f"view.druid_mark.{stack[level]}"), style=STYLE[stack[level]])
                        if level < len(stack) else Text("") for stack in stacks))
    return table


def _legend(cat: Catalog) -> Text:
    kinds = ("start", "village", "castle", "monastery", "ruin", "cult", "goal")
    return Text(" · ".join(f"{cat.text(f'view.symbol.{k}')} {cat.name('location', k)}" for k in kinds), style="dim")


def _parts_line(counts: list[int], cat: Catalog) -> str:
    return ", ".join(f"{cat.name('part', p)}×{n}" for p, n in zip(PARTS, counts) if n) or cat.text("view.nothing")


def _cards(counts: list[int], cat: Catalog) -> Text:
    text = Text()
    for colour, n in zip(COLOURS, counts):
        if n:
            text.append(f"{cat.name('colour', colour)}×{n} ", style=STYLE[colour])
    return text or Text(cat.text("view.nothing"))


def _players(view: CelticaView, cat: Catalog, seat: int | None) -> Table:
    """One row per player: amulets, then a narrow column per part type, then cards."""
    table = Table(show_header=True, padding=(0, 1), title=cat.text("view.amulets"))
    table.add_column("")
    table.add_column(cat.text("view.col_complete"), justify="right")
    table.add_column(cat.text("view.col_incomplete"))
    for part in PARTS:
        table.add_column(cat.text(f"view.short.{part}"), justify="right")
    table.add_column(cat.text("view.cards_header"))
    for index, player in enumerate(view["players"]):
        marks = []
        if view["current_player"] == index:
            marks.append(cat.text("view.to_act"))
        if index in view["winners"]:
            marks.append(cat.text("view.winner"))
        if player["owes_card"]:
            marks.append(cat.text("view.owes_card"))
        name = cat.player(index) + ("" if not marks else " (" + ", ".join(marks) + ")")
        amulet = player["amulets"]
        table.add_row(
            name,
            str(amulet["complete"]),
            " ".join(map(str, amulet["incomplete"])) or "-",
            *(str(n) if n else "·" for n in player["parts"]),
            cat.text("view.cards", druid=player["druid_cards"], experience=player["experience_cards"]),
        )
    return table


def board(view: CelticaView, cat: Catalog, seat: int | None) -> RenderableType:
    """The table as `seat` sees it."""
    status = Text(cat.text("view.round", round=view["round"]))
    if view["final_round"]:
        status.append(" · " + cat.text("view.final_round"), style="bold")
    status.append(" · " + phase_name(view, cat))
    if view["pending"]:
        status.append(" · " + cat.text("view.pending", count=view["pending"]))
    status.append("\n" + cat.text(f"view.{view['provenance']}"), style="dim")
    piles = Text(
        "  ".join([
            cat.text("view.supply", count=view["supply"]),
            cat.text("view.druid_deck", count=view["druid_deck"]),
            cat.text("view.experience_deck", count=view["experience_deck"]),
        ])
    )
    piles.append(f"\n{cat.text('view.discards')}: ")
    piles.append(_cards(view["druid_discards"], cat))
    piles.append(" | ")
    piles.append(_cards(view["experience_discards"], cat))
    piles.append(f"\n{cat.text('view.part_discards')}: {_parts_line(view['part_discards'], cat)}")
    display = Panel(_parts_line(view["display"], cat), title=cat.text("view.display"))
    druids = Text(cat.text("view.druids") + ": ")
    for colour, pos in zip(COLOURS, view["druids"]):
        druids.append(f"{cat.name('colour', colour)} {pos}  ", style=STYLE[colour])
    parts: list[RenderableType] = [status, _path(view, cat), _legend(cat), druids, display, piles,
                                   _players(view, cat, seat)]
    if seat is not None:
        mine = view["players"][seat]
        hand = Text(cat.text("view.hand") + ": ")
        hand.append(_cards(mine["hand"], cat))
        hand.append("   " + cat.text("view.experience") + ": ")
        hand.append(_cards(mine["experience"], cat))
        if mine.get("must_play") is not None:
            hand.append("   " + cat.text("view.must_play", colour=mine["must_play"]), style="bold")
        parts.append(hand)
    return Group(*parts)


def svg(view: CelticaView, cat: Catalog) -> str:
    """A picture of the table as a spectator sees it: the path with its druids, the display and
    every player's parts."""
    from xml.sax.saxutils import escape

    step = 46
    board_w = step * len(view["board"]) + 20
    width = max(board_w, 760)
    rows = len(view["players"])
    provenance = cat.text("view." + view["provenance"])
    short = {part: cat.text("view.short." + part) for part in PARTS}
    height = 250 + 26 * rows
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="10" y="18" font-size="14">{escape(cat.text("game"))} · {escape(provenance)}</text>']
    for index, loc in enumerate(view["board"]):
        x = 10 + step * index + step // 2
        label = SYMBOL.get(loc["kind"], "?") + (str(loc["number"]) if loc["number"] else "")
        out.append(f'<circle cx="{x}" cy="50" r="18" fill="{KIND_FILL.get(loc["kind"], "#eee")}" stroke="#555"/>')
        out.append(f'<text x="{x}" y="54" text-anchor="middle">{escape(label)}</text>')
        out.append(f'<text x="{x}" y="82" text-anchor="middle" font-size="9">{index}</text>')
        stacked = [c for c, pos in zip(COLOURS, view["druids"]) if pos == index]
        for k, colour in enumerate(stacked):
            out.append(f'<circle cx="{x}" cy="{96 + 12 * k}" r="5" fill="{FILL[colour]}" stroke="#000"/>')
    y = 175
    out.append(f'<text x="10" y="{y}">{escape(cat.text("view.display"))}:</text>')
    for index, count in enumerate(view["display"]):
        x = 90 + 44 * index
        out.append(f'<rect x="{x}" y="{y - 14}" width="38" height="20" fill="#fff8e1" stroke="#999"/>')
        out.append(f'<text x="{x + 19}" y="{y}" text-anchor="middle">'
                   f'{escape(short[PARTS[index]])}×{count}</text>')
    y += 36
    out.append(f'<text x="10" y="{y}">{escape(cat.text("score.complete"))} · '
               f'{escape(cat.text("score.incomplete"))} · {escape(cat.text("score.parts"))}</text>')
    for seat, player in enumerate(view["players"]):
        y += 26
        amulet = player["amulets"]
        star = " ★" if seat in view["winners"] else ""
        parts = " ".join(f"{short[p]}{n}" for p, n in zip(PARTS, player["parts"]))
        sizes = " ".join(map(str, amulet["incomplete"])) or "-"
        out.append(f'<text x="10" y="{y}">{escape(cat.player(seat) + star)}: {amulet["complete"]} · '
                   f'{escape(sizes)} · {escape(parts)}</text>')
    out.append("</svg>")
    return "\n".join(out)
