"""The game review (meeple.ai.review): labels on constructed positions, estimates from the mover's
information only, repeatable results whoever runs the moves, the JSON and its strict reading,
and every game at its smallest and largest table."""

from __future__ import annotations

import concurrent.futures
import copy
import json
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

import meeple
from meeple.ai.backends import process_pool
from meeple.ai.bots import make_bot
from meeple.ai.match import play_game
from meeple.ai.review import (
    LABELS,
    Review,
    ReviewSettings,
    assess,
    hint,
    review_move,
    review_record,
)
from meeple.ai.review_words import summarize, turning_points
from meeple.core.errors import OptionError, RecordError
from meeple.core.record import GameRecord
from meeple.core.rng import Rng
from tests.ai import ai_toygame
from tests.ai.ai_toygame import Play, ToyState

#: Enough worlds for clear answers on the toy positions, little enough to take a fraction of a second.
TOY = ReviewSettings(samples=48, screening=8)
#: The least a review can do: for checks of shape and range on every game.
TINY = ReviewSettings(samples=2, screening=1)
GAMES = ("triqueta", "triominos", "celtica", "castell")


def finished(game: str, players: int, seed: int = 1, bots: str = "greedy") -> GameRecord:
    """A finished game between bots, as its record."""
    the_game = meeple.load(game)
    record = GameRecord(game=game, num_players=players, seed=seed, players=[bots] * players)
    state, _ = play_game(the_game, [make_bot(bots)] * players, seed, on_action=lambda s, a: record.add(a))
    record.options = state.options
    return record


def toy_state(hands: list[list[int]], tricks: list[int], leader: int, played: int,
              trick: list[tuple[int, int]] | None = None, hand: int = 4, gone: list[int] | None = None) -> ToyState:
    """A toy-tricks position for two players: `gone` the cards of the finished tricks (default:
    the highest no one holds), and the cards nobody holds or played the undealt rest."""
    game = meeple.load(ai_toygame.NAME)
    trick = trick or []
    out = [c for _, c in trick] + [c for h in hands for c in h]
    if gone is None:
        gone = [c for c in range(ai_toygame.DECK, 0, -1) if c not in out][:played - len(trick)]
    assert len(gone) == played - len(trick)
    rest = [c for c in range(1, ai_toygame.DECK + 1) if c not in out and c not in gone]
    state = ToyState(game=game, num_players=2, options={"hand": hand}, current=(leader + len(trick)) % 2, over=False,
                     hands=[sorted(h) for h in hands], rest=rest, trick=list(trick), tricks=list(tricks),
                     leader=leader, played=played)
    state.validate()
    return state


def entry_of(state: ToyState, card: int, settings: ReviewSettings = TOY, seed: int = 7) -> dict[str, Any]:
    after = state.clone()
    after.apply(Play(card))
    return assess(state, after, Play(card), settings, seed)


def played_out_position(toy: str) -> ToyState:
    """Seat 0 won trick 1 (16 over 4), seat 1 trick 2 (10 over 2), and leads trick 3 with 9; seat 0
    holds 11 and 3, seat 1 one card the others cannot see. Taking the trick with 11 keeps a
    share of the win in every deal; throwing 3 away leaves seat 0 only the deals where seat 1's
    last card is below 11, and then only a tie: about 0.56 against 0.28."""
    return toy_state([[11, 3], [12]], tricks=[1, 1], leader=1, played=5, trick=[(1, 9)], gone=[16, 4, 2, 10])


def test_a_move_that_throws_the_game_away_is_a_blunder(toy):
    state = played_out_position(toy)
    throw = entry_of(state, 3)
    take = entry_of(state, 11)
    assert throw["label"] == "blunder" and throw["loss"] >= 0.2
    assert throw["best_action"] == {"type": "play", "card": 11}
    assert take["label"] == "best" and take["loss"] == 0.0
    assert 0.45 < take["chance_after"] < 0.65 and 0.15 < throw["chance_after"] < 0.4


def test_moves_that_are_all_equal_are_only_good(toy):
    # Seat 0 leads trick 2 with 1, 2 and 3: no card anyone else may hold lies between them, so
    # every deal ends the same whichever it leads (a race among three, then the final).
    state = toy_state([[1, 2, 3], [5, 6, 7]], tricks=[1, 0], leader=0, played=2, gone=[16, 4])
    for card in (1, 2, 3):
        entry = entry_of(state, card)
        assert entry["label"] == "good" and entry["loss"] == 0.0, entry


