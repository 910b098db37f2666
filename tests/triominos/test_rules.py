"""Every ruling M1-M10 and the rulebook's figures A-I, on real positions with real tiles."""

from __future__ import annotations

import pytest

from meeple.core.errors import IllegalAction, OptionError
from meeple.core.rng import Rng
from meeple.games.triominos.actions import DRAW, PASS, STOP, Place
from meeple.games.triominos.components import INDEX, NAME, NUM_TILES, NUMS, SUM, parse, shown
from meeple.games.triominos.geometry import CORNERS, ORIGIN, cell
from meeple.games.triominos.scoring import PARTS
from meeple.games.triominos.state import TriominosState
from tests.triominos.helpers import (
    FIG_F_BRIDGE,
    FIG_G_HEXAGON,
    FIG_H_DOUBLE,
    FIG_I_TRIPLE,
    GAME,
    NOTCH,
    figure_state,
    oriented,
    place,
    placement,
    position,
)


def part(state: TriominosState, seat: int, name: str) -> int:
    value: int = state.score_breakdown()[seat][name]
    return value


# -- M1: the tiles ---------------------------------------------------------------------------------


def test_M1_fifty_six_distinct_tiles_ascending_clockwise():
    assert len(NUMS) == NUM_TILES == 56
    assert len(set(NUMS)) == 56
    assert all(a <= b <= c <= 5 and a >= 0 for a, b, c in NUMS)
    multisets = {(a, b, c) for a in range(6) for b in range(a, 6) for c in range(b, 6)}
    assert set(NUMS) == multisets


def test_M1_mirror_tiles_do_not_exist():
    with pytest.raises(ValueError):
        parse("0-2-1")  # 0, 2, 1 clockwise is the mirror of 0-1-2
    assert parse("1-2-0") == INDEX["0-1-2"]  # a rotation is the same tile
    with pytest.raises(ValueError):
        oriented("354")


def test_M1_handedness_a_tile_needing_its_mirror_never_fits():
    # The origin 0-3-4 leaves the edge (1,0)=4 -> (0,1)=3 for down(0,0). 3-4-5 has the numbers
    # 3 and 4 on one side, but only read 3 then 4 clockwise; fitting would need it flipped.
    state = position(2, [(0, 0, "up", "034")], [["3-4-5", "3-4-4"], ["0-0-0"]])
    target = cell(0, 0, 1)
    tiles_here = {a.tile for a in state.legal_actions() if type(a) is Place and a.cell == target}
    assert INDEX["3-4-4"] in tiles_here
    assert INDEX["3-4-5"] not in tiles_here
    for r in range(3):
        with pytest.raises(IllegalAction) as err:
            state.apply(Place(INDEX["3-4-5"], target, r))
        assert err.value.rule == "M2"


# -- M2: legal placement ---------------------------------------------------------------------------


def test_fig_B_edge_match_scores_6():
    state = position(2, [(0, 0, "up", "134")], [["1-2-3", "5-5-5"], ["0-0-0"]])
    place(state, -1, 0, "down", "231")
    assert state.scores()[0] == 6


def test_fig_C_edge_match_scores_7():
    state = position(2, [(0, 0, "up", "134"), (-1, 0, "down", "231")], [["2-2-3", "5-5-5"], ["0-0-0"]])
    place(state, -1, 1, "up", "223")
    assert state.scores()[0] == 7


def test_fig_D_mismatched_side_is_illegal():
    state = position(2, [(0, 0, "up", "134")], [["2-3-5", "5-5-5"], ["0-0-0"]])
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        place(state, 0, 0, "down", "352")  # the shared side would need 3 and 4, shows 3 and 2
    assert err.value.rule == "M2"
    assert state.to_json() == before


def test_fig_E_corner_only_contact_is_illegal():
    # up(1,0) touches the origin only at the point (1,0), which shows 4.
    state = position(2, [(0, 0, "up", "134")], [["4-4-5", "5-5-5"], ["0-0-0"]])
    with pytest.raises(IllegalAction) as err:
        place(state, 1, 0, "up", "445")
    assert err.value.rule == "M2" and "edge" in str(err.value)


