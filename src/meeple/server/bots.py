"""The bots a client may seat: the levels the lobby offers. A bot spec can name any search
budget (`ismcts:1000000`), and every bot move runs on the server's CPU, so a client chooses a
level, never a budget."""

from __future__ import annotations

from meeple.ai.ismcts import LEVELS
from meeple.core.errors import MeepleError

#: Every bot a client may ask for, easiest first.
OFFERED = ("random", "greedy", *(f"ismcts:{level}" for level in LEVELS))


def offered(spec: str) -> str:
    """The spec, normalized, if it is one the server offers; MeepleError otherwise."""
    normal = spec.strip().lower()
    if normal not in OFFERED:
        raise MeepleError(f"bot {spec[:60]!r} is not offered here: choose one of {', '.join(OFFERED)}")
    return normal
