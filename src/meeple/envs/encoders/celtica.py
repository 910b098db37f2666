"""Celtica observation encoder: a flat float32 vector from `view(seat)` (layout in
docs/games/celtica.md, "Observation encoding (meeple.envs)").

Seat-relative: relative seat j is seat `(seat + j) % n`, the observer first, then the players in
turn order. The offsets and scalings are `meeple.batch.celtica_layout`'s, shared with the batched
simulator. The board takes `MAX_LENGTH` (60) location slots, so one shape serves every board
file; the length depends only on the player count. The board's encoding is cached (per board
and player count), the flags are set by one indexed write and every other value is written
raw as one run and scaled by one precomputed vector, so an encoding is a few numpy calls.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from meeple.batch.celtica_layout import (
    BOARD,
    BOARD_SIZE,
    DRUID_HOME,
    DRUID_POS,
    END_REASON,
    FLAGS,
    KINDS,
    MAX_AMULETS,
    MAX_ROUND,
    MUST_PLAY,
    P_SCALES,
    PF_CURRENT,
    PF_ENDER,
    PF_OWES,
    PF_QUEUE,
    PF_WIDTH,
    PF_WINNER,
    PHASE,
    PHASE_NAMES,
    PLAYER_FLAGS,
    VALUE_SCALES,
    board_block,
    size,
)
from meeple.envs.encoders.celtica_recall import recall as recall  # the RecallEncoder part (OpenSpiel)
from meeple.envs.encoders.celtica_recall import recall_size as recall_size
from meeple.games.celtica import scoring
from meeple.games.celtica.components import COLOURS, MAX_LENGTH, MAX_NUMBER, NUM_PART_TYPES
from meeple.games.celtica.phases import END_REASONS, PHASES

if TYPE_CHECKING:
    from meeple.games.celtica.state import CelticaState
    from meeple.games.celtica.view_types import CelticaView

_PHASE_INDEX = {name: PHASE + i for i, name in enumerate(PHASE_NAMES)}
_REASON_INDEX = {name: END_REASON + i for i, name in enumerate(END_REASONS)}
_KIND_INDEX = {k: 1 + i for i, k in enumerate(KINDS)}
_NINES = [NUM_PART_TYPES] * MAX_AMULETS
_ZEROS = [0] * MAX_AMULETS

_scales: dict[int, np.ndarray] = {}


def shape(num_players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
    """The same for every option value (the board takes 60 slots whatever its length)."""
    return (size(num_players),)


@lru_cache(maxsize=64)
def _template(kinds: tuple[str, ...], numbers: tuple[int, ...], n: int) -> np.ndarray:
    """A zero vector holding the board's encoding (read-only: each observation copies it)."""
    got = np.zeros(shape(n, {}), dtype=np.float32)
    got[BOARD:BOARD + BOARD_SIZE] = board_block(kinds, numbers)
    got.flags.writeable = False
    return got


@lru_cache(maxsize=4096)
def _amulets(parts: tuple[int, ...]) -> tuple[int, list[int]]:
    """Complete amulets and incomplete sizes of a collection, as the view's "amulets" shows."""
    am = scoring.breakdown(parts)
    return am["complete"], am["incomplete"]


def _scale(n: int) -> np.ndarray:
    got = _scales.get(n)
    if got is None:
        got = _scales[n] = np.array(VALUE_SCALES + P_SCALES * n, dtype=np.float64)
    return got


def encode(view: CelticaView, seat: int, num_players: int, options: Mapping[str, Any]) -> np.ndarray:
    """The observation of `seat` from its view (reads nothing else)."""
    board = view["board"]
    me = view["players"][seat]
    must = me["must_play"]
    return _encode(
        seat, num_players, tuple(loc["kind"] for loc in board), tuple(loc["number"] for loc in board),
        view["provenance"], view["druids"], -1 if must is None else COLOURS.index(must),
        "over" if view["phase"] is None else view["phase"], view["end_reason"], view["final_round"],
        [view["pending"], view["round"], view["display"], view["supply"], view["part_discards"],
         view["druid_deck"], view["druid_discards"], view["experience_deck"], view["experience_discards"],
         me["hand"], me["experience"]],
        [(p["parts"], p["druid_cards"], p["experience_cards"], p["amulets"]["complete"],
          p["amulets"]["incomplete"], p["owes_card"]) for p in view["players"]],
        view["current_player"], view["ender"], view["end_queue"], view["winners"])


