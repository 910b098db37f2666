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
from .tiles import INDEX, NUM_TILES, SUM


def _int(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RecordError(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _list(value: Any, what: str, length: int | None = None) -> list:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        size = "" if length is None else f" of {length}"
        raise RecordError(f"{what} must be a list{size}, not {value!r}")
    return value


def _tile(name: Any) -> int:
    if not isinstance(name, str) or name not in INDEX:
        raise RecordError(f"no tile {name!r} (tiles are written a-b-c with a <= b <= c)")
    return INDEX[name]


def state_from_json(game: Any, obj: dict[str, Any]) -> TriominosState:
    """Rebuild a state from TriominosState.to_json(); RecordError names what is malformed."""
    n = obj["num_players"]
    game.check_players(n)
    if not isinstance(obj["options"], dict):
        raise RecordError("options must be a JSON object")
    s = TriominosState(game, n, game.resolve_options(obj["options"]))
    big = 1 << 64
    s.rng = _int(obj["rng"], "rng", 0, big - 1)
    s.pool = [_tile(x) for x in _list(obj["pool"], "pool")]
    s.racks = [[_tile(x) for x in _list(rack, "a rack")] for rack in _list(obj["racks"], "racks", n)]
    history = []
    for entry in _list(obj["board"], "board"):
        name, x, y, d, r = _list(entry, "a board entry [tile, x, y, d, rot]", 5)
        x, y = _int(x, "board x", -30, 30), _int(y, "board y", -30, 30)
        history.append((_tile(name), cell(x, y, _int(d, "board d", 0, 1)), _int(r, "board rot", 0, 2)))
    try:
        s.board = Board.replay(history)
    except ValueError as exc:
        raise RecordError(f"impossible board: {exc}") from None
    everywhere = sorted(s.pool + [t for rack in s.racks for t in rack] + [t for t, _, _ in s.board.history])
    if everywhere != list(range(NUM_TILES)):
        raise RecordError("the 56 tiles must each be exactly once in the pool, a rack or the board (M1)")
    s.player = _int(obj["player"], "player", -1, n - 1)
    s.draws = _int(obj["draws"], "draws", 0, 3)
    if obj["last_drawn"] is not None:
        s.last_drawn = _tile(obj["last_drawn"])
        if s.player < 0 or s.last_drawn not in s.racks[s.player] or not s.draws:
            raise RecordError("last_drawn must be a tile the player to move drew this turn")
    s.idle = _int(obj["idle"], "idle", 0, n)
    s.drawn = [_int(v, "drawn", 0, NUM_TILES) for v in _list(obj["drawn"], "drawn", n)]
    s.opening = [
        [[_int(seat, "opening seat", 0, n - 1), _tile(t)] for seat, t in _list(go, "an opening draw")]
        for go in _list(obj["opening"], "opening")
    ]
    s.opener = _int(obj["opener"], "opener", 0, n - 1)
    if not s.opening or not all(s.opening):
        raise RecordError("opening must hold the round's opening draw (M8)")
    last = s.opening[-1]
    best = max(SUM[t] for _, t in last)
    if [seat for seat, t in last if SUM[t] == best] != [s.opener]:
        raise RecordError("the opener must be the one highest tile of the last opening draw (M8)")
    s.round = _int(obj["round"], "round", 1, big)
    parts = _list(obj["parts"], "parts", s.round)
    s.parts = [
        [[_int(v, "a score part", -big, big) for v in _list(row, "a score row", len(PARTS))] for row in _list(rnd, "a round's parts", n)]
        for rnd in parts
    ]
    s.totals = [_int(v, "a total", -big, big) for v in _list(obj["totals"], "totals", n)]
    if any(s.totals[seat] != sum(sum(rnd[seat]) for rnd in s.parts) for seat in range(n)):
        raise RecordError("totals must equal the sum of the score parts")
    if not isinstance(obj["over_target"], bool):
        raise RecordError("over_target must be true or false")
    s.over_target = obj["over_target"]
    if not s.over_target and max(s.totals) > s._target:
        raise RecordError("over_target must be true once a total exceeds the target (M10)")
    results = _list(obj["results"], "results")
    if not all(isinstance(r, dict) for r in results) or len(results) not in (s.round - 1, s.round):
        raise RecordError("results must hold one object per finished round")
    s.results = [dict(r) for r in results]
    return s
