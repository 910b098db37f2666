"""Property tests over random games: protocol conformance plus Castell's invariants (150
castellers accounted for, every entered tower legal and eligible, tokens conserved, scores
consistent), JSON round-trip and determinism."""

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.core.conformance import canonical, check_random_game
from meeple.core.rng import Rng
from meeple.core.state import State
from meeple.games.castell import actions as A
from meeple.games.castell.legality import PHASE_FESTIVAL
from meeple.games.castell.state import CastellState
from meeple.games.castell.towers import best_festival_tower, eligible, tower_for_tile, validate
from meeple.games.castell.towers.cache import best_for_festival, needed, out_of_reach, tower_for
from tests.castell.helpers import GAME, castellers_total


def invariants(state: State[Any]) -> None:
    assert isinstance(state, CastellState)
    s = state
    assert castellers_total(s) == 150
    assert all(min(row) >= 0 for row in s.pool + s.teams)
    n = s.num_players
    for p in range(n):
        placed = sum(s.board_tokens[r][p] for r in range(7))
        assert 0 <= s.tokens_left[p] <= 7
        assert placed <= 7 - s.tokens_left[p]
    assert sum(7 - t for t in s.tokens_left) == sum(map(sum, s.board_tokens)) + sum(map(sum, s.player_board_tokens))
    dealt = [t for row in s.region_tiles for t in row if t >= 0] + [t for row in s.claimed for t in row]
    assert len(dealt) == 14 and len(set(dealt)) == 14
    assert all(0 <= v <= 5 for row in s.skills for v in row)
    for result in s.results:
        fest = next(f for f in s.festivals[result["round"]] if s.components.festivals[f.tile].id == result["festival"])
        for entry in result["entrants"]:
            tower = tuple(tuple(level) for level in entry["tower"])
            assert eligible(tower, fest.sizes)
            # Skills and teams only grow, so a tower legal when entered stays legal now.
            seat = entry["seat"]
            assert validate(tower, tuple(s.skills[seat])).legal
            assert all(c <= have for c, have in zip(needed(tower), s.teams[seat]))
            assert entry["score"] <= s.best[entry["seat"]]
    for seat, _slot, tower in s.entries:
        assert validate(tower, tuple(s.skills[seat])).legal
        assert all(c <= have for c, have in zip(needed(tower), s.teams[seat]))
    if s.phase == PHASE_FESTIVAL and not s.over:
        assert s.queue and s.current == s.queue[0]
    parts = s.score_breakdown()
    assert s.scores() == [p["total"] for p in parts]
    assert all(p["total"] == sum(v for k, v in p.items() if k != "total") for p in parts)


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32), n=st.integers(2, 4), wheel=st.sampled_from(["standard", "advanced"]),
    refill=st.sampled_from(["top_up", "add"]), prize_ties=st.sampled_from(["lowest", "one_lower"]),
)
def test_random_games_conform(seed, n, wheel, refill, prize_ties):
    options = {"wheel": wheel, "refill": refill, "prize_ties": prize_ties}  # K2, K9 (amended)
    check_random_game(GAME, n, seed, options, extra=invariants, views_every=25)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 4), wheel=st.sampled_from(["standard", "advanced"]))
def test_random_games_keep_invariants_and_replay(seed, n, wheel):
    s = GAME.new_game(n, seed=seed, wheel=wheel, performance_tokens="all" if seed % 2 else "own")
    rng = Rng(seed)
    actions = []
    entered = 0
    while not s.is_terminal:
        acts = s.legal_actions()
        action = acts[rng.below(len(acts))]
        if type(action) is A.Enter:
            entered += 1
        s.apply(action)
        actions.append(action.to_json())
        invariants(s)
    again = GAME.new_game(n, seed=seed, wheel=wheel, performance_tokens="all" if seed % 2 else "own")
    for raw in actions:
        again.apply(GAME.action_from_json(json.loads(json.dumps(raw))))
    assert canonical(again.to_json()) == canonical(s.to_json())
    assert canonical(GAME.from_json(json.loads(json.dumps(s.to_json()))).to_json()) == canonical(s.to_json())
    assert sum(len(r["entrants"]) for r in s.results) == entered
    assert s.winners()


@settings(max_examples=150, deadline=None)
@given(
    counts=st.lists(st.integers(0, 3), min_size=10, max_size=10),
    skills=st.tuples(*[st.integers(0, 3)] * 5),
    tile=st.integers(0, 31),
    sizes=st.sets(st.integers(1, 10), min_size=1, max_size=3),
)
def test_solver_cache_answers_like_the_solver(counts, skills, tile, sizes):
    """The engine's memoised calls and their quick necessary-condition checks never change an
    answer of the tower solver."""
    team = (0, *counts)
    local = GAME.new_game(2, seed=0).components.local_tiles[tile]
    assert tower_for(team, skills, local) == tower_for_tile(team, skills, local)
    if out_of_reach(team, skills, local):
        assert tower_for_tile(team, skills, local) is None
    fest = tuple(sorted(sizes))
    assert best_for_festival(team, skills, fest) == best_festival_tower(team, skills, fest)