def test_M2_point_only_mismatch_is_illegal():
    # In figure F's board, down(0,0) matches the origin along its edge (3, 4), but its far corner
    # (1,1) touches down(1,0) at a point showing 4: 3-3-4 would put a 3 there.
    board, _ = FIG_F_BRIDGE
    state = position(2, board, [["3-3-4", "3-4-4"], ["5-5-5"]])
    with pytest.raises(IllegalAction) as err:
        place(state, 0, 0, "down", "334")
    assert err.value.rule == "M2" and "touches" in str(err.value)
    # Without the tile at down(1,0) (and the ones after it) the same placement is legal.
    state = position(2, board[:1], [["3-3-4", "3-4-4"], ["5-5-5"]])
    place(state, 0, 0, "down", "334")
    assert state.scores()[0] == 10


def test_M2_occupied_cell_is_illegal():
    state = position(2, [(0, 0, "up", "134")], [["1-1-1"], ["0-0-0"]])
    with pytest.raises(IllegalAction) as err:
        state.apply(Place(INDEX["1-1-1"], ORIGIN, 0))
    assert err.value.rule == "M2" and "covered" in str(err.value)


def test_M2_tile_must_be_on_the_rack():
    state = position(2, [(0, 0, "up", "134")], [["1-2-3", "0-0-0"], ["2-3-5"]])
    tile, c, r = placement(-1, 0, "down", "231")
    state.apply(Place(tile, c, r))  # seat 0 holds 1-2-3: fine
    with pytest.raises(IllegalAction) as err:
        state.apply(Place(INDEX["1-2-3"], cell(0, 0, 1), 0))  # seat 1 does not hold it
    assert err.value.rule == "M6" and "rack" in str(err.value)


def test_M2_every_lattice_point_carries_one_number():
    _, move = FIG_I_TRIPLE
    state = figure_state(FIG_I_TRIPLE)
    place(state, *move)
    numbers: dict = {}
    for t, c, r in state.board.history:
        for p, n in zip(CORNERS[c], shown(t, r)):
            assert numbers.setdefault(p, n) == n


# -- M3-M5: scores and bonuses ----------------------------------------------------------------------


def test_fig_A_opening_tile_scores_its_sum_8():
    state = position(2, [], [["1-3-4", "0-0-0"], ["5-5-5"]])
    state.apply(Place(INDEX["1-3-4"], ORIGIN, 0))
    assert state.scores() == [8, 0]


def test_M3_score_is_the_sum_of_the_three_numbers():
    state = position(3, [(0, 0, "up", "134")], [["1-2-3", "0-0-0"], ["5-5-5"], ["4-4-4"]])
    place(state, -1, 0, "down", "231")
    assert part(state, 0, "tiles") == 6 and state.scores()[0] == 6


def test_fig_F_bridge_scores_51():
    state = figure_state(FIG_F_BRIDGE)
    place(state, *FIG_F_BRIDGE[1])
    assert state.scores()[0] == 51
    assert part(state, 0, "bridge") == 40


def test_M4_bridge_needs_the_opposite_corner_touching():
    # Only the origin on the board: same tile, same cell, one shared edge, far corner untouched.
    board, move = FIG_F_BRIDGE
    state = position(2, board[:1], [["3-4-4", "0-0-0"], ["5-5-5"]])
    place(state, *move)
    assert state.scores()[0] == 11 and part(state, 0, "bridge") == 0


def test_M4_notch_two_sides_matched_is_not_a_bridge():
    state = figure_state(NOTCH)
    assert state.board.edges_shared(cell(0, 0, 1)) == 2
    place(state, *NOTCH[1])
    assert state.scores()[0] == 11
    assert part(state, 0, "bridge") == 0 and part(state, 0, "hexagon") == 0


def test_fig_G_hexagon_scores_61():
    state = figure_state(FIG_G_HEXAGON)
    place(state, *FIG_G_HEXAGON[1])
    assert state.scores()[0] == 61 and part(state, 0, "hexagon") == 50


def test_fig_H_double_hexagon_scores_72():
    state = figure_state(FIG_H_DOUBLE)
    place(state, *FIG_H_DOUBLE[1])
    assert state.scores()[0] == 72 and part(state, 0, "double_hexagon") == 60


def test_fig_I_triple_hexagon_scores_75():
    state = figure_state(FIG_I_TRIPLE)
    place(state, *FIG_I_TRIPLE[1])
    assert state.scores()[0] == 75 and part(state, 0, "triple_hexagon") == 70


