"""What a Triqueta view holds, declared as TypedDicts extending the envelope every view shares
(meeple.core.views): `view.py` builds it, the renderers, boards, encoders and move labels read it.

Kept apart from `view.py` so the declarations stay plain Python (with their annotations to read at
run time) when the engine modules are compiled, and so readers can name the types without
importing the engine.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from meeple.core.views import View


class TriquetaPlayer(TypedDict):
    """A seat as the view shows it: animals collected (counts per kind), how many tokens it holds
    face down or returned, and, in its own view only, which ones."""

    collection: list[int]
    face_down_count: int
    returned_count: int
    out: bool
    trees: int
    score: int
    face_down: NotRequired[list[int]]
    returned: NotRequired[list[int]]
    score_with_face_down: NotRequired[int]


class TriquetaFinal(TypedDict):
    """T7 for one seat at the end: the face-down tokens added to its collection, and how many
    went back to the box."""

    added: list[int]
    boxed: int


class TriquetaView(View):
    """A Triqueta view: `rows` holds each row's tokens (None once taken this round); `pending`
    and `used_kind` only in the view of the seat looking at its draw; `final` once over."""

    num_players: int
    duo: bool
    round: int
    rounds: int
    rock: int
    towers: list[int]
    current_tower: int
    rows: list[list[int] | None]
    players: list[TriquetaPlayer]
    pending_count: int
    unseen_count: int
    pending: NotRequired[list[int]]
    used_kind: NotRequired[str]
    final: NotRequired[list[TriquetaFinal]]
