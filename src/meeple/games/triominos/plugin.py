"""Triominos as a meeple plugin (the entry point `meeple.games: triominos`): its rules, its words and the
parts the other layers draw, play and encode it with, named here and loaded by whoever needs them."""

from meeple.core.plugin import GamePlugin
from meeple.games.triominos.game import TriominosGame
from meeple.games.triominos.view_types import TriominosView

PLUGIN = GamePlugin(
    rules=TriominosGame,
    describe="meeple.games.triominos.describe",
    catalogs=("meeple.games.triominos",),
    heuristics="meeple.games.triominos.heuristics",
    terminal="meeple.cli.render.triominos",
    board="meeple.boards.triominos",
    encoder="meeple.envs.encoders.triominos",
    batch="meeple.batch.triominos:TriominosBatch",
    calibration="meeple.games.triominos:review_calibration.toml",
    view_type=TriominosView,
)
