"""`Game.game_length(n, options)` bounds every game at `n` seats: random and greedy games over many
seeds stay within it, where a longest game is easy to build it reaches the bound exactly, and the
ingredients of each rule-derived bound (steps per turn, landings per location, idle turns) hold
in played games."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.ai.bots import make_bot
from meeple.core import registry
from meeple.core.errors import OptionError
from meeple.core.rng import Rng
from meeple.games.castell.components import DECISIONS_PER_FESTIVAL_ROUND, LAST_ROUND, MOST_STEPS_PER_TURN
from meeple.games.castell.game import STEPS_PER_SEAT
from meeple.games.celtica.board_file import load_board
from meeple.games.celtica.components import CULT
from meeple.games.celtica.game import length_bound
from meeple.games.triominos.components import NUM_TILES
from meeple.games.triominos.game import round_length
from meeple.games.triominos.state import rack_size
from tests.core.test_plugins import option_variants


def tables(name: str) -> list[tuple[int, dict[str, Any]]]:
    """Every player count with every option variant that fits it."""
    game = meeple.load(name)
    found = []
    for players in range(game.min_players, game.max_players + 1):
        for options in option_variants(game):
            try:
                game.check_options(players, game.resolve_options(options))
            except OptionError:
                continue
            found.append((players, options))
    return found


def played_length(name: str, players: int, options: dict[str, Any], bot: str, seed: int, cap: int) -> int:
    """Actions of one game where every seat plays `bot`, stopped once past `cap`."""
    state, rng, player, moves = meeple.load(name).new_game(players, seed=seed, **options), Rng(seed), make_bot(bot), 0
    while not state.is_terminal and moves <= cap:
        state.step(player.choose(state, rng))
        moves += 1
    return moves


@pytest.mark.slow
@pytest.mark.parametrize("name", registry.game_names())
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 1000), bot=st.sampled_from(["random", "greedy"]))
def test_random_and_greedy_games_stay_within_the_bound(name, seed, pick, bot):
    players, options = tables(name)[pick % len(tables(name))]
    game = meeple.load(name)
    bound = game.game_length(players, game.resolve_options(options))
    assert played_length(name, players, options, bot, seed, bound) <= bound, (players, options)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_triqueta_the_longest_game_reaches_the_bound(players):
    """T5: the last seat in draws and places or keeps every token of the tower before taking its
    row; seats take rows only when nothing else is legal, so every round is 2 x 15 + players."""
    game = meeple.load("triqueta")
    state, moves = game.new_game(players, seed=players), 0
    while not state.is_terminal:
        legal = state.legal_actions()
        state.step(next((a for a in legal if a.to_json()["type"] != "take"), legal[0]))
        moves += 1
    assert moves == game.info.game_length(players) == 4 * (30 + players)


#: Played games for the ingredient tests: one random game per player count, and in the slow run
#: five more, greedy and random in turn (a longer run would cover more deals).
SEEDS = [pytest.param(range(1), id="short"), pytest.param(range(1, 6), id="long", marks=pytest.mark.slow)]


def bot_games(name: str, seeds: range, **options: Any) -> Iterator[tuple[Any, list[tuple[Any, Any]]]]:
    """Random and greedy games at every player count: each final state with its (state before,
    action) steps, the states cloned."""
    game = meeple.load(name)
    for players in range(game.min_players, game.max_players + 1):
        for seed in seeds:
            bot = make_bot("greedy" if seed % 2 else "random")
            state, rng, steps = game.new_game(players, seed=seed, **options), Rng(seed), []
            while not state.is_terminal:
                action = bot.choose(state, rng)
                steps.append((state.clone(), action))
                state.step(action)
            yield state, steps


@pytest.mark.parametrize("seeds", SEEDS)
def test_castell_turns_and_festival_rounds_stay_within_their_ingredients(seeds):
    """K4/K5: at most 7 steps a turn; K8: at most one entry decision per seat and round; 10 rounds."""
    longest = 0
    for final, steps in bot_games("castell", seeds):
        turns: Counter[tuple[int, int, int]] = Counter()
        for before, action in steps:
            kind = action.to_json()["type"]
            turns[before.round, before.current, int(kind in ("enter", "decline"))] += 1
        longest = max(longest, *(count for (_, _, deciding), count in turns.items() if not deciding))
        assert all(count <= DECISIONS_PER_FESTIVAL_ROUND for (_, _, deciding), count in turns.items() if deciding)
        assert final.round == LAST_ROUND and len(steps) <= meeple.load("castell").info.game_length(final.num_players)
    assert 3 <= longest <= MOST_STEPS_PER_TURN
    assert STEPS_PER_SEAT == 10 * 7 + 8


@pytest.mark.parametrize("seeds", SEEDS)
def test_celtica_druids_land_once_per_location_and_locations_ask_what_the_board_says(seeds):
    """C5-C8: every moving play lands a druid on a location it never reached, and is followed by
    at most that location's asks; plays without effect come only after a druid reached the goal."""
    board = load_board("")
    assert length_bound(board, 2) == 5 * (18 + 30) + (10 + 15) + 20 + 2  # 30 parts asked, 3 cult sites
    for final, steps in bot_games("celtica", seeds):
        landed: set[tuple[int, int]] = set()
        follow_ups = 0
        for before, action in steps:
            kind = action.to_json()["type"]
            if kind == "play" and before.druids[action.colour] < board.goal:
                where = min(board.goal, before.druids[action.colour] + action.cards + action.experience)
                assert (action.colour, where) not in landed
                landed.add((action.colour, where))
                follow_ups = board.numbers[where] if board.actions[where] != CULT else 1
            elif kind == "play":
                assert before.final_round  # C5: a druid in the goal, so this is the final round
            elif kind in ("take", "give_up", "cult"):
                follow_ups -= 1
                assert follow_ups >= 0
        assert len(steps) <= length_bound(board, final.num_players)


