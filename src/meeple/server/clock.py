"""Fischer clocks per seat: each person starts with `base` seconds and gains `increment` after
each of their moves; a person whose time runs out is replaced by a bot, as a person who leaves.

The clock state is a JSON object stored with each move: `remaining` milliseconds per seat,
`seat` whose clock runs (or None) and `since`, the wall-clock time it started running.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meeple.core.errors import OptionError


@dataclass(frozen=True)
class ClockRule:
    base_ms: int
    increment_ms: int

    @property
    def text(self) -> str:
        return f"{self.base_ms // 1000}+{self.increment_ms // 1000}"


def parse_clock(text: str) -> ClockRule | None:
    """ "none" -> None; "300+5" -> 300 s, 5 s increment."""
    if text == "none":
        return None
    base, sep, increment = text.partition("+")
    if not sep or not base.isdigit() or not increment.isdigit() or int(base) < 1:
        raise OptionError(f"clock must be none or BASE+INCREMENT seconds such as 300+5, not {text!r}")
    return ClockRule(int(base) * 1000, int(increment) * 1000)


def start(rule: ClockRule, num_players: int) -> dict[str, Any]:
    return {"remaining": [rule.base_ms] * num_players, "seat": None, "since": 0.0}


def stop(state: dict[str, Any], rule: ClockRule, now: float) -> dict[str, Any]:
    """The clocks after the running seat moved: time used deducted, increment added."""
    remaining = list(state["remaining"])
    seat = state.get("seat")
    if seat is not None:
        used = int((now - state["since"]) * 1000)
        remaining[seat] = max(0, remaining[seat] - used) + rule.increment_ms
    return {"remaining": remaining, "seat": None, "since": now}


def run(state: dict[str, Any], seat: int | None, now: float) -> dict[str, Any]:
    """Start `seat`'s clock (None: no person's clock runs, e.g. a bot is to move)."""
    return {"remaining": list(state["remaining"]), "seat": seat, "since": now}


def left_ms(state: dict[str, Any], now: float) -> int | None:
    """Milliseconds left to the running seat, or None when no clock runs."""
    seat = state.get("seat")
    if seat is None:
        return None
    return int(state["remaining"][seat] - (now - state["since"]) * 1000)


def public(state: dict[str, Any], now: float) -> dict[str, Any]:
    """The clocks as every seat may see them, the running one brought up to `now`."""
    remaining = list(state["remaining"])
    seat = state.get("seat")
    if seat is not None:
        remaining[seat] = max(0, left_ms(state, now) or 0)
    return {"remaining_ms": remaining, "running": seat}
