"""Castell moves as words: one labeller that the terminal, the browser and screen readers share,
so a move reads the same wherever it is offered, as a sentence a player would say.

A label is plain text from the game's catalog; a pure function of its arguments. With the
seat's view it names what a slot stands for (the festival's region, the local performance tile);
without it (the terminal's move list) it falls back to the slot's number.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.core.i18n import Catalog

if TYPE_CHECKING:
    from meeple.games.castell.view_types import CalendarFestival, CastellPlayer, CastellView, LocalTileView


def phase_key(view: CastellView) -> str:
    """The catalog name of the part of the round being played ("over" once the game is)."""
    return "over" if view["phase"] is None else view["phase"]


def tower_text(tower: list[list[int]]) -> str:
    """A tower as "[9][9] / [7]", bottom level first: compact enough for a move button."""
    return " / ".join("".join(f"[{s}]" for s in level) for level in tower)


def _seat(view: CastellView) -> CastellPlayer | None:
    """The player record of the seat the view belongs to (None for a spectator)."""
    seat = view["seat"]
    return None if seat is None else view["players"][seat]


def _festival(view: CastellView, slot: int) -> CalendarFestival | None:
    """Festival `slot` of the view's round (None when the calendar has none there)."""
    for row in view["calendar"]:
        if row["round"] == view["round"] and slot < len(row["festivals"]):
            return row["festivals"][slot]
    return None


def _local_tile(view: CastellView, slot: int) -> LocalTileView | None:
    """The local performance tile in `slot` of the region where the seat's pawn stands."""
    player = _seat(view)
    if player is None or player["pawn"] is None:
        return None
    for region in view["regions"]:
        if region["id"] == player["pawn"] and slot < len(region["tiles"]):
            return region["tiles"][slot]
    return None


def _key_and_params(action: dict[str, Any], view: CastellView | None) -> tuple[str, dict[str, Any]]:
    """The catalog key of a move's label and its parameters, using the view where it helps."""
    kind = action.get("type")
    params = {k: v for k, v in action.items() if k not in ("type", "tower")}
    key = f"action.{kind}"
    if kind == "train" and action.get("skill") == "special":
        key = "action.train_special"
    if view is None:
        return key, params
    player = _seat(view)
    if kind == "move" and player is not None and player["pawn"] is None:
        key = "action.place_pawn"  # K4: in round 1 the first move places the pawn anywhere
    elif kind == "enter" and (festival := _festival(view, action.get("slot", 0))):
        key, params = "action.enter_region", {**params, "region": festival["region"]}
    elif kind == "perform" and (tile := _local_tile(view, action.get("slot", 0))):
        key = "action.perform_tile"
        params = {**params, "kind": tile["kind"], "stars": tile["stars"], "region": player["pawn"] if player else ""}
    return key, params


def action_label(action_json: dict[str, Any], cat: Catalog, view: CastellView | None = None) -> str:
    """A move as a sentence ("Recruit a size-8 casteller"); `view` (the seat's) names the
    festival or local performance a slot stands for."""
    key, params = _key_and_params(action_json, view)
    label = cat.text(key, **params)
    if action_json.get("tower"):
        label += " " + cat.text("action.with_tower", tower=tower_text(action_json["tower"]))
    return label
