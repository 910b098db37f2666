"""Highcard's rules: each seat is dealt one hidden card from a deck of 1..`deck`; in turn, every
seat once keeps its card or swaps it for the top of the deck (the old card shown face up); then
the highest card wins. The module is also the game's text (`action_label`) and heuristics."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Self

from meeple.core.errors import IllegalAction, RecordError
from meeple.core.plugin import GameInfo
from meeple.core.protocol import Event, Game, OptionSpec, check_action_id, winners_by_key
from meeple.core.rng import Rng
from meeple.core.state import State, check_observer, check_seat
from meeple.core.views import View

KINDS = ("keep", "swap")


class HighcardView(View):
    """The envelope, then the cards as a seat sees them (None: face down)."""

    cards: list[int | None]
    discards: list[int]
    deck_size: int


@dataclass(frozen=True, slots=True)
class Choice:
    kind: str

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind}


class HighcardState(State[Choice]):
    cards: list[int]  # each seat's card, hidden from the others until the end
    deck: list[int]  # face down, drawn from the end
    discards: list[int]  # face up

    @classmethod
    def initial(cls, game: Game[Any, Any], num_players: int, seed: int, options: dict[str, Any]) -> Self:
        deck = list(range(1, options["deck"] + 1))
        Rng(seed).shuffle(deck)
        return cls(game=game, num_players=num_players, options=options, current=0, over=False,
                   cards=deck[:num_players], deck=deck[num_players:], discards=[])

    def legal_actions(self) -> list[Choice]:
        return [] if self.over else [Choice(kind) for kind in KINDS]

    def action_id(self, action: Choice) -> int:
        if not isinstance(action, Choice) or action.kind not in KINDS:
            raise IllegalAction("ids", f"{action!r} is not a Highcard action")
        return KINDS.index(action.kind)

    def action_from_id(self, action_id: int) -> Choice:
        return Choice(KINDS[check_action_id(action_id, len(KINDS), "Highcard")])

    def _check(self, action: Choice) -> None:
        self.action_id(action)  # either choice is legal on a seat's turn

    def _do(self, action: Choice, log: list[Event] | None) -> None:
        seat = self.current
        if action.kind == "swap":
            self.discards.append(self.cards[seat])
            self.cards[seat] = self.deck.pop()
        if log is not None:
            log.append(Event(action.kind, seat, {"shown": self.discards[-1]} if action.kind == "swap" else {},
                             secret={"card": self.cards[seat]}, visible_to=(seat,)))
        self.current = seat + 1
        self.over = self.current == self.num_players
        if self.over:
            self.current = 0

    def scores(self) -> list[int]:
        return list(self.cards) if self.over else [0] * self.num_players

    def score_breakdown(self) -> list[dict[str, Any]]:
        return [{"card": score} for score in self.scores()]

    def winners(self) -> list[int]:
        return winners_by_key(self.cards) if self.over else []

    def view(self, player: int | None) -> HighcardView:
        seat = check_seat(self, player)
        return {"game": "highcard", "seat": seat, "current_player": self.current_player, "over": self.over,
                "scores": self.scores(), "winners": self.winners(),
                "cards": [c if self.over or k == seat else None for k, c in enumerate(self.cards)],
                "discards": list(self.discards), "deck_size": len(self.deck)}

    def determinize(self, observer: int, rng: Rng) -> Self:
        check_observer(self, observer)
        hidden = [] if self.over else [k for k in range(self.num_players) if k != observer]  # shown at the end
        unseen = sorted([self.cards[k] for k in hidden] + self.deck)
        rng.shuffle(unseen)
        sample = self.clone()
        for k in hidden:
            sample.cards[k] = unseen.pop()
        sample.deck = unseen
        return sample

    def validate(self) -> None:
        if sorted(self.cards + self.deck + self.discards) != list(range(1, self.options["deck"] + 1)):
            raise RecordError("cards, deck, discards: every card must be in one place")


class HighcardGame(Game[HighcardState, Choice]):
    info = GameInfo(
        name="highcard", title="Highcard", min_players=2, max_players=4, num_actions=len(KINDS),
        max_game_length=4, chance="sampled", information="imperfect", rules_version="1",
        options=(OptionSpec("deck", 12, "cards in the deck", choices=(8, 12)),),
    )
    state_class = HighcardState

    def action_from_json(self, obj: Any) -> Choice:
        if not isinstance(obj, dict) or obj.get("type") not in KINDS:
            raise RecordError(f"not a Highcard action: {obj!r}")
        return Choice(obj["type"])


def action_label(action_json: dict[str, Any], cat: Any, view: Any = None) -> str:
    return str(cat.text(f"action.{action_json['type']}"))


def choose(state: HighcardState, rng: Rng) -> Choice:
    """Keep a card above the deck's middle, else swap."""
    return Choice("keep" if state.cards[state.current] * 2 > state.options["deck"] else "swap")


def evaluate(state: HighcardState) -> list[float]:
    """A seat's card as a share of the deck."""
    return [card / state.options["deck"] for card in state.cards]
