"""Celtica rules: every ruling C1-C12 and the rules summary's worked examples."""

from __future__ import annotations

import pytest

from meeple.core.errors import IllegalAction, RecordError
from meeple.core.rng import Rng
from meeple.games.celtica import scoring
from meeple.games.celtica.actions import BUY, CULT, DONE, GIVE, PLAY, SWAP, TAKE, Play
from meeple.games.celtica.board_file import load_board
from meeple.games.celtica.integrity import component_totals
from meeple.games.celtica.phases import CULT_PHASE, END_PHASE, GIVE_PHASE, PLAY_PHASE, TAKE_PHASE
from tests.celtica.helpers import BLACK, BROWN, CENTRE, GAME, GREY, RED, WHITE, hand, part_counts, position, turn


def play(s, colour, cards, exp=0):
    return s.apply(PLAY[colour][cards][exp])


# -- C1 components ------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_C1_all_components_and_five_druids_at_every_count(n):
    s = GAME.new_game(n, seed=11)
    assert component_totals(s) == (90, 60, 20)
    assert len(s.druids) == 5 and s.druids == [0] * 5
    # every colour's card exists 12 times and experience card 4 times
    druid = [s.druid_deck.count(c) + sum(h[c] for h in s.hands) for c in range(5)]
    exp = [s.experience_deck.count(c) for c in range(5)]
    assert druid == [12] * 5 and exp == [4] * 5


# -- C2 amulets ---------------------------------------------------------------------------------
def test_C2_duplicate_part_starts_the_next_amulet():
    counts = [2, 1, 1, 1, 1, 1, 1, 1, 3]
    assert scoring.amulet_sizes(counts) == [9, 2, 1]
    assert scoring.complete_amulets(counts) == 1
    assert scoring.incomplete_sizes(counts) == [2, 1]


def test_C2_any_centre_fills_the_centre_position():
    # ten centres are one type: two of them make two amulets' centres, never one amulet's
    assert scoring.amulet_sizes([2, 0, 0, 0, 0, 0, 0, 0, 0]) == [1, 1]


# -- C3 board -----------------------------------------------------------------------------------
def test_C3_default_board_is_the_reconstruction():
    board = load_board("")
    expected = ["start", "village 1", "cult", "castle 2", "ruin 1", "village 1", "monastery 3", "cult", "ruin 2",
                "castle 2", "village 1", "ruin 1", "monastery 3", "cult", "ruin 2", "castle 2", "village 1",
                "ruin 2", "goal 3"]
    got = [k if n == 0 else f"{k} {n}" for k, n in zip(board.kinds, board.numbers)]
    assert got == expected
    assert board.provenance == "reconstructed" and board.goal == 18
    assert GAME.new_game(2, seed=1).view(None)["provenance"] == "reconstructed"


# -- C4 setup -----------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 5])
def test_C4_setup_hands_parts_display_and_first_player(n):
    s = GAME.new_game(n, seed=3)
    assert s.current_player == 0 and s.phase == PLAY_PHASE
    assert s.cards_held == [5] * n and all(sum(h) == 5 for h in s.hands)
    assert all(sum(p) == 2 for p in s.parts)
    assert sum(s.display) == 9 and s.display_size == 9
    view = s.view(1)
    assert "hand" in view["players"][1] and "hand" not in view["players"][0]
    assert view["players"][0]["parts"] == s.parts[0]  # parts are face up


# -- C5 turn ------------------------------------------------------------------------------------
def test_C5_several_cards_of_one_colour_move_one_location_each():
    s = position(hands=[hand(RED, RED, RED), hand(GREY), hand(GREY)], experience=[hand(RED), [0] * 5, [0] * 5])
    play(s, RED, 2, 1)  # 0 -> 3 (castle 2)
    assert s.druids[RED] == 3 and s.phase == TAKE_PHASE and s.pending == 2
    assert s.hands[0][RED] == 1 and s.experience[0][RED] == 0
    assert s.druid_discards[RED] == 2 and s.experience_discards[RED] == 1