def test_M5_bonuses_never_stack():
    state = figure_state(FIG_I_TRIPLE)
    events = place(state, *FIG_I_TRIPLE[1])
    row = state.score_breakdown()[0]
    assert row["hexagon"] == row["double_hexagon"] == row["bridge"] == 0
    assert [e.key for e in events if e.key in ("bridge", "hexagon", "double_hexagon", "triple_hexagon")] == [
        "triple_hexagon"
    ]


# -- M6: drawing ------------------------------------------------------------------------------------


def _draw_position(**options):
    # Seat 0 holds 5-5-5, which fits nowhere next to the origin 0-0-1.
    return position(2, [(0, 0, "up", "001")], [["5-5-5", "4-4-4"], ["3-3-3"]], **options)


@pytest.mark.parametrize("draws, penalty", [(1, -5), (2, -10), (3, -15)])
def test_M6_each_draw_costs_5(draws, penalty):
    state = _draw_position()
    for _ in range(draws):
        state.apply(DRAW)
    assert state.scores()[0] == penalty == part(state, 0, "draws")
    assert state.current_player == 0 and len(state.racks[0]) == 2 + draws


def test_M6_three_draws_without_placing_cost_25():
    state = _draw_position()
    for _ in range(3):
        state.apply(DRAW)
    assert DRAW not in state.legal_actions()
    with pytest.raises(IllegalAction) as err:
        state.apply(DRAW)
    assert err.value.rule == "M6"
    assert STOP in state.legal_actions()
    state.apply(STOP)
    assert state.scores()[0] == -25 and part(state, 0, "no_play") == -10
    assert state.current_player == 1 and state.draws == 0


def test_M6_stop_only_after_the_third_draw():
    state = _draw_position()
    state.apply(DRAW)
    with pytest.raises(IllegalAction) as err:
        state.apply(STOP)
    assert err.value.rule == "M6"


def test_M6_drawing_allowed_when_a_play_exists_and_any_rack_tile_may_follow():
    state = position(2, [(0, 0, "up", "001")], [["0-1-5", "5-5-5"], ["3-3-3"]], draw_next="4-4-4")
    assert DRAW in state.legal_actions()
    assert any(type(a) is Place and a.tile == INDEX["0-1-5"] for a in state.legal_actions())
    state.apply(DRAW)
    assert state.last_drawn == INDEX["4-4-4"]
    assert any(type(a) is Place and a.tile == INDEX["0-1-5"] for a in state.legal_actions())
    place(state, 0, -1, "down", "015")
    assert state.scores()[0] == -5 + 6


def test_M6_option_drawn_tile_only_forbids_other_rack_tiles_after_a_draw():
    state = position(2, [(0, 0, "up", "001")], [["0-1-5"], ["3-3-3"]], draw_next="4-4-4", drawn_tile_only=True)
    fitting = next(a for a in state.legal_actions() if type(a) is Place and a.tile == INDEX["0-1-5"])
    state.apply(DRAW)
    assert not any(type(a) is Place for a in state.legal_actions())  # 4-4-4 fits nowhere
    with pytest.raises(IllegalAction) as err:
        state.apply(fitting)
    assert err.value.rule == "M6"


def test_M6_option_drawn_tile_only_allows_the_drawn_tile():
    state = position(2, [(0, 0, "up", "001")], [["0-1-5"], ["3-3-3"]], draw_next="0-0-3", drawn_tile_only=True)
    state.apply(DRAW)
    placeable = {a.tile for a in state.legal_actions() if type(a) is Place}
    assert placeable == {INDEX["0-0-3"]}
    place(state, -1, 0, "down", "300")
    assert state.scores()[0] == -5 + 3


# -- M7: the empty pool -----------------------------------------------------------------------------


def test_M7_empty_pool_pass_costs_nothing():
    state = position(2, [(0, 0, "up", "001")], [["5-5-5"], ["3-3-3"]], pool=[])
    assert DRAW not in state.legal_actions() and PASS in state.legal_actions()
    with pytest.raises(IllegalAction) as err:
        state.apply(DRAW)
    assert err.value.rule == "M7"
    state.apply(PASS)
    assert state.scores() == [0, 0] and state.current_player == 1


