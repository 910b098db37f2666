"""Checks of a loaded Triqueta state beyond the field types: ranges, the 60 tokens each in one
place (T2), rows in play matching the players still in the round (T5), whose turn it is, the
drawn tokens (T9), the tree tiles (T3) and the end of the game (T7)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.checks import check_at_most, check_length, check_range
from meeple.core.errors import RecordError
from meeple.games.triqueta.actions import DISCARD, KEEP, PLACE, SLOTS
from meeple.games.triqueta.components import (
    MAX_FACE_DOWN,
    NUM_ANIMALS,
    NUM_TOKENS,
    TOKENS_PER_ANIMAL,
    TOKENS_PER_TOWER,
    TOWERS,
    TREE_TILES,
)

if TYPE_CHECKING:
    from meeple.games.triqueta.state import TriquetaState

#: Bound on the seed (a 64-bit generator state).
BIG = 1 << 64




def _animals(tokens: list[int], what: str) -> None:
    for i, token in enumerate(tokens):
        check_range(token, 0, NUM_ANIMALS - 1, f"{what}[{i}]")


def _per_seat(state: TriquetaState) -> None:
    n = state.num_players
    for name in ("rows", "out", "trees", "counts", "face_down", "returned"):
        check_length(getattr(state, name), n, name)
    for seat in range(n):
        row = state.rows[seat]
        if row is not None:
            _animals(row, f"rows[{seat}]")
        check_range(state.trees[seat], 0, TREE_TILES, f"trees[{seat}]")
        check_length(state.counts[seat], NUM_ANIMALS, f"counts[{seat}]")
        for a, count in enumerate(state.counts[seat]):
            check_range(count, 0, TOKENS_PER_ANIMAL, f"counts[{seat}][{a}]")
        check_at_most(state.face_down[seat], MAX_FACE_DOWN, f"face_down[{seat}]")  # T4
        _animals(state.face_down[seat], f"face_down[{seat}]")
        _animals(state.returned[seat], f"returned[{seat}]")
        if state.returned[seat] and not state.duo:
            raise RecordError(f"returned[{seat}] must be empty without the duo option (T9)")


def _towers(state: TriquetaState) -> None:
    for i, tower in enumerate(state.towers):
        if i < state.round and tower:
            raise RecordError(f"towers[{i}] must be empty: its round is over (T6)")
        if i > state.round and len(tower) != TOKENS_PER_TOWER:
            raise RecordError(f"towers[{i}] must hold {TOKENS_PER_TOWER} tokens until its round (T2)")
        check_at_most(tower, TOKENS_PER_TOWER, f"towers[{i}]")


def _tokens_conserved(state: TriquetaState) -> None:
    total = [0] * NUM_ANIMALS
    for group in (*state.towers, *(r for r in state.rows if r), *state.face_down, *state.returned, state.gone):
        for token in group:
            total[token] += 1
    for token in state.pending:
        if token >= 0:
            total[token] += 1
    for counts in state.counts:
        for a, count in enumerate(counts):
            total[a] += count
    if total != [TOKENS_PER_ANIMAL] * NUM_ANIMALS:
        raise RecordError(
            f"towers, rows, counts, face_down, returned, gone, pending: the {NUM_TOKENS} animal tokens "
            "are not all accounted for (T2)"
        )


def _turn(state: TriquetaState) -> None:
    in_play = sum(row is not None for row in state.rows)
    if in_play != state.players_in:
        raise RecordError("rows: the rows in play must equal the players still in the round (T5)")
    if state.over:
        if state.pending:
            raise RecordError("pending must be empty once the game is over")
        return
    if not state.players_in:
        raise RecordError("out: at least one seat must still be in the round while the game runs")
    if state.out[state.current]:
        raise RecordError(f"current: seat {state.current} has taken a row this round (it is out)")


def _pending(state: TriquetaState) -> None:
    pending = state.pending
    check_at_most(pending, SLOTS if state.duo else 1, "pending")
    for i, token in enumerate(pending):
        check_range(token, -1, NUM_ANIMALS - 1, f"pending[{i}]")
    used = [token < 0 for token in pending]
    if pending and all(used):
        raise RecordError("pending must hold a token still to deal with, or be empty")
    if len(pending) == 1 and used[0]:
        raise RecordError("pending[0] must be a drawn token")
    if any(used):
        if state.used_kind not in (PLACE, KEEP, DISCARD):
            raise RecordError(f"used_kind must name the first duo token's action, not {state.used_kind!r} (T9)")
    elif state.used_kind != "":
        raise RecordError(f"used_kind must be empty until a duo token is dealt with, not {state.used_kind!r}")


def _final(state: TriquetaState) -> None:
    final = state.final
    if not state.over:
        if final is not None:
            raise RecordError("final must be null until the game is over")
        return
    if final is None:
        raise RecordError("final must hold each seat's T7 choice once the game is over")
    check_length(final, state.num_players, "final")
    for seat, entry in enumerate(final):
        what = f"final[{seat}]"
        if set(entry) != {"added", "boxed"}:
            raise RecordError(f"{what} must be an object with 'added' and 'boxed'")
        added, boxed = entry["added"], entry["boxed"]
        if type(added) is not list or any(type(t) is not int for t in added):
            raise RecordError(f"{what}.added must be a list of animals, not {added!r}")
        _animals(added, f"{what}.added")
        if added != sorted(added):
            raise RecordError(f"{what}.added must be sorted")
        if type(boxed) is not int:
            raise RecordError(f"{what}.boxed must be a whole number, not {boxed!r}")
        if boxed != len(state.face_down[seat]):
            raise RecordError(f"{what}.boxed must be the number of tokens left face down (T7)")
        check_range(len(added) + boxed, 0, MAX_FACE_DOWN, f"{what} tokens")


def validate(state: TriquetaState) -> None:
    """Raise RecordError naming the field unless the just-loaded `state` is consistent."""
    n = state.num_players
    check_range(state.seed, 0, BIG - 1, "seed")
    check_range(state.round, 0, TOWERS, "round")
    if state.over != (state.round == TOWERS):
        raise RecordError(f"over must be true exactly when the {TOWERS} rounds are played")
    check_range(state.current, 0, n - 1, "current")
    check_range(state.rock, 0, n - 1, "rock")
    _per_seat(state)
    if sum(state.trees) != min(state.round, TREE_TILES):
        raise RecordError("trees: one tree tile per round begun after the first (T3)")
    check_length(state.towers, TOWERS, "towers")
    for i, tower in enumerate(state.towers):
        _animals(tower, f"towers[{i}]")
    _animals(state.gone, "gone")
    _pending(state)
    _tokens_conserved(state)
    _towers(state)
    _turn(state)
    _final(state)