def test_C5_experience_cards_never_alone_and_only_of_the_played_colour():
    s = position(hands=[hand(RED), hand(GREY), hand(GREY)], experience=[hand(GREY, GREY), [0] * 5, [0] * 5])
    legal = s.legal_actions()
    plays = [a for a in legal if isinstance(a, Play)]
    assert plays == legal
    assert all(a.cards >= 1 for a in plays)
    assert {(a.colour, a.cards, a.experience) for a in plays} == {(RED, 1, 0)}
    with pytest.raises(IllegalAction, match="C5"):
        play(s, RED, 1, 1)  # a grey experience card cannot move the red druid
    with pytest.raises(RecordError):
        GAME.action_from_json({"type": "play", "colour": "grey", "cards": 0, "experience": 2})


def test_C5_only_the_final_location_acts():
    # red passes the ruin at 4 and stops on the village at 5: no part is lost
    s = position(druids=(3, 0, 0, 0, 0), hands=[hand(RED, RED), hand(GREY), hand(GREY)],
                 parts=[part_counts(1, 2), [0] * 9, [0] * 9])
    play(s, RED, 2)
    assert s.druids[RED] == 5 and s.phase == TAKE_PHASE and sum(s.parts[0]) == 2


def test_C5_druids_share_locations():
    s = position(druids=(1, 2, 2, 2, 2), hands=[hand(RED), hand(GREY), hand(GREY)])
    play(s, RED, 1)
    assert s.druids == [2, 2, 2, 2, 2]


def test_C5_moving_past_the_goal_ends_on_it_and_pays_the_goal():
    s = position(druids=(16, 0, 0, 0, 0), hands=[hand(RED, RED, RED, RED), hand(GREY), hand(GREY)])
    play(s, RED, 4)  # 16 + 4 would be 20; stops on 18
    assert s.druids[RED] == 18 and s.phase == TAKE_PHASE and s.pending == 3
    for _ in range(3):
        s.apply(s.legal_actions()[0])
    assert sum(s.parts[0]) == 3 and s.final_round


def test_C5_cards_of_a_druid_in_the_goal_are_played_to_no_effect():
    s = position(druids=(18, 0, 0, 0, 0), hands=[hand(RED, GREY), hand(GREY), hand(GREY)])
    before = [list(p) for p in s.parts]
    events = play(s, RED, 1)
    assert next(e.key for e in events) == "no_effect"
    assert s.druids[RED] == 18 and s.parts == before and s.druid_discards[RED] == 1
    assert s.current_player == 1 and s.phase == PLAY_PHASE


# -- C6 find sites --------------------------------------------------------------------------------
def test_C6_find_site_takes_n_chosen_parts_then_refills():
    s = position(druids=(0, 0, 0, 0, 0), hands=[hand(RED, RED, RED), hand(GREY), hand(GREY)],
                 supply_top=[CENTRE, 5])
    play(s, RED, 3)  # castle 2
    s.apply(TAKE[4])
    assert s.phase == TAKE_PHASE and s.display_size == 8
    s.apply(TAKE[7])
    assert s.parts[0] == part_counts(4, 7)
    assert s.display_size == 9 and s.display[CENTRE] == 2 and s.display[5] == 2
    assert s.current_player == 1


def test_C6_fewer_parts_than_the_site_shows():
    s = position(druids=(3, 0, 0, 0, 0), hands=[hand(RED, RED, RED), hand(GREY), hand(GREY)],
                 display=part_counts(2), supply_top=[1], supply_rest=False)
    play(s, RED, 3)  # monastery 3 but only one part shown
    assert s.pending == 1
    with pytest.raises(IllegalAction, match="C6"):
        s.apply(TAKE[0])
    s.apply(TAKE[2])
    assert s.parts[0][2] == 1


def test_C6_supply_reshuffled_from_discards_when_empty():
    s = position(druids=(0, 0, 0, 0, 0), hands=[hand(RED), hand(GREY), hand(GREY)],
                 supply_rest=False)  # every part not on the table is in the discard pile
    assert s.supply == [] and s.num_part_discards == 90 - 9
    play(s, RED, 1)  # village 1
    s.apply(TAKE[0])
    assert s.display_size == 9 and len(s.supply) == 90 - 9 - 1 and s.num_part_discards == 0
    assert not s.is_terminal


