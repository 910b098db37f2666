"""What a Triominos view holds, declared as TypedDicts extending the envelope every view shares
(meeple.core.views): `view.py` builds it, the renderers, boards, encoders and move labels read it.

Kept apart from `view.py` so the declarations stay plain Python (with their annotations to read at
run time) when the engine modules are compiled, and so readers can name the types without
importing the engine.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from meeple.core.views import View

Direction = Literal["up", "down"]


class Cell(TypedDict):
    """A triangle of the lattice: its position and which way it points."""

    x: int
    y: int
    dir: Direction


class PlacedTile(Cell):
    """A tile on the board, in placement order: its name ("1-2-5"), its rotation and the numbers
    at its corners (clockwise from the cell's first lattice point)."""

    tile: str
    rot: int
    corners: list[int]


class OpeningDraw(TypedDict):
    """One tile drawn to decide who opens the round (M8)."""

    seat: int
    tile: str


class RoundEnd(TypedDict):
    """How a finished round ended: a seat went out, or every seat was blocked."""

    round: int
    end: Literal["out", "blocked"]
    player: int | None


class TriominosOptions(TypedDict):
    """The rule options in play (M6 variant, M10 match)."""

    drawn_tile_only: bool
    match: bool
    target: int


class RoundScore(TypedDict):
    """A seat's score parts in one round (scoring.PARTS) and their total."""

    tiles: int
    bridge: int
    hexagon: int
    double_hexagon: int
    triple_hexagon: int
    draws: int
    no_play: int
    going_out: int
    opponents_racks: int
    rack_left: int
    total: int


class ScoreBreakdown(RoundScore):
    """A seat's score parts summed over the rounds, its total, and each round on its own."""

    rounds: list[RoundScore]


class TriominosView(View):
    """A Triominos view: the board in placement order, the empty cells next to it (`open`), the
    opening draws of each go this round, rack sizes; the seat's own `rack`, and `last_drawn` when
    it drew this turn."""

    num_players: int
    options: TriominosOptions
    round: int
    draws_this_turn: int
    pool: int
    rack_sizes: list[int]
    drawn_this_round: list[int]
    board: list[PlacedTile]
    open: list[Cell]
    breakdown: list[ScoreBreakdown]
    opening: list[list[OpeningDraw]]
    opener: int
    results: list[RoundEnd]
    rack: NotRequired[list[str]]
    last_drawn: NotRequired[str]
