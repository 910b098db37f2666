"""A tiny hidden-information trick game that implements the whole game protocol.

It lets the ISMCTS bot and the arena be tested without any real game: 2-4 players are dealt
`HAND` cards from a deck of 1..DECK; the leader plays a card, the others follow in turn, the
highest card takes the trick and leads the next one. After `HAND` tricks the most tricks win
(ties share). Hands and the undealt rest are hidden; played cards are public. Its module doubles
as its heuristics (`choose` is a sensible greedy policy, `evaluate` a rough estimate).

Its plugin is `PLUGIN`, named "toytricks"; tests register it with the `toy` fixture (conftest.py).
`PLAIN_PLUGIN` is the same game without heuristics ("toyplain").
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, NotRequired, Self

from meeple.core.checks import whole_in_range
from meeple.core.errors import IllegalAction, RecordError
from meeple.core.plugin import GameInfo, GamePlugin
from meeple.core.protocol import Event, Game, OptionSpec, check_action_id, winners_by_key
from meeple.core.rng import Rng
from meeple.core.state import State, check_observer, check_seat
from meeple.core.views import View

DECK = 16
HAND = 3
NAME = "toytricks"


class ToyView(View):
    hand_sizes: list[int]
    trick: list[list[int]]
    tricks: list[int]
    leader: int
    played: int
    rest_size: int
    hand: NotRequired[list[int]]


@dataclass(frozen=True, slots=True)
class Play:
    card: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "play", "card": self.card}


class ToyState(State[Play]):
    """The protocol's smallest game: every field declared once, JSON and clone derived."""

    hands: list[list[int]]
    rest: list[int]
    trick: list[tuple[int, int]]  # (seat, card) of the trick being played
    tricks: list[int]  # tricks won per seat
    leader: int
    played: int  # cards played so far in total

    @classmethod
    def initial(cls, game: Game[Any, Any], num_players: int, seed: int, options: dict[str, Any]) -> Self:
        deck = list(range(1, DECK + 1))
        Rng(seed).shuffle(deck)
        size = options["hand"]
        hands = [sorted(deck[i * size:(i + 1) * size]) for i in range(num_players)]
        return cls(game=game, num_players=num_players, options=options, current=0, over=False, hands=hands,
                   rest=deck[num_players * size:], trick=[], tricks=[0] * num_players, leader=0, played=0)

    def legal_actions(self) -> list[Play]:
        return [] if self.over else [Play(c) for c in self.hands[self.current]]

    def action_id(self, action: Play) -> int:
        if not isinstance(action, Play):
            raise IllegalAction("ids", f"{action!r} is not a {self.game.title} action")
        return action.card - 1

    def action_from_id(self, action_id: int) -> Play:
        return Play(check_action_id(action_id, DECK, self.game.title) + 1)

    def _check(self, action: Play) -> None:
        if not isinstance(action, Play) or action.card not in self.hands[self.current]:
            raise IllegalAction("toy", f"{action!r} is not in the hand")

    def _do(self, action: Play, log: list[Event] | None) -> None:
        seat = (self.leader + len(self.trick)) % self.num_players
        self.hands[seat].remove(action.card)
        self.trick.append((seat, action.card))
        self.played += 1
        if log is not None:
            log.append(Event("play", seat, {"card": action.card}))
        if len(self.trick) == self.num_players:
            winner = max(self.trick, key=lambda p: p[1])[0]
            self.tricks[winner] += 1
            self.leader = winner
            self.trick = []
            if log is not None:
                log.append(Event("trick", winner))
        self.current = (self.leader + len(self.trick)) % self.num_players
        self.over = self.played == self.options["hand"] * self.num_players

    def scores(self) -> list[int]:
        return list(self.tricks)

    def score_breakdown(self) -> list[dict[str, Any]]:
        return [{"tricks": t} for t in self.tricks]

    def winners(self) -> list[int]:
        return winners_by_key(self.tricks) if self.over else []

    def view(self, player: int | None) -> ToyView:
        seat = check_seat(self, player)
        out: ToyView = {
            "game": NAME, "seat": seat, "current_player": self.current_player, "over": self.over,
            "scores": self.scores(), "winners": self.winners(),
            "hand_sizes": [len(h) for h in self.hands],
            "trick": [list(p) for p in self.trick],
            "tricks": list(self.tricks),
            "leader": self.leader,
            "played": self.played,
            "rest_size": len(self.rest),
        }
        if seat is not None:
            out["hand"] = sorted(self.hands[seat])
        return out

    def determinize(self, observer: int, rng: Rng) -> ToyState:
        """Re-deal every card `observer` has not seen; the pool is sorted first so the sample
        depends only on what the observer knows and on `rng`."""
        check_observer(self, observer)
        pool = sorted(c for seat, h in enumerate(self.hands) if seat != observer for c in h)
        pool += self.rest
        pool.sort()
        rng.shuffle(pool)
        hands = []
        at = 0
        for seat, hand in enumerate(self.hands):
            if seat == observer:
                hands.append(list(hand))
            else:
                hands.append(sorted(pool[at:at + len(hand)]))
                at += len(hand)
        copy = self.clone()
        copy.hands, copy.rest = hands, sorted(pool[at:])
        return copy

    def validate(self) -> None:
        cards = sorted([c for h in self.hands for c in h] + self.rest + [c for _, c in self.trick])
        if len(self.hands) != self.num_players or len(cards) + self.played - len(self.trick) != DECK:
            raise RecordError("hands, rest, trick: every card must be in one place")


