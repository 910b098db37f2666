"""The generic UNDO rule (meeple.core.undo) on real positions of every game.

Positions come from seeded random games; each test finds the kind of turn it needs by the
action types of the record, so the assertions say which rule is shown."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.core.conformance import canonical
from meeple.core.record import GameRecord
from meeple.core.rng import Rng
from meeple.core.undo import reveals, undoable_from

GAMES = ["castell", "celtica", "triominos", "triqueta"]


class Played:
    """A seeded random game: its record, and per action the actor, type and `reveals`."""

    def __init__(self, name: str, players: int, seed: int, limit: int) -> None:
        game = meeple.load(name)
        state = game.new_game(players, seed=seed)
        rng = Rng(seed)
        self.record = GameRecord(name, players, seed)
        self.actors: list[int] = []
        self.types: list[str] = []
        self.revealing: list[bool] = []
        self.secret: list[bool] = []
        self.over = False
        for _ in range(limit):
            if state.over:
                break
            legal = state.legal_actions()
            action = legal[rng.below(len(legal))]
            self.actors.append(state.current)
            self.types.append(str(action.to_json().get("type")))
            self.revealing.append(reveals(state, action))
            events = state.apply(action)
            self.secret.append(any(event.secret for event in events))
            self.record.add(action)
        self.over = state.over

    def upto(self, n: int) -> GameRecord:
        """The record of the first n actions."""
        r = self.record
        return GameRecord(r.game, r.num_players, r.seed, dict(r.options), list(r.players), r.actions[:n])

    def turn_start(self, i: int) -> int:
        """The first action of the run of actions by the actor of action i that contains it."""
        while i > 0 and self.actors[i - 1] == self.actors[i]:
            i -= 1
        return i

    def find(self, test: Callable[[int], bool]) -> int:
        for i in range(len(self.types)):
            if test(i):
                return i
        raise AssertionError("no such position in this game")


def test_reveals_never_changes_the_state() -> None:
    state = meeple.load("celtica").new_game(3, seed=4)
    text = canonical(state.to_json())
    for action in state.legal_actions():
        reveals(state, action)
    assert canonical(state.to_json()) == text


def test_empty_record_has_nothing_to_undo() -> None:
    assert undoable_from(GameRecord("triqueta", 3, 1), 0) is None


# -- Castell ---------------------------------------------------------------------------------------
CASTELL = Played("castell", 3, 1, 120)


def _castell_public_turn() -> int:
    """The end_turn of a turn with a move, a recruit and a train and no reveal at all."""
    p = CASTELL

    def fits(i: int) -> bool:
        if p.types[i] != "end_turn" or i + 1 >= len(p.types):
            return False
        start = p.turn_start(i)
        kinds = set(p.types[start:i])
        return {"move", "recruit", "train"} <= kinds and not any(p.revealing[start : i + 1])

    return p.find(fits)


def test_castell_move_recruit_train_of_this_turn_are_undoable() -> None:
    end = _castell_public_turn()
    start, seat = CASTELL.turn_start(end), CASTELL.actors[end]
    for n in range(start + 1, end + 1):
        assert undoable_from(CASTELL.upto(n), seat) == start


def test_castell_end_turn_is_undoable_until_the_next_seat_acts() -> None:
    end = _castell_public_turn()
    start, seat = CASTELL.turn_start(end), CASTELL.actors[end]
    assert undoable_from(CASTELL.upto(end + 1), seat) == start
    nxt = CASTELL.actors[end + 1]
    assert nxt != seat
    assert undoable_from(CASTELL.upto(end + 1), nxt) is None
    assert undoable_from(CASTELL.upto(end + 2), seat) is None
    assert undoable_from(CASTELL.upto(end + 2), nxt) == end + 1


def test_castell_end_turn_with_a_round_refill_is_not_undoable() -> None:
    p = CASTELL
    end = p.find(lambda i: p.types[i] == "end_turn" and p.revealing[i])
    start, seat = p.turn_start(end), p.actors[end]
    assert undoable_from(p.upto(end + 1), seat) is None
    # Before the refill, the same turn was still undoable.
    if end > start:
        assert undoable_from(p.upto(end), seat) == start


# -- Triqueta --------------------------------------------------------------------------------------
TRIQUETA = Played("triqueta", 3, 0, 80)


def test_triqueta_a_draw_is_a_checkpoint() -> None:
    p = TRIQUETA
    draw = p.find(lambda i: p.types[i] == "draw" and i + 1 < len(p.types) and p.types[i + 1] == "place")
    seat = p.actors[draw]
    assert p.actors[draw + 1] == seat
    assert undoable_from(p.upto(draw + 1), seat) is None  # the drawer saw a hidden card
    assert undoable_from(p.upto(draw + 2), seat) is None  # the placed card is shown to all


def test_triqueta_take_row_is_undoable_until_the_next_player_acts() -> None:
    p = TRIQUETA
    take = p.find(lambda i: p.types[i] == "take" and not p.revealing[i] and i + 1 < len(p.types))
    seat = p.actors[take]
    assert undoable_from(p.upto(take + 1), seat) == take
    assert undoable_from(p.upto(take + 1), p.actors[take + 1]) is None
    assert p.actors[take + 1] != seat
    assert undoable_from(p.upto(take + 2), seat) is None


# -- Triominos -------------------------------------------------------------------------------------
TRIOMINOS = Played("triominos", 3, 0, 120)


@pytest.mark.parametrize("kind", ["draw", "place"])
def test_triominos_drawing_and_placing_reveal(kind: str) -> None:
    p = TRIOMINOS
    i = p.find(lambda i: p.types[i] == kind)
    assert p.revealing[i]
    assert undoable_from(p.upto(i + 1), p.actors[i]) is None


# -- Celtica ---------------------------------------------------------------------------------------
CELTICA = Played("celtica", 3, 0, 150)


def test_celtica_playing_druid_cards_reveals_the_hand() -> None:
    p = CELTICA
    plays = [i for i, kind in enumerate(p.types) if kind == "play"]
    assert plays and all(p.revealing[i] for i in plays)
    for i in plays[:5]:
        assert undoable_from(p.upto(i + 1), p.actors[i]) is None


# -- every game ------------------------------------------------------------------------------------
def test_nothing_is_undoable_for_a_seat_that_did_not_act_last() -> None:
    for p in (CASTELL, TRIQUETA, TRIOMINOS, CELTICA):
        for n in range(1, len(p.types), 7):
            if p.actors[n - 1] == p.actors[n]:  # the seat is still on its turn
                others = [s for s in range(p.record.num_players) if s != p.actors[n - 1]]
                for seat in others:
                    assert undoable_from(p.upto(n), seat) is None


def test_a_finished_game_has_nothing_to_undo() -> None:
    p = Played("triqueta", 2, 3, 1000)
    assert p.over
    for seat in range(2):
        assert undoable_from(p.record, seat) is None


@st.composite
def positions(draw: st.DrawFn) -> Played:
    name = draw(st.sampled_from(GAMES))
    game = meeple.load(name)
    players = draw(st.integers(game.min_players, game.max_players))
    return Played(name, players, draw(st.integers(0, 2**32)), draw(st.integers(1, 90)))


@settings(max_examples=40)
@given(positions())
def test_undone_actions_were_predictable_for_every_other_seat(p: Played) -> None:
    """Undo returns to the position before the taken-back actions (replaying the shorter record),
    and those actions told no other seat anything: from a fresh sample of what that seat knew
    there, the same actions are legal and end at the same view."""
    seat = p.actors[-1]
    k = undoable_from(p.record, seat)
    if k is None:
        return
    assert all(actor == seat for actor in p.actors[k:])
    at_k = p.upto(k).replay()
    final = p.record.replay()
    game = at_k.game
    for other in range(p.record.num_players):
        if other == seat:
            continue
        sample: Any = at_k.determinize(other, Rng(0xD1CE))
        for raw in p.record.actions[k:]:
            sample.apply(game.action_from_json(raw))
        assert canonical(sample.view(other)) == canonical(final.view(other))


@settings(max_examples=40)
@given(positions())
def test_an_action_with_a_secret_event_is_never_undone(p: Played) -> None:
    for seat in range(p.record.num_players):
        k = undoable_from(p.record, seat)
        if k is not None:
            assert not any(p.secret[k:])
            assert not any(p.revealing[k:])
