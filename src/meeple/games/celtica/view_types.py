"""What a Celtica view holds, declared as TypedDicts extending the envelope every view shares
(meeple.core.views): `view.py` builds it, the renderers, boards, encoders and move labels read it.

Kept apart from `view.py` so the declarations stay plain Python (with their annotations to read at
run time) when the engine modules are compiled, and so readers can name the types without
importing the engine.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from meeple.core.views import View
from meeple.games.celtica.phases import Phase


class Amulets(TypedDict):
    """A seat's score breakdown: complete amulets (its score, C12), the sizes of the incomplete
    ones (largest first, the tie-break), and its parts by type."""

    complete: int
    incomplete: list[int]
    parts: list[int]

class Location(TypedDict):
    """A place on the druids' path: its kind ("village", "ruin", ...) and its number (parts
    taken or given up there, else 0)."""

    kind: str
    number: int


class CelticaPlayer(TypedDict):
    """A seat as the view shows it: its parts per type, hand sizes, whether it owes a cult-site
    card, its amulets; in its own view only, its cards per colour and the colour it owes."""

    parts: list[int]
    druid_cards: int
    experience_cards: int
    owes_card: bool
    amulets: Amulets
    hand: NotRequired[list[int]]
    experience: NotRequired[list[int]]
    must_play: NotRequired[str | None]


class CelticaView(View):
    """A Celtica view: the path (`board`) and where each druid stands on it (by colour), the
    display and discards per type or colour, pile sizes, the seats; `phase` is the decision
    pending (None once over), `pending` the parts still to take or give up this turn."""

    board: list[Location]
    provenance: str
    druids: list[int]
    display: list[int]
    supply: int
    part_discards: list[int]
    druid_deck: int
    druid_discards: list[int]
    experience_deck: int
    experience_discards: list[int]
    players: list[CelticaPlayer]
    phase: Phase | None
    pending: int
    round: int
    final_round: bool
    ender: int | None
    end_reason: str | None
    end_queue: list[int]
