"""meeple: a digital table for Triqueta, Triominos, Celtica and Castell.

    >>> import meeple
    >>> meeple.game_names()
    ['castell', 'celtica', 'triominos', 'triqueta']
    >>> game = meeple.load("triqueta")
    >>> state = game.new_game(3, seed=7)
"""

# First: whether the compiled fast path or the pure-Python code runs (see meeple._native).
from meeple import _native  # noqa: F401
from meeple.core import GameRecord, IllegalAction, game_names, game_plugin, load

__all__ = ["GameRecord", "IllegalAction", "game_names", "game_plugin", "load"]
__version__ = "0.1.0"
