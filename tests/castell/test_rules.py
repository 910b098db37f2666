"""Rulings K1-K11 at the engine level: set-up, turns, the wheel, special actions, festivals,
prizes, size tokens, local performances and end scoring."""

from dataclasses import replace

import pytest

from meeple.core.errors import IllegalAction
from meeple.games.castell import actions as A
from meeple.games.castell.components import PER_REGION, REGIONS, load_components
from meeple.games.castell.state import CastellState
from meeple.games.castell.towers import LocalTile, validate
from tests.castell.helpers import castellers_total, fest, last_turn, new, placed, region, team


# -- K1 map -------------------------------------------------------------------------------------
def test_K1_regions_and_reconstructed_roads():
    comp = load_components()
    roads = {frozenset((REGIONS[a], REGIONS[b])) for a, b, _ in comp.roads}
    assert len(roads) == 10
    assert frozenset(("tarragona", "valls")) in roads
    assert frozenset(("barcelona", "mataro")) in roads
    assert frozenset(("tarragona", "barcelona")) not in roads
    dashed = {frozenset((REGIONS[a], REGIONS[b])) for a, b, style in comp.roads if style == "dashed"}
    expected = (("tarragona", "vilanova"), ("vilanova", "barcelona"), ("barcelona", "mataro"))
    assert dashed == {frozenset(p) for p in expected}


def test_K1_move_only_to_an_adjacent_region():
    s = placed(where="tarragona")
    legal_moves = {a.region for a in s.legal_actions() if type(a) is A.Move}
    assert legal_moves == {region("valls"), region("vilanova")}
    with pytest.raises(IllegalAction, match=r"\(K1\)"):
        s.apply(A.MOVES[region("barcelona")])
    s.apply(A.MOVES[region("valls")])
    assert s.pawn[0] == region("valls")


# -- K2 castellers ------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_K2_setup_puts_castellers_in_regions_and_teams(n):
    s = new(n, seed=3)
    assert all(sum(pool) == PER_REGION[n] for pool in s.pool)
    assert all(sum(t) == 7 for t in s.teams)
    assert castellers_total(s) == 150
    bag = s.bag_counts()
    for size, count in {10: 24, 9: 20, 8: 18, 7: 18, 6: 14, 5: 14, 4: 12, 3: 12, 2: 10, 1: 8}.items():
        assert bag[size] + sum(p[size] for p in s.pool) + sum(t[size] for t in s.teams) == count


def test_K2_refill_in_rounds_3_5_7_9_only():
    for rnd in range(1, 10):
        s = placed(n=3, seed=4)
        s.pool = [[0] * 11 for _ in REGIONS]
        last_turn(s, rnd, ())
        before = len(s.bag)
        s.apply(A.END_TURN)
        assert s.round == rnd + 1
        refilled = rnd + 1 in (3, 5, 7, 9)
        assert all(sum(p) == (4 if refilled else 0) for p in s.pool)
        assert len(s.bag) == before - (28 if refilled else 0)


def test_K2_refill_tops_up_while_the_bag_lasts():
    s = placed(n=4, seed=4)
    s.pool = [[0] * 11 for _ in REGIONS]
    s.pool[0][5] = 5
    s.bag = s.bag[:7]
    total = castellers_total(s)
    last_turn(s, 2, ())
    s.apply(A.END_TURN)
    assert s.bag == []
    assert [sum(p) for p in s.pool] == [5, 5, 2, 0, 0, 0, 0]
    assert castellers_total(s) == total


@pytest.mark.parametrize("n", [2, 3, 4])
def test_K2_refill_add_adds_five_four_three_to_each_region(n):
    """K2 (amended), option refill=add: the translation's other reading of the refill sentence
    (5/4/3 castellers per region with 4/3/2 players)."""
    per_region = {2: 3, 3: 4, 4: 5}[n]
    for refill, expected in (("top_up", lambda before: max(before, per_region)),
                             ("add", lambda before: before + per_region)):
        s = placed(n=n, seed=4, refill=refill)
        s.pool = [[0] * 11 for _ in REGIONS]
        s.pool[0][5] = 2
        s.pool[1][6] = per_region + 1
        before = [sum(p) for p in s.pool]
        total = castellers_total(s)
        last_turn(s, 2, ())
        s.apply(A.END_TURN)
        assert [sum(p) for p in s.pool] == [expected(b) for b in before], refill
        assert castellers_total(s) == total


