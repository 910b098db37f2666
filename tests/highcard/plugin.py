"""Highcard's plugin, announced by the test distribution's entry point (conftest.py)."""

from meeple.core.plugin import GamePlugin
from tests.highcard.rules import HighcardGame, HighcardView

PLUGIN = GamePlugin(
    rules=HighcardGame,
    describe="tests.highcard.rules",
    catalogs=("tests.highcard",),
    heuristics="tests.highcard.rules",
    terminal="tests.highcard.terminal",
    board="tests.highcard.board",
    encoder="tests.highcard.encoder",
    view_type=HighcardView,
)