@pytest.mark.parametrize("seeds", SEEDS)
def test_celtica_bound_follows_the_board_option(seeds):
    """A short path of cult sites and sites asking for 9 parts: many no-effect plays and follow-ups
    per landing, and the bound computed from that board holds."""
    layout = "layout:reconstructed:start,cult,ruin 9,cult,monastery 9,cult,goal 9"
    game = meeple.load("celtica")
    board = load_board(layout)
    assert length_bound(board, 3) == 5 * (6 + 3 + 27) + min(60, 15 + 5 * 3) + 20 + 3
    assert game.game_length(3, game.resolve_options({"board": layout})) == length_bound(board, 3)
    assert game.game_length(3, game.resolve_options({})) == game.info.game_length(3) == 293
    for final, steps in bot_games("celtica", seeds, board=layout):
        assert len(steps) <= length_bound(board, final.num_players)


@pytest.mark.parametrize("seeds", SEEDS)
def test_triominos_rounds_stay_within_their_ingredients(seeds):
    """M6-M9: at most 57 - n placements, the pool's draws, and fewer than n idle turns in a row
    before a placement once the pool is empty."""
    for final, steps in bot_games("triominos", seeds):
        n = final.num_players
        kinds = Counter(action.to_json()["type"] for _, action in steps)
        assert kinds["place"] <= NUM_TILES + 1 - n and kinds["draw"] <= NUM_TILES - n * rack_size(n)
        idle = 0
        for before, action in steps:
            if not before.pool and action.to_json()["type"] in ("pass", "stop"):
                idle += 1
            elif action.to_json()["type"] == "place":
                idle = 0
            assert idle <= n
        assert len(steps) <= round_length(n)
    assert [round_length(n) for n in (2, 3, 4)] == [162, 211, 253]


def test_a_triominos_match_has_no_rule_bound():
    """M9/M6: after the opener places, everyone may draw rather than place and then pass: the
    round is blocked and every total falls, so rounds can repeat without nearing the target."""
    state = meeple.load("triominos").new_game(2, seed=5, match=True)
    for _ in range(3):
        start = state.round
        state.step(state.legal_actions()[0])  # M8: the opener places
        while state.round == start:
            kinds = {action.to_json()["type"]: action for action in state.legal_actions()}
            state.step(next(kinds[kind] for kind in ("draw", "stop", "pass") if kind in kinds))
        assert max(state.totals) < 0 and not state.is_terminal and state.results[-1]["end"] == "blocked"
    game = meeple.load("triominos")
    assert game.game_length(2, game.resolve_options({"match": True})) == 162 * 15
