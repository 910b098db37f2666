"""The greedy heuristic and evaluation, the terminal renderer, and the message catalogs."""

import re

import pytest
from rich.console import Console

from meeple.core.i18n import Catalog
from meeple.core.registry import heuristics
from meeple.core.rng import Rng
from meeple.cli.render import event_text
from meeple.cli.render.castell import action_label, board, pyramid
from meeple.games.castell import actions as A
from meeple.games.castell import heuristics as H

from castell_testkit import GAME, new, placed, region, team

LANGS = ("en", "zh-Hant")


def _play(n: int, seed: int, greedy_seats: set[int]):
    s = GAME.new_game(n, seed=seed)
    rng = Rng(seed)
    events = []
    while not s.is_terminal:
        if s.current_player in greedy_seats:
            action = H.choose(s, rng)
        else:
            acts = s.legal_actions()
            action = acts[rng.below(len(acts))]
        events.extend(s.apply(action))
    return s, events


def test_greedy_is_the_registered_heuristic_and_beats_random():
    assert heuristics(GAME) is H
    wins = 0
    for seed in range(4):
        greedy = seed % 2
        s, _ = _play(2, seed, {greedy})
        wins += greedy in s.winners() and len(s.winners()) == 1
        assert s.scores()[greedy] > s.scores()[1 - greedy]
    assert wins == 4


def test_greedy_enters_festivals_and_recruits_wished_sizes():
    s = placed(where="valls")
    s.teams[0] = team(s10=3, s9=2, s8=1, s3=1)
    s.skills[0] = [1, 0, 0, 0, 0]
    from castell_testkit import fest, last_turn

    last_turn(s, 5, (fest("valls", 8, 3),))
    s.apply(A.END_TURN)
    assert s.phase == 1 and s.cur == s.queue[0]
    assert type(H.choose(s, Rng(0))) is A.Enter
    s2 = placed(where="valls")
    s2.round = 3
    s2.festivals[3] = (fest("valls", 6),)
    s2.pool[region("valls")] = team(s6=1, s2=1)
    s2.used = 8 | 4  # special action and train already done
    assert H.choose(s2, Rng(0)) == A.RECRUITS[6]


def test_greedy_moves_toward_the_coming_festival():
    s = placed(where="tarragona")
    from castell_testkit import fest

    s.round = 4
    s.festivals[4] = (fest("valls", 6),)
    s.pool = [[0] * 11 for _ in range(7)]
    s.used = 2 | 4 | 8
    assert H.choose(s, Rng(0)) == A.MOVES[region("valls")]


def test_evaluate_is_a_distribution():
    s = new(3, seed=8)
    values = H.evaluate(s)
    assert len(values) == 3 and all(0 <= v <= 1 for v in values) and abs(sum(values) - 1) < 1e-9
    s.best[1] = 40
    assert max(range(3), key=lambda p: H.evaluate(s)[p]) == 1
    done, _ = _play(2, 3, {0, 1})
    final = H.evaluate(done)
    assert [p for p in range(2) if final[p] > 0] == done.winners()


@pytest.mark.parametrize("lang", LANGS)
def test_board_renders_for_every_seat(lang):
    cat = Catalog(["meeple.games.castell"], lang)
    s, _ = _play(3, 5, {0, 1, 2})
    for view_seat in (None, 0, 2):
        console = Console(width=140, record=True)
        console.print(board(s.view(view_seat), cat, view_seat))
        text = console.export_text()
        assert cat.name("region", "vilafranca") in text
        assert cat.text("ui.calendar") in text
    mid = placed(where="valls")
    console = Console(width=140, record=True)
    console.print(board(mid.view(1), cat, 1))
    assert "♟" in console.export_text()


def test_pyramid_draws_levels_top_first():
    lines = pyramid(((9, 9, 9), (7, 7), (5,))).plain.splitlines()
    assert lines == ["    [5]", "  [7] [7]", "[9] [9] [9]"]


@pytest.mark.parametrize("lang", LANGS)
def test_catalogs_cover_actions_events_scores(lang):
    cat = Catalog(["meeple.games.castell"], lang)
    _, events = _play(4, 2, {0, 1, 2, 3})
    keys = {e.key for e in events}
    assert {"place_pawn", "recruit", "end_turn", "round_start", "refill", "game_over"} <= keys
    everything = keys | {"move", "train", "train_special", "single_recruit", "extra_move", "perform", "enter", "decline",
                         "festival_score", "size_tokens_discarded"}
    for key in everything:
        assert cat.has(f"event.{key}"), key
    cat.player_names = ["Ana", "Biel", "Carla", "Dídac"]
    for e in events:
        text = event_text(e, None, cat)
        assert "{" not in text and not text.startswith("event.")
        if e.player is not None:
            assert cat.player_names[e.player] in text
    for action in A.BY_ID:
        label = action_label(action.to_json(), cat)
        assert not label.startswith("action.") and "{" not in label
    for key in ("best_tower", "region_variety", "prizes", "size_tokens", "stars", "total"):
        assert cat.has(f"score.{key}")
    assert cat.has("rules.summary") and len(cat.text("rules.summary").splitlines()) >= 8
    for name in ("barcelona", "mataro", "tarragona", "terrassa", "valls", "vilafranca", "vilanova"):
        assert cat.has(f"region.{name}")


def test_zh_hant_catalog_has_every_english_key():
    en = Catalog(["meeple.games.castell"], "en").messages
    from meeple.core.i18n import _load

    zh = _load("meeple.games.castell", "zh-Hant")
    assert set(en) == set(zh)
    assert any(re.search(r"[\u4e00-\u9fff]", v) for v in zh.values())


def test_greedy_recruits_toward_a_tile_in_reach():
    from dataclasses import replace

    from meeple.games.castell.towers import LocalTile

    s = placed(where="valls")
    s.round = 2
    s.festivals[3] = s.festivals[4] = ()
    shape = LocalTile("easy-shape", "shape", 6, (3, 2, 1), 3)
    s.comp = replace(s.comp, local_tiles=s.comp.local_tiles[:-1] + (shape,))
    last = len(s.comp.local_tiles) - 1
    for row in s.region_tiles:
        row[:] = [t if t != last else -1 for t in row]
    s.region_tiles[region("valls")] = [last, -1]
    s.teams[0] = team(s9=3, s7=2)  # one size 5 short of 3-2-1
    s.pool[region("valls")] = team(s10=1, s5=1, s8=1)
    s.used = 4 | 8
    assert H.choose(s, Rng(0)) == A.RECRUITS[5]


def test_road_distance_table_matches_a_breadth_first_search():
    comp = GAME.new_game(2, seed=1).comp
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
    from meeple.games.castell.solver_cache import tower_for

    s, _ = _play(2, 5, {0, 1})
    rng = Rng(3)
    tiles = s.comp.local_tiles
    for _ in range(200):
        team = tuple(rng.below(4) if size else 0 for size in range(11))
        skills = tuple(rng.below(4) for _ in range(5))
        reach = tuple((0.5 + 0.5 * rng.below(2), rng.below(len(tiles))) for _ in range(rng.below(6)))
        expected = sum(w * tiles[t].stars for w, t in reach if tower_for(team, skills, tiles[t]) is not None)
        assert H._tile_value(s, team, skills, reach) == expected
