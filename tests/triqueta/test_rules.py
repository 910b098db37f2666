"""Every rule of the Triqueta rulebook and rulings T1–T9, by name."""

import pytest

from meeple.core.errors import IllegalAction, OptionError, RecordError
from meeple.games.triqueta.components import VALUES
from meeple.games.triqueta.scoring import animal_points, best_face_down_choice, collection_points
from tests.triqueta.helpers import (
    BEAR,
    DEER,
    GAME,
    OWL,
    RABBIT,
    RAM,
    discard,
    draw,
    keep,
    new,
    place,
    set_next_draws,
    take,
)


# -- setup -----------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_one_row_marker_per_player(players):
    state = new(players)
    assert state.rows == [[] for _ in range(players)]


def test_T2_sixty_tokens_in_four_towers_of_fifteen():
    state = new(4)
    assert [len(t) for t in state.towers] == [15, 15, 15, 15]
    all_tokens = sorted(t for tower in state.towers for t in tower)
    assert all_tokens == sorted(list(range(6)) * 10)


def test_T2_towers_depend_on_the_seed():
    assert new(3, seed=1).towers != new(3, seed=2).towers
    assert new(3, seed=5).towers == new(3, seed=5).towers


def test_T1_seat_zero_holds_the_rock_and_starts():
    state = new(4)
    assert state.rock == 0 and state.current_player == 0


# -- Action A: draw --------------------------------------------------------------------------
def test_action_A_draw_then_place_in_any_row_whatever_its_length():
    state = new(3)
    set_next_draws(state, [BEAR, BEAR, BEAR])
    state.apply(draw)
    assert state.legal_actions() == [place(0), place(1), place(2), keep]
    state.apply(place(2))
    assert state.rows[2] == [BEAR] and state.current_player == 1
    state.apply(draw)
    state.apply(place(2))
    state.apply(draw)
    state.apply(place(2))
    assert state.rows[2] == [BEAR, BEAR, BEAR]


def test_action_A_drawn_token_is_secret_until_placed():
    state = new(3)
    set_next_draws(state, [OWL])
    events = state.apply(draw)
    assert events[0].for_seat(0)["params"]["animals"] == [OWL]
    for seat in (None, 1, 2):
        assert "animals" not in events[0].for_seat(seat)["params"]
    assert state.view(0)["pending"] == [OWL]
    assert "pending" not in state.view(1) and "pending" not in state.view(None)


def test_action_A_must_deal_with_the_drawn_token_before_anything_else():
    state = new(3)
    state.apply(draw)
    with pytest.raises(IllegalAction, match="Action A"):
        state.apply(take(0))
    with pytest.raises(IllegalAction, match="Action A"):
        state.apply(draw)


def test_option_2_keep_face_down_hides_the_token_from_others():
    state = new(3)
    set_next_draws(state, [DEER])
    state.apply(draw)
    events = state.apply(keep)
    assert state.face_down[0] == [DEER]
    assert events[0].for_seat(0)["params"]["animal"] == DEER
    assert "animal" not in events[0].for_seat(1)["params"]
    assert state.view(1)["players"][0]["face_down_count"] == 1
    assert "face_down" not in state.view(1)["players"][0]
    assert state.view(0)["players"][0]["face_down"] == [DEER]


def test_T4_at_most_two_face_down_tokens_in_the_whole_game():
    state = new(2)
    for _ in range(2):
        state.apply(draw)
        state.apply(keep)
        state.apply(draw)
        state.apply(place(0))
    assert len(state.face_down[0]) == 2
    state.apply(draw)
    assert keep not in state.legal_actions()
    with pytest.raises(IllegalAction, match="T4"):
        state.apply(keep)


# -- Action B: take a row --------------------------------------------------------------------
def test_action_B_take_an_empty_row_and_drop_out():
    state = new(3)
    state.apply(take(1))
    assert state.out[0] and state.rows[1] is None and state.current_player == 1
    assert all(a != take(1) for a in state.legal_actions())


def test_action_B_taken_tokens_join_the_collection_face_up():
    state = new(3)
    set_next_draws(state, [RAM, BEAR])
    state.apply(draw)
    state.apply(place(0))
    state.apply(draw)
    state.apply(place(0))
    state.apply(take(0))
    assert state.counts[2][RAM] == 1 and state.counts[2][BEAR] == 1
    assert state.view(0)["players"][2]["collection"][BEAR] == 1


def test_dropped_out_players_skip_their_turns():
    state = new(3)
    state.apply(take(0))  # seat 0 out
    state.apply(draw)
    state.apply(place(1))  # seat 1
    assert state.current_player == 2
    state.apply(draw)
    state.apply(place(1))  # seat 2 -> back to seat 1, skipping seat 0
    assert state.current_player == 1