def test_K2_refill_add_still_stops_when_the_bag_is_empty():
    s = placed(n=4, seed=4, refill="add")
    s.pool = [[0] * 11 for _ in REGIONS]
    s.bag = s.bag[:7]
    last_turn(s, 2, ())
    s.apply(A.END_TURN)
    assert s.bag == [] and [sum(p) for p in s.pool] == [5, 2, 0, 0, 0, 0, 0]


# -- K3 wheel -------------------------------------------------------------------------------------
def test_K3_wheel_turns_one_step_from_round_2():
    s = new(4, seed=9)
    seg = s.wheel_side.index(region("valls"))
    assert s.segment_tile(seg) == s.skill_at[seg]
    for rnd in range(2, 11):
        s.round = rnd
        assert s.segment_tile(seg) == s.skill_at[(seg + rnd - 1) % 8]
    assert sorted(s.skill_at) == sorted(load_components().skill_tiles)


def test_K3_advanced_wheel_has_no_all_regions_training():
    s = placed(where="valls", wheel="advanced")
    assert not any(type(a) is A.Train and a.source == 1 for a in s.legal_actions())
    with pytest.raises(IllegalAction, match=r"\(K3\)"):
        s.apply(A.TRAINS[1][0])
    std = placed(where="valls")
    assert any(type(a) is A.Train and a.source == 1 for a in std.legal_actions())


def _set_facing(s: CastellState, source: int, kind: int) -> None:
    """Make the wheel segment a Train from `source` uses face tile `kind` this round."""
    code = s.pawn[s.current] if source == 0 else -1
    seg = s.wheel_side.index(code)
    tiles = list(s.skill_at)
    tiles[(seg + s.round - 1) % 8] = kind
    s.skill_at = tuple(tiles)


# -- K4 turn ------------------------------------------------------------------------------------
def test_K4_round_1_the_pawn_goes_anywhere_before_anything_else():
    s = new(3, seed=2)
    assert s.legal_actions() == list(A.MOVES)
    with pytest.raises(IllegalAction, match=r"\(K4\)"):
        s.apply(A.END_TURN)
    with pytest.raises(IllegalAction, match=r"\(K4\)"):
        s.apply(A.RECRUITS[1])
    s.apply(A.MOVES[region("mataro")])
    assert s.pawn[0] == region("mataro")
    assert not any(type(a) is A.Move for a in s.legal_actions())  # that was the turn's Move


def test_K4_each_action_once_per_turn():
    s = placed(where="barcelona")
    s.pool[region("barcelona")] = team(s9=3, s4=2)
    s.apply(A.RECRUITS[9])
    s.apply(A.RECRUITS[9])
    with pytest.raises(IllegalAction, match="already recruited"):
        s.apply(A.RECRUITS[4])
    s.apply(A.MOVES[region("terrassa")])
    with pytest.raises(IllegalAction, match="already moved"):
        s.apply(A.MOVES[region("barcelona")])
    _set_facing(s, 0, 0)
    s.apply(A.TRAINS[0][0])
    assert not any(type(a) is A.Train for a in s.legal_actions())
    with pytest.raises(IllegalAction, match="already trained"):
        s.apply(A.TRAINS[0][0])
    assert s.skills[0][0] == 1
    assert {type(a) for a in s.legal_actions()} <= {A.SingleRecruit, A.ExtraMove, A.Perform, A.EndTurn}


def test_K4_recruit_two_one_after_the_other():
    s = placed(where="barcelona")
    s.pool[region("barcelona")] = team(s9=3, s4=2)
    s.apply(A.RECRUITS[9])
    s.apply(A.MOVES[region("terrassa")])  # closes the Recruit action after one casteller
    s.pool[region("terrassa")] = team(s8=2)
    assert not any(type(a) is A.Recruit for a in s.legal_actions())
    assert s.teams[0][9] >= 1


