"""Where a game's rules send what happened: one sink per step, recording or quiet.

A game declares its events once, in its own `events.py`: a subclass of `Recorder` with one
method per event kind that takes the raw values the rules hold and builds the `Event` (catalog
key, public params, secret params and who may see them). A quiet subclass overrides every one of
those methods with one that does nothing, and its single instance serves `State.step`: search and
playouts build no dict, no list and no Event, and where the modules are compiled an event costs one
native method call. The rules call the sink unconditionally; `State.apply` hands the game's `_do`
a list, `State.step` hands it None, and the game's `_do` picks the sink once from that.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from mypy_extensions import mypyc_attr

from meeple.core.protocol import Event


@mypyc_attr(allow_interpreted_subclasses=True)
class Recorder:
    """The recording base of a game's events: `add` appends one Event to `log`.

    A quiet subclass is made without a log (`log` stays unset, so it holds nothing) and must
    override every event method of the game's class (meeple.core.conformance.check_quiet_sink)."""

    log: list[Event]

    def __init__(self, log: list[Event] | None = None) -> None:
        if log is not None:
            self.log = log

    def add(
        self,
        key: str,
        player: int | None = None,
        params: Mapping[str, Any] | None = None,
        secret: Mapping[str, Any] | None = None,
        visible_to: Iterable[int] = (),
    ) -> None:
        """Record one event (the arguments are `Event`'s)."""
        self.log.append(Event(key, player, params, secret, visible_to))

