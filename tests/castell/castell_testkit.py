"""Helpers shared by the Castell engine tests: build positions directly."""

from __future__ import annotations

import meeple
from meeple.games.castell import actions as A
from meeple.games.castell.components import REGIONS
from meeple.games.castell.state import CastellState, Festival

GAME = meeple.load("castell")


def region(name: str) -> int:
    return REGIONS.index(name)


def team(**counts: int) -> list[int]:
    """A team as 11 counts from keyword sizes, e.g. team(s9=3, s7=2)."""
    out = [0] * 11
    for key, n in counts.items():
        out[int(key[1:])] = n
    return out


def new(n: int = 4, seed: int = 1, **options) -> CastellState:
    return GAME.new_game(n, seed=seed, **options)


def placed(n: int = 4, seed: int = 1, where: str = "barcelona", **options) -> CastellState:
    """Every player placed the pawn in `where` in round 1; round 2 (seat 1 first) has run up to
    seat 0's turn, the last of the round."""
    s = new(n, seed, **options)
    for _ in range(n):
        s.apply(A.MOVES[region(where)])
        s.apply(A.END_TURN)
    while s.cur != 0:
        s.apply(A.END_TURN)
    return s


def last_turn(s: CastellState, rnd: int, festivals: tuple[Festival, ...]) -> None:
    """Put `s` at the last turn of round `rnd` with the given festivals (no other changes)."""
    s.round = rnd
    s.festivals[rnd] = festivals
    s.turn = s.num_players - 1
    s.cur = (s.first + s.turn) % s.num_players
    s.used = 0
    s.recruit_open = False
    s.free_special = False


def fest(where: str, *tokens: int, tile: int = 0) -> Festival:
    return Festival(tile, region(where), tuple(tokens))


def castellers_total(s: CastellState) -> int:
    return len(s.bag) + sum(map(sum, s.pool)) + sum(map(sum, s.teams))