# -- C7 ruins -------------------------------------------------------------------------------------
def test_C7_ruin_gives_up_chosen_parts_then_draws_experience():
    s = position(druids=(7, 0, 0, 0, 0), hands=[hand(RED, RED), hand(GREY), hand(GREY)],
                 parts=[part_counts(0, 1, 1, 5), [0] * 9, [0] * 9], experience_top=[BROWN])
    play(s, RED, 1)  # ruin 2
    assert s.phase == GIVE_PHASE and s.pending == 2
    with pytest.raises(IllegalAction, match="C7"):
        s.apply(GIVE[3])
    s.apply(GIVE[1])
    events = s.apply(GIVE[5])
    assert s.parts[0] == part_counts(0, 1) and s.part_discards[1] == 1 and s.part_discards[5] == 1
    assert s.experience[0] == hand(BROWN)
    drawn = next(e for e in events if e.key == "experience_drawn")
    assert drawn.for_seat(1)["params"] == {} and drawn.for_seat(0)["params"] == {"colour": "brown"}


def test_C7_all_parts_if_fewer_and_none_if_none():
    s = position(druids=(7, 7, 0, 0, 0), hands=[hand(RED), hand(GREY), hand(BLACK)],
                 parts=[part_counts(3), [0] * 9, [0] * 9])
    play(s, RED, 1)
    assert s.pending == 1
    s.apply(GIVE[3])
    assert s.parts[0] == [0] * 9 and s.experience_held[0] == 1
    play(s, GREY, 1)  # seat 1 has no parts: nothing to give up, still draws
    assert s.experience_held[1] == 1 and s.current_player == 2


def test_C7_experience_reshuffled_or_none_left():
    s = position(druids=(3, 3, 0, 0, 0), hands=[hand(RED), hand(GREY), hand(BLACK)],
                 experience=[[0] * 5, [0] * 5, [4, 4, 4, 4, 3]], experience_rest=False)
    assert s.experience_deck == [] and sum(s.experience_discards) == 1
    play(s, RED, 1)  # ruin 1, no parts; the one used card is reshuffled and drawn
    assert s.experience_held[0] == 1 and sum(s.experience_discards) == 0
    events = play(s, GREY, 1)
    assert s.experience_held[1] == 0 and "experience_none" in [e.key for e in events]


def test_C7_experience_card_usable_from_the_next_turn():
    s = position(druids=(3, 0, 0, 0, 0), hands=[hand(RED, RED), hand(GREY), hand(GREY)], experience_top=[RED])
    play(s, RED, 1)  # ruin 1 -> draws a red experience card
    turn(s, GREY, 1)
    turn(s, GREY, 1)
    assert s.current_player == 0
    assert PLAY[RED][1][1] in s.legal_actions()


# -- C8 cult sites --------------------------------------------------------------------------------
def test_C8_drawn_card_must_be_played_next_turn():
    s = position(druids=(1, 0, 0, 0, 0), hands=[hand(RED, GREY), hand(GREY), hand(GREY)], deck_top=[BLACK])
    play(s, RED, 1)  # cult site
    assert s.phase == CULT_PHASE and s.legal_actions() == list(CULT)
    events = s.apply(CULT[1])
    assert s.hands[0] == hand(GREY, BLACK) and s.owed_colour[0] == BLACK
    drew = next(e for e in events if e.key == "cult_drew")
    assert drew.for_seat(2)["params"] == {} and drew.for_seat(0)["params"] == {"colour": "black"}
    assert s.view(1)["players"][0]["owes_card"] is True and "must_play" not in s.view(1)["players"][0]
    turn(s, GREY, 1)
    turn(s, GREY, 1)
    assert all(isinstance(a, Play) for a in s.legal_actions())
    assert {a.colour for a in s.legal_actions() if isinstance(a, Play)} == {BLACK}
    with pytest.raises(IllegalAction, match="C8"):
        play(s, GREY, 1)
    play(s, BLACK, 1)
    assert s.owed_colour[0] == -1


def test_C8_drawing_is_optional():
    s = position(druids=(1, 0, 0, 0, 0), hands=[hand(RED, GREY), hand(GREY), hand(GREY)])
    play(s, RED, 1)
    s.apply(CULT[0])
    assert s.hands[0] == hand(GREY) and s.owed_colour[0] == -1 and s.current_player == 1