def test_equal_moves_stay_good_across_seeds(toy):
    state = toy_state([[2, 3], [9, 10]], tricks=[1, 0], leader=0, played=2, hand=3, gone=[16, 1])
    labels = {entry_of(state, card, seed=seed)["label"] for card in (2, 3) for seed in range(12)}
    assert labels == {"good"}


def test_one_legal_move_is_forced(toy):
    state = toy_state([[5], [9]], tricks=[2, 1], leader=0, played=6)
    entry = entry_of(state, 5)
    assert entry["label"] == "forced" and entry["legal"] == 1
    assert entry["chance_before"] == entry["chance_after"] == entry["best_chance"]


def test_a_move_is_estimated_from_what_its_mover_knew(toy):
    # The same position for seat 0, with seat 1's hidden card and the undealt rest dealt otherwise.
    one = played_out_position(toy)
    other = one.clone()
    other.hands[1], other.rest = [1], sorted([12, *[c for c in one.rest if c != 1]])
    other.validate()
    assert one.view(0) == other.view(0) and one.hands != other.hands
    for card in (3, 11):
        assert entry_of(one, card, seed=3) == entry_of(other, card, seed=3)


def test_a_review_asks_determinize_only_for_the_mover(toy, monkeypatch):
    record = finished(toy, 3, seed=5)
    movers: list[int | None] = []
    record.replay(lambda step, action, state: movers.append(state.current_player))
    asked: list[int] = []
    original = ToyState.determinize

    def spy(self: ToyState, observer: int, rng: Rng) -> ToyState:
        asked.append(observer)
        return original(self, observer, rng)

    monkeypatch.setattr(ToyState, "determinize", spy)
    for index in (0, 4, 7):
        asked.clear()
        mover = record.new_state().current_player if index == 0 else movers[index - 1]
        review_move(record.to_json(), index, TOY, 1)
        assert asked and set(asked) == {mover}