def test_M7_penalties_already_taken_stand():
    state = position(2, [(0, 0, "up", "001")], [["5-5-5"], ["3-3-3"]], pool=[])
    state.pool.append(INDEX["4-4-4"])  # one tile left in the pool
    state.apply(DRAW)
    assert state.legal_actions()[-1] == PASS and DRAW not in state.legal_actions()
    state.apply(PASS)
    assert state.scores()[0] == -5 and part(state, 0, "no_play") == 0


def test_M7_pass_is_refused_while_the_pool_has_tiles():
    state = _draw_position()
    with pytest.raises(IllegalAction) as err:
        state.apply(PASS)
    assert err.value.rule == "M7"


# -- M8: set-up and the opening draw -----------------------------------------------------------------


@pytest.mark.parametrize("players, size", [(2, 9), (3, 7), (4, 7)])
def test_M8_rack_sizes(players, size):
    state = GAME.new_game(players, seed=3)
    assert [len(r) for r in state.racks] == [size] * players
    assert len(state.pool) == 56 - players * size


def test_M8_highest_opening_draw_opens_and_tiles_go_back():
    for seed in range(40):
        state = GAME.new_game(4, seed=seed)
        last = state.opening[-1]
        best = max(SUM[t] for _, t in last)
        assert [s for s, t in last if SUM[t] == best] == [state.opener]
        assert state.current_player == state.opener
        drawn = {t for go in state.opening for _, t in go}
        assert drawn <= set(state.pool)


def test_M8_ties_among_the_highest_redraw():
    seen_tie = False
    for seed in range(200):
        state = GAME.new_game(4, seed=seed)
        for earlier, later in zip(state.opening, state.opening[1:]):
            best = max(SUM[t] for _, t in earlier)
            tied = [s for s, t in earlier if SUM[t] == best]
            assert len(tied) > 1
            assert [s for s, _ in later] == tied
            seen_tie = True
    assert seen_tie


def test_M8_opener_places_any_rack_tile_and_may_not_draw():
    state = GAME.new_game(3, seed=5)
    acts = [a for a in state.legal_actions() if type(a) is Place]
    assert len(acts) == len(state.legal_actions())
    assert sorted(a.tile for a in acts) == sorted(state.racks[state.opener])
    assert all(a.cell == ORIGIN and a.rot == 0 for a in acts)
    with pytest.raises(IllegalAction) as err:
        state.apply(DRAW)
    assert err.value.rule == "M8"
    tile = acts[0].tile
    state.apply(acts[0])
    assert state.scores()[state.opener] == SUM[tile]  # no opening bonus in this edition


def test_M8_opening_draw_is_public():
    state = GAME.new_game(2, seed=9)
    names = [[{"seat": s, "tile": NAME[t]} for s, t in go] for go in state.opening]
    assert state.view(None)["opening"] == names == state.view(1)["opening"]


# -- M9: end of a round -----------------------------------------------------------------------------


def test_M9_going_out_scores_25_plus_opponents_racks():
    board = [(0, 0, "up", "134")]
    state = position(3, board, [["1-2-3"], ["5-5-5", "0-0-1"], ["2-4-4"]])
    place(state, -1, 0, "down", "231")
    assert state.is_terminal
    assert part(state, 0, "going_out") == 25
    assert part(state, 0, "opponents_racks") == 15 + 1 + 10
    assert state.scores() == [6 + 25 + 26, 0, 0]
    assert state.winners() == [0]


def test_M9_blocked_round_each_subtracts_own_rack():
    state = position(3, [(0, 0, "up", "001")], [["5-5-5"], ["4-4-4", "3-4-5"], ["2-2-2"]], pool=[])
    state.apply(PASS)
    state.apply(PASS)
    assert not state.is_terminal
    state.apply(PASS)
    assert state.is_terminal
    assert state.scores() == [-15, -24, -6]
    assert [row["rack_left"] for row in state.score_breakdown()] == [-15, -24, -6]
    assert state.winners() == [2]


def test_M9_a_placement_resets_the_blocked_count():
    state = position(2, [(0, 0, "up", "001")], [["5-5-5"], ["0-1-1", "3-3-3"]], pool=[])
    state.apply(PASS)
    assert state.idle == 1
    place(state, 0, 0, "down", "011")
    assert state.idle == 0
    state.apply(PASS)
    assert not state.is_terminal and state.current_player == 1


