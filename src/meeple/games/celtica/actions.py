"""Celtica's actions, declared once (meeple.core.actionfields): their JSON form and integer ids follow.

Every decision is a small sub-decision so the id space is one fixed range for every player
count (C5-C8, C11):

    Play(colour, cards, experience)   ids   0-299  colour*60 + (cards-1)*5 + experience
    Take(part)     find site pick     ids 300-308
    GiveUp(part)   ruin discard       ids 309-317
    Cult(draw)     cult site choice   ids 318 (pass), 319 (draw)
    Swap(give, take) end phase        ids 320-400  320 + give*9 + take
    Buy(part)      end phase          ids 401-409
    Done           end phase          id  410

Actions are prebuilt singletons (the tables below), so legal_actions() allocates nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from meeple.core.action import DeclaredAction
from meeple.core.actionfields import ActionSpace, Flag, Kind, Names, Whole
from meeple.games.celtica.components import (
    COLOURS,
    DRUID_CARDS_PER_COLOUR,
    EXPERIENCE_CARDS_PER_COLOUR,
    NUM_COLOURS,
    NUM_PART_TYPES,
    PARTS,
)

#: At most this many druid and experience cards of one colour are played at once (C1, C5).
MAX_CARDS = DRUID_CARDS_PER_COLOUR
MAX_EXPERIENCE = EXPERIENCE_CARDS_PER_COLOUR


@dataclass(frozen=True, slots=True)
class Play(DeclaredAction):
    """Play `cards` druid cards and `experience` experience cards of one colour (C5)."""

    colour: int
    cards: int
    experience: int


@dataclass(frozen=True, slots=True)
class Take(DeclaredAction):
    """Take one part of this type from the display at a find site (C6)."""

    part: int


@dataclass(frozen=True, slots=True)
class GiveUp(DeclaredAction):
    """Give up one of your parts of this type at a ruin (C7)."""

    part: int


@dataclass(frozen=True, slots=True)
class Cult(DeclaredAction):
    """At a cult site, draw a druid card (and owe it next turn) or not (C8)."""

    draw: bool


@dataclass(frozen=True, slots=True)
class Swap(DeclaredAction):
    """End phase: one experience card swaps your part `give` with a display part `take` (C11)."""

    give: int
    take: int


@dataclass(frozen=True, slots=True)
class Buy(DeclaredAction):
    """End phase: two experience cards take a part from the display (C11)."""

    part: int


@dataclass(frozen=True, slots=True)
class Done(DeclaredAction):
    """End phase: stop spending experience cards (C11)."""


Action = Play | Take | GiveUp | Cult | Swap | Buy | Done

_PART = Names(PARTS)
SPACE: ActionSpace[Action] = ActionSpace("Celtica", [
    Kind(Play, "play", colour=Names(COLOURS), cards=Whole(1, MAX_CARDS), experience=Whole(0, MAX_EXPERIENCE)),
    Kind(Take, "take", part=_PART),
    Kind(GiveUp, "give_up", part=_PART),
    Kind(Cult, "cult", draw=Flag()),
    Kind(Swap, "swap", give=_PART, take=_PART),
    Kind(Buy, "buy", part=_PART),
    Kind(Done, "done"),
])
NUM_ACTIONS = SPACE.num_actions
BY_ID: tuple[Action, ...] = tuple(SPACE.all_actions())
action_from_json = SPACE.action_from_json

_PLAYS = SPACE.block(Play)
_PER_COLOUR = MAX_CARDS * (MAX_EXPERIENCE + 1)
#: PLAY[colour][cards][experience] (cards from 1; index 0 is empty: no play without a card).
PLAY: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    ((),) + tuple(tuple(_PLAYS[c * _PER_COLOUR + (k - 1) * (MAX_EXPERIENCE + 1) + e] for e in range(MAX_EXPERIENCE + 1))
                  for k in range(1, MAX_CARDS + 1))
    for c in range(NUM_COLOURS)
)
#: PLAYS_UPTO[colour][cards][experience]: every Play of that colour with at most that many
#: druid and experience cards, in id order (the play phase's legal actions per colour).
PLAYS_UPTO: tuple[tuple[tuple[tuple[Action, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(tuple(PLAY[c][k][e] for k in range(1, top + 1) for e in range(ex + 1))
              for ex in range(MAX_EXPERIENCE + 1))
        for top in range(MAX_CARDS + 1)
    )
    for c in range(NUM_COLOURS)
)
# The space's own instances, so that search finds their ids by identity.
TAKE = tuple(SPACE.block(Take))
GIVE = tuple(SPACE.block(GiveUp))
CULT = tuple(SPACE.block(Cult))
_SWAPS = SPACE.block(Swap)
SWAP = tuple(tuple(_SWAPS[g * NUM_PART_TYPES:(g + 1) * NUM_PART_TYPES]) for g in range(NUM_PART_TYPES))
BUY = tuple(SPACE.block(Buy))
DONE = SPACE.block(Done)[0]
