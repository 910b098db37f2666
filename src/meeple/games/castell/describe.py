"""Castell moves as words: one labeller that the terminal, the browser and screen readers share,
so a move reads the same wherever it is offered, as a sentence a player would say.

A label is plain text from the game's catalog; a pure function of its arguments. With the
seat's view it names what a slot stands for (the festival's region, the local performance tile);
without it (the terminal's move list) it falls back to the slot's number.
"""

from __future__ import annotations

from typing import Any

from meeple.core.i18n import Catalog


def tower_text(tower: list[list[int]]) -> str:
    """A tower as "[9][9] / [7]", bottom level first: compact enough for a move button."""
    return " / ".join("".join(f"[{s}]" for s in level) for level in tower)


def _seat(view: dict[str, Any]) -> dict[str, Any] | None:
    """The player record of the seat the view belongs to (None for a spectator or no view)."""
    you = view.get("you")
    return view["players"][you] if isinstance(you, int) else None


def _festival(view: dict[str, Any], slot: int) -> dict[str, Any] | None:
    """Festival `slot` of the view's round (None when the calendar has none there)."""
    for row in view.get("calendar", []):
        if row["round"] == view.get("round") and slot < len(row["festivals"]):
            festival: dict[str, Any] = row["festivals"][slot]
            return festival
    return None


def _local_tile(view: dict[str, Any], slot: int) -> dict[str, Any] | None:
    """The local performance tile in `slot` of the region where the seat's pawn stands."""
    player = _seat(view)
    if player is None or player["pawn"] is None:
        return None
    for region in view["regions"]:
        if region["id"] == player["pawn"] and slot < len(region["tiles"]):
            tile: dict[str, Any] | None = region["tiles"][slot]
            return tile
    return None


def _key_and_params(action: dict[str, Any], view: dict[str, Any] | None) -> tuple[str, dict[str, Any]]:
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


def action_label(action_json: dict[str, Any], cat: Catalog, view: dict[str, Any] | None = None) -> str:
    """A move as a sentence ("Recruit a size-8 casteller"); `view` (the seat's) names the
    festival or local performance a slot stands for."""
    key, params = _key_and_params(action_json, view)
    label = cat.text(key, **params)
    if action_json.get("tower"):
        label += " " + cat.text("action.with_tower", tower=tower_text(action_json["tower"]))
    return label