def test_T5_rows_in_play_equal_players_in_the_round():
    state = new(4)
    for _ in range(3):
        state.apply(take(next(r for r, row in enumerate(state.rows) if row is not None)))
        assert sum(r is not None for r in state.rows) == state.out.count(False)


def test_T5_last_player_may_keep_drawing_until_the_tower_is_empty():
    state = new(2)
    state.apply(take(0))
    drawn = 0
    while state.towers[0]:
        assert state.current_player == 1
        state.apply(draw)
        state.apply(place(1))
        drawn += 1
    assert drawn == 15
    assert state.legal_actions() == [take(1)]
    with pytest.raises(IllegalAction, match="T5"):
        state.apply(draw)


def test_T5_empty_tower_allows_only_taking_a_row():
    state = new(3)
    state.towers[0].clear()
    assert [a.to_json()["type"] for a in state.legal_actions()] == ["take", "take", "take"]


# -- round end -------------------------------------------------------------------------------
def test_round_end_last_taker_gets_rock_and_starts_next_round():
    state = new(3)
    state.apply(take(0))  # seat 0
    state.apply(take(1))  # seat 1
    state.apply(take(2))  # seat 2 takes the last row
    assert state.rock == 2 and state.round == 1 and state.current_player == 2
    assert state.rows == [[], [], []] and state.out == [False, False, False]


def test_T3_rock_holder_gets_a_tree_tile_at_rounds_two_to_four():
    state = new(2)
    trees = []
    for _ in range(4):
        state.apply(take(0))
        state.apply(take(1))
        trees.append(list(state.trees))
    # Each round the second player took the last row; rounds 2-4 each gave a tree.
    assert trees[0] == [0, 1]
    assert sum(trees[-1]) == 3
    assert state.is_terminal


def test_T6_tokens_left_in_the_tower_leave_unseen():
    state = new(2)
    state.apply(draw)
    state.apply(place(0))
    events = state.apply(take(0))
    events += state.apply(take(1))
    assert state.towers[0] == [] and len(state.gone) == 14
    round_end = next(e for e in events if e.key == "round_end")
    assert round_end.params["unseen"] == 14
    assert all("gone" not in str(state.view(s)) for s in (None, 0, 1))
    assert state.view(0)["unseen_count"] == 14


def test_game_ends_after_the_fourth_round():
    state = new(3)
    rounds = 0
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
        if state.round > rounds:
            rounds = state.round
    assert rounds == 4 and state.current_player is None and state.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        state.apply(take(0))


# -- scoring ---------------------------------------------------------------------------------
@pytest.mark.parametrize("count, expected", [(0, 0), (1, 1), (2, 2), (3, 7), (4, -1), (5, -2), (7, -4)])
def test_scoring_points_per_animal_count(count, expected):
    assert animal_points(count, VALUES[DEER]) == expected


def test_scoring_triqueta_pays_each_printed_value():
    assert [animal_points(3, v) for v in VALUES] == [5, 6, 7, 8, 9, 10]


def test_rulebook_scoring_example_is_18_points():
    # 2 rabbits (2), 3 owls (6), 1 deer (1), 3 boars (8), 5 bears (-2), rock (1), 2 trees (2).
    state = new(3)
    state.counts[0] = [2, 3, 1, 3, 0, 5]
    state.rock, state.trees[0] = 0, 2
    assert collection_points(state.counts[0]) == 15
    assert state.scores()[0] == 18
    parts = state.score_breakdown()[0]
    assert (parts["rabbit"], parts["owl"], parts["deer"], parts["boar"], parts["bear"]) == (2, 6, 1, 8, -2)
    assert (parts["rock"], parts["trees"], parts["total"]) == (1, 2, 18)


def test_T7_face_down_tokens_are_added_only_when_they_help():
    # Two owls in hand: adding a face-down owl makes a triqueta; a face-down bear on top of
    # three bears would cost a point, so it is boxed.
    assert best_face_down_choice([0, 2, 0, 0, 0, 3], [OWL, BEAR]) == (0,)


def test_T7_choice_maximises_score_then_tokens():
    # A 5th ram would cost a point (boxed); a first deer is worth 1 (added).
    assert best_face_down_choice([0, 0, 0, 0, 4, 0], [RAM, DEER]) == (1,)
    # A 4th rabbit would turn 5 points into -1: boxed.
    assert best_face_down_choice([3, 0, 0, 0, 0, 0], [RABBIT]) == ()
    # Two face-down rabbits on one rabbit make a triqueta: both added.
    assert best_face_down_choice([1, 0, 0, 0, 0, 0], [RABBIT, RABBIT]) == (0, 1)


def _last_turn_of_game(state, counts, face_down, trees, rock):
    """Put `state` at the last move of round 4: seat 1 alone, about to take the last row."""
    state.counts = [list(c) for c in counts]
    state.face_down = [list(f) for f in face_down]
    state.trees, state.rock = list(trees), rock
    state.towers = [[], [], [], []]
    state.round, state.rows, state.out, state.players_in, state.current = 3, [None, []], [True, False], 1, 1