INFO = GameInfo(
    name=NAME, title="Toy Tricks", min_players=2, max_players=4, num_actions=DECK, max_game_length=4 * 4,
    chance="sampled", information="imperfect", rules_version="1",
    options=(OptionSpec("hand", HAND, "cards dealt to each player", choices=(1, 2, 3, 4)),),
)


class ToyGame(Game[ToyState, Play]):
    info = INFO
    state_class = ToyState

    def action_from_json(self, obj: Any) -> Play:
        if not isinstance(obj, dict) or obj.get("type") != "play":
            raise RecordError(f"not a toy action: {obj!r}")
        return Play(whole_in_range(obj.get("card"), 1, DECK, "card"))


class PlainGame(ToyGame):
    """The toy game under another name, for a plugin without heuristics."""

    info = replace(INFO, name="toyplain")


PLUGIN = GamePlugin(rules=ToyGame, describe="tests.ai.ai_toygame", catalogs=(), heuristics="tests.ai.ai_toygame")
PLAIN_PLUGIN = GamePlugin(rules=PlainGame, describe="tests.ai.ai_toygame", catalogs=())


def action_label(action_json: dict[str, Any], cat: Any, view: Any = None) -> str:
    """A move in words (no catalog: the toy game has none)."""
    return f"play {action_json['card']}"


# -- heuristics (this module is the game's heuristics) ---------------------------------------


def choose(state: ToyState, rng: Rng) -> Play:
    """Lead the highest card; follow with the cheapest winner, else throw the lowest card."""
    hand = sorted(state.hands[state.current])
    if not state.trick:
        return Play(hand[-1])
    best = max(card for _, card in state.trick)
    winners = [c for c in hand if c > best]
    return Play(winners[0] if winners else hand[0])


def evaluate(state: ToyState) -> list[float]:
    """Tricks won plus a share of the remaining tricks by hand strength, scaled to [0, 1]."""
    left = len(state.hands[0]) + (1 if state.trick else 0)
    power = [sum(h) + 1 for h in state.hands]
    total = sum(power)
    expect = [state.tricks[s] + left * power[s] / total for s in range(state.num_players)]
    top = max(expect)
    return [e / top if top else 0.0 for e in expect]


#: What `features` measures per seat (meeple.ai.fit_evaluation fits weights to them).
FEATURE_NAMES = ("tricks won", "sum of the cards in hand")


def features(state: ToyState) -> list[list[float]]:
    """Per seat: tricks won and hand strength."""
    return [[float(state.tricks[s]), float(sum(state.hands[s]))] for s in range(state.num_players)]
