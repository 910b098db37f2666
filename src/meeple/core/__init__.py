"""The game protocol and what every game shares: errors, randomness, records, registry."""

from meeple.core.errors import DataError, IllegalAction, MeepleError, OptionError, RecordError
from meeple.core.protocol import Action, Event, Game, OptionSpec
from meeple.core.record import GameRecord
from meeple.core.registry import games, heuristics, load
from meeple.core.rng import Rng
from meeple.core.state import State

__all__ = [
    "Action",
    "DataError",
    "Event",
    "Game",
    "GameRecord",
    "IllegalAction",
    "MeepleError",
    "OptionError",
    "OptionSpec",
    "RecordError",
    "Rng",
    "State",
    "games",
    "heuristics",
    "load",
]
