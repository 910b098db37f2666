"""ISMCTS: legal play, budgets, determinism, no cheating, and finding a winning move.

Generic tests run on the toy trick game and on every installed game (meeple.core.registry.game_names()), so each game is
covered as it lands."""

from __future__ import annotations

import time

import pytest

import meeple
from meeple.ai import ISMCTSBot, SearchConfig, bench_ismcts, make_bot
from meeple.ai.ismcts import LEVELS, MARGIN_SCALE, _Policy, parse_level, seat_cutoff
from meeple.core import OptionError, Rng, State, registry
from meeple.core.conformance import canonical
from meeple.core.protocol import SearchTuning
from meeple.core.registry import game_names
from tests.ai import ai_toygame

GAMES = [ai_toygame.NAME, *game_names()]


@pytest.fixture
def game_named(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):
    """Load a game by name, registering the toy game when it is the one asked for."""

    def load(name: str):
        if name == ai_toygame.NAME:
            request.getfixturevalue("toy")
        return meeple.load(name)

    return load


def _positions(game, players: int, seed: int, count: int) -> list[State]:
    """Mid-game positions reached by random play from a seeded game (one per depth)."""
    rng = Rng(seed)
    state = game.new_game(players, seed=seed)
    found: list[State] = []
    depth = 0
    while not state.is_terminal and len(found) < count:
        if depth % 3 == 1 and len(state.legal_actions()) > 1:
            found.append(state.clone())
        legal = state.legal_actions()
        state.step(legal[rng.below(len(legal))])
        depth += 1
    return found


def _toy_position(hands, trick, tricks, leader, played, gone=()) -> State:
    """A toy position built by hand; `gone` are cards played in finished tricks."""
    game = ai_toygame.ToyGame()
    used = {c for h in hands for c in h} | {c for _, c in trick} | set(gone)
    rest = [c for c in range(1, ai_toygame.DECK + 1) if c not in used]
    n = len(hands)
    return ai_toygame.ToyState(
        game=game, num_players=n, options={"hand": ai_toygame.HAND}, current=(leader + len(trick)) % n,
        over=played == ai_toygame.HAND * n,
        hands=[sorted(h) for h in hands], rest=rest, trick=list(trick), tricks=list(tricks), leader=leader,
        played=played,
    )


@pytest.mark.parametrize("name", GAMES)
def test_plays_legal_moves_only(name, game_named):
    """Every seat an ISMCTS bot; `apply` would raise IllegalAction on an illegal choice. The toy
    game is played to the end; real games for their first 40 moves (slow engines, such as
    Castell's tower search, make whole searched games too long for a unit test)."""
    game = game_named(name)
    players = min(game.max_players, 3)
    state = game.new_game(players, seed=11)
    bot = ISMCTSBot(SearchConfig(iterations=20, seconds=0.05))
    rng = Rng(5)
    moves = 0
    while not state.is_terminal and (name == ai_toygame.NAME or moves < 40):
        action = bot.choose(state, rng)
        assert state.action_id(action) in state.legal_action_ids()
        state.apply(action)
        moves += 1
    assert moves > 0
    if name == ai_toygame.NAME:
        assert state.winners()


@pytest.mark.parametrize("iterations", [1, 37, 400])
def test_iteration_budget_is_exact(iterations):
    state = ai_toygame.ToyGame().new_game(3, seed=2)
    bot = ISMCTSBot(SearchConfig(iterations=iterations))
    stats = bot.search(state, Rng(1))
    assert stats.iterations == iterations
    assert sum(stats.visits.values()) == iterations
    assert not stats.hit_time


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seconds", [0.3, 0.6])
def test_time_budget_is_kept(name, seconds, game_named):
    """The search stops on its deadline and uses most of it. The overrun allowed is wide: on a
    loaded machine the process may wait for a core after its deadline, and a timed assert must
    not fail for that (the arena's capped-move counts measure the real overrun)."""
    game = game_named(name)
    state = game.new_game(2, seed=3)
    while len(state.legal_actions()) < 2:
        state.step(state.legal_actions()[0])
    bot = ISMCTSBot(SearchConfig(seconds=seconds))
    start = time.perf_counter()
    bot.choose(state, Rng(4))
    took = time.perf_counter() - start
    assert took <= seconds + 2.0, "the search ran on far past its deadline"
    assert took >= seconds * 0.8, "the bot should use most of its time budget"
    assert bot.last.hit_time