def test_C8_cult_site_dilemma_example():
    """The summary's exception: A plays a last red card onto the cult site where all five
    druids stand, nobody has cards, and the next location is a ruin: whatever card A would draw,
    A must move a druid onto the ruin, so A declines."""
    from meeple.games.celtica import heuristics

    s = position(druids=(6, 7, 7, 7, 7), hands=[hand(RED), [0] * 5, [0] * 5],
                 parts=[part_counts(0, 1, 2, 3, 4), [0] * 9, [0] * 9])
    play(s, RED, 1)
    assert s.druids == [7] * 5 and s.phase == CULT_PHASE and s.site_actions[8] == 2  # 8 is a ruin
    for colour in range(5):
        drawn = s.clone()
        drawn.druid_deck.append(colour)
        drawn.apply(CULT[1])
        assert drawn.current_player == 0 and drawn.owed_colour[0] == colour
        plays = drawn.legal_actions()
        assert all(isinstance(a, Play) and drawn.druids[a.colour] + a.cards == 8 for a in plays)
        drawn.apply(drawn.legal_actions()[0])
        assert drawn.phase == GIVE_PHASE  # forced onto the ruin
    assert heuristics.choose(s, Rng(0)) == CULT[0]
    s.apply(CULT[0])
    assert s.round == 2  # nobody has cards: the round ends


# -- C9 rounds ------------------------------------------------------------------------------------
def test_C9_player_with_only_experience_cards_is_out():
    s = position(hands=[hand(RED), hand(GREY), hand(GREY, GREY)], experience=[hand(RED), [0] * 5, [0] * 5])
    events = turn(s, RED, 1)
    assert "player_out" in [e.key for e in events]
    assert s.current_player == 1
    turn(s, GREY, 1)
    assert s.current_player == 2
    turn(s, GREY, 1)
    assert s.current_player == 2  # C9: the lone remaining player takes consecutive turns
    assert s.experience[0] == hand(RED)  # kept for later


def test_C9_new_round_deals_five_and_left_of_last_player_starts():
    s = position(hands=[hand(RED), hand(GREY, GREY), [0] * 5], player=0)
    turn(s, RED, 1)
    turn(s, GREY, 1)
    events = turn(s, GREY, 1)  # seat 1 played the last druid card
    assert s.round == 2 and s.current_player == 2
    assert s.cards_held == [5, 5, 5]
    start = next(e for e in events if e.key == "round_start")
    assert start.player == 2 and start.params == {"round": 2}
    dealt = [e for e in events if e.key == "dealt"]
    assert [e.player for e in dealt] == [2, 0, 1]
    assert dealt[0].for_seat(0)["params"] == {"count": 5} and "cards" in dealt[0].for_seat(2)["params"]


def test_C9_druid_deck_reshuffled_when_needed():
    s = position(hands=[hand(RED), [0] * 5, [0] * 5], deck_top=[GREY, GREY, GREY], deck_rest=False)
    assert len(s.druid_deck) == 3
    events = turn(s, RED, 1)
    assert "reshuffled" in [e.key for e in events]
    assert s.cards_held == [5, 5, 5] and component_totals(s) == (90, 60, 20)
    assert s.druid_discards == [0] * 5 and len(s.druid_deck) == 60 - 15


# -- C10 game end ---------------------------------------------------------------------------------
def test_C10_game_ends_after_the_round_in_which_a_druid_reached_the_goal():
    s = position(druids=(17, 0, 0, 0, 0), hands=[hand(RED), hand(GREY, GREY), hand(BLACK)])
    play(s, RED, 1)
    for _ in range(3):
        s.apply(s.legal_actions()[0])
    assert s.final_round and not s.is_terminal and s.current_player == 1
    turn(s, GREY, 1)
    turn(s, BLACK, 1)
    assert not s.is_terminal
    events = turn(s, GREY, 1)
    assert s.is_terminal and s.end_reason == "goal" and s.ender == 1
    assert next(e for e in events if e.key == "game_end").params == {"reason": "goal"}