def test_K4_recruit_needs_a_casteller_of_that_size_in_the_region():
    s = placed(where="barcelona")
    s.pool[region("barcelona")] = team(s2=1)
    with pytest.raises(IllegalAction, match="no casteller of size 7"):
        s.apply(A.RECRUITS[7])
    before = s.to_json()
    assert s.to_json() == before


def test_K4_train_raises_the_facing_skill_up_to_5():
    s = placed(where="valls")
    _set_facing(s, 0, 2)  # mix
    s.skills[0][2] = 4
    assert A.TRAINS[0][2] in s.legal_actions()
    with pytest.raises(IllegalAction, match="faces mix"):
        s.apply(A.TRAINS[0][1])
    s.apply(A.TRAINS[0][2])
    assert s.skills[0][2] == 5
    s2 = placed(where="valls")
    _set_facing(s2, 0, 2)
    s2.skills[0][2] = 5
    assert A.TRAINS[0][2] not in s2.legal_actions()


def test_K4_practice_raises_a_skill_already_learned():
    s = placed(where="valls")
    _set_facing(s, 0, 5)  # practice
    trains = [a for a in s.legal_actions() if type(a) is A.Train and a.source == 0]
    assert trains == []  # no skill at level 1 yet
    s.skills[0][3] = 2
    trains = [a for a in s.legal_actions() if type(a) is A.Train and a.source == 0]
    assert trains == [A.TRAINS[0][3]]
    with pytest.raises(IllegalAction, match="Practice"):
        s.apply(A.TRAINS[0][1])
    s.apply(A.TRAINS[0][3])
    assert s.skills[0][3] == 3


def test_K4_special_tile_gives_a_free_special_action():
    s = placed(where="valls")
    _set_facing(s, 0, 6)  # special
    s.pool[region("valls")] = team(s6=2)
    s.apply(A.TRAINS[0][A.SPECIAL_TARGET])
    assert s.free_special
    acts = s.legal_actions()
    assert A.END_TURN not in acts and A.SINGLE_RECRUITS[6] in acts
    with pytest.raises(IllegalAction, match="free special"):
        s.apply(A.END_TURN)
    s.apply(A.SINGLE_RECRUITS[6])
    assert s.tokens_left[0] == 7 and sum(s.board_tokens[region("valls")]) == 0
    # The free one is not the turn's Special Action: a paid one is still possible.
    assert A.SINGLE_RECRUITS[6] in s.legal_actions()
    s.apply(A.SINGLE_RECRUITS[6])
    assert s.tokens_left[0] == 6 and s.board_tokens[region("valls")][0] == 1


# -- K5 special actions ---------------------------------------------------------------------------
def test_K5_single_recruit_and_extra_move_place_a_token():
    s = placed(where="vilafranca")
    s.pool[region("vilafranca")] = team(s3=1)
    s.apply(A.EXTRA_MOVES[region("valls")])
    assert s.pawn[0] == region("valls")
    assert s.board_tokens[region("vilafranca")][0] == 1
    with pytest.raises(IllegalAction, match="already took a special"):
        s.apply(A.EXTRA_MOVES[region("tarragona")])
    s.apply(A.MOVES[region("tarragona")])  # the ordinary Move is still there
    assert s.pawn[0] == region("tarragona")


def test_K5_special_tokens_exhausted():
    s = placed(where="vilafranca")
    s.tokens_left[0] = 0
    assert not any(type(a) in (A.SingleRecruit, A.ExtraMove, A.Perform) for a in s.legal_actions())
    with pytest.raises(IllegalAction, match=r"\(K5\)"):
        s.apply(A.EXTRA_MOVES[region("valls")])