@pytest.mark.parametrize("collecting", [True, False])
def test_garbage_collector_is_paused_only_during_the_search(collecting, monkeypatch):
    """A full collection can stall a move past its time cap, so the search pauses the
    collector, and leaves it as it found it afterwards. The toy game's moves watch it (the
    search itself may be compiled, so it is observed from the game's side)."""
    import gc

    seen = []
    original = ai_toygame.ToyState._do

    def watching(self, action, log):
        seen.append(gc.isenabled())
        return original(self, action, log)

    monkeypatch.setattr(ai_toygame.ToyState, "_do", watching)
    was = gc.isenabled()
    (gc.enable if collecting else gc.disable)()
    try:
        ISMCTSBot(SearchConfig(iterations=20)).search(ai_toygame.ToyGame().new_game(2, seed=3), Rng(1))
        after = gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()
    assert seen and not any(seen)
    assert after is collecting


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("players", [2, 4])
def test_a_search_leaves_no_cyclic_garbage(name, players):
    """The collector is paused while the bot searches, so everything a search throws away must
    be freed by reference counting; cyclic garbage (e.g. a recursive closure in the Castell tower
    solver) would pile up for the whole move and be collected inside the time budget, which
    once made moves 15% late."""
    import gc

    game = meeple.load(name)
    state = game.new_game(players, seed=5)
    rng = Rng(5)
    greedy = make_bot("greedy")
    for _ in range(8 * players):
        if state.is_terminal:
            break
        state.step(greedy.choose(state, rng))
    assert not state.is_terminal
    bot = ISMCTSBot(parse_level("200", game.search))
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        bot._search(state, Rng(6), time.perf_counter())
        leftovers = gc.collect()
    finally:
        (gc.enable if was else gc.disable)()
    assert leftovers == 0


def test_the_collection_a_search_owes_is_made_before_the_move_ends():
    """Allocations counted while the collector was paused would trigger a collection at the
    first allocation after the search, inside the move and after its deadline (0.10 s once,
    making a 1 s move 1.10 s). The search pays it within its budget: afterwards the young
    generations' counts are below their thresholds, so nothing is owed."""
    import gc

    game = meeple.load("castell")
    state = game.new_game(2, seed=5)
    bot = ISMCTSBot(parse_level("100", game.search))
    was = gc.isenabled()
    gc.enable()
    try:
        bot.search(state, Rng(6))
        young, middle, _ = gc.get_count()
    finally:
        (gc.enable if was else gc.disable)()
    assert bot.last.iterations == 100
    assert young < gc.get_threshold()[0] and middle < gc.get_threshold()[1]


def test_slow_playouts_are_cut_at_the_deadline(monkeypatch):
    """Moves so slow that no playout ends within the budget (16 moves of at least 70 ms each
    against one second): every iteration is dropped at the deadline, none is finished late.
    At most 15 such moves fit in the second, however busy the machine (a loaded one fits
    fewer); a playout finished late would have made all 16."""
    state = ai_toygame.ToyGame().new_game(4, seed=3, hand=4)
    original = ai_toygame.ToyState._do
    moves = []

    def slow(self, action, log):
        moves.append(action)
        time.sleep(0.07)
        return original(self, action, log)

    monkeypatch.setattr(ai_toygame.ToyState, "_do", slow)
    bot = ISMCTSBot(SearchConfig(seconds=1.0))
    start = time.perf_counter()
    stats = bot.search(state, Rng(1))
    took = time.perf_counter() - start
    assert 0 < len(moves) <= 15
    assert stats.iterations == 0 and stats.hit_time
    assert took <= 1.0 + 2.0, "the search ran on far past its deadline"


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_and_iterations_give_the_same_search(name, game_named):
    game = game_named(name)
    state = _positions(game, 2, seed=21, count=2)[-1]
    first = ISMCTSBot(SearchConfig(iterations=60))
    second = ISMCTSBot(SearchConfig(iterations=60))
    a = first.choose(state, Rng(9))
    b = second.choose(state, Rng(9))
    assert a == b
    assert first.last.visits == second.last.visits
    assert first.last.values == second.last.values


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("players", [2, 3])
def test_no_cheating_hidden_information_does_not_change_the_decision(name, players, game_named):
    """Two states that differ only in what the mover cannot see, same seed: same decision."""
    game = game_named(name)
    if players > game.max_players:
        players = game.max_players
    differed = 0
    for index, state in enumerate(_positions(game, players, seed=40 + players, count=3)):
        me = state.current_player
        assert me is not None
        other = state.determinize(me, Rng(1000 + index))
        assert canonical(other.view(me)) == canonical(state.view(me))
        mine, theirs = state.determinize(me, Rng(7)), other.determinize(me, Rng(7))
        assert canonical(mine.to_json()) == canonical(theirs.to_json()), (
            f"{name}: determinize({me}, rng) depends on hidden information (e.g. the order of unseen "
            "things): build the pool of unseen things in a canonical order, such as sorted, before "
            "shuffling, so a bot's decision depends only on its view and its seed"
        )
        if canonical(other.to_json()) != canonical(state.to_json()):
            differed += 1
        bot_a = ISMCTSBot(SearchConfig(iterations=40))
        bot_b = ISMCTSBot(SearchConfig(iterations=40))
        assert bot_a.choose(state, Rng(index)) == bot_b.choose(other, Rng(index))
        assert bot_a.last.visits == bot_b.last.visits
    assert differed, "no sampled position differed in hidden information: the test proved nothing"


