"""How Celtica's moves and things are shown to a person, shared by the terminal and the browser
so both say and colour the same thing (nothing here draws; renderers do).

`action_label` is plain text from the game's catalogs and a pure function of its arguments: with
the view it also says where a played druid lands, the preview a player wants before a move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.core.i18n import Catalog
from meeple.games.celtica.components import COLOURS, PARTS

if TYPE_CHECKING:
    from meeple.games.celtica.view_types import CelticaView

__all__ = ["COLOURS", "FILL", "INK", "KIND_FILL", "PARTS", "action_label", "destination", "phase_name"]

#: Druid and card colours as drawn (a symbol per colour always goes with them in the browser,
#: the letter in `view.druid_mark` in the terminal).
FILL = {"red": "#c0392b", "grey": "#7f8c8d", "white": "#ecf0f1", "brown": "#8e5b2f", "black": "#222222"}
#: Text drawn on a colour: dark on the light druids, light on the dark ones.
INK = {"red": "#ffffff", "grey": "#ffffff", "white": "#222222", "brown": "#ffffff", "black": "#ffffff"}
#: Location backgrounds by kind (the kind's picture or symbol letter always goes with them).
KIND_FILL = {"start": "#dddddd", "village": "#c8e6c9", "castle": "#a5d6a7", "monastery": "#81c784",
             "ruin": "#ef9a9a", "cult": "#ce93d8", "goal": "#ffe082"}


def destination(view: CelticaView, colour: str, steps: int) -> int:
    """Where the `colour` druid stops after `steps` cards (a move past the goal ends on it, C5)."""
    goal = len(view["board"]) - 1
    return min(view["druids"][COLOURS.index(colour)] + steps, goal)


def phase_name(view: CelticaView, cat: Catalog) -> str:
    """The decision pending, in words ("game over" once the game is)."""
    return cat.name("phase", "over" if view["phase"] is None else view["phase"])


def action_label(action_json: dict[str, Any], cat: Catalog, view: CelticaView | None = None) -> str:
    """The catalog's words for one action, a sentence a player would say; given the view, a play
    also says where the druid lands."""
    kind = action_json.get("type")
    if kind == "play":
        return _play_label(action_json, cat, view)
    if kind == "cult":
        return cat.text("action.cult_draw" if action_json.get("draw") else "action.cult_pass")
    params = {k: v for k, v in action_json.items() if k != "type"}
    return cat.text(f"action.{kind}", **params)


def _play_label(action_json: dict[str, Any], cat: Catalog, view: CelticaView | None) -> str:
    """"Move the red druid with 2 druid cards and 1 experience card, to 7 (castle)" (C5)."""
    cards = int(action_json["cards"])
    experience = int(action_json["experience"])
    colour = action_json["colour"]
    words = {"colour": colour, "cards": cat.text("count.druid_cards", count=cards),
             "experience": cat.text("count.experience_cards", count=experience)}
    label = cat.text("action.play_experience" if experience else "action.play", **words)
    if view is not None and colour in COLOURS:
        to = destination(view, colour, cards + experience)
        label = cat.text("action.lands", move=label, to=to, location=view["board"][to]["kind"])
    return label
