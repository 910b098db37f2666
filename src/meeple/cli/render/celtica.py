"""Terminal rendering of a Celtica view: the path with its druids, the display, the piles and
each player's amulets, built only from the view a seat receives."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from meeple.core.i18n import Catalog
from meeple.games.celtica.describe import COLOURS, PARTS, action_label, phase_name

if TYPE_CHECKING:
    from meeple.games.celtica.view_types import CelticaView

__all__ = ["action_label", "board"]

STYLE = {"red": "bold red", "grey": "bold bright_black", "white": "bold white", "brown": "bold yellow",
         "black": "bold black on white"}
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