def test_no_cheating_when_the_opponent_holds_every_high_card():
    """Same view for seat 0, opposite hidden hands: the search is identical."""
    mine = [1, 7, 9]
    strong = _toy_position([mine, [14, 15, 16]], [], [0, 0], 0, 0)
    weak = _toy_position([mine, [2, 3, 4]], [], [0, 0], 0, 0)
    assert canonical(strong.view(0)) == canonical(weak.view(0))
    a = ISMCTSBot(SearchConfig(iterations=300))
    b = ISMCTSBot(SearchConfig(iterations=300))
    assert a.choose(strong, Rng(3)) == b.choose(weak, Rng(3))
    assert a.last.values == b.last.values


def test_finds_the_winning_move():
    """Seat 0 took trick 1 (9 over 4) and leads a 10; seat 1 holds 11 and 16. Taking with the
    11 and then leading the 16 wins both tricks for sure; taking with the 16 leaves the last
    trick to whatever seat 0 still holds."""
    state = _toy_position([[5], [11, 16]], [(0, 10)], [1, 0], 0, 3, gone=(9, 4))
    assert state.current_player == 1
    bot = ISMCTSBot(SearchConfig(iterations=200))
    choice = bot.choose(state, Rng(2))
    assert isinstance(choice, ai_toygame.Play) and choice.card == 11
    assert bot.last.values[10] == 1.0
    assert bot.last.values[15] < 0.9


def test_levels_map_to_budgets_a_person_accepts():
    for level, budget in LEVELS.items():
        bot = make_bot(f"ismcts:{level}")
        assert isinstance(bot, ISMCTSBot)
        assert bot.name == f"ismcts:{level}"
        assert bot.config.iterations == budget["iterations"]
        assert bot.config.seconds is not None and bot.config.seconds <= 2.0
    assert LEVELS["easy"]["iterations"] < LEVELS["normal"]["iterations"] < LEVELS["hard"]["iterations"]


def test_levels_scale_per_game_but_explicit_budgets_do_not():
    scaled_game, plain_game = SearchTuning(iteration_scale=2.5), SearchTuning()
    for level, budget in LEVELS.items():
        scaled = parse_level(level, scaled_game)
        assert scaled.iterations == round(budget["iterations"] * 2.5)
        assert scaled.seconds == budget["seconds"]  # the time a person waits stays the same
        assert parse_level(level, plain_game).iterations == budget["iterations"]
    assert parse_level("rollout=greedy", scaled_game).iterations == round(LEVELS["normal"]["iterations"] * 2.5)
    assert parse_level("800", scaled_game).iterations == 800


def test_hard_trusts_its_larger_search_with_a_smaller_share_of_the_games_greedy_margin():
    # the game's margin is stated for normal; hard's mean rewards are ~sqrt(6.7) times surer
    tuned = SearchTuning(rollout="greedy", greedy_margin=0.05)
    assert parse_level("normal", tuned).greedy_margin == 0.05
    assert parse_level("easy", tuned).greedy_margin == 0.05
    assert parse_level("hard", tuned).greedy_margin == 0.02  # the margin the arena measured
    assert set(MARGIN_SCALE) == set(LEVELS)
    # a margin in the spec overrides the level's, and budgets without a level keep the game's
    assert parse_level("hard,greedy_margin=0.05", tuned).greedy_margin == 0.05
    assert parse_level("800", tuned).greedy_margin == 0.05
    # a game without a margin gets none at any level
    assert parse_level("hard", SearchTuning(rollout="greedy")).greedy_margin is None


