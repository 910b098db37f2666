"""A game of a `CastellBatch` as an engine `CastellState` (tests and debugging): its `to_json()` is
the engine's own, field for field.

The batch holds what the engine keeps as lists in play order (the entry queue and entries, each
seat's prizes and size tokens, the festival results) per round, festival and seat. The order
follows from the rules: a round's decisions go clockwise from its first player, who is seat
(round - 1) mod P (the marker passes every round), and results come round by round, festival by
festival.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from meeple.games.castell.components import FIRST_FESTIVAL_ROUND, LAST_ROUND, REGIONS, Festival
from meeple.games.castell.state import CastellState

if TYPE_CHECKING:
    from meeple.batch.castell import CastellBatch

ROUNDS = LAST_ROUND + 1


def export_state(sim: CastellBatch, i: int) -> CastellState:
    """Game i of `sim` as an engine state: the play-order lists rebuilt."""
    n, comp = sim.num_players, sim.components
    rnd, first, over = int(sim.round[i]), int(sim.first[i]), bool(sim.over[i])

    def ints(row: npt.NDArray[Any]) -> list[int]:
        return [int(x) for x in row]

    def tower(tid: int) -> list[list[int]]:
        return [list(level) for level in sim.towers.towers[tid]]

    festivals: list[tuple[Festival, ...]] = []
    for r in range(ROUNDS):
        count, k = int(sim.fest_count[r]), int(sim.tokens_per[r])
        festivals.append(tuple(
            Festival(int(sim.fest_tile[i, r, s]), int(sim.fest_region[i, r, s]),
                     tuple(ints(sim.fest_tokens[i, r, s, :k])))
            for s in range(count)))
    prizes: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    size_tokens: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    results: list[Any] = []
    for r in range(FIRST_FESTIVAL_ROUND, rnd + (1 if over else 0)):
        order = [(r - 1 + k) % n for k in range(n)]  # the first player of round r, then clockwise
        for s, fest in enumerate(festivals[r]):
            won = ints(sim.res_won[i, r, s, :len(fest.tokens)])
            placed = []
            for seat in order:
                tid = int(sim.res_tower[i, r, s, seat])
                if tid < 0:
                    continue
                prize = int(sim.res_prize[i, r, s, seat])
                if prize:
                    prizes[seat].append((fest.region, prize))
                sizes = [size for size, w in zip(fest.tokens, won) if w == seat]
                size_tokens[seat].extend((fest.region, size) for size in sizes)
                score = sim.festival_score(np.array([tid]), sim.fest_mask[i, r, s:s + 1])
                placed.append({"seat": seat, "tower": tower(tid), "score": int(score[0]), "prize": prize,
                               "size_tokens": sizes})
            results.append({"round": r, "festival": comp.festivals[fest.tile].id, "region": REGIONS[fest.region],
                            "entrants": placed, "discarded": [size for size, w in zip(fest.tokens, won) if w < 0]})
    seats_now = [(first + k) % n for k in range(n)]
    return CastellState(
        game=sim.game, num_players=n, options=dict(sim.state_options), current=int(sim.current[i]), over=over,
        components_sha256=comp.sha256, round=rnd, phase=int(sim.phase[i]), first=first, turn=int(sim.turn[i]),
        used=int(sim.used[i]), recruit_open=bool(sim.recruit_open[i]), free_special=bool(sim.free_special[i]),
        bag=ints(sim.bag[i, :sim.bag_len[i]]), pool=[ints(row) for row in sim.pool[i]],
        teams=[ints(row) for row in sim.teams[i]], skills=[ints(row) for row in sim.skills[i]],
        pawn=ints(sim.pawn[i]), tokens_left=ints(sim.tokens_left[i]),
        board_tokens=[ints(row) for row in sim.board_tokens[i]],
        player_board_tokens=[ints(row) for row in sim.player_board[i]],
        region_tiles=[ints(row) for row in sim.region_tiles[i]],
        claimed=[ints(sim.claimed[i, q, :sim.claimed_len[i, q]]) for q in range(n)],
        prizes=prizes, size_tokens=size_tokens, best=ints(sim.best[i]), skill_at=tuple(ints(sim.skill_at[i])),
        festivals=tuple(festivals), queue=[q for q in seats_now if sim.queued[i, q]],
        entries=[(q, int(sim.entered[i, q]), sim.towers.towers[int(sim.entry_tower[i, q])])
                 for q in seats_now if sim.entered[i, q] >= 0],
        results=results,
    )
