"""Move labels in words, shared by every front end (the terminal and the browser pages).

A label is plain text from the game's catalogs and a pure function of its arguments, so the
terminal list of moves, the web page's move buttons and the board's `aria-label`s all read the
same and a translation is made once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.core.i18n import Catalog

if TYPE_CHECKING:
    from meeple.games.triqueta.view_types import TriquetaView

#: Kinds of move that act on a drawn token (named in the label when the drawer's view is given).
_ON_TOKEN = ("place", "keep", "discard")


def action_label(action_json: dict[str, Any], cat: Catalog, view: TriquetaView | None = None) -> str:
    """The move `action_json` as a player would say it. With the drawer's `view` a label names
    the drawn animal ("Place the owl in row 2"): with two drawn tokens (the duo variant, T9)
    "Keep it face down" alone would not say which of the two, and with one it reads better.
    A draw in the duo variant draws two tokens while the tower has two (T9)."""
    kind = action_json["type"]
    params = {k: v for k, v in action_json.items() if k != "type"}
    pending = (view.get("pending") if view else None) or []
    slot = params.get("slot", 0)
    if kind in _ON_TOKEN and slot < len(pending) and pending[slot] >= 0:
        return cat.text(f"action.{kind}_animal", animal=pending[slot], **params)
    if kind == "draw" and view and view["duo"] and view["towers"][view["current_tower"]] >= 2:
        return cat.text("action.draw_two")
    return cat.text(f"action.{kind}", **params)
