"""Castell as a meeple plugin (the entry point `meeple.games: castell`): its rules, its words and the
parts the other layers draw, play and encode it with, named here and loaded by whoever needs them."""

from meeple.core.plugin import GamePlugin
from meeple.games.castell.game import CastellGame
from meeple.games.castell.view_types import CastellView

PLUGIN = GamePlugin(
    rules=CastellGame,
    describe="meeple.games.castell.describe",
    catalogs=("meeple.games.castell",),
    heuristics="meeple.games.castell.heuristics",
    terminal="meeple.cli.render.castell",
    board="meeple.boards.castell",
    encoder="meeple.envs.encoders.castell",
    calibration="meeple.games.castell:review_calibration.toml",
    view_type=CastellView,
    batch="meeple.batch.castell:CastellBatch",
)