def test_M9_ties_share_the_win():
    state = position(2, [(0, 0, "up", "001")], [["5-5-5"], ["4-5-5"]], pool=[], totals=[1, 0])
    state.apply(PASS)
    state.apply(PASS)
    assert state.scores() == [-14, -14]
    assert state.winners() == [0, 1]
    assert state.rewards() == [0.5, 0.5]


# -- M10: the match ----------------------------------------------------------------------------------


def _match_end(total_before: int):
    # Seat 0 goes out with 1-2-3 (6) + 25 + opponent's rack (5-5-5 = 15) = +46.
    return position(
        2, [(0, 0, "up", "134")], [["1-2-3"], ["5-5-5"]], totals=[total_before, 0], match=True
    )


def test_M10_exactly_400_plays_another_round():
    state = _match_end(400 - 46)
    place(state, -1, 0, "down", "231")
    assert state.scores()[0] == 400
    assert not state.is_terminal and state.round == 2
    assert state.board.empty and [len(r) for r in state.racks] == [9, 9]
    assert len(state.score_breakdown()[0]["rounds"]) == 2


def test_M10_401_ends_the_match():
    state = _match_end(401 - 46)
    place(state, -1, 0, "down", "231")
    assert state.scores()[0] == 401
    assert state.is_terminal and state.winners() == [0]


def test_M10_passing_the_target_mid_round_makes_it_the_last():
    # Seat 0 passes 400 with a placement, then drops back under it when the round is blocked;
    # that round is still the last one, and the highest total wins, not the first past 400.
    state = position(
        2, [(0, 0, "up", "001")], [["0-1-1", "5-5-5"], ["0-0-0"]], pool=[], totals=[398, 390], match=True
    )
    place(state, 0, 0, "down", "011")
    assert state.scores()[0] == 400 and not state.over_target
    state = position(
        2, [(0, 0, "up", "001")], [["0-1-5", "5-5-5"], ["0-0-0"]], pool=[], totals=[398, 390], match=True
    )
    place(state, 0, -1, "down", "015")
    assert state.scores()[0] == 404 and state.over_target
    state.apply(PASS)
    state.apply(PASS)
    assert state.is_terminal and state.round == 1
    assert state.scores() == [404 - 15, 390]
    assert state.winners() == [1]


def test_M10_single_round_is_the_default():
    state = position(2, [(0, 0, "up", "134")], [["1-2-3"], ["5-5-5"]], totals=[0, 0])
    assert state.options["match"] is False
    place(state, -1, 0, "down", "231")
    assert state.is_terminal and state.round == 1


def test_M10_match_rounds_sum_up_per_round():
    state = GAME.new_game(2, seed=11, match=True, target=120)
    rng = Rng(4)
    while not state.is_terminal:
        acts = state.legal_actions()
        state.apply(acts[rng.below(len(acts))])
    rows = state.score_breakdown()
    for seat, row in enumerate(rows):
        assert sum(r["total"] for r in row["rounds"]) == row["total"] == state.scores()[seat]
        for name in PARTS:
            assert sum(r[name] for r in row["rounds"]) == row[name]
    assert state.over_target
    assert len(state.results) == state.round


# -- options and turn order ------------------------------------------------------------------------


def test_bad_options_are_clear_errors():
    with pytest.raises(OptionError):
        GAME.new_game(2, seed=1, target=0)
    with pytest.raises(OptionError):
        GAME.new_game(5, seed=1)
    with pytest.raises(OptionError):
        GAME.new_game(2, seed=1, colour="red")


def test_M6_one_tile_per_turn_and_play_passes_clockwise():
    state = position(3, [(0, 0, "up", "134")], [["1-2-3", "0-0-0"], ["5-5-5", "4-4-4"], ["2-2-2"]], current=2)
    state.apply(DRAW)
    assert state.current_player == 2
    state = position(3, [(0, 0, "up", "134")], [["1-2-3", "0-0-0"], ["5-5-5", "4-4-4"], ["2-2-2"]])
    place(state, -1, 0, "down", "231")
    assert state.current_player == 1 and state.draws == 0
    assert all(type(a) is not Place or a.tile != INDEX["0-0-0"] for a in state.legal_actions())
