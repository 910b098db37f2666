"""Checks of a loaded Triominos state beyond the field types: ranges, the 56 tiles each in one
place (M1), the opening draw (M8), scores that add up, and whose turn it is.

The board checks itself while loading (`Board.from_json` replays it under M2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.checks import check_each_in_range, check_length, check_range
from meeple.core.errors import RecordError
from meeple.games.triominos.components import NUM_TILES, SUM
from meeple.games.triominos.scoring import MAX_DRAWS, PARTS

if TYPE_CHECKING:
    from meeple.games.triominos.state import TriominosState

#: Bound on the generator state, the round number and every score.
BIG = 1 << 64



def _tiles(tiles: list[int], what: str) -> None:
    check_each_in_range(tiles, 0, NUM_TILES - 1, what)


def validate(state: TriominosState) -> None:
    """Raise RecordError naming the field unless the just-loaded `state` is consistent."""
    n = state.num_players
    check_range(state.rng, 0, BIG - 1, "rng")
    check_range(state.round, 1, BIG, "round")
    _tiles(state.pool, "pool")
    check_length(state.racks, n, "racks")
    for seat, rack in enumerate(state.racks):
        _tiles(rack, f"racks[{seat}]")
    everywhere = sorted(state.pool + [t for rack in state.racks for t in rack] + [t for t, _, _ in state.board.history])
    if everywhere != list(range(NUM_TILES)):
        raise RecordError("pool, racks, board: the 56 tiles must each be in exactly one of them (M1)")
    check_range(state.current, 0, n - 1, "current")
    check_range(state.draws, 0, MAX_DRAWS, "draws")
    check_range(state.last_drawn, -1, NUM_TILES - 1, "last_drawn")
    if state.last_drawn >= 0 and (state.over or state.last_drawn not in state.racks[state.current] or not state.draws):
        raise RecordError("last_drawn must be a tile the player to move drew this turn")
    check_range(state.idle, 0, n, "idle")
    check_length(state.drawn, n, "drawn")
    for seat, count in enumerate(state.drawn):
        check_range(count, 0, NUM_TILES, f"drawn[{seat}]")
    if not state.opening or not all(state.opening):
        raise RecordError("opening must hold the round's opening draw (M8)")
    for i, go in enumerate(state.opening):
        for j, (seat, t) in enumerate(go):
            check_range(seat, 0, n - 1, f"opening[{i}][{j}] seat")
            check_range(t, 0, NUM_TILES - 1, f"opening[{i}][{j}] tile")
    check_range(state.opener, 0, n - 1, "opener")
    last = state.opening[-1]
    best = max(SUM[t] for _, t in last)
    if [seat for seat, t in last if SUM[t] == best] != [state.opener]:
        raise RecordError("opener must be the one highest tile of the last opening draw (M8)")
    check_length(state.parts, state.round, "parts")
    for i, per_round in enumerate(state.parts):
        check_length(per_round, n, f"parts[{i}]")
        for seat, row in enumerate(per_round):
            check_length(row, len(PARTS), f"parts[{i}][{seat}]")
            for k, amount in enumerate(row):
                check_range(amount, -BIG, BIG, f"parts[{i}][{seat}][{k}]")
    check_length(state.totals, n, "totals")
    for seat, total in enumerate(state.totals):
        check_range(total, -BIG, BIG, f"totals[{seat}]")
    if any(state.totals[seat] != sum(sum(rnd[seat]) for rnd in state.parts) for seat in range(n)):
        raise RecordError("totals must equal the sum of the score parts")
    if not state.over_target and max(state.totals) > state.target:
        raise RecordError("over_target must be true once a total exceeds the target (M10)")
    if len(state.results) not in (state.round - 1, state.round):
        raise RecordError("results must hold one object per finished round")
    if state.over != (len(state.results) == state.round):
        raise RecordError("over must be true exactly when the last round has ended")
