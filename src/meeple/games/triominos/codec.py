"""Reading a saved Triominos state back, with every field checked.

The board is replayed placement by placement under M2, so an impossible board is rejected rather
than silently accepted, and the 56 tiles must each be in exactly one place (M1).
"""

from __future__ import annotations

from typing import Any

from meeple.core.errors import RecordError

from .board import Board
from .geometry import cell
from .scoring import PARTS
from .state import TriominosState
from .tiles import INDEX, NUM_TILES


def state_from_json(game: Any, obj: dict[str, Any]) -> TriominosState:
    """Rebuild a state from TriominosState.to_json(); KeyError/TypeError/ValueError or
    RecordError on malformed input (Game.from_json turns them all into RecordError)."""
    n = obj["num_players"]
    game.check_players(n)
    s = TriominosState(game, n, game.resolve_options(obj["options"]))

    def tile(name: Any) -> int:
        if name not in INDEX:
            raise RecordError(f"no tile {name!r}")
        return INDEX[name]

    s.rng = int(obj["rng"])
    s.round = int(obj["round"])
    s.pool = [tile(x) for x in obj["pool"]]
    s.racks = [[tile(x) for x in rack] for rack in obj["racks"]]
    history = []
    for name, x, y, d, r in obj["board"]:
        if d not in (0, 1) or not (-30 <= x <= 30 and -30 <= y <= 30):
            raise RecordError(f"board cell ({x},{y},{d}) is outside the board window")
        history.append((tile(name), cell(x, y, d), r))
    try:
        s.board = Board.replay(history)
    except ValueError as exc:
        raise RecordError(f"impossible board: {exc}") from None
    s.player = int(obj["player"])
    s.draws = int(obj["draws"])
    s.last_drawn = -1 if obj["last_drawn"] is None else tile(obj["last_drawn"])
    s.idle = int(obj["idle"])
    s.drawn = [int(v) for v in obj["drawn"]]
    s.opening = [[[int(seat), tile(t)] for seat, t in go] for go in obj["opening"]]
    s.opener = int(obj["opener"])
    s.totals = [int(v) for v in obj["totals"]]
    s.parts = [[[int(v) for v in row] for row in rnd] for rnd in obj["parts"]]
    s.over_target = bool(obj["over_target"])
    s.results = [dict(r) for r in obj["results"]]
    everywhere = sorted(s.pool + [t for rack in s.racks for t in rack] + [t for t, _, _ in s.board.history])
    if everywhere != list(range(NUM_TILES)):
        raise RecordError("the 56 tiles must each be exactly once in the pool, a rack or the board (M1)")
    if len(s.racks) != n or len(s.drawn) != n or len(s.totals) != n:
        raise RecordError("racks, drawn counts and totals need one entry per player")
    if not -1 <= s.player < n or not 0 <= s.draws <= 3:
        raise RecordError("player or draw count out of range")
    if any(len(rnd) != n or any(len(row) != len(PARTS) for row in rnd) for rnd in s.parts):
        raise RecordError(f"score parts need {len(PARTS)} numbers per player per round")
    return s
