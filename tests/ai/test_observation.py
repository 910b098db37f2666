"""Bots receive only what their seat may know (an Observation), never the real state."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.ai.bots import Bot, make_bot
from meeple.ai.match import play_game
from meeple.core.conformance import canonical, random_position
from meeple.core.observation import Observation
from meeple.core.protocol import Action
from meeple.core.registry import game_names
from meeple.core.rng import Rng
from meeple.core.state import State


def _position(name: str, players: int, seed: int, depth: int) -> State[Any]:
    return random_position(meeple.load(name), players, seed, depth, walk_seed=seed)


class _Spy(Bot):
    """Records what a bot is handed, then plays the first legal move."""

    name = "spy"

    def __init__(self) -> None:
        self.handed: list[object] = []

    def choose(self, position: State[Any] | Observation[Any], rng: Rng) -> Action:
        self.handed.append(position)
        return super().choose(position, rng)

    def decide(self, seen: Observation[Any], rng: Rng) -> Action:
        action: Action = seen.legal_actions()[0]
        return action


@pytest.mark.parametrize("name", game_names())
def test_bots_are_handed_observations_never_the_state(name):
    spy = _Spy()
    game = meeple.load(name)
    play_game(game, [spy, make_bot("random")], seed=3)
    assert spy.handed and all(isinstance(x, Observation) for x in spy.handed)


@pytest.mark.parametrize("name", game_names())
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), depth=st.integers(0, 40), draw=st.integers(0, 2**32))
def test_an_observation_knows_exactly_what_its_seat_knows(name, seed, depth, draw):
    state = _position(name, 2, seed, depth)
    if state.is_terminal:
        return
    seat = state.current_player
    before = canonical(state.to_json())
    seen = Observation.of(state)
    assert canonical(state.to_json()) == before  # observing changes nothing
    assert seen.seat == seat and seen.sample is not state
    assert seen.legal_actions() == state.legal_actions()
    assert canonical(seen.view()) == canonical(state.view(seat))
    # Determinizing the observation is determinizing the real state: searches decide the same.
    assert canonical(seen.determinize(Rng(draw)).to_json()) == canonical(state.determinize(seat, Rng(draw)).to_json())


def test_a_finished_game_has_no_observation():
    state = _position("triqueta", 2, 1, 10_000)
    assert state.is_terminal
    with pytest.raises(meeple.core.errors.OptionError):
        Observation.of(state)
