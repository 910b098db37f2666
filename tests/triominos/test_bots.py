"""The greedy heuristic: legal, sees only its own information, takes bonuses, beats random."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.ai.bots import make_bot
from meeple.ai.match import play_game
from meeple.core.rng import Rng
from meeple.games.triominos import heuristics
from meeple.games.triominos.actions import DRAW, STOP, Place
from meeple.games.triominos.components import FIT
from meeple.games.triominos.geometry import CORNERS, POINT_CELLS, cell
from meeple.games.triominos.placements import EMPTY
from meeple.games.triominos.scoring import BONUS_POINTS
from tests.triominos.helpers import FIG_F_BRIDGE, FIG_G_HEXAGON, GAME, figure_state, placement, position


def test_greedy_takes_the_hexagon():
    state = figure_state(FIG_G_HEXAGON, extra_rack=["4-4-5", "2-2-2"])
    action = heuristics.choose(state, Rng(1))
    assert action == Place(*placement(*FIG_G_HEXAGON[1]))


def test_greedy_takes_the_bridge():
    state = figure_state(FIG_F_BRIDGE, extra_rack=["0-0-2"])
    action = heuristics.choose(state, Rng(1))
    assert type(action) is Place and action.cell == cell(0, 0, 1)


def test_greedy_draws_when_nothing_fits_and_places_after_three_draws_when_it_can():
    state = position(2, [(0, 0, "up", "001")], [["5-5-5", "4-4-4"], ["3-3-3"]], draw_next="2-2-2")
    assert heuristics.choose(state, Rng(1)) == DRAW
    state = position(2, [(0, 0, "up", "001")], [["5-5-5", "0-1-5"], ["3-3-3"]], draws=3)
    assert type(heuristics.choose(state, Rng(1))) is Place
    state = position(2, [(0, 0, "up", "001")], [["5-5-5", "4-4-4"], ["3-3-3"]], draws=3)
    assert heuristics.choose(state, Rng(1)) == STOP


def test_greedy_decision_does_not_depend_on_hidden_tiles():
    state = GAME.new_game(3, seed=8)
    rng = Rng(3)
    for _ in range(12):
        state.apply(heuristics.choose(state, rng))
    me = state.current
    picks = {heuristics.choose(state.determinize(me, Rng(i)), Rng(0)) for i in range(8)}
    assert len(picks) == 1


def test_greedy_beats_random():
    greedy, rand = make_bot("greedy"), make_bot("random")
    wins = 0.0
    games = 60
    for i in range(games):
        seats = [greedy if seat == i % 2 else rand for seat in range(2)]
        _, result = play_game(GAME, seats, seed=i)
        wins += result.win_shares()[i % 2]
    assert wins / games > 0.6


def test_evaluate_is_a_distribution_favouring_the_leader():
    state = position(3, [(0, 0, "up", "134")], [["0-0-0"], ["5-5-5"], ["4-4-4"]], totals=[100, 0, 0])
    values = heuristics.evaluate(state)
    assert all(0.0 <= v <= 1.0 for v in values) and abs(sum(values) - 1.0) < 1e-9
    assert values[0] == max(values)


def outlook_by_definition(state, action) -> float:
    """The hexagon outlook straight from its definition: place the tile on a copy of the board,
    then for every corner left one cell short of a hexagon, weigh the tiles that fit the hole."""
    after = state.board.clone()
    after.place(action.tile, action.cell, action.rot)
    me = state.current
    mine = set(state.racks[me]) - {action.tile}
    unseen = len(state.pool) + sum(len(r) for seat, r in enumerate(state.racks) if seat != me)
    theirs = unseen - len(state.pool)
    value = 0.0
    for p in CORNERS[action.cell]:
        if state.board.fill[p] != 4:
            continue
        hole = next(n for n in POINT_CELLS[p] if after.occ[n] == EMPTY)
        for tile, _ in FIT[after.open[hole]]:
            if after.placed[tile]:
                continue
            if tile in mine:
                value += heuristics.CHANCE * BONUS_POINTS[1]
            elif unseen:
                value -= heuristics.RISK * BONUS_POINTS[1] * theirs / unseen
    return value


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_hexagon_outlook_matches_its_definition(seed, players):
    """The greedy policy computes the outlook without copying the board (copies slowed searches);
    it must still equal the copy-and-look definition in every position."""
    state = GAME.new_game(players, seed=seed)
    rng = Rng(seed)
    while not state.is_terminal:
        actions = state.legal_actions()
        for action in actions:
            if type(action) is Place and state.board.history:
                assert heuristics._hexagon_outlook(state, action) == outlook_by_definition(state, action)
        state.step(actions[rng.below(len(actions))] if rng.random() < 0.3 else heuristics.choose(state, rng))