# -- K7 calendar ----------------------------------------------------------------------------------
@pytest.mark.parametrize("n, per_round", [(4, [1, 2, 2, 2, 2, 2, 2, 1]), (3, [1, 1, 2, 1, 2, 1, 2, 1]), (2, [1] * 8)])
def test_K7_calendar_per_player_count(n, per_round):
    s = new(n, seed=11)
    comp = s.components
    assert [len(s.festivals[r]) for r in range(3, 11)] == per_round
    assert s.festivals[1] == () and s.festivals[2] == ()
    for rnd in range(3, 11):
        deck = "I" if rnd <= 6 else "II"
        tokens = 1 if rnd <= 4 else 2 if rnd <= 8 else 3
        for f in s.festivals[rnd]:
            assert comp.festivals[f.tile].deck == deck
            assert len(f.tokens) == tokens
        regions = [f.region for f in s.festivals[rnd]]
        assert len(set(regions)) == len(regions)
    used = [f.tile for r in range(11) for f in s.festivals[r]]
    assert len(set(used)) == len(used)


# -- K8 entering ----------------------------------------------------------------------------------
def test_K8_example_G_not_eligible():
    # Ramani in Vilanova, sizes 6 and 8: too few 8s (and too few levels) to enter.
    s = placed(where="vilanova")
    for p in range(4):
        s.pawn[p] = region("mataro")
    s.pawn[3] = region("vilanova")
    s.teams[3] = team(s8=1, s6=3, s5=1, s2=2)
    last_turn(s, 5, (fest("vilanova", 6, 8),))
    s.apply(A.END_TURN)
    assert s.round == 6  # nobody could enter: no entry decisions were asked
    assert s.results[-1]["entrants"] == []


def test_K8_entry_needs_pawn_levels_and_every_size():
    s = placed(where="valls")
    s.teams = [team(s10=3, s9=2, s8=1, s3=1) for _ in range(4)]
    s.skills = [[1, 0, 0, 0, 0] for _ in range(4)]
    s.pawn[2] = region("tarragona")
    last_turn(s, 5, (fest("valls", 8, 3),))
    s.apply(A.END_TURN)
    assert s.phase == 1
    assert s.queue == [1, 3, 0]  # round order from the first player (seat 1); seat 2 is elsewhere
    three_levels = ((10, 10, 10), (9, 9), (8,))
    with pytest.raises(IllegalAction, match=r"\(K8\)"):
        s.apply(A.Enter(0, three_levels + ()))
    no_three = ((10, 10, 10), (9, 9), (8,), (8,))
    with pytest.raises(IllegalAction):
        s.apply(A.Enter(0, no_three))
    with pytest.raises(IllegalAction, match=r"\(K6\)"):
        s.apply(A.Enter(0, ((9, 9), (10, 10, 10), (8,), (3,))))
    ok = ((10, 10, 10), (9, 9), (8,), (3,))
    assert validate(ok, (1, 0, 0, 0, 0)).legal and not validate(ok, (0, 0, 0, 0, 0)).legal
    s.apply(A.Enter(0, ok))
    s.apply(A.DECLINE)
    s.apply(A.ENTERS[0])  # the solver's best
    assert s.round == 6
    res = s.results[-1]
    assert [e["seat"] for e in res["entrants"]] == [1, 0]
    assert res["entrants"][0]["score"] == 4 + 2
    assert s.best[1] == 6 and s.best[3] == 0 and s.best[0] >= 6


def test_K8_best_tower_score_is_kept():
    s = placed(where="valls")
    s.teams = [team(s10=3, s9=2, s8=1, s3=1) for _ in range(4)]
    s.skills = [[1, 0, 0, 0, 0] for _ in range(4)]
    s.best[0] = 30
    last_turn(s, 5, (fest("valls", 8, 3),))
    s.apply(A.END_TURN)
    while s.phase == 1:
        s.apply(A.ENTERS[0])
    assert s.best[0] == 30  # K8: the track keeps the best single score, not a sum
    assert 0 < s.best[1] < 30
    assert s.results[-1]["entrants"][0]["score"] == s.best[1]


