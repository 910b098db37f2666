"""The greedy heuristic and the evaluation."""

from __future__ import annotations

from meeple.ai.heuristics import heuristics_of
from meeple.core.rng import Rng
from meeple.games.castell import actions as A
from meeple.games.castell import heuristics as H
from tests.castell.helpers import GAME, new, placed, play, region, set_festivals, team


def test_greedy_is_the_registered_heuristic_and_beats_random():
    assert heuristics_of(GAME) is H
    wins = 0
    for seed in range(4):
        greedy = seed % 2
        s, _ = play(2, seed, {greedy})
        wins += greedy in s.winners() and len(s.winners()) == 1
        assert s.scores()[greedy] > s.scores()[1 - greedy]
    assert wins == 4


def test_greedy_enters_festivals_and_recruits_wished_sizes():
    s = placed(where="valls")
    s.teams[0] = team(s10=3, s9=2, s8=1, s3=1)
    s.skills[0] = [1, 0, 0, 0, 0]
    from tests.castell.helpers import fest, last_turn

    last_turn(s, 5, (fest("valls", 8, 3),))
    s.apply(A.END_TURN)
    assert s.phase == 1 and s.current == s.queue[0]
    assert type(H.choose(s, Rng(0))) is A.Enter
    s2 = placed(where="valls")
    s2.round = 3
    set_festivals(s2, 3, (fest("valls", 6),))
    s2.pool[region("valls")] = team(s6=1, s2=1)
    s2.used = 8 | 4  # special action and train already done
    assert H.choose(s2, Rng(0)) == A.RECRUITS[6]


def test_greedy_moves_toward_the_coming_festival():
    s = placed(where="tarragona")
    from tests.castell.helpers import fest

    s.round = 4
    set_festivals(s, 4, (fest("valls", 6),))
    s.pool = [[0] * 11 for _ in range(7)]
    s.used = 2 | 4 | 8
    assert H.choose(s, Rng(0)) == A.MOVES[region("valls")]


def test_evaluate_is_a_distribution():
    s = new(3, seed=8)
    values = H.evaluate(s)
    assert len(values) == 3 and all(0 <= v <= 1 for v in values) and abs(sum(values) - 1) < 1e-9
    s.best[1] = 40
    assert max(range(3), key=lambda p: H.evaluate(s)[p]) == 1
    done, _ = play(2, 3, {0, 1})
    final = H.evaluate(done)
    assert [p for p in range(2) if final[p] > 0] == done.winners()


def test_greedy_recruits_toward_a_tile_in_reach():
    from dataclasses import replace

    from meeple.games.castell.towers import LocalTile

    s = placed(where="valls")
    s.round = 2
    set_festivals(s, 3, ())
    set_festivals(s, 4, ())
    shape = LocalTile("easy-shape", "shape", 6, (3, 2, 1), 3)
    s.components = replace(s.components, local_tiles=s.components.local_tiles[:-1] + (shape,))
    last = len(s.components.local_tiles) - 1
    for row in s.region_tiles:
        row[:] = [t if t != last else -1 for t in row]
    s.region_tiles[region("valls")] = [last, -1]
    s.teams[0] = team(s9=3, s7=2)  # one size 5 short of 3-2-1
    s.pool[region("valls")] = team(s10=1, s5=1, s8=1)
    s.used = 4 | 8
    assert H.choose(s, Rng(0)) == A.RECRUITS[5]


def test_road_distance_table_matches_a_breadth_first_search():
    comp = GAME.new_game(2, seed=1).components
    for start in range(len(comp.neighbours)):
        dist, frontier = {start: 0}, [start]
        while frontier:
            reached = []
            for r in frontier:
                for nb in comp.neighbours[r]:
                    if nb not in dist:
                        dist[nb] = dist[r] + 1
                        reached.append(nb)
            frontier = reached
        assert comp.distances[start] == tuple(dist.get(r, 99) for r in range(len(comp.neighbours)))


def test_memoised_tile_value_matches_asking_the_solver_per_tile():
    # The greedy bot (and so every ISMCTS playout) memoises this sum; it must equal the plain
    # K10 question asked tile by tile, for teams and skills the game actually reaches.
    from meeple.games.castell.towers.cache import tower_for

    s, _ = play(2, 5, {0, 1})
    rng = Rng(3)
    tiles = s.components.local_tiles
    for _ in range(200):
        team = tuple(rng.below(4) if size else 0 for size in range(11))
        skills = tuple(rng.below(4) for _ in range(5))
        reach = tuple((0.5 + 0.5 * rng.below(2), rng.below(len(tiles))) for _ in range(rng.below(6)))
        expected = sum(w * tiles[t].stars for w, t in reach if tower_for(team, skills, tiles[t]) is not None)
        assert H._tile_value(s, team, skills, reach) == expected
