"""The game protocol and what every game shares: errors, randomness, records, registry."""

from .errors import DataError, IllegalAction, MeepleError, OptionError, RecordError
from .protocol import Action, Event, Game, OptionSpec, State
from .record import GameRecord
from .registry import games, heuristics, load
from .rng import Rng

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
