"""Move labels in words, shared by every front end (the terminal and the browser pages).

A label is plain text from the game's catalogs and a pure function of its arguments, so the
terminal list of moves, the web page's move buttons and the board's `aria-label`s all read the
same and a translation is made once.
"""

from __future__ import annotations

from typing import Any

from meeple.core.i18n import Catalog


def action_label(action_json: dict[str, Any], cat: Catalog, view: dict[str, Any] | None = None) -> str:
    """The move `action_json` in words. With the drawer's `view` and two drawn tokens (the duo
    variant, T9) a label names the token it moves, since "keep it face down" alone would not say
    which of the two."""
    kind = action_json["type"]
    params = {k: v for k, v in action_json.items() if k != "type"}
    pending = (view or {}).get("pending") or []
    if "slot" in params and len(pending) == 2:
        animal = cat.name("animal", pending[params["slot"]])
        return f"{animal}: " + cat.text(f"action.{kind}", **params)
    return cat.text(f"action.{kind}", **params)