@pytest.mark.parametrize("game", GAMES)
def test_a_hint_depends_only_on_the_seat_to_moves_information(game):
    record = finished(game, 2, seed=3)
    states: list[Any] = []
    record.replay(lambda step, action, state: states.append(state.clone()))
    state = next(s for s in states[len(states) // 3:] if len(s.legal_actions()) > 1)
    seat = state.current_player
    redealt = state.determinize(seat, Rng(99))
    first = hint(state, seat, TINY, 4)
    assert first == hint(redealt, seat, TINY, 4) == hint(state.to_json(), seat, TINY, 4)
    assert 0.0 <= first["best_chance"] <= 1.0
    assert state.game.action_from_json(first["best_action"]) in state.legal_actions()


def test_a_hint_is_only_for_the_seat_to_move():
    state = meeple.load("triqueta").new_game(2, seed=1)
    with pytest.raises(OptionError, match="seat to move"):
        hint(state, 1, TINY, 0)
    with pytest.raises(RecordError, match="game state"):
        hint({"game": "triqueta", "nonsense": 1}, 0, TINY, 0)


def test_the_same_record_settings_and_seed_give_the_same_review_in_any_worker():
    record = finished("triominos", 2, seed=4)
    one = review_record(record, TINY, seed=9).to_json()
    assert one == review_record(record, TINY, seed=9).to_json()
    with process_pool(2) as pool:
        assert review_record(record, TINY, seed=9, executor=pool).to_json() == one
    with concurrent.futures.ThreadPoolExecutor(2) as threads:
        backwards = list(threads.map(lambda i: review_move(record.to_json(), i, TINY, 9),
                                     reversed(range(len(record.actions)))))
    assert list(reversed(backwards)) == one["moves"]
    assert review_record(record, TINY, seed=10).to_json() != one


def test_progress_counts_every_move():
    record = finished("triominos", 2, seed=2)
    seen: list[tuple[int, int]] = []
    review_record(record, TINY, progress=lambda done, total: seen.append((done, total)))
    total = len(record.actions)
    assert seen == [(done, total) for done in range(1, total + 1)]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("table", ["fewest", "most"])
def test_every_game_and_table_reviews_with_chances_that_add_up(game, table):
    the_game = meeple.load(game)
    players = the_game.min_players if table == "fewest" else the_game.max_players
    record = finished(game, players, seed=2)
    total = len(record.actions)
    indices = sorted({0, 1, total // 3, total // 2, total - 2, total - 1})
    entries = [review_move(record.to_json(), index, TINY, 5) for index in indices]
    for entry in entries:
        assert entry["label"] in LABELS and 0 <= entry["seat"] < players
        for key in ("chance_before", "chance_after", "best_chance", "loss"):
            assert 0.0 <= entry[key] <= 1.0
        assert -1.0 <= entry["luck"] <= 1.0
        assert entry["chance_before"] >= entry["chance_after"]
        assert len(entry["chances"]) == players and all(0.0 <= c <= 1.0 for c in entry["chances"])
        assert sum(entry["chances"]) == pytest.approx(1.0, abs=1e-3)
        assert entry["chances"][entry["seat"]] == entry["chance_after"]
    # Renumbered as a whole game's moves, the game-level parts read them.
    moves = [dict(entry, index=k) for k, entry in enumerate(entries)]
    short = replace(record, actions=[record.actions[i] for i in indices])
    assert len(summarize(short, moves)) == players


def test_the_last_move_s_luck_is_what_was_left_to_chance():
    record = finished("triominos", 2, seed=4)
    last = review_move(record.to_json(), len(record.actions) - 1, TOY, 1)
    final = record.replay()
    assert last["chance_after"] + last["luck"] == pytest.approx(final.rewards()[last["seat"]], abs=1e-3)


def test_only_a_finished_game_is_reviewed():
    record = finished("triqueta", 2, seed=1)
    unfinished = replace(record, actions=record.actions[:-3])
    with pytest.raises(RecordError, match="only a finished game"):
        review_record(unfinished, TINY)
    with pytest.raises(RecordError, match="only a finished game"):
        review_move(unfinished.to_json(), 0, TINY, 0)


def test_bad_arguments_are_refused_with_one_clear_error():
    record = finished("triqueta", 2, seed=1).to_json()
    with pytest.raises(OptionError, match="actions 0 to"):
        review_move(record, len(record["actions"]), TINY, 0)
    with pytest.raises(OptionError, match="seed"):
        review_move(record, 0, TINY, -1)
    with pytest.raises(RecordError):
        review_move({"format": "meeple-record"}, 0, TINY, 0)


@pytest.mark.parametrize("bad", [
    {"samples": 1}, {"samples": 2.5}, {"screening": 0}, {"screening": 100}, {"epsilon": 1.5},
    {"playout": "sometimes"}, {"seconds_per_move": 0}, {"seconds_per_move": float("nan")},
    {"seconds_per_move": True}, {"epsilon": "0.1"},
])
def test_bad_settings_are_an_option_error(bad):
    with pytest.raises(OptionError):
        ReviewSettings(**{"samples": 48, "screening": 8, **bad})


def test_quick_is_less_work_than_the_default():
    quick, default = ReviewSettings.quick(), ReviewSettings.default()
    assert quick.samples < default.samples and quick.seconds_per_move is None is default.seconds_per_move
    assert ReviewSettings.from_json(default.to_json()) == default
    with pytest.raises(RecordError):
        ReviewSettings.from_json({**default.to_json(), "extra": 1})


def test_hints_asked_for_are_marked_in_the_review():
    record = finished("triominos", 2, seed=6)
    record.hints = [0, 3]
    review = review_record(GameRecord.from_json(json.loads(record.dumps())), TINY)
    assert [entry["index"] for entry in review.moves if entry["hint"]] == [0, 3]
    by_seat = {seat["seat"]: seat["hints"] for seat in review.seats}
    assert sum(by_seat.values()) == 2


def review_json() -> dict[str, Any]:
    """A small game's review as JSON, a fresh copy each call (reviewed once)."""
    return copy.deepcopy(_review_json())


@cache
def _review_json() -> dict[str, Any]:
    record = finished("triominos", 2, seed=4)
    return review_record(record, ReviewSettings(samples=8, screening=2), seed=3).to_json()


def test_the_review_json_has_every_field_and_reads_back():
    data = review_json()
    assert {"game", "num_players", "players", "settings", "seed", "moves", "turning_points", "seats"} <= set(data)
    for entry in data["moves"]:
        assert {"index", "seat", "label", "chance_before", "chance_after", "best_action", "best_chance", "luck",
                "loss", "chances", "legal", "hint"} <= set(entry)
    for point in data["turning_points"]:
        assert point["kind"] in ("decision", "luck") and set(point["words"]) == {"en", "zh-Hant"}
        assert point["words"]["en"].startswith(f"Move {point['index'] + 1}, Player {point['seat'] + 1}")
    stored = json.loads(json.dumps(data))
    assert Review.from_json(stored).to_json() == data


@pytest.mark.parametrize("damage, problem", [
    (lambda r: r["moves"][0].update(label="brilliant"), "label"),
    (lambda r: r["moves"][0].update(chance_after=1.5), "chance_after"),
    (lambda r: r["moves"][0].update(extra=1), "unknown field"),
    (lambda r: r["moves"][1].pop("seat"), "lacks"),
    (lambda r: r["moves"][1].update(index=0), "index"),
    (lambda r: r["moves"][0].update(chances=[0.5]), "chances"),
    (lambda r: r["seats"].pop(), "each of its 2 seats"),
    (lambda r: r["turning_points"].append({"index": 0, "seat": 0, "kind": "fate", "swing": 0.1, "words": {}}),
     "kind"),
    (lambda r: r["settings"].update(samples=0), "samples"),
    (lambda r: r.update(game="chess"), "game"),
    (lambda r: r.update(format="other"), "not a meeple game review"),
])
def test_a_damaged_review_is_refused_naming_the_problem(damage, problem):
    data = review_json()
    damage(data)
    with pytest.raises(RecordError, match=problem):
        Review.from_json(data)


def test_turning_points_are_the_largest_swings_in_words():
    record = finished("triqueta", 2, seed=1)
    moves = [{"index": k, "seat": 0, "action": a, "label": "good", "loss": 0.0, "luck": 0.0, "luck_noise": 0.0,
              "hint": False} for k, a in enumerate(record.actions)]
    moves[5].update(label="blunder", loss=0.4)
    moves[9].update(luck=0.3, luck_noise=0.05)
    moves[12].update(luck=-0.5, luck_noise=0.3)  # within its noise: not a turning point
    moves[20].update(label="mistake", loss=0.15)
    moves[21].update(label="inaccuracy", loss=0.08)
    points = turning_points(record, moves)
    assert [(p["index"], p["kind"], p["swing"]) for p in points] == [
        (5, "decision", -0.4), (9, "luck", 0.3), (20, "decision", -0.15)]
    words = f"Move 6, Player 1: {record_words(record, 5)}: blunder, -40 points of win chance"
    assert points[0]["words"]["en"] == words
    assert "大錯" in points[0]["words"]["zh-Hant"] and "運氣" in points[1]["words"]["zh-Hant"]


def record_words(record: GameRecord, index: int) -> str:
    from meeple.ai.review_words import action_words, catalog

    state = record.new_state()
    for action in record.actions[:index]:
        state.apply(state.game.action_from_json(action))
    return action_words(record.game, record.actions[index], state, catalog(record.game, "en"))


def test_playouts_stop_where_the_game_says_and_quick_stops_sooner():
    from meeple.ai.review_estimate import Playouts

    castell, triqueta = meeple.load("castell"), meeple.load("triqueta")
    assert Playouts(castell, ReviewSettings.default(), 2).cutoff == 32
    assert Playouts(castell, ReviewSettings.default(), 4).cutoff == 96  # per opponent
    assert Playouts(castell, ReviewSettings.quick(), 4).cutoff == 48
    assert Playouts(castell, ReviewSettings(playout="end"), 4).cutoff is None
    assert Playouts(triqueta, ReviewSettings.quick(), 2).cutoff is None  # Triqueta plays to the end


def test_a_time_cap_still_gives_every_estimate_a_few_worlds_and_says_so():
    record = finished("castell", 2, seed=2)
    capped = ReviewSettings(samples=4000, screening=8, seconds_per_move=0.05)
    entry = review_move(record.to_json(), 10, capped, 0)
    assert entry["capped"] is True and 4 <= entry["samples"] < 4000
    assert 0.0 <= entry["chance_after"] <= 1.0 and entry["label"] in LABELS
