"""Random full games under the protocol's conformance checks plus Triominos invariants."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.core.conformance import check_random_game
from meeple.core.state import State
from meeple.games.triominos.actions import Place
from meeple.games.triominos.components import FIT, NUM_TILES, ROTATIONS, shown
from meeple.games.triominos.geometry import CORNERS, EDGE_NBR, ORIGIN, TOUCH
from meeple.games.triominos.placements import EMPTY
from meeple.games.triominos.scoring import PARTS
from meeple.games.triominos.state import TriominosState
from tests.triominos.helpers import GAME, tiles_accounted, views_leak_nothing


def board_is_legal(state: TriominosState) -> None:
    """Every placed tile agrees with every tile touching it, and touched an earlier one by an edge."""
    numbers: dict[int, int] = {}
    order: dict[int, int] = {}
    for i, (t, c, r) in enumerate(state.board.history):
        for p, n in zip(CORNERS[c], shown(t, r)):
            assert numbers.setdefault(p, n) == n, "a lattice point shows two numbers (M2)"
        if i == 0:
            assert c == ORIGIN
        else:
            assert any(order.get(n, i) < i for n in EDGE_NBR[c]), "a tile placed without an edge contact"
        order[c] = i
    for p, n in numbers.items():
        assert state.board.vnum[p] == n + 1


def bookkeeping_matches_a_rescan(state: TriominosState) -> None:
    """The incremental open cells and fits equal what a full rescan finds."""
    board = state.board
    occupied = {c for _, c, _ in board.history}
    expected_open = {}
    for c in occupied:
        for n in TOUCH[c]:
            if n in occupied or not any(e in occupied for e in EDGE_NBR[n]):
                continue
            v = [board.vnum[p] for p in CORNERS[n]]
            expected_open[n] = v[0] * 49 + v[1] * 7 + v[2]
    assert board.open == expected_open
    for t in range(NUM_TILES):
        if board.placed[t]:
            continue
        want = {c: r for c, pat in expected_open.items() for tt, r in FIT[pat] if tt == t}
        assert board.fits[t] == want
    assert all(board.occ[c] != EMPTY for c in occupied)


def placements_match_an_oracle(state: TriominosState) -> None:
    """The offered placements are exactly those M2 allows, found by brute force from the history."""
    if state.is_terminal or not state.board.history:
        return
    numbers: dict[int, int] = {}
    covered = set()
    for t, c, r in state.board.history:
        covered.add(c)
        numbers.update(zip(CORNERS[c], shown(t, r)))
    tiles = state.racks[state.current]
    if state.options["drawn_tile_only"] and state.draws:
        tiles = [state.last_drawn]
    expected = set()
    for c in {n for o in covered for n in EDGE_NBR[o]} - covered:
        for t in tiles:
            for r in ROTATIONS[t]:
                if all(numbers.get(p, n) == n for p, n in zip(CORNERS[c], shown(t, r))):
                    expected.add((t, c, r))
    offered = {(a.tile, a.cell, a.rot) for a in state.legal_actions() if isinstance(a, Place)}
    assert offered == expected


def scores_consistent(state: TriominosState) -> None:
    for seat, row in enumerate(state.score_breakdown()):
        assert row["total"] == state.scores()[seat] == sum(row[name] for name in PARTS)


def invariants(state: State[Any]) -> None:
    assert isinstance(state, TriominosState)
    tiles_accounted(state)
    board_is_legal(state)
    scores_consistent(state)
    views_leak_nothing(state)
    bookkeeping_matches_a_rescan(state)
    placements_match_an_oracle(state)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), drawn_only=st.booleans())
def test_random_rounds_conform(seed, players, drawn_only):
    check_random_game(GAME, players, seed, options={"drawn_tile_only": drawn_only}, extra=invariants, views_every=3)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_random_matches_conform(seed, players):
    state = check_random_game(
        GAME, players, seed, options={"match": True, "target": 150}, extra=invariants, views_every=8
    )
    assert isinstance(state, TriominosState) and state.over_target  # M10: some total went past the target at some point


def test_same_seed_same_game_and_different_seeds_differ():
    a = GAME.new_game(4, seed=77)
    b = GAME.new_game(4, seed=77)
    c = GAME.new_game(4, seed=78)
    assert a.to_json() == b.to_json() != c.to_json()
