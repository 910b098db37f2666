"""Random full games under the protocol's conformance checks plus Triominos invariants."""

from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.core.conformance import check_random_game
from meeple.core.rng import Rng
from meeple.games.triominos.board import EMPTY
from meeple.games.triominos.geometry import CORNERS, EDGE_NBR, ORIGIN, TOUCH
from meeple.games.triominos.scoring import PARTS
from meeple.games.triominos.state import TriominosState
from meeple.games.triominos.actions import Place
from meeple.games.triominos.tiles import FIT, NAME, NUM_TILES, ROTATIONS, shown

from triominos_helpers import GAME

TILE_NAME = re.compile(r"\b[0-5]-[0-5]-[0-5]\b")


def tiles_accounted(state: TriominosState) -> None:
    """All 56 tiles, each exactly once: pool, racks or board."""
    where = state.pool + [t for rack in state.racks for t in rack] + [t for t, _, _ in state.board.history]
    assert sorted(where) == list(range(NUM_TILES))


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
    numbers = {}
    covered = set()
    for t, c, r in state.board.history:
        covered.add(c)
        numbers.update(zip(CORNERS[c], shown(t, r)))
    tiles = state.racks[state.player]
    if state.options["drawn_tile_only"] and state.draws:
        tiles = [state.last_drawn]
    expected = set()
    for c in {n for o in covered for n in EDGE_NBR[o]} - covered:
        for t in tiles:
            for r in ROTATIONS[t]:
                if all(numbers.get(p, n) == n for p, n in zip(CORNERS[c], shown(t, r))):
                    expected.add((t, c, r))
    offered = {tuple(a) for a in state.legal_actions() if type(a) is Place}
    assert offered == expected


def scores_consistent(state: TriominosState) -> None:
    for seat, row in enumerate(state.score_breakdown()):
        assert row["total"] == state.scores()[seat] == sum(row[name] for name in PARTS)


def views_leak_nothing(state: TriominosState) -> None:
    """A seat's view names only tiles on the board, on its own rack, or from the public opening draw."""
    public = {NAME[t] for t, _, _ in state.board.history} | {NAME[t] for go in state.opening for _, t in go}
    for seat in [None, *range(state.num_players)]:
        text = json.dumps(state.view(seat))
        own = {NAME[t] for t in state.racks[seat]} if seat is not None else set()
        assert set(TILE_NAME.findall(text)) <= public | own


def invariants(state: TriominosState) -> None:
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
    assert state.over_target  # M10: some total went past the target at some point


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), steps=st.integers(0, 60))
def test_determinize_keeps_what_the_observer_knows(seed, players, steps):
    state = GAME.new_game(players, seed=seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        acts = state.legal_actions()
        state.apply(acts[rng.below(len(acts))])
    opened = {t for go in state.opening for _, t in go}
    for observer in range(players):
        sample = state.determinize(observer, Rng(seed + observer))
        tiles_accounted(sample)
        assert sample.racks[observer] == state.racks[observer]
        assert sample.board.history == state.board.history
        assert [len(r) for r in sample.racks] == [len(r) for r in state.racks]
        assert len(sample.pool) == len(state.pool)
        for seat in range(players):
            if seat != observer:
                # M8: opening tiles went back to the pool after the deal; a seat holds at most as
                # many of them as it drew since.
                assert len(opened & set(sample.racks[seat])) <= state.drawn[seat]
        assert json.dumps(sample.view(observer)) == json.dumps(state.view(observer))


def test_determinize_resamples_hidden_tiles():
    state = GAME.new_game(3, seed=21)
    seen = {tuple(sorted(state.determinize(0, Rng(i)).racks[1])) for i in range(20)}
    assert len(seen) > 10


def test_same_seed_same_game_and_different_seeds_differ():
    a = GAME.new_game(4, seed=77)
    b = GAME.new_game(4, seed=77)
    c = GAME.new_game(4, seed=78)
    assert a.to_json() == b.to_json() != c.to_json()


def test_draw_events_hide_the_tile_from_other_seats():
    state = GAME.new_game(2, seed=3)
    state.apply(state.legal_actions()[0])
    while True:
        acts = state.legal_actions()
        draw = [a for a in acts if a.to_json()["type"] == "draw"]
        if draw:
            break
        state.apply(acts[0])
    drawer = state.current_player
    (event,) = state.apply(draw[0])
    assert "tile" in event.for_seat(drawer)["params"]
    for seat in (None, 1 - drawer):
        assert "tile" not in event.for_seat(seat)["params"] and event.for_seat(seat)["hidden"]
