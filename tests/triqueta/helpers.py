"""Building Triqueta test positions."""

from __future__ import annotations

from typing import Any

from meeple.core.conformance import canonical
from meeple.games.triqueta.actions import DRAW_ACTION, TAKE_ACTIONS, Action, discard_action, keep_action, place_action
from meeple.games.triqueta.components import ANIMALS, TOKENS_PER_ANIMAL
from meeple.games.triqueta.game import TriquetaGame
from meeple.games.triqueta.state import TriquetaState

RABBIT, OWL, DEER, BOAR, RAM, BEAR = range(len(ANIMALS))
GAME = TriquetaGame()

draw = DRAW_ACTION
keep = keep_action(0)


def take(row: int) -> Action:
    return TAKE_ACTIONS[row]


def place(row: int, slot: int = 0) -> Action:
    return place_action(row, slot)


def discard(slot: int = 0) -> Action:
    return discard_action(slot)


def new(players: int = 3, seed: int = 1, **options: Any) -> TriquetaState:
    return GAME.new_game(players, seed=seed, **options)


def set_next_draws(state: TriquetaState, tokens: list[int]) -> None:
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


def tokens_conserved(state: TriquetaState) -> None:
    """All 60 tokens, 10 of each animal, are somewhere: towers, rows, collections, face down,
    the drawn token, returned (T9) or gone unseen (T6)."""
    total = [0] * len(ANIMALS)
    groups = [*state.towers, *(r for r in state.rows if r), *state.face_down, *state.returned, state.gone]
    for group in groups:
        for t in group:
            total[t] += 1
    for t in state.pending:
        if t >= 0:
            total[t] += 1
    for counts in state.counts:
        for a, c in enumerate(counts):
            total[a] += c
    assert total == [TOKENS_PER_ANIMAL] * len(ANIMALS)


def views_leak_nothing(state: TriquetaState) -> None:
    """No seat's view names another seat's face-down tokens, the drawn token, or towers."""
    for seat in [None, *range(state.num_players)]:
        view = state.view(seat)
        text = canonical(view)
        assert "towers\":[[" not in text  # only sizes
        for other in range(state.num_players):
            entry = view["players"][other]
            if other != seat:
                assert "face_down" not in entry and "returned" not in entry
        if seat != state.current_player or state.is_terminal:
            assert "pending" not in view
