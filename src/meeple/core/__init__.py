"""The game protocol and what every game shares: errors, randomness, records, plugins."""

from meeple.core.errors import DataError, IllegalAction, MeepleError, OptionError, RecordError
from meeple.core.plugin import GameInfo, GamePlugin, PluginError
from meeple.core.protocol import Action, Event, Game, OptionSpec
from meeple.core.record import GameRecord
from meeple.core.registry import game_names, game_plugin, load
from meeple.core.rng import Rng
from meeple.core.state import State

__all__ = [
    "Action",
    "DataError",
    "Event",
    "Game",
    "GameInfo",
    "GamePlugin",
    "GameRecord",
    "IllegalAction",
    "MeepleError",
    "OptionError",
    "OptionSpec",
    "PluginError",
    "RecordError",
    "Rng",
    "State",
    "game_names",
    "game_plugin",
    "load",
]