# -- K9 prizes and size tokens ----------------------------------------------------------------------
def test_K9_prizes_and_size_tokens_go_to_the_festival_region():
    s = placed(where="terrassa")
    s.teams[0] = team(s10=3, s9=2, s8=1, s3=1)
    s.teams[1] = team(s10=2, s9=1, s8=1, s3=1)
    s.teams[2] = team(s10=3, s9=2, s7=1, s3=1)
    s.teams[3] = team(s1=1)
    s.skills = [[2, 0, 0, 0, 0] for _ in range(4)]
    last_turn(s, 9, (fest("terrassa", 10, 9, 3),))
    s.apply(A.END_TURN)
    towers = {
        0: ((10, 10, 10), (9, 9), (8,), (3,)),
        1: ((10, 10), (9,), (8,), (3,)),
        2: ((10, 10, 10), (9,), (7,), (3,)),
    }
    while s.phase == 1:
        s.apply(A.Enter(0, towers[s.current]))
    t = region("terrassa")
    # Scores: seat 0 -> 4 + 3 + 2 + 1 = 10, seat 1 -> 4 + 2 + 1 + 1 = 8, seat 2 -> 4 + 3 + 1 + 1 = 9.
    assert [e["score"] for e in sorted(s.results[-1]["entrants"], key=lambda e: e["seat"])] == [10, 8, 9]
    assert s.prizes[0] == [(t, 5)] and s.prizes[1] == [(t, 1)] and s.prizes[2] == [(t, 3)]
    # Size 10: seats 0 and 2 have 3 each -> discarded; size 9: seat 0 has the most; size 3: all 1.
    assert s.size_tokens == [[(t, 9)], [], [], []]
    assert sorted(s.results[-1]["discarded"]) == [3, 10]
    assert s.regions_held(0) == 1


def test_K9_single_entrant_takes_ribbon_and_all_tokens():
    s = placed(where="mataro")
    s.teams[1] = team(s10=3, s9=2, s8=1, s3=1)
    s.skills[1] = [1, 0, 0, 0, 0]
    last_turn(s, 9, (fest("mataro", 10, 10, 3), fest("valls", 5, 6, 7)))
    s.apply(A.END_TURN)
    assert s.queue == [1]
    s.apply(A.ENTERS[0])
    m = region("mataro")
    assert s.prizes[1] == [(m, 1)]
    assert sorted(s.size_tokens[1]) == [(m, 3), (m, 10), (m, 10)]
    assert s.regions_held(1) == 1
    assert s.score_breakdown()[1]["size_tokens"] == 2 + 1 + 2


def test_K13_a_size_shown_twice_counts_once_and_each_token_is_won_on_its_own():
    """K13: festival tokens 10, 10, 3. A size-10 casteller adds 1 to the tower score, not 2, and
    entry needs one of each size; both size-10 tokens go to the entrant with the most 10s."""
    s = placed(where="mataro")
    s.teams[0] = team(s10=3, s9=2, s8=1, s3=1)
    s.teams[1] = team(s10=2, s9=2, s8=1, s3=1)
    s.skills = [[2, 0, 0, 0, 0] for _ in range(4)]  # balance 2: two levels as wide as the one below
    s.pawn[1] = region("mataro")
    last_turn(s, 9, (fest("mataro", 10, 10, 3),))
    s.apply(A.END_TURN)
    towers = {0: ((10, 10, 10), (9, 9), (8,), (3,)), 1: ((10, 10), (9, 9), (8,), (3,))}
    while s.phase == 1 and s.queue:
        seat = s.current
        s.apply(A.Enter(0, towers[seat]) if seat in towers else A.DECLINE)
    scores = {e["seat"]: e["score"] for e in s.results[-1]["entrants"]}
    assert scores == {0: 4 + 3 + 1, 1: 4 + 2 + 1}  # levels + each 10 once + the 3
    m = region("mataro")
    assert sorted(s.size_tokens[0]) == [(m, 10), (m, 10)]  # one entrant wins both 10 tokens
    assert s.size_tokens[1] == [] and s.results[-1]["discarded"] == [3]  # tied on 3s


