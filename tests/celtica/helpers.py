"""Shared helpers of the Celtica tests. Test positions: a real new game whose components are then placed by hand,
with every card and part still accounted for (C1)."""

from __future__ import annotations

from collections.abc import Sequence

from meeple.games.celtica.components import (
    COPIES_PER_PART,
    DRUID_CARDS_PER_COLOUR,
    EXPERIENCE_CARDS_PER_COLOUR,
    NUM_COLOURS,
    NUM_PART_TYPES,
)
from meeple.games.celtica.game import CelticaGame
from meeple.games.celtica.state import CelticaState

GAME = CelticaGame()
RED, GREY, WHITE, BROWN, BLACK = range(5)
CENTRE = 0


def counts(items: Sequence[int], size: int) -> list[int]:
    out = [0] * size
    for item in items:
        out[item] += 1
    return out


def _rest(total: int, size: int, used: list[list[int]]) -> list[int]:
    """Items of each kind not placed anywhere else, as a list (kind order, deterministic)."""
    left = [total - sum(row[k] for row in used) for k in range(size)]
    assert all(x >= 0 for x in left), f"more components placed than exist: {left}"
    return [k for k in range(size) for _ in range(left[k])]


def position(
    n: int = 3,
    *,
    druids: Sequence[int] = (0, 0, 0, 0, 0),
    hands: Sequence[Sequence[int]] | None = None,
    experience: Sequence[Sequence[int]] | None = None,
    parts: Sequence[Sequence[int]] | None = None,
    display: Sequence[int] | None = None,
    deck_top: Sequence[int] = (),
    experience_top: Sequence[int] = (),
    supply_top: Sequence[int] = (),
    druid_discards: Sequence[int] = (0,) * NUM_COLOURS,
    experience_discards: Sequence[int] = (0,) * NUM_COLOURS,
    part_discards: Sequence[int] = (0,) * NUM_PART_TYPES,
    deck_rest: bool = True,
    experience_rest: bool = True,
    supply_rest: bool = True,
    player: int = 0,
    board: str = "",
) -> CelticaState:
    """A play-phase position for `player`. Hands/experience are counts per colour, parts/display
    counts per part type. `*_top` are the next items drawn (last drawn first is index 0); the
    rest of each pile follows unless `*_rest` is False, in which case the leftovers go to the
    matching discard pile."""
    s = GAME.new_game(n, seed=0, board=board)
    no_cards = [0] * NUM_COLOURS
    s.druids = list(druids)
    s.druids_home = sum(1 for x in s.druids if x == s.goal)
    s.final_round = s.druids_home > 0
    s.hands = [list(h) for h in (hands or [no_cards] * n)]
    s.cards_held = [sum(h) for h in s.hands]
    s.experience = [list(h) for h in (experience or [no_cards] * n)]
    s.experience_held = [sum(h) for h in s.experience]
    s.parts = [list(h) for h in (parts or [[0] * NUM_PART_TYPES] * n)]
    s.display = list(display) if display is not None else [1] * NUM_PART_TYPES
    s.display_size = sum(s.display)

    def pile(total, size, used, top, keep_rest, discards):
        discards = list(discards)
        rest = _rest(total, size, used + [counts(top, size), discards])
        if not keep_rest:
            for k in rest:
                discards[k] += 1
            rest = []
        return rest + list(reversed(top)), discards

    s.druid_deck, s.druid_discards = pile(
        DRUID_CARDS_PER_COLOUR, NUM_COLOURS, s.hands, deck_top, deck_rest, druid_discards)
    s.experience_deck, s.experience_discards = pile(
        EXPERIENCE_CARDS_PER_COLOUR, NUM_COLOURS, s.experience, experience_top, experience_rest, experience_discards)
    s.supply, s.part_discards = pile(
        COPIES_PER_PART, NUM_PART_TYPES, s.parts + [s.display], supply_top, supply_rest, part_discards)
    s.num_part_discards = sum(s.part_discards)
    s.owed_colour = [-1] * n
    s.current = player
    s.validate()
    return s


def hand(*cards: int) -> list[int]:
    """Counts per colour from a list of colours."""
    return counts(cards, NUM_COLOURS)


def part_counts(*types: int) -> list[int]:
    return counts(types, NUM_PART_TYPES)


def play_kind(state: CelticaState) -> list[str]:
    return sorted({a.to_json()["type"] for a in state.legal_actions()})


def turn(state: CelticaState, colour: int, cards: int, exp: int = 0) -> list:
    """Play these cards and settle the turn's sub-decisions with the first legal choice (the
    first parts in type order, no cult-site card); returns all events."""
    from meeple.games.celtica.actions import PLAY
    from meeple.games.celtica.phases import CULT_PHASE, GIVE_PHASE, TAKE_PHASE

    events = state.apply(PLAY[colour][cards][exp])
    while state.phase in (TAKE_PHASE, GIVE_PHASE, CULT_PHASE):
        events += state.apply(state.legal_actions()[0])
    return events
