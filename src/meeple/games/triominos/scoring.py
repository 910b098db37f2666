"""Score parts and the fixed amounts of M3-M10: one place for what a score is made of."""

from __future__ import annotations

from typing import Any

#: Score parts, in order (catalog keys score.<part>).
PARTS = (
    "tiles",
    "bridge",
    "hexagon",
    "double_hexagon",
    "triple_hexagon",
    "draws",
    "no_play",
    "going_out",
    "opponents_racks",
    "rack_left",
)
TILES, BRIDGE_PART, HEX1, HEX2, HEX3, DRAWS, NO_PLAY, GOING_OUT, OPP_RACKS, RACK_LEFT = range(len(PARTS))
#: Board bonus kind (number of hexagons, or BRIDGE) -> score part.
BONUS_PART = (TILES, HEX1, HEX2, HEX3, BRIDGE_PART)
BONUS_NAME = ("", "hexagon", "double_hexagon", "triple_hexagon", "bridge")
#: Bonus points by kind: 1/2/3 hexagons +50/+60/+70, not cumulative (M5); bridge +40 (M4).
BONUS_POINTS = (0, 50, 60, 70, 40)

DRAW_PENALTY = 5  # M6
STOP_PENALTY = 10  # M6: after the third draw without placing
MAX_DRAWS = 3  # M6
OUT_BONUS = 25  # M9


def breakdown(parts: list[list[list[int]]], totals: list[int], seat: int) -> dict[str, Any]:
    """A seat's score parts summed over the rounds, its total, and each round on its own."""
    rounds = [dict(zip(PARTS, per_round[seat])) for per_round in parts]
    out: dict[str, Any] = {name: sum(r[name] for r in rounds) for name in PARTS}
    out["total"] = totals[seat]
    out["rounds"] = [dict(r, total=sum(r.values())) for r in rounds]
    return out
