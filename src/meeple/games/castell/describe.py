"""Castell moves as words: one labeller that the terminal and the browser share, so a move
reads the same wherever it is offered.

A label is plain text from the game's catalog; a pure function of its arguments.
"""

from __future__ import annotations

from typing import Any

from meeple.core.i18n import Catalog


def tower_text(tower: list[list[int]]) -> str:
    """A tower as "[9][9] / [7]", bottom level first: compact enough for a move button."""
    return " / ".join("".join(f"[{s}]" for s in level) for level in tower)


def action_label(action_json: dict[str, Any], cat: Catalog, view: dict[str, Any] | None = None) -> str:
    """A move as a line in the move list (`view` is accepted for the common signature; Castell
    labels need nothing from it)."""
    params = {k: v for k, v in action_json.items() if k not in ("type", "tower")}
    label = cat.text(f"action.{action_json.get('type')}", **params)
    if action_json.get("tower"):
        label += " " + tower_text(action_json["tower"])
    return label
