"""Celtica's actions, their JSON form and their integer ids.

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
from typing import Any, TypeGuard

from meeple.core.checks import object_kind, shown, whole_in_range
from meeple.core.errors import IllegalAction, RecordError
from meeple.core.protocol import check_action_id
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
PLAY_BASE = 0
TAKE_BASE = NUM_COLOURS * MAX_CARDS * (MAX_EXPERIENCE + 1)
GIVE_BASE = TAKE_BASE + NUM_PART_TYPES
CULT_BASE = GIVE_BASE + NUM_PART_TYPES
SWAP_BASE = CULT_BASE + 2
BUY_BASE = SWAP_BASE + NUM_PART_TYPES * NUM_PART_TYPES
DONE_ID = BUY_BASE + NUM_PART_TYPES
NUM_ACTIONS = DONE_ID + 1

KIND_PLAY, KIND_TAKE, KIND_GIVE, KIND_CULT, KIND_SWAP, KIND_BUY, KIND_DONE = range(7)


@dataclass(frozen=True, slots=True)
class Play:
    """Play `cards` druid cards and `experience` experience cards of one colour (C5)."""

    colour: int
    cards: int
    experience: int

    @property
    def id(self) -> int:
        per_cards = MAX_EXPERIENCE + 1
        return PLAY_BASE + (self.colour * MAX_CARDS + self.cards - 1) * per_cards + self.experience

    def to_json(self) -> dict[str, Any]:
        return {"type": "play", "colour": COLOURS[self.colour], "cards": self.cards, "experience": self.experience}


@dataclass(frozen=True, slots=True)
class Take:
    """Take one part of this type from the display at a find site (C6)."""

    part: int

    @property
    def id(self) -> int:
        return TAKE_BASE + self.part

    def to_json(self) -> dict[str, Any]:
        return {"type": "take", "part": PARTS[self.part]}


@dataclass(frozen=True, slots=True)
class GiveUp:
    """Give up one of your parts of this type at a ruin (C7)."""

    part: int

    @property
    def id(self) -> int:
        return GIVE_BASE + self.part

    def to_json(self) -> dict[str, Any]:
        return {"type": "give_up", "part": PARTS[self.part]}


@dataclass(frozen=True, slots=True)
class Cult:
    """At a cult site, draw a druid card (and owe it next turn) or not (C8)."""

    draw: bool

    @property
    def id(self) -> int:
        return CULT_BASE + int(self.draw)

    def to_json(self) -> dict[str, Any]:
        return {"type": "cult", "draw": self.draw}


@dataclass(frozen=True, slots=True)
class Swap:
    """End phase: one experience card swaps your part `give` with a display part `take` (C11)."""

    give: int
    take: int

    @property
    def id(self) -> int:
        return SWAP_BASE + self.give * NUM_PART_TYPES + self.take

    def to_json(self) -> dict[str, Any]:
        return {"type": "swap", "give": PARTS[self.give], "take": PARTS[self.take]}


@dataclass(frozen=True, slots=True)
class Buy:
    """End phase: two experience cards take a part from the display (C11)."""

    part: int

    @property
    def id(self) -> int:
        return BUY_BASE + self.part

    def to_json(self) -> dict[str, Any]:
        return {"type": "buy", "part": PARTS[self.part]}


@dataclass(frozen=True, slots=True)
class Done:
    """End phase: stop spending experience cards (C11)."""


    @property
    def id(self) -> int:
        return DONE_ID

    def to_json(self) -> dict[str, Any]:
        return {"type": "done"}


Action = Play | Take | GiveUp | Cult | Swap | Buy | Done

#: PLAY[colour][cards][experience] (cards from 1; index 0 is empty: no play without a card).
PLAY: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(
    ((),) + tuple(tuple(Play(c, k, e) for e in range(MAX_EXPERIENCE + 1)) for k in range(1, MAX_CARDS + 1))
    for c in range(NUM_COLOURS)
)
#: PLAYS_UPTO[colour][cards][experience]: every Play of that colour with at most that many
#: druid and experience cards, in id order (the play phase's legal actions per colour).
PLAYS_UPTO: tuple[tuple[tuple[tuple[Play, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(tuple(PLAY[c][k][e] for k in range(1, top + 1) for e in range(ex + 1))
              for ex in range(MAX_EXPERIENCE + 1))
        for top in range(MAX_CARDS + 1)
    )
    for c in range(NUM_COLOURS)
)
TAKE = tuple(Take(t) for t in range(NUM_PART_TYPES))
GIVE = tuple(GiveUp(t) for t in range(NUM_PART_TYPES))
CULT = (Cult(False), Cult(True))
SWAP = tuple(tuple(Swap(g, t) for t in range(NUM_PART_TYPES)) for g in range(NUM_PART_TYPES))
BUY = tuple(Buy(t) for t in range(NUM_PART_TYPES))
DONE = Done()

BY_ID: tuple[Action, ...] = tuple(
    [PLAY[c][k][e] for c in range(NUM_COLOURS) for k in range(1, MAX_CARDS + 1) for e in range(MAX_EXPERIENCE + 1)]
    + list(TAKE) + list(GIVE) + list(CULT)
    + [SWAP[g][t] for g in range(NUM_PART_TYPES) for t in range(NUM_PART_TYPES)]
    + list(BUY) + [DONE]
)
assert len(BY_ID) == NUM_ACTIONS and all(a.id == i for i, a in enumerate(BY_ID))


#: Every action class, for `isinstance` checks.
ACTION_TYPES = (Play, Take, GiveUp, Cult, Swap, Buy, Done)
#: Each action class's kind (KIND_PLAY ... KIND_DONE), what the phase allows (C5-C11).
KIND_OF: dict[type, int] = {Play: KIND_PLAY, Take: KIND_TAKE, GiveUp: KIND_GIVE, Cult: KIND_CULT, Swap: KIND_SWAP,
                            Buy: KIND_BUY, Done: KIND_DONE}


def action_id(action: object) -> int:
    """The id of `action` (see the module docstring)."""
    if not isinstance(action, ACTION_TYPES):
        raise IllegalAction("ids", f"{action!r} is not a Celtica action")
    return action.id


def is_known(action: object) -> TypeGuard[Action]:
    """Whether `action` is one of this game's action values (a Play of 13 cards is not)."""
    if not isinstance(action, ACTION_TYPES):
        return False
    try:
        number = action.id
    except TypeError:  # a field of the wrong type
        return False
    return type(number) is int and 0 <= number < NUM_ACTIONS and BY_ID[number] == action