def test_T7_added_token_decides_the_T8_tie_break():
    # Seat 0: 3 rabbits (5) + 1 owl (1) + 1 tree, and a face-down owl -> 2 owls: 5 + 2 + 1 = 8.
    # Seat 1: 3 deer (7) + the rock for taking the last row = 8. Tied on score; seat 0 has
    # 5 animal tokens (with the added owl) against 3, so seat 0 wins.
    state = new(2)
    _last_turn_of_game(state, [[3, 1, 0, 0, 0, 0], [0, 0, 3, 0, 0, 0]], [[OWL], []], [1, 0], 0)
    state.apply(take(1))
    assert state.is_terminal and state.final is not None
    assert state.final[0] == {"added": [OWL], "boxed": 0}
    assert state.scores() == [8, 8]
    assert state.winners() == [0]
    assert state.score_breakdown()[0]["face_down_added"] == 1


def test_T8_full_tie_shares_the_win():
    # Seat 0: 3 deer (7) + 1 tree = 8, 3 tokens. Seat 1: 2 rabbits + 1 owl (3) + rock + 4 trees
    # = 8, 3 tokens.
    state = new(2)
    _last_turn_of_game(state, [[0, 0, 3, 0, 0, 0], [2, 1, 0, 0, 0, 0]], [[], []], [1, 4], 0)
    state.apply(take(1))
    assert state.scores() == [8, 8]
    assert state.winners() == [0, 1]


def test_T7_boxed_face_down_tokens_stay_hidden():
    state = new(2)
    _last_turn_of_game(state, [[0, 0, 0, 0, 0, 3], [0, 0, 0, 0, 0, 0]], [[BEAR], []], [0, 0], 0)
    state.apply(take(1))
    assert state.final is not None
    assert state.final[0] == {"added": [], "boxed": 1}
    assert state.view(1)["players"][0]["face_down_count"] == 1
    assert "face_down" not in state.view(1)["players"][0]
    assert state.view(0)["players"][0]["face_down"] == [BEAR]


def test_rock_and_trees_score_one_point_each():
    state = new(3)
    state.rock = 2
    state.trees = [0, 0, 3]
    assert state.scores() == [0, 0, 4]


# -- T9 duo ----------------------------------------------------------------------------------
def test_T9_duo_is_off_by_default():
    state = new(2)
    assert state.options == {"duo": False}
    state.apply(draw)
    assert len(state.pending) == 1
    with pytest.raises(IllegalAction, match="T9"):
        state.apply(discard(0))


def test_T9_duo_draws_two_and_requires_two_different_actions():
    state = new(2, duo=True)
    set_next_draws(state, [BEAR, OWL])
    state.apply(draw)
    assert state.pending == [BEAR, OWL]
    state.apply(place(0, slot=0))
    assert state.current_player == 0  # still seat 0: the owl needs its action
    with pytest.raises(IllegalAction, match="T9"):
        state.apply(place(1, slot=1))
    with pytest.raises(IllegalAction, match="T9"):
        state.apply(keep)  # slot 0 is already used
    state.apply(discard(1))
    assert state.rows[0] == [BEAR] and state.returned[0] == [OWL]
    assert state.current_player == 1


def test_T9_duo_is_for_two_players_only():
    """T9 (amended): asking for duo at 3-5 players is an option error, like any bad option."""
    assert new(2, duo=True).options["duo"]
    for players in (3, 4, 5):
        with pytest.raises(OptionError, match="duo"):
            new(players, duo=True)
        data = new(players).to_json()
        data["options"] = {"duo": True}
        with pytest.raises(RecordError, match="duo"):
            GAME.from_json(data)


def test_T9_duo_the_towers_last_token_is_placed_or_kept_never_returned():
    """T9 (amended): with a single token left the player takes it and places or keeps it."""
    state = new(2, duo=True)
    tower = state.towers[state.round]
    state.towers[state.round + 1].extend(tower[:-1])  # leave one token; all 60 stay in the box
    del tower[:-1]
    state.apply(draw)
    assert len(state.pending) == 1
    assert {a.to_json()["type"] for a in state.legal_actions()} == {"place", "keep"}
    before = state.to_json()
    with pytest.raises(IllegalAction, match="T9"):
        state.apply(discard(0))
    assert state.to_json() == before
    state.apply(keep)
    assert state.face_down[0] and not state.returned[0]


def test_T9_duo_keeps_still_count_towards_the_limit_of_two():
    state = new(2, duo=True)
    state.face_down[0] = [BEAR, BEAR]
    state.apply(draw)
    kinds = {a.to_json()["type"] for a in state.legal_actions()}
    assert kinds == {"place", "discard"}
