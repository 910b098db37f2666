"""What a Castell view holds, declared as TypedDicts extending the envelope every view shares
(meeple.core.views): `view.py` builds it, the renderers, boards, encoders and move labels read it.

Kept apart from `view.py` so the declarations stay plain Python (with their annotations to read at
run time) when the engine modules are compiled, and so readers can name the types without
importing the engine.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from meeple.core.views import View

#: The parts of a round, as views name them (a finished game's view has no phase).
Phase = Literal["turns", "festival"]
#: The steps of a turn (K4, K5).
Step = Literal["move", "recruit", "train", "special"]
#: A tower as views show it: its levels bottom to top, each the casteller sizes on it.
Tower = list[list[int]]

class LocalTileView(TypedDict):
    """A local performance tile (K10): a "shape" tile asks for these level `widths`, a "skill"
    tile for `min_levels` levels whose skill uses reach `uses` (the other kind's fields empty)."""

    id: str
    kind: str
    stars: int
    widths: list[int]
    min_levels: int
    uses: list[int]


class Region(TypedDict):
    """A region: its neighbours, the castellers waiting there per size, its local performance
    tiles (None where one was claimed), and each seat's special action tokens spent there."""

    id: str
    neighbours: list[str]
    castellers: list[int]
    tiles: list[LocalTileView | None]
    tokens: list[int]


class Wheel(TypedDict):
    """The skill wheel: the side in play, its rotation this round, its segments (a region,
    "all" or "none"), the skill tiles around it and the tile each segment faces now."""

    side: str
    rotation: int
    segments: list[str]
    tiles: list[str]
    facing: dict[str, str]


class CalendarFestival(TypedDict):
    id: str
    region: str
    sizes: list[int]


class CalendarRound(TypedDict):
    round: int
    festivals: list[CalendarFestival]


class BoardRegion(TypedDict):
    """What a seat's player board holds for one region: tokens moved there, prizes won there
    (values) and size tokens won there (sizes)."""

    tokens: int
    prizes: list[int]
    size_tokens: list[int]


class CastellPlayer(TypedDict):
    """A seat: its pawn's region (None before it is placed), its team per casteller size, its
    skill levels by name, special tokens in hand, its player board by region, the local tiles it
    performed, its best festival score and its score parts (catalog names, with "total")."""

    pawn: str | None
    team: list[int]
    skills: dict[str, int]
    special_tokens: int
    board: dict[str, BoardRegion]
    performances: list[LocalTileView]
    best_tower: int
    score: dict[str, int]


class Bag(TypedDict):
    count: int
    castellers: list[int]


class Turn(TypedDict):
    """The steps taken this turn, whether a Recruit may take a second casteller, and whether
    the Special tile gave a free special action."""

    used: list[Step]
    recruit_open: bool
    free_special: bool


class Entry(TypedDict):
    """A seat's entry in this round's festival `slot`, with the tower it builds."""

    seat: int
    slot: int
    tower: Tower


class FestivalEntries(TypedDict):
    """This round's festival decisions: the seats still to decide, the entries so far."""

    queue: list[int]
    entries: list[Entry]


class Entrant(TypedDict):
    seat: int
    tower: Tower
    score: int
    prize: int
    size_tokens: list[int]


class FestivalResult(TypedDict):
    """A scored festival (K8, K9): who entered with what, and the size tokens nobody won."""

    round: int
    festival: str
    region: str
    entrants: list[Entrant]
    discarded: list[int]


class TowerPreview(TypedDict):
    """The best tower the seat can build now: for a festival of this round where its pawn
    stands (with the festival, region and score), else its tallest (those three None); `tower`
    is None when it can build none."""

    festival: str | None
    region: str | None
    tower: Tower | None
    score: int | None


class CastellView(View):
    """A Castell view: the whole table (every seat sees the same), and in a seat's own view
    `tower_preview`. `phase` is the part of the round being played (None once over)."""

    round: int
    phase: Phase | None
    first_player: int
    components: str
    regions: list[Region]
    roads: list[list[str]]
    wheel: Wheel
    calendar: list[CalendarRound]
    players: list[CastellPlayer]
    bag: Bag
    turn: Turn
    festival: FestivalEntries
    results: list[FestivalResult]
    tower_preview: NotRequired[TowerPreview]
