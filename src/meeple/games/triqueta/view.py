"""What a seat may see of a Triqueta position, and positions consistent with it.

A view shows the rows, every collection, tower sizes, the rock and tree tiles and how many
tokens each seat holds face down or returned; a seat sees only its own face-down and returned
tokens, and the drawer alone the tokens it is looking at. `determinize` re-deals every token
the observer has not seen into the places it could be.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from meeple.core.rng import Rng
from meeple.core.state import check_observer, check_seat
from meeple.games.triqueta.components import NUM_ANIMALS, TOKENS_PER_ANIMAL, TOWERS
from meeple.games.triqueta.view_types import TriquetaPlayer, TriquetaView

if TYPE_CHECKING:
    from meeple.games.triqueta.state import TriquetaState

S = TypeVar("S", bound="TriquetaState")


def view(state: TriquetaState, seat: object) -> TriquetaView:
    """Everything `seat` may see (None: a spectator), JSON-safe."""
    seat = check_seat(state, seat)
    scores = state.scores()
    players = []
    for other in range(state.num_players):
        entry: TriquetaPlayer = {
            "collection": list(state.counts[other]),
            "face_down_count": len(state.face_down[other]),
            "returned_count": len(state.returned[other]),
            "out": state.out[other],
            "trees": state.trees[other],
            "score": scores[other],
        }
        if other == seat:
            entry["face_down"] = sorted(state.face_down[other])
            entry["returned"] = sorted(state.returned[other])
            entry["score_with_face_down"] = state.points_with_face_down(other)
        players.append(entry)
    drawer_sees = seat is not None and seat == state.current and not state.over
    out: TriquetaView = {
        "game": state.game.name, "seat": seat, "current_player": state.current_player, "over": state.over,
        "scores": scores, "winners": state.winners(),
        "num_players": state.num_players,
        "duo": state.duo,
        "round": min(state.round, TOWERS - 1) + 1,
        "rounds": TOWERS,
        "rock": state.rock,
        "towers": [len(t) for t in state.towers],
        "current_tower": min(state.round, TOWERS - 1),
        "rows": [None if r is None else list(r) for r in state.rows],
        "players": players,
        "pending_count": sum(1 for t in state.pending if t >= 0),
        "unseen_count": len(state.gone),
    }
    if drawer_sees:
        out["pending"] = list(state.pending)
        out["used_kind"] = state.used_kind
    if state.final is not None:
        out["final"] = [{"added": list(f["added"]), "boxed": f["boxed"]} for f in state.final]
    return out


def determinize(state: S, observer: object, rng: Rng) -> S:
    """Re-deal every token `observer` has not seen into the places it could be: the towers, the
    tokens gone unseen, other seats' face-down and returned tokens, and a token another seat is
    looking at. Sizes are kept."""
    observer = check_observer(state, observer)
    s = state.clone()
    left = [TOKENS_PER_ANIMAL] * NUM_ANIMALS
    seen: list[int] = []
    for seat in range(state.num_players):
        seen.extend(a for a in range(NUM_ANIMALS) for _ in range(state.counts[seat][a]))
    for row in state.rows:
        if row:
            seen.extend(row)
    seen.extend(state.face_down[observer])
    seen.extend(state.returned[observer])
    observer_drew = observer == state.current and not state.over
    if observer_drew:
        seen.extend(t for t in state.pending if t >= 0)
    for token in seen:
        left[token] -= 1
    unknown = [a for a in range(NUM_ANIMALS) for _ in range(left[a])]
    rng.shuffle(unknown)
    it = iter(unknown)
    for tower in s.towers:
        tower[:] = [next(it) for _ in tower]
    s.gone = [next(it) for _ in s.gone]
    for seat in range(state.num_players):
        if seat != observer:
            s.face_down[seat] = [next(it) for _ in s.face_down[seat]]
            s.returned[seat] = [next(it) for _ in s.returned[seat]]
    if not observer_drew:
        s.pending = [next(it) if t >= 0 else t for t in s.pending]
    leftover = sum(1 for _ in it)
    if leftover:
        raise AssertionError(f"determinize left {leftover} tokens unplaced")
    return s
