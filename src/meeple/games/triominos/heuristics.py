"""The greedy Triominos bot and a position evaluation for search cut-offs.

`choose` looks only at what the player to move may see: the board, their own rack, rack sizes and
the pool size. It takes the placement with the best immediate value:

    tile sum + bonus (M3-M5)
    + going-out value when it is the last tile (M9: 25 + the other racks, estimated from sizes)
    + hexagon outlook: for each corner it leaves with five of six cells covered, every unplaced
      tile that fits the last cell is a chance for us if it is on our rack (+CHANCE x 50) and a
      gift to the opponents otherwise (-RISK x 50 x the share of unseen tiles they hold)

ties broken toward the lower tile sum (high tiles are kept for later hexagons, which pay most
with big numbers), then at random. It places whenever a placement is worth more than a draw
costs, otherwise draws (M6), and passes or stops only when nothing else is legal or useful.
"""

from __future__ import annotations

from meeple.core.rng import Rng
from meeple.core.shares import softmax_shares
from meeple.games.triominos.actions import Action, Draw, Place
from meeple.games.triominos.components import FIT, SUM, pattern, shown
from meeple.games.triominos.geometry import CORNERS, POINT_CELLS
from meeple.games.triominos.placements import EMPTY
from meeple.games.triominos.scoring import BONUS_POINTS, DRAW_PENALTY, OUT_BONUS
from meeple.games.triominos.state import TriominosState

#: Share of a hexagon bonus charged for leaving the opponents a completable hexagon (RISK), and
#: credited for one that a tile on our own rack completes (CHANCE). In self-play duels the term
#: changed little (within a few percent); it keeps the bot from handing out obvious hexagons.
RISK = 1.0
CHANCE = 0.3
#: Average tile sum (all 56 tiles): the expected value of an unseen rack tile.
MEAN_TILE = sum(SUM) / len(SUM)
#: Points of lead (score minus own rack) that make a seat about e times likelier to win.
LEAD_SCALE = 30.0


def _hexagon_outlook(state: TriominosState, action: Place) -> float:
    """Expected hexagon points this placement hands to opponents (negative) or keeps for us.

    For each corner left with five of six cells covered, the last cell needs exactly the tiles
    that fit its corners. Tiles on our rack are a chance for us; every other unplaced tile is on
    an opponent's rack with probability (their tiles / all tiles we cannot see)."""
    board = state.board
    t, c, r = action.tile, action.cell, action.rot
    corners = [p for p in CORNERS[c] if board.fill[p] == 4]
    if not corners:
        return 0.0
    me = state.current
    mine = set(state.racks[me])
    mine.discard(t)
    unseen = len(state.pool) + sum(len(rack) for seat, rack in enumerate(state.racks) if seat != me)
    theirs = unseen - len(state.pool)
    # The hole's corner pattern once the tile is down (the tile marks only points no tile touched
    # yet), read off the board as it is: copying the board to place the tile made searches slower.
    numbers = dict(zip(CORNERS[c], shown(t, r)))
    vnum, occ, placed = board.vnum, board.occ, board.placed
    outlook = 0.0
    for p in corners:
        hole = next(n for n in POINT_CELLS[p] if n != c and occ[n] == EMPTY)
        after = pattern(*(vnum[q] or numbers.get(q, -1) + 1 for q in CORNERS[hole]))
        for tile, _ in FIT[after]:
            if placed[tile] or tile == t:
                continue
            if tile in mine:
                outlook += CHANCE * BONUS_POINTS[1]
            elif unseen:
                outlook -= RISK * BONUS_POINTS[1] * theirs / unseen
    return outlook


def placement_value(state: TriominosState, action: Place) -> float:
    """Immediate value of a placement for the player to move (see the module docstring)."""
    board = state.board
    t, c = action.tile, action.cell
    value = float(SUM[t])
    if board.history:
        kind = board.bonus(c)
        if kind:
            value += BONUS_POINTS[kind]
        value += _hexagon_outlook(state, action)
    p = state.current
    if len(state.racks[p]) == 1:
        others = sum(len(r) for seat, r in enumerate(state.racks) if seat != p)
        value += OUT_BONUS + MEAN_TILE * others
    return value


def choose(state: TriominosState, rng: Rng) -> Action:
    """The greedy move for the player to move."""
    actions = state.legal_actions()
    best: list[Action] = []
    best_key: tuple[float, int] | None = None
    fallback: Action | None = None
    for action in actions:
        if not isinstance(action, Place):
            fallback = action
            continue
        key = (placement_value(state, action), -SUM[action.tile])
        if best_key is None or key > best_key:
            best_key, best = key, [action]
        elif key == best_key:
            best.append(action)
    if best_key is not None and (best_key[0] > -DRAW_PENALTY or not isinstance(fallback, Draw)):
        return best[rng.below(len(best))]
    assert fallback is not None  # a turn always offers draw, pass or stop besides placements
    return fallback


def evaluate(state: TriominosState) -> list[float]:
    """Each seat's chance of winning, estimated from score minus what its rack would cost."""
    if state.is_terminal:
        return state.rewards()
    adjusted = [state.totals[seat] - sum(SUM[t] for t in rack) for seat, rack in enumerate(state.racks)]
    return softmax_shares(adjusted, LEAD_SCALE)