def test_K7_several_festivals_in_a_round_are_scored_separately():
    s = placed(where="mataro")
    s.pawn[2] = s.pawn[3] = region("valls")
    for p in range(4):
        s.teams[p] = team(s10=3, s9=2, s8=1, s7=1, s5=1, s3=1)
        s.skills[p] = [1, 0, 0, 0, 0]
    last_turn(s, 5, (fest("mataro", 10, 3), fest("valls", 5, 7)))
    s.apply(A.END_TURN)
    acts = s.legal_actions()
    assert acts == [A.ENTERS[0], A.DECLINE]
    with pytest.raises(IllegalAction, match=r"\(K8\)"):
        s.apply(A.ENTERS[1])
    while s.phase == 1:
        s.apply(s.legal_actions()[0])
    r5 = [r for r in s.results if r["round"] == 5]
    assert [len(r["entrants"]) for r in r5] == [2, 2]
    assert all(sorted(e["prize"] for e in r["entrants"]) == [1, 1] for r in r5)


# -- K10 local performances ---------------------------------------------------------------------------
EASY = (
    LocalTile("easy-shape", "shape", 3, (3, 2, 1), 3),
    LocalTile("easy-show", "skill", 5, (), 4, (1, 0, 0, 0, 0)),
)


def _strong(s: CastellState, seat: int, deal: bool = True) -> None:
    """Give `seat` castellers and skills for two easy tiles, dealt to the seat's region (the
    last two of the tile set are replaced by them, so the 14 dealt tiles stay distinct)."""
    s.teams[seat] = team(s9=3, s7=2, s5=1, s3=1)
    s.skills[seat] = [1, 0, 0, 0, 0]
    if deal:
        tiles = s.components.local_tiles
        s.components = replace(s.components, local_tiles=tiles[:-2] + EASY)
        last = {len(tiles) - 2, len(tiles) - 1}
        for row in s.region_tiles:
            for k, t in enumerate(row):
                if t in last:
                    row[k] = next(
                        x for x in range(len(tiles)) if x not in last and all(x not in r for r in s.region_tiles)
                    )
        s.region_tiles[s.pawn[seat]] = [len(tiles) - 2, len(tiles) - 1]


def test_K10_two_tiles_per_region_from_32():
    s = new(4, seed=21)
    dealt = [t for row in s.region_tiles for t in row]
    assert len(dealt) == 14 and len(set(dealt)) == 14
    assert len(s.components.local_tiles) == 32


def test_K10_local_performance_claims_tile_and_own_tokens():
    s = placed(where="valls")
    v = region("valls")
    s.board_tokens[v] = [2, 1, 0, 0]
    _strong(s, 0)
    s.tokens_left[0] = 5
    tile = s.region_tiles[v][0]
    assert A.PERFORMS[0] in s.legal_actions()
    s.apply(A.PERFORMS[0])
    assert s.claimed[0] == [tile]
    assert s.region_tiles[v][0] == -1
    assert s.player_board_tokens[0][v] == 3  # two earlier tokens and the one just placed (K10)
    assert s.board_tokens[v] == [0, 1, 0, 0]
    assert s.tokens_left[0] == 4
    assert s.score_breakdown()[0]["stars"] == s.components.local_tiles[tile].stars
    # The claimed slot is not replaced.
    s.apply(A.END_TURN)
    _strong(s, s.current, deal=False)
    assert s.pawn[s.current] == v
    assert A.PERFORMS[0] not in s.legal_actions()
    with pytest.raises(IllegalAction, match=r"\(K10\)"):
        s.apply(A.PERFORMS[0])


def test_K10_option_all_tokens_moves_everyones_tokens():
    s = placed(where="valls", performance_tokens="all")
    v = region("valls")
    s.board_tokens[v] = [0, 1, 2, 0]
    _strong(s, 0)
    s.apply(A.PERFORMS[1])
    assert s.player_board_tokens[0][v] == 4
    assert s.board_tokens[v] == [0, 0, 0, 0]


def test_K10_explicit_tower_must_meet_the_tile():
    s = placed(where="valls")
    _strong(s, 0)
    tile = s.components.local_tiles[s.region_tiles[region("valls")][0]]
    with pytest.raises(IllegalAction, match=r"\(K10\)"):
        s.apply(A.Perform(0, ((9, 9, 9), (7, 7))))  # legal, but not the 3-2-1 shape
    tower = s.tile_tower(0, s.region_tiles[region("valls")][0])
    s.apply(A.Perform(0, tower))
    assert s.claimed[0] and s.components.local_tiles[s.claimed[0][0]] == tile


