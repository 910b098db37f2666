"""Component counts and names (rulings C1, C2, C4): plain constants, used as small ints.

Druid colours and card colours are ints 0-4; part types are ints 0-8 (0 is the centre).
"""

from __future__ import annotations

#: C1: the five druids, used at every player count.
COLOURS: tuple[str, ...] = ("red", "grey", "white", "brown", "black")
NUM_COLOURS = 5
#: C1: 12 druid cards and 4 experience cards per colour.
DRUID_CARDS_PER_COLOUR = 12
EXPERIENCE_CARDS_PER_COLOUR = 4
DRUID_CARDS = DRUID_CARDS_PER_COLOUR * NUM_COLOURS
EXPERIENCE_CARDS = EXPERIENCE_CARDS_PER_COLOUR * NUM_COLOURS

#: C2: 9 part types (the centre and 8 outer parts), 10 copies each: 90 parts.
PARTS: tuple[str, ...] = ("centre", "part1", "part2", "part3", "part4", "part5", "part6", "part7", "part8")
NUM_PART_TYPES = 9
COPIES_PER_PART = 10
TOTAL_PARTS = NUM_PART_TYPES * COPIES_PER_PART

#: C4: hand size at the start of each round, parts per player at setup, display size.
HAND_SIZE = 5
START_PARTS = 2
DISPLAY_SIZE = 9
