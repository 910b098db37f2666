"""Which trailing actions a seat may take back (the rule a game server offers as UNDO).

The rule is Board Game Arena's: a player may take back their own actions of the current turn,
back to the last point where anything hidden or random was revealed to anyone, and never once
the next player has acted. Nothing here names a game: whether an action revealed something is
decided through the protocol alone, from what each seat could have predicted.

An action reveals nothing exactly when every seat, knowing only what it knew before, could
compute its outcome. `determinize` gives states consistent with a seat's knowledge; if applying
the action to a few of them yields the same view and the same visible events as the real
position, the outcome did not depend on anything hidden from that seat. A card played from a
hand (illegal or different in a re-dealt sample), a random refill of a display, a reshuffle or a
private draw all make some sample differ, so they are checkpoints that undo cannot cross.
Undoing is then just replaying the record without the taken-back actions: since they revealed
nothing, every seat's view returns to what it was.

A finished game has nothing to undo: the final result has been announced to every seat, so
`undoable_from` returns None once the state after the record is over.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meeple.core.conformance import canonical
from meeple.core.errors import IllegalAction
from meeple.core.protocol import Action, Event
from meeple.core.record import GameRecord
from meeple.core.rng import Rng
from meeple.core.state import State

#: Determinized samples per seat whose views and events are compared with the real outcome. A
#: random refill or reshuffle almost never comes out the same by chance, so three are plenty.
SAMPLES = 3
#: Samples per seat in which the action must merely be legal. A card played from a hand is only
#: caught by a sample whose re-dealt hand lacks it; for a common colour, or late in Triominos
#: when few tiles are unseen, that may be one sample in ten, so many are drawn (legality is cheap
#: to test: no view is built). 16 still missed about 1 reveal in 700; 32 missed none in ~2,200
#: random positions. Fixed seeds keep the answer the same on every call.
LEGAL_SAMPLES = 32
#: The longest run of trailing actions examined: a turn longer than this is not undone further.
MAX_WALK = 50


def _seen(events: list[Event], seat: int) -> str:
    return canonical([event.for_seat(seat) for event in events])


def reveals(before: State[Any], action: Action) -> bool:
    """True when performing `action` in `before` tells some seat something it could not know.

    A secret event (one with params only some seats see) is a private reveal. Otherwise every
    seat q is asked whether it could have predicted the outcome: in states drawn from q's
    knowledge the action must be legal and give q the same view and events as the real one.
    `before` is never changed."""
    after = before.clone()
    events = after.apply(action)
    if any(event.secret for event in events):
        return True
    for seat in range(before.num_players):
        real_view = canonical(after.view(seat))
        real_seen = _seen(events, seat)
        # The actor's legal moves depend only on what it knows, so its samples need no extra
        # legality tests (bots rely on the same: an observation's legal actions are the real ones).
        count = SAMPLES if seat == before.current_player else max(SAMPLES, LEGAL_SAMPLES)
        for k in range(count):
            sample = before.determinize(seat, Rng(k))
            try:
                sample_events = sample.apply(action)
            except IllegalAction:
                return True  # the seat learns the actor held what it played
            if k < SAMPLES and (
                canonical(sample.view(seat)) != real_view or _seen(sample_events, seat) != real_seen
            ):
                return True
    return False


def undo_start(marks: Sequence[tuple[int, bool]], seat: int) -> int | None:
    """The same walk over marks kept as the game went: `marks[i]` is (the seat that made
    action i, whether it revealed something). A server computes each mark once, when the action
    is played, so offering undo costs nothing per message."""
    k = n = len(marks)
    for index in range(n - 1, -1, -1):
        actor, revealed = marks[index]
        if actor != seat or revealed:
            break
        k = index
    return k if k < n else None


def undoable_from(record: GameRecord, seat: int) -> int | None:
    """The index k such that `record.actions[k:]` are the trailing actions `seat` may take
    back (undo = replay `record.actions[:k]`), or None when there is nothing to take back.

    The walk goes back from the last action and stops at an action made by another seat (the
    seat to move before it) or one that reveals something; so after `seat` ends its turn, its
    actions stay undoable only until the next seat acts. At most MAX_WALK actions are examined.
    Raises RecordError if the record does not replay."""
    n = len(record.actions)
    if n == 0:
        return None
    start = max(0, n - MAX_WALK)
    befores: list[State[Any]] = []
    actions: list[Action] = []

    def keep(index: int, action: Action, state: State[Any]) -> None:
        if index >= start:
            actions.append(action)
        if index + 1 >= start and index + 1 < n:
            befores.append(state.clone())

    # The state before action `start` is the initial one when start == 0, else a replay step.
    first = record.new_state() if start == 0 else None
    final = record.replay(keep)
    if final.over:
        return None
    if first is not None:
        befores.insert(0, first)
    k = n
    for index in range(n - 1, start - 1, -1):
        before = befores[index - start]
        if before.current_player != seat or reveals(before, actions[index - start]):
            break
        k = index
    return k if k < n else None