@pytest.mark.parametrize("name", game_names())
def test_hard_level_stays_within_its_time_cap_on_real_games(name):
    """No iteration of a real game runs long past the cap. The 10% allowed is counted in the
    processor time this process used: on a quiet machine that is the move's time, and a
    loaded machine, which makes the move wait for a core, adds none."""
    game = meeple.load(name)
    state = game.new_game(game.max_players, seed=8)
    bot = make_bot("ismcts:hard")
    start, used = time.perf_counter(), time.process_time()
    bot.choose(state, Rng(1))
    assert time.process_time() - used <= LEVELS["hard"]["seconds"] * 1.10
    assert time.perf_counter() - start <= LEVELS["hard"]["seconds"] + 2.0, "the move ran on far past its cap"


def test_spec_settings_and_errors():
    config = parse_level("250,rollout=greedy,epsilon=0.25,cutoff=4,score_weight=0.1,c=0.5")
    assert (config.iterations, config.rollout, config.epsilon, config.cutoff) == (250, "greedy", 0.25, 4)
    assert (config.score_weight, config.exploration) == (0.1, 0.5)
    assert parse_level("1.5s").seconds == 1.5 and parse_level("1.5s").iterations is None
    assert parse_level("rollout=greedy").iterations == LEVELS["normal"]["iterations"]
    for bad in ("ismcts:fast", "ismcts:0", "ismcts:normal,rollout=smart", "ismcts:normal,depth=3",
                "ismcts:-1s", "ismcts:normal,epsilon=2", "ismcts:normal,greedy_margin=1.5"):
        with pytest.raises(OptionError):
            make_bot(bad)
    with pytest.raises(OptionError, match=r"bad ISMCTS level 'bogus'.*easy, normal, hard"):
        make_bot("ismcts:bogus")


@pytest.mark.parametrize("level", ["60,rollout=greedy", "60,rollout=greedy,epsilon=0.3", "60,cutoff=1",
                                   "60,score_weight=0.5", "60,greedy_margin=0.05"])
def test_pluggable_policies_play_legally_and_repeat(level, toy):
    game = meeple.load(toy)
    state = game.new_game(3, seed=4)
    first, second = make_bot(f"ismcts:{level}"), make_bot(f"ismcts:{level}")
    while not state.is_terminal:
        a = first.choose(state, Rng(state.played))
        assert second.choose(state, Rng(state.played)) == a
        state.apply(a)
    assert state.winners()


def test_policies_need_the_game_heuristics():
    with registry.registered("toyplain", "tests.ai.ai_toygame:PLAIN_PLUGIN"):
        state = meeple.load("toyplain").new_game(2, seed=1)
        for config in (SearchConfig(iterations=5, rollout="greedy"), SearchConfig(iterations=5, cutoff=2)):
            with pytest.raises(OptionError, match="Toy Tricks has no"):
                ISMCTSBot(config).choose(state, Rng(1))


def test_greedy_margin_lets_the_heuristic_move_stand_unless_the_search_beats_it(toy):
    game = meeple.load(toy)
    for seed in range(6):
        state = game.new_game(3, seed=seed)
        while not state.is_terminal:
            greedy = ai_toygame.choose(state, Rng(0))
            searched = make_bot("ismcts:80")
            assert isinstance(searched, ISMCTSBot)
            plain = searched.choose(state, Rng(state.played))
            stats = searched.last
            # a margin of 1 covers any difference of mean rewards in [0, 1]: the greedy move stands
            assert make_bot("ismcts:80,greedy_margin=1").choose(state, Rng(state.played)) == greedy
            # a margin of 0 keeps the search's choice, unless the greedy move is worth as much
            chosen = make_bot("ismcts:80,greedy_margin=0").choose(state, Rng(state.played))
            if chosen != plain:
                aid = state.action_id(greedy)
                assert chosen == greedy and stats.values[aid] >= stats.values[state.action_id(plain)]
            state.apply(plain)


def test_greedy_margin_needs_the_game_heuristics():
    with registry.registered("toyplain", "tests.ai.ai_toygame:PLAIN_PLUGIN"), \
            pytest.raises(OptionError, match="no greedy heuristic"):
        ISMCTSBot(SearchConfig(iterations=5, greedy_margin=0.1)).choose(meeple.load("toyplain").new_game(2, seed=1),
                                                                        Rng(1))


