"""A tiny hidden-information trick game that implements the whole game protocol.

It lets the ISMCTS bot and the arena be tested without any real game: 2-4 players are dealt
`HAND` cards from a deck of 1..DECK; the leader plays a card, the others follow in turn, the
highest card takes the trick and leads the next one. After `HAND` tricks the most tricks win
(ties share). Hands and the undealt rest are hidden; played cards are public. Its module doubles
as its heuristics module (`choose` is a sensible greedy policy, `evaluate` a rough estimate).

The registry name is "toytricks"; tests register it with `register_toy()`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meeple.core import registry
from meeple.core.errors import IllegalAction, RecordError
from meeple.core.protocol import Event, Game, OptionSpec, State, check_seat, winners_by_key
from meeple.core.rng import Rng

DECK = 16
HAND = 3
NAME = "toytricks"


def register_toy() -> None:
    """Make the toy game loadable by name (also inside arena worker processes)."""
    registry.GAMES[NAME] = "ai_toygame:ToyGame"


@dataclass(frozen=True, slots=True)
class Play:
    card: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "play", "card": self.card}


class ToyGame(Game):
    name = NAME
    title = "Toy Tricks"
    min_players = 2
    max_players = 4
    heuristics_module = "ai_toygame"
    option_specs = (OptionSpec("hand", HAND, "cards dealt to each player", choices=(1, 2, 3, 4)),)

    def _new_state(self, num_players: int, seed: int, options: dict[str, Any]) -> "ToyState":
        deck = list(range(1, DECK + 1))
        Rng(seed).shuffle(deck)
        size = options["hand"]
        hands = [sorted(deck[i * size:(i + 1) * size]) for i in range(num_players)]
        rest = deck[num_players * size:]
        return ToyState(self, num_players, hands, rest, [], [0] * num_players, 0, 0, options)

    def num_actions(self, num_players: int, **options: Any) -> int:
        return DECK

    def action_from_json(self, obj: Any) -> Play:
        if not isinstance(obj, dict) or obj.get("type") != "play":
            raise RecordError(f"not a toy action: {obj!r}")
        card = obj.get("card")
        if not isinstance(card, int) or isinstance(card, bool) or not 1 <= card <= DECK:
            raise RecordError(f"bad card {card!r}")
        return Play(card)

    def _state_from_json(self, obj: dict[str, Any]) -> "ToyState":
        return ToyState(
            self,
            int(obj["num_players"]),
            [list(h) for h in obj["hands"]],
            list(obj["rest"]),
            [tuple(p) for p in obj["trick"]],
            list(obj["tricks"]),
            int(obj["leader"]),
            int(obj["played"]),
            dict(obj["options"]),
        )


class ToyState(State):
    __slots__ = ("game", "num_players", "hands", "rest", "trick", "tricks", "leader", "played", "options")

    def __init__(self, game, num_players, hands, rest, trick, tricks, leader, played, options) -> None:
        self.game = game
        self.num_players = num_players
        self.hands = hands
        self.rest = rest
        self.trick = trick  # [(seat, card)] of the trick being played
        self.tricks = tricks  # tricks won per seat
        self.leader = leader
        self.played = played  # cards played so far in total
        self.options = options

    @property
    def current_player(self) -> int | None:
        if self.played == self.options.get("hand", HAND) * self.num_players:
            return None
        return (self.leader + len(self.trick)) % self.num_players

    def legal_actions(self) -> list[Play]:
        seat = self.current_player
        return [] if seat is None else [Play(c) for c in self.hands[seat]]

    def action_id(self, action: Play) -> int:
        return action.card - 1

    def action_from_id(self, action_id: int) -> Play:
        if not 0 <= action_id < DECK:
            raise IllegalAction("toy", f"no action {action_id}")
        return Play(action_id + 1)

    def _check(self, action: Play) -> None:
        seat = self.current_player
        if not isinstance(action, Play) or seat is None or action.card not in self.hands[seat]:
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

    def scores(self) -> list[int]:
        return list(self.tricks)

    def score_breakdown(self) -> list[dict[str, Any]]:
        return [{"tricks": t} for t in self.tricks]

    def winners(self) -> list[int]:
        return [] if self.current_player is not None else winners_by_key(self.tricks)

    def view(self, player: int | None) -> dict[str, Any]:
        check_seat(self, player)
        out: dict[str, Any] = {
            "hand_sizes": [len(h) for h in self.hands],
            "trick": [list(p) for p in self.trick],
            "tricks": list(self.tricks),
            "leader": self.leader,
            "played": self.played,
            "rest_size": len(self.rest),
        }
        if player is not None:
            out["hand"] = sorted(self.hands[player])
        return out

    def determinize(self, observer: int, rng: Rng) -> "ToyState":
        """Re-deal every card `observer` has not seen; the pool is sorted first so the sample
        depends only on what the observer knows and on `rng`."""
        check_seat(self, observer, allow_none=False)
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
        rest = sorted(pool[at:])
        return ToyState(self.game, self.num_players, hands, rest, list(self.trick), list(self.tricks),
                        self.leader, self.played, self.options)

    def clone(self) -> "ToyState":
        return ToyState(self.game, self.num_players, [list(h) for h in self.hands], list(self.rest),
                        list(self.trick), list(self.tricks), self.leader, self.played, self.options)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": NAME,
            "num_players": self.num_players,
            "hands": [list(h) for h in self.hands],
            "rest": list(self.rest),
            "trick": [list(p) for p in self.trick],
            "tricks": list(self.tricks),
            "leader": self.leader,
            "played": self.played,
            "options": dict(self.options),
        }


# -- heuristics (this module is the game's heuristics module) ---------------------------------


def choose(state: ToyState, rng: Rng) -> Play:
    """Lead the highest card; follow with the cheapest winner, else throw the lowest card."""
    hand = sorted(state.hands[state.current_player])
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