def test_C10_all_five_druids_home_ends_at_once():
    s = position(druids=(18, 18, 18, 18, 16), hands=[hand(BLACK, RED), hand(GREY, GREY), hand(BLACK)])
    play(s, BLACK, 1)
    assert not s.is_terminal
    play(s, GREY, 2)  # no effect
    play(s, BLACK, 1)  # seat 2 brings the fifth druid home and still takes the goal's parts
    assert s.phase == TAKE_PHASE
    for _ in range(3):
        s.apply(s.legal_actions()[0])
    assert s.is_terminal and s.end_reason == "all_home" and s.ender == 2
    assert s.hands[0] == hand(RED)  # seat 0 never played its last card


def test_C10_running_out_of_parts_ends_at_once():
    # all parts but the display and two supply parts are in collections; no discards
    s = position(druids=(0, 0, 0, 0, 0), hands=[hand(RED, RED), hand(GREY, GREY, GREY), hand(GREY)],
                 parts=[[9, 9, 9, 9, 0, 0, 0, 0, 0], [0, 0, 0, 0, 9, 9, 9, 9, 0], [1, 1, 1, 1, 1, 1, 1, 1, 0]],
                 display=[0] * 8 + [8], supply_top=[8, 8], supply_rest=False)
    assert s.supply == [8, 8] and s.num_part_discards == 0
    play(s, RED, 1)  # village 1; the refill takes the last two supply parts
    events = s.apply(TAKE[8])
    assert not s.is_terminal and s.supply == [] and s.display_size == 9
    play(s, GREY, 3)  # castle 2: the refill needs parts and none are left
    s.apply(TAKE[8])
    events = s.apply(TAKE[8])
    assert s.is_terminal and s.end_reason == "parts" and s.ender == 1
    assert s.display_size == 7
    assert next(e for e in events if e.key == "game_end").params == {"reason": "parts"}
    assert s.hands[0] == hand(RED)  # the round was not finished


# -- C11 end phase --------------------------------------------------------------------------------
def test_C11_end_phase_order_costs_and_refills():
    s = position(druids=(17, 0, 0, 0, 0), hands=[hand(GREY), hand(RED), hand(BLACK)],
                 experience=[hand(RED), hand(GREY, GREY, WHITE), hand(BROWN, BROWN)],
                 parts=[part_counts(1), part_counts(2, 3), part_counts(4)])
    turn(s, GREY, 1)
    turn(s, RED, 1)  # seat 1 brings red home: the last round
    turn(s, BLACK, 1)  # seat 2 plays the last card: the end phase starts at seat 0
    assert s.phase == END_PHASE and s.ender == 2 and s.end_queue == [0, 1, 2]
    assert s.current_player == 0 and s.display_size == 9
    assert not any(a.to_json()["type"] == "buy" for a in s.legal_actions())  # one card: no purchase
    give = s.parts[0].index(max(s.parts[0]))
    take = next(t for t in range(9) if s.display[t] and t != give)
    mine, shown = list(s.parts[0]), list(s.display)
    s.apply(SWAP[give][take])
    mine[give] -= 1
    mine[take] += 1
    shown[give] += 1
    shown[take] -= 1
    assert s.parts[0] == mine and s.display == shown and s.experience_held[0] == 0 and sum(s.experience_discards) == 1
    assert s.current_player == 1  # seat 0 has no card left
    take = next(t for t in range(9) if s.display[t])
    before = s.parts[1][take]
    s.apply(BUY[take])
    assert s.experience_held[1] == 1 and s.parts[1][take] == before + 1 and s.display_size == 8
    with pytest.raises(IllegalAction, match="C11"):
        s.apply(BUY[next(t for t in range(9) if s.display[t])])
    s.apply(DONE)
    assert s.display_size == 9  # refilled before the next player
    assert s.current_player == 2
    s.apply(BUY[next(t for t in range(9) if s.display[t])])
    assert s.is_terminal and s.display_size == 9 and s.experience_held == [0, 1, 0]


