"""What each seat may know (see docs/games/celtica.md, "Hidden information").

Secret: hands (druid and experience cards), the order of the three draw piles and the Rng
state. Public: druid positions, the display, every collection (parts are face up, so what a
player gives up at a ruin is public too), hand sizes, the face-up card discards, who owes a
cult-site card (C8) but not its colour.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from meeple.core.rng import Rng
from meeple.core.state import check_observer, check_seat
from meeple.games.celtica import scoring
from meeple.games.celtica.components import COLOURS, NUM_COLOURS
from meeple.games.celtica.phases import PHASES
from meeple.games.celtica.view_types import CelticaPlayer, CelticaView

if TYPE_CHECKING:
    from meeple.games.celtica.state import CelticaState

S = TypeVar("S", bound="CelticaState")

RANGE_C = range(NUM_COLOURS)


def view(s: CelticaState, player: object) -> CelticaView:
    """Everything `player` may see (None: a spectator): public components, hand sizes, who owes
    a cult-site card, and only that seat's own hand and owed colour."""
    player = check_seat(s, player)
    players = []
    for seat in range(s.num_players):
        entry: CelticaPlayer = {
            "parts": list(s.parts[seat]),
            "druid_cards": s.cards_held[seat],
            "experience_cards": s.experience_held[seat],
            "owes_card": s.owed_colour[seat] >= 0,
            "amulets": scoring.breakdown(s.parts[seat]),
        }
        if seat == player:
            entry["hand"] = list(s.hands[seat])
            entry["experience"] = list(s.experience[seat])
            entry["must_play"] = COLOURS[s.owed_colour[seat]] if s.owed_colour[seat] >= 0 else None
        players.append(entry)
    board = s.board
    return {
        "game": s.game.name, "seat": player, "current_player": s.current_player, "over": s.over,
        "scores": s.scores(), "winners": s.winners(),
        "board": [{"kind": kind, "number": number} for kind, number in zip(board.kinds, board.numbers)],
        "provenance": s.board.provenance,
        "druids": list(s.druids),
        "display": list(s.display),
        "supply": len(s.supply),
        "part_discards": list(s.part_discards),
        "druid_deck": len(s.druid_deck),
        "druid_discards": list(s.druid_discards),
        "experience_deck": len(s.experience_deck),
        "experience_discards": list(s.experience_discards),
        "players": players,
        "phase": None if s.over else PHASES[s.phase],
        "pending": s.pending,
        "round": s.round,
        "final_round": s.final_round,
        "ender": s.ender if s.ender >= 0 else None,
        "end_reason": s.end_reason or None,
        "end_queue": list(s.end_queue),
    }


def determinize(state: S, observer: object, rng: Rng) -> S:
    """Re-sample other hands, pile orders and future shuffles, keeping what `observer` knows:
    the public piles and collections, every hand's size, its own hand, and which seats owe a
    cult-site card (the owed colour is re-drawn from the re-sampled hand). The result depends
    only on the observer's view and `rng` (pools are sorted before shuffling), so a bot using it
    cannot be swayed by what it does not see."""
    observer = check_observer(state, observer)
    s = state.clone()
    others = [q for q in range(s.num_players) if q != observer]
    s.druid_deck = _redeal(s.hands, s.cards_held, s.druid_deck, others, rng)
    s.experience_deck = _redeal(s.experience, s.experience_held, s.experience_deck, others, rng)
    for q in others:
        if s.owed_colour[q] >= 0:
            hand = s.hands[q]
            pick = rng.below(s.cards_held[q])
            for c in RANGE_C:
                pick -= hand[c]
                if pick < 0:
                    s.owed_colour[q] = c
                    break
    s.supply.sort()
    rng.shuffle(s.supply)
    s.rng = rng.next64()
    return s


def _redeal(hands: list[list[int]], sizes: list[int], deck: list[int], seats: list[int], rng: Rng) -> list[int]:
    """Shuffle the cards of `seats`' hands with the deck and deal each seat its hand size again;
    returns the new deck."""
    pool = list(deck)
    for q in seats:
        hand = hands[q]
        for c in RANGE_C:
            pool.extend([c] * hand[c])
            hand[c] = 0
    pool.sort()  # canonical: the sample must not depend on the hidden order it started from
    rng.shuffle(pool)
    at = 0
    for q in seats:
        hand = hands[q]
        for c in pool[at:at + sizes[q]]:
            hand[c] += 1
        at += sizes[q]
    return pool[at:]
