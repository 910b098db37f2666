"""Bot interface and the simple bots.

A bot chooses an action for the seat to move from an `Observation` (meeple.core.observation):
that seat's legal actions, its view, and a sample state in which everything the seat cannot see
has been re-dealt. Bots never receive the real state, so none can read another seat's secrets.
Game-specific knowledge comes from the game's heuristics, found through its plugin
(meeple.ai.heuristics; never imported here by name).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from meeple.ai.heuristics import heuristics_of
from meeple.core.errors import OptionError
from meeple.core.observation import Observation
from meeple.core.protocol import Action
from meeple.core.rng import Rng
from meeple.core.state import State


class Bot(ABC):
    """A player that picks moves. `name` is the spec that makes it again (e.g. "greedy")."""

    name: str = "bot"

    def choose(self, position: State[Any] | Observation[Any], rng: Rng) -> Action:
        """A legal action for the seat to move. Given a real state, the bot sees only its
        observation of it."""
        seen = position if isinstance(position, Observation) else Observation.of(position)
        return self.decide(seen, rng)

    @abstractmethod
    def decide(self, seen: Observation[Any], rng: Rng) -> Action:
        """A legal action for `seen.seat`, from what that seat may know."""


class RandomBot(Bot):
    """Uniformly random legal moves: the baseline every other bot must beat."""

    name = "random"

    def decide(self, seen: Observation[Any], rng: Rng) -> Action:
        legal: list[Action] = seen.legal_actions()
        return rng.choice(legal)


class GreedyBot(Bot):
    """The game's own one-ply heuristic (its heuristics' `choose`), applied to the
    observation's sample, where the other seats' secrets are re-dealt."""

    name = "greedy"

    def decide(self, seen: Observation[Any], rng: Rng) -> Action:
        module = heuristics_of(seen.game)
        if module is None:
            raise OptionError(f"{seen.game.title} has no greedy heuristic")
        action: Action = module.choose(seen.sample, rng)
        return action


_FACTORIES: dict[str, Callable[[str | None], Bot]] = {
    "random": lambda level: RandomBot(),
    "greedy": lambda level: GreedyBot(),
}


def register_bot(name: str, factory: Callable[[str | None], Bot]) -> None:
    """Add a bot kind; `factory(level)` gets the text after a colon (or None)."""
    _FACTORIES[name] = factory


def bot_names() -> list[str]:
    return sorted(_FACTORIES)


def split_bot_specs(text: str) -> list[str]:
    """Split a comma-separated bot list. A part holding "=" is a setting of the spec before
    it, so "ismcts:normal,cutoff=8,greedy" is ["ismcts:normal,cutoff=8", "greedy"]."""
    specs: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if "=" in part and specs:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs


def make_bot(spec: str) -> Bot:
    """A bot from its spec, e.g. "random", "greedy", "ismcts:hard"."""
    kind, _, level = spec.strip().lower().partition(":")
    if kind not in _FACTORIES:
        raise OptionError(f"no bot {spec!r} (bots: {', '.join(bot_names())})")
    if level and kind in ("random", "greedy"):
        raise OptionError(f"bot {kind!r} has no levels (got {spec!r})")
    return _FACTORIES[kind](level or None)
