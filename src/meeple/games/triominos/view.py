"""What a seat may see of a Triominos position, and positions consistent with it.

A view shows the board, every score, rack and pool sizes and the public opening draws; a seat
sees only its own rack (and the tile it drew last this turn). `determinize` re-deals everything
else the observer cannot see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar, cast

from meeple.core.rng import Rng
from meeple.core.state import check_observer, check_seat
from meeple.games.triominos.components import NAME, shown
from meeple.games.triominos.geometry import UP, cell_xyd
from meeple.games.triominos.placements import Board
from meeple.games.triominos.view_types import Cell, Direction, PlacedTile, ScoreBreakdown, TriominosView

if TYPE_CHECKING:
    from meeple.games.triominos.state import TriominosState

S = TypeVar("S", bound="TriominosState")

def view(state: TriominosState, seat: object) -> TriominosView:
    """Everything `seat` may see (None: a spectator), JSON-safe."""
    seat = check_seat(state, seat)
    board: list[PlacedTile] = []
    for t, c, r in state.board.history:
        x, y, d = cell_xyd(c)
        board.append({"tile": NAME[t], "x": x, "y": y, "dir": _direction(d), "rot": r, "corners": list(shown(t, r))})
    out: TriominosView = {
        "game": state.game.name, "seat": seat, "current_player": state.current_player, "over": state.over,
        "scores": list(state.totals), "winners": state.winners(),
        "num_players": state.num_players,
        "options": {"drawn_tile_only": state.drawn_tile_only, "match": state.match, "target": state.target},
        "round": state.round,
        "draws_this_turn": state.draws,
        "pool": len(state.pool),
        "rack_sizes": [len(r) for r in state.racks],
        "drawn_this_round": list(state.drawn),
        "board": board,
        "open": open_cells(state.board),
        # scoring.breakdown names its parts after scoring.PARTS, the keys RoundScore declares
        "breakdown": cast("list[ScoreBreakdown]", state.score_breakdown()),
        "opening": [[{"seat": s, "tile": NAME[t]} for s, t in go] for go in state.opening],
        "opener": state.opener,
        "results": [{"round": r["round"], "end": r["end"], "player": r["player"]} for r in state.results],
    }
    if seat is not None:
        out["rack"] = [NAME[t] for t in sorted(state.racks[seat])]
        if seat == state.current_player and state.last_drawn >= 0:
            out["last_drawn"] = NAME[state.last_drawn]
    return out


def open_cells(board: Board) -> list[Cell]:
    """The empty cells next to the board, top row first, then left to right (public: they
    follow from the board)."""
    cells = sorted((-y, 2 * x + y + d, x, y, d) for x, y, d in map(cell_xyd, board.open))
    return [{"x": x, "y": y, "dir": _direction(d)} for _, _, x, y, d in cells]


def _direction(d: int) -> Direction:
    return "up" if d == UP else "down"


def determinize(state: S, observer: object, rng: Rng) -> S:
    """Re-deal every tile the observer cannot see (opponents' racks and the pool, sizes kept).

    What the observer knows and the sample keeps: own rack, the board, rack sizes, pool size,
    and that this round's opening-draw tiles went back into the pool after the racks were
    dealt, so an opponent can hold at most as many of them as tiles drawn since (M8)."""
    observer = check_observer(state, observer)
    s = state.clone()
    opponents = [j for j in range(state.num_players) if j != observer]
    # Sorted first: the sample must depend on what the observer knows, not on the hidden order.
    unseen = sorted([t for j in opponents for t in state.racks[j]] + state.pool)
    rng.shuffle(unseen)
    opened = {t for go in state.opening for _, t in go}
    free = {j: len(state.racks[j]) for j in opponents}
    cap = {j: min(len(state.racks[j]), state.drawn[j]) for j in opponents}
    pool_free = len(state.pool)
    racks: dict[int, list[int]] = {j: [] for j in opponents}
    pool: list[int] = []
    rest = []
    for t in unseen:
        if t not in opened:
            rest.append(t)
            continue
        weights = [(j, min(cap[j], free[j])) for j in opponents]
        total = pool_free + sum(w for _, w in weights)
        pick = rng.below(total)
        if pick < pool_free:
            pool.append(t)
            pool_free -= 1
            continue
        pick -= pool_free
        for j, w in weights:
            if pick < w:
                racks[j].append(t)
                cap[j] -= 1
                free[j] -= 1
                break
            pick -= w
    for j in opponents:
        need = free[j]
        racks[j].extend(rest[:need])
        del rest[:need]
        s.racks[j] = racks[j]
    pool.extend(rest)
    rng.shuffle(pool)
    s.pool = pool
    s.rng = rng.next64()  # later rounds' shuffles are unknown too
    if not s.over and s.current != observer and s.last_drawn >= 0:
        s.last_drawn = rng.choice(s.racks[s.current])
    return s
