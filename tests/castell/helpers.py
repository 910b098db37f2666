"""Helpers shared by the Castell engine tests: build positions directly, play games out."""

from __future__ import annotations

from typing import Any

from meeple.core.protocol import Event
from meeple.core.rng import Rng
from meeple.games.castell import actions as A
from meeple.games.castell import heuristics as H
from meeple.games.castell.components import REGIONS, Festival, load_components
from meeple.games.castell.game import CastellGame
from meeple.games.castell.state import CastellState

GAME = CastellGame()
#: The shipped castellers per size (index 0 unused): the K2 supply.
SUPPLY = load_components().castellers


def region(name: str) -> int:
    return REGIONS.index(name)


def team(**counts: int) -> list[int]:
    """A team as 11 counts from keyword sizes, e.g. team(s9=3, s7=2)."""
    out = [0] * 11
    for key, n in counts.items():
        out[int(key[1:])] = n
    return out


def new(n: int = 4, seed: int = 1, **options: Any) -> CastellState:
    return GAME.new_game(n, seed=seed, **options)


def placed(n: int = 4, seed: int = 1, where: str = "barcelona", **options: Any) -> CastellState:
    """Every player placed the pawn in `where` in round 1; round 2 (seat 1 first) has run up to
    seat 0's turn, the last of the round."""
    s = new(n, seed, **options)
    for _ in range(n):
        s.apply(A.MOVES[region(where)])
        s.apply(A.END_TURN)
    while s.current != 0:
        s.apply(A.END_TURN)
    return s


def last_turn(s: CastellState, rnd: int, festivals: tuple[Festival, ...]) -> None:
    """Put `s` at the last turn of round `rnd` with the given festivals (no other changes)."""
    s.round = rnd
    set_festivals(s, rnd, festivals)
    s.turn = s.num_players - 1
    s.current = (s.first + s.turn) % s.num_players
    s.used = 0
    s.recruit_open = False
    s.free_special = False


def set_festivals(s: CastellState, rnd: int, festivals: tuple[Festival, ...]) -> None:
    """Give round `rnd` these festivals (the calendar is a tuple: never changed in play)."""
    s.festivals = (*s.festivals[:rnd], festivals, *s.festivals[rnd + 1:])


def fest(where: str, *tokens: int, tile: int = 0) -> Festival:
    return Festival(tile, region(where), tuple(tokens))


def castellers_total(s: CastellState) -> int:
    return len(s.bag) + sum(map(sum, s.pool)) + sum(map(sum, s.teams))


def play(n: int, seed: int, greedy_seats: set[int]) -> tuple[CastellState, list[Event]]:
    """A whole game: the greedy bot in `greedy_seats`, random moves elsewhere."""
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