def test_K10_weak_team_cannot_perform():
    s = placed(where="valls")
    s.teams[0] = team(s1=1)
    assert not any(type(a) is A.Perform for a in s.legal_actions())


# -- K11 end scoring ---------------------------------------------------------------------------------
def test_K11_final_score_from_the_player_board():
    s = new(4, seed=5)
    s.best[2] = 18
    s.prizes[2] = [(0, 5), (1, 5), (2, 3), (0, 1), (3, 1), (3, 1)]
    s.size_tokens[2] = [(0, 1), (0, 2), (1, 2), (2, 5), (0, 7), (3, 7), (3, 9)]
    s.claimed[2] = [0, 1]
    stars = s.components.local_tiles[0].stars + s.components.local_tiles[1].stars
    parts = s.score_breakdown()[2]
    assert parts == {"best_tower": 18, "region_variety": 5, "prizes": 16, "size_tokens": 12, "stars": stars,
                     "total": 51 + stars}
    s.player_board_tokens[2][6] = 1  # a fifth region
    assert s.score_breakdown()[2]["region_variety"] == 7


def test_K11_shared_win_on_equal_totals():
    s = new(2, seed=5)
    s.over = True
    s.best = [10, 10]
    assert s.winners() == [0, 1]
    s.best = [10, 11]
    assert s.winners() == [1]


# -- turn order -----------------------------------------------------------------------------------------
def test_first_player_marker_passes_clockwise():
    s = new(3)
    for seat in range(3):
        assert s.current == seat
        s.apply(A.MOVES[seat])
        s.apply(A.END_TURN)
    assert s.round == 2 and s.first == 1 and s.current == 1
    for _ in range(3):
        s.apply(A.END_TURN)
    assert s.round == 3 and s.first == 2 and s.current == 2


def test_game_ends_after_round_10():
    s = placed(n=2)
    last_turn(s, 10, ())
    s.apply(A.END_TURN)
    assert s.is_terminal and s.current_player is None and s.legal_actions() == []
    with pytest.raises(IllegalAction):
        s.apply(A.END_TURN)


def test_legal_actions_agree_with_the_checks():
    s = placed(where="barcelona")
    _strong(s, 0)
    for _ in range(40):
        legal = set(s.legal_action_ids())
        for i in range(A.NUM_ACTIONS):
            assert (s.why_illegal(s.action_from_id(i)) is None) == (i in legal), (i, s.why_illegal(s.action_from_id(i)))
        if s.is_terminal:
            break
        s.apply(s.legal_actions()[len(legal) // 2])


# -- K6 towers in actions ---------------------------------------------------------------------------
def test_K6_an_entered_tower_must_be_legal_for_the_skills_and_team():
    s = placed(where="valls")
    s.teams = [team(s10=3, s9=2, s8=2, s3=1, s1=1) for _ in range(4)]
    s.skills = [[1, 0, 0, 0, 0] for _ in range(4)]
    last_turn(s, 5, (fest("valls", 8, 3),))
    s.apply(A.END_TURN)
    two_balance = ((10, 10, 10), (9, 9), (8,), (3,), (1,))  # Balance used twice, level 1
    with pytest.raises(IllegalAction, match=r"\(K6\).*balance"):
        s.apply(A.Enter(0, two_balance))
    too_many = ((10, 10, 10), (9, 9, 9), (8,), (3,))
    with pytest.raises(IllegalAction, match=r"\(K6\)"):
        s.apply(A.Enter(0, too_many))
    not_in_team = ((10, 10, 10), (9, 9), (8,), (3,), (2,))
    with pytest.raises(IllegalAction, match=r"\(K6\)"):
        s.apply(A.Enter(0, not_in_team))
    s.skills[s.current] = [2, 0, 0, 0, 0]
    s.apply(A.Enter(0, two_balance))
    assert s.entries[-1][2] == two_balance
