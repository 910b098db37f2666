"""Events in words, from the message catalogs: shared by the terminal and the browser pages, so a
move reads the same in both; and any game's position as plain text."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from meeple.core.i18n import Catalog
from meeple.core.protocol import Event


def event_text(event: Event, seat: int | None, cat: Catalog, you: int | None = None) -> str:
    """An event as `seat` may read it: the `_secret` wording only for those who may know, and
    the `_you` wording ("You draw") when the one person at the table, seat `you`, did it."""
    return event_json_text(event.for_seat(seat), cat, you)


def event_json_text(data: dict[str, object], cat: Catalog, you: int | None = None) -> str:
    """The same from an event's JSON form as a seat received it (`Event.for_seat`)."""
    key = f"event.{data['key']}"
    if data.get("private") and cat.has(key + "_secret"):
        key += "_secret"
    params = data["params"]
    assert isinstance(params, dict)
    subject = params.get("who", data["player"])
    if you is not None and subject == you and cat.has(key + "_you"):
        key += "_you"
    return cat.text(key, player=data["player"], **params)


def position_text(title: str, view: Mapping[str, Any]) -> str:
    """A position as plain text for any game, where no drawing of it is at hand (a training log):
    the game's title, then each field of `view` on its own line as compact JSON."""
    lines = [title, *(f"{key}: {json.dumps(value, separators=(',', ':'), ensure_ascii=False)}"
                      for key, value in view.items())]
    return "\n".join(lines) + "\n"