def test_C11_players_without_experience_cards_are_skipped():
    s = position(druids=(17, 0, 0, 0, 0), hands=[hand(RED), [0] * 5, [0] * 5],
                 experience=[[0] * 5, [0] * 5, hand(WHITE, WHITE)], parts=[part_counts(1), [0] * 9, [0] * 9])
    play(s, RED, 1)
    for _ in range(3):
        s.apply(s.legal_actions()[0])
    assert s.phase == END_PHASE and s.current_player == 2 and s.end_queue == [2, 0]
    s.apply(DONE)
    assert s.is_terminal and s.over


# -- C12 standings --------------------------------------------------------------------------------
def test_C12_standings_example_C_beats_B_beats_A():
    """The summary's final example: C has 3 complete amulets; B's best incomplete amulet has 8
    parts, A's only 7, both with fewer complete amulets."""
    a = [3, 3, 3, 3, 3, 3, 3, 2, 2]  # 2 complete, one incomplete of 7
    b = [3, 3, 3, 3, 3, 3, 3, 3, 2]  # 2 complete, one incomplete of 8
    c = [3, 3, 3, 3, 3, 3, 3, 3, 3]  # 3 complete
    assert scoring.incomplete_sizes(a) == [7] and scoring.incomplete_sizes(b) == [8]
    assert scoring.ranking([a, b, c]) == [[2], [1], [0]]
    # the same three collections at the end of a game, C (seat 0) ending it at the goal
    s = position(druids=(17, 0, 0, 0, 0), hands=[hand(RED), [0] * 5, [0] * 5], parts=[c, b, a])
    turn(s, RED, 1)
    assert s.is_terminal and s.winners() == [0] and s.standings() == [[0], [1], [2]]
    assert s.scores() == [3, 2, 2]
    assert s.score_breakdown()[1] == {"complete": 2, "incomplete": [8], "parts": b}
    assert s.score_breakdown()[2] == {"complete": 2, "incomplete": [7], "parts": a}


def test_C12_ties_compare_next_largest_incomplete_then_share():
    x = [1, 1, 1, 1, 1, 1, 0, 0, 0]  # [6]
    y = [2, 2, 1, 1, 1, 1, 0, 0, 0]  # [6, 2]
    z = [2, 2, 1, 1, 1, 1, 0, 0, 0]
    assert scoring.ranking([x, y, z]) == [[1, 2], [0]]
    s = position(druids=(17, 0, 0, 0, 0), hands=[hand(RED), [0] * 5, [0] * 5], parts=[x, y, z],
                 display=[0] * 8 + [3], supply_top=[8, 8, 8])
    play(s, RED, 1)
    for _ in range(3):
        s.apply(TAKE[8])
    # seat 0 now has [1,1,1,1,1,1,0,0,3]: sizes [7,1,1] beats [6,2]
    assert s.winners() == [0]


def test_C12_standing_value_orders_like_the_key():
    import itertools
    import random

    gen = random.Random(5)
    rows = [[gen.randrange(0, 5) for _ in range(9)] for _ in range(200)]
    for a, b in itertools.combinations(rows[:60], 2):
        ka, kb = scoring.standing_key(a), scoring.standing_key(b)
        va, vb = scoring.standing_value(a), scoring.standing_value(b)
        assert (ka > kb) == (va > vb) and (ka == kb) == (va == vb)


# -- worked examples of the rules summary ---------------------------------------------------------
def test_example_two_white_cards_reach_a_village_for_one_part():
    s = position(druids=(0, 0, 3, 0, 0), hands=[hand(WHITE, WHITE), hand(GREY), hand(GREY)])
    play(s, WHITE, 2)
    assert s.druids[WHITE] == 5 and s.board.kinds[5] == "village" and s.pending == 1
    s.apply(TAKE[6])
    assert sum(s.parts[0]) == 1 and s.current_player == 1


def test_example_one_red_card_reaches_a_ruin_costing_two():
    s = position(druids=(7, 0, 0, 0, 0), hands=[hand(RED), hand(GREY), hand(GREY)],
                 parts=[part_counts(0, 1, 2), [0] * 9, [0] * 9])
    play(s, RED, 1)
    assert s.board.kinds[8] == "ruin" and s.pending == 2
    s.apply(GIVE[0])
    s.apply(GIVE[2])
    assert s.parts[0] == part_counts(1) and s.experience_held[0] == 1 and s.num_part_discards == 2