def encode_state(state: CelticaState, seat: int) -> np.ndarray:
    """The same vector as `encode(state.view(seat), ...)`, read from the fields that view copies
    (of the hidden ones, the observer's own hand, experience cards and owed colour only)."""
    board = state.board
    owed = state.owed_colour
    return _encode(
        seat, state.num_players, board.kinds, board.numbers, board.provenance, state.druids, owed[seat],
        "over" if state.over else PHASES[state.phase], state.end_reason or None, state.final_round,
        [state.pending, state.round, state.display, len(state.supply), state.part_discards,
         len(state.druid_deck), state.druid_discards, len(state.experience_deck), state.experience_discards,
         state.hands[seat], state.experience[seat]],
        [(parts, state.cards_held[q], state.experience_held[q], *_amulets(tuple(parts)), owed[q] >= 0)
         for q, parts in enumerate(state.parts)],
        state.current_player, state.ender if state.ender >= 0 else None, state.end_queue, state.winners())


def _encode(seat: int, n: int, kinds: tuple[str, ...], numbers: tuple[int, ...], provenance: str,
            druids: Sequence[int], must: int, phase: str, reason: str | None, final_round: bool,
            common: list[Any], players: Sequence[tuple[Sequence[int], int, int, int, Sequence[int], bool]],
            current: int | None, ender: int | None, end_queue: Sequence[int], winners: Sequence[int]) -> np.ndarray:
    """The vector from the values a view shows. `common`: pending, round, then the public piles
    and the observer's hand and experience cards, in the values run's order; `players`: parts,
    druid and experience cards, complete amulets, incomplete sizes, owes a card, per seat."""
    out = _template(kinds, numbers, n).copy()
    goal = len(kinds) - 1
    ones = [DRUID_POS + c * MAX_LENGTH + pos for c, pos in enumerate(druids)]
    ones.extend(DRUID_HOME + c for c, pos in enumerate(druids) if pos == goal)
    if must >= 0:
        ones.append(MUST_PLAY + must)
    ones.append(_PHASE_INDEX[phase])
    if reason is not None:
        ones.append(_REASON_INDEX[reason])
    if final_round:
        ones.append(FLAGS)
    if provenance == "printed":
        ones.append(FLAGS + 1)

    pending, round_no, *piles = common
    values = [pos / goal for pos in druids]
    values += (pending / MAX_NUMBER, min(round_no, MAX_ROUND) / MAX_ROUND, len(kinds) / MAX_LENGTH)
    for pile in piles:
        if isinstance(pile, int):
            values.append(pile)
        else:
            values += pile
    for j in range(n):
        parts, druid_cards, experience_cards, complete, incomplete, owes = players[(seat + j) % n]
        sizes = [*_NINES[:complete], *incomplete]
        values += parts
        values += (druid_cards, experience_cards, complete)
        values += sizes
        values += _ZEROS[:MAX_AMULETS - len(sizes)]
        if owes:
            ones.append(PLAYER_FLAGS + j * PF_WIDTH + PF_OWES)
    if current is not None:
        ones.append(PLAYER_FLAGS + (current - seat) % n * PF_WIDTH + PF_CURRENT)
    if ender is not None:
        ones.append(PLAYER_FLAGS + (ender - seat) % n * PF_WIDTH + PF_ENDER)
    ones.extend(PLAYER_FLAGS + (q - seat) % n * PF_WIDTH + PF_QUEUE for q in end_queue)
    ones.extend(PLAYER_FLAGS + (q - seat) % n * PF_WIDTH + PF_WINNER for q in winners)
    np.multiply(np.array(values, dtype=np.float64), _scale(n), out=out[PLAYER_FLAGS + n * PF_WIDTH:])
    out[ones] = 1.0
    return out
