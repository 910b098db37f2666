"""Building Triqueta test positions."""

from __future__ import annotations

import meeple
from meeple.games.triqueta.actions import DRAW_ACTION, TAKE_ACTIONS, discard_action, keep_action, place_action
from meeple.games.triqueta.components import ANIMALS

RABBIT, OWL, DEER, BOAR, RAM, BEAR = range(len(ANIMALS))
GAME = meeple.load("triqueta")

draw = DRAW_ACTION
keep = keep_action(0)


def take(row: int):
    return TAKE_ACTIONS[row]


def place(row: int, slot: int = 0):
    return place_action(row, slot)


def discard(slot: int = 0):
    return discard_action(slot)


def new(players: int = 3, seed: int = 1, **options):
    return GAME.new_game(players, seed=seed, **options)


def set_next_draws(state, tokens):
    """Make the current tower yield `tokens` in order (swapping them in from elsewhere in the
    box so the 60 tokens stay accounted for)."""
    tower = state.towers[state.round]
    wanted = list(reversed(tokens))
    # Exchange values between the tower and later towers so totals are preserved.
    pool = [t for other in state.towers[state.round + 1:] for t in other] + tower
    for token in wanted:
        pool.remove(token)
    rest = pool
    tower[:] = rest[: len(tower) - len(wanted)] + wanted
    rest = rest[len(tower) - len(wanted):]
    for other in state.towers[state.round + 1:]:
        other[:] = rest[: len(other)]
        rest = rest[len(other):]
