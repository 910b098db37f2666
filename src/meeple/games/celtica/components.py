"""Component facts (rulings C1-C4): druids, cards, amulet parts, the set-up counts, and what a
location on the druids' path is (the path itself is data: `board.toml`, read by board_file.py).

Druid colours and card colours are ints 0-4; part types are ints 0-8 (0 is the centre).
"""

from __future__ import annotations

from dataclasses import dataclass

#: C1: the five druids, used at every player count.
COLOURS: tuple[str, ...] = ("red", "grey", "white", "brown", "black")
NUM_COLOURS = len(COLOURS)
#: C1: 12 druid cards and 4 experience cards per colour.
DRUID_CARDS_PER_COLOUR = 12
EXPERIENCE_CARDS_PER_COLOUR = 4
DRUID_CARDS = DRUID_CARDS_PER_COLOUR * NUM_COLOURS
EXPERIENCE_CARDS = EXPERIENCE_CARDS_PER_COLOUR * NUM_COLOURS

#: C2: 9 part types (the centre and 8 outer parts), 10 copies each: 90 parts.
PARTS: tuple[str, ...] = ("centre", "part1", "part2", "part3", "part4", "part5", "part6", "part7", "part8")
NUM_PART_TYPES = len(PARTS)
COPIES_PER_PART = 10
TOTAL_PARTS = NUM_PART_TYPES * COPIES_PER_PART

#: C4: hand size at the start of each round, parts per player at setup, display size.
HAND_SIZE = 5
START_PARTS = 2
DISPLAY_SIZE = 9

#: C3: what a location does when a druid's move ends there.
START, FIND, RUIN, CULT = 0, 1, 2, 3
#: C3: the location kinds and what each does (find sites take parts, ruins cost parts).
KIND_ACTION = {"start": START, "village": FIND, "castle": FIND, "monastery": FIND, "goal": FIND,
               "ruin": RUIN, "cult": CULT}
#: Kinds that need a number (parts taken or given up).
NUMBERED_KINDS = ("village", "castle", "monastery", "goal", "ruin")
#: Where a board file's sequence comes from: the printed board, or a reconstruction (C3).
PROVENANCES = ("reconstructed", "printed")
#: C3: the path has this many locations at least and at most (the real board has 19).
MIN_LENGTH, MAX_LENGTH = 3, 60
#: A site takes or costs at most a full display of parts.
MAX_NUMBER = DISPLAY_SIZE


@dataclass(frozen=True, slots=True)
class Board:
    """An immutable, validated path (board_file.py builds it). Index 0 is the start, the last
    index the goal; `numbers` is 0 for locations without a number."""

    kinds: tuple[str, ...]
    numbers: tuple[int, ...]
    provenance: str

    @property
    def goal(self) -> int:
        return len(self.kinds) - 1

    @property
    def actions(self) -> tuple[int, ...]:
        return tuple(KIND_ACTION[k] for k in self.kinds)

    def layout(self) -> str:
        """The canonical inline form `layout:<provenance>:<kind> <n>,<kind>,...`."""
        locs = [k if n == 0 else f"{k} {n}" for k, n in zip(self.kinds, self.numbers)]
        return f"{LAYOUT_PREFIX}{self.provenance}:{','.join(locs)}"


#: The `board` option's prefix for an inline layout (see `Board.layout`).
LAYOUT_PREFIX = "layout:"