def action_from_id(number: object) -> Action:
    """The action with id `number` (IllegalAction outside 0 to NUM_ACTIONS - 1)."""
    return BY_ID[check_action_id(number, NUM_ACTIONS, "Celtica")]


def _name(obj: dict[str, Any], key: str, names: tuple[str, ...]) -> int:
    value = obj.get(key)
    if type(value) is not str or value not in names:
        raise RecordError(f"Celtica action field {key!r} must be one of {', '.join(names)}, not {shown(value)}")
    return names.index(value)


def _count(obj: dict[str, Any], key: str, low: int, high: int) -> int:
    return whole_in_range(obj.get(key), low, high, f"Celtica action field {key!r}")


#: The fields each kind of action carries besides its type.
FIELDS = {"play": {"colour", "cards", "experience"}, "take": {"part"}, "give_up": {"part"},
          "cult": {"draw"}, "swap": {"give", "take"}, "buy": {"part"}, "done": set()}


def action_from_json(obj: Any) -> Action:
    """Decode an action's JSON form; RecordError names what is malformed."""
    kind = object_kind(obj, FIELDS, "Celtica action")
    if kind == "play":
        colour = _name(obj, "colour", COLOURS)
        return PLAY[colour][_count(obj, "cards", 1, MAX_CARDS)][_count(obj, "experience", 0, MAX_EXPERIENCE)]
    if kind == "take":
        return TAKE[_name(obj, "part", PARTS)]
    if kind == "give_up":
        return GIVE[_name(obj, "part", PARTS)]
    if kind == "cult":
        draw = obj.get("draw")
        if type(draw) is not bool:
            raise RecordError(f"Celtica cult action field 'draw' must be true or false, not {shown(draw)}")
        return CULT[int(draw)]
    if kind == "swap":
        return SWAP[_name(obj, "give", PARTS)][_name(obj, "take", PARTS)]
    if kind == "buy":
        return BUY[_name(obj, "part", PARTS)]
    return DONE