def test_cutoff_uses_the_evaluation(monkeypatch, toy):
    """At cut-off 0 the playout returns evaluate() of the leaf instead of playing on."""
    calls = []

    def fake(state):
        calls.append(state.played)
        return [0.25] * state.num_players

    monkeypatch.setattr(ai_toygame, "evaluate", fake)
    state = ai_toygame.ToyGame().new_game(2, seed=1)
    bot = ISMCTSBot(SearchConfig(iterations=10, cutoff=0))
    stats = bot.search(state, Rng(1))
    assert len(calls) == 10
    assert all(abs(v - 0.25) < 1e-9 for v in stats.values.values())


def test_score_weight_blends_the_score_share():
    state = _toy_position([[], []], [], [2, 1], 0, 6)
    policy = _Policy(state.game, SearchConfig(iterations=1, score_weight=0.5), Rng(1))
    assert policy.reward(state) == [1.0, 0.0]
    tied = _toy_position([[], [], []], [], [1, 1, 1], 0, 9)
    policy = _Policy(tied.game, SearchConfig(iterations=1, score_weight=0.4), Rng(1))
    assert policy.reward(tied) == pytest.approx([0.6 / 3 + 0.2] * 3)


def test_bench_reports_iterations_per_second(toy):
    report = bench_ismcts(toy, 2, 0.2, 1)
    assert report["game"] == toy and report["players"] == 2
    assert report["iterations"] > 0
    assert report["iterations_per_s"] == pytest.approx(report["iterations"] / report["elapsed_s"], rel=0.01)
    assert 0.2 * 0.8 <= report["elapsed_s"] <= 0.2 + 2.0  # the budget, with a loaded machine's overrun


def test_game_policies_apply_per_game_and_specs_override_them(toy, monkeypatch):
    game = meeple.load(toy)
    monkeypatch.setattr(type(game), "search", SearchTuning(rollout="greedy", cutoff=2))
    state = game.new_game(2, seed=1)
    tuned, plain = make_bot("ismcts:20"), make_bot("ismcts:20,rollout=random")
    tuned.choose(state, Rng(1))
    plain.choose(state, Rng(1))
    assert isinstance(tuned, ISMCTSBot) and isinstance(plain, ISMCTSBot)
    assert (tuned.config.rollout, tuned.config.cutoff, tuned.config.iterations) == ("greedy", 2, 20)
    assert (plain.config.rollout, plain.config.cutoff) == ("random", 2)


@pytest.mark.parametrize("name", game_names())
def test_every_tuned_policy_is_a_valid_config(name):
    tuning = meeple.load(name).search
    config = SearchConfig(iterations=1, **tuning.settings())
    assert config.rollout in ("random", "greedy"), name


def test_scaled_cutoff_grows_with_the_table(monkeypatch, toy):
    """`scale_cutoff`: the cut-off is the two-player depth per opponent, `cutoff * (players - 1)`
    plies, so the playout covers about a round of turns before the evaluation at any table."""
    assert [seat_cutoff(8, n) for n in (2, 3, 4, 5)] == [8, 16, 24, 32]
    assert [seat_cutoff(0, n) for n in (2, 3)] == [0, 0]
    config = parse_level("normal,cutoff=8,scale_cutoff=1")
    assert config.scale_cutoff and config.cutoff == 8
    assert not parse_level("normal,cutoff=8,scale_cutoff=0").scale_cutoff
    with pytest.raises(OptionError):
        parse_level("normal,scale_cutoff=maybe")
    depths = []

    def fake(state):
        depths.append(state.played)
        return [1.0 / state.num_players] * state.num_players

    monkeypatch.setattr(ai_toygame, "evaluate", fake)
    for players, expected in ((2, 1), (4, 3)):
        state = ai_toygame.ToyGame().new_game(players, seed=1)
        depths.clear()
        ISMCTSBot(SearchConfig(iterations=1, cutoff=1, scale_cutoff=True)).search(state, Rng(1))
        # one ply expands the root's child, then the playout runs `expected` plies
        assert depths == [state.played + 1 + expected]


def test_scaled_cutoffs_keep_the_two_player_depth():
    """Castell's 8 greedy plies and Triqueta's 3 random plies are the two-player depths the
    two-player results were measured with (docs/ai.md); larger tables search deeper."""
    for name, depths in (("castell", [8, 16, 24]), ("triqueta", [3, 6, 9, 12])):
        game = meeple.load(name)
        config = parse_level("normal", game.search)
        assert config.scale_cutoff
        got = [_Policy(game, config, Rng(1), n).cutoff for n in range(2, game.max_players + 1)]
        assert got == depths, name
